"""Tests for daily, weekly and communal action limits (gndt.actions).

Monday 25 July 2016 starts the week used throughout; Sunday is 31 July.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from gndt import actions
from gndt.actions import (
    ACTION_SPACING,
    ActionSpec,
    ActionVerdict,
    Performed,
    Spacing,
    check_action,
    check_action_with_spacing,
)

DIG = ActionSpec("Dig", "daily")
FORCE_THE_HAND = ActionSpec("Force the Hand", "weekly")
RAID = ActionSpec("Raid", "daily", weekly_cap=3)
RING_THE_BELL = ActionSpec("Ring the Bell", "daily_communal")
CALL_THE_TRAIN = ActionSpec("Call the Train", "weekly_communal")
PARLEY = ActionSpec("Parley", "unlimited")


def moment(text: str) -> datetime:
    """'2016-07-25 09:12' as an aware UTC datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def check(
    spec: ActionSpec,
    now: str,
    *done: tuple[str, str],
    actor: str = "Bucky",
    profile: str = "2016",
    hiatus: bool = False,
) -> ActionVerdict:
    history = [Performed(who, moment(when)) for who, when in done]
    return check_action(spec, profile=profile, actor=actor, now=moment(now), history=history, hiatus=hiatus)


# Daily actions


def test_first_daily_action_is_allowed():
    """A daily action never taken before is allowed, with no message and no waiting time."""
    assert check(DIG, "2016-07-25 09:12") == ActionVerdict(allowed=True, message="", next_allowed_at=None)


def test_daily_action_twice_in_a_day_is_refused_until_midnight():
    """2016 'may take that action once each day': the second try today waits for 00:00 UTC."""
    verdict = check(DIG, "2016-07-25 20:00", ("Bucky", "2016-07-25 09:12"))
    assert not verdict.allowed
    assert verdict.message == (
        "Dig is a daily action: you already did it today (at 09:12 UTC); next allowed from 00:00 UTC on 26 Jul 2016."
    )
    assert verdict.next_allowed_at == moment("2016-07-26 00:00")


def test_daily_action_nine_hours_after_the_last_is_refused():
    """2016 'not more than once every ten hours': 9 hours after the last is refused, even on a new day."""
    verdict = check(DIG, "2016-07-26 05:00", ("Bucky", "2016-07-25 20:00"))
    assert not verdict.allowed
    assert verdict.message == (
        "Dig is a daily action: it must be at least 10 hours after your last (at 20:00 UTC on 25 Jul); "
        "next allowed from 06:00 UTC on 26 Jul 2016."
    )
    assert verdict.next_allowed_at == moment("2016-07-26 06:00")


def test_daily_action_exactly_ten_hours_after_the_last_is_allowed():
    """2016 'not more than once every ten hours': exactly 10 hours later is allowed."""
    assert check(DIG, "2016-07-26 06:00", ("Bucky", "2016-07-25 20:00")).allowed


def test_next_allowed_is_the_later_of_midnight_and_the_spacing():
    """Done at 20:00 and tried at 23:00 the same day: midnight is not enough, 06:00 (10 hours) is."""
    verdict = check(DIG, "2016-07-25 23:00", ("Bucky", "2016-07-25 20:00"))
    assert verdict.next_allowed_at == moment("2016-07-26 06:00")
    assert "at least 10 hours after your last" in verdict.message


def test_next_allowed_is_midnight_when_the_spacing_ends_sooner():
    """Done at 09:12 and tried at 12:00: the spacing ends at 19:12, but the day only at midnight."""
    verdict = check(DIG, "2016-07-25 12:00", ("Bucky", "2016-07-25 09:12"))
    assert verdict.next_allowed_at == moment("2016-07-26 00:00")
    assert "you already did it today" in verdict.message


def test_2008_spacing_is_six_hours():
    """2008 'not more than once every six hours': 5h59 is refused, 6h is allowed."""
    done = ("Bucky", "2016-07-25 22:00")
    refused = check(DIG, "2016-07-26 03:59", done, profile="2008")
    assert refused.next_allowed_at == moment("2016-07-26 04:00")
    assert "at least 6 hours after your last" in refused.message
    assert check(DIG, "2016-07-26 04:00", done, profile="2008").allowed


def test_2005_has_no_spacing_only_the_calendar_day():
    """2005 'once per day' defines no spacing: one second after midnight is a new day."""
    done = ("Bucky", "2016-07-25 23:59:59")
    assert check(DIG, "2016-07-26 00:00:00", done, profile="2005").allowed
    refused = check(DIG, "2016-07-25 23:59:59", done, profile="2005")
    assert refused.next_allowed_at == moment("2016-07-26 00:00")


def test_midnight_starts_a_new_day():
    """Glossary 'a day beginning at and including 00:00:00 UTC … It can never be 2 different days at the same
    instant'."""
    assert check(DIG, "2016-07-26 00:00:00", ("Bucky", "2016-07-25 13:00")).allowed
    refused = check(DIG, "2016-07-26 23:59:59", ("Bucky", "2016-07-26 00:00:00"))
    assert refused.next_allowed_at == moment("2016-07-27 00:00")


def test_another_players_daily_action_does_not_count():
    """'each Hunter able to perform it may take that action once each day': limits are per player."""
    assert check(DIG, "2016-07-25 12:00", ("Kevan", "2016-07-25 11:00")).allowed


def test_spacing_shows_seconds_when_they_matter():
    """A last action at 20:00:30 makes the next allowed 06:00:30, not a misleading 06:00."""
    verdict = check(DIG, "2016-07-26 05:00", ("Bucky", "2016-07-25 20:00:30"))
    assert verdict.message.endswith("next allowed from 06:00:30 UTC on 26 Jul 2016.")


# Weekly actions


def test_weekly_action_twice_in_a_week_waits_for_monday():
    """2016 'may take that action once each week': the second try waits for Monday 00:00 UTC."""
    verdict = check(FORCE_THE_HAND, "2016-07-31 22:00", ("Bucky", "2016-07-27 10:00"))
    assert verdict.message == (
        "Force the Hand is a weekly action: you already did it this week (at 10:00 UTC on 27 Jul); "
        "next allowed from 00:00 UTC on 1 Aug 2016."
    )
    assert verdict.next_allowed_at == moment("2016-08-01 00:00")


def test_weekly_action_sunday_night_then_monday_morning_is_refused():
    """Weekly Action 'not more than once every twenty-four hours': Sunday 23:00, Monday 10:00 is refused."""
    done = ("Bucky", "2016-07-31 23:00")
    verdict = check(FORCE_THE_HAND, "2016-08-01 10:00", done)
    assert not verdict.allowed
    assert verdict.next_allowed_at == moment("2016-08-01 23:00")
    assert "at least 24 hours after your last (at 23:00 UTC on 31 Jul)" in verdict.message
    assert check(FORCE_THE_HAND, "2016-08-01 23:00", done).allowed


def test_weekly_action_in_2005_only_needs_a_new_week():
    """2005 defines no spacing: Sunday 23:00 then Monday 00:00 is allowed."""
    assert check(FORCE_THE_HAND, "2016-08-01 00:00", ("Bucky", "2016-07-31 23:00"), profile="2005").allowed


def test_week_starts_on_monday():
    """Glossary 'a period of time between the beginning of a Monday and the end of the following Sunday'."""
    done = ("Bucky", "2016-07-25 00:00")
    assert not check(FORCE_THE_HAND, "2016-07-31 23:59:59", done).allowed
    assert check(FORCE_THE_HAND, "2016-08-01 00:00", done).allowed


# Weekly caps


def test_daily_action_at_most_three_times_a_week():
    """2016 Raid 'As a Daily Action, but no more than three times during a Week': a fourth is refused."""
    done = [("Bucky", "2016-07-25 10:00"), ("Bucky", "2016-07-26 10:00"), ("Bucky", "2016-07-27 10:00")]
    verdict = check(RAID, "2016-07-28 12:00", *done)
    assert verdict.message == (
        "Raid is a daily action: you have already done it 3 times this week (at most 3 a week); "
        "next allowed from 00:00 UTC on 1 Aug 2016."
    )
    assert verdict.next_allowed_at == moment("2016-08-01 00:00")
    assert check(RAID, "2016-07-28 12:00", *done[:2]).allowed


def test_weekly_cap_resets_on_monday():
    """Raids of the previous Friday, Saturday and Sunday do not count in the new week."""
    done = [("Bucky", "2016-07-29 00:00"), ("Bucky", "2016-07-30 00:00"), ("Bucky", "2016-07-31 00:00")]
    assert check(RAID, "2016-08-01 10:00", *done).allowed


def test_weekly_cap_and_spacing_give_the_later_time():
    """Third raid on Sunday 20:00: Monday 00:00 ends the cap, but the 10 hours end at 06:00."""
    done = [("Bucky", "2016-07-29 10:00"), ("Bucky", "2016-07-30 10:00"), ("Bucky", "2016-07-31 20:00")]
    verdict = check(RAID, "2016-07-31 22:00", *done)
    assert verdict.next_allowed_at == moment("2016-08-01 06:00")


def test_unlimited_action_with_a_cap():
    """An action with no daily limit may still be capped per week; the message says so."""
    parley = ActionSpec("Parley", "unlimited", weekly_cap=2)
    done = [("Bucky", "2016-07-25 10:00"), ("Bucky", "2016-07-25 10:05")]
    verdict = check(parley, "2016-07-25 10:06", *done)
    assert verdict.message.startswith("Parley may be done at most 2 times a week: you have already done it 2")
    assert check(parley, "2016-07-25 10:06", *done[:1]).allowed


def test_unlimited_action_is_always_allowed():
    """An action with no frequency is not limited by the calendar or by spacing."""
    done = [("Bucky", "2016-07-25 10:00")] * 5
    assert check(PARLEY, "2016-07-25 10:00", *done).allowed


# Communal actions


def test_daily_communal_action_by_another_player_today_is_refused():
    """2016 'A Daily Communal Action is a Daily Action that can only be performed by one Hunter per day'."""
    verdict = check(RING_THE_BELL, "2016-07-25 12:00", ("Kevan", "2016-07-25 08:00"))
    assert verdict.message == (
        "Ring the Bell is a daily communal action: "
        "another player (Kevan) already did it today (at 08:00 UTC); "
        "next allowed from 00:00 UTC on 26 Jul 2016."
    )
    assert check(RING_THE_BELL, "2016-07-26 00:00", ("Kevan", "2016-07-25 08:00")).allowed


def test_daily_communal_action_keeps_the_players_own_spacing():
    """A communal action is still a Daily Action: the player's own 10 hours apply."""
    verdict = check(RING_THE_BELL, "2016-07-26 05:00", ("Bucky", "2016-07-25 20:00"))
    assert verdict.next_allowed_at == moment("2016-07-26 06:00")


def test_weekly_communal_action_by_another_player_this_week_is_refused():
    """2016 'A Weekly Communal action is a Weekly Action that can only be performed by one Hunter per week'"""
    verdict = check(CALL_THE_TRAIN, "2016-07-31 12:00", ("Kevan", "2016-07-25 08:00"))
    assert "another player (Kevan) already did it this week (at 08:00 UTC on 25 Jul)" in verdict.message
    assert verdict.next_allowed_at == moment("2016-08-01 00:00")


def test_communal_weekly_cap_counts_every_player():
    """A communal action's weekly cap is shared: three festivals by anyone use it up."""
    shared = ActionSpec("Festival", "daily_communal", weekly_cap=3)
    done = [("Kevan", "2016-07-25 10:00"), ("Brendan", "2016-07-26 10:00"), ("Kevan", "2016-07-27 10:00")]
    verdict = check(shared, "2016-07-28 12:00", *done)
    assert "it has already been done 3 times this week" in verdict.message


# Hiatus


@pytest.mark.parametrize("spec", [DIG, FORCE_THE_HAND, RING_THE_BELL, PARLEY])
def test_dynastic_actions_are_refused_in_hiatus(spec):
    """'During this time, the only game actions that may be taken are those covered by Rules …' (hiatus)."""
    verdict = check(spec, "2016-07-25 12:00", hiatus=True)
    assert verdict == ActionVerdict(allowed=False, message=actions.HIATUS, next_allowed_at=None)
    assert verdict.message == "The game is in hiatus: dynastic actions are not allowed."


# Inputs


def test_history_after_now_is_ignored():
    """A verdict replayed for an earlier moment ignores what happened afterwards."""
    assert check(DIG, "2016-07-25 09:00", ("Bucky", "2016-07-25 12:00")).allowed


def test_times_in_other_zones_are_read_as_utc():
    """Time is UTC: 08:00 at UTC+10 on the 26th is 22:00 UTC on the 25th, the same day as a 09:00 dig."""
    ten_hours_ahead = timezone(timedelta(hours=10))
    now = datetime(2016, 7, 26, 8, 0, tzinfo=ten_hours_ahead)
    history = [Performed("Bucky", moment("2016-07-25 09:00"))]
    verdict = check_action(DIG, profile="2016", actor="Bucky", now=now, history=history, hiatus=False)
    assert "you already did it today (at 09:00 UTC)" in verdict.message
    assert verdict.next_allowed_at == moment("2016-07-26 00:00")


def test_naive_times_are_refused():
    """Timezone-aware datetimes only: a naive time has no meaning here."""
    with pytest.raises(ValueError, match="timezone-aware"):
        check_action(DIG, profile="2016", actor="Bucky", now=datetime(2016, 7, 25), history=[], hiatus=False)


def test_unknown_profile_is_refused():
    """Only the built-in profiles have spacing; another name is a configuration error."""
    with pytest.raises(ValueError, match="Unknown rules profile '1999'"):
        check(DIG, "2016-07-25 12:00", profile="1999")


def test_spacing_of_the_profiles():
    """2008 'six hours' / 'twenty-four hours'; 2016 'ten hours' / 'twenty-four hours'; 2005 none."""
    assert ACTION_SPACING == {
        "2005": None,
        "2008": Spacing(daily=timedelta(hours=6), weekly=timedelta(hours=24)),
        "2016": Spacing(daily=timedelta(hours=10), weekly=timedelta(hours=24)),
    }


def test_amended_spacing_can_be_given_directly():
    """When a proposal amends the core rules, the new spacing applies through check_action_with_spacing."""
    verdict = check_action_with_spacing(
        DIG,
        spacing=Spacing(daily=timedelta(hours=12, minutes=30), weekly=timedelta(hours=24)),
        actor="Bucky",
        now=moment("2016-07-26 08:00"),
        history=[Performed("Bucky", moment("2016-07-25 20:00"))],
        hiatus=False,
    )
    assert "at least 12 hours 30 minutes after your last" in verdict.message
    assert verdict.next_allowed_at == moment("2016-07-26 08:30")


def test_action_spec_rejects_unknown_frequency_and_zero_cap():
    """A declaration that cannot be enforced is a configuration error."""
    with pytest.raises(ValueError):
        ActionSpec("Dig", "hourly")
    with pytest.raises(ValueError):
        ActionSpec("Dig", "daily", weekly_cap=0)
