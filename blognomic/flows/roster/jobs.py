"""Time-based work on the roster, as idempotent services with the time passed in."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse

from blognomic.flows.roster.services import idle_candidates
from dynasties.beat import JobReport
from dynasties.clock import format_moment
from dynasties.notify import admins_now, notify


def idle_candidates_report(*, now: datetime, dry_run: bool = False) -> JobReport:
    """List the players an admin may idle for inactivity, and tell the admins once a day."""
    candidates = idle_candidates(now=now)
    report = JobReport([f"{user}: last active {format_moment(last) if last else 'never'}" for user, last in candidates])
    if candidates:
        names = ", ".join(user.username for user, _ in candidates)
        notify(
            users=admins_now(now),
            key=f"idle-candidates:{now:%Y-%m-%d}",
            now=now,
            url=reverse("roster"),
            text=f"May be idled for inactivity: {names}.",
            dry_run=dry_run,
        )
    return report
