"""Saying that a write records only how far one account has read (their notices, a conversation).

Such a write changes that reader's own pages alone (their unread counts), so it need not empty the page cache
for everyone: inside ``marking_read`` the site's freshness moves that reader's own version instead of the
content version, for the tables it names as read markers (``blognomic.web.freshness.READ_MARKER_TABLES``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_reader: ContextVar[int | None] = ContextVar("read_markers_reader", default=None)


@contextmanager
def marking_read(user) -> Iterator[None]:
    """The writes inside record what ``user`` has read, and nothing else."""
    token = _reader.set(user.pk)
    try:
        yield
    finally:
        _reader.reset(token)


def reader_marking() -> int | None:
    """The account whose read markers are being written now, if any."""
    return _reader.get()
