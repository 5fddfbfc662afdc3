"""The demo's clock, which an admin may move ahead to watch deadlines pass: for the demo only, never a real game.

Someone trying the demo (``make run``) would otherwise wait twelve hours to see their Proposal become
enactable. With ``DEMO_CLOCK`` on, which ``make run`` sets, ``manage.py run`` installs this clock: from then on
``django.utils.timezone.now`` reads the real clock plus how far the demo has been moved ahead, so every page,
service and beat job sees the same moved time, and the admin panel offers to move it ahead by an hour,
twelve hours or a day.

It only moves ahead, so nothing the game has recorded is ever in its future, and no record is rewritten. It
cannot be on in production: the settings refuse ``DEMO_CLOCK`` when ``DEBUG`` is off, ``check --deploy``
refuses it outright, and ``install`` refuses to run unless both allow it.

How far ahead it runs is kept in the database (``DemoClock``), so the demo keeps its time across restarts, and
in this process's memory, so reading the clock costs no query: the demo is the one process ``manage.py run``
serves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from blognomic.running.models import DemoClock
from dynasties.models import User

# The steps the admin panel offers, by the hours its buttons send.
STEPS = {"1": timedelta(hours=1), "12": timedelta(hours=12), "24": timedelta(days=1)}

NOT_ALLOWED = "The demo clock runs only in the demo: DEMO_CLOCK on, with DEBUG on. It is never for a real game."
NOT_INSTALLED = "The demo clock is off: it runs only in the demo that `make run` serves."
NOT_AN_ADMIN = "Only admins may move the demo's clock."
UNKNOWN_STEP = "Move the demo's clock ahead by 1, 12 or 24 hours."

_real_now: Callable[[], datetime] = timezone.now
_ahead: timedelta | None = None  # None while the clock is not installed
_moving = threading.Lock()


class DemoClockError(Exception):
    """The demo clock cannot do what was asked; the message says why."""


def installed() -> bool:
    return _ahead is not None


def ahead() -> timedelta:
    """How far ahead of the real clock the demo runs: nothing while the clock is not installed."""
    return _ahead or timedelta(0)


def _demo_now() -> datetime:
    return _real_now() + ahead()


def install() -> None:
    """Make ``timezone.now`` the demo's clock, as far ahead as the database says it was moved."""
    global _ahead
    if not (getattr(settings, "DEMO_CLOCK", False) and settings.DEBUG):
        raise DemoClockError(NOT_ALLOWED)
    _ahead = DemoClock.objects.values_list("ahead", flat=True).first() or timedelta(0)
    timezone.now = _demo_now


def uninstall() -> None:
    """Give ``timezone.now`` back the real clock (the tests' way out)."""
    global _ahead
    timezone.now = _real_now
    _ahead = None


def demo_clock_move(*, admin: User, step: str) -> timedelta:
    """Move the demo's clock ahead by ``step`` (a key of ``STEPS``); returns how far ahead it then runs."""
    global _ahead
    if not installed():
        raise DemoClockError(NOT_INSTALLED)
    if not admin.is_admin:
        raise DemoClockError(NOT_AN_ADMIN)
    if step not in STEPS:
        raise DemoClockError(UNKNOWN_STEP)
    with _moving:
        with transaction.atomic():
            clock = DemoClock.objects.select_for_update().first() or DemoClock()
            clock.ahead += STEPS[step]
            clock.save()
        _ahead = clock.ahead
    return clock.ahead


def describe(span: timedelta) -> str:
    """A span as the demo's notes say it: "12 hours", "1 day 3 hours"."""
    days, hours = divmod(int(span.total_seconds() // 3600), 24)
    parts = [f"{days} day{'s' if days != 1 else ''}"] if days else []
    if hours or not days:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    return " ".join(parts)
