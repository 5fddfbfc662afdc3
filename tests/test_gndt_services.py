"""GNDT writes: typed updates with their log, undo, lost-update protection, dice, declared actions, hidden
columns, managing the table, word lists and the start of a new dynasty."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest

from dynasties.models import Dynasty
from gndt import dice
from gndt.models import Action, Cell, CellChange, Column, RandomListVersion, Row, Update
from gndt.selectors import dynasty_is_archived, gndt_table_as_of, random_lists_for
from gndt.services import (
    GndtError,
    gndt_action_retire,
    gndt_action_save,
    gndt_column_add,
    gndt_column_edit,
    gndt_column_retire,
    gndt_list_set,
    gndt_row_add,
    gndt_row_retire,
    gndt_rows_add_missing_players,
    gndt_start_dynasty,
    gndt_undo,
    gndt_update,
)
from gndt.services.common import NOT_AN_ADMIN
from gndt.services.updates import ALREADY_UNDONE, NOTHING_TO_DO, UNKNOWN_ACTION
from tests.factories import T0, make_dynasty, make_idle, make_player, make_spectator
from tests.gndt.builders import current_values, make_gndt, update, value
from votes.posting import post_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db):
    return make_gndt(T0)


@pytest.fixture
def fixed_dice(monkeypatch):
    """Dice rolled from a seeded generator, so a test can say what was rolled."""
    monkeypatch.setattr(dice, "SYSTEM_RNG", random.Random(5))


def assert_nothing_written(game, before_values, before_updates):
    assert current_values(game.dynasty) == before_values
    assert Update.objects.count() == before_updates


def refused(game, by, changes, *, now, seen=None, comment="", action=None) -> str:
    """Run an update that must be refused; check nothing was written and return the message."""
    before_values, before_updates = current_values(game.dynasty), Update.objects.count()
    if seen is None:
        seen = {key: current_values(game.dynasty).get(key, "") for key in changes}
    with pytest.raises(GndtError) as error:
        gndt_update(dynasty=game.dynasty, by=by, changes=changes, seen=seen, comment=comment, action=action, now=now)
    assert_nothing_written(game, before_values, before_updates)
    return str(error.value)


# --- Updates and the log ---------------------------------------------------------------------------------


def test_any_player_may_update_any_players_data_and_it_is_logged(game, t0):
    """“Any Player may update any Player's data via the GNDT … All updates to the GNDT are logged”: P03
    changes P04's Money and the Pot's; the update records who, when, the comment, each old and new value."""
    p03 = game.player("P03")
    result = update(game, p03, {("P04", "Money"): "250", ("The Pot", "Money"): "50"}, now=t0, comment="P04 antes 50")
    assert value(game, "P04", "Money") == "250" and value(game, "The Pot", "Money") == "50"
    assert (result.by, result.at, result.comment, result.source) == (p03, t0, "P04 antes 50", Update.PLAYER)
    changes = {(c.row.name, c.column.name): (c.old, c.new) for c in result.changes.select_related("row", "column")}
    assert changes == {("P04", "Money"): ("300", "250"), ("The Pot", "Money"): ("0", "50")}


def test_values_are_stored_in_their_canonical_form(game, t0):
    """A choice matches in any case and is stored in the choice's spelling; list items join with ', '."""
    update(
        game,
        game.player("P03"),
        {("P03", "Poker Table"): "button", ("P03", "Items"): "Gun ,Sword,, Rope"},
        now=t0,
    )
    assert value(game, "P03", "Poker Table") == "Button"
    assert value(game, "P03", "Items") == "Gun, Sword, Rope"


def test_thalers_are_clamped_to_their_bounds(game, t0):
    """Ruleset 21 holds Thalers to 0..200: 250 is stored as 200 and -5 as 0, rather than refused."""
    update(game, game.player("P03"), {("P03", "Thalers"): "250", ("P04", "Thalers"): "-5"}, now=t0)
    assert value(game, "P03", "Thalers") == "200" and value(game, "P04", "Thalers") == "0"


def test_pieces_may_go_negative(game, t0):
    """Ruleset 142's Pieces may go negative (Ruin); a column that does not allow it refuses."""
    update(game, game.player("P03"), {("P03", "Pieces"): "-4"}, now=t0)
    assert value(game, "P03", "Pieces") == "-4"
    message = refused(game, game.player("P03"), {("P03", "Money"): "-4"}, now=t0)
    assert message == "P03: Money may not be negative; got '-4'."


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({("P03", "Money"): "lots"}, "P03: Money must be a whole number; got 'lots'."),
        ({("P03", "Poker Table"): "Seated"}, "P03: Poker Table must be one of Button, Yes, -; got 'Seated'."),
        (
            {("P03", "Forced Hand"): "Nobody"},
            "P03: Forced Hand must be the name of a player or one of -; got 'Nobody'.",
        ),
        ({("P03", "Gold"): "5"}, "There is no column “Gold” in the GNDT."),
        ({("Outcasts", "Money"): "5"}, "There is no row “Outcasts” in the GNDT."),
        ({("P03", "Money"): "1\n2"}, "P03: Money must fit on one line."),
    ],
    ids=["wrong-kind", "choice-not-allowed", "not-a-player", "unknown-column", "unknown-row", "two-lines"],
)
def test_bad_values_are_refused_with_a_message_naming_the_cell(game, t0, changes, expected):
    """A value of the wrong kind, a choice not allowed, an unknown row or column: refused, nothing written."""
    assert refused(game, game.player("P03"), changes, now=t0) == expected


def test_every_problem_of_an_update_is_reported_at_once(game, t0):
    """One good cell and two bad ones: both problems are named and even the good cell is not written."""
    message = refused(
        game,
        game.player("P03"),
        {("P03", "Money"): "10", ("P04", "Money"): "x", ("P05", "Poker Table"): "Maybe"},
        now=t0,
    )
    assert "P04: Money must be a whole number" in message and "P05: Poker Table must be one of" in message


def test_a_player_column_takes_an_active_players_name(game, t0):
    """Ruleset 52's Forced Hand is '-' or the name of any active player; the stored name takes the player's
    spelling."""
    update(game, game.player("P03"), {("P03", "Forced Hand"): "p05"}, now=t0)
    assert value(game, "P03", "Forced Hand") == "P05"


def test_spectators_and_idle_players_may_not_update(game, t0):
    """Only active players update the GNDT: a spectator and an idle player are refused."""
    spectator = make_spectator("Spectator")
    make_idle(game.player("P05"), since=t0 - timedelta(days=1))
    for user in (spectator, game.player("P05")):
        assert refused(game, user, {("P03", "Money"): "1"}, now=t0) == "Only active players may update the GNDT."


def test_an_update_without_changes_or_comment_is_refused(game, t0):
    """An empty update is not logged."""
    with pytest.raises(GndtError, match=NOTHING_TO_DO):
        gndt_update(dynasty=game.dynasty, by=game.player("P03"), changes={}, seen={}, comment="  ", now=t0)


def test_a_comment_alone_is_logged(game, t0):
    """A comment with no changes is an update of its own (players announce actions and roll dice this way)."""
    result = gndt_update(
        dynasty=game.dynasty,
        by=game.player("P03"),
        changes={},
        seen={},
        comment="HAND#3 ROUND1 check",
        now=t0,
    )
    assert result.comment == "HAND#3 ROUND1 check" and not result.changes.exists()


def test_setting_a_cell_to_its_own_value_writes_no_change(game, t0):
    """A value that is already there is not logged as a change; alone and without comment it is refused."""
    message = refused(game, game.player("P03"), {("P03", "Money"): "300"}, now=t0)
    assert message == "Every value given is already in the table; change something or write a comment."


# --- No lost updates -------------------------------------------------------------------------------------


def test_an_edit_based_on_a_stale_value_is_refused_and_says_what_changed(game, t0):
    """Two players load the table; the first changes P03's Money; the second's edit carries the value it saw,
    is refused, says what the cell holds now and who changed it, and overwrites nothing."""
    seen = {("P03", "Money"): "300"}
    gndt_update(dynasty=game.dynasty, by=game.player("P04"), changes={("P03", "Money"): "280"}, seen=seen, now=t0)
    message = refused(game, game.player("P05"), {("P03", "Money"): "350"}, seen=seen, now=t0 + timedelta(minutes=1))
    assert message.startswith("Nothing was saved: the table changed after you loaded it.")
    assert "P03’s Money is now “280”, not “300” as you saw it (changed by P04 in update #" in message
    assert value(game, "P03", "Money") == "280"


def test_a_change_based_on_another_cell_is_checked_against_that_cell_too(game, t0):
    """Moving the Pot to a winner: the editor saw the Pot at 50; if it has changed, the move is refused."""
    update(game, game.player("P03"), {("The Pot", "Money"): "50"}, now=t0)
    update(game, game.player("P04"), {("The Pot", "Money"): "70"}, now=t0 + timedelta(minutes=1))
    message = refused(
        game,
        game.player("P05"),
        {("P05", "Money"): "350"},
        seen={("P05", "Money"): "300", ("The Pot", "Money"): "50"},
        now=t0 + timedelta(minutes=2),
    )
    assert "The Pot’s Money is now “70”, not “50”" in message


def test_an_edit_without_the_value_seen_is_refused(game, t0):
    """Every changed cell must carry the value its editor saw; without it nothing can be checked."""
    message = refused(game, game.player("P03"), {("P03", "Money"): "1"}, seen={}, now=t0)
    assert message == (
        "P03’s Money: the value you saw was not sent, so the change cannot be checked; reload and try again."
    )


# --- Undo ------------------------------------------------------------------------------------------------


def test_undo_restores_the_old_values_as_a_new_update(game, t0):
    """“If a Player feels that an alteration goes against the Rules … he may simply undo the effects of that
    alteration”: the undo is a new update pointing back, and the original stays in the log."""
    original = update(game, game.player("P03"), {("P03", "Money"): "900", ("P03", "Pieces"): "12"}, now=t0)
    undo = gndt_undo(update=original, by=game.player("P04"), now=t0 + timedelta(hours=1))
    assert value(game, "P03", "Money") == "300" and value(game, "P03", "Pieces") == "8"
    assert (undo.undoes, undo.by, undo.source, undo.comment) == (
        original,
        game.player("P04"),
        Update.UNDO,
        f"Undo of update #{original.pk}",
    )
    assert sorted((c.old, c.new) for c in undo.changes.all()) == [("12", "8"), ("900", "300")]
    assert Update.objects.filter(pk=original.pk).exists()


def test_undo_is_refused_when_a_cell_changed_since(game, t0):
    """If any cell the update changed has changed again, the undo is refused and names the cell and who."""
    original = update(game, game.player("P03"), {("P03", "Money"): "900"}, now=t0)
    update(game, game.player("P05"), {("P03", "Money"): "850"}, now=t0 + timedelta(minutes=5))
    with pytest.raises(GndtError) as error:
        gndt_undo(update=original, by=game.player("P04"), now=t0 + timedelta(hours=1))
    message = str(error.value)
    assert message.startswith(
        f"Update #{original.pk} cannot be undone: P03’s Money has changed since "
        f"(it is now “850”; update #{original.pk} set it to “900”; changed by P05"
    )
    assert value(game, "P03", "Money") == "850"


def test_an_update_is_undone_once_and_an_undo_can_itself_be_undone(game, t0):
    """A second undo of the same update is refused; undoing the undo brings the change back."""
    original = update(game, game.player("P03"), {("P03", "Money"): "900"}, now=t0)
    undo = gndt_undo(update=original, by=game.player("P04"), now=t0 + timedelta(hours=1))
    with pytest.raises(GndtError, match=re.escape(ALREADY_UNDONE.format(pk=original.pk, by=undo.pk))):
        gndt_undo(update=original, by=game.player("P05"), now=t0 + timedelta(hours=2))
    gndt_undo(update=undo, by=game.player("P03"), now=t0 + timedelta(hours=3))
    assert value(game, "P03", "Money") == "900"


def test_only_those_who_see_hidden_columns_may_undo_changes_to_them(game, t0):
    """The Emperor's secret change cannot be undone by a player who cannot see it."""
    secret = update(game, game.emperor, {("P04", "Role"): "Werewolf"}, now=t0)
    with pytest.raises(GndtError, match=f"There is no update #{secret.pk} for you to undo"):
        gndt_undo(update=secret, by=game.player("P03"), now=t0 + timedelta(hours=1))
    gndt_undo(update=secret, by=game.admin, now=t0 + timedelta(hours=1))
    assert value(game, "P04", "Role") == "Villager"


# --- Hidden columns --------------------------------------------------------------------------------------


def test_hidden_columns_are_unknown_to_players_and_open_to_the_emperor(game, t0):
    """Secret roles the Mayor tracks privately (Ruleset 50): a player cannot change Role; the Emperor can."""
    assert refused(game, game.player("P03"), {("P03", "Role"): "Seer"}, now=t0) == (
        "There is no column “Role” in the GNDT."
    )
    update(game, game.emperor, {("P03", "Role"): "Seer"}, now=t0)
    assert value(game, "P03", "Role") == "Seer"


# --- Dice and random draws -------------------------------------------------------------------------------


def test_dice_in_the_comment_are_rolled_and_stored_with_the_update(game, t0, fixed_dice):
    """“To roll dice, post DICEX in the comments field of the GNDT”: results are stored with the update."""
    result = update(
        game,
        game.player("P03"),
        {("P03", "Money"): "290"},
        now=t0,
        comment="Slots: DICE10 DICE10 DICE10, then 2DICE6 and a FRUIT",
    )
    assert [roll["token"] for roll in result.rolls] == ["DICE10", "DICE10", "DICE10", "2DICE6", "FRUIT"]
    for roll in result.rolls[:3]:
        assert 1 <= roll["results"][0] <= 10 and roll["text"] == f"DICE10: {roll['results'][0]}"
    assert len(result.rolls[3]["results"]) == 2 and result.rolls[3]["total"] == sum(result.rolls[3]["results"])
    assert result.rolls[4]["pick"] in dice.DEFAULT_LISTS["FRUIT"]
    assert Update.objects.get(pk=result.pk).rolls == result.rolls


def test_a_die_with_no_sides_rolls_zero(game, t0):
    """“Any situation which would require a roll of DiceX when X is zero or lower always yields a value
    of 0”."""
    result = update(game, game.player("P03"), {}, now=t0, comment="Plunder: DICE0")
    assert result.rolls[0]["results"] == [0] and result.rolls[0]["text"] == "DICE0: 0"


def test_absurd_dice_are_refused_and_nothing_is_written(game, t0):
    """A thousand dice or a die of ten million sides is refused with a message naming the token."""
    assert refused(game, game.player("P03"), {("P03", "Money"): "1"}, now=t0, comment="1000DICE6") == (
        "1000DICE6: at most 100 dice may be rolled at once."
    )
    assert refused(game, game.player("P03"), {}, now=t0, comment="DICE10000000") == (
        "DICE10000000: a die may have at most 1,000,000 sides."
    )


def test_admins_change_the_word_lists_and_every_version_is_kept(game, t0, monkeypatch):
    """A proposal changes FRUIT's outcomes; the admin records the new list; draws use it from then on; COLOR
    still draws from COLOUR; a dynasty's own list wins over the game's."""
    gndt_list_set(dynasty=None, name="FRUIT", entries=["Durian"], by=game.admin, now=t0, note="Proposal: Durian")
    result = update(game, game.player("P03"), {}, now=t0 + timedelta(minutes=1), comment="FRUIT COLOR")
    assert result.rolls[0]["pick"] == "Durian" and result.rolls[1]["kind"] == "COLOUR"
    gndt_list_set(
        dynasty=game.dynasty,
        name="fruit",
        entries=["Lime", " Fig "],
        by=game.admin,
        now=t0 + timedelta(hours=1),
    )
    assert random_lists_for(game.dynasty)["FRUIT"] == ("Lime", "Fig")
    assert random_lists_for(None)["FRUIT"] == ("Durian",)
    gndt_list_set(dynasty=game.dynasty, name="VEGGIE", by=game.admin, now=t0 + timedelta(hours=2), removed=True)
    assert "VEGGIE" not in random_lists_for(game.dynasty)
    plain = update(game, game.player("P03"), {}, now=t0 + timedelta(hours=3), comment="VEGGIE patch")
    assert plain.rolls == []
    versions = RandomListVersion.objects.order_by("at")
    assert [(v.name, v.by, v.note) for v in versions][:1] == [("FRUIT", game.admin, "Proposal: Durian")]
    assert versions.count() == 3


@pytest.mark.parametrize(
    ("name", "entries", "message"),
    [
        ("fruit salad", ["x"], "A list name is the token players type"),
        ("DICEY", ["x"], "DICEY would be read as a dice roll"),
        ("COLOR", ["x"], "COLOR is another spelling of COLOUR; change COLOUR instead."),
        ("FRUIT", [], "The FRUIT list needs at least one entry; remove the list instead."),
        ("FRUIT", list(dice.DEFAULT_LISTS["FRUIT"]), "The FRUIT list already has exactly those entries."),
    ],
)
def test_bad_word_lists_are_refused(game, t0, name, entries, message):
    with pytest.raises(GndtError, match=message):
        gndt_list_set(dynasty=None, name=name, entries=entries, by=game.admin, now=t0)
    assert not RandomListVersion.objects.exists()


def test_only_admins_change_word_lists(game, t0):
    with pytest.raises(GndtError, match=NOT_AN_ADMIN.format(what="change the random lists")):
        gndt_list_set(dynasty=None, name="FRUIT", entries=["Fig"], by=game.player("P03"), now=t0)


# --- Declared actions ------------------------------------------------------------------------------------


def test_a_daily_action_twice_in_a_day_is_refused_naming_the_rule_and_the_next_time(game, t0):
    """2016: once per day and at least 10 hours apart. A refused try names the action, the reason and when it
    is next allowed, and writes nothing."""
    gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Buy a Map", frequency="daily")
    p03 = game.player("P03")
    update(game, p03, {("P03", "Pieces"): "7"}, now=t0, action="Buy a Map", comment="DICE3")
    message = refused(game, p03, {("P03", "Pieces"): "6"}, now=t0 + timedelta(hours=2), action="Buy a Map")
    assert message == (
        "Buy a Map is a daily action: you already did it today (at 12:00 UTC); next allowed from "
        "00:00 UTC on 26 Jul 2016."
    )
    evening = t0 + timedelta(days=1, hours=8)
    update(game, p03, {("P03", "Pieces"): "6"}, now=evening, action="Buy a Map")
    message = refused(game, p03, {("P03", "Pieces"): "5"}, now=evening + timedelta(hours=5), action="Buy a Map")
    assert message == (
        "Buy a Map is a daily action: it must be at least 10 hours after your last (at 20:00 UTC "
        "on 26 Jul); next allowed from 06:00 UTC on 27 Jul 2016."
    )
    update(game, p03, {("P03", "Pieces"): "5"}, now=evening + timedelta(hours=10), action="Buy a Map")
    assert Update.objects.filter(action__name="Buy a Map").count() == 3


def test_a_daily_action_capped_weekly(game, t0):
    """Ruleset 142's daily action allowed at most three times a week: the fourth in a week is refused."""
    gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Dig", frequency="daily", weekly_cap=3)
    p03 = game.player("P03")
    for day in range(3):
        update(game, p03, {}, now=t0 + timedelta(days=day), action="Dig", comment=f"dig {day}")
    message = refused(game, p03, {}, now=t0 + timedelta(days=3), action="Dig", comment="dig again")
    assert "you have already done it 3 times this week (at most 3 a week)" in message
    assert "next allowed from 00:00 UTC on 1 Aug 2016" in message


def test_a_communal_action_allows_one_player_per_day(game, t0):
    """A daily communal action: once one player has done it today, another is refused, naming who did."""
    gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Ring the Bell", frequency="daily_communal")
    update(game, game.player("P03"), {}, now=t0, action="Ring the Bell", comment="ding")
    message = refused(game, game.player("P04"), {}, now=t0 + timedelta(hours=1), action="Ring the Bell", comment="dong")
    assert "another player (P03) already did it today" in message


def test_dynastic_actions_are_refused_during_hiatus(game, t0):
    """A pending Declaration of Victory puts the game in hiatus: declared actions are refused; plain updates
    (corrections) still go through."""
    gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Dig", frequency="daily")
    post_create(author=game.player("P04"), kind="dov", title="Declaration of Victory: Me", now=t0)
    message = refused(game, game.player("P03"), {}, now=t0 + timedelta(hours=1), action="Dig", comment="dig")
    assert message == "The game is in hiatus: dynastic actions are not allowed."
    update(game, game.player("P03"), {("P03", "Money"): "1"}, now=t0 + timedelta(hours=1))


def test_an_unknown_or_removed_action_is_refused(game, t0):
    action = gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Dig", frequency="weekly")
    gndt_action_retire(action=action, by=game.admin, now=t0)
    message = refused(game, game.player("P03"), {}, now=t0, action="Dig", comment="dig")
    assert message == UNKNOWN_ACTION.format(action="Dig")


def test_bad_action_definitions_are_refused(game, t0):
    with pytest.raises(GndtError, match="a weekly cap must be at least 1"):
        gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Dig", frequency="daily", weekly_cap=0)
    with pytest.raises(GndtError, match="Unknown frequency 'hourly'"):
        gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Dig", frequency="hourly")
    assert not Action.objects.exists()


# --- Managing columns and rows ---------------------------------------------------------------------------


def test_a_new_column_gives_every_row_its_starting_value_and_is_logged(game, t0):
    """Adding Courage ('-' or 'Yellow', default '-') fills every row and logs each starting value."""
    column = gndt_column_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        name="Courage",
        kind="choice",
        choices=["-", "Yellow"],
        default="-",
    )
    rows = Row.objects.filter(dynasty=game.dynasty).count()
    assert set(Cell.objects.filter(column=column).values_list("value", flat=True)) == {"-"}
    assert CellChange.objects.filter(column=column).count() == rows
    assert Update.objects.filter(comment="Added the column Courage", source=Update.ADMIN).exists()


def test_a_column_with_contradictory_rules_or_a_bad_default_is_refused(game, t0):
    with pytest.raises(GndtError, match="Column “Heat”: the default is not allowed: Heat may not exceed 5"):
        gndt_column_add(
            dynasty=game.dynasty, by=game.admin, now=t0, name="Heat", kind="integer", maximum=5, default="9"
        )
    with pytest.raises(GndtError, match="Choice column 'Mood' needs at least one choice"):
        gndt_column_add(dynasty=game.dynasty, by=game.admin, now=t0, name="Mood", kind="choice")
    with pytest.raises(GndtError, match="There is already a column called “Money”"):
        gndt_column_add(dynasty=game.dynasty, by=game.admin, now=t0, name="Money", kind="integer")
    with pytest.raises(GndtError, match=NOT_AN_ADMIN.format(what="add GNDT columns")):
        gndt_column_add(dynasty=game.dynasty, by=game.player("P03"), now=t0, name="Heat")
    assert not Column.objects.filter(name__in=["Heat", "Mood"]).exists()


def test_changing_a_columns_rules_is_logged_and_keeps_values(game, t0):
    column = Column.objects.get(dynasty=game.dynasty, name="Money")
    gndt_column_edit(column=column, by=game.admin, now=t0, maximum=1000, name="Cash")
    assert value(game, "P03", "Cash") == "300"
    assert Update.objects.filter(comment__startswith="Changed the column Cash: name: Money → Cash").exists()
    message = refused(game, game.player("P03"), {("P03", "Cash"): "1001"}, now=t0)
    assert message == "P03: Cash may not exceed 1000; got '1001'."


def test_removed_rows_and_columns_leave_the_table_but_not_the_log(game, t0):
    """A settled side pot is removed; its row can no longer be updated, and its history stays."""
    side = gndt_row_add(dynasty=game.dynasty, by=game.admin, now=t0, name="SidePot1")
    update(game, game.player("P03"), {("SidePot1", "Money"): "40"}, now=t0)
    gndt_row_retire(row=side, by=game.admin, now=t0 + timedelta(hours=1))
    gndt_column_retire(column=Column.objects.get(name="Items"), by=game.admin, now=t0 + timedelta(hours=1))
    assert refused(game, game.player("P03"), {("SidePot1", "Money"): "0"}, now=t0 + timedelta(hours=2)) == (
        "There is no row “SidePot1” in the GNDT."
    )
    assert CellChange.objects.filter(row=side).exists()
    then = gndt_table_as_of(game.dynasty, t0 + timedelta(minutes=30), viewer=game.player("P03"))
    assert "SidePot1" in [entry.row.name for entry in then.other_rows]
    assert "Items" in [column.name for column in then.columns]


def test_codename_rows_that_are_not_players(game, t0):
    """Rows that are not players: codenames starting with ':' and the :PROTO row (2015 ruleset)."""
    for name in (":PROTO", ":NIGHTSHADE"):
        gndt_row_add(dynasty=game.dynasty, by=game.admin, now=t0, name=name)
    assert value(game, ":PROTO", "Money") == "0", "a row that is not a player ignores the players' default"
    with pytest.raises(GndtError, match="There is already a row called “:PROTO”"):
        gndt_row_add(dynasty=game.dynasty, by=game.admin, now=t0, name=":PROTO")


def test_players_who_join_later_get_rows_when_an_admin_adds_them(game, t0):
    """“An Admin shall add them to the roster in the sidebar and the GNDT”: rows of starting values."""
    newcomer = make_player("Seventy-Fifth Trombone", joined_at=t0)
    rows = gndt_rows_add_missing_players(dynasty=game.dynasty, by=game.admin, now=t0 + timedelta(minutes=1))
    assert [row.name for row in rows] == ["Seventy-Fifth Trombone"] and rows[0].user == newcomer
    assert value(game, "Seventy-Fifth Trombone", "Thalers") == "200"
    assert gndt_rows_add_missing_players(dynasty=game.dynasty, by=game.admin, now=t0) == []


# --- History and dynasties -------------------------------------------------------------------------------


def test_the_table_as_it_stood_at_any_past_moment(game, t0):
    """Replaying the log backwards from today's values gives the table at each earlier moment."""
    p03 = game.player("P03")
    update(game, p03, {("P03", "Money"): "250"}, now=t0)
    update(game, p03, {("P03", "Money"): "200", ("P04", "Money"): "10"}, now=t0 + timedelta(hours=1))
    update(game, p03, {("P03", "Money"): "150"}, now=t0 + timedelta(hours=2))

    def money_at(moment):
        table = gndt_table_as_of(game.dynasty, moment, viewer=p03)
        index = [c.name for c in table.columns].index("Money")
        return {entry.row.name: entry.cells[index].value for entry in table.all_rows}

    assert money_at(t0 - timedelta(minutes=1))["P03"] == "300"
    assert money_at(t0)["P03"] == "250"
    between = money_at(t0 + timedelta(minutes=90))
    assert (between["P03"], between["P04"]) == ("200", "10")
    assert money_at(t0 + timedelta(hours=3))["P03"] == "150"


def test_a_new_dynasty_starts_a_fresh_table_and_archives_the_old(game, t0):
    """“When a Dynasty has been won, all Families' GNDT stats are reset”: the kept columns start again from
    their defaults for every active player; the old table is read-only."""
    update(game, game.player("P03"), {("P03", "Money"): "5"}, now=t0)
    make_idle(game.player("P05"), since=t0)
    old = game.dynasty
    Dynasty.objects.filter(pk=old.pk).update(ended_at=t0 + timedelta(days=1))
    old.refresh_from_db()
    new = make_dynasty(emperor=game.player("P03"), started_at=t0 + timedelta(days=1), number=2)
    later = t0 + timedelta(days=1, hours=1)
    start_update = gndt_start_dynasty(
        old_dynasty=old, new_dynasty=new, keep_columns=["Money", "Role"], now=later, by=game.admin
    )
    assert list(Column.objects.filter(dynasty=new).values_list("name", "hidden")) == [
        ("Money", False),
        ("Role", True),
    ]
    assert sorted(Row.objects.filter(dynasty=new).values_list("name", flat=True)) == [
        "P01",
        "P02",
        "P03",
        "P04",
    ]
    assert value(new, "P03", "Money") == "300" and value(new, "P04", "Role") == "Villager"
    assert start_update.changes.count() == 8
    assert dynasty_is_archived(old)
    with pytest.raises(GndtError, match="has ended: its GNDT is archived and read-only"):
        update(game, game.player("P03"), {("P03", "Money"): "6"}, now=later)
    with pytest.raises(GndtError, match="already has a GNDT"):
        gndt_start_dynasty(old_dynasty=old, new_dynasty=new, keep_columns=[], now=later)


def test_starting_a_dynasty_with_an_unknown_column_writes_nothing(game, t0):
    new = make_dynasty(emperor=game.player("P03"), started_at=t0, number=2)
    with pytest.raises(GndtError, match="has no column “Gold” to keep"):
        gndt_start_dynasty(old_dynasty=game.dynasty, new_dynasty=new, keep_columns=["Money", "Gold"], now=t0)
    assert not Column.objects.filter(dynasty=new).exists() and not Row.objects.filter(dynasty=new).exists()


def test_a_player_who_joined_before_the_ascension_address_keeps_their_row(game, t0):
    """A player who joins between the Declaration of Victory and the Ascension Address already has a row in
    the new dynasty; starting the new table keeps it and gives it the starting values."""
    from gndt.roster import gndt_player_joined

    new = make_dynasty(emperor=game.player("P03"), started_at=t0, number=2)
    newcomer = make_player("Prince Anduril", joined_at=t0)
    gndt_player_joined(dynasty=new, user=newcomer, now=t0 + timedelta(minutes=1))
    gndt_start_dynasty(old_dynasty=game.dynasty, new_dynasty=new, keep_columns=["Money"], now=t0 + timedelta(minutes=2))
    assert value(new, "Prince Anduril", "Money") == "300"
    assert Row.objects.filter(dynasty=new, user=newcomer).count() == 1
    assert Row.objects.filter(dynasty=new).count() == 6
