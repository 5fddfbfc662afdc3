"""What a test wrote to the game through the site: the requests during which a write moved a version.

The suite runs each test that uses the database on SQLite and on PostgreSQL, except the browser and checker
runs marked ``one_database``: they run on SQLite alone, which is sound only while they read pages and write
nothing through them. What a request writes, the other database must be seen to keep too. ``tests/conftest.py``
holds every such test to it with ``writes_through_the_site``.

A write is what moves the content version or a reader's own (``blognomic.web.freshness``), so bookkeeping (a
login's session and ``last_login``, the login limiter's records) is not one; a read marker (a notice shown as
read) is. What the test itself writes before and between its requests (the game it builds) is not counted.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.core.signals import request_finished, request_started

from blognomic.web import freshness


@contextmanager
def writes_through_the_site(monkeypatch) -> Iterator[list[str]]:
    """Yields a list that fills with the path of each request that wrote, once per write, while the block runs
    (in any thread: the live server answers in its own)."""
    written: list[str] = []
    serving = threading.local()

    def started(sender, environ=None, **kwargs) -> None:
        serving.path = (environ or {}).get("PATH_INFO", "?")

    def finished(sender, **kwargs) -> None:
        serving.path = None

    def noting(moved):
        def note(connection, *args) -> None:
            path = getattr(serving, "path", None)
            if path is not None:
                written.append(path)
            moved(connection, *args)

        return note

    monkeypatch.setattr(freshness, "content_changed", noting(freshness.content_changed))
    monkeypatch.setattr(freshness, "reader_changed", noting(freshness.reader_changed))
    request_started.connect(started, dispatch_uid="tests.site_writes.started")
    request_finished.connect(finished, dispatch_uid="tests.site_writes.finished")
    try:
        yield written
    finally:
        request_started.disconnect(dispatch_uid="tests.site_writes.started")
        request_finished.disconnect(dispatch_uid="tests.site_writes.finished")
