"""The GNDT pages: the table (sortable, hidden columns, idle and non-player rows apart, any past moment, CSV),
inline and plain-form editing, the log with its filters, undo and the admins' page; their fixed query counts are
in ``tests/test_gndt_page_queries.py``, on a game of their own."""

from __future__ import annotations

import csv
import io
import random
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dynasties.models import Dynasty
from gndt import dice
from gndt.models import Action, Column, RandomListVersion, Row, ScheduledEffect, Update
from tests.factories import PASSWORD, T0, make_dynasty, make_idle
from tests.gndt.builders import make_gndt, update, value

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(db):
    return make_gndt(T0)


@pytest.fixture
def now(t0):
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        yield t0 + timedelta(hours=1)


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


def cell_ids(game, row: str, column: str) -> tuple[int, int]:
    return (
        Row.objects.get(dynasty=game.dynasty, name=row).pk,
        Column.objects.get(dynasty=game.dynasty, name=column).pk,
    )


def edit_fields(game, row: str, column: str, new: str, *, seen: str | None = None) -> dict:
    row_id, column_id = cell_ids(game, row, column)
    return {
        f"v-{row_id}-{column_id}": new,
        f"s-{row_id}-{column_id}": value(game, row, column) if seen is None else seen,
    }


# --- The table -------------------------------------------------------------------------------------------


def test_visitors_read_the_table_with_hidden_columns_left_out(client, game, now):
    """Anyone may read the table; the hidden Role column and its values are not shown; the Pot is shown
    apart from the players (“made distinct from the rows setting forth statistics for Players”)."""
    make_idle(game.player("P05"), since=now - timedelta(minutes=30))
    html = client.get(reverse("gndt_table")).content.decode()
    assert "Poker Table" in html and "Forced Hand" in html
    assert "sort=Role" not in html and "Villager" not in html
    assert html.index('class="player-rows"') < html.index("The Pot") < html.index('class="idle-rows"')
    assert html.index('class="idle-rows"') < html.index(">P05<")
    assert "cell-edit" not in html, "visitors get no editing links"


@pytest.mark.parametrize("viewer", ["P01", "P02"], ids=["emperor", "admin"])
def test_the_emperor_and_admins_see_hidden_columns(game, now, viewer):
    html = logged_in(viewer).get(reverse("gndt_table")).content.decode()
    assert "Role" in html and "Villager" in html and 'class="hidden-mark"' in html


def table_of(html: str) -> str:
    return html[html.index("<table") :]


def test_the_table_sorts_by_any_column(client, game, now):
    """Numbers sort as numbers, in either direction; a second click on a heading reverses the order."""
    for name, money in (("P03", "9"), ("P04", "1000"), ("P05", "75")):
        update(game, game.player("P03"), {(name, "Money"): money}, now=now)
    # Only the table: the page's summary names the Emperor (P01) before it.
    html = table_of(client.get(reverse("gndt_table") + "?sort=Money&dir=desc").content.decode())
    order = [html.index(f">{name}<") for name in ("P04", "P01", "P05", "P03")]
    assert order == sorted(order)
    assert 'aria-sort="descending"' in html
    html = table_of(client.get(reverse("gndt_table") + "?sort=Money").content.decode())
    assert html.index(">P03<") < html.index(">P05<") < html.index(">P04<")
    assert "?sort=Money&amp;dir=desc" in html


def test_the_table_as_it_stood_at_a_past_moment_and_as_csv(client, game, now):
    """?at= shows the table at that moment (read-only); the CSV export gives the same values."""
    update(game, game.player("P03"), {("P03", "Money"): "123"}, now=now)
    past = client.get(reverse("gndt_table") + "?at=2016-07-25T12:30").content.decode()
    assert "The table as it stood at" in past and ">123<" not in past
    rows = list(csv.reader(io.StringIO(client.get(reverse("gndt_export")).content.decode())))
    header = rows[0]
    assert header[:3] == ["Name", "Group", "Money"] and "Role" not in header
    assert ["P03", "player", "123"] == next(row for row in rows if row[0] == "P03")[:3]
    old = list(
        csv.reader(io.StringIO(client.get(reverse("gndt_export") + "?at=2016-07-25T12:30:00Z").content.decode()))
    )
    assert next(row for row in old if row[0] == "P03")[2] == "300"
    assert ["The Pot", "other"] == next(row for row in old if row[0] == "The Pot")[:2]
    update(game, game.player("P04"), {("P04", "Items"): "=HYPERLINK(evil)", ("P04", "Pieces"): "-4"}, now=now)
    rows = list(csv.reader(io.StringIO(client.get(reverse("gndt_export")).content.decode())))
    p04 = dict(zip(header, next(row for row in rows if row[0] == "P04"), strict=True))
    assert (p04["Items"], p04["Pieces"], p04["Poker Table"]) == ("'=HYPERLINK(evil)", "-4", "-")
    bad = client.get(reverse("gndt_table") + "?at=yesterday").content.decode()
    assert "“yesterday” is not a date and time" in bad


# --- Editing ---------------------------------------------------------------------------------------------


def test_inline_editing_with_htmx_rolls_dice_and_shows_the_roll(game, now, monkeypatch):
    """A player taps a cell: the inline form carries the value seen; saving with DICE6 in the comment swaps
    in the updated table, whose latest updates show the roll."""
    monkeypatch.setattr(dice, "SYSTEM_RNG", random.Random(3))
    client = logged_in("P03")
    row_id, column_id = cell_ids(game, "P03", "Money")
    form = client.get(reverse("gndt_cell_form") + f"?row={row_id}&column={column_id}", **HX).content.decode()
    assert f'name="s-{row_id}-{column_id}" value="300"' in form and 'data-hx-post="/gndt/edit/"' in form
    response = client.post(
        reverse("gndt_edit"),
        {
            **edit_fields(game, "P03", "Money", "310"),
            "inline": "1",
            "row": row_id,
            "column": column_id,
            "comment": "Found a coin DICE6",
        },
        **HX,
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="gndt"')
    roll = Update.objects.get(comment="Found a coin DICE6").rolls[0]
    assert f'<li class="roll">DICE6: {roll["results"][0]}</li>' in html
    assert "The GNDT was updated" in html and value(game, "P03", "Money") == "310"


def test_a_refused_inline_edit_keeps_the_form_open_with_the_reason(game, now):
    client = logged_in("P03")
    row_id, column_id = cell_ids(game, "P03", "Poker Table")
    response = client.post(
        reverse("gndt_edit"),
        {
            **edit_fields(game, "P03", "Poker Table", "Standing"),
            "inline": "1",
            "row": row_id,
            "column": column_id,
        },
        **HX,
    )
    html = response.content.decode()
    assert (response["HX-Retarget"], response["HX-Reswap"]) == (f"#cell-{row_id}-{column_id}", "innerHTML")
    assert "P03: Poker Table must be one of Button, Yes, -; got &#x27;Standing&#x27;." in html
    assert value(game, "P03", "Poker Table") == "-" and not Update.objects.filter(source="player").exists()


def test_the_plain_form_works_without_javascript(game, now):
    """Without htmx a cell links to its row's form; saving redirects back to the table with a message."""
    client = logged_in("P04")
    row_id, _ = cell_ids(game, "P04", "Money")
    assert client.get(reverse("gndt_cell_form") + f"?row={row_id}&column=1").status_code in (302, 404)
    page = client.get(reverse("gndt_edit") + f"?row={row_id}").content.decode()
    assert "<legend><bdi>P04</bdi></legend>" in page and page.count('name="v-') == 6
    fields = {
        **edit_fields(game, "P04", "Money", "290"),
        **edit_fields(game, "P04", "Items", ""),
        "comment": "bought nothing",
        "only_row": row_id,
    }
    response = client.post(reverse("gndt_edit"), fields, follow=True)
    assert response.redirect_chain[-1][0] == reverse("gndt_table")
    assert "The GNDT was updated" in response.content.decode()
    assert value(game, "P04", "Money") == "290"
    assert Update.objects.get(comment="bought nothing").changes.count() == 1, "unchanged cells are not logged"


def test_the_plain_form_shows_a_refusal_and_keeps_what_was_typed(game, now):
    client = logged_in("P04")
    fields = {**edit_fields(game, "P04", "Money", "plenty"), "comment": "rich"}
    response = client.post(reverse("gndt_edit"), fields)
    html = response.content.decode()
    assert response.status_code == 400
    assert "P04: Money must be a whole number; got &#x27;plenty&#x27;." in html and 'value="plenty"' in html
    assert value(game, "P04", "Money") == "300"


def test_two_players_editing_the_same_cell_the_second_sees_a_conflict(game, now):
    """Both loaded the table with P03's Money at 300; the first save wins and the second is told what changed."""
    first, second = logged_in("P04"), logged_in("P05")
    first.post(reverse("gndt_edit"), edit_fields(game, "P03", "Money", "250", seen="300"))
    response = second.post(reverse("gndt_edit"), edit_fields(game, "P03", "Money", "350", seen="300"))
    html = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was saved: the table changed after you loaded it." in html
    assert "P03’s Money is now “250”, not “300” as you saw it (changed by P04" in html
    assert value(game, "P03", "Money") == "250"


def test_visitors_and_spectators_cannot_edit(client, game, now):
    response = client.post(reverse("gndt_edit"), edit_fields(game, "P03", "Money", "1"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert value(game, "P03", "Money") == "300"


# --- The log and undo ------------------------------------------------------------------------------------


def test_the_log_filters_by_player_row_and_column_and_hides_secret_values(client, game, now):
    update(game, game.player("P03"), {("P03", "Money"): "1"}, now=now, comment="money")
    update(game, game.player("P04"), {("P04", "Pieces"): "2"}, now=now, comment="pieces")
    update(game, game.emperor, {("P03", "Role"): "Seer"}, now=now, comment="a quiet night")
    html = client.get(reverse("gndt_log") + "?by=P04").content.decode()
    assert "pieces" in html and "money" not in html
    html = client.get(reverse("gndt_log") + "?column=Money&row=P03").content.decode()
    assert "money" in html and "pieces" not in html
    html = client.get(reverse("gndt_log") + "?by=P01").content.decode()
    # An update that changed only hidden values is itself secret (see test_gndt_secrets).
    assert "a quiet night" not in html and "hidden value" not in html and "Seer" not in html
    assert "a quiet night" not in client.get(reverse("gndt_log") + "?column=Role").content.decode()
    emperor_view = logged_in("P01").get(reverse("gndt_log") + "?column=Role").content.decode()
    assert "Seer" in emperor_view


def test_the_log_is_paginated_and_keeps_its_filters(client, game, now):
    for i in range(55):
        update(game, game.player("P03"), {("P03", "Money"): str(i)}, now=now + timedelta(seconds=i))
    html = client.get(reverse("gndt_log") + "?by=P03").content.decode()
    assert "Page 1 of 2" in html and 'href="?by=P03&amp;page=2"' in html


def test_undo_from_the_log(game, now):
    """Another player presses Undo on a logged update: the old values come back and both are in the log."""
    original = update(game, game.player("P03"), {("P03", "Money"): "999"}, now=now, comment="jackpot")
    client = logged_in("P04")
    html = client.get(reverse("gndt_log")).content.decode()
    assert f'action="/gndt/updates/{original.pk}/undo/"' in html
    response = client.post(reverse("gndt_undo", args=[original.pk]), {"next": reverse("gndt_log")}, follow=True)
    html = response.content.decode()
    assert f"Update #{original.pk} was undone" in html and 'undone by <a href="/gndt/updates/' in html
    assert value(game, "P03", "Money") == "300"
    again = client.post(reverse("gndt_undo", args=[original.pk]), follow=True).content.decode()
    assert f"Update #{original.pk} was already undone" in again


def test_an_update_has_its_own_page(client, game, now):
    original = update(game, game.player("P03"), {("P03", "Money"): "5"}, now=now, comment="DICE0")
    html = client.get(reverse("gndt_update", args=[original.pk])).content.decode()
    assert f"GNDT update #{original.pk}" in html and "DICE0: 0" in html and "<del>300</del>" in html


def test_an_ended_dynastys_table_is_read_only(game, now):
    Dynasty.objects.filter(pk=game.dynasty.pk).update(ended_at=now)
    make_dynasty(emperor=game.player("P03"), started_at=now, number=2)
    client = logged_in("P03")
    html = client.get(reverse("gndt_dynasty_table", args=[1])).content.decode()
    assert "its table is archived and read-only" in html and "cell-edit" not in html
    assert "This dynasty's table has not begun yet." in client.get(reverse("gndt_table")).content.decode()


# --- Managing the table ----------------------------------------------------------------------------------


def test_only_admins_manage_the_table(game, now):
    assert logged_in("P03").get(reverse("gndt_manage")).status_code == 403
    html = logged_in("P02").get(reverse("gndt_manage")).content.decode()
    assert "Manage the GNDT" in html and "Add a column" in html


def test_admins_manage_columns_rows_actions_effects_and_lists_in_the_browser(game, now):
    admin = logged_in("P02")
    response = admin.post(
        reverse("gndt_column_new"),
        {"name": "Courage", "kind": "choice", "choices": "-\nYellow", "default": "-"},
    )
    assert response.status_code == 302 and value(game, "P03", "Courage") == "-"
    courage = Column.objects.get(name="Courage")
    admin.post(
        reverse("gndt_column_edit", args=[courage.pk]),
        {
            "name": "Courage",
            "kind": "choice",
            "choices": "-, Yellow, Brave",
            "default": "-",
            "order": courage.order,
        },
    )
    assert Column.objects.get(pk=courage.pk).choices == ["-", "Yellow", "Brave"]
    admin.post(reverse("gndt_row_new"), {"name": "SidePot1"})
    assert value(game, "SidePot1", "Money") == "0"
    admin.post(reverse("gndt_action_new"), {"name": "Dig", "frequency": "daily", "weekly_cap": "3"})
    assert Action.objects.get().weekly_cap == 3
    admin.post(
        reverse("gndt_effect_new"),
        {
            "name": "Pay day",
            "column": Column.objects.get(name="Money").pk,
            "target": "players",
            "delta": "5",
            "weekday": "0",
            "hour": "0",
            "minute": "0",
            "enabled": "on",
        },
    )
    assert ScheduledEffect.objects.get().describe() == "every Monday at 00:00 UTC add 5 to Money of every active player"
    admin.post(
        reverse("gndt_list_save"),
        {"name": "fruit", "entries": "Fig, Date", "scope": "game", "note": "Proposal: Dried Fruit"},
    )
    assert RandomListVersion.objects.get().entries == ["Fig", "Date"]
    admin.post(reverse("gndt_remove", args=["rows", Row.objects.get(name="SidePot1").pk]))
    assert Row.objects.get(name="SidePot1").retired_at is not None
    html = admin.get(reverse("gndt_manage")).content.decode()
    assert "Pay day" in html and "Fig, Date" in html and "removed" in html


def test_a_refused_management_form_says_why(game, now):
    admin = logged_in("P02")
    response = admin.post(
        reverse("gndt_column_new"), {"name": "Heat", "kind": "integer", "maximum": "5", "default": "9"}
    )
    assert response.status_code == 400
    assert "Column “Heat”: the default is not allowed: Heat may not exceed 5" in response.content.decode()
    response = admin.post(reverse("gndt_row_new"), {"name": "The Pot"})
    assert "There is already a row called “The Pot”" in response.content.decode()
    assert not Column.objects.filter(name="Heat").exists()


# --- Query counts (tests/test_gndt_page_queries.py, on a game of its own) --------------------------------


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(context.captured_queries)


def test_a_moment_before_the_dynasty_began_says_so_and_links_the_one_running_then(client, game, t0):
    """``/gndt/?at=`` before the current dynasty began showed its columns with empty cells: it says the
    dynasty had not begun, and links the table of the dynasty that was running at that moment."""
    Dynasty.objects.filter(pk=game.dynasty.pk).update(number=2)
    earlier = make_dynasty(emperor=game.player("P02"), started_at=t0 - timedelta(days=90), number=1)
    Dynasty.objects.filter(pk=earlier.pk).update(ended_at=game.dynasty.started_at)
    html = client.get(reverse("gndt_table") + "?at=2016-06-10T10:00:00Z").content.decode()
    assert "had not begun at" in html and "The table as it stood at" not in html
    assert 'class="data gndt-table"' not in html and ">Money<" not in html
    assert 'href="/gndt/dynasty/1/?at=2016-06-10T10:00:00Z"' in html
    before_any = client.get(reverse("gndt_table") + "?at=2010-01-01T00:00:00Z").content.decode()
    assert "No dynasty was running then." in before_any
    csv_export = client.get(reverse("gndt_export") + "?at=2016-06-10T10:00:00Z")
    assert csv_export.status_code == 404
