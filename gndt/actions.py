"""Daily, weekly and communal limits on declared game actions.

A dynastic rule often says "as a daily action, a player may…".  Each such
action is declared as an ``ActionSpec``; ``check_action`` decides whether a
player may take it at a given moment, from the history of that action, and
says when it will next be allowed.

Days run 00:00:00–23:59:59 UTC and weeks from Monday 00:00 UTC to the end of
Sunday.  The minimum spacing between two performances by the same player
depends on the rules profile (``ACTION_SPACING``): Ruleset 21 (2005) defines
no spacing, so there only the calendar limits apply.

Frequencies:

* ``daily`` / ``weekly``: once per day / week per player, and no sooner than
  the profile's spacing after that player's previous performance.
* ``daily_communal`` / ``weekly_communal``: as above, and only one player per
  day / week.
* ``unlimited``: no calendar limit; only a weekly cap, if any, applies.

``weekly_cap`` counts performances in the current week ("as a daily action,
but no more than three times during a week").  For a communal action it
counts every player's performances, since the action is shared.

Every declared action is dynastic, so all are refused while the game is in
hiatus.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dynasties.clock import moment_plus

DAILY = "daily"
WEEKLY = "weekly"
DAILY_COMMUNAL = "daily_communal"
WEEKLY_COMMUNAL = "weekly_communal"
UNLIMITED = "unlimited"
FREQUENCIES = (DAILY, WEEKLY, DAILY_COMMUNAL, WEEKLY_COMMUNAL, UNLIMITED)

HIATUS = "The game is in hiatus: dynastic actions are not allowed."
ALREADY_TODAY = "you already did it today (at {time})"
ALREADY_THIS_WEEK = "you already did it this week (at {time})"
OTHER_TODAY = "another player ({actor}) already did it today (at {time})"
OTHER_THIS_WEEK = "another player ({actor}) already did it this week (at {time})"
TOO_SOON = "it must be at least {gap} after your last (at {time})"
CAP_REACHED = "you have already done it {count} times this week (at most {cap} a week)"
COMMUNAL_CAP_REACHED = "it has already been done {count} times this week (at most {cap} a week)"
REFUSED = "{head}: {reason}; next allowed from {next_allowed}."

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class ActionSpec:
    """A declared action and how often it may be taken."""

    name: str
    frequency: str = DAILY
    weekly_cap: int | None = None

    def __post_init__(self) -> None:
        if self.frequency not in FREQUENCIES:
            raise ValueError(f"Unknown frequency {self.frequency!r}; expected one of {', '.join(FREQUENCIES)}")
        if self.weekly_cap is not None and self.weekly_cap < 1:
            raise ValueError(f"{self.name}: a weekly cap must be at least 1")

    @property
    def is_communal(self) -> bool:
        return self.frequency in (DAILY_COMMUNAL, WEEKLY_COMMUNAL)

    @property
    def period(self) -> str | None:
        """``"day"``, ``"week"`` or ``None`` for an action with no calendar limit."""
        if self.frequency in (DAILY, DAILY_COMMUNAL):
            return "day"
        if self.frequency in (WEEKLY, WEEKLY_COMMUNAL):
            return "week"
        return None


@dataclass(frozen=True)
class Spacing:
    """Least time between two performances of one action by the same player."""

    daily: timedelta
    weekly: timedelta


ACTION_SPACING: dict[str, Spacing | None] = {
    "2005": None,
    "2008": Spacing(daily=timedelta(hours=6), weekly=timedelta(hours=24)),
    "2016": Spacing(daily=timedelta(hours=10), weekly=timedelta(hours=24)),
}


@dataclass(frozen=True)
class Performed:
    """One past performance of an action."""

    actor: str
    at: datetime


@dataclass(frozen=True)
class ActionVerdict:
    """Whether an action may be taken now; if not, why, and from when (``None``: not known)."""

    allowed: bool
    message: str = ""
    next_allowed_at: datetime | None = None


@dataclass(frozen=True)
class _Block:
    until: datetime
    reason: str


def check_action(
    spec: ActionSpec,
    *,
    profile: str,
    actor: str,
    now: datetime,
    history: Sequence[Performed],
    hiatus: bool,
) -> ActionVerdict:
    """May ``actor`` take the action ``spec`` at ``now`` under the rules profile ``profile``?

    ``history`` holds the past performances of this action by every player;
    entries after ``now`` are ignored, so a verdict can be replayed as it
    stood at any moment.
    """
    if profile not in ACTION_SPACING:
        raise ValueError(f"Unknown rules profile {profile!r}; expected one of {', '.join(ACTION_SPACING)}")
    return check_action_with_spacing(
        spec, spacing=ACTION_SPACING[profile], actor=actor, now=now, history=history, hiatus=hiatus
    )


def check_action_with_spacing(
    spec: ActionSpec,
    *,
    spacing: Spacing | None,
    actor: str,
    now: datetime,
    history: Sequence[Performed],
    hiatus: bool,
) -> ActionVerdict:
    """``check_action`` with the spacing given directly, for a profile whose core rules were amended."""
    if hiatus:
        return ActionVerdict(allowed=False, message=HIATUS)
    now = as_utc(now)
    in_utc = (Performed(entry.actor, as_utc(entry.at)) for entry in history)
    past = sorted((entry for entry in in_utc if entry.at <= now), key=lambda entry: entry.at)
    blocks = [
        block
        for block in (
            _period_block(spec, actor, now, past),
            _cap_block(spec, actor, now, past),
            _spacing_block(spec, spacing, actor, now, past),
        )
        if block is not None
    ]
    if not blocks:
        return ActionVerdict(allowed=True)
    # The latest block decides when the action is next allowed; on a tie the
    # calendar reason, listed first, is the one players recognise.
    binding = max(blocks, key=lambda block: block.until)
    message = REFUSED.format(head=_head(spec), reason=binding.reason, next_allowed=format_moment(binding.until))
    return ActionVerdict(allowed=False, message=message, next_allowed_at=binding.until)


def as_utc(moment: datetime) -> datetime:
    """The same instant in UTC; naive datetimes are refused, since their zone is unknown."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"Expected a timezone-aware datetime; got naive {moment.isoformat()}")
    return moment.astimezone(UTC)


def start_of_day(moment: datetime) -> datetime:
    return as_utc(moment).replace(hour=0, minute=0, second=0, microsecond=0)


def start_of_week(moment: datetime) -> datetime:
    """Monday 00:00 UTC of the week holding ``moment``."""
    day = start_of_day(moment)
    return day - timedelta(days=day.weekday())


def format_moment(moment: datetime) -> str:
    """``06:00 UTC on 26 Jul 2016`` (seconds shown only when not zero)."""
    return f"{_clock(moment)} on {_day_and_month(moment)} {moment.year}"


def _period_block(spec: ActionSpec, actor: str, now: datetime, past: list[Performed]) -> _Block | None:
    if spec.period is None:
        return None
    start, end = _period_bounds(spec.period, now)
    in_period = [entry for entry in past if entry.at >= start]
    own = [entry for entry in in_period if entry.actor == actor]
    if own:
        return _Block(end, _already_reason(spec.period, own[-1], own=True))
    if spec.is_communal and in_period:
        return _Block(end, _already_reason(spec.period, in_period[-1], own=False))
    return None


def _cap_block(spec: ActionSpec, actor: str, now: datetime, past: list[Performed]) -> _Block | None:
    if spec.weekly_cap is None:
        return None
    start, end = _period_bounds("week", now)
    counted = [entry for entry in past if entry.at >= start and (spec.is_communal or entry.actor == actor)]
    if len(counted) < spec.weekly_cap:
        return None
    template = COMMUNAL_CAP_REACHED if spec.is_communal else CAP_REACHED
    return _Block(end, template.format(count=len(counted), cap=spec.weekly_cap))


def _spacing_block(
    spec: ActionSpec, spacing: Spacing | None, actor: str, now: datetime, past: list[Performed]
) -> _Block | None:
    if spacing is None or spec.period is None:
        return None
    own = [entry for entry in past if entry.actor == actor]
    if not own:
        return None
    gap = spacing.daily if spec.period == "day" else spacing.weekly
    last = own[-1].at
    if now >= moment_plus(last, gap):
        return None
    reason = TOO_SOON.format(gap=_duration(gap), time=f"{_clock(last)} on {_day_and_month(last)}")
    return _Block(moment_plus(last, gap), reason)


def _period_bounds(period: str, now: datetime) -> tuple[datetime, datetime]:
    if period == "day":
        start = start_of_day(now)
        return start, start + timedelta(days=1)
    start = start_of_week(now)
    return start, start + timedelta(weeks=1)


def _already_reason(period: str, entry: Performed, *, own: bool) -> str:
    if period == "day":
        time = _clock(entry.at)
        return ALREADY_TODAY.format(time=time) if own else OTHER_TODAY.format(actor=entry.actor, time=time)
    time = f"{_clock(entry.at)} on {_day_and_month(entry.at)}"
    return ALREADY_THIS_WEEK.format(time=time) if own else OTHER_THIS_WEEK.format(actor=entry.actor, time=time)


def _head(spec: ActionSpec) -> str:
    if spec.period is None:
        return f"{spec.name} may be done at most {spec.weekly_cap} times a week"
    return f"{spec.name} is a {spec.frequency.replace('_', ' ')} action"


def _clock(moment: datetime) -> str:
    shown = f"{moment:%H:%M:%S}" if moment.second or moment.microsecond else f"{moment:%H:%M}"
    return f"{shown} UTC"


def _day_and_month(moment: datetime) -> str:
    return f"{moment.day} {_MONTHS[moment.month - 1]}"


def _duration(gap: timedelta) -> str:
    hours, remainder = divmod(int(gap.total_seconds()), 3600)
    if remainder:
        return f"{hours} hours {remainder // 60} minutes"
    return "1 hour" if hours == 1 else f"{hours} hours"
