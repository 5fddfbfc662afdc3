"""The game's statistics as plain data, each from one aggregate query, and cached by the game's version.

Every figure takes a fixed number of queries whatever the size of the archive: the database groups and
counts, and what comes back grows with the number of dynasties, months or players, never with posts or
comments. The result is cached under a version made of the number of posts and the newest post, comment and
resolution (and the day, since the current dynasty grows older): any new post, vote or resolution, reopening
included, gives a new version.

Over a large archive the aggregates take seconds (measured at ten times the real history; the figures are in
benchmarks/RESULTS.md), too long for a reader to wait for after every vote. So the page shows what ``shown_statistics``
gives: the figures for the game as it is now when they have been worked out, and otherwise the last figures
worked out, saying when, while a worker counts afresh (queued once, however many read meanwhile). Where there
is no worker (tasks run in-process) the count runs at once and the page is never behind; nor is it when no
figures were ever worked out, or the last are more than ``STALEST`` behind.

On a worker, a count rests nine times as long as it took before the next may start, so that the statistics
take at most a tenth of a worker however busy the evening: with a vote every two seconds at ten times the real
history, counting again as soon as each count ended kept one of two CPUs busy with nothing but statistics.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.core.cache import cache
from django.db.models import CharField, Count, Exists, F, FloatField, Func, IntegerField, Max, OuterRef, Q, Subquery
from django.db.models.functions import Cast, Coalesce, Floor, Greatest, Least
from django.utils import timezone

from dynasties.clock import EARLIEST_STORED, LATEST_STORED
from dynasties.models import Dynasty
from votes import horizon
from votes.models import Comment, Kind, Post, Resolution, Status

CACHE_SECONDS = 24 * 60 * 60
# Raise when ``Statistics`` changes shape, so figures kept by the previous release are not read back.
DATA_KEY = "stats:data:2:{version}"
LATEST_KEY = "stats:data:2:latest"
# Held while a count is queued or running, so a busy evening's readers queue one count, not one each; it
# lapses on its own should a worker die mid-count.
COUNTING_KEY = "stats:counting"
COUNTING_SECONDS = 10 * 60
# After a count on a worker, the next waits this many times as long as the count took (see the docstring), but
# never longer than REST_LONGEST, so the figures stay well within STALEST of the game.
REST_FACTOR = 9
REST_LONGEST = timedelta(minutes=5)
# A page showing figures behind the game is rendered again this soon, to show the new ones once counted.
RECHECK = timedelta(seconds=15)
# Figures further behind than this are worked out in the request (a worker that never comes, say).
STALEST = timedelta(minutes=10)
# Hours from posting to resolution, in bins of six hours up to a week; a week or more shares the last bar.
RESOLUTION_BIN_HOURS = 6
RESOLUTION_MAX_HOURS = 7 * 24


@dataclass(frozen=True)
class DynastyProposals:
    number: int | None  # None: posted before any dynasty this site knows of
    proposals: int
    enacted: int
    failed: int
    pending: int


@dataclass(frozen=True)
class MonthActivity:
    month: date
    players: int


@dataclass(frozen=True)
class ResolutionTimes:
    bin_hours: int
    counts: tuple[int, ...]  # one per bin of ``bin_hours`` from 0; the last holds a week and more
    resolved: int

    @property
    def within_two_days(self) -> int:
        return sum(self.counts[: 48 // self.bin_hours])


@dataclass(frozen=True)
class PlayerRecord:
    name: str
    proposals: int
    resolved: int
    enacted: int
    votes: int  # matters voted on

    @property
    def pass_rate(self) -> float | None:
        """Enacted among this player's resolved proposals, or None when none is resolved yet."""
        return self.enacted / self.resolved if self.resolved else None


@dataclass(frozen=True)
class DynastyRecord:
    number: int
    started_at: datetime
    ended_at: datetime | None
    days: float
    emperor: str | None
    winner: str | None  # the author of the enacted Declaration of Victory that ended it


@dataclass(frozen=True)
class Statistics:
    version: str
    counted_at: datetime
    proposals_by_dynasty: tuple[DynastyProposals, ...]
    active_by_month: tuple[MonthActivity, ...]
    resolution_times: ResolutionTimes
    players: tuple[PlayerRecord, ...]
    dynasties: tuple[DynastyRecord, ...]

    @property
    def proposals(self) -> int:
        return sum(d.proposals for d in self.proposals_by_dynasty)

    @property
    def enacted(self) -> int:
        return sum(d.enacted for d in self.proposals_by_dynasty)

    def top_players(self, n: int) -> tuple[PlayerRecord, ...]:
        return tuple(p for p in self.players if p.proposals)[:n]

    @property
    def wins(self) -> list[tuple[str, int]]:
        """Players by the number of dynasties they won, most first."""
        counts: dict[str, int] = {}
        for dynasty in self.dynasties:
            if dynasty.winner:
                counts[dynasty.winner] = counts.get(dynasty.winner, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0].lower()))


def stats_version(now: datetime) -> str:
    """Changes whenever a post is created, deleted, hidden or shown again, a comment is added, or a matter is
    resolved or reopened."""
    # One query: the newest comment and resolution ride along as scalar subqueries of the posts' aggregate.
    newest_comment = Subquery(Comment.objects.order_by("-pk").values("pk")[:1])
    newest_resolution = Subquery(Resolution.objects.order_by("-pk").values("pk")[:1])
    row = Post.objects.order_by().aggregate(
        posts=Count("pk"),
        post=Max("pk"),
        hidden=Count("pk", filter=Q(hidden_at__isnull=False)),
        hidden_at=Max("hidden_at"),
        comment=Max(newest_comment),
        resolution=Max(newest_resolution),
    )
    hidden = f"{row['hidden']}h{row['hidden_at'].timestamp() if row['hidden_at'] else 0:.0f}"
    return f"{now:%Y%m%d}-{row['posts']}-{row['post'] or 0}-{row['comment'] or 0}-{row['resolution'] or 0}-{hidden}"


def _dynasty_then() -> Subquery:
    """The number of the dynasty in force when a post was posted: the newest one started by then and not ended."""
    return Subquery(
        Dynasty.objects.filter(started_at__lte=OuterRef("posted_at"))
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=OuterRef("posted_at")))
        .order_by("-started_at", "-number")
        .values("number")[:1]
    )


def proposals_by_dynasty() -> tuple[DynastyProposals, ...]:
    """Proposals per dynasty, in one query. A proposal without a dynasty (an import from a blog that recorded
    none) counts in the dynasty in force when it was posted, or, before any, under no dynasty (listed last)."""
    rows = (
        Post.objects.shown()
        .filter(kind=Kind.PROPOSAL)
        .order_by()
        .annotate(counted_in=Coalesce(F("dynasty__number"), _dynasty_then()))
        .values("counted_in")
        .annotate(
            proposals=Count("pk"),
            enacted=Count("pk", filter=Q(status=Status.ENACTED)),
            failed=Count("pk", filter=Q(status=Status.FAILED)),
            pending=Count("pk", filter=Q(status=Status.PENDING)),
        )
    )
    return tuple(
        DynastyProposals(
            number=r["counted_in"],
            proposals=r["proposals"],
            enacted=r["enacted"],
            failed=r["failed"],
            pending=r["pending"],
        )
        for r in sorted(rows, key=lambda r: (r["counted_in"] is None, r["counted_in"] or 0))
    )


class MonthOf(Func):
    """A moment's UTC month as ``YYYY-MM`` text, computed natively (TruncMonth calls Python per row on SQLite)."""

    arity = 1
    output_field = CharField()

    def as_sql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"to_char(({sql}) AT TIME ZONE 'UTC', 'YYYY-MM')", params

    def as_sqlite(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"strftime('%%Y-%%m', {sql})", params


_FIRST_MONTH, _END_MONTH = f"{EARLIEST_STORED:%Y-%m}", f"{LATEST_STORED:%Y-%m}"


def active_by_month() -> tuple[MonthActivity, ...]:
    """Players who posted or commented, counted once a month (two queries: posts, then comments)."""
    seen: dict[str, set[int]] = {}
    for model, moment in ((Post, "posted_at"), (Comment, "at")):
        pairs = (
            model.objects.shown()
            .filter(author__joined_at__isnull=False)
            .order_by()
            .annotate(month=MonthOf(moment))
            .values_list("month", "author_id")
            .distinct()
        )
        for month, author in pairs:
            # A record dated outside what a game may carry (stored before importers refused it) has no month to show.
            if _FIRST_MONTH <= month < _END_MONTH:
                seen.setdefault(month, set()).add(author)
    if not seen:
        return ()
    first, last = (date.fromisoformat(f"{key}-01") for key in (min(seen), max(seen)))
    months, month = [], first
    # Months nobody wrote in are shown as zero rather than skipped.
    while month <= last:
        months.append(MonthActivity(month=month, players=len(seen.get(f"{month:%Y-%m}", ()))))
        month = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    return tuple(months)


class HoursBetween(Func):
    """Hours from ``earlier`` to ``later`` as a number, in the database's own arithmetic.

    Django's portable datetime subtraction calls back into Python once per row on SQLite; these native forms
    keep a histogram over every proposal a single cheap pass.
    """

    arity = 2
    output_field = FloatField()

    def as_sql(self, compiler, connection, **extra):
        later, earlier = (compiler.compile(expression) for expression in self.source_expressions)
        sql = f"(EXTRACT(EPOCH FROM ({later[0]} - {earlier[0]})) / 3600.0)"
        return sql, (*later[1], *earlier[1])

    def as_sqlite(self, compiler, connection, **extra):
        later, earlier = (compiler.compile(expression) for expression in self.source_expressions)
        return f"((julianday({later[0]}) - julianday({earlier[0]})) * 24.0)", (*later[1], *earlier[1])


def resolution_times() -> ResolutionTimes:
    """Resolved proposals by the hours from posting to their latest resolution, in one query."""
    # The latest resolution of a resolved proposal is the one that stands (earlier ones were reopened).
    later = Resolution.objects.filter(post=OuterRef("post"), pk__gt=OuterRef("pk"))
    last_bin = RESOLUTION_MAX_HOURS // RESOLUTION_BIN_HOURS
    bin_of = Greatest(Least(Floor(HoursBetween(F("at"), F("post__posted_at")) / RESOLUTION_BIN_HOURS), last_bin), 0)
    rows = (
        Resolution.objects.filter(post__kind=Kind.PROPOSAL, post__status__in=(Status.ENACTED, Status.FAILED))
        .filter(post__hidden_at__isnull=True)
        .exclude(Exists(later))
        .order_by()
        .annotate(bin=Cast(bin_of, IntegerField()))
        .values("bin")
        .annotate(n=Count("pk"))
        .values_list("bin", "n")
    )
    counts = [0] * (last_bin + 1)
    for index, n in rows:
        counts[int(index)] += n
    return ResolutionTimes(bin_hours=RESOLUTION_BIN_HOURS, counts=tuple(counts), resolved=sum(counts))


def player_records() -> tuple[PlayerRecord, ...]:
    """Every player's proposals, how many passed and how many matters they voted on (two queries)."""
    proposed = {
        r["author__username"]: r
        for r in Post.objects.shown()
        .filter(kind=Kind.PROPOSAL)
        .order_by()
        .values("author__username")
        .annotate(
            proposals=Count("pk"),
            resolved=Count("pk", filter=Q(status__in=(Status.ENACTED, Status.FAILED))),
            enacted=Count("pk", filter=Q(status=Status.ENACTED)),
        )
    }
    voted = dict(
        Comment.objects.shown()
        .filter(icon__isnull=False, author__joined_at__isnull=False)
        .order_by()
        .values("author__username")
        .annotate(matters=Count("post", distinct=True))
        .values_list("author__username", "matters")
    )
    records = [
        PlayerRecord(
            name=name,
            proposals=proposed.get(name, {}).get("proposals", 0),
            resolved=proposed.get(name, {}).get("resolved", 0),
            enacted=proposed.get(name, {}).get("enacted", 0),
            votes=voted.get(name, 0),
        )
        for name in proposed.keys() | voted.keys()
    ]
    return tuple(sorted(records, key=lambda r: (-r.proposals, -r.enacted, -r.votes, r.name.lower())))


def dynasty_records(now: datetime) -> tuple[DynastyRecord, ...]:
    """Each dynasty's span and winner, in one query."""
    winner = (
        Post.objects.shown()
        .filter(dynasty=OuterRef("pk"), kind=Kind.DOV, status=Status.ENACTED)
        .order_by("posted_at", "pk")
        .values("author__username")[:1]
    )
    rows = (
        Dynasty.objects.order_by("number")
        .annotate(winner=Subquery(winner))
        .values_list("number", "started_at", "ended_at", "emperor__username", "winner")
    )
    return tuple(
        DynastyRecord(
            number=number,
            started_at=started,
            ended_at=ended,
            days=max(((ended or now) - started).total_seconds() / 86400, 0.0),
            emperor=emperor,
            winner=won,
        )
        for number, started, ended, emperor, won in rows
    )


def statistics(now: datetime, *, version: str | None = None) -> Statistics:
    """Every figure, computed now (seven queries, eight with the version)."""
    return Statistics(
        version=version or stats_version(now),
        counted_at=now,
        proposals_by_dynasty=proposals_by_dynasty(),
        active_by_month=active_by_month(),
        resolution_times=resolution_times(),
        players=player_records(),
        dynasties=dynasty_records(now),
    )


def cached_statistics(now: datetime, *, version: str | None = None) -> Statistics:
    """The statistics for the game as it is now, from the cache when nothing has changed since."""
    version = version or stats_version(now)
    found = cache.get(DATA_KEY.format(version=version))
    if found is None:
        found = statistics(now, version=version)
        cache.set_many({DATA_KEY.format(version=version): found, LATEST_KEY: found}, CACHE_SECONDS)
    return found


def count_afresh(*, version: str | None = None, rest: bool = False, clock: Callable[[], float] = time.monotonic) -> str:
    """Work out the figures for the game as it is now (the worker's task). The next count may be queued at once
    or, with ``rest``, once the rest after this one is over (``REST_FACTOR``)."""
    started = clock()
    try:
        return cached_statistics(timezone.now(), version=version).version
    finally:
        resting = min(REST_FACTOR * (clock() - started), REST_LONGEST.total_seconds()) if rest else 0
        # The cache counts whole seconds: a count too short to rest a second leaves the way open.
        if resting >= 1:
            cache.set(COUNTING_KEY, "resting", math.ceil(resting))
        else:
            cache.delete(COUNTING_KEY)


def warm(now: datetime) -> str:
    """Beat's minute: work the figures out if the game changed since the last count and no count is queued,
    running or resting. Returns the version now cached, or the version of the last figures."""
    version = stats_version(now)
    if cache.get(DATA_KEY.format(version=version)) is not None:
        return version
    if not cache.add(COUNTING_KEY, version, COUNTING_SECONDS):
        latest = cache.get(LATEST_KEY)
        return latest.version if latest is not None else ""
    return count_afresh(version=version, rest=True)


@dataclass(frozen=True)
class ShownStatistics:
    stats: Statistics
    current: bool  # False: the last figures worked out, while a count of the newest changes runs


def shown_statistics(
    now: datetime, *, queue_count: Callable[[], object], version: str | None = None
) -> ShownStatistics:
    """What the statistics pages show at ``now``; ``queue_count`` starts ``count_afresh`` on a worker (or, with
    tasks run in-process, at once). ``version``: ``stats_version(now)``, when the caller has it."""
    version = version or stats_version(now)
    found = cache.get(DATA_KEY.format(version=version))
    if found is not None:
        return ShownStatistics(found, current=True)
    latest = cache.get(LATEST_KEY)
    if latest is None or latest.counted_at < now - STALEST:
        return ShownStatistics(cached_statistics(now, version=version), current=True)
    if cache.add(COUNTING_KEY, version, COUNTING_SECONDS):
        queue_count()
        found = cache.get(DATA_KEY.format(version=version))
        if found is not None:
            return ShownStatistics(found, current=True)
    horizon.note([now + RECHECK], now=now)
    return ShownStatistics(latest, current=False)
