"""What holds a test run on one database alone to reading: the writes a request makes are seen, the test's own
are not."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_proposal, make_table
from tests.site_writes import writes_through_the_site
from votes.models import Comment

pytestmark = pytest.mark.django_db


def test_a_vote_through_the_site_is_a_write_and_the_games_own_building_is_not(t0, monkeypatch):
    vote_at = reverse("comment_create", args=["bells"])
    with writes_through_the_site(monkeypatch) as written, time_machine.travel(t0 + timedelta(hours=1), tick=False):
        players = make_table(4, start=t0)
        proposal = make_proposal(players[2], at=t0, title="Proposal: Bells")
        client = Client()
        assert client.login(username=players[3].username, password=PASSWORD)
        assert client.get(proposal.get_absolute_url()).status_code == 200
        assert written == [], "building the game, logging in and reading a page write nothing through the site"
        assert client.post(vote_at, {"icon": "for", "text": ""}).status_code == 302
    assert Comment.objects.get(post=proposal).icon == "for"
    assert written and set(written) == {vote_at}
