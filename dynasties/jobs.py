"""Time-based work on the game's calendar, as idempotent services with the time passed in."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse

from dynasties.beat import JobReport
from dynasties.clock import format_moment
from dynasties.hiatus import hiatus_at
from dynasties.models import Game
from dynasties.notify import notify, players_now
from dynasties.profiles import HIATUS_SEASONAL


def seasonal_hiatus_announce(*, now: datetime, dry_run: bool = False) -> JobReport:
    """Tell every player when seasonal downtime starts, and again when it ends, once a year each.

    The hiatus itself follows from the calendar (see ``dynasties.hiatus``), so a late or missed run never
    leaves the game stuck in or out of it; this job only makes sure people hear about it.
    """
    profile = Game.load().rules_profile()
    report = JobReport()
    if profile.seasonal_downtime is None:
        return report
    hiatus = hiatus_at(profile=profile, now=now, pending_dov=False, awaiting_ascension=False)
    year = now.year
    (start_month, start_day), _ = profile.seasonal_downtime
    started = now.month > start_month or (now.month == start_month and now.day >= start_day)
    if hiatus is not None and HIATUS_SEASONAL in hiatus.reasons:
        key, text = (
            f"seasonal-start:{year}",
            (f"Seasonal downtime has begun: the game is in hiatus until {format_moment(hiatus.until)}."),
        )
    elif started:
        key, text = f"seasonal-end:{year}", "Seasonal downtime is over: the game has resumed."
    else:
        return report
    told = notify(
        users=players_now(now), key=key, text=text, url=reverse("front_page"), now=now, email=False, dry_run=dry_run
    )
    if told:
        report.done.append(f"{text} (told {len(told)})")
    return report
