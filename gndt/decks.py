"""Draws without replacement, as pure functions: ``DECK52`` and ``3DECK52`` in a GNDT comment draw cards
numbered 1–52 that do not repeat within a deck until ``SHUFFLE`` starts it afresh.

This replaces 2008 Poker's "re-roll until no duplicates" with one draw. ``HAND#3`` in the comment names the
deck (every player drawing for hand 3 shares it, as the Flop, Turn and River do); without a name the deck
is the player's own, as each player's hole cards come from their own deck. What a deck has dealt is read
from the rolls already logged, so it needs no state of its own and travels with the GNDT's log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gndt.dice import RandomSource

MAX_DECK_SIZE = 1000
MAX_CARDS_PER_DRAW = 100

DECK_PATTERN = re.compile(r"(?<![\w#])(?P<count>\d{1,3})?DECK(?P<size>\d{1,4})(?!\w)")
HAND_PATTERN = re.compile(r"(?<!\w)HAND#(?P<name>[A-Za-z0-9_-]{1,40})(?![\w-])")
SHUFFLE_PATTERN = re.compile(r"(?<!\w)SHUFFLE(?!\w)")

BAD_DECK_SIZE = "{token}: a deck has from 2 to {limit} cards."
BAD_DRAW_COUNT = "{token}: draw from 1 to {limit} cards at a time."
TWO_HANDS = "A comment may name one hand only; this one names {names}."
NOT_ENOUGH = (
    "{deck} has {left} of its {size} cards left; {token} asks for {count}. Write SHUFFLE in the "
    "comment to start a fresh deck."
)
OTHER_SIZE = "{deck} is a deck of {size} cards, not {asked}; write SHUFFLE to start a fresh deck of {asked}."


NO_DECK_NAMED = "must name the deck, as a string"
BAD_LOGGED_SIZE = "must be the deck's size, a whole number from 2 to {limit}"
BAD_LOGGED_CARDS = "must list from 1 to {limit} cards"
BAD_LOGGED_CARD = "must be a card of the deck, a whole number from 1 to {size}"
CARD_TWICE = "deals card {card} twice"


class DeckError(ValueError):
    """A draw that cannot be made; nothing is drawn and nothing is saved."""


@dataclass(frozen=True)
class DeckDraw:
    token: str
    count: int
    size: int


@dataclass(frozen=True)
class DeckPlan:
    hand: str | None
    shuffle: bool
    draws: tuple[DeckDraw, ...]

    @property
    def empty(self) -> bool:
        return not (self.shuffle or self.draws)


def plan_deck_draws(comment: str) -> DeckPlan:
    """What a comment asks of its deck, checked whole before anything is drawn."""
    hands = sorted({match.group("name") for match in HAND_PATTERN.finditer(comment or "")})
    if len(hands) > 1:
        raise DeckError(TWO_HANDS.format(names=", ".join(f"HAND#{name}" for name in hands)))
    draws = []
    for match in DECK_PATTERN.finditer(comment or ""):
        token = match.group(0)
        count = int(match.group("count") or 1)
        size = int(match.group("size"))
        if not 2 <= size <= MAX_DECK_SIZE:
            raise DeckError(BAD_DECK_SIZE.format(token=token, limit=MAX_DECK_SIZE))
        if not 1 <= count <= MAX_CARDS_PER_DRAW:
            raise DeckError(BAD_DRAW_COUNT.format(token=token, limit=MAX_CARDS_PER_DRAW))
        draws.append(DeckDraw(token=token, count=count, size=size))
    return DeckPlan(
        hand=hands[0] if hands else None, shuffle=SHUFFLE_PATTERN.search(comment or "") is not None, draws=tuple(draws)
    )


def dealt_so_far(logged_rolls: Iterable[Mapping[str, Any]], deck: str) -> tuple[int | None, frozenset[int]]:
    """The size of ``deck`` and the cards it has dealt since its last shuffle, from rolls oldest first."""
    size: int | None = None
    dealt: set[int] = set()
    for roll in logged_rolls:
        if roll.get("deck") != deck:
            continue
        if roll.get("kind") == "shuffle":
            size, dealt = None, set()
        elif roll.get("kind") == "deck":
            size = roll.get("size", size)
            dealt.update(roll.get("results", ()))
    return size, frozenset(dealt)


def logged_roll_problem(roll: Mapping[str, Any]) -> tuple[str, str] | None:
    """What keeps a logged ``deck`` or ``shuffle`` roll from being read back by ``dealt_so_far`` (the key at fault
    and why), or None; a roll of any other kind is no deck's business. A log written elsewhere (an archive) is
    checked with it, since every later draw from the deck reads every roll it ever dealt."""
    kind = roll.get("kind")
    if kind not in ("deck", "shuffle"):
        return None
    if not isinstance(roll.get("deck"), str) or not roll["deck"].strip():
        return "deck", NO_DECK_NAMED
    if kind == "shuffle":
        return None
    size = roll.get("size")
    if type(size) is not int or not 2 <= size <= MAX_DECK_SIZE:
        return "size", BAD_LOGGED_SIZE.format(limit=MAX_DECK_SIZE)
    cards = roll.get("results")
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARDS_PER_DRAW:
        return "results", BAD_LOGGED_CARDS.format(limit=MAX_CARDS_PER_DRAW)
    for index, card in enumerate(cards):
        if type(card) is not int or not 1 <= card <= size:
            return f"results[{index}]", BAD_LOGGED_CARD.format(size=size)
    if len(set(cards)) != len(cards):
        return "results", CARD_TWICE.format(card=next(card for card in cards if cards.count(card) > 1))
    return None


def draw_cards(
    *, deck: str, draw: DeckDraw, size: int | None, dealt: frozenset[int], rng: RandomSource
) -> tuple[int, ...]:
    """Draw ``draw.count`` distinct cards not yet dealt, with ``rng`` (the server's cryptographic source)."""
    if size is not None and size != draw.size:
        raise DeckError(OTHER_SIZE.format(deck=deck, size=size, asked=draw.size))
    left = [card for card in range(1, draw.size + 1) if card not in dealt]
    if draw.count > len(left):
        raise DeckError(
            NOT_ENOUGH.format(deck=deck, left=len(left), size=draw.size, token=draw.token, count=draw.count)
        )
    cards = []
    for _ in range(draw.count):
        card = left.pop(rng.randint(0, len(left) - 1))
        cards.append(card)
    return tuple(cards)
