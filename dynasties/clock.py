"""The game's clock as pure functions: UTC days, and times written the way messages and archives show them.

A "day" is 00:00:00 to 23:59:59 UTC; a "week" runs from Monday 00:00 UTC to the end of Sunday.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

# "Until after 120 hours have passed" starts one representable instant after the 120th hour.
INSTANT = timedelta(microseconds=1)

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_start(moment: datetime) -> datetime:
    """00:00:00 UTC of the day `moment` falls in."""
    moment = moment.astimezone(UTC)
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def next_day_start(moment: datetime) -> datetime:
    """00:00:00 UTC of the day after the one `moment` falls in."""
    return day_start(moment) + timedelta(days=1)


def format_moment(moment: datetime) -> str:
    """A time as messages show it: "00:00 UTC on 26 Jul 2016"."""
    moment = moment.astimezone(UTC)
    return f"{moment:%H:%M} UTC on {moment.day} {_MONTHS[moment.month - 1]} {moment.year}"
