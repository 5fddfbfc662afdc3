"""Ruleset 142 (2016): Hunters sailing a five-by-five archipelago after the Pirate's hoard.

What the dynastic rules ask the site to hold: Pieces that may go negative (a Hunter below zero is Ruined),
each Hunter's Island as a grid code (AA to EE), a Ship as "Name (Class)"; chests and Treasure Ratings on a
wiki page; raiding as a daily action at most three times a week, and burying, digging and sailing as daily
ones; explorations answered privately by the Pirate. All names and texts here are invented for the demo.
"""

from __future__ import annotations

from blognomic.moving.seed_demos.building import ActionPlan, ColumnPlan, LookPlan, PagePlan, SeedDemo, SeedGame
from gndt.models import Column
from votes.models import Kind

EMPEROR = "Morwenna"
ADMINS = ("Ishbel", "Anton Reyes")
PLAYERS = ("Morwenna", "Ishbel", "Anton Reyes", "Grub", "Pike", "Lark", "Salt Annie", "Benbow")
ISLAND_CODES = tuple(f"{first}{second}" for first in "ABCDE" for second in "ABCDE")
TREASURE = dict(
    zip(ISLAND_CODES, (3, 7, 5, 2, 9, 4, 6, 1, 8, 5, 10, 2, 6, 3, 7, 5, 4, 9, 1, 6, 8, 3, 5, 7, 2), strict=True)
)

COLUMNS = (
    ColumnPlan(
        "Pieces",
        kind=Column.INTEGER,
        allow_negative=True,
        default="8",
        description="Pieces o' Eight; below zero a Hunter is Ruined.",
    ),
    ColumnPlan(
        "Island",
        kind=Column.CHOICE,
        choices=ISLAND_CODES,
        default="AA",
        description="The Code of the Island the Hunter is on, row letter then column letter.",
    ),
    ColumnPlan("Ship", default="Unnamed (Sloop)", description="Name (Class); the classes are subrules of Ships."),
)

VALUES = {
    "Morwenna": {"Pieces": "88", "Island": "CC", "Ship": "HMS Fearless (Galleon)"},
    "Ishbel": {"Pieces": "11", "Island": "BD", "Ship": "RV Gutsy (Brigantine)"},
    "Anton Reyes": {"Pieces": "6", "Island": "EB", "Ship": "USS Daring (Sloop)"},
    "Grub": {"Pieces": "-2", "Island": "BB", "Ship": "Unnamed (Raft)"},
    "Pike": {"Pieces": "9", "Island": "AE"},
    "Lark": {"Pieces": "4", "Island": "CD", "Ship": "HMS Plucky (Sloop)"},
    "Salt Annie": {"Pieces": "13", "Island": "DA", "Ship": "RV Valiant (Barque)"},
    "Benbow": {"Island": "EE"},
}

ACTIONS = (
    ActionPlan(
        "Raid", "daily", "Roll DICE10 against the Island's Treasure Rating; at most three times a week.", weekly_cap=3
    ),
    ActionPlan("Bury Treasure", "daily", "Lose some Pieces into a new Chest at your location."),
    ActionPlan("Dig Up Treasure", "daily", "Empty a Chest you keep at your location."),
    ActionPlan("Set Sail", "daily", "Move as far as your Ship's Speed allows."),
)


def _archipelago() -> str:
    rows = "\n".join(
        f"* Row {first}: " + ", ".join(f"{first}{second} {TREASURE[first + second]}" for second in "ABCDE")
        for first in "ABCDE"
    )
    return (
        "== The Golden Archipelago ==\nTreasure Ratings by Island Code (row letter, then column letter). Each "
        "rises by 1 at the start of the week, to at most 10.\n\n" + rows + "\n\n"
        "== Chests ==\n* At DA: 5 Pieces; Keepers: Salt Annie\n* At BD: 2 Pieces; Keepers: Ishbel, Lark\n"
    )


PAGES = (PagePlan("The Golden Archipelago", "the-golden-archipelago", _archipelago()),)


def play_opening(game: SeedGame) -> None:
    """Three weeks at sea: a proposal enacted and one pending, a raid, a voyage, an exploration the Pirate
    answers privately, and a Hunter gone into Ruin."""
    game.story(
        "welcome",
        "Story Post: Charts and Rum",
        19 * 24,
        sticky=True,
        body=(
            "Somewhere in these twenty-five islands lies my hoard, under a landmark only I could name. Raid, "
            "bury, dig and sail as you like. Buy me a drink and I might even tell you a story."
        ),
    )

    game.post(
        "anchors",
        "Salt Annie",
        Kind.PROPOSAL,
        "Proposal: Dropping Anchor",
        10 * 24,
        body="Add a rule: a Hunter who has not sailed for three days may Drop Anchor, gaining 1 Piece, once a week.",
    )
    for name, hours in (("Ishbel", 236), ("Pike", 230), ("Lark", 226), ("Morwenna", 222)):
        game.vote("anchors", name, "for", hours)
    game.resolve("anchors", "enact", 205)

    game.gndt("Grub", {("Grub", "Island"): "BB"}, 50, comment="Sailing from AB to BB", action="Set Sail")
    raid = game.gndt(
        "Pike", {}, 30, comment=f"Raiding AE (Treasure Rating {TREASURE['AE']}): DICE10 DICE3", action="Raid"
    )
    found, gained = (roll["results"][0] for roll in raid.rolls)
    if found <= TREASURE["AE"]:
        pieces = int(VALUES["Pike"]["Pieces"]) + gained
        game.gndt("Pike", {("Pike", "Pieces"): str(pieces)}, 29.9, comment=f"The raid found {gained} Pieces")

    game.post(
        "explore",
        "Lark",
        Kind.POST,
        "Exploring the Island at CD",
        26,
        body="Lark explores the Island at CD, her Sloop tied up at the old jetty.",
    )
    game.vote("explore", "Morwenna", None, 24, "Described privately. Lark loses 1 Piece.")
    game.gndt("Morwenna", {("Lark", "Pieces"): "3"}, 24, comment="Describing CD for Lark")
    game.message("Morwenna", ("Lark",), "The Island at CD", "Landmarks at CD: the cave and the ruins.", 24)

    game.post(
        "cannons",
        "Anton Reyes",
        Kind.PROPOSAL,
        "Proposal: Bigger Guns for Sloops",
        16,
        body="Change the Sloop's Cannon from 1 to 2.",
    )
    game.vote("cannons", "Salt Annie", "against", 12, "Then nobody would buy a Brigantine.")
    game.vote("cannons", "Grub", "for", 9)


DEMO = SeedDemo(
    file_name="001_4d757ed51b1cb83a.txt",
    ruleset_label="Ruleset 142",
    profile="2016",
    dynasty_number=142,
    player_term="Hunter",
    emperor_term="Pirate",
    theme="Treasure hunters sailing an archipelago after the Pirate's hoard",
    password="doubloon",
    emperor=EMPEROR,
    admins=ADMINS,
    players=PLAYERS,
    idle=("Benbow",),
    columns=COLUMNS,
    values=VALUES,
    actions=ACTIONS,
    pages=PAGES,
    look=LookPlan(
        palette="daybreak",
        header_line="Dead men tell no tales, but Pirates do, for a price",
        vote_labels={"for": "Aye", "against": "Belay"},
    ),
    play_opening=play_opening,
    characteristic_moves=("a daily Raid at most three times a week", "Pieces below zero", "an exploration"),
)
