"""The moment a page rendered now stops being right with no write: the earliest time, after now, at which a
matter it judged becomes enactable or failable, a pending matter it listed turns old, an age it shows ("3
hours old", "open 12.4 hours") changes, or the hiatus begins or ends.

Pages do not ask for it; the selectors that judge matters note each such moment while a collector is open
(``collecting``), so the page cache learns exactly what the page it stores depends on, without a query.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta

from dynasties.clock import moment_plus

_moments: ContextVar[list[datetime] | None] = ContextVar("verdict_moments", default=None)


@contextmanager
def collecting() -> Iterator[list[datetime]]:
    """Collect the moments noted while the block runs (the caller takes the earliest)."""
    moments: list[datetime] = []
    token = _moments.set(moments)
    try:
        yield moments
    finally:
        _moments.reset(token)


def note(candidates: Iterable[datetime | None], *, now: datetime) -> None:
    """Note the moments after ``now`` among ``candidates``, if anyone is collecting."""
    moments = _moments.get()
    if moments is not None:
        moments.extend(moment for moment in candidates if moment is not None and moment > now)


def next_mark(start: datetime, period: timedelta, *, now: datetime) -> datetime:
    """The first moment after ``now`` that is a whole number of ``period`` after ``start``: when an age shown
    to that precision ("3 hours old", "open 12.4 hours") next changes."""
    steps = (now - start) // period + 1
    return moment_plus(start, max(steps, 1) * period)


def note_ages(starts: Iterable[datetime], period: timedelta, *, now: datetime) -> None:
    """Note when each age counted from ``starts`` and shown to ``period`` next changes, if anyone is
    collecting. Marks at half the shown precision cover ages that are rounded rather than cut."""
    if _moments.get() is not None:
        note((next_mark(start, period, now=now) for start in starts), now=now)


def noted() -> list[datetime]:
    """The moments noted so far by the collector open now (none when nobody collects): for a part of a page
    rendered after the parts it speaks for (``blognomic.web.live``'s poller)."""
    return list(_moments.get() or [])
