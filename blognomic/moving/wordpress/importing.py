"""Importing a WordPress export: its posts, comments, votes and people, as this site's records.

New posts go through the archive importer (``blognomic.moving.archive.import_archive``) in batches, so every rule an
archive is checked against (names, lookalikes, kinds, statuses, text a database cannot hold) is checked
here too; new comments on posts imported before are written with the same checks. The whole import is one
transaction: a file that turns out bad halfway writes nothing. Each post and comment is remembered by its
id in the export (``WordPressItem``), so importing the same file again changes nothing and a newer export
adds only what is new.

What is read, and how:

- ``item``\\ s of type ``post`` whose WordPress status the mapping imports (``publish`` and BlogNomic's own
  ``open``, ``enacted``, ``failed``, ``vetoed``, ``illegal``, ``quarantined``; ``mapping.skip_reason``):
  category to kind (``mapping.kind_of``), title, body, ``dc:creator``, ``wp:post_date_gmt``; the ACF fields
  ``flavour``, ``admin`` (the admin's note, kept as written) and ``admin_user`` (the resolving admin's
  WordPress user id); the status and the recorded result (``mapping.status_of``, ``recorded``).
- approved comments by WordPress accounts: ``wp:comment_date_gmt``, text, the author (the account of
  ``wp:comment_user_id``); comment meta ``vote`` (``for``, ``against``, ``deferential`` or ``def``, ``veto``;
  ``no-vote`` is a comment without a vote) and ``good_flavour``. Replies are kept in time order (comments
  here are not threaded) with the comment they answered recorded. A guest's comment is counted, not kept.
- people: see ``people`` (accounts, lookalikes, cleaned names, who plays now, confirmed addresses).

Skipped, each with its reason and line: other post types (pages, attachments, menu items), drafts and
private or trashed posts, password-protected posts, pingbacks, trackbacks and unapproved comments, and
anything without a date or id, with a repeated id, by a lookalike of another WordPress account, with an
author's name nothing is left of once cleaned, or longer than a post may be. An export whose every item is
skipped says so ("Nothing imported: all N items were skipped").
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

from blognomic.moving.archive import ArchiveError, import_archive
from blognomic.moving.wordpress.mapping import VOTABLE, Mapping, is_truthy, kind_of, skip_reason, status_of
from blognomic.moving.wordpress.markup import wordpress_to_markdown
from blognomic.moving.wordpress.models import WordPressItem
from blognomic.moving.wordpress.people import People, PeopleRefused
from blognomic.moving.wordpress.reading import Channel, WxrComment, WxrPost, parse_gmt, read_wxr
from blognomic.moving.wordpress.recorded import ENACTED, FAILED, SELF_KILLED, VETOED
from dynasties import names as name_rules
from dynasties.clock import format_iso_time, storable_moment_problem
from dynasties.models import Absence, Dynasty, Game, User
from votes.at_moment import Basis, basis_at, judge_at
from votes.engine_inputs import ballots_from
from votes.judging import kept_tally
from votes.markup import render_markdown
from votes.matter_kind_services import ValuesCache
from votes.models import MAX_BODY_BYTES, Comment, Kind, Post, Resolution

BATCH = 250  # posts per call of the archive importer: bounds the memory an import holds at once
VOTES = {
    "for": "for",
    "against": "against",
    "deferential": "deferential",
    "def": "deferential",
    "veto": "veto",
    "no-vote": None,
}
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
    items: int = 0  # <item>s in the export
    items_skipped: int = 0
    guest_comments: int = 0  # comments by no WordPress account, not kept
    addresses: int = 0  # accounts given their old address, confirmed
    idle: int = 0  # new players idle until they come back

    @property
    def all_skipped(self) -> bool:
        """The export held items and every one of them was skipped: nothing imported, nothing already here."""
        return self.items > 0 and self.items_skipped == self.items

    def lines(self) -> list[str]:
        head = "Would import" if self.dry_run else "Imported"
        counts = ", ".join(f"{n} {what}" for what, n in sorted(self.added.items()) if n) or "nothing new"
        out = [f"WXR {self.version}. {head}: {counts}."]
        if self.all_skipped:
            out = [f"WXR {self.version}. Nothing imported: all {self.items} items were skipped."]
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
        if self.guest_comments:
            out.append(
                f"Guest comments not kept: {self.guest_comments} (written by no WordPress account): "
                "a name a guest signed with is nobody's account here."
            )
        if self.addresses:
            out.append(
                f"{_counted(self.addresses, 'account has', 'accounts have')} the email address the old site held "
                "for them, as confirmed: "
                "each player claims theirs with the password-reset mail."
            )
        if self.idle:
            out.append(
                f"{_counted(self.idle, 'player is', 'players are')} idle until they come back: the export does not "
                "say who plays now, and "
                "--players did not name them."
            )
        out += self.notes
        return out


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass
class _Batch:
    posts: list[dict] = field(default_factory=list)
    items: list[tuple[WxrPost, list[WxrComment]]] = field(default_factory=list)


class _Import:
    def __init__(
        self, *, mapping: Mapping, names: dict[str, str], players: tuple[str, ...] | None, report: Report, at: datetime
    ) -> None:
        self.mapping = mapping
        self.imported_at = format_iso_time(at)  # every post, comment and resolution written here is marked so
        self.report = report
        self.people = People(names=names, notes=report.notes, player_meta=mapping.player_meta, players=players)
        self.known_posts: dict[int, int] = {}  # wp:post_id to Post pk, imported before
        self.known_comments: set[int] = set()
        self.seen_posts: set[int] = set()
        self.seen_comments: set[int] = set()
        self.slugs: set[str] = set()
        self.resolved: list[tuple[int, dict | None]] = []  # (Post pk, recorded result) to tally and compare
        self.batch = _Batch()

    # -- the channel ---------------------------------------------------------------------------------------

    def start(self, channel: Channel) -> None:
        self.report.version = channel.version
        self.people.start(channel)
        self.known_posts = dict(
            WordPressItem.objects.filter(kind=WordPressItem.POST).values_list("source_id", "post_id")
        )
        self.known_comments = set(
            WordPressItem.objects.filter(kind=WordPressItem.COMMENT).values_list("source_id", flat=True)
        )

    # -- posts -----------------------------------------------------------------------------------------------

    def skip(self, where: str, reason: str) -> None:
        self.report.skipped.append(f"{where}: {reason}")

    def add(self, post: WxrPost) -> None:
        where = f"line {post.line}, <item> {post.id if post.id is not None else '(no wp:post_id)'}"
        self.report.items += 1
        reason = self._post_problem(post)
        author = None
        if reason is None and post.id not in self.known_posts:
            author = self.people.account(post.creator)
            reason = self.people.refused.get(post.creator) if author is None else None
        if reason:
            self.report.items_skipped += 1
            self.skip(where, reason)
            return
        self.seen_posts.add(post.id)
        if post.id in self.known_posts:
            self.report.present["posts"] += 1
            self._add_comments_to_known(post)
            self._compare_known(post)
            return
        assert author is not None  # a post with no account here was skipped above
        posted_at = parse_gmt(post.posted_at)
        self.people.note_activity(post.creator, author, posted_at)
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
                entry["resolution"]["tally"] = {"recorded": status.recorded}
        self.batch.posts.append(entry)
        self.batch.items.append((post, kept))
        self.report.added[_plural(kind)] += 1
        if len(self.batch.posts) >= BATCH:
            self.flush()

    def _post_problem(self, post: WxrPost) -> str | None:
        if post.type != "post":
            return f"a {post.type or 'thing'} of WordPress's, not a post"
        status_problem = skip_reason(post.status, self.mapping)
        if status_problem:
            return status_problem
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
        raw = post.meta.get("admin_user", "").strip()
        by_name = self.people.resolver(raw) if raw else None
        if raw and by_name is None:
            self.report.notes.append(
                f"line {post.line}, <item> {post.id}: admin_user {raw!r} is no author's user id; resolved by nobody"
            )
        by = self.people.account(by_name) if by_name else None
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
        name = self.people.commenter(comment)
        if name is None:
            self.report.guest_comments += 1
            return None
        user = self.people.account(name)
        if user is None:
            self.skip(where, self.people.refused[name])
            return None
        self.people.note_activity(name, user, at)
        raw_vote = comment.meta.get("vote", "").strip().casefold()
        icon = VOTES.get(raw_vote) if raw_vote else None
        if raw_vote and raw_vote not in VOTES:
            self.report.notes.append(
                f"{where}: vote {raw_vote!r} is none of {', '.join(VOTES)}; kept as a comment without a vote"
            )
        elif icon and not self.people.is_player(name, user):
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

    def _compare_known(self, post: WxrPost) -> None:
        """A resolved matter imported before is compared again, so every import reports its disagreements."""
        if kind_of(post, self.mapping) in VOTABLE:
            status = status_of(post, self.mapping)
            if status.outcome is not None:
                self.resolved.append((self.known_posts[post.id], status.recorded))

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
                self.resolved.append((post_pk, entry["resolution"]["tally"]["recorded"]))
        WordPressItem.objects.bulk_create(rows, batch_size=1000)

    def finish(self, *, at: datetime) -> None:
        self.flush()
        players, self.report.idle = self.people.finish(at=at)
        self.report.added["players"] += players
        self.report.addresses = self.people.confirm_addresses()
        self.tally()

    def tally(self) -> None:
        """Each resolved matter gets the tally the engine counts at its resolution, kept with the resolution as
        the admin panel keeps it, beside the result recorded on the old site; where the recorded result says
        otherwise, the report lists it, on every import. Each matter is judged as the game stood then
        (``votes.at_moment.judge_at``: the rules, electorate and hiatus then); the records that says are read
        once for the whole import (``_Electorates``), not per matter, so a history of twenty thousand matters is
        tallied in seconds. A tally kept before is written again only when it changed."""
        if not self.resolved:
            return
        electorates, game, values = _Electorates(), Game.load(), ValuesCache()
        for start in range(0, len(self.resolved), 500):
            chunk = dict(self.resolved[start : start + 500])
            posts = Post.objects.filter(pk__in=chunk).select_related("author", "matter_kind")
            latest = {r.post_id: r for r in Resolution.objects.filter(post__in=chunk)}  # ordered by time
            comments = defaultdict(list)
            for comment in (
                Comment.objects.filter(post__in=chunk, icon__isnull=False).select_related("author").order_by("at", "pk")
            ):
                comments[comment.post_id].append(comment)
            changed = []
            for post in posts:
                resolution = latest.get(post.pk)
                if resolution is None or resolution.outcome == Resolution.REOPENED:
                    continue
                at = resolution.at
                ballots = ballots_from(c for c in comments[post.pk] if c.at <= at)
                judgement, _, _ = judge_at(post, ballots, basis=electorates.basis_at(at, game=game), cache=values)
                tally = _kept_tally(judgement.tally, chunk[post.pk])
                if tally != resolution.tally:
                    resolution.tally = tally
                    changed.append(resolution)
                disagreement = disagreement_with(
                    chunk[post.pk], tally, can_enact=judgement.can_enact, can_fail=judgement.can_fail
                )
                if disagreement:
                    self.report.disagreements.append(f"{post.slug} ({post.title}): {disagreement}")
            Resolution.objects.bulk_update(changed, ["tally"])


def _kept_tally(tally, recorded: dict | None) -> dict:
    return {**kept_tally(tally), "recorded": recorded}


class _Electorates:
    """The records ``votes.at_moment.read_basis_at`` reads, read from the database once for many moments: the
    players who had joined and when they were away, the dynasties, and when each Declaration of Victory was
    posted and resolved."""

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

    def basis_at(self, at: datetime, *, game: Game) -> Basis:
        return basis_at(
            at=at,
            game=game,
            dynasty=self._dynasty_at(at),
            active=self._active_at(at),
            pending_dov=any(self._pending(posted, history, at) for posted, history in self.declarations),
        )

    def _active_at(self, at: datetime) -> frozenset[str]:
        return frozenset(
            name
            for name, joined in self.joined
            if joined <= at and not any(s <= at and (e is None or e > at) for s, e in self.away[name])
        )

    def _dynasty_at(self, at: datetime) -> Dynasty | None:
        """As ``Dynasty.objects.at``: the latest begun by ``at`` and not ended then."""
        running = [d for d in self.dynasties if d.started_at <= at and (d.ended_at is None or d.ended_at > at)]
        return running[-1] if running else None

    @staticmethod
    def _pending(posted: datetime, history: list, at: datetime) -> bool:
        if posted > at:
            return False
        outcomes = [outcome for when, outcome in history if when <= at]
        return not outcomes or outcomes[-1] == Resolution.REOPENED


def disagreement_with(recorded: dict | None, tally: dict, *, can_enact: bool, can_fail: bool) -> str | None:
    """How the engine's tally at resolution differs from the result recorded on the old site, if it does:
    every count the admin's note gives, those it says deferred, and the outcome."""
    if recorded is None:
        return None
    counted = f"{tally['for']}-{tally['against']}"
    problems = [
        f"the note gives {for_count}-{against}, the engine counts {counted}"
        for for_count, against in recorded["counts"]
        if (for_count, against) != (tally["for"], tally["against"])
    ]
    deferring = sum(1 for icon in tally["votes"].values() if icon == "deferential")
    if recorded["deferring"] is not None and recorded["deferring"] != deferring:
        problems.append(f"the note gives {recorded['deferring']} deferring, the engine counts {deferring}")
    outcome, source = recorded["outcome"], f"the {recorded['source']} says"
    if outcome == SELF_KILLED and not tally["self_killed"]:
        problems.append(f"{source} self-killed, but the engine finds no AGAINST from its author")
    elif outcome == VETOED and not tally["vetoed"]:
        problems.append(f"{source} vetoed, but the engine finds no veto")
    elif outcome == ENACTED and not can_enact:
        problems.append(
            f"{source} enacted, but the engine could not enact it then ({counted}, Quorum {tally['quorum']})"
        )
    elif outcome == FAILED and not can_fail:
        problems.append(f"{source} failed, but the engine could not fail it then ({counted}, Quorum {tally['quorum']})")
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
    players: tuple[str, ...] | None = None,
    dry_run: bool = False,
    progress: Callable[[int], None] | None = None,
    at: datetime | None = None,
) -> Report:
    """Import the export ``open_export()`` gives, all or nothing; with ``dry_run``, report and write nothing.

    What it writes is marked imported at ``at`` (now when not given): the past it brings stays past.
    ``players`` names who plays now when the export does not say (the others are idle from ``at``).
    """
    at = at or timezone.now()
    report = Report(dry_run=dry_run)
    job = _Import(mapping=mapping or Mapping.default(), names=names or {}, players=players, report=report, at=at)
    before = User.objects.count()
    try:
        with transaction.atomic(), open_export() as source:
            for item in read_wxr(source, progress=progress):
                if isinstance(item, Channel):
                    job.start(item)
                else:
                    job.add(item)
            job.finish(at=at)
            report.added["accounts"] = User.objects.count() - before
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    except PeopleRefused as error:
        raise ImportRefused(str(error)) from None
    return report
