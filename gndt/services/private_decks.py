"""A player's private deck for a hand (Ruleset 52): dealt shuffled by the site with its checksum public at
once, drawn from by position in the public GNDT log, and revealed whole by its owner at the showdown.

The shuffle, the salt and every drawn position come from ``secrets.SystemRandom()`` unless a test passes its
own generator. The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import IntegrityError, transaction

from dynasties.models import Dynasty, User
from gndt import private_decks as rules
from gndt.dice import SYSTEM_RNG
from gndt.models import PrivateDeck, PrivateDraw, Update
from gndt.selectors import dynasty_is_archived
from gndt.services.common import ARCHIVED, GndtError

ONLY_PLAYERS = "Only active {players} hold a deck of their own."
ALREADY_DEALT = "You already hold a deck for hand {hand} (checksum {digest}); each hand has one deck per player."
ONLY_OWNER = "Only {owner} draws from and reveals their own deck."
ALREADY_REVEALED = "This deck was revealed on {at:%d %b %Y at %H:%M} UTC; nothing more is drawn from it."
NOT_A_COUNT = "Say how many cards to draw, as a whole number."
BROKEN_DECK = (
    "This deck's order no longer matches its checksum, so revealing it would prove nothing; ask an "
    "admin to look into it. Nothing was revealed."
)


def private_deck_deal(
    *,
    dynasty: Dynasty,
    owner: User,
    hand: str,
    now: datetime,
    cards: Sequence[str] = rules.STANDARD_DECK,
    rng: rules.ShuffleSource | None = None,
    salt: str | None = None,
) -> PrivateDeck:
    """Shuffle ``cards`` into a new deck for ``owner`` and ``hand``; its checksum is public from now on.

    ``cards`` is Ruleset 52's deck unless a dynasty (or a test) deals another; ``rng`` and ``salt`` are for
    tests that need a known deck."""
    try:
        hand = rules.checked_hand(hand)
        order = rules.order_text(rules.shuffled(cards, rng if rng is not None else SYSTEM_RNG))
    except rules.PrivateDeckError as error:
        raise GndtError(str(error)) from None
    _check_player(dynasty, owner, now)
    salt = salt if salt is not None else rules.new_salt()
    try:
        with transaction.atomic():
            return PrivateDeck.objects.create(
                dynasty=dynasty,
                owner=owner,
                hand=hand,
                order=order,
                salt=salt,
                digest=rules.deck_digest(order, salt),
                dealt_at=now,
            )
    except IntegrityError:
        held = PrivateDeck.objects.filter(dynasty=dynasty, owner=owner, hand=hand).first()
        if held is None:
            raise
        raise GndtError(ALREADY_DEALT.format(hand=hand, digest=held.digest)) from None


def private_deck_draw(
    *, deck: PrivateDeck, by: User, count: int | str, now: datetime, rng: rules.ShuffleSource | None = None
) -> Update:
    """Draw ``count`` positions not drawn before, logged in the GNDT as positions only (the Hole Card Draw)."""
    count = _count(count)
    with transaction.atomic():
        deck = _locked(deck, by, now)
        size = len(rules.order_from_text(deck.order))
        drawn = [position for draw in deck.draws.all() for position in draw.positions]
        try:
            positions = rules.draw_positions(
                size=size, drawn=drawn, count=count, rng=rng if rng is not None else SYSTEM_RNG
            )
        except rules.PrivateDeckError as error:
            raise GndtError(str(error)) from None
        text = rules.describe_draw(deck.owner.username, deck.hand, positions, deck.digest)
        update = Update.objects.create(
            dynasty=deck.dynasty,
            by=by,
            at=now,
            comment=f"HAND#{deck.hand} Hole Card Draw",
            rolls=[
                {
                    "token": f"HAND#{deck.hand}",
                    "kind": "private-deck",
                    "deck_id": deck.pk,
                    "size": size,
                    "count": count,
                    "results": list(positions),
                    "digest": deck.digest,
                    "text": text,
                }
            ],
            source=Update.PLAYER,
        )
        PrivateDraw.objects.create(deck=deck, update=update, positions=list(positions))
    return update


def private_deck_reveal(*, deck: PrivateDeck, by: User, now: datetime) -> PrivateDeck:
    """Publish the deck's order and salt (the showdown), checked against its checksum, and log the cards at
    every position drawn from it."""
    with transaction.atomic():
        deck = _locked(deck, by, now)
        if not rules.reveal_matches(deck.order, salt=deck.salt, digest=deck.digest):
            raise GndtError(BROKEN_DECK)
        order = rules.order_from_text(deck.order)
        positions = [position for draw in deck.draws.all() for position in draw.positions]
        text = rules.describe_reveal(deck.owner.username, deck.hand, positions, rules.cards_at(order, positions))
        Update.objects.create(
            dynasty=deck.dynasty,
            by=by,
            at=now,
            comment=f"HAND#{deck.hand} showdown",
            rolls=[
                {
                    "token": f"HAND#{deck.hand}",
                    "kind": "private-deck-reveal",
                    "deck_id": deck.pk,
                    "results": positions,
                    "digest": deck.digest,
                    "text": text,
                }
            ],
            source=Update.PLAYER,
        )
        deck.revealed_at = now
        deck.save(update_fields=["revealed_at"])
    return deck


def _check_player(dynasty: Dynasty, user: User, now: datetime) -> None:
    if dynasty_is_archived(dynasty):
        raise GndtError(ARCHIVED.format(dynasty=dynasty.name))
    if not User.objects.active_at(now).filter(pk=user.pk).exists():
        raise GndtError(ONLY_PLAYERS.format(players=dynasty.players_term.lower()))


def _locked(deck: PrivateDeck, by: User, now: datetime) -> PrivateDeck:
    """The deck, locked so two draws never take the same position, once ``by`` may act on it."""
    deck = PrivateDeck.objects.select_for_update(of=("self",)).select_related("owner", "dynasty").get(pk=deck.pk)
    if deck.owner_id != by.pk:
        raise GndtError(ONLY_OWNER.format(owner=deck.owner.username))
    if deck.is_revealed:
        raise GndtError(ALREADY_REVEALED.format(at=deck.revealed_at))
    _check_player(deck.dynasty, by, now)
    return deck


def _count(count: int | str) -> int:
    text = str(count).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        raise GndtError(NOT_A_COUNT)
    return int(text)
