"""Loading an archive: every field is checked first, then everything is written in one transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from blognomic.archive.fields import ArchiveError, Reader
from blognomic.markup import render_markdown
from blognomic.models import VOTABLE_KINDS, Comment, Kind, Post, Status
from dynasties.models import PROFILE_CHOICES, Absence, Dynasty, Game, PlayerNameValidator, User
from ruleset.models import Page, Revision
from votes.models import Resolution

KINDS = tuple(Kind.values)
ICONS = ("for", "against", "deferential", "veto")
STATUSES = ("pending", "enacted", "failed")
OUTCOMES = ("enacted", "failed", "vetoed", "self-killed")
PAGE_KINDS = (Page.RULESET, Page.GAMESTATE, Page.ORDINARY)
_names = PlayerNameValidator()

__all__ = ["ArchiveError", "import_archive"]


@dataclass
class Parsed:
    profile: str | None
    players: list[dict] = field(default_factory=list)
    dynasties: list[dict] = field(default_factory=list)
    posts: list[dict] = field(default_factory=list)
    pages: list[dict] = field(default_factory=list)
    accounts: set[str] = field(default_factory=set)  # every name mentioned, players or not


def _name(reader: Reader, key: str, parsed: Parsed) -> str:
    name = reader.text(key, max_length=150)
    try:
        _names(name)
    except Exception:
        raise ArchiveError(reader.at(key), f"{name!r} is not a valid name") from None
    parsed.accounts.add(name)
    return name


def parse_archive(data: Any) -> Parsed:
    root = Reader(data, "")
    if root.data.get("format") != "blognomic-archive":
        raise ArchiveError("format", "must be \"blognomic-archive\"")
    if root.data.get("version") != 1:
        raise ArchiveError("version", "must be 1")
    parsed = Parsed(profile=root.choice("profile", tuple(c for c, _ in PROFILE_CHOICES), required=False))
    seen_players: set[str] = set()
    for item, path in root.items("players"):
        r = Reader(item, path)
        name = _name(r, "name", parsed)
        if name in seen_players:
            raise ArchiveError(r.at("name"), f"{name!r} is listed twice")
        seen_players.add(name)
        parsed.players.append({
            "name": name, "admin": r.boolean("admin"), "idle": r.boolean("idle"),
            "joined_at": r.time("joined_at"), "idle_since": r.time("idle_since", required=False),
            "left_at": r.time("left_at", required=False),
        })
    numbers: set[int] = set()
    for item, path in root.items("dynasties"):
        r = Reader(item, path)
        number = r.integer("number")
        if number < 1 or number in numbers:
            raise ArchiveError(r.at("number"), "must be a positive number not used by another dynasty")
        numbers.add(number)
        emperor = r.text("emperor", required=False) or None
        if emperor is not None:
            emperor = _name(r, "emperor", parsed)
        parsed.dynasties.append({
            "number": number, "emperor": emperor,
            "player_term": r.text("player_term", required=False, default="Player", max_length=40) or "Player",
            "emperor_term": r.text("emperor_term", required=False, default="Emperor", max_length=40) or "Emperor",
            "theme": r.text("theme", required=False, max_length=200),
            "started_at": r.time("started_at"), "ended_at": r.time("ended_at", required=False),
        })
    ids: set[str] = set()
    for item, path in root.items("posts"):
        parsed.posts.append(_parse_post(Reader(item, path), parsed, ids, numbers))
    wiki = root.child("wiki")
    if wiki is not None:
        titles: set[str] = set()
        for item, path in wiki.items("pages"):
            parsed.pages.append(_parse_page(Reader(item, path), parsed, titles))
    return parsed


def _parse_post(r: Reader, parsed: Parsed, ids: set[str], numbers: set[int]) -> dict:
    post_id = r.text("id", max_length=200)
    if post_id in ids:
        raise ArchiveError(r.at("id"), f"{post_id!r} is used by another post")
    ids.add(post_id)
    kind = r.choice("kind", KINDS)
    dynasty = r.integer("dynasty", required=False)
    if dynasty is not None and dynasty not in numbers:
        raise ArchiveError(r.at("dynasty"), f"no dynasty numbered {dynasty} in this archive")
    status = r.choice("status", STATUSES, required=kind in VOTABLE_KINDS)
    if kind not in VOTABLE_KINDS and status not in (None,):
        raise ArchiveError(r.at("status"), f"a {kind} is not votable and has no status")
    resolution = None
    res = r.child("resolution")
    if status in ("enacted", "failed"):
        if res is None:
            raise ArchiveError(r.at("resolution"), f"is required for a post that is {status}")
        outcome = res.choice("outcome", OUTCOMES)
        if (status == "enacted") != (outcome == "enacted"):
            raise ArchiveError(res.at("outcome"), f"{outcome!r} does not agree with status {status!r}")
        by = res.text("by", required=False) or None
        if by is not None:
            by = _name(res, "by", parsed)
        resolution = {"by": by, "at": res.time("at"), "outcome": outcome, "note": res.text("note", required=False)}
    elif res is not None:
        raise ArchiveError(r.at("resolution"), "must be null unless the post is enacted or failed")
    comments = []
    for item, path in r.items("comments"):
        c = Reader(item, path)
        comments.append({
            "author": _name(c, "author", parsed), "at": c.time("at"),
            "icon": c.choice("icon", ICONS, nullable=True), "text": c.text("text", required=False),
            "trivial": c.boolean("trivial"),
        })
    return {
        "id": post_id, "kind": kind, "title": r.text("title", max_length=300), "author": _name(r, "author", parsed),
        "posted_at": r.time("posted_at"), "dynasty": dynasty, "body": r.text("body", required=False),
        "flavour": r.text("flavour", required=False), "status": status or "", "resolution": resolution,
        "comments": comments, "trivial": r.boolean("trivial"), "sticky": r.boolean("sticky"),
        "admin_note": r.text("admin_note", required=False),
    }


def _parse_page(r: Reader, parsed: Parsed, titles: set[str]) -> dict:
    title = r.text("title", max_length=200)
    if title.lower() in titles:
        raise ArchiveError(r.at("title"), f"{title!r} is used by another page")
    titles.add(title.lower())
    revisions = []
    for item, path in r.items("revisions", required=True):
        v = Reader(item, path)
        author = v.text("author", required=False) or None
        if author is not None:
            author = _name(v, "author", parsed)
        revisions.append({"at": v.time("at"), "author": author, "summary": v.text("summary", required=False,
                                                                                     max_length=300),
                          "text": v.text("text", required=False), "post": v.text("post", required=False) or None})
    if not revisions:
        raise ArchiveError(r.at("revisions"), "must hold at least one revision")
    return {"title": title, "slug": r.text("slug", required=False, max_length=200),
            "kind": r.choice("kind", PAGE_KINDS, required=False) or Page.ORDINARY,
            "protected": r.boolean("protected"), "revisions": revisions}


@transaction.atomic
def import_archive(data: Any) -> dict[str, int]:
    """Check the whole archive, then write it; on any bad field nothing is written."""
    parsed = parse_archive(data)
    existing = set(Post.objects.filter(slug__in=[p["id"] for p in parsed.posts]).values_list("slug", flat=True))
    for index, post in enumerate(parsed.posts):
        if post["id"] in existing:
            raise ArchiveError(f"posts[{index}].id", f"a post with id {post['id']!r} already exists")
    if parsed.profile:
        game = Game.load()
        game.profile = parsed.profile
        game.save()
    users = _write_accounts(parsed)
    dynasties = _write_dynasties(parsed, users)
    posts = _write_posts(parsed, users, dynasties)
    _write_pages(parsed, users, posts)
    return {"players": len(parsed.players), "dynasties": len(parsed.dynasties), "posts": len(parsed.posts),
            "comments": sum(len(p["comments"]) for p in parsed.posts), "pages": len(parsed.pages)}


def _write_accounts(parsed: Parsed) -> dict[str, User]:
    users = {u.username: u for u in User.objects.filter(username__in=parsed.accounts)}
    new = [User(username=name) for name in sorted(parsed.accounts - users.keys())]
    for user in new:
        user.set_unusable_password()
    User.objects.bulk_create(new)
    users.update({u.username: u for u in User.objects.filter(username__in=[u.username for u in new])})
    for player in parsed.players:
        user = users[player["name"]]
        user.joined_at = player["joined_at"]
        user.is_admin = player["admin"]
        user.save(update_fields=["joined_at", "is_admin"])
        Absence.objects.filter(user=user).delete()
        if player["left_at"]:
            Absence.objects.create(user=user, kind=Absence.LEFT, started_at=player["left_at"])
        elif player["idle"]:
            Absence.objects.create(user=user, kind=Absence.IDLE,
                                   started_at=player["idle_since"] or player["joined_at"])
    return users


def _write_dynasties(parsed: Parsed, users: dict[str, User]) -> dict[int, Dynasty]:
    dynasties = {}
    for d in parsed.dynasties:
        dynasty, _ = Dynasty.objects.update_or_create(
            number=d["number"],
            defaults={"emperor": users.get(d["emperor"]) if d["emperor"] else None,
                      "player_term": d["player_term"], "emperor_term": d["emperor_term"], "theme": d["theme"],
                      "started_at": d["started_at"], "ended_at": d["ended_at"]},
        )
        dynasties[d["number"]] = dynasty
    return dynasties


def _write_posts(parsed: Parsed, users: dict[str, User], dynasties: dict[int, Dynasty]) -> dict[str, Post]:
    posts = [
        Post(slug=p["id"], kind=p["kind"], title=p["title"], author=users[p["author"]], posted_at=p["posted_at"],
             dynasty=dynasties.get(p["dynasty"]), body=p["body"], body_html=render_markdown(p["body"]),
             flavour=p["flavour"], flavour_html=render_markdown(p["flavour"]), status=p["status"] or Status.NONE,
             outcome=p["resolution"]["outcome"] if p["resolution"] else "",
             admin_note=p["admin_note"] or (p["resolution"]["note"] if p["resolution"] else ""),
             trivial=p["trivial"], sticky=p["sticky"])
        for p in parsed.posts
    ]
    Post.objects.bulk_create(posts, batch_size=1000)
    by_slug = {post.slug: post for post in Post.objects.filter(slug__in=[p["id"] for p in parsed.posts])}
    comments, resolutions = [], []
    for p in parsed.posts:
        post = by_slug[p["id"]]
        comments.extend(
            Comment(post=post, author=users[c["author"]], at=c["at"], icon=c["icon"], trivial=c["trivial"],
                    text=c["text"], text_html=render_markdown(c["text"]))
            for c in p["comments"]
        )
        if p["resolution"]:
            r = p["resolution"]
            resolutions.append(Resolution(post=post, outcome=r["outcome"], by=users.get(r["by"]) if r["by"] else None,
                                          at=r["at"], note=r["note"]))
    Comment.objects.bulk_create(comments, batch_size=2000)
    Resolution.objects.bulk_create(resolutions, batch_size=1000)
    return by_slug


def _write_pages(parsed: Parsed, users: dict[str, User], posts: dict[str, Post]) -> None:
    from django.utils.text import slugify

    for p in parsed.pages:
        slug = p["slug"] or slugify(p["title"], allow_unicode=True) or "page"
        first_at: datetime | None = p["revisions"][0]["at"] if p["revisions"] else None
        page = Page.objects.filter(title__iexact=p["title"]).first()
        if page is None:
            page = Page.objects.create(title=p["title"], slug=slug, kind=p["kind"], protected=p["protected"],
                                       created_at=first_at)
        start = page.revisions.count()
        revisions = [
            Revision(page=page, number=start + i + 1, author=users.get(v["author"]) if v["author"] else None,
                     at=v["at"], summary=v["summary"], text=v["text"], size=len(v["text"].encode("utf-8")),
                     post=posts.get(v["post"]) if v["post"] else None)
            for i, v in enumerate(p["revisions"])
        ]
        Revision.objects.bulk_create(revisions, batch_size=500)
        page.current = page.revisions.order_by("-number").first()
        page.save(update_fields=["current"])
