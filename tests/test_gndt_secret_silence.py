"""Who may not see a hidden GNDT column learns nothing of it from the cell editor or from undoing: "the GNDT
cell form answers "No such column." for a hidden column's id and a different message for a missing one";
""Update #16 changed hidden values" tells who may not see them that a secret moved". Whoever may see keeps
the detail."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from gndt.models import Column, Row, Update
from gndt.services import GndtError, gndt_undo
from tests.factories import PASSWORD
from tests.gndt.builders import make_gndt, update, value

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(t0):
    return make_gndt(t0)


def client_for(name: str | None) -> Client:
    client = Client()
    if name is not None:
        assert client.login(username=name, password=PASSWORD)
    return client


def cell_form(client: Client, row: int, column: int):
    return client.get(reverse("gndt_cell_form"), {"row": row, "column": column}, HTTP_HX_REQUEST="true")


def page_without(response, *numbers: int) -> str:
    """The page with the asked-for ids, its CSRF token and its nonces blanked out."""
    html = re.sub(r'(value|nonce|content)="[^"]*"|"X-CSRFToken": "[^"]*"', "", response.content.decode())
    for number in numbers:
        html = re.sub(rf"\b{number}\b", "N", html)
    return html


@pytest.mark.parametrize("viewer", ["P03", None], ids=["player", "visitor"])
def test_the_cell_form_answers_a_hidden_column_as_a_missing_one(game, t0, viewer):
    """Same status, same body, for the hidden Role column's id and for an id no column has."""
    row = Row.objects.get(dynasty=game.dynasty, name="P04").pk
    hidden = Column.objects.get(dynasty=game.dynasty, name="Role").pk
    missing = Column.objects.order_by("-pk").first().pk + 1000
    client = client_for(viewer)
    with time_machine.travel(t0, tick=False):
        secret, nothing = cell_form(client, row, hidden), cell_form(client, row, missing)
    assert secret.status_code == nothing.status_code == 404
    assert page_without(secret, hidden) == page_without(nothing, missing)
    admin = client_for("P02")
    with time_machine.travel(t0, tick=False):
        assert cell_form(admin, row, hidden).status_code == 200


@pytest.fixture
def mixed(game, t0):
    """The Emperor's update #N: P03's Money (public) and P04's Role (hidden) at once."""
    return update(game, game.emperor, {("P03", "Money"): "50", ("P04", "Role"): "Werewolf"}, now=t0)


def test_a_player_undoing_an_update_restores_what_they_see_and_learns_of_nothing_else(game, t0, mixed):
    client = client_for("P03")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        log = client.get(reverse("gndt_log")).content.decode()
        assert f'action="{reverse("gndt_undo", args=[mixed.pk])}"' in log  # offered as for any other update
        response = client.post(reverse("gndt_undo", args=[mixed.pk]), {"next": reverse("gndt_log")}, follow=True)
    page = response.content.decode()
    assert "hidden value" not in page and "Werewolf" not in page and "Role" not in page
    assert f"Update #{mixed.pk} was undone" in page
    assert value(game, "P03", "Money") == "300"
    assert value(game, "P04", "Role") == "Werewolf", "a player's undo changed a value they may not see"
    undo = Update.objects.get(undoes=mixed)
    assert [(c.row.name, c.column.name) for c in undo.changes.all()] == [("P03", "Money")]


def test_a_moved_hidden_value_does_not_stop_a_players_undo_nor_appear_in_its_refusal(game, t0, mixed):
    update(game, game.emperor, {("P04", "Role"): "Seer"}, now=t0 + timedelta(minutes=5))
    gndt_undo(update=mixed, by=game.player("P03"), now=t0 + timedelta(hours=1))
    assert value(game, "P03", "Money") == "300" and value(game, "P04", "Role") == "Seer"


def test_a_players_undo_refused_for_a_public_reason_names_only_public_cells(game, t0, mixed):
    update(game, game.emperor, {("P04", "Role"): "Seer"}, now=t0 + timedelta(minutes=5))
    update(game, game.player("P05"), {("P03", "Money"): "70"}, now=t0 + timedelta(minutes=6))
    with pytest.raises(GndtError) as refused:
        gndt_undo(update=mixed, by=game.player("P03"), now=t0 + timedelta(hours=1))
    assert "P03’s Money" in str(refused.value)
    assert "Role" not in str(refused.value) and "Seer" not in str(refused.value) and "hidden" not in str(refused.value)


def test_whoever_sees_hidden_columns_undoes_all_of_it(game, t0, mixed):
    gndt_undo(update=mixed, by=game.admin, now=t0 + timedelta(hours=1))
    assert value(game, "P03", "Money") == "300" and value(game, "P04", "Role") == "Villager"


def test_a_player_cannot_undo_an_update_of_hidden_values_alone_and_is_told_of_no_such_update(game, t0):
    secret = update(game, game.emperor, {("P04", "Role"): "Werewolf"}, now=t0)
    with pytest.raises(GndtError) as refused:
        gndt_undo(update=secret, by=game.player("P03"), now=t0 + timedelta(hours=1))
    assert "hidden" not in str(refused.value) and "Role" not in str(refused.value)
    assert value(game, "P04", "Role") == "Werewolf"
