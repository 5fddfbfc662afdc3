"""Many players voting at the same moment lose no vote; a vote racing a resolution is refused cleanly.

These need real row locks and concurrent connections, so they run on PostgreSQL (SQLite serialises every
write, which proves nothing about locking).
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.concurrency import run_together
from tests.factories import PASSWORD, make_proposal, make_table
from votes.models import Comment, Post
from votes.services import VoteError, comment_add, matter_resolve

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_simultaneous_votes_are_all_counted():
    """Twenty players press FOR at the same moment through the web form: twenty votes are stored."""
    now = timezone.now()
    players = make_table(21, start=now - timedelta(hours=1))
    proposal = make_proposal(players[0], at=now - timedelta(minutes=30), title="Proposal: Rush Hour")

    def voter(user):
        def vote():
            client = Client()
            assert client.login(username=user.username, password=PASSWORD)
            return client.post(
                reverse("comment_create", args=[proposal.slug]), {"icon": "for"}, HTTP_HX_REQUEST="true"
            ).status_code

        return vote

    results = run_together([voter(user) for user in players[1:]])
    assert results == [200] * 20
    assert Comment.objects.filter(post=proposal, icon="for").count() == 20
    html = Client().get(reverse("tally_box", args=[proposal.slug])).content.decode()
    assert "For (21)" in html


def test_vote_arriving_during_resolution_is_refused():
    """The resolution locks the matter; a vote that waited on the lock sees it resolved and is refused."""
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=3))
    proposal = make_proposal(players[2], at=now - timedelta(days=2), title="Proposal: Last Call")
    for voter in players[3:5]:
        comment_add(post=proposal, author=voter, icon="for", now=now - timedelta(days=1))
    resolving = threading.Event()

    def resolve():
        with transaction.atomic():
            matter_resolve(post=proposal, admin=players[1], action="enact", now=timezone.now())
            resolving.set()
            time.sleep(1.0)  # hold the lock while the vote arrives
        return "resolved"

    def late_vote():
        resolving.wait(timeout=10)
        try:
            comment_add(post=proposal, author=players[0], icon="against", now=timezone.now())
        except VoteError as error:
            return str(error)
        return "accepted"

    outcome, vote_result = run_together([resolve, late_vote])
    assert outcome == "resolved"
    assert "was enacted by P02 at " in vote_result and "your vote was not recorded" in vote_result
    assert Post.objects.get(pk=proposal.pk).status == "enacted"
    assert not Comment.objects.filter(post=proposal, author=players[0]).exists()
