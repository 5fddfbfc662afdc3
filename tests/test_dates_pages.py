"""Pages answer with records dated at the edges of what a game may carry, and with a date no arithmetic can hold.

A post dated 9999-12-31 once made every page answer 500 (``posted_at`` plus the days after which a proposal is
stale overflowed datetime). The importers now refuse such dates; records already stored with one must still
render, since every deadline is computed with ``moment_plus``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from dynasties.clock import EARLIEST_STORED, LATEST_STORED, format_iso_time
from gndt.models import Update
from tests.factories import make_proposal, vote
from tests.gndt.builders import make_gndt, update
from votes.models import Comment, Post

pytestmark = pytest.mark.django_db

END_OF_TIME = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def _game_with_a_matter(start: datetime) -> Post:
    """A GNDT with an update, a pending proposal with a vote and a story, all at ``start`` and just after."""
    game = make_gndt(start)
    update(game, game.admin, {("P03", "Money"): "250"}, now=start + timedelta(minutes=1), comment="Paid")
    proposal = make_proposal(game.players[2], at=start + timedelta(minutes=2), title="Proposal: Edge of Time")
    vote(proposal, game.players[3], "for", at=start + timedelta(minutes=3), text="Aye.")
    return proposal


def _pages(proposal: Post, at: datetime) -> dict[str, str]:
    return {
        "front page": "/",
        "matter": proposal.get_absolute_url(),
        "statistics": "/stats/",
        "time travel": f"/at/{format_iso_time(at)}/",
        "GNDT": "/gndt/",
        "GNDT log": "/gndt/log/",
    }


def _statuses(client, proposal: Post, at: datetime) -> dict[str, int]:
    return {name: client.get(path).status_code for name, path in _pages(proposal, at).items()}


@pytest.mark.parametrize(
    "start",
    [EARLIEST_STORED + timedelta(days=31), LATEST_STORED - timedelta(hours=1)],
    ids=["earliest", "latest"],
)
def test_pages_answer_with_records_at_the_bounds_a_game_may_carry(client, start):
    """Records 31 days after 1970 began (the players joined 30 days before) and an hour before 2200 render."""
    with time_machine.travel(start - timedelta(days=31), tick=False):
        proposal = _game_with_a_matter(start)
    with time_machine.travel(start + timedelta(minutes=5), tick=False):
        statuses = _statuses(client, proposal, start + timedelta(minutes=4))
    assert statuses == dict.fromkeys(statuses, 200)


def test_pages_answer_when_a_stored_record_carries_the_last_day_of_year_9999(client, t0):
    """A row stored before the importers refused such dates is shown, not a 500: no deadline overflows."""
    with time_machine.travel(t0, tick=False):
        proposal = _game_with_a_matter(t0)
    Post.objects.filter(pk=proposal.pk).update(posted_at=END_OF_TIME)
    Comment.objects.filter(post=proposal).update(at=END_OF_TIME)
    Update.objects.filter(comment="Paid").update(at=END_OF_TIME)
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        statuses = _statuses(client, proposal, t0 + timedelta(minutes=30))
    assert statuses == dict.fromkeys(statuses, 200)
