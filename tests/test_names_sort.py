"""Names sort without regard to case: "alder", "Birch", "cedar", not "Birch" first because capitals sort before
small letters in a byte-wise comparison. Rosters, the GNDT's rows and the statistics alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from blognomic.community.stats import selectors as stats
from dynasties.models import Dynasty, User
from dynasties.selectors import roster_at
from gndt.models import Row
from gndt.services.tables import gndt_rows_add_missing_players
from tests.factories import make_dynasty, make_game, make_player, make_proposal

pytestmark = pytest.mark.django_db
IN_ORDER = ["alder", "Birch", "cedar", "Damson"]


@pytest.fixture
def players(t0):
    make_game()
    joined = t0 - timedelta(days=10)
    made = {
        name: make_player(name, joined_at=joined, admin=name == "Damson")
        for name in ["cedar", "Damson", "Birch", "alder"]
    }
    make_dynasty(emperor=None, started_at=joined)
    return made


def test_the_roster_sorts_names_without_case(players, t0):
    assert [user.username for user in roster_at(t0).active] == IN_ORDER
    assert [user.username for user in User.objects.all()] == IN_ORDER


def test_the_players_page_lists_them_without_case(players):
    page = Client().get("/players/").content.decode()
    assert sorted(IN_ORDER, key=page.index) == IN_ORDER


def test_the_gndt_rows_are_made_in_name_order_without_case(players, t0):
    gndt_rows_add_missing_players(dynasty=Dynasty.objects.current(), by=players["Damson"], now=t0)
    assert list(Row.objects.values_list("name", flat=True)) == IN_ORDER


def test_the_statistics_sort_equal_records_by_name_without_case(players, t0):
    for i, name in enumerate(["cedar", "Birch", "alder", "Damson"]):
        make_proposal(players[name], at=t0 + timedelta(minutes=i), title=f"Proposal: Number {i}")
    assert [record.name for record in stats.player_records()] == IN_ORDER
