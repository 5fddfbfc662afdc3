"""Declarations of Victory: who may declare, the 120-hour bar, and what enacting one starts."""

from __future__ import annotations

from datetime import timedelta

import pytest

from blognomic.succession.services import SuccessionError, emperor_hand_over
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
    from blognomic.succession.services import ascension_address_post

    def ascend(author, at):
        return ascension_address_post(author=author, title="", body="", theme="Pirates", player_term="Hunter",
                                      emperor_term="Pirate", keep_rules=[], keep_columns=[], now=at)

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
