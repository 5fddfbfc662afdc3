"""Posting and editing: the subject rule, categories, size, limits, and the profiles' edit locks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, make_proposal, make_spectator, make_table, vote
from votes.models import Post
from votes.posting import PostError, post_create, post_edit
from votes.services import comment_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0):
    return make_table(5, start=t0)


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "proposal", "title": "Proposal:   ", "body": "x"}, "the part after the first colon may not be empty"),
        ({"kind": "lottery", "title": "Lottery: Win", "body": "x"}, "Select a valid choice"),
        ({"kind": "proposal", "title": "Proposal: Huge", "body": "x" * (100 * 1024 + 1)}, "at most 100 KB"),
    ],
)
def test_bad_posts_are_refused_and_nothing_is_written(client, players, form, message):
    """An empty subject, an unknown category or a body over 100 KB gets a clear message and no post."""
    login(client, players[2])
    response = client.post(reverse("new_post"), form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Post.objects.exists()


def test_a_good_post_lands_pending_with_its_subject_and_slug(client, players):
    login(client, players[2])
    response = client.post(
        reverse("new_post"),
        {
            "kind": "proposal",
            "title": "Proposal: Quorum Failures",
            "body": "Make *quorum* clearer.",
            "flavour": "A dark night.",
        },
    )
    post = Post.objects.get()
    assert response.status_code == 302 and response["Location"] == post.get_absolute_url()
    assert (post.status, post.subject, post.slug) == ("pending", "Quorum Failures", "quorum-failures")
    assert "<em>quorum</em>" in post.body_html


def test_script_in_a_post_does_not_survive(players, t0):
    """Posts are sanitised once on save: no script runs."""
    post = post_create(
        author=players[2],
        kind="post",
        title="Chat: Hello",
        now=t0,
        body="<script>alert(1)</script>[x](javascript:alert(1)) **ok**",
    )
    assert "<script" not in post.body_html and 'href="javascript' not in post.body_html
    assert "<strong>ok</strong>" in post.body_html


def test_daily_limit_names_when_the_next_proposal_is_allowed(players, t0):
    """2016: “has already made 3 Proposals that day”: the fourth waits until midnight UTC."""
    author = players[2]
    for i in range(3):
        proposal = make_proposal(author, at=t0 + timedelta(minutes=i), title=f"Proposal: Number {i}")
        if i < 2:
            vote(proposal, author, "against", at=t0 + timedelta(minutes=i, seconds=30))
            from votes.services import matter_resolve

            matter_resolve(post=proposal, admin=players[1], action="fail", now=t0 + timedelta(minutes=i, seconds=40))
    with pytest.raises(PostError) as error:
        make_proposal(author, at=t0 + timedelta(hours=1), title="Proposal: Fourth")
    assert "3 Proposals posted today (the limit is 3 per day)" in str(error.value)
    assert "00:00 UTC on 26 Jul 2016" in str(error.value)


def test_spectators_cannot_post(t0, players):
    spectator = make_spectator("Lurker")
    with pytest.raises(PostError, match="Only active Players may make posts"):
        post_create(author=spectator, kind="post", title="Hi: there", now=t0)


def test_2016_note_comments_do_not_lock_editing(players, t0):
    """2016: a post stays editable while it has only comments starting “Note:” without a voting icon."""
    proposal = make_proposal(players[2], at=t0)
    comment_add(post=proposal, author=players[3], text="Note: typo in the second line", now=t0 + timedelta(minutes=1))
    post_edit(
        post=proposal,
        editor=players[2],
        title="Proposal: Something",
        body="Fixed text.",
        flavour="",
        kind="proposal",
        now=t0 + timedelta(minutes=2),
    )
    vote(proposal, players[4], "for", at=t0 + timedelta(minutes=3))
    with pytest.raises(PostError, match="can no longer be edited"):
        post_edit(
            post=proposal,
            editor=players[2],
            title="Proposal: Something",
            body="Changed again.",
            flavour="",
            kind="proposal",
            now=t0 + timedelta(minutes=4),
        )
    assert Post.objects.get(pk=proposal.pk).body == "Fixed text."


def test_2016_category_is_fixed_after_15_minutes(players, t0):
    """2016: an official post's category may not change once 15 minutes have passed."""
    cfj = post_create(author=players[2], kind="cfj", title="CfJ: Mistake", now=t0)
    with pytest.raises(PostError, match="fixed 15 minutes"):
        post_edit(
            post=cfj,
            editor=players[2],
            title=cfj.title,
            body="",
            flavour="",
            kind="proposal",
            now=t0 + timedelta(minutes=16),
        )
    assert Post.objects.get(pk=cfj.pk).kind == "cfj"


def test_only_the_author_may_edit(client, players, t0):
    """Another player is refused by the service and by the form, which answers 403 and says why."""
    proposal = make_proposal(players[2], at=t0)
    with pytest.raises(PostError, match="Only the author"):
        post_edit(
            post=proposal,
            editor=players[3],
            title="Proposal: Hijack",
            body="",
            flavour="",
            kind="proposal",
            now=t0 + timedelta(minutes=1),
        )
    login(client, players[3])
    response = client.post(
        reverse("edit_post", args=[proposal.slug]), {"kind": "proposal", "title": "Proposal: Hijack", "body": ""}
    )
    assert response.status_code == 403 and "Only the author" in response.content.decode()
    assert Post.objects.get(pk=proposal.pk).title == "Proposal: Something"


def test_2008_cfj_may_be_posted_anonymously(client, t0):
    """2008: a player raising a Call for Judgement “may post anonymously”: no page shows who."""
    players = make_table(4, start=t0, profile="2008")
    with pytest.raises(PostError, match="Only a Call for Judgement may be posted anonymously"):
        post_create(author=players[2], kind="proposal", title="Proposal: Hidden", now=t0, anonymous=True)
    cfj = post_create(author=players[2], kind="cfj", title="CfJ: Something Is Wrong", now=t0, anonymous=True)
    for url in ("/", cfj.get_absolute_url()):
        page = client.get(url).content.decode()
        assert "posted anonymously</span>" in page and 'by <a href="/players/P03/">' not in page
        # The byline says how it was posted, not "Call for Judgement by Call for Judgement".
        assert "by Call for Judgement" not in page and 'by <span class="anonymous"' not in page
    feed = client.get("/feed/").content.decode()
    assert "Something Is Wrong" in feed and "<name>P03</name>" not in feed
    assert "<name>Anonymous</name>" in feed and "<name>Call for Judgement</name>" not in feed
    player_page = client.get("/players/P03/").content.decode()
    assert "Something Is Wrong" not in player_page.split("<h2>Posts</h2>")[1].split("<h2>Votes</h2>")[0]
