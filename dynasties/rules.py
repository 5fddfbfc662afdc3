"""Roster rules as pure functions: idling, unidling windows, rejoining after leaving. Time is passed in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from dynasties.clock import format_moment, moment_plus
from dynasties.profiles import Profile

NOT_INACTIVE_YET = "{name} was last active at {last}; an admin may idle them from {when}, or they may idle themselves."
UNIDLE_TOO_SOON = "{name} went idle at {since} in this dynasty; they may be unidled from {when}."
REJOIN_TOO_SOON = "{name} left the game at {left}; they may rejoin from {when}."


@dataclass(frozen=True)
class RosterVerdict:
    allowed: bool
    message: str = ""
    next_allowed_at: datetime | None = None


def may_idle_inactive(
    *, name: str, profile: Profile, last_activity: datetime | None, joined_at: datetime, now: datetime
) -> RosterVerdict:
    """An admin may idle a player who has made no post or comment for the profile's number of days."""
    last = last_activity or joined_at
    when = moment_plus(last, timedelta(days=profile.idle_after_days))
    if now >= when:
        return RosterVerdict(True)
    return RosterVerdict(
        False, NOT_INACTIVE_YET.format(name=name, last=format_moment(last), when=format_moment(when)), when
    )


def may_unidle(
    *, name: str, profile: Profile, idled_at: datetime, idled_in_current_dynasty: bool, now: datetime
) -> RosterVerdict:
    """2016 (Ruleset 142): not within four days of going idle, when that was in the current dynasty."""
    if profile.unidle_window_days is None or not idled_in_current_dynasty:
        return RosterVerdict(True)
    when = moment_plus(idled_at, timedelta(days=profile.unidle_window_days))
    if now >= when:
        return RosterVerdict(True)
    return RosterVerdict(
        False, UNIDLE_TOO_SOON.format(name=name, since=format_moment(idled_at), when=format_moment(when)), when
    )


def may_rejoin(*, name: str, profile: Profile, left_at: datetime | None, now: datetime) -> RosterVerdict:
    """2016: someone who left may not become a player again within the following two weeks."""
    if left_at is None or profile.rejoin_bar_days is None:
        return RosterVerdict(True)
    when = moment_plus(left_at, timedelta(days=profile.rejoin_bar_days))
    if now >= when:
        return RosterVerdict(True)
    return RosterVerdict(
        False, REJOIN_TOO_SOON.format(name=name, left=format_moment(left_at), when=format_moment(when)), when
    )
