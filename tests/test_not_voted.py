"""Who hasn't voted: every pending matter lists the active players with no counted vote yet, the sidebar
shows a player the matters still waiting for their vote, and the admin panel shows it per matter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from dynasties.profiles import get_profile
from tests.factories import PASSWORD, make_idle, make_proposal, make_spectator, make_table, vote
from votes.tallying import Ballot, Electorate, Matter, not_voted, tally

NOW = datetime(2016, 7, 26, 12, 0, tzinfo=UTC)
ACTIVE = frozenset({"Amy", "Bob", "Cat", "Dan", "Ivy"})


def _tally(ballots, *, author="Amy", emperor="Ivy", profile="2016"):
    matter = Matter(
        id=1,
        kind="proposal",
        author=author,
        posted_at=NOW - timedelta(hours=5),
        ballots=tuple(
            Ballot(author=v, icon=i, at=NOW - timedelta(hours=4 - n), comment_id=n) for n, (v, i) in enumerate(ballots)
        ),
    )
    return tally(matter, electorate=Electorate(active=ACTIVE, emperor=emperor), profile=get_profile(profile), now=NOW)


def test_an_author_who_never_voted_has_voted():
    """ "An author who never voted counts as FOR": the author is never listed as not having voted."""
    assert not_voted(_tally([]), active=ACTIVE) == ["Bob", "Cat", "Dan", "Ivy"]


def test_a_cast_vote_of_any_kind_removes_the_player_from_the_list():
    """FOR, AGAINST and a DEFERENTIAL (counted as the Emperor's vote, or waiting for it) are all votes."""
    counted = _tally([("Bob", "for"), ("Cat", "against"), ("Dan", "deferential")])
    assert not_voted(counted, active=ACTIVE) == ["Ivy"]


def test_an_icon_that_does_not_count_leaves_the_player_listed():
    """Only the Emperor may VETO: a VETO from anyone else is no vote, so Bob still has not voted."""
    assert "Bob" in not_voted(_tally([("Bob", "veto")]), active=ACTIVE)


@pytest.mark.django_db
def test_the_post_page_lists_who_has_not_voted_and_the_list_shrinks_after_a_vote(client, t0):
    players = make_table(5, start=t0)
    make_idle(players[4], since=t0)
    proposal = make_proposal(players[1], at=t0)
    spectator = make_spectator("Sam")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        page = client.get(proposal.get_absolute_url()).content.decode()
        assert "Not voted yet (3):" in page  # P01, P03, P04; not the author P02, not idle P05, not Sam
        for name in ("P01", "P03", "P04"):
            assert f">{name}</bdi></a>" in page.split("Not voted yet")[1].split("</p>")[0]
        assert "P05" not in page.split("Not voted yet")[1].split("</p>")[0]
        assert spectator.username not in page.split("Not voted yet")[1].split("</p>")[0]
    vote(proposal, players[2], "for", at=t0 + timedelta(hours=2))
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        page = client.get(proposal.get_absolute_url()).content.decode()
    assert "Not voted yet (2):" in page


@pytest.mark.django_db
def test_the_sidebar_shows_a_player_what_waits_for_their_vote_until_they_vote(client, t0):
    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0, title="Proposal: Lamp Oil")
    assert client.login(username=players[3].username, password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        page = client.get(reverse("front_page")).content.decode()
        assert "Waiting for your vote" in page and "Proposal: Lamp Oil" in page.split("awaiting-list")[1]
        client.post(reverse("comment_create", args=[proposal.slug]), {"icon": "against", "text": ""})
        page = client.get(reverse("front_page")).content.decode()
    assert "Waiting for your vote" not in page


@pytest.mark.django_db
def test_the_author_and_visitors_see_no_waiting_box(client, t0):
    players = make_table(3, start=t0)
    make_proposal(players[1], at=t0)
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        assert "Waiting for your vote" not in client.get("/").content.decode()
        assert client.login(username=players[1].username, password=PASSWORD)
        assert "Waiting for your vote" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_admin_panel_shows_who_has_not_voted_per_matter(client, t0):
    players = make_table(4, start=t0, admins=(1,))
    admin = players[1]
    make_proposal(players[2], at=t0)
    assert client.login(username=admin.username, password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        page = client.get(reverse("admin_panel")).content.decode()
    assert "Not voted yet:" in page.split("panel-not-voted")[1]


@pytest.mark.django_db
def test_the_waiting_box_costs_the_same_queries_for_two_or_twelve_pending_matters(client, t0):
    """The box reads the votes on every pending matter in one query, however many there are."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = make_table(8, start=t0)
    assert client.login(username=players[3].username, password=PASSWORD)
    authors = [players[6], players[7]] + [p for p in players[:6] if p != players[3]] * 2

    def queries() -> int:
        with time_machine.travel(t0 + timedelta(hours=1), tick=False), CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("front_page")).status_code == 200
        return len(ctx.captured_queries)

    for n in range(2):
        make_proposal(authors[n], at=t0 + timedelta(minutes=n), title=f"Proposal: Two {n}")
    few = queries()
    for n in range(10):
        make_proposal(authors[2 + n], at=t0 + timedelta(minutes=10 + n), title=f"Proposal: Twelve {n}")
    assert queries() == few


@pytest.mark.django_db
def test_the_phone_summary_counts_the_authors_own_for(client, t0):
    """ "An author who never voted counts as FOR": the summary at the top of a phone's screen shows the author
    "you: FOR" on their own matter, as the toteboard does, and "not voted" only where nothing counts yet."""
    players = make_table(5, start=t0)
    own = make_proposal(players[1], at=t0, title="Proposal: My Own")
    other = make_proposal(players[2], at=t0 + timedelta(minutes=1), title="Proposal: Someone Else's")
    client.login(username=players[1].username, password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        summary = client.get("/").content.decode().split('id="game-summary"')[1].split("</section>")[0]
    mine = summary.split(own.title)[1].split("</li>")[0]
    theirs = summary.split("Someone Else")[1].split("</li>")[0]
    assert "you: FOR" in mine and "not voted" not in mine
    assert "not voted" in theirs
    vote(other, players[1], "deferential", at=t0 + timedelta(hours=2))
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        summary = client.get("/").content.decode().split('id="game-summary"')[1].split("</section>")[0]
    assert "you: DEFERENTIAL" in summary.split("Someone Else")[1].split("</li>")[0]
