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
    return moment_plus(day_start(moment), timedelta(days=1))


# The first and last moments a datetime can hold, as aware UTC times.
FIRST_MOMENT = datetime.min.replace(tzinfo=UTC)
LAST_MOMENT = datetime.max.replace(tzinfo=UTC)


def moment_plus(at: datetime, delta: timedelta) -> datetime:
    """`at` moved by `delta`, held at the first or last moment a datetime can hold rather than overflowing.

    Deadlines are a stored date plus a rule's hours or days; a deadline past the end of time is one that never
    comes, and a page that judges it must still render.
    """
    try:
        return at + delta
    except OverflowError:
        return LAST_MOMENT if delta > timedelta(0) else FIRST_MOMENT


def format_moment(moment: datetime) -> str:
    """A time as messages show it: "00:00 UTC on 26 Jul 2016"."""
    moment = moment.astimezone(UTC)
    return f"{moment:%H:%M} UTC on {moment.day} {_MONTHS[moment.month - 1]} {moment.year}"


class NotATime(ValueError):
    """Text that is not an ISO 8601 time with a time zone; ``naive`` when only the zone is missing."""

    def __init__(self, value: object, *, naive: bool = False) -> None:
        super().__init__(f"{value!r} is not an ISO 8601 time with a time zone")
        self.naive = naive


def parse_iso_time(value: object) -> datetime:
    """An aware UTC datetime from an ISO 8601 string that carries its time zone (``Z`` or ``+02:00``)."""
    if not isinstance(value, str) or "\x00" in value:  # fromisoformat ignores what follows a NUL after a time
        raise NotATime(value)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise NotATime(value) from None
    if moment.tzinfo is None:
        raise NotATime(value, naive=True)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        # "0001-01-01T00:00:00+01:00" is a valid string whose UTC moment no datetime can hold.
        raise NotATime(value) from None


def format_iso_time(moment: datetime | None) -> str | None:
    """The archive's and the API's way of writing a time: ISO 8601 in UTC with a ``Z``."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


# The moments a game's records may carry. Nomic is younger than 1970, and a game's arithmetic adds weeks and years
# to what it stores (deadlines, hiatus, the age of a matter): a date near datetime's end would overflow it.
EARLIEST_STORED = datetime(1970, 1, 1, tzinfo=UTC)
LATEST_STORED = datetime(2200, 1, 1, tzinfo=UTC)


def storable_moment_problem(moment: datetime) -> str | None:
    """Why a record may not carry `moment` (an aware datetime), or None when it may."""
    if moment.tzinfo is None:
        return f"{moment.isoformat()} has no time zone"
    if not EARLIEST_STORED <= moment < LATEST_STORED:
        return (
            f"{format_iso_time(moment)} is outside the dates a game may carry "
            f"({EARLIEST_STORED.year} to {LATEST_STORED.year - 1})"
        )
    return None
