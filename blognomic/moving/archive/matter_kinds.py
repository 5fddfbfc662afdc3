"""A dynasty's own kinds of votable matter and the effects of resolving matters, in the archive's optional
``matter_kinds[]`` and ``matter_effects[]`` (retired ones too), and each post's ``matter_kind``.

Without them an imported Petition or Town Meeting would be judged by the core rules of Proposals. Kinds are
referred to by their ``pk`` (a post's ``matter_kind``, an effect's ``matter_kind``), which an import into an
empty database keeps. ``parse_matter_kinds`` checks the shape without the database; ``import_matter_kinds``
then checks each definition as ``votes.matter_kind_services`` does when an admin defines it (the GNDT columns as they
stood at its ``at``, the other kinds then in force, an enacted Proposal cited) and writes them, inside the
importer's transaction, so a bad one writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from blognomic.moving.archive.fields import ArchiveError, Reader, check_json, format_time
from blognomic.moving.archive.keys import keep_primary_keys, optional_pk
from dynasties.models import Dynasty, User
from votes import effects, matter_kind_rules
from votes.matter_kind_services import CITE_ENACTED, KindError, effect_spec_from, game_values, kind_spec_from
from votes.models import AMENDABLE_KINDS, MatterEffect, MatterKind, Post, Status

KIND_CHOICE_FIELDS = ("base", "subject_rule", "posters", "electorate", "quorum", "resolution", "veto")
KIND_FILTERS = ("posters_filter", "electorate_filter", "veto_filter")
NO_SUCH_KIND = "no kind of matter with pk {pk} in this archive"
KIND_OF_OTHER_DYNASTY = "the kind with pk {pk} belongs to dynasty {other}, not {number}"
RETIRED_HALFWAY = "retired_by and retired_because go with retired_at"
NOT_MARKED = "the title “{title}” does not mark the kind with pk {pk} ({subject}) in its category"
UNMARKED = (
    "the title “{title}” marks the kind with pk {pk} ({subject}), in force when it was posted, but "
    "matter_kind does not name it"
)


def export_matter_kinds(names: dict[int, str]) -> tuple[list[dict], list[dict]]:
    """Every kind and effect, retired ones too, in the order they were defined (two queries)."""
    return _export_kinds(names), _export_effects(names)


def _export_kinds(names: dict[int, str]) -> list[dict]:
    kind_rows = MatterKind.objects.order_by("at", "pk").values(
        "pk",
        "dynasty__number",
        "name",
        *KIND_CHOICE_FIELDS,
        "subject_text",
        *KIND_FILTERS,
        "verdict_hours",
        "counts_towards_limits",
        "phase",
        "proposal__slug",
        "by_id",
        "at",
        "retired_at",
        "retired_by_id",
        "retired_because__slug",
    )
    return [
        {
            "pk": k["pk"],
            "dynasty": k["dynasty__number"],
            "name": k["name"],
            "base": k["base"],
            "subject_rule": k["subject_rule"],
            "subject_text": k["subject_text"],
            "posters": k["posters"],
            "posters_filter": k["posters_filter"],
            "electorate": k["electorate"],
            "electorate_filter": k["electorate_filter"],
            "quorum": k["quorum"],
            "resolution": k["resolution"],
            "verdict_hours": k["verdict_hours"],
            "veto": k["veto"],
            "veto_filter": k["veto_filter"],
            "counts_towards_limits": k["counts_towards_limits"],
            "phase": k["phase"],
            "proposal": k["proposal__slug"],
            "by": names[k["by_id"]],
            "at": format_time(k["at"]),
            "retired_at": format_time(k["retired_at"]),
            "retired_by": names.get(k["retired_by_id"]),
            "retired_because": k["retired_because__slug"],
        }
        for k in kind_rows
    ]


def _export_effects(names: dict[int, str]) -> list[dict]:
    effect_rows = MatterEffect.objects.order_by("at", "pk").values(
        "pk",
        "dynasty__number",
        "label",
        "core_kind",
        "matter_kind_id",
        "when",
        "target",
        "column",
        "amount",
        "trivial_amount",
        "optional",
        "after_hours",
        "not_if_vetoed_or_self_killed",
        "proposal__slug",
        "by_id",
        "at",
        "retired_at",
    )
    return [
        {
            "pk": e["pk"],
            "dynasty": e["dynasty__number"],
            "label": e["label"],
            "core_kind": e["core_kind"],
            "matter_kind": e["matter_kind_id"],
            "when": e["when"],
            "target": e["target"],
            "column": e["column"],
            "amount": e["amount"],
            "trivial_amount": e["trivial_amount"],
            "optional": e["optional"],
            "after_hours": e["after_hours"],
            "not_if_vetoed_or_self_killed": e["not_if_vetoed_or_self_killed"],
            "proposal": e["proposal__slug"],
            "by": names[e["by_id"]],
            "at": format_time(e["at"]),
            "retired_at": format_time(e["retired_at"]),
        }
        for e in effect_rows
    ]


# --- Reading (no database) ---

NameReader = Callable[..., "str | None"]


def parse_matter_kinds(
    root: Reader,
    *,
    name: NameReader,
    refer_to_post: Callable[[str, str], None],
    refer_to_dynasty: Callable[[int, str], None],
) -> dict:
    """``{"kinds": [...], "effects": [...]}`` read from the archive's root; each entry keeps its ``path``.

    ``name(reader, key, required=...)`` reads an account's name; ``refer_to_post`` and ``refer_to_dynasty``
    note an id or number the archive may not hold itself, for the importer to find in the database."""
    readers = (name, refer_to_post, refer_to_dynasty)
    parsed_kinds: list[dict] = []
    pks: dict[int, int] = {}  # kind pk -> its dynasty's number
    for item, path in root.items("matter_kinds"):
        kind = _parse_kind(Reader(item, path), path, pks, readers)
        pks[kind["pk"]] = kind["dynasty"]
        parsed_kinds.append(kind)
    parsed_effects = [
        _parse_effect(Reader(item, path), path, pks, readers) for item, path in root.items("matter_effects")
    ]
    return {"kinds": parsed_kinds, "effects": parsed_effects}


def _parse_kind(r: Reader, path: str, pks: dict[int, int], readers: tuple) -> dict:
    """One kind of matter, its pk not one of ``pks`` (the kinds read before it)."""
    name, refer_to_post, refer_to_dynasty = readers
    pk = r.integer("pk", minimum=1)
    if pk in pks:
        raise ArchiveError(r.at("pk"), f"{pk} is the pk of another kind")
    kind = {
        "path": path,
        "pk": pk,
        **_common(r, name, refer_to_post, refer_to_dynasty),
        "name": r.text("name", max_length=60),
        "subject_text": r.text("subject_text", max_length=60),
        "verdict_hours": r.integer("verdict_hours", required=False),
        "counts_towards_limits": r.boolean("counts_towards_limits", default=True),
        "phase": r.text("phase", required=False, max_length=20),
        "retired_by": name(r, "retired_by", required=False),
        "retired_because": r.text("retired_because", required=False, max_length=200) or None,
    }
    for key in KIND_CHOICE_FIELDS:
        kind[key] = r.text(key, max_length=12)
    for key in KIND_FILTERS:
        value = r.data.get(key) or []
        if not isinstance(value, list):
            raise ArchiveError(r.at(key), "must be a list of conditions")
        kind[key] = check_json(value, r.at(key))
    if (kind["retired_by"] or kind["retired_because"]) and kind["retired_at"] is None:
        raise ArchiveError(r.at("retired_at"), RETIRED_HALFWAY)
    if kind["retired_because"]:
        refer_to_post(kind["retired_because"], r.at("retired_because"))
    return kind


def _parse_effect(r: Reader, path: str, pks: dict[int, int], readers: tuple) -> dict:
    """One effect of resolving; the kind it names, if any, is one of ``pks`` and of the same dynasty."""
    name, refer_to_post, refer_to_dynasty = readers
    effect = {
        "path": path,
        "pk": optional_pk(r),
        **_common(r, name, refer_to_post, refer_to_dynasty),
        "label": r.text("label", required=False, max_length=120),
        "core_kind": r.text("core_kind", required=False, max_length=8),
        "matter_kind": r.integer("matter_kind", required=False, minimum=1),
        "when": r.text("when", max_length=8),
        "target": r.text("target", max_length=12),
        "column": r.text("column", max_length=60),
        "amount": r.integer("amount", minimum=-effects.MAX_AMOUNT, maximum=effects.MAX_AMOUNT),
        "trivial_amount": r.integer(
            "trivial_amount", required=False, minimum=-effects.MAX_AMOUNT, maximum=effects.MAX_AMOUNT
        ),
        "optional": r.boolean("optional"),
        "after_hours": r.integer("after_hours", required=False),
        "not_if_vetoed_or_self_killed": r.boolean("not_if_vetoed_or_self_killed"),
    }
    kind_pk = effect["matter_kind"]
    if kind_pk is not None and kind_pk not in pks:
        raise ArchiveError(r.at("matter_kind"), NO_SUCH_KIND.format(pk=kind_pk))
    if kind_pk is not None and pks[kind_pk] != effect["dynasty"]:
        raise ArchiveError(
            r.at("matter_kind"),
            KIND_OF_OTHER_DYNASTY.format(pk=kind_pk, other=pks[kind_pk], number=effect["dynasty"]),
        )
    return effect


def check_posts_kinds(parsed_kinds: list[dict], posts: list[dict]) -> None:
    """Each post's kind is the one its title marks, as posting decides it (``matter_kind_rules.kind_for_title``): a post
    may not claim a kind its title does not mark, and a pending one whose title marks a kind of its dynasty,
    in force when it was posted and last edited, may not leave it out and be judged as a plain Proposal."""
    specs = {
        k["pk"]: matter_kind_rules.KindSpec(
            name=k["name"], base=k["base"], subject_rule=k["subject_rule"], subject_text=k["subject_text"], id=k["pk"]
        )
        for k in parsed_kinds
    }
    for index, post in enumerate(posts):
        path = f"posts[{index}].matter_kind"
        claimed = specs.get(post["matter_kind"])
        if claimed is not None:
            if claimed.base != post["kind"] or not matter_kind_rules.matches_subject(claimed, post["title"]):
                raise ArchiveError(
                    path,
                    NOT_MARKED.format(
                        title=post["title"], pk=claimed.id, subject=matter_kind_rules.describe_subject(claimed)
                    ),
                )
            continue
        if post["status"] != Status.PENDING or post["dynasty"] is None:
            continue
        moments = [moment for moment in (post["posted_at"], post["edited_at"]) if moment is not None]
        in_force = [
            specs[k["pk"]]
            for k in parsed_kinds
            if k["dynasty"] == post["dynasty"]
            and all(_in_force(k["at"], k["retired_at"], moment) for moment in moments)
        ]
        marked = matter_kind_rules.kind_for_title(in_force, base=post["kind"], title=post["title"])
        if marked is not None:
            raise ArchiveError(
                path,
                UNMARKED.format(title=post["title"], pk=marked.id, subject=matter_kind_rules.describe_subject(marked)),
            )


def _common(r: Reader, name: NameReader, refer_to_post, refer_to_dynasty) -> dict:
    """What kinds and effects both record: the dynasty, the Proposal cited, who recorded it and when."""
    dynasty = r.integer("dynasty", minimum=1)
    refer_to_dynasty(dynasty, r.at("dynasty"))
    proposal = r.text("proposal", max_length=200)
    refer_to_post(proposal, r.at("proposal"))
    at = r.time("at")
    retired_at = r.time("retired_at", required=False)
    if retired_at is not None and retired_at < at:
        raise ArchiveError(r.at("retired_at"), "is before at")
    return {"dynasty": dynasty, "proposal": proposal, "by": name(r, "by"), "at": at, "retired_at": retired_at}


# --- Writing (inside the importer's transaction) ---


def import_matter_kinds(
    parsed: dict, *, users: dict[str, User], dynasties: dict[int, Dynasty], posts: dict[str, Post], kept: list
) -> dict[int, MatterKind]:
    """Check and write the kinds, then the effects; returns the kinds by their archive pk."""
    if not parsed["kinds"] and not parsed["effects"]:
        return {}
    cited = _cited_posts(parsed, posts)
    written = _import_kinds(parsed, users=users, dynasties=dynasties, cited=cited, kept=kept)
    _import_effects(parsed, users=users, dynasties=dynasties, cited=cited, written=written, kept=kept)
    return written


def _import_kinds(
    parsed: dict, *, users: dict[str, User], dynasties: dict[int, Dynasty], cited: dict[str, Post], kept: list
) -> dict[int, MatterKind]:
    written: dict[int, MatterKind] = {}
    objects = []
    for k in parsed["kinds"]:
        dynasty = dynasties[k["dynasty"]]
        spec = _checked_kind_spec(k, dynasty, written)
        kind = MatterKind(
            pk=k["pk"],
            dynasty=dynasty,
            **MatterKind.definition_fields(spec),
            proposal=_enacted(cited, k, "proposal"),
            by=users[k["by"]],
            at=k["at"],
            retired_at=k["retired_at"],
            retired_by=users[k["retired_by"]] if k["retired_by"] else None,
            retired_because=_enacted(cited, k, "retired_because") if k["retired_because"] else None,
        )
        written[k["pk"]] = kind
        objects.append(kind)
    _write(MatterKind, objects, [k["pk"] for k in parsed["kinds"]], kept)
    return written


def _checked_kind_spec(k: dict, dynasty: Dynasty, written: dict[int, MatterKind]) -> matter_kind_rules.KindSpec:
    """The kind's definition, refused as an admin defining it then would be (the GNDT and the kinds then)."""
    try:
        spec = kind_spec_from(
            **{
                key: k[key]
                for key in (
                    "name",
                    "subject_text",
                    *KIND_CHOICE_FIELDS,
                    *KIND_FILTERS,
                    "verdict_hours",
                    "counts_towards_limits",
                    "phase",
                )
            }
        )
    except KindError as error:
        raise ArchiveError(k["path"], str(error)) from None
    spec = replace(spec, id=k["pk"])
    others = [
        w.spec() for w in written.values() if w.dynasty_id == dynasty.pk and _in_force(w.at, w.retired_at, k["at"])
    ]
    columns = game_values(dynasty.pk, at=k["at"]).hidden_by_column
    _refuse(k["path"], matter_kind_rules.spec_problems(spec, columns=columns, others=others))
    return spec


def _import_effects(
    parsed: dict,
    *,
    users: dict[str, User],
    dynasties: dict[int, Dynasty],
    cited: dict[str, Post],
    written: dict[int, MatterKind],
    kept: list,
) -> None:
    effect_objects = []
    for e in parsed["effects"]:
        dynasty = dynasties[e["dynasty"]]
        kind = written[e["matter_kind"]] if e["matter_kind"] is not None else None
        spec = _checked_effect_spec(e, dynasty, kind, written)
        effect_objects.append(
            MatterEffect(
                dynasty=dynasty,
                matter_kind=kind,
                **MatterEffect.definition_fields(spec),
                proposal=_enacted(cited, e, "proposal"),
                by=users[e["by"]],
                at=e["at"],
                retired_at=e["retired_at"],
            )
        )
    _write(MatterEffect, effect_objects, [e["pk"] for e in parsed["effects"]], kept)


def _checked_effect_spec(
    e: dict, dynasty: Dynasty, kind: MatterKind | None, written: dict[int, MatterKind]
) -> effects.EffectSpec:
    """The effect's definition, refused as an admin defining it then would be (the GNDT and the kinds then)."""
    try:
        spec = effect_spec_from(
            matter_kind=kind,
            **{
                key: e[key]
                for key in (
                    "label",
                    "column",
                    "amount",
                    "core_kind",
                    "when",
                    "target",
                    "trivial_amount",
                    "optional",
                    "after_hours",
                    "not_if_vetoed_or_self_killed",
                )
            },
        )
    except KindError as error:
        raise ArchiveError(e["path"], str(error)) from None
    table = game_values(dynasty.pk, at=e["at"])
    in_force = [w.pk for w in written.values() if w.dynasty_id == dynasty.pk and _in_force(w.at, w.retired_at, e["at"])]
    _refuse(e["path"], effects.spec_problems(spec, columns=dict(table.columns), hidden=table.hidden, kind_ids=in_force))
    return spec


def _in_force(defined_at: datetime, retired_at: datetime | None, moment: datetime) -> bool:
    return defined_at <= moment and (retired_at is None or retired_at > moment)


def _refuse(path: str, problems: list[str]) -> None:
    if problems:
        raise ArchiveError(path, " ".join(problems))


def _cited_posts(parsed: dict, posts: dict[str, Post]) -> dict[str, Post]:
    wanted = {
        entry[key]
        for part in ("kinds", "effects")
        for entry in parsed[part]
        for key in ("proposal", "retired_because")
        if entry.get(key)
    }
    found = {slug: posts[slug] for slug in wanted if slug in posts}
    outside = wanted - found.keys()
    if outside:
        found.update({post.slug: post for post in Post.objects.filter(slug__in=list(outside))})
    return found


def _enacted(cited: dict[str, Post], entry: dict, key: str) -> Post:
    """The post ``entry[key]`` names, which must be an enacted Proposal (or Call for Judgement), as when the
    admin recorded it."""
    post = cited[entry[key]]
    if post.kind not in AMENDABLE_KINDS or post.status != Status.ENACTED:
        status = post.display_status.lower() or "not a Proposal"
        raise ArchiveError(f"{entry['path']}.{key}", CITE_ENACTED.format(title=post.title, status=status))
    return post


def _write(model, objects: list, pks: list[Any], kept: list) -> None:
    """Keep the archive's keys when they are free; otherwise let the database number the rows, one by one so
    each object learns its key (a game defines a handful)."""
    for obj in objects:
        obj.pk = None
    if keep_primary_keys(model, objects, pks):
        model.objects.bulk_create(objects)
        kept.append(model)
        return
    for obj in objects:
        obj.save(force_insert=True)
