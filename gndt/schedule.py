"""When time-driven GNDT effects fall due.

Some rules change the gamestate on a timetable rather than on a player's
action: Ruleset 21 advances the Year by 10 every midnight, Ruleset 142 raises
every Treasure Rating at the start of each week.  A ``ScheduleSpec`` says when
such an effect happens (every day, or every given weekday, at HH:MM UTC).

Each occurrence has a period key (``"2016-07-26"`` for a daily schedule,
``"2016-W30"``, the ISO week, for a weekly one).  A caller stores the key of
every period it has applied; ``due_periods`` then tells it what to apply now,
so a job that runs twice, or late, applies each period at most once.

Catching up: when several periods were missed (the scheduler was stopped,
say), only the most recent one is applied.  An effect is written for the
gamestate of its own moment; replaying a backlog late, against today's
gamestate, can compound in ways no rule intended, and a burst of stacked
changes is hard for players to audit.  ``skipped_periods`` lists what was
missed so the service can record it, and an admin can correct the GNDT by
hand, which the rulesets allow whenever the GNDT and the gamestate differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from dynasties.clock import moment_plus

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

_DAY = timedelta(days=1)
_WEEK = timedelta(weeks=1)


@dataclass(frozen=True)
class ScheduleSpec:
    """Every day, or every ``weekday`` (0 is Monday), at ``hour``:``minute`` UTC.

    Occurrences before ``starts_at`` (when the rule came into force) never
    fall due, so a rule enacted at 15:00 first acts at the next occurrence.
    """

    hour: int = 0
    minute: int = 0
    weekday: int | None = None
    starts_at: datetime | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.hour <= 23 or not 0 <= self.minute <= 59:
            raise ValueError(f"Not a time of day: {self.hour:02d}:{self.minute:02d}")
        if self.weekday is not None and not 0 <= self.weekday <= 6:
            raise ValueError(f"Weekday must be 0 (Monday) to 6 (Sunday); got {self.weekday}")
        if self.starts_at is not None:
            object.__setattr__(self, "starts_at", _as_utc(self.starts_at))

    @classmethod
    def every_day(cls, hour: int = 0, minute: int = 0, *, starts_at: datetime | None = None) -> ScheduleSpec:
        return cls(hour=hour, minute=minute, starts_at=starts_at)

    @classmethod
    def every_week(
        cls, weekday: str | int, hour: int = 0, minute: int = 0, *, starts_at: datetime | None = None
    ) -> ScheduleSpec:
        """``every_week("Monday")``: the weekday by English name (any case) or number."""
        return cls(hour=hour, minute=minute, weekday=_weekday_number(weekday), starts_at=starts_at)

    @property
    def is_weekly(self) -> bool:
        return self.weekday is not None

    @property
    def interval(self) -> timedelta:
        return _WEEK if self.is_weekly else _DAY

    def describe(self) -> str:
        """``every day at 00:00 UTC`` or ``every Monday at 00:00 UTC``."""
        when = "every day" if self.weekday is None else f"every {WEEKDAYS[self.weekday]}"
        return f"{when} at {self.hour:02d}:{self.minute:02d} UTC"


def latest_occurrence(spec: ScheduleSpec, now: datetime) -> datetime | None:
    """The most recent occurrence at or before ``now``; ``None`` if none since ``starts_at``."""
    occurrence = _latest_occurrence_ignoring_start(spec, _as_utc(now))
    if spec.starts_at is not None and occurrence < spec.starts_at:
        return None
    return occurrence


def next_occurrence(spec: ScheduleSpec, now: datetime) -> datetime:
    """The first occurrence strictly after ``now`` (and not before ``starts_at``)."""
    now = _as_utc(now)
    if spec.starts_at is not None and now < spec.starts_at:
        now = spec.starts_at - timedelta(microseconds=1)
    return moment_plus(_latest_occurrence_ignoring_start(spec, now), spec.interval)


def period_key(spec: ScheduleSpec, now: datetime) -> str | None:
    """Key of the most recent period whose time has come, or ``None`` if none has yet."""
    occurrence = latest_occurrence(spec, now)
    return None if occurrence is None else _key_for(spec, occurrence)


def due_periods(spec: ScheduleSpec, *, last_applied_key: str | None, now: datetime) -> list[str]:
    """Keys to apply now: the most recent period, if it is later than the last one applied.

    At most one key is returned; see the module docstring for why missed
    periods are not caught up.  A stored key from before a schedule change
    (a daily key under a weekly schedule) is compared by date.
    """
    key = period_key(spec, now)
    if key is None:
        return []
    if last_applied_key is not None and _key_date(key) <= _key_date(last_applied_key):
        return []
    return [key]


def skipped_periods(spec: ScheduleSpec, *, last_applied_key: str | None, now: datetime, limit: int = 100) -> list[str]:
    """Keys of periods after ``last_applied_key`` that ``due_periods`` passes over, oldest first.

    Only the ``limit`` most recent are listed.  With no key applied yet,
    nothing counts as skipped.
    """
    occurrence = latest_occurrence(spec, now)
    if occurrence is None or last_applied_key is None:
        return []
    last_date = _key_date(last_applied_key)
    skipped: list[str] = []
    earlier = occurrence - spec.interval
    while len(skipped) < limit and _is_in_force(spec, earlier):
        key = _key_for(spec, earlier)
        if _key_date(key) <= last_date:
            break
        skipped.append(key)
        earlier -= spec.interval
    return list(reversed(skipped))


def _latest_occurrence_ignoring_start(spec: ScheduleSpec, now: datetime) -> datetime:
    candidate = now.replace(hour=spec.hour, minute=spec.minute, second=0, microsecond=0)
    if spec.weekday is not None:
        candidate -= timedelta(days=(now.weekday() - spec.weekday) % 7)
    if candidate > now:
        candidate -= spec.interval
    return candidate


def _is_in_force(spec: ScheduleSpec, occurrence: datetime) -> bool:
    return spec.starts_at is None or occurrence >= spec.starts_at


def _key_for(spec: ScheduleSpec, occurrence: datetime) -> str:
    if spec.is_weekly:
        year, week, _ = occurrence.isocalendar()
        return f"{year}-W{week:02d}"
    return occurrence.date().isoformat()


def _key_date(key: str) -> date:
    """The date a key stands for: the day itself, or the Monday of an ISO week."""
    try:
        if "-W" in key:
            year, week = key.split("-W")
            return date.fromisocalendar(int(year), int(week), 1)
        return date.fromisoformat(key)
    except ValueError as error:
        raise ValueError(f"Not a schedule period key: {key!r}") from error


def _weekday_number(weekday: str | int) -> int:
    if isinstance(weekday, int):
        return weekday
    names = [name.casefold() for name in WEEKDAYS]
    if weekday.casefold() not in names:
        raise ValueError(f"Not a weekday: {weekday!r}; expected one of {', '.join(WEEKDAYS)}")
    return names.index(weekday.casefold())


def _as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"Expected a timezone-aware datetime; got naive {moment.isoformat()}")
    return moment.astimezone(UTC)
