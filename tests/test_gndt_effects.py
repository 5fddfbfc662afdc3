"""Scheduled GNDT effects: applied by beat once per day or week, even when beat runs twice or late; logged
like any update; the management command and the Celery task wrap the same service."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command

from gndt.models import Column, EffectRun, Row, Update
from gndt.services import GndtError, gndt_column_add, gndt_effect_save, gndt_effects_apply_due, gndt_row_add, gndt_undo
from gndt.tasks import apply_scheduled_effects
from tests.factories import T0
from tests.gndt.builders import make_gndt, update, value
from votes.posting import post_create

pytestmark = pytest.mark.django_db


def build_game():
    """Monday 25 July 2016, noon: a Year row that turns every midnight and a Treasure per player."""
    game = make_gndt(T0)
    gndt_column_add(dynasty=game.dynasty, by=game.admin, now=T0, name="Year", kind="integer", default="1200")
    gndt_column_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=T0,
        name="Treasure",
        kind="integer",
        minimum=1,
        maximum=20,
        default="9",
    )
    gndt_row_add(dynasty=game.dynasty, by=game.admin, now=T0, name="The Empire")
    return game


@pytest.fixture
def game(db):
    return build_game()


@pytest.fixture
def year_turns(game, t0):
    """Ruleset 21's Year advances by 10 every midnight (here: the Empire row's Year)."""
    return gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        name="The Year turns",
        target="row",
        row=Row.objects.get(name="The Empire"),
        column=Column.objects.get(name="Year"),
        delta=10,
    )


def at(t0, days=0, hours=0, minutes=0):
    """A moment counted from the midnight after ``t0`` (Tuesday 26 July 2016 00:00 UTC)."""
    midnight = t0.replace(hour=0, minute=0) + timedelta(days=1)
    return midnight + timedelta(days=days, hours=hours, minutes=minutes)


def test_a_daily_effect_applies_once_per_day_however_often_beat_runs(game, t0, year_turns):
    """Beat runs at 00:05, 00:06 and 23:59: the Year turns once; the next midnight it turns again."""
    assert value(game, "The Empire", "Year") == "0"
    report = gndt_effects_apply_due(now=at(t0, minutes=5))
    assert [(o.effect, o.period, o.outcome) for o in report.outcomes] == [("The Year turns", "2016-07-26", "applied")]
    assert value(game, "The Empire", "Year") == "10"
    assert gndt_effects_apply_due(now=at(t0, minutes=6)).outcomes == []
    assert gndt_effects_apply_due(now=at(t0, hours=23, minutes=59)).outcomes == []
    gndt_effects_apply_due(now=at(t0, days=1, minutes=1))
    assert value(game, "The Empire", "Year") == "20"
    assert list(EffectRun.objects.order_by("at").values_list("period_key", flat=True)) == [
        "2016-07-26",
        "2016-07-27",
    ]


def test_an_effect_is_logged_like_any_update_and_can_be_undone(game, t0, year_turns):
    """The log shows the effect's update, by no player, with the old and new value; players may undo it."""
    gndt_effects_apply_due(now=at(t0, minutes=5))
    logged = Update.objects.get(source=Update.EFFECT)
    assert logged.by is None
    assert logged.comment == ("The Year turns: every day at 00:00 UTC add 10 to Year of The Empire (period 2016-07-26)")
    assert [(c.old, c.new) for c in logged.changes.all()] == [("0", "10")]
    gndt_undo(update=logged, by=game.player("P03"), now=at(t0, minutes=10))
    assert value(game, "The Empire", "Year") == "0"


def test_a_late_run_applies_the_period_once_and_notes_what_was_missed(game, t0, year_turns):
    """Beat was stopped for three days: the next run applies today's period only and records the missed
    ones, so the Year does not jump by 40 at once."""
    gndt_effects_apply_due(now=at(t0, minutes=1))
    report = gndt_effects_apply_due(now=at(t0, days=3, hours=7))
    assert value(game, "The Empire", "Year") == "20"
    assert report.outcomes[0].note == "Missed while the scheduler was not running: 2016-07-27, 2016-07-28."


def test_a_weekly_effect_with_a_limit(game, t0):
    """“Every Monday add 1 to Treasure, at most 10”: 9 becomes 10, 10 stays 10, and a Treasure already above
    the limit (12, set by a player) is never pulled back."""
    gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        name="Treasure grows",
        target="players",
        column=Column.objects.get(name="Treasure"),
        delta=1,
        at_most=10,
        weekday=0,
    )
    update(game, game.player("P04"), {("P04", "Treasure"): "10", ("P05", "Treasure"): "12"}, now=t0)
    assert gndt_effects_apply_due(now=at(t0, days=2)).outcomes == [], "Monday 25 July passed before it existed"
    next_monday = datetime(2016, 8, 1, 0, 30, tzinfo=t0.tzinfo)
    report = gndt_effects_apply_due(now=next_monday)
    assert report.outcomes[0].period == "2016-W31"
    assert [value(game, name, "Treasure") for name in ("P01", "P03", "P04", "P05")] == [
        "10",
        "10",
        "10",
        "12",
    ]
    assert value(game, "The Pot", "Treasure") == "1", "only players' rows are changed"
    assert gndt_effects_apply_due(now=next_monday + timedelta(days=3)).outcomes == []


def test_a_dry_run_says_what_would_change_and_writes_nothing(game, t0, year_turns):
    report = gndt_effects_apply_due(now=at(t0, minutes=5), dry_run=True)
    assert report.outcomes[0].changes == [("The Empire", "0", "10")]
    assert str(report) == "The Year turns (2016-07-26): applied — The Empire “0” → “10”"
    assert value(game, "The Empire", "Year") == "0"
    assert not EffectRun.objects.exists() and not Update.objects.filter(source=Update.EFFECT).exists()


def test_during_hiatus_the_period_is_skipped_and_recorded(game, t0, year_turns):
    """While a Declaration of Victory is pending the game is in hiatus: the Year does not turn that day."""
    post_create(author=game.player("P03"), kind="dov", title="Declaration of Victory: P03", now=t0)
    report = gndt_effects_apply_due(now=at(t0, minutes=5))
    assert report.outcomes[0].outcome == "skipped"
    assert value(game, "The Empire", "Year") == "0"
    assert EffectRun.objects.get().note.startswith("The game was in hiatus")


def test_rows_the_effect_cannot_change_are_named(game, t0):
    """Subtracting 5 from a Treasure of at least 1 that does not clamp: rows that would go below are left
    alone and named in the run's note; the others change."""
    gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        name="Decay",
        target="players",
        column=Column.objects.get(name="Treasure"),
        delta=-5,
    )
    update(game, game.player("P03"), {("P03", "Treasure"): "3"}, now=t0)
    report = gndt_effects_apply_due(now=at(t0, minutes=5))
    assert value(game, "P03", "Treasure") == "3" and value(game, "P04", "Treasure") == "4"
    assert "Not applied to P03: Treasure may not be less than 1; got '-2'." in report.outcomes[0].note


def test_an_effect_needs_a_whole_number_column_and_its_row(game, t0):
    with pytest.raises(GndtError, match="a whole-number column; “Items” is list"):
        gndt_effect_save(
            dynasty=game.dynasty,
            by=game.admin,
            now=t0,
            name="Bad",
            column=Column.objects.get(name="Items"),
            delta=1,
        )
    with pytest.raises(GndtError, match="Choose the row the effect changes"):
        gndt_effect_save(
            dynasty=game.dynasty,
            by=game.admin,
            now=t0,
            name="Bad",
            target="row",
            column=Column.objects.get(name="Year"),
            delta=1,
        )
    with pytest.raises(GndtError, match="Not a time of day: 25:00"):
        gndt_effect_save(
            dynasty=game.dynasty,
            by=game.admin,
            now=t0,
            name="Bad",
            hour=25,
            column=Column.objects.get(name="Year"),
            delta=1,
        )


def test_the_command_and_the_task_run_the_same_service(game, t0, year_turns, capsys):
    """``apply_gndt_effects --dry-run`` prints what would happen; the Celery task then applies it once."""
    with time_machine.travel(at(t0, minutes=5), tick=False):
        call_command("apply_gndt_effects", "--dry-run")
        assert "Would do:\nThe Year turns (2016-07-26): applied" in capsys.readouterr().out
        assert value(game, "The Empire", "Year") == "0"
        result = apply_scheduled_effects.delay().get()
        assert result.startswith("The Year turns (2016-07-26): applied")
        call_command("apply_gndt_effects")
        assert capsys.readouterr().out.strip() == "No scheduled effect is due."
    assert value(game, "The Empire", "Year") == "10"
