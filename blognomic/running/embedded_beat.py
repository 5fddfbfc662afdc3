"""The beat schedule run in a thread of the web server, for the embedded default (``manage.py run``).

With no broker configured, tasks run in-process; nothing would send the periodic ones. This thread reads
the same ``CELERY_BEAT_SCHEDULE`` Celery beat reads, with Celery's own schedule objects, and runs each
task in-process when it falls due. Every task is idempotent, so a restart that runs one early or late
changes nothing more. Production runs the real worker and beat instead (docker-compose).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from celery import Celery
from celery.schedules import maybe_schedule
from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

# The longest the thread sleeps, so a stop request or a schedule shorter than expected is noticed soon.
LONGEST_NAP_SECONDS = 30.0


@dataclass
class Entry:
    name: str
    task: object
    schedule: object
    last_run_at: datetime


class EmbeddedBeat(threading.Thread):
    """Runs the beat schedule's tasks as they fall due, until ``stop()``. ``app`` is the site's Celery app, passed
    in by the wiring that owns it (``manage.py run``)."""

    def __init__(self, *, app: Celery, schedule: dict | None = None):
        super().__init__(name="embedded-beat", daemon=True)
        self.app = app
        self.schedule = settings.CELERY_BEAT_SCHEDULE if schedule is None else schedule
        self._stopping = threading.Event()
        self.runs = 0

    def stop(self) -> None:
        self._stopping.set()

    def entries(self) -> list[Entry]:
        app = self.app
        # Loads every app's tasks module, as a worker does at start.
        app.loader.import_default_modules()
        now = app.now()
        return [
            Entry(name, app.tasks[spec["task"]], maybe_schedule(spec["schedule"], app=app), now)
            for name, spec in self.schedule.items()
        ]

    def run(self) -> None:
        entries = self.entries()
        logger.info("Embedded beat: %d jobs scheduled.", len(entries))
        while not self._stopping.is_set():
            nap = LONGEST_NAP_SECONDS
            for entry in entries:
                due, next_in = entry.schedule.is_due(entry.last_run_at)
                if due:
                    entry.last_run_at = entry.schedule.now()
                    self.run_one(entry)
                    due, next_in = entry.schedule.is_due(entry.last_run_at)
                nap = min(nap, next_in)
            self._stopping.wait(max(nap, 0.05))

    def run_one(self, entry: Entry) -> None:
        try:
            entry.task.apply(throw=True)
            self.runs += 1
        except Exception:
            # One failing job must not stop the others; the next period tries again.
            logger.exception("Embedded beat: %s failed.", entry.name)
        finally:
            # Each run opens this thread's own connection; closing it keeps SQLite's file unlocked between runs.
            connections.close_all()
