"""Tests for time-driven GNDT effects (gndt.schedule)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from gndt.schedule import (
    ScheduleSpec,
    due_periods,
    latest_occurrence,
    next_occurrence,
    period_key,
    skipped_periods,
)

MIDNIGHT = ScheduleSpec.every_day()
MONDAY_MORNING = ScheduleSpec.every_week("Monday")


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_daily_key_is_the_date_of_the_latest_midnight():
    """2005 'Once per day at midnight GMT the Calendar advances 10 Years': each midnight is one period."""
    assert period_key(MIDNIGHT, moment("2016-07-26 00:00")) == "2016-07-26"
    assert period_key(MIDNIGHT, moment("2016-07-26 23:59:59")) == "2016-07-26"
    assert period_key(MIDNIGHT, moment("2016-07-25 23:59:59")) == "2016-07-25"


def test_daily_key_before_todays_time_is_yesterdays():
    """A daily effect at 18:00 has not come today at 17:59; yesterday's period is the latest."""
    evening = ScheduleSpec.every_day(18, 0)
    assert period_key(evening, moment("2016-07-26 17:59")) == "2016-07-25"
    assert period_key(evening, moment("2016-07-26 18:00")) == "2016-07-26"


def test_weekly_key_is_the_iso_week():
    """2016 'At the start of each week, the Treasure Rating of each island increases by 1'."""
    assert period_key(MONDAY_MORNING, moment("2016-07-25 00:00")) == "2016-W30"
    assert period_key(MONDAY_MORNING, moment("2016-07-31 23:59:59")) == "2016-W30"
    assert period_key(MONDAY_MORNING, moment("2016-08-01 00:00")) == "2016-W31"


def test_weekly_schedule_on_another_day_and_time():
    """Every Sunday at 21:00: before it on Sunday, the latest occurrence was the previous Sunday."""
    sunday_evening = ScheduleSpec.every_week("sunday", 21, 0)
    assert latest_occurrence(sunday_evening, moment("2016-07-31 20:59")) == moment("2016-07-24 21:00")
    assert latest_occurrence(sunday_evening, moment("2016-07-31 21:00")) == moment("2016-07-31 21:00")
    assert period_key(sunday_evening, moment("2016-07-31 21:00")) == "2016-W30"


def test_weekly_key_uses_the_iso_year_at_new_year():
    """Monday 31 December 2018 begins ISO week 2019-W01, so keys stay unique and ordered."""
    assert period_key(MONDAY_MORNING, moment("2018-12-31 09:00")) == "2019-W01"
    assert period_key(MONDAY_MORNING, moment("2016-01-03 09:00")) == "2015-W53"


def test_applying_twice_does_nothing_more():
    """Idempotence: once today's key is stored, running again the same day finds nothing due."""
    now = moment("2016-07-26 00:05")
    assert due_periods(MIDNIGHT, last_applied_key=None, now=now) == ["2016-07-26"]
    assert due_periods(MIDNIGHT, last_applied_key="2016-07-26", now=now) == []
    assert due_periods(MIDNIGHT, last_applied_key="2016-07-26", now=moment("2016-07-26 23:59")) == []


def test_running_late_still_applies_the_period_once():
    """A job that runs at 07:30 instead of 00:00 still applies that midnight's effect, once."""
    assert due_periods(MIDNIGHT, last_applied_key="2016-07-25", now=moment("2016-07-26 07:30")) == ["2016-07-26"]


def test_missed_periods_apply_only_the_most_recent():
    """After three missed midnights only the latest is applied; the others are reported as skipped."""
    now = moment("2016-07-29 03:00")
    assert due_periods(MIDNIGHT, last_applied_key="2016-07-25", now=now) == ["2016-07-29"]
    assert skipped_periods(MIDNIGHT, last_applied_key="2016-07-25", now=now) == [
        "2016-07-26",
        "2016-07-27",
        "2016-07-28",
    ]


def test_skipped_periods_are_limited_and_empty_when_none_missed():
    """Only the most recent skipped periods are listed, and none when the last run was on time."""
    now = moment("2016-07-29 03:00")
    assert skipped_periods(MIDNIGHT, last_applied_key="2016-07-28", now=now) == []
    assert skipped_periods(MIDNIGHT, last_applied_key="2016-01-01", now=now, limit=2) == [
        "2016-07-27",
        "2016-07-28",
    ]
    assert skipped_periods(MIDNIGHT, last_applied_key=None, now=now) == []


def test_weekly_missed_periods():
    """A weekly effect missed for two weeks applies the current week once and reports the week between."""
    now = moment("2016-08-10 12:00")
    assert due_periods(MONDAY_MORNING, last_applied_key="2016-W30", now=now) == ["2016-W32"]
    assert skipped_periods(MONDAY_MORNING, last_applied_key="2016-W30", now=now) == ["2016-W31"]


def test_clock_going_backwards_applies_nothing():
    """A stored key later than now (a restored backup, a wrong clock) makes nothing due."""
    assert due_periods(MIDNIGHT, last_applied_key="2016-07-27", now=moment("2016-07-26 12:00")) == []


def test_nothing_due_before_the_rule_came_into_force():
    """A rule enacted at 15:00 first acts at the next midnight, not at the one already past."""
    spec = ScheduleSpec.every_day(starts_at=moment("2016-07-26 15:00"))
    assert period_key(spec, moment("2016-07-26 16:00")) is None
    assert due_periods(spec, last_applied_key=None, now=moment("2016-07-26 16:00")) == []
    assert due_periods(spec, last_applied_key=None, now=moment("2016-07-27 00:00")) == ["2016-07-27"]
    assert next_occurrence(spec, moment("2016-07-20 12:00")) == moment("2016-07-27 00:00")


def test_skipped_periods_stop_at_the_start_of_the_rule():
    """Periods before the rule came into force are never reported as skipped."""
    spec = ScheduleSpec.every_day(starts_at=moment("2016-07-26 15:00"))
    assert skipped_periods(spec, last_applied_key="2016-07-01", now=moment("2016-07-29 01:00")) == [
        "2016-07-27",
        "2016-07-28",
    ]


def test_next_occurrence_is_strictly_after_now():
    """At exactly midnight the next occurrence is the following midnight."""
    assert next_occurrence(MIDNIGHT, moment("2016-07-26 00:00")) == moment("2016-07-27 00:00")
    assert next_occurrence(MONDAY_MORNING, moment("2016-07-27 12:00")) == moment("2016-08-01 00:00")


def test_schedule_changed_from_daily_to_weekly_compares_by_date():
    """A daily key stored before the schedule became weekly is compared by its date."""
    assert due_periods(MONDAY_MORNING, last_applied_key="2016-07-27", now=moment("2016-08-01 00:10")) == ["2016-W31"]
    assert due_periods(MONDAY_MORNING, last_applied_key="2016-07-27", now=moment("2016-07-28 00:10")) == []


def test_unreadable_stored_key_is_an_error():
    """A corrupt stored key is reported rather than silently re-applying the effect."""
    with pytest.raises(ValueError, match="Not a schedule period key"):
        due_periods(MIDNIGHT, last_applied_key="yesterday", now=moment("2016-07-26 00:10"))


def test_times_in_other_zones_are_read_as_utc():
    """Time is UTC: 01:00 at UTC+2 on the 26th is still the 25th in UTC."""
    two_hours_ahead = timezone(timedelta(hours=2))
    assert period_key(MIDNIGHT, datetime(2016, 7, 26, 1, 0, tzinfo=two_hours_ahead)) == "2016-07-25"


def test_naive_times_are_refused():
    """Timezone-aware datetimes only."""
    with pytest.raises(ValueError, match="timezone-aware"):
        period_key(MIDNIGHT, datetime(2016, 7, 26))


def test_invalid_schedules_are_refused():
    """A time of day or weekday that does not exist is a configuration error."""
    with pytest.raises(ValueError):
        ScheduleSpec.every_day(24, 0)
    with pytest.raises(ValueError):
        ScheduleSpec.every_week("Caturday")
    with pytest.raises(ValueError):
        ScheduleSpec(weekday=7)


def test_describe():
    """Schedules describe themselves for the admin pages."""
    assert MIDNIGHT.describe() == "every day at 00:00 UTC"
    assert ScheduleSpec.every_week(0, 9, 30).describe() == "every Monday at 09:30 UTC"
