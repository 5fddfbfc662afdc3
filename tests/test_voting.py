"""Voting from the post page: the form with and without htmx, and every refusal writing nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils.html import escape

from tests.factories import PASSWORD, make_idle, make_proposal, make_spectator, make_table, vote
from votes import services
from votes.models import Comment, Post
from votes.services import VoteError, comment_add, matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(t0):
    """Nine players (P01 the Emperor, P02 an admin), one proposal by P03 posted at t0."""
    players = make_table(9, start=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Quorum Failures")
    return players, proposal


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def test_vote_without_javascript_redirects_to_the_post(client, table, t0):
    """The plain form posts, stores the vote and sends the player back to the comments."""
    players, proposal = table
    login(client, players[3])
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        response = client.post(reverse("comment_create", args=[proposal.slug]), {"icon": "for", "text": ""})
    assert response.status_code == 302
    assert response["Location"].endswith("#comments")
    assert Comment.objects.get(post=proposal).icon == "for"


def test_vote_with_htmx_returns_the_updated_tally_box(client, table, t0):
    """An htmx vote answers with the matter block, whose tally now lists the voter under For."""
    players, proposal = table
    login(client, players[3])
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        response = client.post(
            reverse("comment_create", args=[proposal.slug]), {"icon": "against"}, HTTP_HX_REQUEST="true"
        )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="matter"' in html and "<html" not in html
    assert "Against (1)" in html and "P04" in html


def test_text_is_optional_with_an_icon_but_needed_without(table, t0):
    """“text is optional when an icon is given”; a comment with neither is refused."""
    players, proposal = table
    comment_add(post=proposal, author=players[3], icon="for", now=t0 + timedelta(hours=1))
    with pytest.raises(VoteError, match="Write a comment or choose a voting icon"):
        comment_add(post=proposal, author=players[3], text="  ", now=t0 + timedelta(hours=2))
    assert Comment.objects.filter(post=proposal).count() == 1


@pytest.mark.parametrize(
    ("voter_index", "icon", "message"),
    [
        (3, "veto", "Only the Emperor may VETO."),
        (0, "deferential", "The Emperor cannot vote DEFERENTIAL."),
    ],
)
def test_icons_reserved_or_forbidden_for_the_emperor(table, t0, voter_index, icon, message):
    """VETO is the Emperor's alone; DEFERENTIAL is for everyone but the Emperor."""
    players, proposal = table
    with pytest.raises(VoteError) as error:
        comment_add(post=proposal, author=players[voter_index], icon=icon, now=t0 + timedelta(hours=1))
    assert str(error.value) == message
    assert not Comment.objects.exists()


def test_emperor_may_veto_a_proposal_but_not_a_cfj(table, t0):
    """“The Emperor may use VETO as a voting icon to cast a Vote on a proposal.”"""
    players, proposal = table
    comment_add(post=proposal, author=players[0], icon="veto", now=t0 + timedelta(hours=1))
    cfj = services_post(players[4], "cfj", "Call for Judgement: Who Is Right", t0 + timedelta(hours=2))
    with pytest.raises(VoteError, match="VETO may only be used on Proposals"):
        comment_add(post=cfj, author=players[0], icon="veto", now=t0 + timedelta(hours=3))


def services_post(author, kind, title, at):
    from votes.posting import post_create

    return post_create(author=author, kind=kind, title=title, body="Text.", now=at)


def test_non_players_and_idle_players_may_comment_but_not_vote(table, t0):
    """“A non-Player never has a Vote”; idle players are not counted either."""
    players, proposal = table
    spectator = make_spectator("Seventy-Fifth Trombone")
    make_idle(players[8], since=t0 - timedelta(days=1))
    for user in (spectator, players[8]):
        with pytest.raises(VoteError, match="Only active Players may vote"):
            comment_add(post=proposal, author=user, icon="for", now=t0 + timedelta(hours=1))
    comment_add(post=proposal, author=spectator, text="Good luck!", now=t0 + timedelta(hours=1))
    assert Comment.objects.filter(post=proposal, icon__isnull=False).count() == 0


def test_comment_over_100_kb_is_refused(client, table, t0):
    """A comment over 100 KB gets a clear message and is not saved."""
    players, proposal = table
    login(client, players[3])
    response = client.post(reverse("comment_create", args=[proposal.slug]), {"text": "x" * (100 * 1024 + 1)})
    assert response.status_code == 400
    assert "at most 100 KB" in response.content.decode()
    assert not Comment.objects.exists()


def test_comment_on_a_post_that_does_not_exist(client, table):
    """A comment on a missing post gets a clear 404 and writes nothing."""
    players, _ = table
    login(client, players[3])
    response = client.post(reverse("comment_create", args=["no-such-post"]), {"icon": "for"})
    assert response.status_code == 404
    assert services.__name__  # module imported
    assert "There is no post at that address" in response.content.decode()
    assert not Comment.objects.exists()


def test_refused_vote_keeps_the_typed_text(client, table, t0):
    """On a refusal the page comes back with the player's words still in the box."""
    players, proposal = table
    login(client, players[3])
    response = client.post(
        reverse("comment_create", args=[proposal.slug]), {"icon": "veto", "text": "My carefully written argument"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Only the Emperor may VETO." in html
    assert "My carefully written argument" in html


def test_vote_on_a_resolved_matter_is_refused(client, table, t0):
    """“Comments cannot be made on Enacted or Failed Votable Matters.” The refusal says how and when, to the
    second, the matter was resolved, and that the vote was not recorded."""
    players, proposal = table
    for i, voter in enumerate(players[3:8]):
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1, minutes=i))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13, seconds=2))
    expected = (
        f"“{proposal.title}” was enacted by {players[1].username} at 26 Jul 2016 01:00:02 UTC; your vote "
        "was not recorded. No more comments are accepted on it."
    )
    with pytest.raises(VoteError) as refused:
        comment_add(post=proposal, author=players[8], icon="against", now=t0 + timedelta(hours=14))
    assert str(refused.value) == expected
    with pytest.raises(VoteError, match="your comment was not recorded"):
        comment_add(post=proposal, author=players[8], text="Too late?", now=t0 + timedelta(hours=14))
    login(client, players[8])
    response = client.post(reverse("comment_create", args=[proposal.slug]), {"icon": "against"}, HTTP_HX_REQUEST="true")
    assert escape(expected) in response.content.decode()
    assert Comment.objects.filter(author=players[8]).count() == 0


def test_a_vote_dated_before_a_reopening_is_refused(table, t0):
    """A vote whose moment falls while the matter was closed (before a later reopening) is not recorded: every
    stored vote falls inside a time its matter was pending."""
    players, proposal = table
    for i, voter in enumerate(players[3:8]):
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1, minutes=i))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    matter_reopen(post=proposal, admin=players[1], reason="CfJ: too early", now=t0 + timedelta(hours=15))
    with pytest.raises(VoteError, match="was reopened at 26 Jul 2016 03:00:00 UTC, after your vote was sent"):
        comment_add(post=proposal, author=players[8], icon="against", now=t0 + timedelta(hours=14))
    vote(proposal, players[8], "against", at=t0 + timedelta(hours=15))
    assert Comment.objects.filter(author=players[8]).count() == 1


def test_a_resolution_dated_before_a_recorded_vote_is_refused(table, t0):
    """A resolution may not be dated earlier than a vote the matter already holds, or that vote would be
    stored yet left out of the recorded tally."""
    players, proposal = table
    for i, voter in enumerate(players[3:8]):
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1, minutes=i))
    vote(proposal, players[8], "against", at=t0 + timedelta(hours=14))
    with pytest.raises(
        VoteError, match="has a comment recorded at 26 Jul 2016 02:00:00 UTC, later than this resolution"
    ):
        matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    assert not proposal.resolutions.exists()


def test_logged_out_visitor_is_sent_to_log_in(client, table):
    """Only logged-in people can comment; the post page offers a login link instead of the form."""
    _, proposal = table
    response = client.post(reverse("comment_create", args=[proposal.slug]), {"icon": "for"})
    assert response.status_code == 302
    # Back to the post, not to the address the form posted to.
    assert response["Location"] == f"/accounts/login/?next={proposal.get_absolute_url()}"
    page = client.get(proposal.get_absolute_url()).content.decode()
    assert "Log in</a> to comment or vote" in page
    assert not Comment.objects.exists()


def test_tally_box_marks_effective_and_superseded_votes(client, table, t0):
    """Each player's effective vote comment is marked; earlier votes of theirs are greyed out."""
    players, proposal = table
    first = vote(proposal, players[3], "against", at=t0 + timedelta(hours=1))
    last = vote(proposal, players[3], "for", at=t0 + timedelta(hours=2))
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    assert f'class="comment superseded" id="comment-{first.pk}"' in html
    assert f'class="comment effective" id="comment-{last.pk}"' in html
    assert 'Quorum</dt><dd class="tally-quorum">5 of 9 active' in html


def test_tally_box_says_when_it_could_be_enacted(client, table, t0):
    """Quorum FOR at 3 hours: not yet enactable, and the box names the 12-hour mark as the earliest time."""
    players, proposal = table
    for i, voter in enumerate(players[3:7]):
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1, minutes=i))
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        html = client.get(reverse("tally_box", args=[proposal.slug])).content.decode()
    assert "Cannot be resolved yet." in html
    assert "could be enacted from 26 Jul 2016 00:00:00 UTC" in html


def test_simultaneous_proposals_cannot_slip_past_the_limit(table, t0):
    """“unless the Player already has 2 Proposals pending”: the third is refused and names the limit."""
    players, _ = table
    make_proposal(players[2], at=t0 + timedelta(minutes=1), title="Proposal: Second")
    from votes.posting import PostError

    with pytest.raises(PostError, match=r"2 Proposals pending \(the limit is 2\)"):
        make_proposal(players[2], at=t0 + timedelta(minutes=2), title="Proposal: Third")
    assert Post.objects.filter(author=players[2]).count() == 2


def test_tally_reasons_use_the_dynasty_terms(client, t0):
    """Every page uses the current terms: the tally's reasons speak of Hunters, not Players."""
    from dynasties.models import Dynasty

    players = make_table(5, start=t0)
    Dynasty.objects.update(player_term="Hunter", emperor_term="Pirate")
    proposal = make_proposal(players[2], at=t0)
    vote(proposal, players[3], "against", at=t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    reasons = html.split('<ul class="reasons">')[1].split("</ul>")[0]
    assert "hunters" in reasons.lower() and "players" not in reasons.lower()
