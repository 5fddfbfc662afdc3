"""A dynasty's theme, set in its Ascension Address: a colour scheme, a header line and the names of the vote
icons, shown on every page while the dynasty runs; an ended dynasty's own pages keep its look.

Ruleset 21 (2005) counts “the blog colour scheme” as gamestate, and its Duke “may change the BlogNomic
header, the colour scheme and the VETO icon, whenever they like”.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from blognomic.flows.succession.services import AscensionAddress, SuccessionError, ascension_address_post
from dynasties.models import Dynasty
from dynasties.theming import UNKNOWN_PALETTE
from ruleset.models import Page
from ruleset.services import page_create
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.models import Post
from votes.posting import post_create
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

RULESET = """== Core Rules ==
=== Players ===
Every Player may vote.
== Dynastic Rules ==
=== Moons ===
Each Player has a Moon.
"""


@pytest.fixture
def awaiting(t0):
    """Dynasty 1 has been won by P03; Dynasty 2 awaits its Ascension Address."""
    players = make_table(5, start=t0)
    page_create(title="Ruleset", kind=Page.RULESET, text=RULESET, now=t0 - timedelta(days=3), slug="ruleset")
    Dynasty.objects.filter(number=1).update(palette="forest", header_line="The old harbour")
    dov = post_create(author=players[2], kind="dov", title="Declaration of Victory: Moons", body="Won.", now=t0)
    for voter in (players[0], players[3], players[4]):
        vote(dov, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=dov, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    return players


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


def ascend_form(**theme) -> dict:
    return {
        "step": "ascend",
        "theme": "Werewolves",
        "player_term": "Villager",
        "emperor_term": "Mayor",
        "title": "",
        "body": "Welcome to the village.",
        **theme,
    }


def test_the_theme_set_in_the_address_is_on_every_page(awaiting, t0):
    client = logged_in("P03")
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        response = client.post(
            "/ascension/",
            ascend_form(
                palette="midnight",
                header_line="Nobody trusts the baker",
                vote_label_for="Aye",
                vote_label_against="Nay",
                vote_label_deferential="As the Mayor wills",
            ),
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        dynasty = Dynasty.objects.current()
        assert (dynasty.palette, dynasty.header_line, dynasty.vote_label_for) == (
            "midnight",
            "Nobody trusts the baker",
            "Aye",
        )
        proposal = make_proposal(awaiting[3], at=t0 + timedelta(hours=15), title="Proposal: Curfew")
        vote(proposal, awaiting[4], "against", at=t0 + timedelta(hours=15, minutes=5))
    with time_machine.travel(t0 + timedelta(hours=16), tick=False):
        for url in ("/", "/gndt/", "/wiki/ruleset/", proposal.get_absolute_url()):
            html = Client().get(url).content.decode()
            assert 'data-palette="midnight"' in html, url
            assert '<p class="header-line">Nobody trusts the baker</p>' in html, url
        front = Client().get("/").content.decode()
        assert "Aye 1" in front and "Nay 1" in front
        post_page = client.get(proposal.get_absolute_url()).content.decode()
        assert "Aye (" in post_page and "Nay (" in post_page
        button = '<button type="submit" name="icon" value="deferential" class="vote vote-deferential">'
        assert button + "As the Mayor wills" in logged_in("P04").get(proposal.get_absolute_url()).content.decode()


def test_the_tallys_reasons_use_the_dynastys_names_for_the_icons(awaiting, t0):
    """After an Ascension renames FOR to "Aye", the tally box, its htmx fragment and the admin panel say
    "3 Aye reaches Quorum 3", not "3 FOR"."""
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        logged_in("P03").post("/ascension/", ascend_form(vote_label_for="Aye", vote_label_against="Nay"))
        proposal = make_proposal(awaiting[3], at=t0 + timedelta(hours=15), title="Proposal: Curfew")
        for voter in (awaiting[0], awaiting[1]):
            vote(proposal, voter, "for", at=t0 + timedelta(hours=15, minutes=5))
    with time_machine.travel(t0 + timedelta(hours=28), tick=False):
        admin = logged_in("P02")
        pages = [
            Client().get(proposal.get_absolute_url()).content.decode(),
            Client().get(proposal.get_absolute_url(), HTTP_HX_REQUEST="true").content.decode(),
            admin.get("/admin-panel/").content.decode(),
        ]
        for html in pages:
            assert "3 Aye reaches Quorum 3" in html
            assert "FOR reaches" not in html


def test_an_ended_dynastys_pages_keep_its_own_look(awaiting, t0):
    ascension_address_post(
        author=awaiting[2],
        address=AscensionAddress(
            title="",
            body="",
            theme="Werewolves",
            player_term="Villager",
            emperor_term="Mayor",
            keep_rules=[],
            keep_columns=[],
            palette="ember",
        ),
        now=t0 + timedelta(hours=14),
    )
    with time_machine.travel(t0 + timedelta(hours=15), tick=False):
        old = Client().get("/dynasties/1/").content.decode()
        assert 'data-palette="forest"' in old and "The old harbour" in old
        assert 'data-palette="ember"' in Client().get("/dynasties/2/").content.decode()
        assert 'data-palette="ember"' in Client().get("/").content.decode()


@pytest.mark.parametrize(
    "theme, reason",
    [
        ({"palette": "#ff0000"}, "no palette"),
        ({"palette": 'harbour" onload="x'}, "no palette"),
        ({"header_line": "evil\u202eenil"}, "direction-changing"),
        ({"vote_labels": {"for": "x" * 40}}, "at most"),
    ],
)
def test_a_bad_theme_refuses_the_whole_address_and_writes_nothing(awaiting, t0, theme, reason):
    revisions = Page.objects.get(slug="ruleset").revisions.count()
    with pytest.raises(SuccessionError, match=reason):
        ascension_address_post(
            author=awaiting[2],
            address=AscensionAddress(
                title="",
                body="",
                theme="Werewolves",
                player_term="Villager",
                emperor_term="Mayor",
                keep_rules=[],
                keep_columns=[],
                **theme,
            ),
            now=t0 + timedelta(hours=14),
        )
    dynasty = Dynasty.objects.current()
    assert dynasty.ascended_at is None and dynasty.palette == "harbour"
    assert not Post.objects.filter(kind="ascension").exists()
    assert Page.objects.get(slug="ruleset").revisions.count() == revisions


@pytest.mark.parametrize(
    "theme",
    [
        {"header_line": "nul\x00"},
        {"vote_label_for": "\u202eYA"},
        {"vote_label_against": "N" * 25},
        {"header_line": "x" * 121},
    ],
)
def test_hostile_theme_fields_get_a_400_and_change_nothing(awaiting, t0, theme):
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        response = logged_in("P03").post("/ascension/", ascend_form(**theme))
    assert response.status_code == 400
    assert Dynasty.objects.current().ascended_at is None
    assert not Post.objects.filter(kind="ascension").exists()


def test_the_form_refuses_an_unknown_palette_with_a_400(awaiting, t0):
    client = logged_in("P03")
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        response = client.post("/ascension/", ascend_form(palette="neon", header_line="x"))
    assert response.status_code == 400
    assert "not one of the available choices" in response.content.decode()
    assert Dynasty.objects.current().ascended_at is None
    assert UNKNOWN_PALETTE  # the service's own message, for callers that skip the form


# --- The archive -------------------------------------------------------------------------------------------


def test_the_archive_carries_each_dynastys_look_and_refuses_a_bad_one(tmp_path):
    """An archive's dynasty may carry ``look``; importing an export gives back the same look."""
    from tests.test_archive import empty_the_game, export_file, game_archive, import_file, write_archive

    data = game_archive()
    data["dynasties"][-1]["look"] = {"palette": "parchment", "header_line": "Yo ho", "vote_labels": {"for": "Aye"}}
    import_file(write_archive(tmp_path, data))
    dynasty = Dynasty.objects.get(number=data["dynasties"][-1]["number"])
    assert (dynasty.palette, dynasty.header_line, dynasty.vote_label_for, dynasty.vote_label_against) == (
        "parchment",
        "Yo ho",
        "Aye",
        "",
    )
    first = export_file(tmp_path, "first.json")
    assert first["dynasties"][-1]["look"] == data["dynasties"][-1]["look"]
    assert "look" not in first["dynasties"][0]  # a default look is left out, as older archives had it
    empty_the_game()
    import_file(tmp_path / "first.json")
    assert export_file(tmp_path, "second.json") == first

    from django.core.management import CommandError

    for bad in ({"palette": "#000"}, {"vote_labels": {"veto": "No"}}, {"header_line": "a\u202eb"}, "midnight"):
        empty_the_game()
        data["dynasties"][-1]["look"] = bad
        with pytest.raises(CommandError, match=r"dynasties\[\d\]\.look"):
            import_file(write_archive(tmp_path, data, "bad.json"))
        assert not Dynasty.objects.exists()
