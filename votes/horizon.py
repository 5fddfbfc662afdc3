"""The moment a page rendered now stops being right with no write: the earliest time, after now, at which a
matter it judged becomes enactable or failable, or a pending matter it listed turns old.

Pages do not ask for it; the selectors that judge matters note each such moment while a collector is open
(``collecting``), so the page cache learns exactly what the page it stores depends on, without a query.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime

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
