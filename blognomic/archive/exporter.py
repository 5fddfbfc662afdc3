"""Writing the whole game as an archive, in a stable order so two exports of the same game are identical."""

from __future__ import annotations

from collections import defaultdict

from blognomic.archive.fields import format_time
from blognomic.models import Comment, Post
from dynasties.models import Absence, Dynasty, Game, User
from ruleset.models import Page, Revision
from votes.models import Resolution


def export_archive() -> dict:
    return {
        "format": "blognomic-archive",
        "version": 1,
        "profile": Game.load().profile,
        "players": _players(),
        "dynasties": _dynasties(),
        "posts": _posts(),
        "wiki": {"pages": _pages()},
    }


def _players() -> list[dict]:
    open_absences = {
        a.user_id: a for a in Absence.objects.filter(ended_at__isnull=True).order_by("started_at")
    }
    players = []
    for user in User.objects.players().order_by("joined_at", "username"):
        absence = open_absences.get(user.pk)
        entry = {"name": user.username, "admin": user.is_admin,
                 "idle": absence is not None and absence.kind == Absence.IDLE,
                 "joined_at": format_time(user.joined_at)}
        if absence is not None and absence.kind == Absence.IDLE:
            entry["idle_since"] = format_time(absence.started_at)
        if absence is not None and absence.kind == Absence.LEFT:
            entry["left_at"] = format_time(absence.started_at)
        players.append(entry)
    return players


def _dynasties() -> list[dict]:
    return [
        {"number": d.number, "emperor": d.emperor.username if d.emperor else None, "player_term": d.player_term,
         "emperor_term": d.emperor_term, "theme": d.theme, "started_at": format_time(d.started_at),
         "ended_at": format_time(d.ended_at)}
        for d in Dynasty.objects.select_related("emperor").order_by("number")
    ]


def _posts() -> list[dict]:
    comments = defaultdict(list)
    for c in Comment.objects.select_related("author").order_by("at", "pk"):
        entry = {"author": c.author.username, "at": format_time(c.at), "icon": c.icon or None, "text": c.text}
        if c.trivial:
            entry["trivial"] = True
        comments[c.post_id].append(entry)
    final = {}
    for r in Resolution.objects.select_related("by").order_by("at", "pk"):
        final[r.post_id] = None if r.outcome == Resolution.REOPENED else r
    posts = []
    for p in Post.objects.select_related("author", "dynasty").order_by("posted_at", "pk"):
        r = final.get(p.pk) if p.is_resolved else None
        entry = {
            "id": p.slug, "kind": p.kind, "title": p.title, "author": p.author.username,
            "posted_at": format_time(p.posted_at), "dynasty": p.dynasty.number if p.dynasty else None,
            "body": p.body, "flavour": p.flavour, "status": p.status or None,
            "resolution": {"by": r.by.username if r.by else None, "at": format_time(r.at), "outcome": r.outcome,
                           "note": r.note} if r else None,
            "comments": comments[p.pk],
        }
        if p.trivial:
            entry["trivial"] = True
        if p.sticky:
            entry["sticky"] = True
        if p.admin_note and (r is None or p.admin_note != r.note):
            entry["admin_note"] = p.admin_note
        posts.append(entry)
    return posts


def _pages() -> list[dict]:
    revisions = defaultdict(list)
    for v in Revision.objects.select_related("author", "post").order_by("page_id", "number"):
        revisions[v.page_id].append({
            "at": format_time(v.at), "author": v.author.username if v.author else None, "summary": v.summary,
            "text": v.text, "post": v.post.slug if v.post else None,
        })
    return [
        {"title": p.title, "slug": p.slug, "kind": p.kind, "protected": p.protected, "revisions": revisions[p.pk]}
        for p in Page.objects.order_by("title")
    ]
