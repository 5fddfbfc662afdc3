"""Hiatus: what a pending Declaration of Victory or seasonal downtime stops, and the banner that says so."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tests.factories import make_proposal, make_table, vote
from votes.models import Post
from votes.posting import PostError, post_create
from votes.services import VoteError, matter_resolve

pytestmark = pytest.mark.django_db


def test_pending_dov_puts_the_game_in_hiatus_and_stops_proposals(client, t0):
    """2016: during hiatus only the listed rules apply, so no new Proposal may be posted."""
    players = make_table(5, start=t0)
    post_create(author=players[2], kind="dov", title="Declaration of Victory: I Win", body="I hold the gold.", now=t0)
    with pytest.raises(PostError, match=r"The game is in hiatus \(a Declaration of Victory is pending\)"):
        make_proposal(players[3], at=t0 + timedelta(hours=1), title="Proposal: Sneaky")
    post_create(author=players[3], kind="post", title="Chat: Congratulations?", now=t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        html = client.get("/").content.decode()
    assert "The game is in hiatus." in html and "A declaration of victory is pending" in html
    assert not Post.objects.filter(title="Proposal: Sneaky").exists()


def test_proposals_cannot_be_resolved_while_a_dov_is_pending(t0):
    """2016: the Proposals rule is not among those that apply in hiatus, so admins wait."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Before")
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    post_create(author=players[3], kind="dov", title="Declaration of Victory: Mine", now=t0 + timedelta(hours=2))
    with pytest.raises(VoteError, match="hiatus"):
        matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    assert Post.objects.get(pk=proposal.pk).status == "pending"


def test_seasonal_downtime_banner_says_until_when(client):
    """2016: “hiatus every year on December 24th … until December 27th”, shown with its end."""
    start = datetime(2016, 12, 20, tzinfo=UTC)
    make_table(3, start=start)
    with time_machine.travel(datetime(2016, 12, 25, 10, tzinfo=UTC), tick=False):
        html = client.get("/").content.decode()
    assert "Seasonal downtime" in html and "until 27 Dec 2016 00:00 UTC" in html
    with time_machine.travel(datetime(2016, 12, 27, 0, 0, 1, tzinfo=UTC), tick=False):
        assert "The game is in hiatus" not in client.get("/").content.decode()
