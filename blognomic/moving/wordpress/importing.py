"""Importing a WordPress export: its posts, comments, votes and people, as this site's records.

New posts go through the archive importer (``blognomic.moving.archive.import_archive``) in batches, so every rule an
archive is checked against (names, lookalikes, kinds, statuses, text a database cannot hold) is checked
here too; new comments on posts imported before are written with the same checks. The whole import is one
transaction: a file that turns out bad halfway writes nothing. Each post and comment is remembered by its
id in the export (``WordPressItem``), so importing the same file again changes nothing and a newer export
adds only what is new.

What is read, and how:

- ``item``\\ s of type ``post`` that are published: category to kind (``mapping.kind_of``), title, body,
  ``dc:creator``, ``wp:post_date_gmt``; post meta ``flavour``, ``admin`` (the admin field) and
  ``admin_user`` (who resolved it); the status (``mapping.status_of``).
- approved comments: ``wp:comment_date_gmt``, text, the author (the account of ``wp:comment_user_id``, or
  the name written, for a commenter with no account); comment meta ``vote`` (``for``, ``against``,
  ``deferential``, ``veto``; ``no-vote`` is a comment without a vote) and ``good_flavour``. Replies are kept
  in time order (comments here are not threaded) with the comment they answered recorded.
- authors: user meta ``is_player`` (on ``wp:author``) makes an author a player from their first post or
  comment in the export; everyone else is an account that is not a player, and their votes are not kept.

Skipped, each with its reason and line: other post types (pages, attachments, menu items), drafts and
private or trashed posts, password-protected posts, pingbacks, trackbacks and unapproved comments, and
anything without a date or id, with a repeated id, with an author's name this site cannot hold, or longer
than a post may be.
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import BinaryIO
from urllib.parse import unquote

from django.db import transaction
from django.utils import timezone

from blognomic.models import WordPressItem
from blognomic.moving.archive import ArchiveError, import_archive
from blognomic.moving.archive.people import accounts_for
from blognomic.moving.wordpress.mapping import VOTABLE, Mapping, is_truthy, kind_of, status_of
from blognomic.moving.wordpress.markup import wordpress_to_markdown
from blognomic.moving.wordpress.reading import Channel, WxrComment, WxrPost, parse_gmt, read_wxr
from blognomic.moving.wordpress.recorded import parse_recorded_result
from dynasties import names as name_rules
from dynasties.clock import format_iso_time, storable_moment_problem
from dynasties.models import Absence, Dynasty, Game, User
from votes import engine
from votes.engine_inputs import matter_from
from votes.markup import render_markdown
from votes.models import MAX_BODY_BYTES, Comment, Kind, Outcome, Post, Resolution

BATCH = 250  # posts per call of the archive importer: bounds the memory an import holds at once
VOTES = {"for": "for", "against": "against", "deferential": "deferential", "veto": "veto", "no-vote": None}
TITLE_MAX = 300


class ImportRefused(Exception):
    """The export cannot be imported; nothing was written. The message names the element and its line."""


class _DryRun(Exception):
    pass


@dataclass
class Report:
    version: str = ""
    dry_run: bool = False
    added: Counter = field(default_factory=Counter)  # what was written, per kind
    present: Counter = field(default_factory=Counter)  # posts and comments imported before
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = "Would import" if self.dry_run else "Imported"
        counts = ", ".join(f"{n} {what}" for what, n in sorted(self.added.items()) if n) or "nothing new"
        out = [f"WXR {self.version}. {head}: {counts}."]
        if self.present:
            out.append(
                "Already imported: " + ", ".join(f"{n} {what}" for what, n in sorted(self.present.items())) + "."
            )
        out.append(f"Skipped {len(self.skipped)}:" if self.skipped else "Skipped nothing.")
        out += [f"  {line}" for line in self.skipped]
        out.append(
            f"Tally disagreements {len(self.disagreements)}:" if self.disagreements else "No tally disagreements."
        )
        out += [f"  {line}" for line in self.disagreements]
        out += self.notes
        return out


@dataclass
class _Batch:
    posts: list[dict] = field(default_factory=list)
    items: list[tuple[WxrPost, list[WxrComment]]] = field(default_factory=list)


class _Import:
    def __init__(self, *, mapping: Mapping, names: dict[str, str], report: Report, at: datetime) -> None:
        self.mapping = mapping
        self.imported_at = format_iso_time(at)  # every post, comment and resolution written here is marked so
        self.names = names
        self.report = report
        self.channel: Channel | None = None
        self.accounts: dict[str, User | None] = {}  # source name to account; None: a name this site cannot hold
        self.players: set[str] = set()  # source names of authors who are players
        self.first_seen: dict[int, datetime] = {}  # player account pk to their first post or comment
        self.known_posts: dict[int, int] = {}  # wp:post_id to Post pk, imported before
        self.known_comments: set[int] = set()
        self.seen_posts: set[int] = set()
        self.seen_comments: set[int] = set()
        self.slugs: set[str] = set()
        self.resolved: list[tuple[int, str]] = []  # (Post pk, admin text) imported this time, to tally
        self.batch = _Batch()

    # -- the channel ---------------------------------------------------------------------------------------

    def start(self, channel: Channel) -> None:
        self.channel = channel
        self.report.version = channel.version
        key = self.mapping.player_meta
        carried = [a for a in channel.authors.values() if key in a.meta]
        if carried:
            self.players = {a.login for a in carried if is_truthy(a.meta[key])}
        else:
            self.players = set(channel.authors)
            if channel.authors:
                self.report.notes.append(f"No author carries the user meta {key!r}: every author is taken as a player.")
        self.known_posts = dict(
            WordPressItem.objects.filter(kind=WordPressItem.POST).values_list("source_id", "post_id")
        )
        self.known_comments = set(
            WordPressItem.objects.filter(kind=WordPressItem.COMMENT).values_list("source_id", flat=True)
        )

    def account(self, name: str) -> User | None:
        if name not in self.accounts:
            target = self.names.get(name, name_rules.normalise(name))
            if name_rules.name_problem(target) is not None:
                self.accounts[name] = None
            else:
                self.accounts.update(accounts_for([name], mapping=self.names))
        return self.accounts[name]

    def is_player(self, name: str, user: User) -> bool:
        return name in self.players or user.joined_at is not None

    def note_activity(self, name: str, user: User, at: datetime) -> None:
        if name in self.players and user.joined_at is None:
            first = self.first_seen.get(user.pk)
            if first is None or at < first:
                self.first_seen[user.pk] = at

    # -- posts -----------------------------------------------------------------------------------------------

    def skip(self, where: str, reason: str) -> None:
        self.report.skipped.append(f"{where}: {reason}")

    def add(self, post: WxrPost) -> None:
        where = f"line {post.line}, <item> {post.id if post.id is not None else '(no wp:post_id)'}"
        reason = self._post_problem(post)
        if reason:
            self.skip(where, reason)
            return
        self.seen_posts.add(post.id)
        if post.id in self.known_posts:
            self.report.present["posts"] += 1
            self._add_comments_to_known(post)
            return
        author = self.account(post.creator)
        if author is None:
            self.skip(where, f"its author {post.creator!r} cannot be an account's name here")
            return
        posted_at = parse_gmt(post.posted_at)
        self.note_activity(post.creator, author, posted_at)
        kind = kind_of(post, self.mapping)
        comments, kept = self._comments(post, posted_at)
        entry = {
            "id": self._slug(post),
            "kind": kind,
            "title": html.unescape(post.title).strip(),
            "author": author.username,
            "posted_at": format_iso_time(posted_at),
            "body": wordpress_to_markdown(post.body),
            "flavour": wordpress_to_markdown(post.meta.get("flavour", "")),
            "comments": comments,
            "sticky": post.sticky and kind == "story",
            "admin_note": post.meta.get("admin", ""),
            "imported_at": self.imported_at,
        }
        if kind in VOTABLE:
            status = status_of(post, self.mapping)
            entry["status"] = status.status
            if status.outcome is not None:
                entry["resolution"] = self._resolution(post, posted_at, status.outcome, comments)
        self.batch.posts.append(entry)
        self.batch.items.append((post, kept))
        self.report.added[_plural(kind)] += 1
        if len(self.batch.posts) >= BATCH:
            self.flush()

    def _post_problem(self, post: WxrPost) -> str | None:
        if post.type != "post":
            return f"a {post.type or 'thing'} of WordPress's, not a post"
        if post.status != "publish":
            return f"its status is {post.status or 'empty'!r}, not published"
        if post.password:
            return "password-protected"
        if post.id is None:
            return "has no wp:post_id"
        if post.id in self.seen_posts:
            return f"wp:post_id {post.id} appears twice in the export"
        posted_at = parse_gmt(post.posted_at)
        if posted_at is None:
            return (
                f"has no wp:post_date_gmt that is a date ({post.posted_at.strip()!r})"
                if post.posted_at.strip()
                else "has no wp:post_date_gmt"
            )
        if (moment_problem := storable_moment_problem(posted_at)) is not None:
            return f"its wp:post_date_gmt {moment_problem}"
        if not post.creator:
            return "has no author (dc:creator)"
        title = html.unescape(post.title).strip()
        if not title:
            return "has no title"
        if len(title) > TITLE_MAX:
            return f"its title is {len(title)} characters long, more than the {TITLE_MAX} a title may be"
        for what, text in (("body", post.body), ("flavour", post.meta.get("flavour", ""))):
            if len(text.encode("utf-8")) > MAX_BODY_BYTES:
                return f"its {what} is more than the {MAX_BODY_BYTES // 1024} KB a post may hold"
        return None

    def _slug(self, post: WxrPost) -> str:
        """The WordPress address's last part when it is free and a valid address here, else ``wp-<id>``."""
        name = unquote(post.name).strip()
        if not name or name_rules.name_problem(name) is not None or name in (".", "..") or len(name) > 180:
            name = f"wp-{post.id}"
        if name in self.slugs or Post.objects.filter(slug=name).exists():
            name = f"{name}-{post.id}"
        self.slugs.add(name)
        return name

    def _resolution(self, post: WxrPost, posted_at: datetime, outcome: str, comments: list[dict]) -> dict:
        """Resolved when the post was last changed (the admin field is written then), but not before the last
        vote counted in its tally nor before it was posted."""
        moments = [posted_at] + [datetime.fromisoformat(c["at"]) for c in comments if c["icon"]]
        modified = parse_gmt(post.modified_at)
        if modified is not None and storable_moment_problem(modified) is not None:
            modified = None  # a date no game may carry says nothing of when the post was resolved
        at = max(modified, *moments) if modified else max(moments)
        by_name = post.meta.get("admin_user", "").strip()
        by = self.account(by_name) if by_name else None
        return {
            "by": by.username if by else None,
            "at": format_iso_time(at),
            "outcome": outcome,
            "note": post.meta.get("admin", ""),
            "imported_at": self.imported_at,
        }

    def _comments(self, post: WxrPost, posted_at: datetime) -> tuple[list[dict], list[WxrComment]]:
        entries, kept = [], []
        ids = {c.id for c in post.comments if c.id is not None}
        for comment in sorted(post.comments, key=lambda c: (c.at, c.id or 0)):
            entry = self._comment(post, comment, ids)
            if entry is not None:
                entries.append(entry)
                kept.append(comment)
        return entries, kept

    def _comment(self, post: WxrPost, comment: WxrComment, ids: set[int]) -> dict | None:
        where = f"line {comment.line}, <wp:comment> {comment.id if comment.id is not None else '(no id)'}"
        if comment.id is None:
            self.skip(where, "has no wp:comment_id")
            return None
        if comment.id in self.seen_comments:
            self.skip(where, f"wp:comment_id {comment.id} appears twice in the export")
            return None
        self.seen_comments.add(comment.id)
        if comment.id in self.known_comments:
            self.report.present["comments"] += 1
            return None
        if comment.type in ("pingback", "trackback"):
            self.skip(where, f"a {comment.type}")
            return None
        if comment.approved != "1":
            self.skip(where, "not approved (spam, trash or awaiting moderation)")
            return None
        at = parse_gmt(comment.at)
        if at is None:
            self.skip(where, "has no wp:comment_date_gmt that is a date")
            return None
        if (moment_problem := storable_moment_problem(at)) is not None:
            self.skip(where, f"its wp:comment_date_gmt {moment_problem}")
            return None
        if len(comment.text.encode("utf-8")) > MAX_BODY_BYTES:
            self.skip(where, f"its text is more than the {MAX_BODY_BYTES // 1024} KB a comment may hold")
            return None
        name = self._commenter(comment)
        user = self.account(name)
        if user is None:
            self.skip(where, f"its author {name!r} cannot be an account's name here")
            return None
        self.note_activity(name, user, at)
        raw_vote = comment.meta.get("vote", "").strip().casefold()
        icon = VOTES.get(raw_vote) if raw_vote else None
        if raw_vote and raw_vote not in VOTES:
            self.report.notes.append(
                f"{where}: vote {raw_vote!r} is none of {', '.join(VOTES)}; kept as a comment without a vote"
            )
        elif icon and not self.is_player(name, user):
            self.report.notes.append(f"{where}: {name!r} is not a player, so the {icon.upper()} is not kept")
            icon = None
        if comment.parent and comment.parent not in ids:
            self.report.notes.append(
                f"{where}: replies to comment {comment.parent}, which is not on post {post.id}; kept in time order"
            )
        self.report.added["comments"] += 1
        if icon:
            self.report.added["votes"] += 1
        return {
            "author": user.username,
            "at": format_iso_time(at),
            "icon": icon,
            "text": wordpress_to_markdown(comment.text),
            "imported_at": self.imported_at,
        }

    def _commenter(self, comment: WxrComment) -> str:
        if comment.user_id and self.channel is not None:
            for author in self.channel.authors.values():
                if author.id == comment.user_id:
                    return author.login
        return comment.author or "Anonymous"

    def _add_comments_to_known(self, post: WxrPost) -> None:
        """New comments on a post imported before: written here, checked as the archive checks them."""
        post_pk = self.known_posts[post.id]
        ids = {c.id for c in post.comments if c.id is not None}
        new = []
        for comment in sorted(post.comments, key=lambda c: (c.at, c.id or 0)):
            entry = self._comment(post, comment, ids)
            if entry is not None:
                new.append((comment, entry))
        if not new:
            return
        users = {u.username: u for u in User.objects.filter(username__in={e["author"] for _, e in new})}
        rows = []
        for comment, entry in new:
            row = Comment(
                post_id=post_pk,
                author=users[entry["author"]],
                at=datetime.fromisoformat(entry["at"]),
                icon=entry["icon"],
                text=entry["text"],
                text_html=render_markdown(entry["text"]),
                imported_at=datetime.fromisoformat(entry["imported_at"]),
            )
            row.save()
            rows.append(
                WordPressItem(
                    kind=WordPressItem.COMMENT,
                    source_id=comment.id,
                    post_id=post_pk,
                    comment=row,
                    reply_to=comment.parent or None,
                    good_flavour=is_truthy(comment.meta.get("good_flavour", "")),
                )
            )
        WordPressItem.objects.bulk_create(rows)

    # -- writing -----------------------------------------------------------------------------------------------

    def flush(self) -> None:
        batch, self.batch = self.batch, _Batch()
        if not batch.posts:
            return
        archive = {"format": "blognomic-archive", "version": 3, "posts": batch.posts}
        try:
            import_archive(archive)
        except ArchiveError as error:
            raise ImportRefused(_where(error, batch)) from None
        slugs = [p["id"] for p in batch.posts]
        by_slug = dict(Post.objects.filter(slug__in=slugs).values_list("slug", "pk"))
        comments = defaultdict(list)
        for pk, post_pk in (
            Comment.objects.filter(post__in=by_slug.values()).order_by("post_id", "pk").values_list("pk", "post_id")
        ):
            comments[post_pk].append(pk)
        rows = []
        for entry, (post, kept) in zip(batch.posts, batch.items, strict=True):
            post_pk = by_slug[entry["id"]]
            rows.append(WordPressItem(kind=WordPressItem.POST, source_id=post.id, post_id=post_pk))
            rows.extend(
                WordPressItem(
                    kind=WordPressItem.COMMENT,
                    source_id=c.id,
                    post_id=post_pk,
                    comment_id=comment_pk,
                    reply_to=c.parent or None,
                    good_flavour=is_truthy(c.meta.get("good_flavour", "")),
                )
                for c, comment_pk in zip(kept, comments[post_pk], strict=True)
            )
            if entry.get("resolution"):
                self.resolved.append((post_pk, entry["admin_note"]))
        WordPressItem.objects.bulk_create(rows, batch_size=1000)

    def finish(self) -> None:
        self.flush()
        if self.first_seen:
            players = list(User.objects.filter(pk__in=self.first_seen))
            for user in players:
                user.joined_at = self.first_seen[user.pk]
            User.objects.bulk_update(players, ["joined_at"])
            self.report.added["players"] += len(players)
        self.tally()

    def tally(self) -> None:
        """Each matter resolved in the export gets the tally the engine counts at its resolution, kept with the
        resolution as the admin panel keeps it; where the admin's recorded result says otherwise, the report
        lists it. Who could vote then is worked out once for the whole import (``_Electorates``), not per
        matter, so a history of twenty thousand matters is tallied in seconds."""
        if not self.resolved:
            return
        electorates = _Electorates()
        profile = Game.load().rules_profile()
        for start in range(0, len(self.resolved), 500):
            chunk = dict(self.resolved[start : start + 500])
            posts = Post.objects.filter(pk__in=chunk).select_related("author")
            resolutions = {r.post_id: r for r in Resolution.objects.filter(post__in=chunk)}
            comments = defaultdict(list)
            for comment in (
                Comment.objects.filter(post__in=chunk, icon__isnull=False).select_related("author").order_by("at", "pk")
            ):
                comments[comment.post_id].append(comment)
            for post in posts:
                resolution = resolutions[post.pk]
                moment = resolution.at
                matter = matter_from(post, [c for c in comments[post.pk] if c.at <= moment])
                judgement = engine.judge(matter, electorate=electorates.at(moment), profile=profile, now=moment)
                tally = judgement.tally
                resolution.tally = {
                    "for": tally.for_count,
                    "against": tally.against_count,
                    "quorum": tally.quorum,
                    "votes": dict(tally.votes),
                    "self_killed": tally.self_killed,
                    "vetoed": tally.vetoed,
                }
                disagreement = disagreement_with(
                    chunk[post.pk], resolution.tally, can_enact=judgement.can_enact, can_fail=judgement.can_fail
                )
                if disagreement:
                    self.report.disagreements.append(f"{post.slug} ({post.title}): {disagreement}")
            Resolution.objects.bulk_update(list(resolutions.values()), ["tally"])


class _Electorates:
    """Who could vote at past moments, as ``votes.engine_inputs.electorate_at`` says, read from the database once:
    the players who had joined and were not away, the Emperor of the dynasty then, and whether a Declaration
    of Victory was pending."""

    def __init__(self) -> None:
        self.joined = list(User.objects.filter(joined_at__isnull=False).values_list("username", "joined_at"))
        self.away = defaultdict(list)
        for name, started, ended in Absence.objects.values_list("user__username", "started_at", "ended_at"):
            self.away[name].append((started, ended))
        self.dynasties = list(Dynasty.objects.select_related("emperor").order_by("started_at", "number"))
        ends = {}
        for post_id, at, outcome in (
            Resolution.objects.filter(post__kind=Kind.DOV).order_by("at", "pk").values_list("post_id", "at", "outcome")
        ):
            ends.setdefault(post_id, []).append((at, outcome))
        self.declarations = [(p.posted_at, ends.get(p.pk, [])) for p in Post.objects.filter(kind=Kind.DOV)]

    def at(self, moment: datetime) -> engine.Electorate:
        active = frozenset(
            name
            for name, joined in self.joined
            if joined <= moment and not any(s <= moment and (e is None or e > moment) for s, e in self.away[name])
        )
        emperor = None
        for dynasty in self.dynasties:
            if dynasty.started_at <= moment and (dynasty.ended_at is None or dynasty.ended_at > moment):
                emperor = dynasty.emperor.username if dynasty.emperor else None
        return engine.Electorate(
            active=active,
            emperor=emperor,
            hiatus=any(self._pending(posted, history, moment) for posted, history in self.declarations),
        )

    @staticmethod
    def _pending(posted: datetime, history: list, moment: datetime) -> bool:
        if posted > moment:
            return False
        outcomes = [outcome for at, outcome in history if at <= moment]
        return not outcomes or outcomes[-1] == Resolution.REOPENED


def disagreement_with(admin_text: str, report: dict, *, can_enact: bool, can_fail: bool) -> str | None:
    """How the engine's tally at resolution differs from the result the admin recorded, if it does."""
    recorded = parse_recorded_result(admin_text)
    if recorded is None:
        return None
    counted = f"{report['for']}-{report['against']}"
    problems = []
    if recorded.for_count is not None and (recorded.for_count, recorded.against_count) != (
        report["for"],
        report["against"],
    ):
        problems.append(f"recorded {recorded.for_count}-{recorded.against_count}, counted {counted}")
    if recorded.outcome == Outcome.SELF_KILLED and not report["self_killed"]:
        problems.append("recorded self-killed, but the engine finds no AGAINST from its author")
    elif recorded.outcome == Outcome.VETOED and not report["vetoed"]:
        problems.append("recorded vetoed, but the engine finds no veto")
    elif recorded.outcome == Outcome.ENACTED and not can_enact:
        problems.append(
            f"recorded enacted, but the engine could not enact it then ({counted}, Quorum {report['quorum']})"
        )
    elif recorded.outcome == Outcome.FAILED and not can_fail:
        problems.append(
            f"recorded failed, but the engine could not fail it then ({counted}, Quorum {report['quorum']})"
        )
    return "; ".join(problems) or None


def _plural(kind: str) -> str:
    return {
        "proposal": "proposals",
        "cfj": "calls for judgement",
        "dov": "declarations of victory",
        "story": "story posts",
        "ascension": "ascension addresses",
        "post": "posts",
    }[kind]


def _where(error: ArchiveError, batch: _Batch) -> str:
    """An archive path (``posts[3].comments[2].text``) as the export's element and line."""
    match = re.match(r"posts\[(\d+)\](?:\.comments\[(\d+)\])?", error.path or "")
    if match is None:
        return str(error)
    post, kept = batch.items[int(match[1])]
    if match[2] is not None:
        comment = kept[int(match[2])]
        return f"line {comment.line}, <wp:comment> {comment.id}: {error.message}"
    return f"line {post.line}, <item> {post.id}: {error.message}"


def import_wordpress(
    open_export: Callable[[], BinaryIO],
    *,
    mapping: Mapping | None = None,
    names: dict[str, str] | None = None,
    dry_run: bool = False,
    progress: Callable[[int], None] | None = None,
    at: datetime | None = None,
) -> Report:
    """Import the export ``open_export()`` gives, all or nothing; with ``dry_run``, report and write nothing.

    What it writes is marked imported at ``at`` (now when not given): the past it brings stays past."""
    report = Report(dry_run=dry_run)
    job = _Import(mapping=mapping or Mapping.default(), names=names or {}, report=report, at=at or timezone.now())
    before = User.objects.count()
    try:
        with transaction.atomic(), open_export() as source:
            for item in read_wxr(source, progress=progress):
                if isinstance(item, Channel):
                    job.start(item)
                else:
                    job.add(item)
            job.finish()
            report.added["accounts"] = User.objects.count() - before
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return report
