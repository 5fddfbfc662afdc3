"""Write a large archive straight into the database, the same rows ``import_archive`` would write, faster.

The importer checks every field and renders every comment's Markdown on its own; for ten times BlogNomic's
history (158,000 proposals, 1.4 million comments, 94,500 Ruleset revisions) that takes far too long for a
benchmark. This loader trusts its input, which comes from ``bench_archive.build_archive`` (the tests check
that the importer accepts what that builder makes, and that both ways of loading give the same game):

- players, dynasties, absences, the GNDT and the profile go through ``import_archive`` itself, as an
  archive without posts or wiki pages (small, whatever the scale);
- posts, comments, resolutions, wiki pages and revisions are bulk inserts, with Markdown rendered once per
  distinct text (the builder repeats its phrases); on PostgreSQL comments and revisions use ``COPY``;
- the Ruleset's rule changes are worked out in memory, parsing each revision once, and written in bulk,
  with each revision marked as indexed, as ``rule_changes_index`` would leave it.

Everything happens in one transaction, like the importer's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime

CHUNK = 5000


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _chunks(values: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _insert(model, columns: list[str], rows: Iterable[tuple]) -> int:
    """Insert plain rows (values in ``columns`` order, foreign keys as ids); COPY on PostgreSQL."""
    from django.db import connection

    fields = [model._meta.get_field(name) for name in columns]
    if connection.vendor == "postgresql":
        from psycopg import sql

        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(model._meta.db_table), sql.SQL(", ").join(sql.Identifier(f.column) for f in fields)
        )
        count = 0
        with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
        return count
    attnames = [f.attname for f in fields]
    objects = [model(**dict(zip(attnames, row, strict=True))) for row in rows]
    model.objects.bulk_create(objects, batch_size=CHUNK // 10)
    return len(objects)


def bulk_load(archive: dict) -> dict:
    """Load ``archive`` (as ``build_archive`` makes it) into the database.

    Returns the rows written and, under ``seconds``, how long each step took.
    """
    import time

    from django.db import transaction

    from blognomic.moving.archive import import_archive
    from blognomic.moving.archive.planner import analyze_after_import

    if archive.get("rule_changes"):
        raise ValueError("bulk_load does not write core-rule changes; use import_archive for this archive")
    posts = archive.get("posts", [])
    pages = (archive.get("wiki") or {}).get("pages", [])
    rest = {key: value for key, value in archive.items() if key not in ("posts", "wiki")}
    seconds: dict[str, float] = {}
    began = time.perf_counter()

    def step(name: str) -> None:
        nonlocal began
        now = time.perf_counter()
        seconds[name] = now - began
        began = now

    with transaction.atomic():
        import_archive(rest)
        step("players, dynasties, GNDT (import_archive)")
        users = _accounts(posts, pages)
        by_slug = _write_posts(posts, users)
        step("posts and resolutions")
        comments = _write_comments(posts, users, by_slug)
        step("comments")
        revisions = _write_pages(pages, users, by_slug)
        step("wiki revisions and rule changes")
        # As import_archive does after a large archive: the planner learns the tables' new sizes.
        analyze_after_import(len(posts) + comments + revisions)
        step("planner statistics (ANALYZE)")
    step("commit")
    return {"posts": len(posts), "comments": comments, "revisions": revisions, "seconds": seconds}


def _accounts(posts: list[dict], pages: list[dict]) -> dict[str, int]:
    """Every name the posts and pages mention, as user ids; those not in the database are made (spectators)."""
    from dynasties.models import User

    names = {p["author"] for p in posts}
    names.update(c["author"] for p in posts for c in p["comments"])
    names.update(p["resolution"]["by"] for p in posts if p.get("resolution") and p["resolution"].get("by"))
    names.update(v["author"] for page in pages for v in page["revisions"] if v.get("author"))
    users = dict(User.objects.values_list("username", "pk"))
    new = [User(username=name) for name in sorted(names - users.keys())]
    for user in new:
        user.set_unusable_password()
    User.objects.bulk_create(new)
    users.update(User.objects.filter(username__in=[u.username for u in new]).values_list("username", "pk"))
    return users


class _Rendered(dict):
    """Markdown rendered once per distinct source."""

    def __missing__(self, source: str) -> str:
        from votes.markup import render_markdown

        html = self[source] = render_markdown(source)
        return html


def _write_posts(posts: list[dict], users: dict[str, int]) -> dict[str, int]:
    from dynasties.models import Dynasty
    from votes.models import Post, Resolution, Status

    dynasties = dict(Dynasty.objects.values_list("number", "pk"))
    rendered = _Rendered()
    by_slug: dict[str, int] = {}
    for chunk in _chunks(posts):
        objects = []
        for p in chunk:
            r = p.get("resolution")
            objects.append(
                Post(
                    slug=p["id"],
                    kind=p["kind"],
                    title=p["title"],
                    author_id=users[p["author"]],
                    posted_at=_time(p["posted_at"]),
                    edited_at=_time(p.get("edited_at")),
                    dynasty_id=dynasties.get(p.get("dynasty")),
                    body=p.get("body") or "",
                    body_html=rendered[p.get("body") or ""],
                    flavour=p.get("flavour") or "",
                    flavour_html=rendered[p.get("flavour") or ""],
                    status=p.get("status") or Status.NONE,
                    outcome=r["outcome"] if r else "",
                    admin_note=p.get("admin_note") or (r["note"] if r else ""),
                    trivial=bool(p.get("trivial")),
                    sticky=bool(p.get("sticky")),
                    anonymous=bool(p.get("anonymous")),
                )
            )
        Post.objects.bulk_create(objects)
        if any(post.pk is None for post in objects):
            found = dict(Post.objects.filter(slug__in=[post.slug for post in objects]).values_list("slug", "pk"))
        else:
            found = {post.slug: post.pk for post in objects}
        by_slug.update(found)
        Resolution.objects.bulk_create(
            Resolution(
                post_id=found[p["id"]],
                outcome=p["resolution"]["outcome"],
                at=_time(p["resolution"]["at"]),
                note=p["resolution"].get("note") or "",
                tally=p["resolution"].get("tally") or {},
                by_id=users[p["resolution"]["by"]] if p["resolution"].get("by") else None,
            )
            for p in chunk
            if p.get("resolution")
        )
    return by_slug


def _write_comments(posts: list[dict], users: dict[str, int], by_slug: dict[str, int]) -> int:
    from votes.models import Comment

    rendered = _Rendered()
    rows = (
        (
            by_slug[p["id"]],
            users[c["author"]],
            _time(c["at"]),
            c.get("icon"),
            bool(c.get("trivial")),
            c.get("text") or "",
            rendered[c.get("text") or ""],
        )
        for p in posts
        for c in p["comments"]
    )
    return _insert(Comment, ["post", "author", "at", "icon", "trivial", "text", "text_html"], rows)


def _write_pages(pages: list[dict], users: dict[str, int], by_slug: dict[str, int]) -> int:
    from ruleset.models import Page, Revision, RuleChange
    from ruleset.rule_index import rule_change_for
    from ruleset.structure import parse_ruleset

    written = 0
    for p in pages:
        revisions = p["revisions"]
        kind = p.get("kind") or Page.ORDINARY
        page = Page.objects.create(
            title=p["title"],
            slug=p.get("slug") or _slug(p["title"]),
            kind=kind,
            protected=bool(p.get("protected")),
            created_at=_time(revisions[0]["at"]),
        )
        indexed = kind == Page.RULESET
        written += _insert(
            Revision,
            ["page", "number", "author", "at", "summary", "text", "size", "post", "rules_indexed"],
            (
                (
                    page.pk,
                    number,
                    users[v["author"]] if v.get("author") else None,
                    _time(v["at"]),
                    v.get("summary") or "",
                    v.get("text") or "",
                    len((v.get("text") or "").encode("utf-8")),
                    by_slug.get(v["post"]) if v.get("post") else None,
                    indexed,
                )
                for number, v in enumerate(revisions, start=1)
            ),
        )
        stored = list(Revision.objects.filter(page=page).order_by("number").only("id", "number", "page_id"))
        page.current = stored[-1]
        page.save(update_fields=["current"])
        if not indexed:
            continue
        changes: list = []
        old: dict = {}
        for revision, v in zip(stored, revisions, strict=True):
            new = {rule.anchor: rule for rule in parse_ruleset(v.get("text") or "").all_rules()}
            for anchor, rule in new.items():
                if anchor not in old:
                    changes.append(rule_change_for(page, revision, rule, RuleChange.ADDED))
                elif old[anchor].own_text != rule.own_text:
                    changes.append(rule_change_for(page, revision, rule, RuleChange.CHANGED))
            changes.extend(
                rule_change_for(page, revision, rule, RuleChange.REMOVED)
                for anchor, rule in old.items()
                if anchor not in new
            )
            old = new
            if len(changes) >= CHUNK:
                RuleChange.objects.bulk_create(changes)
                changes = []
        RuleChange.objects.bulk_create(changes)
    return written


def _slug(title: str) -> str:
    from django.utils.text import slugify

    return slugify(title, allow_unicode=True)[:200] or "page"
