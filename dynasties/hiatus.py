"""When the game is in hiatus, why, and until when, under the profile's rules. Pure: the time is passed in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from dynasties.profiles import HIATUS_ASCENSION, HIATUS_DOV, HIATUS_SEASONAL, Profile

HIATUS_WHY = {
    HIATUS_DOV: "a Declaration of Victory is pending",
    HIATUS_ASCENSION: "a new dynasty awaits its Ascension Address",
    HIATUS_SEASONAL: "seasonal downtime",
}


@dataclass(frozen=True)
class Hiatus:
    reasons: frozenset[str]  # codes from dynasties.profiles: dov, ascension, seasonal
    until: datetime | None  # None when it ends on an event rather than at a known time

    @property
    def reason(self) -> str:
        texts = [HIATUS_WHY[code] for code in sorted(self.reasons)]
        return "; ".join(texts).capitalize()


def hiatus_at(*, profile: Profile, now: datetime, pending_dov: bool, awaiting_ascension: bool) -> Hiatus | None:
    """A pending Declaration of Victory, an enacted one awaiting its Ascension Address, or seasonal downtime."""
    reasons = hiatus_reasons(profile=profile, now=now, dov_pending=pending_dov, awaiting_ascension=awaiting_ascension)
    if not reasons:
        return None
    until = None
    if reasons == {HIATUS_SEASONAL} and profile.seasonal_downtime is not None:
        end_month, end_day = profile.seasonal_downtime[1]
        until = datetime(now.astimezone(UTC).year, end_month, end_day, tzinfo=UTC)
    return Hiatus(reasons=frozenset(reasons), until=until)


def in_seasonal_downtime(*, profile: Profile, now: datetime) -> bool:
    """2016: "hiatus every year on December 24th ... until December 27th" (00:00 UTC to 00:00 UTC)."""
    if profile.seasonal_downtime is None:
        return False
    (start_month, start_day), (end_month, end_day) = profile.seasonal_downtime
    now = now.astimezone(UTC)
    start = datetime(now.year, start_month, start_day, tzinfo=UTC)
    end = datetime(now.year, end_month, end_day, tzinfo=UTC)
    return start <= now < end


def hiatus_reasons(*, profile: Profile, now: datetime, dov_pending: bool, awaiting_ascension: bool) -> frozenset[str]:
    """Every reason the game is in hiatus at `now` (empty when it is not)."""
    reasons = set()
    if dov_pending:
        reasons.add(HIATUS_DOV)
    if awaiting_ascension:
        reasons.add(HIATUS_ASCENSION)
    if in_seasonal_downtime(profile=profile, now=now):
        reasons.add(HIATUS_SEASONAL)
    return frozenset(reasons)
