"""The site's own 403 and 404 pages: the game around a message, and nothing of the game's state besides.

Anyone may ask for any address, so "nothing here" must cost little: with the sidebar, a 404 cost what the front
page does (its unread counts, the reader's votes, the recent comments).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dynasties.models import Game
from tests.factories import PASSWORD, make_proposal, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_client(client, t0):
    players = make_table(3, start=t0)
    Game.objects.filter(pk=1).update(name="Nomic of the Marsh")
    make_proposal(players[0], at=t0, title="Proposal: Still pending")
    client.login(username="P03", password=PASSWORD)
    return client


@pytest.mark.parametrize(
    ("path", "status", "heading"), [("/no/such/page/", 404, "Not found"), ("/roster/", 403, "Not allowed")]
)
def test_an_error_page_shows_the_game_and_its_message_without_the_sidebar(player_client, path, status, heading):
    with CaptureQueriesContext(connection) as queries:
        response = player_client.get(path)
    html = response.content.decode()
    assert response.status_code == status
    assert f"<h1>{heading}</h1>" in html and "Nomic of the Marsh" in html and 'class="site-header"' in html
    assert 'class="sidebar"' not in html and 'id="game-summary"' not in html
    # The session, the user, the game's state (game, dynasty, pending, rule changes, roster): no counts, no comments.
    assert "notification" not in " ".join(query["sql"] for query in queries.captured_queries).lower()


def test_the_same_player_still_gets_the_sidebar_on_a_page_of_the_game(player_client):
    html = player_client.get("/").content.decode()
    assert 'class="sidebar"' in html and 'id="game-summary"' in html
