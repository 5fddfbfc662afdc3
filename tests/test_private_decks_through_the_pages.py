"""Secret deals through the pages, from an empty table: a player shuffles a deck for a hand, is refused a
second deck for it, draws and sees their hole cards, and reveals; another player may not reveal it.

Kept apart from ``tests/test_private_decks.py``, whose tests share a game in which P03 already holds a deck for
hand 3: this one starts with no deck at all.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from gndt.models import PrivateDeck
from gndt.selectors import private_deck_view
from tests.factories import PASSWORD
from tests.gndt.builders import make_gndt

pytestmark = pytest.mark.django_db


def test_a_player_deals_draws_and_reveals_from_the_browser(t0):
    """Through the pages: P03 shuffles a deck for hand 3, draws two cards and sees them, then reveals."""
    game = make_gndt(t0)
    client = Client()
    assert client.login(username="P03", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        response = client.post("/gndt/decks/", {"hand": "3"}, follow=True)
        deck = PrivateDeck.objects.get(owner__username="P03")
        assert response.status_code == 200 and deck.digest in response.content.decode()
        refused = client.post("/gndt/decks/", {"hand": "3"})
        assert refused.status_code == 400 and "already hold a deck for hand 3" in refused.content.decode()
        bad = client.post(f"/gndt/decks/{deck.pk}/", {"step": "draw", "count": "9" * 20})
        assert bad.status_code == 400 and deck.draws.count() == 0
        unknown = client.post(f"/gndt/decks/{deck.pk}/", {"step": "shuffle"})
        assert unknown.status_code == 400 and "Choose Draw or Reveal" in unknown.content.decode()
        page = client.post(f"/gndt/decks/{deck.pk}/", {"step": "draw", "count": "2"}, follow=True)
        cards = private_deck_view(PrivateDeck.objects.for_listing().get(pk=deck.pk), game.players[2]).hole_cards
        assert all(card in page.content.decode() for _, card in cards)
        assert "no-store" in client.get("/players/P03/")["Cache-Control"]
        other = Client()
        assert other.login(username="P04", password=PASSWORD)
        assert other.post(f"/gndt/decks/{deck.pk}/", {"step": "reveal"}).status_code == 403
        client.post(f"/gndt/decks/{deck.pk}/", {"step": "reveal"})
    assert PrivateDeck.objects.get(pk=deck.pk).is_revealed
