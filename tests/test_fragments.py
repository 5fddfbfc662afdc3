"""Fragments that htmx swaps into a page render only what they show: the tally box polled every 30 seconds
carries no header or sidebar, so it reads none of theirs (the issue "As deployed: fast with the clock running
and players writing")."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import PASSWORD, make_proposal, vote
from tests.gndt.builders import make_gndt

pytestmark = pytest.mark.django_db

# The tally box for a player: the session and the account; the post, its comments, the game, the dynasty,
# the pending matters, the rules' changes and the roster (the game state); the votes it judges.
PLAYER_TALLY_QUERIES = 9
# A visitor's: no session and no account.
VISITOR_TALLY_QUERIES = 7


@pytest.fixture
def proposal(t0, settings):
    settings.PAGE_CACHE = False  # every request renders: what a cache miss costs
    game = make_gndt(t0)
    post = make_proposal(game.players[2], at=t0, title="Proposal: Brighter Lamps")
    vote(post, game.players[3], "for", at=t0 + timedelta(minutes=5))
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        yield post


def player() -> Client:
    client = Client()
    assert client.login(username="P05", password=PASSWORD)
    return client


@pytest.mark.parametrize("htmx", [True, False], ids=["polled", "plain"])
def test_the_tally_box_reads_nothing_for_a_sidebar_it_does_not_show(proposal, htmx, django_assert_num_queries):
    """Finding: "The tally box polls every 30 s and costs a player 14 queries, five of them for a sidebar the
    fragment never shows" (unread notices and messages, the reader's votes, what awaits their vote, the
    recent comments)."""
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    url = f"{proposal.get_absolute_url()}tally/"
    for client, queries in ((player(), PLAYER_TALLY_QUERIES), (Client(), VISITOR_TALLY_QUERIES)):
        with django_assert_num_queries(queries):
            page = client.get(url, **headers).content.decode()
        assert 'class="tally-box"' in page and "Quorum" in page and "Recent comments" not in page


def test_a_whole_page_still_has_its_sidebar_and_header(proposal):
    client = player()
    client.get("/")  # the reader's own notices and messages are counted on whole pages
    page = client.get(proposal.get_absolute_url()).content.decode()
    assert "Recent comments" in page and 'id="messages-link"' in page and 'class="tally-box"' in page


def test_a_vote_sent_in_place_reads_the_game_once(proposal):
    """Finding: "An htmx vote builds the game state twice": once to check the vote under the post's lock, once
    more to show it. The matter block it answers with is the game as the vote was checked against."""
    client = player()
    with CaptureQueriesContext(connection) as queries:
        page = client.post(
            f"{proposal.get_absolute_url()}comment/", {"icon": "for", "text": ""}, HTTP_HX_REQUEST="true"
        ).content.decode()
    rosters = [query for query in queries.captured_queries if 'FROM "dynasties_absence"' in query["sql"]]
    assert len(rosters) == 1, [query["sql"][:120] for query in rosters]
    assert '<td class="voters-for"><bdi>P03</bdi>, <bdi>P04</bdi>, <bdi>P05</bdi></td>' in page
    assert '<div id="awaiting-vote" data-hx-swap-oob="delete">' in page  # nothing awaits the reader's vote now
