"""The Duke's ruling on a Declaration of Victory, posted by hand against something that is not one."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from tests.factories import PASSWORD, make_table, vote
from votes.models import Post, Resolution
from votes.posting import post_create
from votes.services import NOT_A_DOV, VoteError, dov_emperor_decide

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind, title", [("cfj", "Call for Judgement: Fair Winds"), ("proposal", "Proposal: Gales")])
def test_a_ruling_on_a_pending_matter_that_is_no_dov_says_what_it_is(client, t0, kind, title):
    """2005: only a Declaration of Victory may be ruled legal or illegal by the Duke. A ruling sent to a
    pending Call for Judgement once answered “…is not pending; it is pending.”; it now says it is not a
    Declaration of Victory, and nothing is resolved."""
    players = make_table(7, start=t0, profile="2005")
    matter = post_create(author=players[2], kind=kind, title=title, body="Read the rules.", now=t0)
    vote(matter, players[3], "for", at=t0 + timedelta(hours=1))
    expected = NOT_A_DOV.format(title=title, kind=matter.get_kind_display())
    with pytest.raises(VoteError) as refused:
        dov_emperor_decide(post=matter, emperor=players[0], legal=True, now=t0 + timedelta(hours=30))
    assert str(refused.value) == expected and "it is pending" not in expected
    client.login(username="P01", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=30), tick=False):
        response = client.post(reverse("emperor_decide", args=[matter.slug]), {"legal": "yes"}, follow=True)
    assert expected in response.content.decode()
    assert Post.objects.get(pk=matter.pk).status == "pending" and not Resolution.objects.exists()
