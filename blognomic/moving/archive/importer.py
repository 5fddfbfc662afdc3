"""Loading an archive: every field is checked first, then everything is written in one transaction.

Checking happens in two steps. ``parse_archive`` (``blognomic.moving.archive.reading``) reads the JSON alone and
refuses anything malformed or self-contradictory; ``import_archive`` then checks what depends on the
database (a post id already taken, a dynasty or post referred to but not in the archive) inside the
transaction that writes, so a bad archive writes nothing. Writes are bulk inserts in a fixed number of
queries per table, whatever the archive's size.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max

from blognomic.moving.archive.amendments import import_amendments
from blognomic.moving.archive.copying import insert_without_keys
from blognomic.moving.archive.fields import ArchiveError
from blognomic.moving.archive.gndt_import import import_gndt
from blognomic.moving.archive.keys import keep_primary_keys, reset_sequences
from blognomic.moving.archive.matter_kinds import import_matter_kinds
from blognomic.moving.archive.personal import import_personal
from blognomic.moving.archive.planner import analyze_after_import
from blognomic.moving.archive.reading import CHUNK, Parsed, parse_archive
from blognomic.moving.archive.variables import import_variables
from dynasties.models import (
    Absence,
    Application,
    Dynasty,
    Game,
    Notification,
    Rename,
    RuleChange,
    User,
)
from dynasties.names import lookalike_key
from ruleset.models import RULESET_SLUG, Page, ProtectionChange, Revision
from ruleset.rule_index import rule_changes_index
from votes.markup import render_markdown
from votes.models import Comment, Post, Resolution, Status

UNDECLARED_ACCOUNT = (
    "{name!r} is neither among the archive's accounts or players nor an account of the site; "
    "an import does not invent accounts"
)
UNKNOWN_BASE = (
    "the Ruleset has no revision {number}, in this archive or on the site, for the amendment to have "
    "been written against"
)


def import_archive(data: Any) -> dict[str, int]:
    """Check the whole archive, then write it; on any bad field nothing is written."""
    parsed = parse_archive(data)
    with transaction.atomic():
        pages = _check_against_database(parsed)
        if parsed.profile or parsed.game:
            game = Game.load()
            game.profile = parsed.profile or game.profile
            if parsed.game:
                game.name = parsed.game["name"] or game.name
                game.auto_resolve = parsed.game["auto_resolve"]
            game.save()
        kept: list = []  # models whose rows kept the archive's primary keys
        users = _write_accounts(parsed)
        _write_applications(parsed, users, kept)
        dynasties = _write_dynasties(parsed, users)
        _write_absences(parsed, users)
        posts = _write_posts(parsed, users, dynasties, kept)
        _link_dynasty_posts(parsed, dynasties, posts)
        _write_pages(parsed, users, posts, pages)
        _write_rule_changes(parsed, users, posts)
        _write_renames(parsed, users, posts)
        _write_notifications(parsed, users)
        _check_amendment_bases(parsed)
        import_amendments(parsed.amendments, posts=posts, users=users)
        kept += import_personal(parsed.personal, users=users)
        if parsed.gndt:
            every_dynasty = {d.number: d for d in Dynasty.objects.all()}
            kept += import_gndt(
                parsed.gndt, users=users, dynasties={**every_dynasty, **dynasties}, posts=posts, path="gndt"
            )
            import_variables(
                parsed.gndt.get("variables"),
                users=users,
                dynasties={**every_dynasty, **dynasties},
                path="gndt.variables",
            )
        # After the GNDT, whose columns the kinds' conditions and the effects name.
        _write_matter_kinds(parsed, users, dynasties, posts, kept)
        if kept:
            reset_sequences(kept)
        if parsed.pages:
            # Rule histories need to know which rules each imported Ruleset revision changed.
            rule_changes_index()
        counts = {
            "players": len(parsed.players),
            "dynasties": len(parsed.dynasties),
            "posts": len(parsed.posts),
            "comments": sum(len(p["comments"]) for p in parsed.posts),
            "pages": len(parsed.pages),
            "revisions": sum(len(p["revisions"]) for p in parsed.pages),
        }
        analyze_after_import(counts["posts"] + counts["comments"] + counts["revisions"])
    return counts


def _chunks(values: Iterable, size: int = CHUNK) -> Iterator[list]:
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _check_against_database(parsed: Parsed) -> dict[str, Page]:
    """Refuse what clashes with the database; returns the existing pages the archive adds revisions to."""
    taken: set[str] = set()
    for chunk in _chunks(p["id"] for p in parsed.posts):
        taken.update(Post.objects.filter(slug__in=chunk).values_list("slug", flat=True))
    for index, post in enumerate(parsed.posts):
        if post["id"] in taken:
            raise ArchiveError(f"posts[{index}].id", f"a post with id {post['id']!r} already exists")
    if parsed.dynasty_refs:
        stored = Dynasty.objects.filter(number__in=list(parsed.dynasty_refs))
        known = set(stored.values_list("number", flat=True))
        for number, path in parsed.dynasty_refs.items():
            if number not in known:
                raise ArchiveError(path, f"no dynasty numbered {number} in this archive or in the database")
    if parsed.post_refs:
        known_posts: set[str] = set()
        for chunk in _chunks(parsed.post_refs):
            known_posts.update(Post.objects.filter(slug__in=chunk).values_list("slug", flat=True))
        for post_id, path in parsed.post_refs.items():
            if post_id not in known_posts:
                raise ArchiveError(path, f"no post with id {post_id!r} in this archive or in the database")
    if parsed.account_refs:
        known_names: set[str] = set()
        for chunk in _chunks(parsed.account_refs):
            known_names.update(User.objects.filter(username__in=chunk).values_list("username", flat=True))
        for name, path in parsed.account_refs.items():
            if name not in known_names:
                raise ArchiveError(path, UNDECLARED_ACCOUNT.format(name=name))
    _check_lookalikes(parsed)
    existing: dict[str, Page] = {}
    if parsed.pages:
        by_title = {page.title.lower(): page for page in Page.objects.all()}
        used_slugs = {page.slug: page for page in by_title.values()}
        for index, p in enumerate(parsed.pages):
            page = by_title.get(p["title"].lower())
            if page is not None:
                existing[p["title"]] = page
            elif p["slug"] in used_slugs:
                raise ArchiveError(
                    f"wiki.pages[{index}].slug",
                    f"{p['slug']!r} is already the address of the page {used_slugs[p['slug']].title!r}",
                )
    return existing


def _check_amendment_bases(parsed: Parsed) -> None:
    """An amendment names its rules as they stood in the Ruleset revision it was written against; one that names a
    revision neither the archive's Ruleset nor the site's has could never be applied as written. Checked once the
    archive's revisions are written, inside the same transaction."""
    bases = {a["base"] for a in parsed.amendments if a["base"] is not None}
    if not bases:
        return
    found = set(Revision.objects.filter(page__slug=RULESET_SLUG, number__in=bases).values_list("number", flat=True))
    for index, amendment in enumerate(parsed.amendments):
        if amendment["base"] is not None and amendment["base"] not in found:
            raise ArchiveError(
                f"amendments[{index}].base_ruleset_revision", UNKNOWN_BASE.format(number=amendment["base"])
            )


def _check_lookalikes(parsed: Parsed) -> None:
    """Two accounts whose names a reader could take for each other are refused, as they are on the site."""
    seen = {lookalike_key(name): name for name in User.objects.values_list("username", flat=True).iterator()}
    for name, path in parsed.account_paths.items():
        other = seen.setdefault(lookalike_key(name), name)
        if other != name:
            raise ArchiveError(path, f"{name!r} looks too much like {other!r}, the name of another account")


def _saved(model, objects: list, key: str) -> dict:
    """The objects just bulk-inserted, with their primary keys, by ``key``.

    PostgreSQL and SQLite 3.35+ return the keys from the insert; other databases need them read back.
    """
    if all(obj.pk is not None for obj in objects):
        return {getattr(obj, key): obj for obj in objects}
    found = {}
    for chunk in _chunks(getattr(obj, key) for obj in objects):
        found.update({getattr(obj, key): obj for obj in model.objects.filter(**{f"{key}__in": chunk})})
    return found


def _write_accounts(parsed: Parsed) -> dict[str, User]:
    users: dict[str, User] = {}
    for chunk in _chunks(parsed.accounts):
        users.update({u.username: u for u in User.objects.filter(username__in=chunk)})
    new = [User(username=name) for name in sorted(parsed.accounts - users.keys())]
    for user in new:
        user.set_unusable_password()
    User.objects.bulk_create(new, batch_size=CHUNK)
    users.update(_saved(User, new, "username"))
    players = []
    for player in parsed.players:
        user = users[player["name"]]
        user.joined_at = player["joined_at"]
        user.is_admin = player["admin"]
        players.append(user)
    User.objects.bulk_update(players, ["joined_at", "is_admin"], batch_size=CHUNK)
    details = []
    for account in parsed.account_details:
        user = users[account["name"]]
        for key in ("email", "first_name", "last_name", "is_staff", "is_superuser", "is_active"):
            setattr(user, key, account[key])
        if account["password"]:
            user.password = account["password"]
        if account["date_joined"] is not None:
            user.date_joined = account["date_joined"]
        user.last_login = account["last_login"]
        details.append(user)
    User.objects.bulk_update(
        details,
        [
            "email",
            "first_name",
            "last_name",
            "is_staff",
            "is_superuser",
            "is_active",
            "password",
            "date_joined",
            "last_login",
        ],
        batch_size=CHUNK,
    )
    return users


def _write_applications(parsed: Parsed, users: dict[str, User], kept: list) -> None:
    applications = [
        Application(
            name=a["name"],
            password_hash=a["password_hash"],
            message=a["message"],
            ip_address=a["ip_address"],
            submitted_at=a["submitted_at"],
            status=a["status"],
            decided_by=users[a["decided_by"]] if a["decided_by"] else None,
            decided_at=a["decided_at"],
        )
        for a in parsed.applications
    ]
    if keep_primary_keys(Application, applications, [a["pk"] for a in parsed.applications]):
        kept.append(Application)
    Application.objects.bulk_create(applications, batch_size=CHUNK)


def _write_matter_kinds(
    parsed: Parsed, users: dict[str, User], dynasties: dict[int, Dynasty], posts: dict[str, Post], kept: list
) -> None:
    written = import_matter_kinds(parsed.matter_kinds, users=users, dynasties=dynasties, posts=posts, kept=kept)
    of_a_kind = []
    for p in parsed.posts:
        if p["matter_kind"] is not None:
            post = posts[p["id"]]
            post.matter_kind = written[p["matter_kind"]]
            of_a_kind.append(post)
    Post.objects.bulk_update(of_a_kind, ["matter_kind"], batch_size=CHUNK)


def _link_dynasty_posts(parsed: Parsed, dynasties: dict[int, Dynasty], posts: dict[str, Post]) -> None:
    """A dynasty's Declaration of Victory and Ascension Address are posts, written after the dynasties."""
    wanted = {d[key] for d in parsed.dynasties for key in ("declaration", "ascension_address") if d[key]}
    outside = wanted - posts.keys()
    found = dict(posts)
    if outside:
        found.update({post.slug: post for post in Post.objects.filter(slug__in=list(outside))})
    changed = []
    for d in parsed.dynasties:
        if d["declaration"] or d["ascension_address"] or d["ascended_at"]:
            dynasty = dynasties[d["number"]]
            dynasty.declaration = found[d["declaration"]] if d["declaration"] else None
            dynasty.ascension_address = found[d["ascension_address"]] if d["ascension_address"] else None
            dynasty.ascended_at = d["ascended_at"]
            changed.append(dynasty)
    Dynasty.objects.bulk_update(changed, ["declaration", "ascension_address", "ascended_at"])


def _write_renames(parsed: Parsed, users: dict[str, User], posts: dict[str, Post]) -> None:
    if not parsed.renames:
        return
    outside = {r["proposal"] for r in parsed.renames} - posts.keys()
    found = dict(posts)
    if outside:
        found.update({post.slug: post for post in Post.objects.filter(slug__in=list(outside))})
    Rename.objects.bulk_create(
        Rename(
            user=users[r["player"]],
            old_name=r["old_name"],
            new_name=r["new_name"],
            by=users[r["by"]],
            at=r["at"],
            proposal=found[r["proposal"]],
        )
        for r in parsed.renames
    )


def _write_notifications(parsed: Parsed, users: dict[str, User]) -> None:
    """Notices already sent stay sent: a beat job that finds its notice's key does not send it again."""
    Notification.objects.bulk_create(
        (
            Notification(
                user=users[n["to"]],
                key=n["key"],
                text=n["text"],
                url=n["url"],
                created_at=n["created_at"],
                read_at=n["read_at"],
            )
            for n in parsed.notifications
        ),
        batch_size=CHUNK,
        ignore_conflicts=True,
    )


def _write_dynasties(parsed: Parsed, users: dict[str, User]) -> dict[int, Dynasty]:
    fields = [
        "emperor",
        "player_term",
        "player_term_plural",
        "emperor_term",
        "theme",
        "started_at",
        "ended_at",
        "palette",
        "header_line",
        "vote_label_for",
        "vote_label_against",
        "vote_label_deferential",
    ]
    existing = Dynasty.objects.in_bulk([d["number"] for d in parsed.dynasties], field_name="number")
    new, changed = [], []
    for d in parsed.dynasties:
        dynasty = existing.get(d["number"]) or Dynasty(number=d["number"])
        for name in fields:
            value = d[name]
            setattr(dynasty, name, users[value] if name == "emperor" and value else value)
        (changed if dynasty.pk else new).append(dynasty)
    Dynasty.objects.bulk_create(new)
    Dynasty.objects.bulk_update(changed, fields)
    dynasties = {d.number: d for d in changed}
    dynasties.update(_saved(Dynasty, new, "number"))
    if parsed.dynasty_refs:
        dynasties.update(Dynasty.objects.in_bulk(list(parsed.dynasty_refs), field_name="number"))
    return dynasties


def _write_absences(parsed: Parsed, users: dict[str, User]) -> None:
    """The archive's players' absences replace those already recorded for them."""
    if not parsed.players:
        return
    # Each span belongs to the dynasty in force when it started (unidling restores values within it).
    timeline = list(Dynasty.objects.order_by("started_at", "number").values_list("started_at", "pk"))
    starts = [started_at for started_at, _ in timeline]

    def dynasty_at(moment: datetime) -> int | None:
        index = bisect.bisect_right(starts, moment) - 1
        return timeline[index][1] if index >= 0 else None

    player_ids = [users[player["name"]].pk for player in parsed.players]
    for chunk in _chunks(player_ids):
        Absence.objects.filter(user_id__in=chunk).delete()
    absences = []
    for player in parsed.players:
        user = users[player["name"]]
        spans = [(a["kind"], a["from"], a["until"]) for a in player["past_absences"]]
        if player["left_at"]:
            spans.append((Absence.LEFT, player["left_at"], None))
        elif player["idle"]:
            spans.append((Absence.IDLE, player["idle_since"] or player["joined_at"], None))
        absences.extend(
            Absence(user=user, kind=kind, started_at=start, ended_at=end, dynasty_id=dynasty_at(start))
            for kind, start, end in spans
        )
    Absence.objects.bulk_create(absences, batch_size=CHUNK)


def _renderer() -> Callable[[str], str]:
    """``render_markdown`` that renders each distinct text once: archives repeat "For." and "Against." a lot."""
    rendered: dict[str, str] = {}

    def render(text: str) -> str:
        html = rendered.get(text)
        if html is None:
            html = rendered[text] = render_markdown(text)
        return html

    return render


def _write_posts(parsed: Parsed, users: dict[str, User], dynasties: dict[int, Dynasty], kept: list) -> dict[str, Post]:
    render_markdown = _renderer()
    posts = [_post_from(p, users, dynasties, render_markdown) for p in parsed.posts]
    Post.objects.bulk_create(posts, batch_size=CHUNK)
    by_slug = _saved(Post, posts, "slug")
    comments, comment_pks, resolutions = _comments_and_resolutions(parsed, users, by_slug, render_markdown)
    if keep_primary_keys(Comment, comments, comment_pks):
        kept.append(Comment)
    insert_without_keys(Comment, comments, batch_size=CHUNK * 2)
    Resolution.objects.bulk_create(resolutions, batch_size=CHUNK * 2)
    return by_slug


def _post_from(p: dict, users: dict[str, User], dynasties: dict[int, Dynasty], render_markdown) -> Post:
    r = p["resolution"]
    return Post(
        slug=p["id"],
        kind=p["kind"],
        title=p["title"],
        author=users[p["author"]],
        posted_at=p["posted_at"],
        edited_at=p["edited_at"],
        dynasty=dynasties.get(p["dynasty"]),
        body=p["body"],
        body_html=render_markdown(p["body"]),
        flavour=p["flavour"],
        flavour_html=render_markdown(p["flavour"]),
        status=p["status"] or Status.NONE,
        outcome=r["outcome"] if r else "",
        admin_note=p["admin_note"] or (r["note"] if r else ""),
        trivial=p["trivial"],
        sticky=p["sticky"],
        anonymous=p["anonymous"],
        enactable_since=p["enactable_since"],
        failable_since=p["failable_since"],
        stale_since=p["stale_since"],
        carried_out_at=p["carried_out_at"],
        imported_at=p["imported_at"],
        hidden_at=p["hidden_at"],
        hidden_by=users[p["hidden_by"]] if p["hidden_by"] else None,
    )


def _comments_and_resolutions(
    parsed: Parsed, users: dict[str, User], by_slug: dict[str, Post], render_markdown
) -> tuple[list[Comment], list[int | None], list[Resolution]]:
    """Every post's comments (with the keys the archive gave them) and resolutions, not yet written."""
    comments, comment_pks, resolutions = [], [], []
    for p in parsed.posts:
        post = by_slug[p["id"]]
        comments.extend(
            Comment(
                post=post,
                author=users[c["author"]],
                at=c["at"],
                icon=c["icon"],
                trivial=c["trivial"],
                text=c["text"],
                text_html=render_markdown(c["text"]),
                imported_at=c["imported_at"],
            )
            for c in p["comments"]
        )
        comment_pks.extend(c["pk"] for c in p["comments"])
        resolutions.extend(
            Resolution(
                post=post,
                outcome=r["outcome"],
                at=r["at"],
                note=r["note"],
                tally=r["tally"],
                reason=r.get("reason", ""),
                imported_at=r.get("imported_at"),
                by=users[r["by"]] if r["by"] else None,
            )
            for r in p["resolutions"]
        )
    return comments, comment_pks, resolutions


def _write_rule_changes(parsed: Parsed, users: dict[str, User], posts: dict[str, Post]) -> None:
    if not parsed.rule_changes:
        return
    outside = {c["proposal"] for c in parsed.rule_changes} - posts.keys()
    referred = {post.slug: post for post in Post.objects.filter(slug__in=list(outside))} if outside else {}
    referred.update(posts)
    RuleChange.objects.bulk_create(
        RuleChange(
            parameter=c["parameter"], value=c["value"], proposal=referred[c["proposal"]], by=users[c["by"]], at=c["at"]
        )
        for c in parsed.rule_changes
    )


def _posts_cited_by_revisions(parsed: Parsed, posts: dict[str, Post]) -> dict[str, Post]:
    """The posts the revisions cite, by slug: the archive's own, and those already on the site."""
    referred: dict[str, Post] = {}
    outside = {v["post"] for p in parsed.pages for v in p["revisions"] if v["post"]} - posts.keys()
    for chunk in _chunks(outside):
        referred.update({post.slug: post for post in Post.objects.filter(slug__in=chunk)})
    referred.update(posts)
    return referred


def _latest_numbers(existing: dict[str, Page]) -> dict[int, int]:
    """The number of the latest revision of each page already on the site, by page."""
    return (
        dict(
            Revision.objects.filter(page__in=list(existing.values()))
            .order_by()
            .values("page")
            .annotate(top=Max("number"))
            .values_list("page", "top")
        )
        if existing
        else {}
    )


def _set_current_revisions(pages: dict[str, Page], revisions: list[Revision]) -> None:
    """Each page's current text: its last revision."""
    current = {}
    for revision in revisions:
        current[revision.page_id] = revision  # the last of each page's revisions is its current text
    if any(revision.pk is None for revision in current.values()):
        latest = {
            v.page_id: v for v in Revision.objects.filter(page__in=list(pages.values())).order_by("page_id", "number")
        }
        current = latest
    for page in pages.values():
        page.current = current[page.pk]
    Page.objects.bulk_update(list(pages.values()), ["current"])


def _write_pages(parsed: Parsed, users: dict[str, User], posts: dict[str, Post], existing: dict[str, Page]) -> None:
    if not parsed.pages:
        return
    referred = _posts_cited_by_revisions(parsed, posts)
    new_pages = [
        Page(
            title=p["title"],
            slug=p["slug"],
            kind=p["kind"],
            protected=p["protected"],
            created_at=p["created_at"] or p["revisions"][0]["at"],
        )
        for p in parsed.pages
        if p["title"] not in existing
    ]
    Page.objects.bulk_create(new_pages)
    pages = dict(existing)
    pages.update({page.title: page for page in _saved(Page, new_pages, "title").values()})
    numbers = _latest_numbers(existing)
    revisions = []
    for p in parsed.pages:
        page = pages[p["title"]]
        start = numbers.get(page.pk, 0)
        revisions.extend(
            Revision(
                page=page,
                number=start + i + 1,
                author=users[v["author"]] if v["author"] else None,
                at=v["at"],
                summary=v["summary"],
                text=v["text"],
                size=len(v["text"].encode("utf-8")),
                post=referred.get(v["post"]) if v["post"] else None,
            )
            for i, v in enumerate(p["revisions"])
        )
    Revision.objects.bulk_create(revisions, batch_size=CHUNK)
    _set_current_revisions(pages, revisions)
    ProtectionChange.objects.bulk_create(
        ProtectionChange(
            page=pages[p["title"]],
            protected=c["protected"],
            by=users[c["by"]] if c["by"] else None,
            at=c["at"],
            reason=c["reason"],
        )
        for p in parsed.pages
        for c in p["protection_log"]
    )
