"""When the game is in hiatus, why, and until when: built on the profile's rules in ``votes.limits``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from votes import limits
from votes.profiles import HIATUS_SEASONAL, Profile


@dataclass(frozen=True)
class Hiatus:
    reasons: frozenset[str]  # codes from votes.profiles: dov, ascension, seasonal
    until: datetime | None  # None when it ends on an event rather than at a known time

    @property
    def reason(self) -> str:
        texts = [limits.HIATUS_WHY[code] for code in sorted(self.reasons)]
        return "; ".join(texts).capitalize()


def hiatus_at(*, profile: Profile, now: datetime, pending_dov: bool, awaiting_ascension: bool) -> Hiatus | None:
    """A pending Declaration of Victory, an enacted one awaiting its Ascension Address, or seasonal downtime."""
    reasons = limits.hiatus_reasons(
        profile=profile, now=now, dov_pending=pending_dov, awaiting_ascension=awaiting_ascension
    )
    if not reasons:
        return None
    until = None
    if reasons == {HIATUS_SEASONAL} and profile.seasonal_downtime is not None:
        end_month, end_day = profile.seasonal_downtime[1]
        until = datetime(now.astimezone(UTC).year, end_month, end_day, tzinfo=UTC)
    return Hiatus(reasons=frozenset(reasons), until=until)
