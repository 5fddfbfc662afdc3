"""Amendments in the archive: each matter's operations and what enacting it applied (optional ``amendments``).

``amendments[]``: ``post`` (a post id), ``operations`` (as stored), ``base_ruleset_revision`` (the Ruleset
revision number it was written against, or null), ``written_at``, and ``applications[]``: ``applied``,
``by``, ``at``, ``note``, ``descriptions`` (plain words), ``revisions`` (``{"page": slug, "number": n}``),
``parameters`` (``{"parameter", "old", "new"}``), ``renames`` (``{"old", "new"}``), ``reverted_at``,
``reverted_by``. The GNDT update an application made travels in the GNDT log; its link is not kept.
"""

from __future__ import annotations

from typing import Any

from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.flows.amendments.shape import AmendmentRefused, check_shape
from blognomic.moving.archive.fields import MAX_INTEGER, ArchiveError, Reader, check_json, format_time
from ruleset.models import Revision
from votes.models import Amendment


def export_amendments(names: dict[int, str]) -> list[dict]:
    revisions = {
        pk: {"page": slug, "number": number}
        for pk, slug, number in Revision.objects.filter(post__isnull=False).values_list("pk", "page__slug", "number")
    }
    applications: dict[int, list[dict]] = {}
    for a in AmendmentApplication.objects.order_by("at", "pk"):
        applications.setdefault(a.post_id, []).append(
            {
                "applied": a.applied,
                "by": names.get(a.by_id),
                "at": format_time(a.at),
                "note": a.note,
                "descriptions": a.descriptions,
                "revisions": [revisions[pk] for pk in a.revisions if pk in revisions],
                "parameters": [{k: change[k] for k in ("parameter", "old", "new")} for change in a.parameters],
                "renames": [{k: rename[k] for k in ("old", "new")} for rename in a.renames],
                "reverted_at": format_time(a.reverted_at) if a.reverted_at else None,
                "reverted_by": names.get(a.reverted_by_id),
            }
        )
    return [
        {
            "post": a.post.slug,
            "operations": a.operations,
            "base_ruleset_revision": a.base_ruleset_revision,
            "written_at": format_time(a.written_at),
            "applications": applications.get(a.post_id, []),
        }
        for a in Amendment.objects.select_related("post").order_by("post__posted_at", "post_id")
    ]


def parse_amendments(items, ids: set[str]) -> list[dict]:
    """Check ``amendments[]`` without touching the database; ``ids`` are the posts the archive holds."""
    parsed = []
    for index, item in enumerate(items or []):
        r = Reader(item, f"amendments[{index}]")
        post = r.text("post")
        if post not in ids:
            raise ArchiveError(r.at("post"), f"no post “{post}” in this archive")
        try:
            operations = check_shape(check_json(r.data.get("operations"), r.at("operations")))
        except AmendmentRefused as error:
            raise ArchiveError(r.at("operations"), str(error)) from None
        base = r.data.get("base_ruleset_revision")
        if base is not None and (type(base) is not int or not 1 <= base <= MAX_INTEGER):
            raise ArchiveError(r.at("base_ruleset_revision"), "must be a revision number or null")
        applications = []
        for n, raw in enumerate(r.data.get("applications") or []):
            a = Reader(raw, r.at(f"applications[{n}]"))
            applications.append(
                {
                    "applied": a.boolean("applied"),
                    "by": a.text("by", required=False) or None,
                    "at": a.time("at"),
                    "note": a.text("note", required=False),
                    "descriptions": _texts(a, "descriptions"),
                    **{
                        key: check_json(a.data.get(key) or [], a.at(key))
                        for key in ("revisions", "parameters", "renames")
                    },
                    "reverted_at": a.time("reverted_at", required=False),
                    "reverted_by": a.text("reverted_by", required=False) or None,
                }
            )
        parsed.append(
            {
                "post": post,
                "operations": operations,
                "base": base,
                "written_at": r.time("written_at"),
                "applications": applications,
            }
        )
    return parsed


def _texts(r: Reader, key: str) -> list[str]:
    value = r.data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ArchiveError(r.at(key), "must be a list of text")
    return check_json(value, r.at(key))


def import_amendments(parsed: list[dict], *, posts: dict[str, Any], users: dict[str, Any]) -> None:
    """Write the amendments and their applications, linking the revisions the archive's pages hold."""
    if not parsed:
        return
    revisions = {(slug, number): pk for pk, slug, number in Revision.objects.values_list("pk", "page__slug", "number")}
    for entry in parsed:
        post = posts[entry["post"]]
        Amendment(
            post=post,
            operations=entry["operations"],
            base_ruleset_revision=entry["base"],
            written_at=entry["written_at"],
        ).save()
        for a in entry["applications"]:
            AmendmentApplication.objects.create(
                post=post,
                digest=Amendment.objects.get(post=post).digest,
                applied=a["applied"],
                by=users.get(a["by"]),
                at=a["at"],
                note=a["note"],
                descriptions=a["descriptions"],
                revisions=[
                    revisions[(r.get("page"), r.get("number"))]
                    for r in a["revisions"]
                    if isinstance(r, dict) and (r.get("page"), r.get("number")) in revisions
                ],
                parameters=a["parameters"],
                renames=a["renames"],
                reverted_at=a["reverted_at"],
                reverted_by=users.get(a["reverted_by"]),
            )
