"""Declarations of Victory: who may declare, the 120-hour bar, and what enacting one starts."""

from __future__ import annotations

from datetime import timedelta

import pytest

from blognomic.flows.succession.services import SuccessionError, emperor_hand_over
from dynasties.models import Dynasty
from tests.factories import make_table, vote
from votes.models import Post
from votes.posting import PostError, post_create
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0):
    return make_table(7, start=t0)


def declare(author, at, title="Declaration of Victory: I Win"):
    return post_create(author=author, kind="dov", title=title, body="Look at the GNDT.", now=at)


def test_the_emperor_may_not_declare_victory(players, t0):
    with pytest.raises(PostError, match="The Emperor may not make a Declaration of Victory"):
        declare(players[0], t0)
    assert not Post.objects.exists()


def test_failed_dov_with_an_against_vote_bars_its_author_for_120_hours(players, t0):
    """2016: “cannot make another DoV until after 120 hours (5 days) have passed since … failed”."""
    dov = declare(players[2], t0)
    for voter in players[3:7]:
        vote(dov, voter, "against", at=t0 + timedelta(hours=1))
    failed_at = t0 + timedelta(hours=13)
    matter_resolve(post=dov, admin=players[1], action="fail", now=failed_at)
    with pytest.raises(PostError, match="may not make another until after"):
        declare(players[2], failed_at + timedelta(hours=120), title="DoV: Again")
    declare(players[2], failed_at + timedelta(hours=120, seconds=1), title="DoV: Again")


def test_enacting_a_dov_fails_the_others_and_starts_a_dynasty(client, players, t0):
    """“all other active DoVs are failed, and a new Dynasty begins with the Hunter who made the DoV”."""
    winner = declare(players[2], t0)
    rival = declare(players[3], t0 + timedelta(minutes=5), title="DoV: No, Me")
    for voter in (players[0], *players[4:7]):
        vote(winner, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=winner, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    rival.refresh_from_db()
    assert rival.status == "failed" and "was enacted" in rival.admin_note
    new = Dynasty.objects.current()
    assert (new.number, new.emperor, new.declaration) == (2, players[2], winner)
    assert Dynasty.objects.get(number=1).ended_at == t0 + timedelta(hours=13)
    html = client.get("/").content.decode()
    assert "A new dynasty awaits its ascension address" in html
    with pytest.raises(PostError, match="hiatus"):
        declare(players[4], t0 + timedelta(hours=14), title="DoV: Too Soon")


def test_new_emperor_may_hand_the_role_on_before_ascending(players, t0):
    winner = declare(players[2], t0)
    for voter in (players[0], *players[4:7]):
        vote(winner, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=winner, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    dynasty = Dynasty.objects.current()
    with pytest.raises(SuccessionError, match="Only the new Emperor, P03"):
        emperor_hand_over(dynasty=dynasty, by=players[4], to=players[5], now=t0 + timedelta(hours=14))
    emperor_hand_over(dynasty=dynasty, by=players[2], to=players[5], now=t0 + timedelta(hours=14))
    assert Dynasty.objects.current().emperor == players[5]


def test_only_the_new_emperor_may_post_the_ascension_address(client, players, t0):
    """An Ascension Address by anyone but the new Emperor is refused and writes nothing."""
    from blognomic.flows.succession.services import AscensionAddress, ascension_address_post

    def ascend(author, at):
        return ascension_address_post(
            author=author,
            address=AscensionAddress(
                title="",
                body="",
                theme="Pirates",
                player_term="Hunter",
                emperor_term="Pirate",
                keep_rules=[],
                keep_columns=[],
            ),
            now=at,
        )

    with pytest.raises(SuccessionError, match="No new dynasty is waiting"):
        ascend(players[2], t0)
    winner = declare(players[2], t0)
    for voter in (players[0], *players[4:7]):
        vote(winner, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=winner, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    with pytest.raises(SuccessionError, match="Only the new Emperor, P03"):
        ascend(players[4], t0 + timedelta(hours=14))
    assert not Post.objects.filter(kind="ascension").exists()
    from tests.factories import PASSWORD

    client.login(username="P05", password=PASSWORD)
    html = client.get("/ascension/").content.decode()
    assert "Only the new Emperor" in html and "ascension-form" not in html


def test_2005_duke_may_rule_on_a_dov_with_no_clear_decision_after_24_hours(client, t0):
    """2005: “If no clear decision is reached after 24 hours, the Duke may optionally step in and decide”."""
    from django.urls import reverse

    from tests.factories import PASSWORD
    from votes.services import VoteError, dov_emperor_decide

    players = make_table(7, start=t0, profile="2005")
    dov = declare(players[2], t0)
    vote(dov, players[3], "for", at=t0 + timedelta(hours=1))
    vote(dov, players[4], "against", at=t0 + timedelta(hours=1))
    with pytest.raises(VoteError, match="Only the Emperor may decide"):
        dov_emperor_decide(post=dov, emperor=players[0], legal=True, now=t0 + timedelta(hours=23))
    with pytest.raises(VoteError, match="Only the Emperor may decide"):
        dov_emperor_decide(post=dov, emperor=players[3], legal=True, now=t0 + timedelta(hours=25))
    import time_machine

    client.login(username="P01", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=25), tick=False):
        assert "Rule the win legal" in client.get(dov.get_absolute_url()).content.decode()
        client.post(reverse("emperor_decide", args=[dov.slug]), {"legal": "yes"})
    dov.refresh_from_db()
    assert dov.status == "enacted" and "ruled the win legal" in dov.admin_note
    assert Dynasty.objects.current().emperor == players[2]


@pytest.mark.parametrize(
    ("profile", "kept_at_first"),
    [
        # 2016: “any dynastic rules which were not listed to be kept are repealed”.
        ("2016", False),
        # 2008: “may optionally include a proclamation that any number of Dynastic Rules will be repealed”.
        ("2008", True),
    ],
)
def test_the_ascension_form_starts_as_the_core_rules_would_leave_things_and_sends_what_it_shows(
    client, t0, profile, kept_at_first
):
    """The boxes for the dynastic rules start as the profile's core rules leave a rule the Address does not
    name, the old GNDT's columns and rows start as the rules do, the help says so, and the form sent as it
    first shows does what it showed: under 2016 a fresh start, under 2008 everything kept."""
    import re

    import time_machine

    from blognomic.moving.demo import DEMO_PASSWORD, build_demo
    from dynasties.models import Game, User
    from gndt.models import Column, Row
    from ruleset.models import Page

    build_demo(now=t0)
    Game.objects.update(profile=profile)
    users = {user.username: user for user in User.objects.all()}
    dov = post_create(author=users["Cato"], kind="dov", title="Declaration of Victory: Cato", body="Won.", now=t0)
    for name in ("Ada", "Bram", "Dilys", "Wren", "Fenna"):
        vote(dov, users[name], "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=dov, admin=users["Ada"], action="enact", now=t0 + timedelta(hours=25))
    old = Dynasty.objects.get(number=1)
    client.login(username="Cato", password=DEMO_PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=26), tick=False):
        html = client.get("/ascension/").content.decode()
        boxes = re.findall(r'<input type="checkbox" name="(keep_\w+)" value="([^"]+)"[^>]*?( checked)?>', html)
        assert {name for name, _, _ in boxes} == {"keep_rules", "keep_columns", "keep_rows"}
        assert all(bool(checked) == kept_at_first for _, _, checked in boxes), boxes
        assert ("All are ticked at first" if kept_at_first else "None is ticked at first") in html
        sent = {"step": "ascend", "theme": "Mills", "player_term": "Miller", "emperor_term": "Master"}
        for name, value, checked in boxes:
            if checked:
                sent.setdefault(name, []).append(value)
        response = client.post("/ascension/", sent)
    assert response.status_code == 302
    ruleset = Page.objects.get(slug="ruleset").current.text
    new = Dynasty.objects.current()
    columns = list(Column.objects.filter(dynasty=new).values_list("name", flat=True))
    kept_rows = Row.objects.filter(dynasty=new, user=None, name="The Storehouse").exists()
    old_columns = list(Column.objects.filter(dynasty=old).values_list("name", flat=True))
    if kept_at_first:
        assert "=== Trimming the Wick ===" in ruleset and columns == old_columns and kept_rows
    else:
        assert "=== Trimming the Wick ===" not in ruleset and columns == [] and not kept_rows
