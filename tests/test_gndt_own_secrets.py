"""Secrets a player sees alone: a hidden GNDT column marked owner-visible shows each player the value in their
own row, and nothing else of it; admins and the Emperor see all of it; a visitor learns nothing of it.

2008's Werewolves (Ruleset 50) kept each Villager's role secret from the others, known to the Mayor and to the
Villager: “The Mayor shall alert these Villagers to their affliction via email or some other means.” The site
keeps such a role in the GNDT instead, and every way in is checked: the table now and in the past, sorting,
CSV, the log and its filters, update permalinks, undo, the edit form and the inline editor, effects, search,
the API and the archive.
"""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from blognomic.moving.archive.fields import ArchiveError
from blognomic.moving.archive.gndt_export import export_gndt
from blognomic.moving.archive.gndt_import import import_gndt
from gndt.models import CellChange, Column, Row, Update
from gndt.services import (
    GndtError,
    gndt_column_add,
    gndt_column_edit,
    gndt_effect_save,
    gndt_effects_apply_due,
    gndt_undo,
)
from gndt.services.tables import OWNER_VISIBLE_NOT_HIDDEN
from gndt.services.updates import OWN_SECRET_READ_ONLY, UNKNOWN_COLUMN
from tests.factories import PASSWORD, T0
from tests.gndt.builders import add_calling, make_gndt, update, value

pytestmark = pytest.mark.django_db

MINE = "Oracle"  # P03's own Calling
THEIRS = "Lycanthrope"  # P04's Calling
MY_COMMENT = "first reading of the stars"
THEIR_COMMENT = "moonrise notes"


def build_own_game():
    """P03 and P04 each hold a Calling only they (and the Emperor P01 and admin P02) may see; Omens, a
    number each player sees for themselves, grows every midnight."""
    game = make_gndt(T0)
    with time_machine.travel(T0, tick=False):
        game.calling = add_calling(game, at=T0)
        game.omens = gndt_column_add(
            dynasty=game.dynasty,
            by=game.admin,
            now=T0,
            name="Omens",
            kind=Column.INTEGER,
            default="2",
            hidden=True,
            owner_visible=True,
        )
        game.mine = update(
            game, game.emperor, {("P03", "Calling"): MINE}, now=T0 + timedelta(minutes=1), comment=MY_COMMENT
        )
        game.theirs = update(
            game, game.emperor, {("P04", "Calling"): THEIRS}, now=T0 + timedelta(minutes=2), comment=THEIR_COMMENT
        )
        gndt_effect_save(
            dynasty=game.dynasty,
            by=game.admin,
            now=T0 + timedelta(minutes=3),
            name="Omens gather",
            column=game.omens,
            delta=1,
            hour=0,
            starts_at=T0,
        )
    gndt_effects_apply_due(now=T0 + timedelta(days=1, minutes=1))
    return game


@pytest.fixture
def own_game(db):
    return build_own_game()


def client_for(name: str | None) -> Client:
    client = Client()
    if name is not None:
        assert client.login(username=name, password=PASSWORD)
    return client


def get(client: Client, game, url: str, **params) -> str:
    with time_machine.travel(game.start + timedelta(days=1, hours=1), tick=False):
        response = client.get(url, params)
    assert response.status_code == 200, url
    return response.content.decode()


def past(game) -> str:
    return (game.start + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%S")


# --- The rule itself ---------------------------------------------------------------------------------------


def test_only_a_hidden_column_may_be_owner_visible(own_game, t0):
    """Owner-visible widens a secret; on a public column it would mean nothing, so it is refused."""
    with pytest.raises(GndtError, match="only a hidden column"):
        gndt_column_add(dynasty=own_game.dynasty, by=own_game.admin, now=t0, name="Motto", owner_visible=True)
    with pytest.raises(GndtError) as refused:
        gndt_column_edit(column=own_game.calling, by=own_game.admin, now=t0, hidden=False)
    assert str(refused.value) == OWNER_VISIBLE_NOT_HIDDEN.format(name="Calling")
    assert Column.objects.get(pk=own_game.calling.pk).hidden
    assert not Column.objects.filter(name="Motto").exists()


def test_the_querysets_give_a_player_their_own_changes_and_no_others(own_game):
    p3, dynasty = own_game.player("P03"), own_game.dynasty
    changes = CellChange.objects.filter(column=own_game.calling).visible_to(p3, dynasty)
    assert {change.row.name for change in changes} == {"P03"}
    updates = set(Update.objects.filter(dynasty=dynasty).visible_to(p3, dynasty))
    assert own_game.mine in updates and own_game.theirs not in updates
    assert Column.objects.filter(dynasty=dynasty).visible_to(p3, dynasty).filter(pk=own_game.calling.pk).exists()
    assert not Column.objects.filter(dynasty=dynasty).visible_to(None, dynasty).filter(hidden=True).exists()


# --- The table, now and in the past, and its CSV ----------------------------------------------------------


@pytest.mark.parametrize("url_name", ["gndt_table", "gndt_export"])
@pytest.mark.parametrize("when", ["now", "past"])
def test_a_player_sees_their_own_value_and_nobody_elses(own_game, url_name, when):
    params = {"at": past(own_game)} if when == "past" else {}
    mine = get(client_for("P03"), own_game, reverse(url_name), **params)
    assert "Calling" in mine and MINE in mine and THEIRS not in mine
    theirs = get(client_for("P04"), own_game, reverse(url_name), **params)
    assert THEIRS in theirs and MINE not in theirs


@pytest.mark.parametrize("viewer", ["P01", "P02"], ids=["emperor", "admin"])
@pytest.mark.parametrize("url_name", ["gndt_table", "gndt_export", "gndt_log"])
def test_the_emperor_and_admins_see_every_row(own_game, viewer, url_name):
    page = get(client_for(viewer), own_game, reverse(url_name))
    assert MINE in page and THEIRS in page


@pytest.mark.parametrize("url_name", ["gndt_table", "gndt_export", "gndt_log"])
def test_a_visitor_learns_nothing_of_the_column(own_game, url_name):
    page = get(client_for(None), own_game, reverse(url_name))
    for secret in ("Calling", "Omens", MINE, THEIRS, MY_COMMENT, THEIR_COMMENT):
        assert secret not in page, secret


def test_sorting_by_the_column_reveals_nobody_elses_value(own_game):
    """The order of rows sorted by a secret would give it away: other rows' values are blanked first."""
    for direction in ("", "desc"):
        page = get(client_for("P03"), own_game, reverse("gndt_table"), sort="Calling", dir=direction)
        assert THEIRS not in page
        body = page.split('class="player-rows"')[1]
        names = [name for name in ("P01", "P02", "P04", "P05") if f">{name}<" in body]
        assert names == sorted(names) or names == sorted(names, reverse=True)


def test_a_past_dynastys_table_keeps_the_same_rule(own_game):
    url = reverse("gndt_dynasty_table", args=[own_game.dynasty.number])
    page = get(client_for("P04"), own_game, url)
    assert THEIRS in page and MINE not in page


# --- The log, permalinks, undo, effects -------------------------------------------------------------------


def test_the_log_shows_a_player_their_own_changes_only(own_game):
    log = get(client_for("P03"), own_game, reverse("gndt_log"))
    assert MY_COMMENT in log and MINE in log
    assert THEIR_COMMENT not in log and THEIRS not in log
    filtered = get(client_for("P03"), own_game, reverse("gndt_log"), column="Calling")
    assert MY_COMMENT in filtered and THEIR_COMMENT not in filtered
    by_row = get(client_for("P03"), own_game, reverse("gndt_log"), row="P04")
    assert THEIR_COMMENT not in by_row


def test_an_effect_run_shows_each_player_only_their_own_change(own_game):
    """“Omens gather” changed every row's Omens: P03 sees the run with their own 2 → 3 and nobody else's."""
    run = Update.objects.get(source=Update.EFFECT)
    with time_machine.travel(own_game.start + timedelta(days=1, hours=1), tick=False):
        response = client_for("P03").get(reverse("gndt_update", args=[run.pk]))
    page = response.content.decode()
    assert response.status_code == 200 and "Omens" in page
    assert page.count("P03") >= 1 and "P04" not in page.split("<main")[1].split("</main>")[0]
    assert client_for(None).get(reverse("gndt_update", args=[run.pk])).status_code == 404


def test_permalinks_answer_only_for_the_owner(own_game):
    with time_machine.travel(own_game.start + timedelta(days=1, hours=1), tick=False):
        assert client_for("P03").get(reverse("gndt_update", args=[own_game.mine.pk])).status_code == 200
        assert client_for("P03").get(reverse("gndt_update", args=[own_game.theirs.pk])).status_code == 404
        assert client_for(None).get(reverse("gndt_update", args=[own_game.mine.pk])).status_code == 404
        assert client_for("P02").get(reverse("gndt_update", args=[own_game.theirs.pk])).status_code == 200


def test_a_player_may_not_undo_a_change_to_their_own_secret(own_game):
    with pytest.raises(GndtError, match="changed P03’s Calling, which you may see but only admins"):
        gndt_undo(update=own_game.mine, by=own_game.player("P03"), now=own_game.start + timedelta(days=2))


# --- Changing it -------------------------------------------------------------------------------------------


def test_a_player_may_see_but_not_change_their_own_secret(own_game):
    p3 = own_game.player("P03")
    with pytest.raises(GndtError) as refused:
        update(own_game, p3, {("P03", "Calling"): "Baker"}, now=own_game.start + timedelta(days=2))
    assert OWN_SECRET_READ_ONLY.format(
        cell="P03’s Calling", column="Calling", emperor=own_game.dynasty.emperor_term
    ) in str(refused.value)
    with pytest.raises(GndtError) as other:
        update(own_game, p3, {("P04", "Calling"): "Baker"}, now=own_game.start + timedelta(days=2))
    assert UNKNOWN_COLUMN.format(column="Calling") in str(other.value)
    assert value(own_game, "P03", "Calling") == MINE and value(own_game, "P04", "Calling") == THEIRS


def test_the_edit_pages_show_the_own_value_read_only(own_game):
    client = client_for("P03")
    page = get(client, own_game, reverse("gndt_edit"))
    assert MINE in page and THEIRS not in page
    own_row = Row.objects.get(dynasty=own_game.dynasty, name="P03")
    assert f'name="v-{own_row.pk}-{own_game.calling.pk}"' not in page
    other_row = Row.objects.get(dynasty=own_game.dynasty, name="P04")
    with time_machine.travel(own_game.start + timedelta(days=1, hours=1), tick=False):
        mine = client.get(
            reverse("gndt_cell_form"), {"row": own_row.pk, "column": own_game.calling.pk}, HTTP_HX_REQUEST="true"
        )
        theirs = client.get(
            reverse("gndt_cell_form"), {"row": other_row.pk, "column": own_game.calling.pk}, HTTP_HX_REQUEST="true"
        )
    assert mine.status_code == 403 and "not change it" in mine.content.decode()
    assert theirs.status_code == 404


# --- Search, the API, the archive --------------------------------------------------------------------------


def test_search_finds_a_players_own_secret_updates_only(own_game):
    def search(name, words):
        return get(client_for(name), own_game, reverse("search"), q=words, kind="gndt")

    assert "Nothing found." not in search("P03", "reading")
    assert "Nothing found." in search("P03", "moonrise")
    assert "Nothing found." in search("P04", "reading")
    assert "Nothing found." in search(None, "reading")
    assert "Nothing found." not in search("P02", "moonrise")


def test_the_api_shows_what_a_visitor_sees_whoever_asks(own_game):
    client = client_for("P03")
    for url in ("/api/gndt", "/api/gndt/log"):
        text = get(client, own_game, url)
        assert "Calling" not in text and MINE not in text and MY_COMMENT not in text, url


def test_the_archive_keeps_the_flag_and_refuses_it_on_a_public_column(own_game):
    from tests.test_gndt_archive import dynasties, everyone, wipe_gndt

    exported = export_gndt()
    calling = next(column for column in exported["columns"] if column["name"] == "Calling")
    assert calling["hidden"] is True and calling["owner_visible"] is True
    broken = copy.deepcopy(exported)
    next(column for column in broken["columns"] if column["name"] == "Calling")["hidden"] = False
    wipe_gndt()
    with pytest.raises(ArchiveError, match="owner_visible"):
        import_gndt(broken, users=everyone(), dynasties=dynasties())
    import_gndt(copy.deepcopy(exported), users=everyone(), dynasties=dynasties())
    assert export_gndt() == exported
