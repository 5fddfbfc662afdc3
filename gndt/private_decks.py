"""Private decks, as pure functions: a shuffled order kept by one player, committed to by a public checksum,
drawn from by position in public and revealed whole at the showdown for anyone to check.

Ruleset 52 (2008) gives each player a deck whose order they keep to themselves, with only its checksum
public; the hole-card draw names numbers in that deck, and the cards come out at the showdown. Here:

* the order is the cards' names, one per line (``order_text``);
* the checksum is SHA-256 of a secret salt, a line break and the order, in hex (``deck_digest``), so nobody
  can test a guessed order against it before the salt is published, and anyone can check it afterwards with
  any SHA-256 tool: ``printf '%s\\n%s' SALT ORDER | sha256sum``;
* a draw names positions (1 to the deck's size), never cards;
* the reveal publishes the order and the salt; ``reveal_matches`` and ``cards_at`` are what any reader
  needs to check the checksum and the cards at the drawn positions.

Every random choice comes from the ``rng`` passed in (the server passes ``secrets.SystemRandom()``), so the
same seeded generator always gives the same deck.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
RANKS = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
STANDARD_DECK: tuple[str, ...] = tuple(f"{rank} of {suit}" for suit in SUITS for rank in RANKS)
"""Ruleset 52's deck: four suits, each with the numbers two to ten, an Ace, a Jack, a Queen and a King."""

SALT_BYTES = 16
MIN_CARDS = 2
MAX_CARDS = 1000
MAX_CARD_NAME = 60
HAND_LABEL = re.compile(r"[A-Za-z0-9_-]{1,40}")

BAD_CARD_COUNT = "A deck has from {low} to {high} cards; this one has {count}."
BAD_CARD_NAME = "Card {number}: a card's name is one line of 1 to {limit} characters, with no NUL character."
REPEATED_CARD = "Card {number}, “{name}”, is already in the deck: every card of a deck is different."
BAD_DRAW = "Draw from 1 to {left} cards: {left} of the deck's {size} have not been drawn yet."
ALL_DRAWN = "All {size} cards of this deck have been drawn."
BAD_HAND = "Name the hand with 1 to 40 letters, digits, “-” or “_” (as in HAND#3)."


class PrivateDeckError(ValueError):
    """A deck or a hand that cannot be used; the message says which and why."""


class ShuffleSource(Protocol):
    """What a shuffle needs; ``random.Random`` and ``secrets.SystemRandom`` both fit."""

    def randint(self, a: int, b: int) -> int: ...


def checked_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards of a deck, refused if there are too few or too many, if one repeats, or if a name cannot be
    one line of the order."""
    cards = tuple(cards)
    if not MIN_CARDS <= len(cards) <= MAX_CARDS:
        raise PrivateDeckError(BAD_CARD_COUNT.format(low=MIN_CARDS, high=MAX_CARDS, count=len(cards)))
    seen: set[str] = set()
    for number, name in enumerate(cards, start=1):
        if (
            not isinstance(name, str)
            or not name.strip()
            or name != name.strip()
            or len(name) > MAX_CARD_NAME
            or "\x00" in name
            or len(name.splitlines()) != 1
        ):
            raise PrivateDeckError(BAD_CARD_NAME.format(number=number, limit=MAX_CARD_NAME))
        if name in seen:
            raise PrivateDeckError(REPEATED_CARD.format(number=number, name=name))
        seen.add(name)
    return cards


def checked_hand(hand: str) -> str:
    hand = (hand or "").strip().removeprefix("#")
    if not HAND_LABEL.fullmatch(hand):
        raise PrivateDeckError(BAD_HAND)
    return hand


def shuffled(cards: Sequence[str], rng: ShuffleSource) -> tuple[str, ...]:
    """``cards`` in a uniformly random order (Fisher–Yates), every choice taken from ``rng``."""
    order = list(checked_cards(cards))
    for last in range(len(order) - 1, 0, -1):
        other = rng.randint(0, last)
        order[last], order[other] = order[other], order[last]
    return tuple(order)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def order_text(order: Sequence[str]) -> str:
    """The order as it is kept, committed to and published: one card per line."""
    return "\n".join(checked_cards(order))


def order_from_text(text: str) -> tuple[str, ...]:
    return tuple(text.split("\n")) if text else ()


def deck_digest(order: str, salt: str) -> str:
    """The public checksum of an order (``order_text``) under ``salt``."""
    return hashlib.sha256(f"{salt}\n{order}".encode()).hexdigest()


def reveal_matches(order: str, *, salt: str, digest: str) -> bool:
    """Whether a revealed order and salt are exactly what the checksum committed to."""
    return hmac.compare_digest(deck_digest(order, salt), digest)


def cards_at(order: Sequence[str], positions: Iterable[int]) -> tuple[str, ...]:
    """The cards at ``positions`` (counted from 1) of ``order``."""
    positions = tuple(positions)
    if any(not 1 <= position <= len(order) for position in positions):
        raise PrivateDeckError(f"A position is from 1 to {len(order)}.")
    return tuple(order[position - 1] for position in positions)


def draw_positions(*, size: int, drawn: Iterable[int], count: int, rng: ShuffleSource) -> tuple[int, ...]:
    """``count`` positions of a deck of ``size`` cards not drawn before, each chosen with ``rng``."""
    taken = set(drawn)
    left = [position for position in range(1, size + 1) if position not in taken]
    if not left:
        raise PrivateDeckError(ALL_DRAWN.format(size=size))
    if not 1 <= count <= len(left):
        raise PrivateDeckError(BAD_DRAW.format(left=len(left), size=size))
    return tuple(left.pop(rng.randint(0, len(left) - 1)) for _ in range(count))


def listed(numbers: Sequence[int | str]) -> str:
    """``3``, ``3 and 17``, ``3, 17 and 40``."""
    shown = [str(number) for number in numbers]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def describe_draw(owner: str, hand: str, positions: Sequence[int], digest: str) -> str:
    """What the public log says of a draw: the positions, never the cards."""
    word = "position" if len(positions) == 1 else "positions"
    return f"{owner} drew {word} {listed(positions)} of their deck for hand {hand} (checksum {digest[:16]}…)"


def describe_reveal(owner: str, hand: str, positions: Sequence[int], cards: Sequence[str]) -> str:
    """What the public log says at the showdown: each drawn position and its card."""
    if not positions:
        return f"{owner} revealed their deck for hand {hand}; nothing was drawn from it."
    pairs = listed([f"{position}: {card}" for position, card in zip(positions, cards, strict=True)])
    return f"{owner} revealed their deck for hand {hand}, verified against its checksum: {pairs}"
