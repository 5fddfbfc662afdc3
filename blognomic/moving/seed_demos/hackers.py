"""The 2015 ruleset: Hackers under Zero Cool, each a Corp Name with secret Codenames in the GNDT.

What the dynastic rules ask the site to hold: Codenames as rows that are no player, named with a leading
colon, and the :PROTO row through which Codenames are requested; each row's Hacker field, Tool string and
Secrets; who controls a Codename proved by a sentence naming its Corp, which the site seals (instead of
the outside hash tools of the time) and reveals on demand; daily actions to set up Codenames, add
Subroutines, investigate and hack; Investigation story posts. All names and texts here are invented.
"""

from __future__ import annotations

from blognomic.moving.seed_demos.building import ActionPlan, ColumnPlan, LookPlan, SeedDemo, SeedGame
from gndt.models import Column
from gndt.services.tables import gndt_row_add
from votes.models import Kind

EMPEROR = "Vex"
ADMINS = ("Kestrel", "Juno Park")
PLAYERS = ("Vex", "Kestrel", "Juno Park", "Marlow Dyer", "Bishop", "Nadia Okafor", "Tamsin", "Riggs")
PROTO = ":PROTO"
CODENAMES = (":Nightjar", ":Ferryman")

COLUMNS = (
    ColumnPlan(
        "Hacker", description="A Codename's password, kept in public; a retired Codename's Hacker; or TERMINATED."
    ),
    ColumnPlan(
        "Tool", description="A Codename's Subroutines, left to right; a Corp's Defence Score and Security Measures."
    ),
    ColumnPlan(
        "Secrets", kind=Column.INTEGER, default="5", description="Corp Names start with 5, Codenames with none."
    ),
)

CORP_TOOLS = {
    "Vex": "12))",
    "Kestrel": "10/",
    "Juno Park": "10)",
    "Marlow Dyer": "10",
    "Bishop": "9@",
    "Nadia Okafor": "10",
    "Tamsin": "11)",
    "Riggs": "10",
}
VALUES = {
    **{name: {"Tool": tool} for name, tool in CORP_TOOLS.items()},
    "Bishop": {"Tool": "9@", "Secrets": "4"},
    "Tamsin": {"Tool": "11)", "Secrets": "6"},
    PROTO: {"Hacker": "letmein"},
    ":Nightjar": {"Hacker": "moth-and-lamp", "Tool": "^^?", "Secrets": "1"},
    ":Ferryman": {"Hacker": "Bishop", "Tool": "^&"},
}

ACTIONS = (
    ActionPlan("Set Up a Codename", "daily", "Add a Codename (its name starts with a colon) as a row."),
    ActionPlan("Add a Subroutine", "daily", "Add one Subroutine to the right of any Codename's Tool."),
    ActionPlan(
        "Investigate a Codename",
        "daily",
        "Spend Defence Score and post an Investigation naming a Codename and the Hacker thought to own it.",
    ),
    ActionPlan(
        "Hack", "daily", "A Codename compares its Tool's Hack Value with a Corp's Defence Score; covert and signed."
    ),
)

NIGHTJAR_SENTENCE = "Marlow Dyer hums an old tune while the kettle boils."
"""The sentence Marlow Dyer sealed to own :Nightjar; revealing it proves the ownership."""
GLASSWING_SENTENCE = "Nadia Okafor counts the stairs every morning."


def play_opening(game: SeedGame) -> None:
    """A week on the grid: codename ownership sealed, a Codename requested through :PROTO and created by an
    admin, a Subroutine added, an Investigation, and proposals enacted and pending."""
    game.story(
        "welcome",
        "Story Post: Welcome to the Grid",
        19 * 24,
        sticky=True,
        body=(
            "Every Corp has something worth stealing and every Hacker has a mask or two. Make your Codenames, "
            "sharpen your Tools, and keep your Secrets.\n\nProve what you own by sealing a sentence with your "
            "Corp Name at [Seals](/seals/); reveal it when someone asks."
        ),
    )
    _codenames(game)
    _a_subroutine_added(game)
    _pending_matters(game)


def _codenames(game: SeedGame) -> None:
    """Codename ownership sealed, and a Codename requested through :PROTO and created by an admin."""
    game.seal("Marlow Dyer", "Who controls :Nightjar", NIGHTJAR_SENTENCE, 17 * 24)
    signed = game.seal("Nadia Okafor", "Who controls :Glasswing", GLASSWING_SENTENCE, 50)
    game.gndt(
        "Nadia Okafor",
        {},
        49.5,
        comment=f"Via {PROTO}: please create :Glasswing with the password kettle-42. Signed {signed.digest}",
    )
    gndt_row_add(dynasty=game.dynasty, by=game.users["Kestrel"], now=game.ago(40), name=":Glasswing")
    game.gndt(
        "Kestrel",
        {(":Glasswing", "Hacker"): "kettle-42"},
        40,
        comment=f"Created :Glasswing as requested. Signed {signed.digest}",
        action="Set Up a Codename",
    )
    game.gndt(
        "Marlow Dyer",
        {(":Nightjar", "Tool"): "^^?2"},
        20,
        comment="An Amplifier for the bird",
        action="Add a Subroutine",
    )


def _a_subroutine_added(game: SeedGame) -> None:
    game.post(
        "amplifiers",
        "Tamsin",
        Kind.PROPOSAL,
        "Proposal: Louder Amplifiers",
        7 * 24,
        body="An Amplifier triples the Hack Value of its Tool, instead of doubling it, if the Tool holds no Bug.",
    )
    for name, hours in (("Kestrel", 166), ("Juno Park", 160), ("Bishop", 150), ("Vex", 146), ("Nadia Okafor", 140)):
        game.vote("amplifiers", name, "for", hours)
    game.resolve("amplifiers", "enact", 130)

    game.gndt(
        "Juno Park",
        {("Juno Park", "Tool"): "8)"},
        30,
        comment="Spent 2 Defence Score on an Investigation of :Nightjar",
        action="Investigate a Codename",
    )


def _pending_matters(game: SeedGame) -> None:
    """An Investigation, and a proposal still pending."""
    game.post(
        "investigation",
        "Juno Park",
        Kind.STORY,
        "Investigation: :Nightjar",
        30,
        body="Juno Park investigates :Nightjar, believing it to belong to Marlow Dyer. 2 Defence Score "
        "spent; it may be resolved 23 hours from now.",
    )
    game.vote("investigation", "Marlow Dyer", None, 26, "Bold guess. My seal says otherwise, or does it?")

    game.post(
        "honeypots",
        "Bishop",
        Kind.PROPOSAL,
        "Proposal: Sticky Honeypots",
        14,
        body="A Honeypot negates the two leftmost Subroutines of a hacking Tool instead of one.",
    )
    game.vote("honeypots", "Marlow Dyer", "against", 10, "Honeypots are strong enough.")
    game.vote("honeypots", "Kestrel", "for", 8)


DEMO = SeedDemo(
    file_name="003_15a6e727611472a9.txt",
    ruleset_label="the 2015 ruleset",
    profile="2016",
    dynasty_number=135,
    player_term="Hacker",
    emperor_term="Zero Cool",
    emperor_article="",
    theme="Corporate hackers behind secret Codenames",
    password="firewall",
    emperor=EMPEROR,
    admins=ADMINS,
    players=PLAYERS,
    idle=("Riggs",),
    columns=COLUMNS,
    other_rows=(PROTO, *CODENAMES),
    values=VALUES,
    actions=ACTIONS,
    look=LookPlan(palette="forest", header_line="Trust no Codename"),
    play_opening=play_opening,
    characteristic_moves=(
        "sealing and revealing a Codename's sentence",
        "a Codename requested through :PROTO",
        "a daily Subroutine",
    ),
)
