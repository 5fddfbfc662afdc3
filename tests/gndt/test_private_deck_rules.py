"""Private decks as pure functions (Ruleset 52, 2008): the order is kept by its player, the checksum is
public, draws name positions, and the showdown's reveal can be checked by anyone."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from gndt import private_decks as rules


def test_the_standard_deck_is_the_seeds():
    """ "four suits (Clubs, Diamonds, Hearts and Spades), each suit having nine number cards (two through
    ten), one Ace, one Jack, one Queen and one King. The decks have no Jokers." """
    assert len(rules.STANDARD_DECK) == len(set(rules.STANDARD_DECK)) == 52
    for suit in ("Clubs", "Diamonds", "Hearts", "Spades"):
        in_suit = [card for card in rules.STANDARD_DECK if card.endswith(f" of {suit}")]
        assert sorted(card.split(" of ")[0] for card in in_suit) == sorted(
            ["Ace", "Jack", "Queen", "King", *(str(number) for number in range(2, 11))]
        )
    assert not any("Joker" in card for card in rules.STANDARD_DECK)


def test_a_shuffle_is_a_permutation_fixed_by_its_generator():
    """The same seeded generator deals the same deck; another seed deals another; nothing is lost or added."""
    first = rules.shuffled(rules.STANDARD_DECK, random.Random(7))
    assert first == rules.shuffled(rules.STANDARD_DECK, random.Random(7))
    assert first != rules.shuffled(rules.STANDARD_DECK, random.Random(8))
    assert sorted(first) == sorted(rules.STANDARD_DECK) and first != rules.STANDARD_DECK


def test_every_card_is_as_likely_on_top():
    """Fisher–Yates: over many shuffles of four cards each lands on top about a quarter of the time."""
    rng = random.Random(3)
    tops = Counter(rules.shuffled(("A", "B", "C", "D"), rng)[0] for _ in range(8000))
    assert all(1800 < tops[card] < 2200 for card in "ABCD"), tops


def test_the_checksum_is_sha256_of_salt_and_order_that_anyone_can_recompute():
    """ "the "Cards printed by:" checksum must be stated in a public comment": the checksum is plain SHA-256,
    so a reader checks it with any tool once the salt and order are published."""
    order = rules.order_text(rules.shuffled(rules.STANDARD_DECK, random.Random(1)))
    digest = rules.deck_digest(order, "00ff")
    assert digest == hashlib.sha256(f"00ff\n{order}".encode()).hexdigest()
    assert rules.reveal_matches(order, salt="00ff", digest=digest)


def test_a_tampered_reveal_does_not_match():
    """Two cards swapped, another salt, or a card renamed: the reveal no longer matches the checksum, so a
    player cannot change their hole cards after the draw."""
    order = list(rules.shuffled(rules.STANDARD_DECK, random.Random(2)))
    digest = rules.deck_digest(rules.order_text(order), "abc")
    swapped = order.copy()
    swapped[0], swapped[1] = swapped[1], swapped[0]
    renamed = [*order[:-1], "Joker"]
    assert not rules.reveal_matches(rules.order_text(swapped), salt="abc", digest=digest)
    assert not rules.reveal_matches(rules.order_text(order), salt="abd", digest=digest)
    assert not rules.reveal_matches(rules.order_text(renamed), salt="abc", digest=digest)
    assert not rules.reveal_matches(rules.order_text(order) + "\n", salt="abc", digest=digest)


def test_the_salt_is_fresh_and_long_enough_that_the_checksum_cannot_be_tested_against_guesses():
    salts = {rules.new_salt() for _ in range(50)}
    assert len(salts) == 50 and all(len(salt) == 2 * rules.SALT_BYTES for salt in salts)


def test_hole_cards_are_the_cards_at_the_drawn_positions():
    """ "if Spikebrennan's Hole Card Draw were to be 1,2 and the first and second numbered cards in
    Spikebrennan's Deck of Cards are 7 of hearts, 2 of spades, then Spikebrennan's Hole Cards are 7 of hearts,
    2 of spades" """
    order = ("7 of Hearts", "2 of Spades", "Ace of Clubs")
    assert rules.cards_at(order, (1, 2)) == ("7 of Hearts", "2 of Spades")
    with pytest.raises(rules.PrivateDeckError):
        rules.cards_at(order, (4,))


def test_positions_are_drawn_without_repeating():
    """ "If the results of both dice rolls in the Hole Card Draw are the same number, then the Seated Player
    shall make another Hole Card Draw": two positions drawn together, or later, are never the same."""
    rng = random.Random(5)
    for _ in range(300):
        first = rules.draw_positions(size=52, drawn=(), count=2, rng=rng)
        later = rules.draw_positions(size=52, drawn=first, count=50, rng=rng)
        assert len(set(first)) == 2 and sorted((*first, *later)) == list(range(1, 53))
    with pytest.raises(rules.PrivateDeckError, match="All 3 cards"):
        rules.draw_positions(size=3, drawn=(1, 2, 3), count=1, rng=rng)
    for count in (0, 3):
        with pytest.raises(rules.PrivateDeckError, match="Draw from 1 to 2"):
            rules.draw_positions(size=3, drawn=(1,), count=count, rng=rng)


def test_the_public_text_of_a_draw_names_positions_and_never_cards():
    text = rules.describe_draw("Silas Crane", "3", (3, 17), "ab" * 32)
    assert text.startswith("Silas Crane drew positions 3 and 17 of their deck for hand 3")
    assert not any(card in text for card in rules.STANDARD_DECK)


@pytest.mark.parametrize(
    "cards, message",
    [
        (("Ace",), "from 2 to"),
        (("Ace", "Ace"), "already in the deck"),
        (("Ace", "Two\nThree"), "one line"),
        (("Ace", "Tw\x00o"), "NUL"),
        (("Ace", " Two"), "one line"),
        (("Ace", "x" * 61), "one line"),
    ],
)
def test_a_deck_that_could_not_be_written_one_card_a_line_is_refused(cards, message):
    with pytest.raises(rules.PrivateDeckError, match=message):
        rules.shuffled(cards, random.Random(0))


@pytest.mark.parametrize("hand", ["", "#", "3 4", "HAND#3", "x" * 41, "٣", "3\x00"])
def test_a_hand_is_named_as_in_hand_numbers(hand):
    with pytest.raises(rules.PrivateDeckError):
        rules.checked_hand(hand)
    assert rules.checked_hand("#3") == rules.checked_hand(" 3 ") == "3"
