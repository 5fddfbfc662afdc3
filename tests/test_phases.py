"""The calendar's phases (``dynasties.phases``), pure, clause by clause.

Ruleset 50 (2008, Werewolves), “Daytime and Nighttime”: “All even-numbered days in the real world are Daytime
in Zahndorf, and all odd-numbered days are Nighttime”.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from dynasties.phases import (
    DAY_PARITY,
    DAYTIME,
    NIGHTTIME,
    OUTSIDE_PHASE,
    PhaseError,
    phase_at,
    phase_ends_at,
    phase_refusal,
)


def at(day: int, hour: int = 12, month: int = 7) -> datetime:
    return datetime(2008, month, day, hour, tzinfo=UTC)


def test_even_numbered_days_are_daytime_and_odd_ones_nighttime():
    """“All even-numbered days … are Daytime …, and all odd-numbered days are Nighttime”."""
    assert phase_at(at(2)) == DAYTIME
    assert phase_at(at(3)) == NIGHTTIME
    assert phase_at(at(30)) == DAYTIME


def test_a_day_runs_from_midnight_to_midnight_utc():
    """The day is the UTC day: the last second of the 2nd is Daytime, midnight starts the 3rd's Nighttime."""
    assert phase_at(datetime(2008, 7, 2, 23, 59, 59, tzinfo=UTC)) == DAYTIME
    assert phase_at(datetime(2008, 7, 3, 0, 0, tzinfo=UTC)) == NIGHTTIME
    # 01:00 on the 3rd at UTC+2 is still 23:00 on the 2nd in UTC.
    assert phase_at(datetime(2008, 7, 3, 1, 0, tzinfo=timezone(timedelta(hours=2)))) == DAYTIME


def test_the_31st_and_the_1st_are_two_nights_in_a_row():
    """Numbered days of the month, so a 31-day month ends on a Nighttime that runs on into the 1st."""
    assert phase_at(at(31)) == NIGHTTIME and phase_at(at(1, month=8)) == NIGHTTIME
    assert phase_ends_at(at(31)) == datetime(2008, 8, 2, tzinfo=UTC)


def test_a_refusal_names_the_phase_it_is_now_and_when_that_ends():
    assert phase_refusal("", at(3)) is None
    assert phase_refusal(DAYTIME, at(2)) is None
    message = phase_refusal(DAYTIME, at(3), what="Lynching")
    assert message == OUTSIDE_PHASE.format(
        what="Lynching", done="taken", phase=DAYTIME, now_phase=NIGHTTIME, until="Fri 04 Jul 2008 00:00"
    )
    assert phase_refusal(NIGHTTIME, at(2, hour=23)) is not None


@pytest.mark.parametrize(
    "call",
    [
        lambda: phase_at(datetime(2008, 7, 2, 12)),  # no time zone
        lambda: phase_at(at(2), "moon-phase"),
        lambda: phase_refusal("Dusk", at(2)),
    ],
    ids=["naive", "unknown rule", "unknown phase"],
)
def test_bad_input_is_refused_with_a_reason(call):
    with pytest.raises(PhaseError):
        call()


def test_the_rule_has_a_name_matter_kinds_can_store():
    assert phase_at(at(4), DAY_PARITY) == DAYTIME
