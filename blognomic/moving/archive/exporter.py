"""Writing the whole game as an archive, in a stable order so two exports of the same game are identical.

Export only reads: a fixed number of queries whatever the size of the game, reading plain values rather
than model instances so that a game of a hundred thousand comments stays light in memory.

Rows that people link to by number (comments, applications, every GNDT record) carry their primary key as
``pk``, so an import into an empty database gives every permalink back unchanged.
"""

from __future__ import annotations

from collections import defaultdict

from blognomic.moving.archive.amendments import export_amendments
from blognomic.moving.archive.fields import FORMAT, VERSION, format_time
from blognomic.moving.archive.gndt_export import export_gndt
from blognomic.moving.archive.matter_kinds import export_matter_kinds
from blognomic.moving.archive.personal import export_personal
from blognomic.moving.archive.variables import export_variables
from dynasties.models import Absence, Application, Dynasty, Game, Notification, Rename, RuleChange, User
from dynasties.theming import DEFAULT_PALETTE
from ruleset.models import Page, ProtectionChange, Revision
from votes.models import Comment, Post, Resolution


def export_archive() -> dict:
    names = dict(User.objects.values_list("pk", "username"))
    archive = {
        "format": FORMAT,
        "version": VERSION,
        "profile": _profile(),
        "game": _game(),
        "accounts": _accounts(),
        "players": _players(),
        "applications": _applications(names),
        "dynasties": _dynasties(names),
        "posts": _posts(names),
        "renames": _renames(names),
        "rule_changes": _rule_changes(names),
        "notifications": _notifications(names),
        "amendments": export_amendments(names),
        "personal": export_personal(names),
        "gndt": _gndt(),
        "wiki": {"pages": _pages(names)},
    }
    matter_kinds, matter_effects = export_matter_kinds(names)
    if matter_kinds or matter_effects:  # left out when there are none, as older archives had it
        archive["matter_kinds"] = matter_kinds
        archive["matter_effects"] = matter_effects
    return archive


def _gndt() -> dict:
    gndt = export_gndt()
    variables = export_variables()
    if variables:  # left out when there are none, as older archives had it
        gndt["variables"] = variables
    return gndt


def _game() -> dict:
    game = Game.objects.filter(pk=1).values("name", "auto_resolve").first()
    if game is None:
        return {"name": Game._meta.get_field("name").default, "auto_resolve": False}
    return game


def _accounts() -> list[dict]:
    """Every account, player or not: what logging in and being told things needs."""
    fields = (
        "username",
        "email",
        "first_name",
        "last_name",
        "password",
        "is_staff",
        "is_superuser",
        "is_active",
        "date_joined",
        "last_login",
    )
    return [
        {
            "name": a["username"],
            "email": a["email"],
            "first_name": a["first_name"],
            "last_name": a["last_name"],
            "password": a["password"],
            "staff": a["is_staff"],
            "superuser": a["is_superuser"],
            "active": a["is_active"],
            "date_joined": format_time(a["date_joined"]),
            "last_login": format_time(a["last_login"]),
        }
        for a in User.objects.order_by("username").values(*fields)
    ]


def _applications(names: dict[int, str]) -> list[dict]:
    return [
        {
            "pk": a.pk,
            "name": a.name,
            "password": a.password_hash,
            "message": a.message,
            "ip_address": a.ip_address,
            "submitted_at": format_time(a.submitted_at),
            "status": a.status,
            "decided_by": names.get(a.decided_by_id),
            "decided_at": format_time(a.decided_at),
        }
        for a in Application.objects.order_by("submitted_at", "pk")
    ]


def _renames(names: dict[int, str]) -> list[dict]:
    return [
        {
            "player": names[r["user_id"]],
            "old_name": r["old_name"],
            "new_name": r["new_name"],
            "by": names[r["by_id"]],
            "at": format_time(r["at"]),
            "proposal": r["proposal__slug"],
        }
        for r in Rename.objects.order_by("at", "pk").values(
            "user_id", "old_name", "new_name", "by_id", "at", "proposal__slug"
        )
    ]


def _notifications(names: dict[int, str]) -> list[dict]:
    return [
        {
            "to": names[n["user_id"]],
            "key": n["key"],
            "text": n["text"],
            "url": n["url"],
            "created_at": format_time(n["created_at"]),
            "read_at": format_time(n["read_at"]),
        }
        for n in Notification.objects.order_by("created_at", "pk")
        .values("user_id", "key", "text", "url", "created_at", "read_at")
        .iterator(chunk_size=5000)
    ]


def _profile() -> str:
    # Read without Game.load(), which would create the row: exporting never writes.
    profile = Game.objects.filter(pk=1).values_list("profile", flat=True).first()
    return profile or Game._meta.get_field("profile").default


def _players() -> list[dict]:
    current: dict[int, Absence] = {}
    past: dict[int, list[dict]] = defaultdict(list)
    for absence in Absence.objects.order_by("started_at", "pk"):
        if absence.ended_at is None:
            current[absence.user_id] = absence
        else:
            past[absence.user_id].append(
                {"kind": absence.kind, "from": format_time(absence.started_at), "until": format_time(absence.ended_at)}
            )
    players = []
    for pk, name, admin, joined_at in (
        User.objects.players().order_by("joined_at", "username").values_list("pk", "username", "is_admin", "joined_at")
    ):
        absence = current.get(pk)
        idle = absence is not None and absence.kind == Absence.IDLE
        entry = {"name": name, "admin": admin, "idle": idle, "joined_at": format_time(joined_at)}
        if idle:
            entry["idle_since"] = format_time(absence.started_at)
        if absence is not None and absence.kind == Absence.LEFT:
            entry["left_at"] = format_time(absence.started_at)
        if past.get(pk):
            entry["past_absences"] = past[pk]
        players.append(entry)
    return players


def _dynasties(names: dict[int, str]) -> list[dict]:
    dynasties = []
    for d in Dynasty.objects.select_related("declaration", "ascension_address").order_by("number"):
        entry = {
            "number": d.number,
            "emperor": names.get(d.emperor_id),
            "player_term": d.player_term,
            "emperor_term": d.emperor_term,
            "theme": d.theme,
            "started_at": format_time(d.started_at),
            "ended_at": format_time(d.ended_at),
        }
        if d.player_term_plural:
            entry["player_term_plural"] = d.player_term_plural
        if d.declaration_id:
            entry["declaration"] = d.declaration.slug
        if d.ascension_address_id:
            entry["ascension_address"] = d.ascension_address.slug
        if d.ascended_at:
            entry["ascended_at"] = format_time(d.ascended_at)
        look = _look(d)
        if look:
            entry["look"] = look
        dynasties.append(entry)
    return dynasties


def _look(d: Dynasty) -> dict:
    """The dynasty's theme, only where it differs from the default look (older archives stay as they were)."""
    look = {}
    if d.palette != DEFAULT_PALETTE:
        look["palette"] = d.palette
    if d.header_line:
        look["header_line"] = d.header_line
    labels = {
        icon: label
        for icon, label in (
            ("for", d.vote_label_for),
            ("against", d.vote_label_against),
            ("deferential", d.vote_label_deferential),
        )
        if label
    }
    if labels:
        look["vote_labels"] = labels
    return look


def _posts(names: dict[int, str]) -> list[dict]:
    """Every post, oldest first, with its comments and the resolutions the latest does not tell."""
    comments = _comments_by_post(names)
    final, history = _resolutions_by_post(names)
    posts = []
    fields = (
        "pk",
        "slug",
        "kind",
        "title",
        "author_id",
        "posted_at",
        "edited_at",
        "dynasty__number",
        "body",
        "flavour",
        "status",
        "admin_note",
        "trivial",
        "sticky",
        "anonymous",
        "enactable_since",
        "failable_since",
        "stale_since",
        "carried_out_at",
        "matter_kind_id",
        "imported_at",
        "hidden_at",
        "hidden_by_id",
    )
    for p in Post.objects.order_by("posted_at", "pk").values(*fields).iterator(chunk_size=2000):
        posts.append(_post_entry(p, names, comments=comments, final=final, history=history))
    return posts


def _comments_by_post(names: dict[int, str]) -> dict[int, list[dict]]:
    comments = defaultdict(list)
    rows = Comment.objects.order_by("at", "pk").values_list(
        "pk", "post_id", "author_id", "at", "icon", "text", "trivial", "imported_at"
    )
    for pk, post_id, author_id, at, icon, text, trivial, imported_at in rows.iterator(chunk_size=5000):
        entry = {"pk": pk, "author": names[author_id], "at": format_time(at), "icon": icon or None, "text": text}
        if trivial:
            entry["trivial"] = True
        if imported_at:
            entry["imported_at"] = format_time(imported_at)
        comments[post_id].append(entry)
    return comments


def _resolutions_by_post(names: dict[int, str]) -> tuple[dict[int, dict | None], dict[int, list[dict]]]:
    """Each post's latest resolution (None when it was reopened since) and all of them, oldest first."""
    final = {}
    history = defaultdict(list)
    resolutions = Resolution.objects.order_by("at", "pk").values_list(
        "post_id", "outcome", "by_id", "at", "note", "tally", "reason", "imported_at"
    )
    for post_id, outcome, by_id, at, note, tally, reason, imported_at in resolutions:
        final[post_id] = (
            None
            if outcome == Resolution.REOPENED
            else {
                "by": names.get(by_id),
                "at": format_time(at),
                "outcome": outcome,
                "note": note,
            }
        )
        if tally and final[post_id] is not None:
            final[post_id]["tally"] = tally
        history[post_id].append(
            {
                "by": names.get(by_id),
                "at": format_time(at),
                "outcome": outcome,
                "note": note,
                "tally": tally or {},
                "reason": reason,
            }
        )
        if imported_at:
            history[post_id][-1]["imported_at"] = format_time(imported_at)
            if final[post_id] is not None:
                final[post_id]["imported_at"] = format_time(imported_at)
    return final, history


def _post_entry(p: dict, names: dict[int, str], *, comments: dict, final: dict, history: dict) -> dict:
    resolution = final.get(p["pk"]) if p["status"] in ("enacted", "failed") else None
    entry = {
        "id": p["slug"],
        "kind": p["kind"],
        "title": p["title"],
        "author": names[p["author_id"]],
        "posted_at": format_time(p["posted_at"]),
        "dynasty": p["dynasty__number"],
        "body": p["body"],
        "flavour": p["flavour"],
        "status": p["status"] or None,
        "resolution": resolution,
        "comments": comments.pop(p["pk"], []),
    }
    if p["edited_at"]:
        entry["edited_at"] = format_time(p["edited_at"])
    if p["trivial"]:
        entry["trivial"] = True
    if p["sticky"]:
        entry["sticky"] = True
    if p["anonymous"]:
        entry["anonymous"] = True
    if p["admin_note"] and (resolution is None or p["admin_note"] != resolution["note"]):
        entry["admin_note"] = p["admin_note"]
    # Every resolution, reopened ones included, only where the latest alone does not tell it all.
    past = history.get(p["pk"], [])
    if len(past) > 1 or (past and resolution is None):
        entry["resolutions"] = past
    for flag in ("enactable_since", "failable_since", "stale_since", "carried_out_at", "imported_at"):
        if p[flag]:
            entry[flag] = format_time(p[flag])
    if p["matter_kind_id"]:
        entry["matter_kind"] = p["matter_kind_id"]  # the pk of one of matter_kinds
    if p["hidden_at"]:  # hidden from the site by an admin: a restore must not show it again
        entry["hidden_at"] = format_time(p["hidden_at"])
        entry["hidden_by"] = names.get(p["hidden_by_id"])
    return entry


def _pages(names: dict[int, str]) -> list[dict]:
    revisions = defaultdict(list)
    rows = Revision.objects.order_by("page_id", "number").values_list(
        "page_id", "at", "author_id", "summary", "text", "post__slug"
    )
    for page_id, at, author_id, summary, text, post in rows.iterator(chunk_size=1000):
        revisions[page_id].append(
            {"at": format_time(at), "author": names.get(author_id), "summary": summary, "text": text, "post": post}
        )
    protection = defaultdict(list)
    for page_id, protected, by_id, at, reason in ProtectionChange.objects.order_by("at", "pk").values_list(
        "page_id", "protected", "by_id", "at", "reason"
    ):
        protection[page_id].append(
            {"protected": protected, "by": names.get(by_id), "at": format_time(at), "reason": reason}
        )
    pages = []
    for p in Page.objects.order_by("title"):
        entry = {
            "title": p.title,
            "slug": p.slug,
            "kind": p.kind,
            "protected": p.protected,
            "created_at": format_time(p.created_at),
            "revisions": revisions[p.pk],
        }
        if protection.get(p.pk):
            entry["protection_log"] = protection[p.pk]
        pages.append(entry)
    return pages


def _rule_changes(names: dict[int, str]) -> list[dict]:
    return [
        {
            "parameter": c["parameter"],
            "value": c["value"],
            "proposal": c["proposal__slug"],
            "by": names[c["by_id"]],
            "at": format_time(c["at"]),
        }
        for c in RuleChange.objects.order_by("at", "pk").values("parameter", "value", "proposal__slug", "by_id", "at")
    ]
