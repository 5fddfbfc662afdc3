"""Ruleset 52 (2008): Players at a frontier saloon's poker table, with the Dealer running the hands.

What the dynastic rules ask the site to hold: Money, the Poker Table (Button, Yes or -), whose Turn it is,
each Player's bets this hand and this round (TBTH, TBTR), Drink, Health, Courage, Quick Draw and Forced Hand;
The Pot as a row that is no Player; each Player's own deck for a hand, its order private and its checksum
public, hole cards drawn from it by position and revealed at the showdown; community cards drawn from the
house deck without repeating a card (``HAND#3 FLOP 3DECK52``); slot machines and shootouts as daily actions
and forcing a hand as a weekly one; wiki pages for Wanted Posters, the poker hands and the deck. All names
and texts here are invented for the demo.
"""

from __future__ import annotations

from blognomic.moving.seed_demos.building import (
    ActionPlan,
    ColumnPlan,
    LookPlan,
    PagePlan,
    SeedDemo,
    SeedGame,
    VariablePlan,
)
from gndt.models import Column
from gndt.private_decks import STANDARD_DECK
from gndt.services.private_decks import private_deck_deal, private_deck_draw
from ruleset.models import Page
from votes.models import Kind

EMPEROR = "Silas Crane"
ADMINS = ("Hattie", "Calloway")
PLAYERS = ("Silas Crane", "Hattie", "Jeb Malone", "Calloway", "Ruby Tate", "Doc Pruitt", "Esperanza", "Tumbleweed")
HAND = 3
ANTE = 10
SEATED = ("Hattie", "Jeb Malone", "Ruby Tate", "Doc Pruitt")
"""In table order; Hattie has the Button, so Jeb Malone acts first."""

DRINKS = ("none", "Pint of Beer", "Shot of Whiskey", "Mixed Drink", "Black and Tan", "Vodka", "Fruit Drink")

COLUMNS = (
    ColumnPlan("Money", kind=Column.INTEGER, minimum=0, default="300", description="New Players receive $300."),
    ColumnPlan(
        "Poker Table",
        kind=Column.CHOICE,
        choices=("Button", "Yes", "-"),
        default="-",
        description="Button or Yes: seated at the table; -: not seated.",
    ),
    ColumnPlan(
        "Turn",
        kind=Column.CHOICE,
        choices=("-", "o", "x"),
        default="o",
        description="x: this Player acts now; -: seated and waiting; o: unseated or folded.",
    ),
    ColumnPlan("TBTH", kind=Column.INTEGER, default="0", description="Total Bet This Hand."),
    ColumnPlan("TBTR", kind=Column.INTEGER, default="0", description="Total Bet This Round."),
    ColumnPlan(
        "Drink",
        kind=Column.CHOICE,
        choices=DRINKS,
        default="none",
        description="The drink in front of the Player, from the List of Drinks.",
    ),
    ColumnPlan("Health", kind=Column.CHOICE, choices=("Healthy", "Wounded"), default="Healthy"),
    ColumnPlan("Courage", kind=Column.CHOICE, choices=("-", "Yellow"), default="-"),
    ColumnPlan(
        "QD",
        kind=Column.INTEGER,
        choices=("-",),
        default="-",
        description="Quick Draw: - until the Player's first shootout.",
    ),
    ColumnPlan("Forced Hand", kind=Column.PLAYER, choices=("-",), default="-"),
)

VALUES = {
    "Silas Crane": {"Money": "500"},
    "Hattie": {"Money": "340", "Poker Table": "Button", "Turn": "-", "Drink": "Pint of Beer"},
    "Jeb Malone": {"Money": "275", "Poker Table": "Yes", "Turn": "-", "QD": "4"},
    "Calloway": {"Money": "410", "Courage": "Yellow"},
    "Ruby Tate": {"Money": "365", "Poker Table": "Yes", "Turn": "-", "Drink": "Shot of Whiskey", "QD": "3"},
    "Doc Pruitt": {"Money": "190", "Poker Table": "Yes", "Turn": "-"},
    "Esperanza": {"Money": "320", "Health": "Wounded", "QD": "2", "Forced Hand": "Calloway"},
    "Tumbleweed": {"Money": "0"},
    # The Pot is no Player: it holds Money only, and its other cells show the neutral value of each column.
    "The Pot": {"Money": "0", "Turn": "o", "Drink": "none", "QD": "-", "Forced Hand": "-"},
}

ACTIONS = (
    ActionPlan("Play the Slot Machines", "daily", "Wager some Money and roll DICE10 DICE10 DICE10."),
    ActionPlan("Challenge to a Shootout", "daily", "A Healthy Player calls out another Healthy Player."),
    ActionPlan("Force the Hand", "weekly", "Name another Player in Forced Hand, with a post saying so."),
)

CARDS = STANDARD_DECK
"""The house deck, in the order the deck page numbers it: a draw of card 14 is the Ace of Diamonds."""

PAGES = (
    PagePlan(
        "The Deck",
        "the-deck",
        "== The House Deck ==\nThe number a DECK52 draw gives is the card's "
        "place in this list.\n\n" + "\n".join(f"# {card}" for card in CARDS) + "\n",
    ),
    PagePlan(
        "Poker Hands",
        "poker-hands",
        (
            "== Poker Hands ==\nBest first; within a kind, the higher cards win.\n\n"
            "# Straight flush: five in a row, one suit\n# Four of a kind\n# Full house: three and a pair\n"
            "# Flush: five of one suit\n# Straight: five in a row\n# Three of a kind\n# Two pairs\n# One pair\n"
            "# High card\n"
        ),
    ),
    PagePlan(
        "Wanted Posters",
        "wanted-posters",
        "== Wanted Posters ==\n"
        + "".join(
            f"\n=== {name} ===\n{line}\n"
            for name, line in (
                ("Hattie", "Red scarf, quick laugh. Profession: stagecoach driver."),
                ("Jeb Malone", "Missing a front tooth; wanted in two counties for cheating at checkers."),
                ("Ruby Tate", "Never takes off her gloves at the table."),
                ("Doc Pruitt", "Carries a black bag that clinks. Profession: dentist."),
            )
        ),
        kind=Page.ORDINARY,
    ),
)


def play_opening(game: SeedGame) -> None:
    """Hand #3 under way: the Dealer's announcement, the ante, two players' private decks with two positions
    drawn from each, the first raise, a pending and an enacted proposal, and an unlucky go at the slot machines."""
    _a_proposal_enacted(game)
    _the_hand(game)
    _after_the_raise(game)


def _a_proposal_enacted(game: SeedGame) -> None:
    game.post(
        "peanuts",
        "Ruby Tate",
        Kind.PROPOSAL,
        "Proposal: Peanuts on the House",
        8 * 24,
        body="Add to the List of Drinks: *Bowl of Peanuts - $1*. Eating it has no effect but counts as "
        "a Drink for the Quick Draw.",
    )
    for name, hours in (("Hattie", 190), ("Calloway", 186), ("Jeb Malone", 185), ("Doc Pruitt", 180)):
        game.vote("peanuts", name, "for", hours)
    game.resolve("peanuts", "enact", 178)


def _the_hand(game: SeedGame) -> None:
    """The Dealer's announcement, the ante, two private decks with two positions drawn from each, and the
    first raise."""
    game.story(
        "hand",
        f"Story Post: Hand #{HAND} Commences",
        30,
        sticky=True,
        body=(
            f"Hand #{HAND} is dealt at the long table. The Ante is ${ANTE}. Hattie holds the Button, so Jeb "
            f"Malone acts first.\n\nPick up your own deck for hand {HAND} at [Decks](/gndt/decks/): only you see "
            "its order, everyone sees its checksum. Draw your two hole cards there; the GNDT log shows the "
            "positions, never the cards. At the showdown, reveal your deck so all can check your cards."
        ),
    )
    pot = {("The Pot", "Money"): str(ANTE * len(SEATED))}
    antes = {(name, "Money"): str(int(VALUES[name]["Money"]) - ANTE) for name in SEATED}
    bets = {(name, "TBTH"): str(ANTE) for name in SEATED}
    game.gndt(EMPEROR, {**antes, **bets, **pot, ("Jeb Malone", "Turn"): "x"}, 29, comment=f"HAND{HAND} ante")

    for name, hours in (("Jeb Malone", 27), ("Ruby Tate", 22)):
        deck = private_deck_deal(
            dynasty=game.dynasty, owner=game.users[name], hand=str(HAND), now=game.ago(hours + 0.5)
        )
        private_deck_draw(deck=deck, by=game.users[name], count=2, now=game.ago(hours))
    money = int(antes[("Jeb Malone", "Money")])
    game.gndt(
        "Jeb Malone",
        {
            ("Jeb Malone", "Money"): str(money - 20),
            ("Jeb Malone", "TBTH"): str(ANTE + 20),
            ("Jeb Malone", "TBTR"): "20",
            ("The Pot", "Money"): str(ANTE * len(SEATED) + 20),
            ("Jeb Malone", "Turn"): "-",
            ("Ruby Tate", "Turn"): "x",
        },
        20,
        comment=f"HAND{HAND} ROUND1 raise 20",
    )


def _after_the_raise(game: SeedGame) -> None:
    """A pending proposal, and an unlucky go at the slot machines."""
    game.post(
        "spittoon",
        "Calloway",
        Kind.PROPOSAL,
        "Proposal: The Spittoon Rule",
        26,
        body="A Player who pours out a drink may instead kick the spittoon, becoming Yellow only if a "
        "DICE2 comes up 2.",
    )
    game.vote("spittoon", "Esperanza", "for", 24, "Finally, some dignity.")
    game.vote("spittoon", "Silas Crane", "against", 23, "Not in my saloon.")

    game.gndt(
        "Calloway",
        {("Calloway", "Money"): "405"},
        5,
        action="Play the Slot Machines",
        comment="Wager $5 on the slots: DICE10 DICE10 DICE10",
    )


DEMO = SeedDemo(
    file_name="000_788850a6369d0cd2.txt",
    ruleset_label="Ruleset 52",
    profile="2008",
    dynasty_number=52,
    player_term="Player",
    emperor_term="Dealer",
    theme="Hold-Em poker, drinks and shootouts in a frontier saloon",
    password="fullhouse",
    emperor=EMPEROR,
    admins=ADMINS,
    players=PLAYERS,
    columns=COLUMNS,
    other_rows=("The Pot",),
    values=VALUES,
    actions=ACTIONS,
    pages=PAGES,
    variables=(VariablePlan("The Pot", row="The Pot", column="Money"),),
    look=LookPlan(
        palette="ember",
        header_line="Ante up, and keep your hands above the table",
        vote_labels={"for": "Call", "against": "Fold", "deferential": "Whatever the Dealer says"},
    ),
    play_opening=play_opening,
    characteristic_moves=("a private deck for the hand", "hole cards drawn by position", "a daily go at the slots"),
)
