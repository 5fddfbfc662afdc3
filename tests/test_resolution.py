"""Resolving from the admin panel: only legal resolutions offered, the admin field, reopening."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.models import Post, Resolution
from votes.services import VoteError, comment_add, matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(t0):
    players = make_table(9, start=t0, admins=(1,))
    older = make_proposal(players[2], at=t0, title="Proposal: Quorum Failures")
    newer = make_proposal(players[3], at=t0 + timedelta(hours=1), title="Proposal: Later Idea")
    return players, older, newer


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def test_panel_offers_enact_only_for_the_oldest_legal_proposal(client, game, t0):
    """“The oldest pending Proposal may be enacted”: both have Quorum FOR, only the older gets a button."""
    players, older, newer = game
    for post in (older, newer):
        for i, voter in enumerate(players[4:9]):
            vote(post, voter, "for", at=t0 + timedelta(hours=2, minutes=i))
    login(client, players[1])
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        html = client.get(reverse("admin_panel")).content.decode()
    older_block = html.split('id="panel-quorum-failures"')[1].split("</section>")[0]
    newer_block = html.split('id="panel-later-idea"')[1].split("</section>")[0]
    assert 'value="enact"' in older_block and 'value="fail"' not in older_block
    assert 'value="enact"' not in newer_block
    assert "not the oldest pending Proposal" in newer_block


def test_resolving_a_newer_proposal_is_refused(game, t0):
    """Only the oldest pending proposal may be resolved: the service refuses and names the older one."""
    players, older, newer = game
    for i, voter in enumerate(players[4:9]):
        vote(newer, voter, "for", at=t0 + timedelta(hours=2, minutes=i))
    with pytest.raises(VoteError, match="“Proposal: Quorum Failures” is older"):
        matter_resolve(post=newer, admin=players[1], action="enact", now=t0 + timedelta(hours=14))
    assert Post.objects.get(pk=newer.pk).status == "pending"
    assert not Resolution.objects.exists()


def test_enacting_records_tally_admin_and_time(client, game, t0):
    """Resolution writes “Enacted 5-3 (Quorum 5) by P02” and “Adminned at …” and closes comments."""
    players, older, _ = game
    for i, voter in enumerate(players[4:8]):
        vote(older, voter, "for", at=t0 + timedelta(hours=2, minutes=i))
    for i, voter in enumerate([players[0], players[1], players[8]]):
        vote(older, voter, "against", at=t0 + timedelta(hours=3, minutes=i))
    login(client, players[1])
    with time_machine.travel(t0 + timedelta(hours=15, minutes=12, seconds=32), tick=False):
        response = client.post(reverse("resolve", args=[older.slug]), {"action": "enact"})
    assert response.status_code == 302
    older.refresh_from_db()
    assert older.status == "enacted" and older.outcome == "enacted"
    assert "Enacted 5-3 (Quorum 5) by P02" in older.admin_note
    assert "Adminned at 26 Jul 2016 03:12:32 UTC" in older.admin_note
    resolution = Resolution.objects.get(post=older)
    assert resolution.by == players[1] and resolution.tally["for"] == 5
    with pytest.raises(VoteError):
        comment_add(post=older, author=players[3], text="Late!", now=t0 + timedelta(hours=16))


def test_enacting_too_early_is_refused_with_the_reason(game, t0):
    """Quorum FOR after 11 hours: “open for voting for at least 12 hours” is not met yet."""
    players, older, _ = game
    for i, voter in enumerate(players[4:9]):
        vote(older, voter, "for", at=t0 + timedelta(hours=1, minutes=i))
    with pytest.raises(VoteError, match="cannot be enacted now"):
        matter_resolve(post=older, admin=players[1], action="enact", now=t0 + timedelta(hours=11))
    assert Post.objects.get(pk=older.pk).status == "pending"


def test_vetoed_proposal_is_failed_as_vetoed(game, t0):
    """The Emperor's VETO lets an admin fail it at once, recorded as vetoed."""
    players, older, _ = game
    vote(older, players[0], "veto", at=t0 + timedelta(minutes=5))
    matter_resolve(post=older, admin=players[1], action="fail", now=t0 + timedelta(minutes=10))
    older.refresh_from_db()
    assert older.outcome == "vetoed" and older.display_status == "Vetoed"
    assert "Failed by P02: vetoed" in older.admin_note


def test_self_killed_proposal_is_shown_as_illegal(game, t0):
    """An author voting AGAINST their own proposal self-kills it; it shows as Illegal (self-killed)."""
    players, older, _ = game
    vote(older, players[2], "against", at=t0 + timedelta(minutes=5))
    matter_resolve(post=older, admin=players[1], action="fail", now=t0 + timedelta(minutes=10))
    older.refresh_from_db()
    assert older.display_status == "Illegal (self-killed)"


def test_non_admin_cannot_resolve_or_see_the_panel(client, game, t0):
    """Only admins resolve."""
    players, older, _ = game
    login(client, players[5])
    assert client.get(reverse("admin_panel")).status_code == 403
    assert client.post(reverse("resolve", args=[older.slug]), {"action": "fail"}).status_code == 403
    with pytest.raises(VoteError, match="Only admins"):
        matter_resolve(post=older, admin=players[5], action="fail", now=t0 + timedelta(days=3))
    assert not Resolution.objects.exists()


def test_reopening_keeps_the_earlier_resolution_on_record(game, t0):
    """A Call for Judgement can overturn a resolution: reopening adds a record and deletes nothing."""
    players, older, _ = game
    vote(older, players[2], "against", at=t0 + timedelta(minutes=5))
    matter_resolve(post=older, admin=players[1], action="fail", now=t0 + timedelta(minutes=10))
    with pytest.raises(VoteError, match="Say why"):
        matter_reopen(post=older, admin=players[1], reason=" ", now=t0 + timedelta(hours=1))
    matter_reopen(post=older, admin=players[1], reason="CfJ: Self-Kill Was A Typo", now=t0 + timedelta(hours=1))
    older.refresh_from_db()
    assert older.status == "pending" and older.outcome == ""
    assert [r.outcome for r in Resolution.objects.filter(post=older)] == ["self-killed", "reopened"]
    assert "Reopened by P02" in older.admin_note and "Failed by P02" in older.admin_note


def test_the_panel_lists_the_ten_newest_resolved_matters_once_each(client, t0):
    """ "Recently resolved": the ten newest matters resolved and not reopened since, newest first; one resolved,
    reopened and resolved again is listed once, and a pending one not at all."""
    players = make_table(9, start=t0, admins=(1,))
    resolved = []
    for n in range(12):
        at = t0 + timedelta(days=n)
        post = make_proposal(players[2 + n % 6], at=at, title=f"Proposal: Number {n:02}")
        vote(post, post.author, "against", at=at + timedelta(minutes=5))  # self-killed: failed at once
        matter_resolve(post=post, admin=players[1], action="fail", now=at + timedelta(minutes=10))
        resolved.append(post)
    again = resolved[-1]
    matter_reopen(post=again, admin=players[1], reason="CfJ: Counted Twice", now=t0 + timedelta(days=12))
    matter_resolve(post=again, admin=players[1], action="fail", now=t0 + timedelta(days=12, hours=1))
    make_proposal(players[8], at=t0 + timedelta(days=13), title="Proposal: Still Open")
    login(client, players[1])
    with time_machine.travel(t0 + timedelta(days=13, hours=1), tick=False):
        response = client.get(reverse("admin_panel"))
    listed = [post.title for post in response.context["recent"]]
    assert listed == [post.title for post in resolved[::-1][:10]]


@pytest.mark.usefixtures("postgres_only")
def test_the_panels_week_of_enactments_is_found_through_the_resolutions_time(t0):
    """The admin panel's enactments awaiting a Ruleset revision (those of the last week) are found through the
    index on the resolutions' time, among years of them: without it every resolution the game ever had is read
    (50 ms at ten times the real history)."""
    from django.db import connection

    from votes.selectors import enacted_awaiting_ruleset

    author = make_table(3, start=t0)[1]
    years_ago = t0 - timedelta(days=3 * 365)
    posts = Post.objects.bulk_create(
        Post(
            slug=f"old-{n}",
            kind="proposal",
            title=f"Proposal: Old {n}",
            author=author,
            posted_at=years_ago + timedelta(hours=n),
            status="enacted",
        )
        for n in range(3000)
    )
    Resolution.objects.bulk_create(
        Resolution(post=post, outcome="enacted", by=author, at=post.posted_at + timedelta(days=1)) for post in posts
    )
    with CaptureQueriesContext(connection) as queries:
        assert enacted_awaiting_ruleset(now=t0) == []
    (sql,) = [query["sql"] for query in queries.captured_queries]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE votes_resolution")
        cursor.execute("ANALYZE blognomic_post")
        cursor.execute(f"EXPLAIN {sql}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "resolution_at" in plan, plan
