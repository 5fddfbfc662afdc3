"""Beginning the current dynasty by hand after an import (``dynasty_start``, the ``start_dynasty`` command and the
admin panel's page): the running dynasty ends, the new one runs at once with its number, Emperor and terms, and
the game's own succession is left alone."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from blognomic.flows.succession.services import (
    EMPEROR_NOT_PLAYER,
    NUMBER_TAKEN,
    ONLY_ADMINS_START,
    SUCCESSION_UNDER_WAY,
    DynastyOpening,
    SuccessionError,
    dynasty_start,
)
from dynasties.models import Dynasty
from tests.factories import PASSWORD, make_player, make_spectator
from votes.posting import post_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(t0):
    """A game as an import leaves it: players and an admin, and no dynasty."""
    admin = make_player("Ferro Lind", joined_at=t0 - timedelta(days=400), admin=True)
    tide = make_player("Tide Marrow", joined_at=t0 - timedelta(days=300))
    return admin, tide


def test_a_dynasty_begins_with_its_number_emperor_and_terms(imported, t0):
    admin, tide = imported
    opening = DynastyOpening(number=241, emperor=tide, player_term="Diver", emperor_term="Lighthouse Keeper")
    dynasty = dynasty_start(opening=opening, by=admin, at=t0)
    current = Dynasty.objects.current()
    assert (current.pk, current.number, current.emperor, current.players_term) == (dynasty.pk, 241, tide, "Divers")
    assert (current.emperor_term, current.started_at, current.awaiting_ascension) == ("Lighthouse Keeper", t0, False)


def test_the_running_dynasty_ends_when_the_next_begins(imported, t0):
    admin, tide = imported
    first = dynasty_start(opening=DynastyOpening(number=7, emperor=None), by=admin, at=t0)
    dynasty_start(opening=DynastyOpening(number=8, emperor=tide), by=admin, at=t0 + timedelta(hours=1))
    first.refresh_from_db()
    assert first.ended_at == t0 + timedelta(hours=1)
    assert Dynasty.objects.current().number == 8


@pytest.mark.parametrize(
    ("number", "message"),
    [(7, NUMBER_TAKEN.format(number=7, latest=7)), (3, NUMBER_TAKEN.format(number=3, latest=7))],
)
def test_a_number_not_after_every_dynasty_is_refused(imported, t0, number, message):
    admin, _ = imported
    dynasty_start(opening=DynastyOpening(number=7, emperor=None), by=admin, at=t0)
    with pytest.raises(SuccessionError, match=re.escape(message)):
        dynasty_start(opening=DynastyOpening(number=number, emperor=None), by=admin, at=t0 + timedelta(hours=1))
    assert Dynasty.objects.count() == 1


def test_refused_while_a_declaration_of_victory_is_pending(imported, t0):
    admin, tide = imported
    dynasty_start(opening=DynastyOpening(number=1, emperor=admin), by=admin, at=t0)
    post_create(author=tide, kind="dov", title="Declaration of Victory: Tide", body="Won.", now=t0 + timedelta(hours=1))
    with pytest.raises(SuccessionError, match=SUCCESSION_UNDER_WAY):
        dynasty_start(opening=DynastyOpening(number=2, emperor=tide), by=admin, at=t0 + timedelta(hours=2))


def test_only_an_admin_may_begin_one_and_only_a_player_may_be_emperor(imported, t0):
    admin, tide = imported
    with pytest.raises(SuccessionError, match=ONLY_ADMINS_START):
        dynasty_start(opening=DynastyOpening(number=1, emperor=tide), by=tide, at=t0)
    with pytest.raises(SuccessionError, match=re.escape(EMPEROR_NOT_PLAYER)):
        dynasty_start(opening=DynastyOpening(number=1, emperor=make_spectator("Onlooker")), by=admin, at=t0)
    assert not Dynasty.objects.exists()


def test_the_command_begins_it(imported):
    out = StringIO()
    call_command(
        "start_dynasty", "12", "--emperor", "Tide Marrow", "--players", "Diver", "--by", "Ferro Lind",
        "--at", "2024-03-01T09:00:00Z", stdout=out,
    )  # fmt: skip
    dynasty = Dynasty.objects.current()
    assert (dynasty.number, dynasty.emperor.username, dynasty.player_term) == (12, "Tide Marrow", "Diver")
    assert dynasty.started_at.isoformat() == "2024-03-01T09:00:00+00:00"
    assert "The First Dynasty of Tide Marrow (Dynasty 12)" in out.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["12", "--by", "Nobody Here"], "There is no account called"),
        (["12", "--by", "Ferro Lind", "--emperor", "Ghost"], "There is no player called"),
        (["12", "--by", "Ferro Lind", "--at", "yesterday"], "--at:"),
        (["12", "--by", "Ferro Lind", "--players", "a/b"], "Give a name for players"),
    ],
)
def test_the_command_refuses_bad_input_and_writes_nothing(imported, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("start_dynasty", *args, stdout=StringIO())
    assert not Dynasty.objects.exists()


def test_the_admin_panel_page_begins_it(imported):
    client = Client()
    client.login(username="Ferro Lind", password=PASSWORD)
    form = client.get("/admin-panel/dynasty/start/")
    assert form.status_code == 200
    answer = client.post(
        "/admin-panel/dynasty/start/",
        {"number": "5", "emperor": "Tide Marrow", "player_term": "Diver", "emperor_term": "Keeper"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/dynasties/5/"
    assert Dynasty.objects.current().emperor_term == "Keeper"


def test_the_page_names_an_unknown_emperor_and_writes_nothing(imported):
    client = Client()
    client.login(username="Ferro Lind", password=PASSWORD)
    answer = client.post(
        "/admin-panel/dynasty/start/", {"number": "5", "emperor": "Ghost", "player_term": "P", "emperor_term": "E"}
    )
    assert answer.status_code == 400
    assert "There is no player called “Ghost” here." in answer.content.decode()
    assert not Dynasty.objects.exists()


def test_a_player_is_refused_the_page(imported):
    client = Client()
    client.login(username="Tide Marrow", password=PASSWORD)
    assert client.get("/admin-panel/dynasty/start/").status_code == 403
    assert client.post("/admin-panel/dynasty/start/", {"number": "5"}).status_code == 403
