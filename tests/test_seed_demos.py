"""``demo --seed FILE``: each seed ruleset's demo game loads once, in its era and with its own terms, GNDT and
opening moves; a second run changes nothing; a database holding anything else, an unknown seed name and a
missing file are refused with the reason and nothing written.

The seed rulesets are read from ``shared/seeds`` beside the project (none of their text is copied here).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest
import time_machine
from django.core.management import CommandError, call_command

from blognomic.community.commitments.models import Seal
from blognomic.community.commitments.services import seal_reveal
from blognomic.moving.demo import build_demo
from blognomic.moving.seed_demos import families, hackers, hunters, saloon, zahndorf
from blognomic.moving.seed_demos.loading import (
    OTHER_GAME,
    SEED_DEMOS,
    SEED_MISSING,
    UNKNOWN_SEED,
    SeedDemoError,
    seed_choose,
    seed_demo_load,
)
from dynasties.models import Dynasty, Game, User
from dynasties.phases import DAYTIME, NIGHTTIME, phase_at
from gndt.game_variables import game_variables_shown
from gndt.models import Action, Cell, Column, PrivateDeck, Row, Update, sees_value
from gndt.selectors import private_deck_view
from gndt.services.common import GndtError
from gndt.services.effects import gndt_effects_apply_due
from gndt.services.private_decks import private_deck_deal, private_deck_draw, private_deck_reveal
from gndt.services.updates import gndt_update
from ruleset.models import Page
from ruleset.structure import parse_ruleset
from votes.models import MatterEffect, MatterKind, Post
from votes.services import VoteError, comment_add

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)  # a Wednesday

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeds_present():
    if not all((SEEDS / name).exists() for name in SEED_DEMOS):
        pytest.skip(f"seed rulesets not found at {SEEDS}")


def load(demo, now=NOW) -> bool:
    with time_machine.travel(now, tick=False):
        return seed_demo_load(seed_choose(demo.file_name, directory=SEEDS), now=now)


def value(demo, row: str, column: str) -> str:
    return Cell.objects.get(row__dynasty__number=demo.dynasty_number, row__name=row, column__name=column).value


def counts() -> tuple[int, ...]:
    return (
        User.objects.count(),
        Dynasty.objects.count(),
        Post.objects.count(),
        Page.objects.count(),
        Update.objects.count(),
        Cell.objects.count(),
        Seal.objects.count(),
    )


@pytest.mark.parametrize("demo", SEED_DEMOS.values(), ids=lambda demo: demo.file_name[:3])
def test_each_seed_loads_in_its_era_with_its_own_terms_and_ruleset(demo):
    """The game runs under the seed's profile; the dynasty names its players and Emperor as the seed does;
    the Ruleset is the seed's own, imported with its dynastic rules; every player has a GNDT row, and the
    rows that are no player are listed after them."""
    assert load(demo) is True
    assert Game.load().profile == demo.profile
    dynasty = Dynasty.objects.get()
    assert (dynasty.number, dynasty.player_term, dynasty.players_term, dynasty.emperor_term) == (
        demo.dynasty_number,
        demo.player_term,
        demo.players_term,
        demo.emperor_term,
    )
    assert dynasty.emperor.username == demo.emperor
    assert set(User.objects.filter(is_admin=True).values_list("username", flat=True)) == set(demo.admins)
    ruleset = parse_ruleset(Page.objects.get(slug="ruleset").current.text)
    assert [section.title for section in ruleset.sections][:2] == ["Core Rules", "Dynastic Rules"]
    rows = list(Row.objects.filter(dynasty=dynasty).order_by("order").values_list("name", "user__username"))
    assert [name for name, _ in rows] == [*demo.players, *demo.other_rows] or demo is hackers.DEMO
    assert all(user == name for name, user in rows if name in demo.players)
    assert list(Column.objects.filter(dynasty=dynasty).values_list("name", flat=True)) == [
        plan.name for plan in demo.columns
    ]
    assert Post.objects.filter(dynasty=dynasty).count() >= 3


def test_running_it_twice_changes_nothing():
    """A second ``demo --seed`` of the same seed says so and writes nothing."""
    call_command("demo", "--seed", str(SEEDS / zahndorf.DEMO.file_name), stdout=StringIO())
    before = counts()
    out = StringIO()
    call_command("demo", "--seed", str(SEEDS / zahndorf.DEMO.file_name), stdout=out)
    assert "already loaded; nothing changed" in out.getvalue()
    assert counts() == before


def test_another_seed_or_the_plain_demo_is_refused_and_nothing_is_written():
    """A database that holds any game (another seed's, or the plain demo) refuses a seed demo, naming what
    it holds."""
    load(hunters.DEMO)
    before = counts()
    with pytest.raises(SeedDemoError) as refused:
        load(saloon.DEMO)
    assert str(refused.value) == OTHER_GAME.format(what="8 accounts, 1 dynasty, 4 posts, 2 wiki pages")
    assert counts() == before


def test_the_plain_demo_database_is_refused():
    build_demo(now=NOW)
    with pytest.raises(SeedDemoError, match="already holds a game"):
        load(families.DEMO)
    assert not Dynasty.objects.filter(number=families.DEMO.dynasty_number).exists()


def test_unknown_names_and_missing_files_are_refused(tmp_path):
    """A name that is no seed is refused listing the seeds; a seed name whose file is missing names the file;
    a path to a copy of a seed anywhere is accepted."""
    with pytest.raises(CommandError) as unknown:
        call_command("demo", "--seed", "005_ffffffffffffffff.txt")
    assert str(unknown.value).startswith(UNKNOWN_SEED.split("{")[0] + "")
    assert "002_db893bcde67d061f.txt (Ruleset 21, Families)" in str(unknown.value)
    for odd in ("", "../", "\x00", "٠٠٢_db893bcde67d061f.txt"):
        with pytest.raises(SeedDemoError):
            seed_choose(odd, directory=SEEDS)
    with pytest.raises(SeedDemoError) as missing:
        seed_demo_load(seed_choose(families.DEMO.file_name, directory=tmp_path), now=NOW)
    assert str(missing.value).startswith(
        SEED_MISSING.format(path=tmp_path / families.DEMO.file_name, reason="No such file or directory")
    )
    assert counts() == (0, 0, 0, 0, 0, 0, 0)
    copy = tmp_path / families.DEMO.file_name
    shutil.copy(SEEDS / families.DEMO.file_name, copy)
    with time_machine.travel(NOW, tick=False):
        assert seed_demo_load(seed_choose(str(copy)), now=NOW)


def test_2005_thalers_stay_between_0_and_200():
    """Ruleset 21: “Thalers may not fall below 0 or rise above 200. Any effect which would take Thalers
    beyond either of these boundaries instead sets it to that boundary.” The Outcasts are a row of their
    own with no player."""
    load(families.DEMO)
    dynasty = Dynasty.objects.get()
    thalers = Column.objects.get(dynasty=dynasty, name="Thalers")
    assert (thalers.minimum, thalers.maximum, thalers.clamp) == (0, 200, True)
    assert Row.objects.get(dynasty=dynasty, name="Outcasts").user is None
    emperor = User.objects.get(username=families.EMPEROR)
    gndt_update(
        dynasty=dynasty,
        by=emperor,
        changes={("Benedikta", "Thalers"): "250"},
        seen={("Benedikta", "Thalers"): "200"},
        comment="A gift from the Duke",
        now=NOW,
    )
    assert value(families.DEMO, "Benedikta", "Thalers") == "200"


def test_2005_the_calendar_advances_ten_years_at_midnight():
    """Ruleset 21: “Once per day at midnight GMT the Calendar advances 10 Years.” A scheduled effect on The
    Calendar's Year, and on nothing else: the Families' Year cells stay “-”."""
    load(families.DEMO)
    midnight = datetime(2026, 11, 19, 0, 0, 30, tzinfo=UTC)
    with time_machine.travel(midnight, tick=False):
        gndt_effects_apply_due(now=midnight)
    assert value(families.DEMO, families.CALENDAR, "Year") == str(families.YEAR_NOW + 10)
    assert value(families.DEMO, "Halvard", "Year") == "-"


def test_2005_petitions_and_the_thalers_of_resolving():
    """Ruleset 21: “When a Proposal is enacted, its proposer gains 10 Thalers, or 2 Thalers if it was
    Trivial. When a Proposal fails, its proposer loses 3 Thalers”; the enacting admin “may claim” 2 for a
    Trivial one. Petitions are a kind of their own that only the Duke votes on, recorded citing the enacted
    Proposal; the Duke's FOR approved the bridge after 48 hours."""
    load(families.DEMO)
    petition = MatterKind.objects.get()
    assert (petition.name, petition.electorate, petition.verdict_hours) == ("Petition", "emperor", 48)
    assert petition.proposal.title == "Proposal: The Duchy's Rules in the Tally"
    assert MatterEffect.objects.filter(proposal=petition.proposal).count() == 4
    halvard = int(families.VALUES["Halvard"]["Thalers"])
    assert value(families.DEMO, "Halvard", "Thalers") == str(halvard + 2 - 10)  # Trivial reward, then a loan
    assert value(families.DEMO, "Jonas Pfeil", "Thalers") == str(int(families.VALUES["Jonas Pfeil"]["Thalers"]) - 3)
    assert value(families.DEMO, "Mirela", "Thalers") == str(int(families.VALUES["Mirela"]["Thalers"]) + 2)
    bridge = Post.objects.get(title="Petition: A Bridge over the Mill Stream")
    assert bridge.status == "enacted" and "(approved)" in bridge.admin_note
    assert Post.objects.get(title="Petition: Accuse Ruprecht").status == "pending"
    dynasty = Dynasty.objects.get()
    assert (dynasty.palette, dynasty.vote_label_for) == ("parchment", "Aye")
    shown = game_variables_shown(dynasty, viewer=None, now=NOW)
    assert [(variable.label, variable.value) for variable in shown] == [("The Year", str(families.YEAR_NOW))]


def test_2008_town_meetings_count_the_living_and_free_with_their_own_quorum():
    """Ruleset 50: “Dead Villagers and Prisoners may not vote in a Town Meeting, and Quorum … will be
    calculated as half the number of living, unimprisoned Villagers, rounded down, plus one.” Seven of the
    nine may vote (Emmerich is dead, Dagny in gaol): Quorum 4."""
    load(zahndorf.DEMO)
    meeting = Post.objects.get(title="Proposal: Town Meeting: Search the Smokehouse")
    assert meeting.matter_kind.name == "Town Meeting"
    for name in ("Emmerich", "Dagny"):
        with pytest.raises(VoteError):
            comment_add(post=meeting, author=User.objects.get(username=name), icon="for", now=NOW)
    out = StringIO()
    call_command("tally", meeting.slug, "--json", "--at", NOW.isoformat(), stdout=out)
    report = json.loads(out.getvalue())
    assert report["quorum"] == 4 and len(report["eligible_voters"]) == 7
    assert [variable.value for variable in game_variables_shown(Dynasty.objects.get(), viewer=None, now=NOW)] == [
        "Daytime"
    ]


def test_2008_town_meetings_are_called_by_day_even_when_the_demo_is_loaded_at_night():
    """Ruleset 50: “Town Meetings may be called by any living Villager during the daytime”; odd-numbered days
    are Nighttime. Loaded on the 19th, the demo's meeting was called on the 18th, in the Daytime."""
    night = NOW + timedelta(days=1)
    assert phase_at(night) == NIGHTTIME
    assert load(zahndorf.DEMO, now=night)
    meeting = Post.objects.get(title="Proposal: Town Meeting: Search the Smokehouse")
    assert meeting.matter_kind.phase == DAYTIME and phase_at(meeting.posted_at) == DAYTIME


def test_2008_a_villager_sees_their_own_role_and_nobody_elses():
    """Ruleset 50: “The Werewolves’ identities are not tracked publicly, and are initially known only by the
    Mayor.” Role is hidden and owner-visible: Fenwick sees his own Role, not Theda's; Acuity Points stay the
    Mayor's alone."""
    load(zahndorf.DEMO)
    dynasty = Dynasty.objects.get()
    fenwick = User.objects.get(username="Fenwick")
    assert set(Column.objects.visible_to(fenwick, dynasty).filter(hidden=True).values_list("name", flat=True)) == {
        "Role"
    }
    role = Column.objects.get(name="Role")
    rows = {row.name: row for row in Row.objects.filter(dynasty=dynasty)}
    assert sees_value(fenwick, dynasty, role, rows["Fenwick"].user_id)
    assert not sees_value(fenwick, dynasty, role, rows["Theda"].user_id)
    assert value(zahndorf.DEMO, "Gottfried", "Occupation") == "Mayor"


def test_2008_brewing_is_refused_at_night():
    """Ruleset 50: the Apothecary brews “If it is daytime”: a Daytime-only action, refused on an odd day."""
    load(zahndorf.DEMO)
    night = datetime(2026, 11, 19, 12, 0, tzinfo=UTC)
    with pytest.raises(GndtError, match="Daytime"):
        gndt_update(
            dynasty=Dynasty.objects.get(),
            by=User.objects.get(username="Ilse"),
            changes={},
            seen={},
            comment="Another vial",
            action="Brew an Elixir",
            now=night,
        )


def test_2008_hole_cards_come_from_private_decks_drawn_by_position():
    """Ruleset 52: the deck's order is "noted privately by the Player" and its checksum "stated in a public
    comment". In hand 3 Jeb Malone and Ruby Tate each hold a deck with two positions drawn, the log naming
    positions and no card; Doc Pruitt picks up his own, draws, and at the showdown his reveal checks out."""
    load(saloon.DEMO)
    dynasty = Dynasty.objects.get()
    decks = {deck.owner.username: deck for deck in PrivateDeck.objects.for_listing()}
    assert sorted(decks) == ["Jeb Malone", "Ruby Tate"] and {deck.hand for deck in decks.values()} == {"3"}
    draws = Update.objects.filter(comment="HAND#3 Hole Card Draw")
    assert draws.count() == 2
    for update in draws:
        assert not any(card in str(update.rolls) for card in saloon.CARDS)
        assert len(set(update.private_draw.positions)) == 2
    doc = User.objects.get(username="Doc Pruitt")
    deck = private_deck_deal(dynasty=dynasty, owner=doc, hand="3", now=NOW)
    private_deck_draw(deck=deck, by=doc, count=2, now=NOW + timedelta(minutes=1))
    revealed = private_deck_view(private_deck_reveal(deck=deck, by=doc, now=NOW + timedelta(minutes=2)), None)
    assert revealed.verified and len(revealed.hole_cards) == 2
    assert value(saloon.DEMO, "The Pot", "Money") == "60"
    assert [(shown.label, shown.value) for shown in game_variables_shown(dynasty, viewer=None, now=NOW)] == [
        ("The Pot", "60")
    ]


def test_2015_codenames_are_rows_and_their_owner_is_sealed():
    """The 2015 ruleset: Codenames are rows named with a colon, :PROTO among them, none of them a player;
    Marlow Dyer's sealed sentence naming his Corp proves he controls :Nightjar."""
    load(hackers.DEMO)
    others = set(Row.objects.filter(user=None).values_list("name", flat=True))
    assert others == {":PROTO", ":Nightjar", ":Ferryman", ":Glasswing"}
    assert value(hackers.DEMO, ":Nightjar", "Secrets") == "1"
    assert value(hackers.DEMO, "Marlow Dyer", "Secrets") == "5"
    seal = Seal.objects.get(title="Who controls :Nightjar")
    assert seal_reveal(seal=seal, by=seal.owner, text=hackers.NIGHTJAR_SENTENCE, now=NOW).is_revealed


def test_2016_raids_at_most_three_a_week_and_pieces_may_go_negative():
    """Ruleset 142: “As a Daily Action, but no more than three times during a Week, a Hunter may Raid”, and a
    Hunter whose Pieces are negative is Ruined."""
    load(hunters.DEMO)
    dynasty = Dynasty.objects.get()
    assert Action.objects.get(name="Raid").weekly_cap == 3
    assert value(hunters.DEMO, "Grub", "Pieces") == "-2"
    lark = User.objects.get(username="Lark")
    monday = datetime(2026, 11, 23, 1, 0, tzinfo=UTC)
    for day in range(3):
        gndt_update(
            dynasty=dynasty,
            by=lark,
            changes={},
            seen={},
            comment="Raiding CD: DICE10",
            action="Raid",
            now=monday + timedelta(days=day, hours=day),
        )
    with pytest.raises(GndtError, match="3"):
        gndt_update(
            dynasty=dynasty,
            by=lark,
            changes={},
            seen={},
            comment="Raiding CD: DICE10",
            action="Raid",
            now=monday + timedelta(days=3, hours=5),
        )
