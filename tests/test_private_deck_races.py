"""Private decks under simultaneous requests (PostgreSQL): draws racing each other never share a position,
and one deck per player per hand holds when two deals race."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gndt.models import PrivateDeck
from gndt.services import GndtError
from gndt.services.private_decks import private_deck_deal, private_deck_draw
from tests.concurrency import run_together
from tests.gndt.builders import make_gndt

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_simultaneous_draws_never_share_a_position(t0):
    """ "If the results of both dice rolls in the Hole Card Draw are the same number" the draw is made again:
    four draws of 13 at once take every card of the deck exactly once."""
    game = make_gndt(t0)
    owner = game.players[2]
    deck = private_deck_deal(dynasty=game.dynasty, owner=owner, hand="3", now=t0)
    results = run_together(
        [lambda: private_deck_draw(deck=deck, by=owner, count=13, now=t0 + timedelta(minutes=1)) for _ in range(4)]
    )
    assert not [result for result in results if isinstance(result, Exception)], results
    drawn = [position for draw in deck.draws.all() for position in draw.positions]
    assert sorted(drawn) == list(range(1, 53))


def test_two_deals_for_one_hand_at_once_leave_one_deck(t0):
    game = make_gndt(t0)
    owner = game.players[2]
    results = run_together([lambda: private_deck_deal(dynasty=game.dynasty, owner=owner, hand="3", now=t0)] * 2)
    assert sum(isinstance(result, GndtError) for result in results) == 1, results
    assert PrivateDeck.objects.filter(owner=owner).count() == 1
