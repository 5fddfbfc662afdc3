"""Secret deals (Ruleset 52, 2008): each player's deck order is theirs alone, its checksum is public, the hole
card draw names positions in public, and the showdown reveals the deck for anyone to check.

The seed: the deck's "sequence of cards should be noted privately by the Player, and the "Cards printed by:"
checksum must be stated in a public comment"; the Hole Card Draw is "HAND#X DICE52 DICE52", naming numbers
in that deck; at the showdown each player "must post a comment to the GNDT that reveals his Hole Cards".
Privately means the Dealer and the admins do not see the order either.

The deck here is dealt with sentinel card names and a sentinel salt, so a page that leaked any of them would
be caught by a plain search of its text.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from gndt import private_decks as rules
from gndt.models import PrivateDeck, Update
from gndt.selectors import private_deck_view
from gndt.services import GndtError
from gndt.services.private_decks import (
    ALREADY_DEALT,
    ALREADY_REVEALED,
    BROKEN_DECK,
    ONLY_OWNER,
    ONLY_PLAYERS,
    private_deck_deal,
    private_deck_draw,
    private_deck_reveal,
)
from tests.factories import PASSWORD, T0, make_spectator
from tests.gndt.builders import make_gndt

pytestmark = pytest.mark.django_db

CARDS = tuple(f"Sentinel card {number:02d} of Tells" for number in range(1, 53))
SALT = "5a175a175a175a175a175a175a175a17"
ROLES = {"visitor": None, "other player": "P04", "the player": "P03", "the Dealer": "P01", "admin": "P02"}


def build_table():
    """P01 is the Dealer, P02 an admin, P03 holds a deck for hand 3 with two positions drawn, P04 plays too."""
    game = make_gndt(T0)
    game.owner = game.players[2]
    game.deck = private_deck_deal(
        dynasty=game.dynasty, owner=game.owner, hand="3", now=T0, cards=CARDS, rng=random.Random(11), salt=SALT
    )
    game.draw = private_deck_draw(
        deck=game.deck, by=game.owner, count=2, now=T0 + timedelta(minutes=5), rng=random.Random(12)
    )
    game.positions = tuple(game.draw.private_draw.positions)
    game.order = rules.order_from_text(game.deck.order)
    game.hole_cards = rules.cards_at(game.order, game.positions)
    return game


@pytest.fixture
def table(db):
    return build_table()


def pages(game) -> list[str]:
    deck = game.deck
    return [
        "/gndt/decks/",
        f"/gndt/decks/{deck.pk}/",
        "/gndt/",
        "/gndt/log/",
        f"/gndt/updates/{game.draw.pk}/",
        f"/players/{game.owner.username}/",
        "/players/P04/",
        "/api/gndt/log",
        "/api/gndt",
        "/search/?q=Sentinel",
    ]


def read_all(game, name: str | None, at) -> str:
    client = Client()
    if name is not None:
        assert client.login(username=name, password=PASSWORD)
    texts = []
    with time_machine.travel(at, tick=False):
        for url in pages(game):
            response = client.get(url)
            assert response.status_code == 200, (name, url, response.status_code)
            texts.append(response.content.decode())
    return "\n".join(texts)


@pytest.mark.parametrize("role", list(ROLES))
def test_before_the_showdown_only_the_player_sees_the_order_and_cards(table, role):
    """Before the showdown: everyone sees the checksum and the positions drawn; only the player sees the
    order, the salt and their cards. Not the Dealer, not an admin (the order is "noted privately")."""
    text = read_all(table, ROLES[role], table.start + timedelta(hours=1))
    assert table.deck.digest in text
    assert f"positions {rules.listed(table.positions)} of their deck for hand 3" in text
    secrets_seen = [card for card in CARDS if card in text] + ([SALT] if SALT in text else [])
    if role == "the player":
        assert set(CARDS) <= set(secrets_seen) and SALT in secrets_seen
        assert "Your hole cards" in text and all(card in text for card in table.hole_cards)
    else:
        assert secrets_seen == [], role


@pytest.mark.parametrize("role", list(ROLES))
def test_after_the_showdown_everyone_sees_and_can_check_the_deck(table, role):
    """ "each such Seated Player must post a comment to the GNDT that reveals his Hole Cards": after the reveal
    every reader sees the order, the salt, the cards at the drawn positions (in the log too) and that they
    match the checksum published when the deck was dealt."""
    private_deck_reveal(deck=table.deck, by=table.owner, now=table.start + timedelta(hours=2))
    text = read_all(table, ROLES[role], table.start + timedelta(hours=3))
    assert SALT in text and all(card in text for card in CARDS)
    assert "give exactly the checksum published when the deck was dealt" in text
    pairs = rules.listed([f"{p}: {card}" for p, card in zip(table.positions, table.hole_cards, strict=True)])
    assert pairs in text  # the showdown's log entry


def test_the_public_log_names_positions_only(table):
    """The Hole Card Draw is logged with its positions and the checksum, never a card."""
    roll = table.draw.rolls[0]
    assert roll["kind"] == "private-deck" and roll["results"] == list(table.positions)
    assert roll["digest"] == table.deck.digest
    assert not any(card in str(table.draw.rolls) + table.draw.comment for card in CARDS)


def test_a_reveal_that_was_tampered_with_is_shown_as_failing_its_checksum(table):
    """If the published order were changed after the deal (two cards swapped), every reader is told that it
    does not give the checksum, and the owner cannot reveal it as if it did."""
    swapped = list(table.order)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    PrivateDeck.objects.filter(pk=table.deck.pk).update(order=rules.order_text(swapped))
    with pytest.raises(GndtError, match="no longer matches its checksum"):
        private_deck_reveal(deck=table.deck, by=table.owner, now=table.start + timedelta(hours=2))
    assert not PrivateDeck.objects.get(pk=table.deck.pk).is_revealed
    assert BROKEN_DECK.startswith("This deck's order no longer matches")

    PrivateDeck.objects.filter(pk=table.deck.pk).update(revealed_at=table.start + timedelta(hours=2))
    view = private_deck_view(PrivateDeck.objects.for_listing().get(pk=table.deck.pk), None)
    assert view.verified is False
    with time_machine.travel(table.start + timedelta(hours=3), tick=False):
        page = Client().get(f"/gndt/decks/{table.deck.pk}/").content.decode()
    assert "do not give the checksum" in page


def test_only_the_owner_draws_and_reveals(table):
    for name in ("P01", "P02", "P04"):
        someone = next(player for player in table.players if player.username == name)
        with pytest.raises(GndtError, match=ONLY_OWNER.format(owner="P03")):
            private_deck_draw(deck=table.deck, by=someone, count=1, now=table.start)
        with pytest.raises(GndtError, match=ONLY_OWNER.format(owner="P03")):
            private_deck_reveal(deck=table.deck, by=someone, now=table.start)
    assert table.deck.draws.count() == 1 and not PrivateDeck.objects.get(pk=table.deck.pk).is_revealed


def test_nothing_more_is_drawn_after_the_reveal(table):
    later = table.start + timedelta(hours=2)
    private_deck_reveal(deck=table.deck, by=table.owner, now=later)
    with pytest.raises(GndtError, match=ALREADY_REVEALED.split("{")[0]):
        private_deck_draw(deck=table.deck, by=table.owner, count=1, now=later)
    with pytest.raises(GndtError, match=ALREADY_REVEALED.split("{")[0]):
        private_deck_reveal(deck=table.deck, by=table.owner, now=later)


def test_draws_never_repeat_a_position_and_stop_when_the_deck_is_empty(table):
    private_deck_draw(deck=table.deck, by=table.owner, count=50, now=table.start + timedelta(minutes=6))
    drawn = [position for draw in table.deck.draws.all() for position in draw.positions]
    assert sorted(drawn) == list(range(1, 53))
    with pytest.raises(GndtError, match="All 52 cards"):
        private_deck_draw(deck=table.deck, by=table.owner, count=1, now=table.start + timedelta(minutes=7))


@pytest.mark.parametrize("count", ["", "two", "-1", "0", "53", "1" * 20, "٣", "2\x00", 2.5])
def test_a_bad_count_is_refused_and_changes_nothing(table, count):
    updates = Update.objects.count()
    with pytest.raises(GndtError):
        private_deck_draw(deck=table.deck, by=table.owner, count=count, now=table.start + timedelta(minutes=6))
    assert Update.objects.count() == updates and table.deck.draws.count() == 1


def test_one_deck_per_player_per_hand_and_only_for_active_players(table):
    with pytest.raises(GndtError, match=ALREADY_DEALT.split("{")[0]):
        private_deck_deal(dynasty=table.dynasty, owner=table.owner, hand="#3", now=table.start)
    other = private_deck_deal(dynasty=table.dynasty, owner=table.owner, hand="4", now=table.start)
    assert other.digest != table.deck.digest and sorted(rules.order_from_text(other.order)) == sorted(
        rules.STANDARD_DECK
    )
    onlooker = make_spectator("Onlooker")
    with pytest.raises(GndtError, match=ONLY_PLAYERS.format(players="players").split(" hold")[0]):
        private_deck_deal(dynasty=table.dynasty, owner=onlooker, hand="3", now=table.start)


def test_the_server_deals_different_decks_with_fresh_salts(table):
    """Without a generator passed in, the shuffle and the salt come from the system's secure source."""
    decks = [
        private_deck_deal(dynasty=table.dynasty, owner=player, hand="9", now=table.start) for player in table.players
    ]
    assert len({deck.order for deck in decks}) == len({deck.salt for deck in decks}) == len(decks)
    assert all(rules.reveal_matches(deck.order, salt=deck.salt, digest=deck.digest) for deck in decks)


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_the_decks_pages_cost_the_same_queries_however_many_decks_and_draws(table):
    """The list of decks and the owner's page with their hole cards read a fixed number of queries."""
    client = Client()
    assert client.login(username="P03", password=PASSWORD)
    with time_machine.travel(table.start + timedelta(hours=1), tick=False):
        before = (
            _queries(client, "/gndt/decks/"),
            _queries(client, f"/gndt/decks/{table.deck.pk}/"),
            _queries(client, "/players/P03/"),
        )
        for player in table.players:
            deck = private_deck_deal(dynasty=table.dynasty, owner=player, hand="5", now=table.start)
            for _ in range(3):
                private_deck_draw(deck=deck, by=player, count=2, now=table.start + timedelta(minutes=9))
        private_deck_draw(deck=table.deck, by=table.owner, count=3, now=table.start + timedelta(minutes=9))
        after = (
            _queries(client, "/gndt/decks/"),
            _queries(client, f"/gndt/decks/{table.deck.pk}/"),
            _queries(client, "/players/P03/"),
        )
    assert after == before


@pytest.mark.parametrize("hand", ["", "\x00", "3\x00", "٣", "9" * 41, "x y", "<b>3</b>"])
def test_a_bad_hand_name_is_refused_with_a_message_and_deals_nothing(table, hand):
    client = Client()
    assert client.login(username="P04", password=PASSWORD)
    with time_machine.travel(table.start + timedelta(hours=1), tick=False):
        response = client.post("/gndt/decks/", {"hand": hand})
        unknown = client.post(f"/gndt/decks/{table.deck.pk}/", {"step": "shuffle"})
    refusal = "NUL character" if "\x00" in hand else rules.BAD_HAND  # NUL is refused before any view
    assert response.status_code == 400 and refusal in response.content.decode()
    assert unknown.status_code == 403
    assert PrivateDeck.objects.count() == 1
