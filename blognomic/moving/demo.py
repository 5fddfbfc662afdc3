"""The demo game: a small lighthouse-themed dynasty with players, votes, a ruleset and a GNDT.

Built through the same services that players and admins use, with the time passed in, so the demo exercises
the real rules. Everything here is our own invention.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.db import transaction

from blognomic.flows.amendments.services import post_create_with_amendment, ruleset_base_number
from blognomic.flows.roster.services import application_submit
from dynasties.models import Absence, Dynasty, Game, User
from gndt.models import Cell, CellChange, Column, Row, Update
from gndt.services import gndt_action_save, gndt_effect_save, gndt_update
from ruleset.models import Page
from ruleset.services import page_create
from votes.models import Kind
from votes.posting import post_create
from votes.services import comment_add, matter_resolve

DEMO_PASSWORD = "lighthouse"
EMPEROR = "Wren"
ADMINS = ["Ada", "Bram"]
PLAYERS = ["Wren", "Ada", "Bram", "Cato", "Dilys", "Ezra Vane", "Fenna", "Gus"]
IDLE = "Gus"
RULESET_TEXT = (Path(__file__).parent / "demo_ruleset.txt").read_text(encoding="utf-8")


def demo_exists() -> bool:
    return User.objects.filter(username=EMPEROR).exists()


@transaction.atomic
def build_demo(*, now: datetime) -> None:
    """Create the demo game as of ``now``; the caller checks ``demo_exists()`` first."""
    start = now - timedelta(days=30)
    game = Game.load()
    game.name, game.profile = "BlogNomic", "2016"
    game.save()
    users = {}
    for name in PLAYERS:
        user = User.objects.create_user(username=name, password=DEMO_PASSWORD)
        user.joined_at = start
        user.is_admin = name in ADMINS
        user.is_staff = name in ADMINS
        user.save()
        users[name] = user
    User.objects.create_user(username="Spectator Sam", password=DEMO_PASSWORD)  # comments, never votes
    Absence.objects.create(user=users[IDLE], kind=Absence.IDLE, started_at=now - timedelta(days=9))
    dynasty = Dynasty.objects.create(
        number=1,
        emperor=users[EMPEROR],
        player_term="Keeper",
        emperor_term="Harbourmaster",
        theme="Lighthouse keepers on a stormy coast",
        started_at=start,
    )
    Absence.objects.filter(user=users[IDLE]).update(dynasty=dynasty)
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=users["Ada"],
        text=RULESET_TEXT,
        summary="Starter ruleset for the First Dynasty of Wren",
        now=start,
        slug="ruleset",
    )
    page_create(
        title="Sightings",
        kind=Page.GAMESTATE,
        author=users["Ada"],
        now=start + timedelta(days=2),
        text="== Sightings ==\n* Day 2: a three-masted ship, far out, heading north.\n"
        "* Day 5: seals on the lower rocks.\n",
        summary="Gamestate page for sightings",
    )
    _build_gndt(dynasty, users, at=start + timedelta(minutes=5))
    _build_posts(users, now=now)
    application_submit(
        name="Hopeful Harriet",
        password=DEMO_PASSWORD * 2,
        ip_address=None,
        message="I have kept a lamp before, on a smaller rock.",
        now=now - timedelta(hours=3),
    )


def _build_gndt(dynasty: Dynasty, users: dict[str, User], *, at: datetime) -> None:
    columns = [
        Column(dynasty=dynasty, name="Oil", kind=Column.INTEGER, minimum=0, maximum=100, default="10", order=1),
        Column(
            dynasty=dynasty,
            name="Shift",
            kind=Column.CHOICE,
            choices=["Dawn", "Dusk", "Night"],
            default="Dawn",
            order=2,
        ),
        Column(dynasty=dynasty, name="Lamp", kind=Column.TEXT, default="Unlit", order=3),
        Column(
            dynasty=dynasty,
            name="Allegiance",
            kind=Column.CHOICE,
            choices=["Coast", "Sea"],
            default="Coast",
            order=4,
            hidden=True,
        ),
    ]
    Column.objects.bulk_create(columns)
    values = {
        "Wren": ["24", "Night", "Bright", "Sea"],
        "Ada": ["18", "Dawn", "Steady", "Coast"],
        "Bram": ["9", "Dusk", "Flickering", "Coast"],
        "Cato": ["31", "Night", "Bright", "Sea"],
        "Dilys": ["12", "Dawn", "Unlit", "Coast"],
        "Ezra Vane": ["15", "Dusk", "Steady", "Coast"],
        "Fenna": ["7", "Night", "Smoky", "Sea"],
        "Gus": ["10", "Dawn", "Unlit", "Coast"],
    }
    update = Update.objects.create(dynasty=dynasty, by=users["Ada"], at=at, comment="Starting values")
    order = 0
    for name, row_values in values.items():
        order += 1
        row = Row.objects.create(dynasty=dynasty, user=users[name], name=name, order=order)
        for column, value in zip(columns, row_values, strict=True):
            Cell.objects.create(row=row, column=column, value=value)
            CellChange.objects.create(update=update, row=row, column=column, old="", new=value)
    storehouse = Row.objects.create(dynasty=dynasty, name="The Storehouse", order=order + 1)
    Cell.objects.create(row=storehouse, column=columns[0], value="40")
    CellChange.objects.create(update=update, row=storehouse, column=columns[0], old="", new="40")
    _build_gndt_actions(dynasty, users, oil=columns[0], storehouse=storehouse, at=at)


def _build_gndt_actions(
    dynasty: Dynasty, users: dict[str, User], *, oil: Column, storehouse: Row, at: datetime
) -> None:
    """The GNDT's actions and its scheduled supply boat, and a player's first action a month later."""
    admin = users["Ada"]
    trim = gndt_action_save(
        dynasty=dynasty,
        by=admin,
        now=at,
        name="Trim the Wick",
        frequency="daily",
        description="Rule 2.3: roll DICE6 and gain that much Oil.",
    )
    gndt_action_save(dynasty=dynasty, by=admin, now=at, name="Change Shift", frequency="daily", description="Rule 2.2")
    gndt_effect_save(
        dynasty=dynasty,
        by=admin,
        now=at,
        name="Supply boat",
        column=oil,
        delta=2,
        target="row",
        row=storehouse,
        at_most=100,
        weekday=0,
        hour=6,
        minute=0,
    )
    later = at + timedelta(days=28)
    fenna = users["Fenna"]
    gndt_update(
        dynasty=dynasty,
        by=fenna,
        changes={("Fenna", "Oil"): "11"},
        seen={("Fenna", "Oil"): "7"},
        comment="Trimmed the wick on the night shift: +4 Oil",
        action=trim,
        now=later,
    )


@dataclass(frozen=True)
class _Storyteller:
    """Tells the demo's story a month back from ``now``: times are hours ago, players are named."""

    users: dict[str, User]
    now: datetime

    def ago(self, hours: float) -> datetime:
        return self.now - timedelta(hours=hours)

    def vote(self, post, name, icon, hours, text=""):
        comment_add(post=post, author=self.users[name], icon=icon, text=text, now=self.ago(hours))

    def propose(self, name, title, hours, body, operations, kind=Kind.PROPOSAL):
        return post_create_with_amendment(
            author=self.users[name],
            kind=kind,
            title=title,
            body=body,
            flavour="",
            trivial=False,
            anonymous=False,
            operations=operations,
            base_number=ruleset_base_number(),
            now=self.ago(hours),
        )


def _build_posts(users: dict[str, User], *, now: datetime) -> None:
    """The blog's month, in the order it happened (the order gives each post and comment its number)."""
    demo = _Storyteller(users=users, now=now)
    _post_welcome(demo)
    _post_resolved_proposals(demo)
    _post_storehouse_and_storm_warnings(demo)
    _post_logbook(demo)
    _post_judgement_and_admin_note(demo)


def _post_welcome(demo: _Storyteller) -> None:
    welcome = post_create(
        author=demo.users["Wren"],
        kind=Kind.STORY,
        title="Story Post: The Lamp Is Lit",
        now=demo.ago(29 * 24),
        body="Welcome, Keepers, to the lighthouse at Gull Point. The storms are coming early this year; "
        "keep your lamps trimmed and your Oil dry.\n\nRead the [Ruleset](/wiki/ruleset/) before you "
        "propose anything.",
        flavour="*Somewhere below, the sea grumbles against the rocks.*",
    )
    welcome.sticky = True
    welcome.save(update_fields=["sticky"])


def _post_resolved_proposals(demo: _Storyteller) -> None:
    """One proposal enacted, one failed, one self-killed."""
    rations = demo.propose(
        "Cato",
        "Proposal: Oil Rations",
        6 * 24,
        "Add a subrule to “The Lighthouse”: *At the start of each week, every Keeper with less than "
        "5 Oil gains 3 Oil from the Storehouse, if it has that much.*",
        [
            {
                "op": "rule_add",
                "title": "Oil Rations",
                "into": "rule-the-lighthouse",
                "at": "end",
                "body": "At the start of each week, every Keeper with less than 5 Oil gains 3 Oil from "
                "the Storehouse, if it has that much.",
            }
        ],
    )
    for name, hours in [("Ada", 143), ("Bram", 140), ("Dilys", 138), ("Wren", 131), ("Fenna", 130)]:
        demo.vote(rations, name, "for", hours, "Fair enough." if name == "Dilys" else "")
    matter_resolve(post=rations, admin=demo.users["Ada"], action="enact", now=demo.ago(126))

    fog = post_create(
        author=demo.users["Bram"],
        kind=Kind.PROPOSAL,
        title="Proposal: Fog Horn Tax",
        now=demo.ago(5 * 24),
        body="Each Keeper pays 2 Oil into the Storehouse whenever they sound the fog horn.",
    )
    demo.vote(fog, "Cato", "against", 118, "Taxing safety? Never.")
    demo.vote(fog, "Dilys", "against", 117)
    demo.vote(fog, "Ezra Vane", "deferential", 116)
    demo.vote(fog, "Wren", "against", 110, "The horn stays free.")
    demo.vote(fog, "Fenna", "against", 100)
    matter_resolve(post=fog, admin=demo.users["Ada"], action="fail", now=demo.ago(98))

    shifts = post_create(
        author=demo.users["Dilys"],
        kind=Kind.PROPOSAL,
        title="Proposal: Double Shifts",
        now=demo.ago(4 * 24),
        body="A Keeper may work two shifts in one day.",
    )
    demo.vote(shifts, "Dilys", "against", 95, "On reflection this breaks Trimming the Wick. Self-killing.")
    matter_resolve(post=shifts, admin=demo.users["Bram"], action="fail", now=demo.ago(94))


def _post_storehouse_and_storm_warnings(demo: _Storyteller) -> None:
    """A proposal enacted while a later one is still being voted on."""
    bigger = demo.propose(
        "Bram",
        "Proposal: A Bigger Storehouse",
        60,
        "Let Keepers move up to 8 Oil a day to the Storehouse, and put 10 Oil in it to start.",
        [
            {"op": "rule_replace_passage", "rule": "rule-the-storehouse", "old": "up to 5 Oil", "new": "up to 8 Oil"},
            {"op": "cell_add", "row": "The Storehouse", "column": "Oil", "delta": 10},
        ],
    )
    for name, hours in [("Ada", 58), ("Cato", 57), ("Dilys", 55), ("Wren", 54)]:
        demo.vote(bigger, name, "for", hours)

    storms = demo.propose(
        "Ezra Vane",
        "Proposal: Storm Warnings",
        50,
        "Create a rule “Storm Warnings”: *A Keeper on the Dusk shift may post a storm warning once "
        "per week; while it stands, no Keeper may move Oil to the Storehouse.*",
        [
            {
                "op": "rule_add",
                "title": "Storm Warnings",
                "after": "rule-the-storehouse",
                "body": "A Keeper on the Dusk shift may post a storm warning once per week; while it "
                "stands, no Keeper may move Oil to the Storehouse.",
            },
            {
                "op": "rule_replace_passage",
                "rule": "rule-the-storehouse",
                "old": "may move up to 5 Oil",
                "new": "may move up to 5 Oil (unless a storm warning stands)",
            },
        ],
    )
    matter_resolve(post=bigger, admin=demo.users["Bram"], action="enact", now=demo.ago(40))
    demo.vote(storms, "Cato", "for", 44)
    demo.vote(storms, "Fenna", "against", 40, "Storms are bad enough already.")
    demo.vote(storms, "Ada", "deferential", 30)
    demo.vote(storms, "Fenna", "for", 20, "Changed my mind after the last gale.")


def _post_logbook(demo: _Storyteller) -> None:
    """A fresh proposal with a GNDT change, and a spectator's comment."""
    logbook = demo.propose(
        "Fenna",
        "Proposal: The Keeper's Logbook",
        6,
        "Any Keeper may record one sighting per day on the Sightings page, and earns a mark for it "
        "in a new GNDT column.",
        [
            {
                "op": "rule_add",
                "title": "The Logbook",
                "into": "section-dynastic-rules",
                "at": "end",
                "body": "Once per day a Keeper may record a sighting on the Sightings page; they then "
                "gain one Sighting in the GNDT.",
            },
            {"op": "column_add", "column": "Sightings", "kind": "integer", "default": "0"},
            {"op": "cell_add", "row": "Fenna", "column": "Oil", "delta": -1},
        ],
    )
    demo.vote(logbook, "Ada", "for", 5, "Lovely idea.")
    demo.vote(logbook, "Bram", "against", 4)
    comment_add(
        post=logbook,
        author=User.objects.get(username="Spectator Sam"),
        text="Following with interest!",
        now=demo.ago(3),
    )


def _post_judgement_and_admin_note(demo: _Storyteller) -> None:
    cfj = post_create(
        author=demo.users["Bram"],
        kind=Kind.CFJ,
        title="Call for Judgement: The Missing Oil",
        now=demo.ago(20),
        body="Cato's Oil rose from 24 to 31 overnight with no roll in the GNDT log. Set Cato's Oil back to 24.",
    )
    demo.vote(cfj, "Dilys", "for", 18)
    demo.vote(cfj, "Cato", "against", 17, "I rolled it in chat, honestly.")
    demo.vote(cfj, "Ada", "for", 15)

    post_create(
        author=demo.users["Ada"],
        kind=Kind.POST,
        title="Admin note: Gus is idle",
        now=demo.ago(9 * 24),
        body="Gus has asked to go idle while travelling. Quorum drops accordingly.",
    )
