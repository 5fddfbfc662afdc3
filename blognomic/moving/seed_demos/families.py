"""Ruleset 21 (2005): Families of a small duchy under their Duke, counting Thalers and Family Members.

What the dynastic rules ask the site to hold: Thalers from 0 to 200, clamped; each Family's Surname and
Members; the Outcasts as a row that is no Family; daily attempts at children, fights and transfers; Petitions
that only the Duke votes on. All names and texts here are invented for the demo.
"""

from __future__ import annotations

from blognomic.moving.seed_demos.building import (
    ActionPlan,
    ColumnPlan,
    EffectPlan,
    LookPlan,
    SeedDemo,
    SeedGame,
    VariablePlan,
    current_values,
)
from gndt.models import Column
from votes.models import Kind

EMPEROR = "Wendelin"
ADMINS = ("Mirela", "Ruprecht")
PLAYERS = ("Wendelin", "Mirela", "Ruprecht", "Halvard", "Jonas Pfeil", "Benedikta", "Tobiah", "Sanne")

COLUMNS = (
    ColumnPlan("Surname", description="Rule 11: a Family's Surname, at first the Family's own name."),
    ColumnPlan(
        "Thalers",
        kind=Column.INTEGER,
        minimum=0,
        maximum=200,
        clamp=True,
        default="200",
        description="Rule 2: never below 0 nor above 200; a change past a bound stops at it.",
    ),
    ColumnPlan(
        "Members",
        kind=Column.LIST,
        description="Rule 11: each Member as Forename (Birthdate/Gender, married to Spouse).",
    ),
    ColumnPlan(
        "Year",
        kind=Column.INTEGER,
        choices=("-",),
        default="-",
        description="Kept by The Calendar alone: the Year, ten more every midnight UTC.",
    ),
)
CALENDAR = "The Calendar"
YEAR_NOW = 230

VALUES = {
    "Wendelin": {
        "Surname": "von Aue",
        "Thalers": "164",
        "Members": "Ulrich (175/M, married to Ida), Ida (182/F, married to Ulrich)",
    },
    "Mirela": {
        "Surname": "Kessler",
        "Thalers": "121",
        "Members": "Anselm (170/M, married to Greta), Greta (180/F, married to Anselm), Konrad (220/M)",
    },
    "Ruprecht": {"Surname": "Haber", "Thalers": "88", "Members": "Lorenz+ (168/M), Agathe (190/F)"},
    "Halvard": {
        "Surname": "Ostrander",
        "Thalers": "143",
        "Members": "Matthis$ (175/M, married to Wilma), Wilma (185/F, married to Matthis$)",
    },
    "Jonas Pfeil": {"Surname": "Pfeil", "Thalers": "57", "Members": "Liesl (200/F), Bertram (150-220/M)"},
    "Benedikta": {"Surname": "Brenner", "Thalers": "200", "Members": "Clemens* (165/M), Hedda (195/F)"},
    "Tobiah": {"Surname": "Tobiah", "Thalers": "96", "Members": "Ottilie (180/F), Veit (205/M)"},
    "Sanne": {"Surname": "Sanne", "Thalers": "110", "Members": "Ruth (190/F)"},
    "Outcasts": {"Surname": "Outcasts", "Members": "Friedl (185/M/(Haber))", "Year": "-"},
    CALENDAR: {"Year": str(YEAR_NOW)},
}

ACTIONS = (
    ActionPlan(
        "Have a Child",
        "daily",
        "Once per day for each married couple: two DICE, for the pregnancy and the child's gender.",
    ),
    ActionPlan("Start a Fight", "daily", "Once per day a Member may fight another: DICE against DICE."),
    ActionPlan("Transfer Thalers", "daily", "Once per day a Family may give Thalers to another Family."),
)

EFFECTS = (EffectPlan("The Calendar advances ten Years", "Year", 10, row=CALENDAR, hour=0, minute=0),)

PETITION = {
    "name": "Petition",
    "base": "matter",
    "subject_rule": "prefix",
    "subject_text": "Petition:",
    "posters": "not_emperor",
    "electorate": "emperor",
    "quorum": "eligible",
    "resolution": "verdict",
    "verdict_hours": 48,
    "veto": "none",
    "counts_towards_limits": False,
}
"""Only the Duke votes on a Petition; after 48 hours it is approved (Duke FOR), rejected (AGAINST) or
ignored (no vote). The Duke may not petition."""

REWARDS = (
    {"label": "the proposer's reward", "when": "enacted", "target": "author", "amount": 10, "trivial_amount": 2},
    {"label": "the proposer's loss", "when": "failed", "target": "author", "amount": -3},
    {
        "label": "the enacting admin's claim",
        "when": "enacted",
        "target": "admin",
        "amount": 5,
        "trivial_amount": 2,
        "optional": True,
    },
    {
        "label": "deducted for not voting",
        "when": "either",
        "target": "non_voters",
        "amount": -5,
        "optional": True,
        "after_hours": 48,
        "not_if_vetoed_or_self_killed": True,
    },
)
"""Rule 5's Thalers for resolving a Proposal, applied with the resolution."""


def play_opening(game: SeedGame) -> None:
    """Three weeks of the duchy: Petitions and the Thalers of resolving recorded, a Trivial proposal enacted
    (its admin claiming the reward), one failed, one pending, a Petition the Duke approved and one he has
    not yet answered, a marriage offer, a child tried for, and a transfer of Thalers."""
    game.story(
        "welcome",
        "Story Post: The Gates of the Duchy Open",
        19 * 24,
        sticky=True,
        body=(
            "The harvest is in, the roads are dry, and every Family has a house in the valley. Marry well, raise "
            "children, keep out of the Duke's bad books, and may your Thalers never run dry.\n\n"
            "Petitions go to me; Proposals go to everyone. The [Ruleset](/wiki/ruleset/) says the rest."
        ),
    )
    _charter(game)
    _proposals(game)
    _petitions(game)
    _family_life(game)


def _charter(game: SeedGame) -> None:
    """The Duchy's own rules in the tally: Petitions, and the Thalers of resolving a Proposal."""
    game.post(
        "charter",
        "Mirela",
        Kind.PROPOSAL,
        "Proposal: The Duchy's Rules in the Tally",
        18 * 24 + 12,
        body="Let the site keep what the Ruleset already says: Petitions that only the Duke votes on, "
        "settled after two days, and the Thalers a proposer gains or loses when a Proposal is "
        "resolved. The Ruleset itself does not change.",
    )
    for name, hours in (("Ruprecht", 443), ("Halvard", 442), ("Benedikta", 441), ("Wendelin", 440)):
        game.vote("charter", name, "for", hours)
    game.resolve("charter", "enact", 438, admin="Ruprecht")
    game.define_kind("charter", 437, **PETITION)
    for effect in REWARDS:
        game.define_resolution_effect("charter", 437, core_kind="proposal", column="Thalers", **effect)


def _proposals(game: SeedGame) -> None:
    """A Trivial proposal enacted, its admin claiming the reward; one failed; one pending."""
    game.post(
        "bells",
        "Halvard",
        Kind.PROPOSAL,
        "Proposal: Church Bells for Weddings",
        14 * 24,
        trivial=True,
        body="Trivial. When a Priest performs a Marriage, the married Families may each ring the church "
        "bells once, which has no effect but is recorded in the GNDT comment.",
    )
    for name, hours in (("Mirela", 335), ("Benedikta", 333), ("Wendelin", 330), ("Tobiah", 326)):
        game.vote("bells", name, "for", hours)
    game.resolve("bells", "enact", 320, claims=("the enacting admin's claim",))

    game.post(
        "dowry",
        "Jonas Pfeil",
        Kind.PROPOSAL,
        "Proposal: Dowries Paid in Grain",
        9 * 24,
        body="A dowry may be paid in sacks of grain instead of Thalers, one sack counting as 3 Thalers.",
    )
    for name, icon, hours, text in (
        ("Halvard", "against", 214, "Grain rots; Thalers do not."),
        ("Ruprecht", "against", 212, ""),
        ("Benedikta", "against", 205, ""),
        ("Wendelin", "against", 200, "The treasury does not take grain."),
        ("Mirela", "against", 199, ""),
    ):
        game.vote("dowry", name, icon, hours, text)
    game.resolve("dowry", "fail", 198, admin="Ruprecht")

    game.post(
        "fair",
        "Benedikta",
        Kind.PROPOSAL,
        "Proposal: The Autumn Fair",
        30,
        body="Once per dynasty the Duke may hold an Autumn Fair: for one day every Family may enter one "
        "Member in a contest of strength (DICE6), and the winner's Family gains 15 Thalers.",
    )
    for name, icon, hours, text in (
        ("Tobiah", "for", 28, "Yes, and let there be cake."),
        ("Halvard", "for", 26, ""),
        ("Jonas Pfeil", "against", 20, "The Pfeils have nobody strong enough left."),
    ):
        game.vote("fair", name, icon, hours, text)


def _petitions(game: SeedGame) -> None:
    """A Petition the Duke approved and one he has not yet answered."""
    game.post(
        "bridge",
        "Tobiah",
        Kind.MATTER,
        "Petition: A Bridge over the Mill Stream",
        100,
        body="The Tobiahs ask leave to build a footbridge to the mill, at their own cost, so that the "
        "children need not wade.",
    )
    game.vote("bridge", "Halvard", None, 97, "The Ostranders would use it too.")
    game.vote("bridge", EMPEROR, "for", 90, "Granted, provided it is wide enough for a cart.")
    game.resolve("bridge", "enact", 52)

    game.post(
        "accusation",
        "Jonas Pfeil",
        Kind.MATTER,
        "Petition: Accuse Ruprecht",
        20,
        body="The Habers have kept Friedl's share of the harvest since he was cast out. That is theft, "
        "and theft is Against the Law.",
    )
    game.vote("accusation", "Ruprecht", None, 18, "Friedl left with his share and more.")


def _family_life(game: SeedGame) -> None:
    """A marriage offer, a child tried for, and a loan of Thalers."""
    game.post(
        "marriage",
        "Mirela",
        Kind.POST,
        "Proposed Marriage: Konrad Kessler to Liesl Pfeil",
        40,
        body="Konrad of the Kessler Family asks for the hand of Liesl of the Pfeil Family. The Kesslers "
        "offer a dowry of 13 Thalers.",
    )
    game.vote("marriage", "Jonas Pfeil", None, 37, "The Pfeils accept, provided the wedding waits for spring.")

    _try_for_a_child(game)
    purses = current_values(game.dynasty, [("Halvard", "Thalers"), ("Tobiah", "Thalers")])
    game.gndt(
        "Halvard",
        {
            ("Halvard", "Thalers"): str(int(purses[("Halvard", "Thalers")]) - 10),
            ("Tobiah", "Thalers"): str(int(purses[("Tobiah", "Thalers")]) + 10),
        },
        8,
        comment="A loan of 10 Thalers to the Tobiah Family until the fair",
        action="Transfer Thalers",
    )


def _try_for_a_child(game: SeedGame) -> None:
    """Greta and Anselm Kessler try for a child; what happens follows the dice actually rolled (the first
    for the pregnancy: 1–3 a child, 4–5 none this time, 6 a child whose mother dies; the second for the
    child's gender: even a boy, odd a girl)."""
    tried = game.gndt("Mirela", {}, 50, comment="Greta and Anselm having kids: DICE6, DICE6", action="Have a Child")
    pregnancy, gender = (roll["results"][0] for roll in tried.rolls)
    if pregnancy in (4, 5):
        game.gndt("Mirela", {}, 49.9, comment="No child this time; the Kesslers will try again tomorrow")
        return
    child = "Jakob (230/M)" if gender % 2 == 0 else "Elsbeth (230/F)"
    parents = (
        "Anselm (170/M, married to Greta), Greta (180/F, married to Anselm)"
        if pregnancy < 6
        else "Anselm (170/M), Greta (180-230/F)"
    )
    born = "born" if pregnancy < 6 else "born, and Greta died in childbirth"
    game.gndt(
        "Mirela",
        {("Mirela", "Members"): f"{parents}, Konrad (220/M), {child}"},
        49.9,
        comment=f"{child.split()[0]} Kessler is {born}",
    )


DEMO = SeedDemo(
    file_name="002_db893bcde67d061f.txt",
    ruleset_label="Ruleset 21",
    profile="2005",
    dynasty_number=21,
    player_term="Family",
    player_term_plural="Families",
    emperor_term="Duke",
    theme="Families of a valley duchy, their marriages, children and Thalers",
    password="thalers",
    emperor=EMPEROR,
    admins=ADMINS,
    players=PLAYERS,
    idle=("Sanne",),
    columns=COLUMNS,
    other_rows=("Outcasts", CALENDAR),
    effects=EFFECTS,
    variables=(VariablePlan("The Year", row=CALENDAR, column="Year"),),
    look=LookPlan(
        palette="parchment",
        header_line="A valley duchy: marry well and mind your Thalers",
        vote_labels={"for": "Aye", "against": "Nay", "deferential": "As the Duke"},
    ),
    values=VALUES,
    actions=ACTIONS,
    play_opening=play_opening,
    characteristic_moves=(
        "a Petition the Duke answers",
        "Thalers held between 0 and 200",
        "a daily attempt at a child",
    ),
)
