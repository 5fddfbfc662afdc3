"""A vote is either counted in the resolution that closes its matter or refused; never accepted and left out.

A vote and a resolution of the same matter are ordered by the lock on the matter's row, and each takes its
moment from the clock only once it holds that lock, so the order of the records is the order of their
times. These need real row locks and concurrent connections, so they run on PostgreSQL: a busy server can
pause a request between reading the clock and taking the lock, and the tests widen that pause on purpose.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.concurrency import run_together
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes import posting, services
from votes.models import Comment, Resolution
from votes.services import VoteError, comment_add, matter_reopen, matter_resolve

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def _client(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _closing(function):
    """Run ``function`` in a thread of its own and close the connection that thread opened."""

    def run():
        try:
            function()
        finally:
            connection.close()

    return run


def _enactable_proposal(players, now):
    """A proposal of P03's, open 13 hours with a Quorum FOR (Quorum 4 of 7): it stays enactable whatever one
    more voter does."""
    proposal = make_proposal(players[2], at=now - timedelta(hours=13), title="Proposal: Photo Finish")
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=now - timedelta(hours=12))
    vote(proposal, players[0], "for", at=now - timedelta(hours=12))
    return proposal


def _pause_before_lock(monkeypatch, *, until: threading.Event, reached: threading.Event, module=services):
    """Hold a thread that calls the returned ``mark`` just before it locks the matter, until ``until`` is set,
    setting ``reached`` when it gets there."""
    real = module._locked_post
    flagged = threading.local()

    def locked_post(post):
        if getattr(flagged, "pause", False):
            reached.set()
            until.wait(timeout=10)
        return real(post)

    monkeypatch.setattr(module, "_locked_post", locked_post)

    def mark():
        flagged.pause = True

    return mark


def test_a_vote_that_takes_the_lock_first_is_in_the_recorded_tally(monkeypatch):
    """An admin presses Enact; the server pauses before locking the matter; meanwhile P06 votes and is told
    "Your comment was posted". The resolution that follows must count P06's vote."""
    now = timezone.now()
    players = make_table(7, start=now - timedelta(days=3))
    proposal = _enactable_proposal(players, now)
    reached, voted = threading.Event(), threading.Event()
    mark = _pause_before_lock(monkeypatch, until=voted, reached=reached)
    admin, late_voter = players[1], players[5]
    outcome: dict[str, int] = {}

    def resolve():
        mark()
        outcome["resolve"] = (
            _client(admin).post(reverse("resolve", args=[proposal.slug]), {"action": "enact"}).status_code
        )

    def cast():
        reached.wait(timeout=10)
        outcome["vote"] = (
            _client(late_voter).post(reverse("comment_create", args=[proposal.slug]), {"icon": "against"}).status_code
        )
        voted.set()

    threads = [threading.Thread(target=_closing(resolve)), threading.Thread(target=_closing(cast))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcome == {"resolve": 302, "vote": 302}
    resolution = Resolution.objects.get(post=proposal, outcome="enacted")
    stored = Comment.objects.get(post=proposal, author=late_voter)
    assert stored.at <= resolution.at
    assert resolution.tally["votes"][late_voter.username] == "against"


def test_a_vote_delayed_across_a_reopening_is_dated_after_it(monkeypatch):
    """A matter is enacted; P06 presses AGAINST while it is closed and the server pauses before locking the
    matter; an admin reopens it. The vote is then recorded, but never dated in the time the matter was
    closed: every accepted vote falls inside a time the matter was pending."""
    now = timezone.now()
    players = make_table(7, start=now - timedelta(days=3))
    proposal = _enactable_proposal(players, now)
    matter_resolve(post=proposal, admin=players[1], action="enact", now=now - timedelta(minutes=5))
    reached, reopened = threading.Event(), threading.Event()
    mark = _pause_before_lock(monkeypatch, until=reopened, reached=reached)
    outcome: dict[str, int] = {}

    def cast():
        mark()
        outcome["vote"] = (
            _client(players[5]).post(reverse("comment_create", args=[proposal.slug]), {"icon": "against"}).status_code
        )

    def reopen():
        reached.wait(timeout=10)
        outcome["reopen"] = (
            _client(players[1])
            .post(reverse("reopen", args=[proposal.slug]), {"reason": "CfJ: it was enacted too soon"})
            .status_code
        )
        reopened.set()

    threads = [threading.Thread(target=_closing(cast)), threading.Thread(target=_closing(reopen))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcome == {"vote": 302, "reopen": 302}
    reopening = Resolution.objects.get(post=proposal, outcome="reopened")
    stored = Comment.objects.get(post=proposal, author=players[5])
    assert stored.at >= reopening.at


def test_votes_racing_a_resolution_are_each_counted_or_refused_with_when_and_how():
    """Twelve votes and an Enact arrive at one instant: each vote is either in the resolution's recorded
    tally or refused with a message naming when and how the matter was resolved; none is stored uncounted."""
    now = timezone.now()
    players = make_table(20, start=now - timedelta(days=3))
    proposal = make_proposal(players[2], at=now - timedelta(hours=13), title="Proposal: Crowded Door")
    for voter in players[3:14]:
        vote(proposal, voter, "for", at=now - timedelta(hours=12))
    racers = players[14:20] + players[3:9]

    def voter(user):
        def cast():
            try:
                comment_add(post=proposal, author=user, icon="for", text=f"late {user.username}")
            except VoteError as error:
                return str(error)
            return "accepted"

        return cast

    def resolve():
        matter_resolve(post=proposal, admin=players[1], action="enact")
        return "resolved"

    results = run_together([resolve, *[voter(user) for user in racers]])
    assert results[0] == "resolved"
    resolution = Resolution.objects.get(post=proposal)
    stamp = services.utc_stamp(resolution.at)
    for user, result in zip(racers, results[1:], strict=True):
        stored = Comment.objects.filter(post=proposal, author=user, text=f"late {user.username}").first()
        if result == "accepted":
            assert stored is not None and stored.at <= resolution.at
            assert resolution.tally["votes"][user.username] == "for"
        else:
            assert stored is None
            assert result == services.MATTER_CLOSED.format(
                title=proposal.title, how="enacted by P02", when=stamp, what="vote"
            )


def test_reopening_and_a_vote_at_one_instant_never_date_the_vote_while_closed():
    """A reopening and ten votes at one instant: a vote either finds the matter closed and is refused, or is
    dated at or after the reopening."""
    now = timezone.now()
    players = make_table(12, start=now - timedelta(days=3))
    proposal = make_proposal(players[2], at=now - timedelta(hours=13), title="Proposal: Second Look")
    for voter in players[3:9]:
        vote(proposal, voter, "for", at=now - timedelta(hours=12))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=now - timedelta(minutes=1))

    def voter(user):
        def cast():
            try:
                comment_add(post=proposal, author=user, icon="against")
            except VoteError:
                return "refused"
            return "accepted"

        return cast

    def reopen():
        matter_reopen(post=proposal, admin=players[1], reason="CfJ overturned it")
        return "reopened"

    results = run_together([reopen, *[voter(user) for user in players[3:13]]])
    assert results[0] == "reopened"
    reopening = Resolution.objects.get(post=proposal, outcome="reopened")
    accepted = Comment.objects.filter(post=proposal, icon="against")
    assert "refused" in results or all(later == "accepted" for later in results[1:])
    assert accepted.count() == results.count("accepted")
    assert all(comment.at >= reopening.at for comment in accepted)


def test_an_edit_delayed_behind_a_vote_sees_the_vote_and_is_refused(monkeypatch):
    """The author saves an edit; the server pauses before locking the post; meanwhile P06 votes. The edit lock
    (2016: any comment but a “Note:”) must see that vote: the edit is refused and the text stays as voted on."""
    now = timezone.now()
    players = make_table(7, start=now - timedelta(days=3))
    proposal = make_proposal(players[2], at=now - timedelta(minutes=5), title="Proposal: Moving Target")
    reached, voted = threading.Event(), threading.Event()
    mark = _pause_before_lock(monkeypatch, until=voted, reached=reached, module=posting)
    outcome: dict[str, int] = {}

    def save_edit():
        mark()
        outcome["edit"] = (
            _client(players[2])
            .post(
                reverse("edit_post", args=[proposal.slug]),
                {"kind": "proposal", "title": proposal.title, "body": "Do a different thing."},
            )
            .status_code
        )

    def cast():
        reached.wait(timeout=10)
        outcome["vote"] = (
            _client(players[5]).post(reverse("comment_create", args=[proposal.slug]), {"icon": "for"}).status_code
        )
        voted.set()

    threads = [threading.Thread(target=_closing(save_edit)), threading.Thread(target=_closing(cast))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcome == {"edit": 403, "vote": 302}
    proposal.refresh_from_db()
    assert proposal.body == "Do a thing." and proposal.edited_at is None
