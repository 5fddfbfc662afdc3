"""Draws without replacement (2008 Poker, Ruleset 52): DECK52 deals cards that never repeat within a deck
until it is shuffled, replacing "re-rolled until there are no duplicates" with one draw."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from gndt.decks import DeckDraw, DeckError, dealt_so_far, draw_cards, plan_deck_draws
from gndt.models import Update
from gndt.services import GndtError
from tests.gndt.builders import make_gndt, update


def test_a_comment_names_its_hand_shuffles_and_draws():
    plan = plan_deck_draws("HAND#3 FLOP SHUFFLE 3DECK52 and DECK52")
    assert plan.hand == "3" and plan.shuffle
    assert plan.draws == (DeckDraw("3DECK52", 3, 52), DeckDraw("DECK52", 1, 52))
    assert plan_deck_draws("DICE52 DICE52").empty


@pytest.mark.parametrize("comment", ["DECK1", "DECK1001", "0DECK52", "101DECK52", "HAND#1 HAND#2 DECK52"])
def test_impossible_draws_are_refused_before_anything_is_drawn(comment):
    with pytest.raises(DeckError):
        plan_deck_draws(comment)


def test_the_flop_never_holds_a_duplicate():
    """ "If the Flop roll contains any duplicate dice results, the Flop roll is re-rolled until there are no
    duplicates": one draw of three cards is three different cards, every time."""
    rng = random.Random(1)
    for _ in range(500):
        cards = draw_cards(deck="HAND#1", draw=DeckDraw("3DECK52", 3, 52), size=None, dealt=frozenset(), rng=rng)
        assert len(set(cards)) == 3 and all(1 <= card <= 52 for card in cards)


def test_the_turn_and_river_never_repeat_an_earlier_card_of_the_hand():
    """ "If the Turn or the River roll duplicates any earlier roll during that hand, the Turn or River roll is
    re-rolled until there are no duplicates": cards already dealt are never dealt again."""
    rng = random.Random(2)
    dealt = frozenset(range(1, 51))
    assert set(draw_cards(deck="HAND#1", draw=DeckDraw("2DECK52", 2, 52), size=52, dealt=dealt, rng=rng)) == {51, 52}
    with pytest.raises(DeckError, match="has 0 of its 52 cards left"):
        draw_cards(deck="HAND#1", draw=DeckDraw("DECK52", 1, 52), size=52, dealt=frozenset(range(1, 53)), rng=rng)


def test_what_a_deck_dealt_is_read_from_the_log_up_to_its_last_shuffle():
    rolls = [
        {"kind": "deck", "deck": "HAND#1", "size": 52, "results": [1, 2]},
        {"kind": "deck", "deck": "HAND#2", "size": 52, "results": [3]},
        {"kind": "shuffle", "deck": "HAND#1"},
        {"kind": "deck", "deck": "HAND#1", "size": 52, "results": [4]},
        {"kind": "dice", "results": [5]},
    ]
    assert dealt_so_far(rolls, "HAND#1") == (52, frozenset({4}))
    assert dealt_so_far(rolls, "HAND#3") == (None, frozenset())


@pytest.mark.django_db
def test_a_hand_deals_all_52_cards_once_then_refuses_until_shuffled(t0):
    game = make_gndt(t0)
    dealer = game.players[0]
    seen = []
    for n in range(52):
        logged = update(game, dealer, {}, now=t0 + timedelta(minutes=n), comment="HAND#7 DECK52")
        seen += logged.rolls[0]["results"]
    assert sorted(seen) == list(range(1, 53))
    before = Update.objects.count()
    with pytest.raises(GndtError, match="HAND#7 has 0 of its 52 cards left"):
        update(game, dealer, {}, now=t0 + timedelta(hours=2), comment="HAND#7 RIVER DECK52")
    assert Update.objects.count() == before  # nothing saved
    fresh = update(game, dealer, {}, now=t0 + timedelta(hours=3), comment="HAND#7 SHUFFLE 5DECK52")
    assert [roll["kind"] for roll in fresh.rolls] == ["shuffle", "deck"] and len(set(fresh.rolls[1]["results"])) == 5


@pytest.mark.django_db
def test_each_players_own_deck_is_their_own(t0):
    game = make_gndt(t0)
    first = update(game, game.players[2], {}, now=t0, comment="Hole cards 2DECK52")
    assert first.rolls[0]["deck"] == "P03's deck" and first.rolls[0]["text"].startswith("2DECK52 from P03's deck: ")
    other = update(game, game.players[3], {}, now=t0 + timedelta(minutes=1), comment="2DECK52")
    assert other.rolls[0]["deck"] == "P04's deck"
    with pytest.raises(GndtError, match="a deck of 52 cards, not 40"):
        update(game, game.players[2], {}, now=t0 + timedelta(minutes=2), comment="DECK40")


@pytest.mark.django_db
def test_draws_come_from_the_servers_random_source(t0, monkeypatch):
    """The service draws with the same source as dice (the system's cryptographic generator)."""
    from gndt import dice

    game = make_gndt(t0)
    monkeypatch.setattr(dice, "SYSTEM_RNG", random.Random(5))
    first = update(game, game.players[2], {}, now=t0, comment="HAND#1 3DECK52")
    monkeypatch.setattr(dice, "SYSTEM_RNG", random.Random(5))
    again = update(game, game.players[2], {}, now=t0 + timedelta(minutes=1), comment="HAND#2 3DECK52")
    assert first.rolls[0]["results"] == again.rolls[0]["results"]
