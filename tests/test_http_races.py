"""Races through HTTP against the site served by gunicorn on PostgreSQL: nothing answered "done" is lost.

Each race sends its requests at one instant from threads of their own, to a gunicorn with four threaded
workers listening on 127.0.0.1 only, and waits at most a bounded time for the answers. The figures each
race prints (``-s`` shows them) are the operations run and what was lost.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gndt.models import Column, Row, Update
from tests.factories import make_proposal, make_table, vote
from tests.gndt.builders import make_gndt, value
from tests.live_server import Gunicorn, Session, fire_together
from votes.judging import tally_report
from votes.models import Comment, Resolution

# One gunicorn serves the module's tests: kept on one worker, it is started once.
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("postgres_only"),
    pytest.mark.xdist_group("http-races"),
]


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """One server for the module: it reads whatever each test has committed to the test database."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("races through HTTP are run on PostgreSQL (the suite's second run)")
    with django_db_blocker.unblock(), Gunicorn(logfile=tmp_path_factory.mktemp("gunicorn") / "log") as running:
        yield running


def _vote_path(post) -> str:
    return f"/posts/{post.slug}/comment/"


def test_sixty_simultaneous_votes_through_http_are_all_counted(server):
    """Sixty players press FOR at one instant: every one is answered "posted" (a redirect) and every one is
    stored and counted in the tally."""
    now = timezone.now()
    players = make_table(62, start=now - timedelta(days=3))
    proposal = make_proposal(players[2], at=now - timedelta(minutes=30), title="Proposal: Stampede")
    voters = [player for player in players if player.pk != proposal.author_id][:60]
    sessions = [Session(voter) for voter in voters]
    results = fire_together(server, [("POST", _vote_path(proposal), session, {"icon": "for"}) for session in sessions])
    statuses = [status for status, _ in results]
    print(
        f"\n60 simultaneous votes: {statuses.count(302)} answered posted, "
        f"{len(statuses) - statuses.count(302)} otherwise"
    )
    assert statuses == [302] * 60, server.log_tail()
    assert Comment.objects.filter(post=proposal, icon="for").count() == 60
    report = tally_report(proposal, now=timezone.now())
    assert report["for"] == 61  # the sixty and the author, who counts as FOR without voting
    assert all(report["votes"][voter.username] == "for" for voter in voters)


def test_a_resolution_racing_twenty_votes_through_http_counts_or_refuses_each(server):
    """An admin presses Enact as twenty players vote AGAINST: each vote is either in the resolution's
    recorded tally, or refused with a message saying when the matter was enacted and that the vote was not
    recorded. No vote is stored and left out."""
    now = timezone.now()
    players = make_table(44, start=now - timedelta(days=3))
    admin, author = players[1], players[2]
    proposal = make_proposal(author, at=now - timedelta(hours=13), title="Proposal: Photo Finish")
    others = [player for player in players if player.pk not in (admin.pk, author.pk)]
    quorum = len(players) // 2 + 1
    supporters, racers = others[: quorum - 1], others[quorum - 1 : quorum + 19]
    assert len(racers) == 20
    for supporter in supporters:
        vote(proposal, supporter, "for", at=now - timedelta(hours=12))
    requests = [("POST", f"/admin-panel/{proposal.slug}/resolve/", Session(admin), {"action": "enact"})]
    requests += [("POST", _vote_path(proposal), Session(racer), {"icon": "against"}) for racer in racers]
    results = fire_together(server, requests)
    assert results[0][0] == 302, server.log_tail()
    resolution = Resolution.objects.get(post=proposal)
    assert resolution.outcome == "enacted"
    counted = refused = 0
    for racer, (status, body) in zip(racers, results[1:], strict=True):
        stored = Comment.objects.filter(post=proposal, author=racer).first()
        if status == 302:
            assert stored is not None and stored.at <= resolution.at
            assert resolution.tally["votes"][racer.username] == "against"
            counted += 1
        else:
            assert status == 400, (status, body[:500])
            assert stored is None
            assert "was enacted by P02 at " in body and "your vote was not recorded" in body
            refused += 1
    print(f"\nresolution racing 20 votes: {counted} counted in the recorded tally, {refused} refused, 0 lost")
    assert counted + refused == 20


def test_twenty_simultaneous_edits_of_one_gndt_cell_through_http_save_exactly_one(server):
    """Twenty players saw P03's Money at 300 and save a new value at one instant: exactly one edit is saved,
    the nineteen others are refused with what changed."""
    game = make_gndt(timezone.now() - timedelta(hours=1), n_players=20)
    row = Row.objects.get(dynasty=game.dynasty, name="P03")
    column = Column.objects.get(dynasty=game.dynasty, name="Money")
    field = f"{row.pk}-{column.pk}"
    requests = [
        (
            "POST",
            "/gndt/edit/",
            Session(player),
            {f"v-{field}": str(400 + i), f"s-{field}": "300", "comment": f"race {i}"},
        )
        for i, player in enumerate(game.players)
    ]
    results = fire_together(server, requests)
    saved = [i for i, (status, _) in enumerate(results) if status == 302]
    refused = [body for status, body in results if status == 400]
    print(f"\n20 simultaneous edits of one cell: {len(saved)} saved, {len(refused)} refused")
    assert len(saved) == 1 and len(refused) == 19, [status for status, _ in results]
    assert all("not “300” as you saw it" in body for body in refused)
    assert value(game, "P03", "Money") == str(400 + saved[0])
    assert Update.objects.filter(comment__startswith="race ").count() == 1
