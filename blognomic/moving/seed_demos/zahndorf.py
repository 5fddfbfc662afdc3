"""Ruleset 50 (2008): Villagers of a mountain village under their Mayor, some of them secretly Werewolves.

What the dynastic rules ask the site to hold: each Villager's Life (Healthy, Wounded or Dead), Occupation
(blank for a Peasant) and Inventory; secret state only the Mayor keeps (who is a Werewolf, Acuity Points);
Town Meetings that the dead and the imprisoned may not vote in; daily and weekly trade actions; private
messages to the Mayor; anonymous Calls for Judgement. All names and texts here are invented for the demo.
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
from dynasties.phases import DAY_PARITY, DAYTIME
from gndt.models import Column
from votes.models import Kind

EMPEROR = "Gottfried"
ADMINS = ("Ilse", "Marek")
PLAYERS = ("Gottfried", "Ilse", "Marek", "Fenwick", "Rosalind", "Dagny", "Emmerich", "Theda", "Quill")
WEREWOLVES = ("Fenwick", "Theda")

COLUMNS = (
    ColumnPlan(
        "Life",
        kind=Column.CHOICE,
        choices=("Healthy", "Wounded", "Dead"),
        default="Healthy",
        description="Every Villager starts Healthy.",
    ),
    ColumnPlan("Occupation", description="Blank means a Peasant; the Mayor's is always Mayor."),
    ColumnPlan(
        "Inventory", kind=Column.LIST, description="Items carried: swords, guns, bullets, elixirs, tankards, keys."
    ),
    ColumnPlan(
        "Hairy Back",
        kind=Column.CHOICE,
        choices=("", "Yes", "No"),
        description="Shown only once the Mayor has announced it.",
    ),
    ColumnPlan(
        "Role",
        kind=Column.CHOICE,
        choices=("Villager", "Werewolf"),
        default="Villager",
        hidden=True,
        owner_visible=True,
        description="Secret: the Mayor knows every Role, each Villager their own.",
    ),
    ColumnPlan(
        "Acuity Points",
        kind=Column.INTEGER,
        default="0",
        hidden=True,
        description="Tracked secretly by the Mayor, awarded at each death.",
    ),
)

VALUES = {
    "Gottfried": {"Occupation": "Mayor"},
    "Ilse": {"Occupation": "Apothecary", "Inventory": "Elixir of Rue, Elixir of Rue"},
    "Marek": {"Occupation": "Beer Seller", "Inventory": "Gaol Keys"},
    "Fenwick": {
        "Occupation": "Swordsmith",
        "Inventory": "Sword",
        "Role": "Werewolf",
        "Hairy Back": "Yes",
        "Acuity Points": "1",
    },
    "Rosalind": {"Occupation": "Alchemist", "Life": "Wounded", "Hairy Back": "No"},
    "Dagny": {"Occupation": "Prisoner"},
    "Emmerich": {"Occupation": "Fishmonger", "Life": "Dead", "Inventory": "Vial of Poison"},
    "Theda": {"Role": "Werewolf", "Acuity Points": "1"},
}

ACTIONS = (
    ActionPlan(
        "Resign an Occupation",
        "weekly",
        "A living Villager (not the Mayor nor the Prisoner) becomes a Peasant again.",
        phase=DAYTIME,
    ),
    ActionPlan("Brew an Elixir", "daily", "The Apothecary, if alive, adds one vial.", phase=DAYTIME),
    ActionPlan(
        "Make a Sale",
        "daily",
        "The Beer Seller rolls a DICE over the living Villagers and hands an Ale Tankard to the one it lands on.",
    ),
    ActionPlan("Perform an Autopsy", "daily", "The Alchemist asks the Mayor what a dead Villager was.", phase=DAYTIME),
    ActionPlan(
        "Forge a Sword", "weekly", "The Swordsmith makes a sword after a full week at the forge.", phase=DAYTIME
    ),
)

TOWN_MEETING = {
    "name": "Town Meeting",
    "base": "proposal",
    "subject_rule": "phrase",
    "subject_text": "Town Meeting",
    "posters": "filter",
    "posters_filter": [{"column": "Life", "op": "≠", "value": "Dead"}],
    "electorate": "filter",
    "electorate_filter": [
        {"column": "Life", "op": "≠", "value": "Dead"},
        {"column": "Occupation", "op": "≠", "value": "Prisoner"},
    ],
    "quorum": "eligible",
    "veto": "emperor",
    "phase": DAYTIME,
}
"""A Proposal whose title says "Town Meeting": called by the living in the Daytime, voted on by the living who
are not in gaol, with a Quorum of half of those, rounded down, plus one; the Mayor may veto it."""

PAGES = (
    PagePlan(
        "Occupations",
        "occupations",
        (
            "== Occupations ==\nThe trades a Peasant may take up in the Daytime. Taken ones are marked.\n\n"
            "=== Crafts ===\n* Swordsmith (taken)\n* Silversmith\n* Gunsmith\n* Barber\n\n"
            "=== Food ===\n* Fishmonger (taken, but its holder is dead)\n* Greengrocer\n* Pie seller\n\n"
            "=== Learned ===\n* Apothecary (taken)\n* Alchemist (taken)\n* Doctor\n* Solicitor\n\n"
            "=== Criminal ===\n* Pickpocket\n* Smuggler\n"
        ),
    ),
)


def play_opening(game: SeedGame) -> None:
    """Three weeks in the village: Town Meetings recorded as a kind, a death announced, a proposal enacted,
    an anonymous Call for Judgement, a Villager writing to the Mayor, the day's trades in the GNDT, and a
    Town Meeting called in the Daytime."""
    game.story(
        "welcome",
        "Story Post: Fog in the Valley",
        19 * 24,
        sticky=True,
        body=(
            "The last cart has left before the snow, and the village is on its own until spring. Lock your doors "
            "at night. Something has been taking sheep from the high pasture, and it is not a fox.\n\n"
            "Write to me privately about anything you would rather the village did not know."
        ),
    )
    _town_meetings(game)
    _a_proposal_enacted(game)
    _a_death_and_a_judgement(game)
    _night_and_day(game)


def _town_meetings(game: SeedGame) -> None:
    """Town Meetings recorded as a kind of matter, citing the Proposal that says so."""
    game.post(
        "charter",
        "Ilse",
        Kind.PROPOSAL,
        "Proposal: Town Meetings in the Tally",
        18 * 24 + 12,
        body="Let the site count Town Meetings as the Ruleset describes them: only the living and the "
        "free vote, with a Quorum of their own. The Ruleset itself does not change.",
    )
    for name, hours in (("Marek", 443), ("Rosalind", 442), ("Dagny", 440), ("Gottfried", 439)):
        game.vote("charter", name, "for", hours)
    game.resolve("charter", "enact", 428, admin="Marek")
    game.define_kind("charter", 427, **TOWN_MEETING)


def _a_proposal_enacted(game: SeedGame) -> None:
    game.post(
        "lantern",
        "Rosalind",
        Kind.PROPOSAL,
        "Proposal: A Lantern at the Well",
        12 * 24,
        body="Add a rule: the well in the square has a lantern. During the Nighttime any living Villager "
        "may light it, and the Mayor then names one Villager who was seen near the well.",
    )
    for name, hours in (("Ilse", 286), ("Marek", 284), ("Dagny", 280), ("Theda", 275), ("Quill", 270)):
        game.vote("lantern", name, "for", hours)
    game.resolve("lantern", "enact", 262)


def _a_death_and_a_judgement(game: SeedGame) -> None:
    """A death announced, and an anonymous Call for Judgement."""
    game.story(
        "death",
        "Story Post: The Fishmonger Is Dead",
        5 * 24,
        body=(
            "Emmerich the fishmonger was found this morning behind the smokehouse, savaged. His cart is still "
            "full. Whoever did this walked away on four legs."
        ),
    )
    game.vote("death", "Rosalind", None, 118, "I will look at the body, if the family allows it.")

    game.post(
        "cfj",
        "Quill",
        Kind.CFJ,
        "Call for Judgement: Keys Are Items",
        30,
        anonymous=True,
        body="The Gaol Keys were handed over in a GNDT comment but never added to an Inventory. Treat "
        "the Gaol Keys as an item, held by Marek, from now on.",
    )
    for name, icon, hours in (("Ilse", "for", 28), ("Marek", "for", 27), ("Fenwick", "against", 20)):
        game.vote("cfj", name, icon, hours)


def _night_and_day(game: SeedGame) -> None:
    """A Villager writing to the Mayor, the day's trades, and a Town Meeting called in the Daytime."""
    game.message("Theda", (EMPEROR,), "Targeting Rosalind by Biting", "She is too curious about the body.", 60)
    game.gndt(
        "Ilse",
        {("Ilse", "Inventory"): "Elixir of Rue, Elixir of Rue, Elixir of Thorns"},
        game.in_phase(DAYTIME, 44),
        comment="A new vial, a third of the apothecary's shelf",
        action="Brew an Elixir",
    )
    game.gndt("Marek", {("Theda", "Inventory"): "Ale Tankard"}, 70, comment="Closing time. DICE7", action="Make a Sale")

    called = game.in_phase(DAYTIME, 9)
    game.post(
        "smokehouse",
        "Rosalind",
        Kind.PROPOSAL,
        "Proposal: Town Meeting: Search the Smokehouse",
        called,
        body="The village searches the smokehouse where Emmerich was found. Every Villager who votes FOR "
        "is present; the Mayor reports in a story post what the search turns up.",
    )
    game.vote("smokehouse", "Ilse", "for", called - 1, "Bring lanterns.")
    game.vote("smokehouse", "Theda", "against", called - 2, "There is nothing to find but fish.")


DEMO = SeedDemo(
    file_name="004_95b4f428453237d6.txt",
    ruleset_label="Ruleset 50",
    profile="2008",
    dynasty_number=50,
    player_term="Villager",
    emperor_term="Mayor",
    theme="A mountain village where some Villagers are secretly Werewolves",
    password="fullmoon",
    emperor=EMPEROR,
    admins=ADMINS,
    players=PLAYERS,
    idle=(),
    columns=COLUMNS,
    values=VALUES,
    actions=ACTIONS,
    pages=PAGES,
    variables=(VariablePlan("Time of day", phase_rule=DAY_PARITY),),
    look=LookPlan(palette="midnight", header_line="Lock your doors after dark"),
    play_opening=play_opening,
    characteristic_moves=(
        "a Town Meeting with its own quorum in the Daytime",
        "a secret Role its Villager sees",
        "a weekly resignation",
    ),
)
