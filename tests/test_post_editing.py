"""Editing a post: only its author may, an edit that changes nothing writes nothing, and a change of category
passes every rule that posting in the new category passes, with the same refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tests.factories import PASSWORD, make_idle, make_proposal, make_spectator, make_table, vote
from votes import limits
from votes.models import Post
from votes.posting import ASCENSION_THROUGH_FORM, EMPTY_SUBJECT, PostError, post_create, post_edit

pytestmark = pytest.mark.django_db


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def edit(post, editor, *, now, kind=None, title=None, body=None, flavour=None):
    return post_edit(
        post=post,
        editor=editor,
        now=now,
        kind=kind or post.kind,
        title=post.title if title is None else title,
        body=post.body if body is None else body,
        flavour=post.flavour if flavour is None else flavour,
    )


def story(author, *, at, title="Story Post: Idea"):
    return post_create(author=author, kind="story", title=title, body="A thought.", now=at)


def refused_alike(*, author, kind, post, now, title=None, **create):
    """The refusal of moving ``post`` into ``kind`` is word for word the refusal of posting in ``kind``."""
    with pytest.raises(PostError) as posting:
        post_create(author=author, kind=kind, title=title or post.title, body="x", now=now, **create)
    with pytest.raises(PostError) as editing:
        edit(post, author, kind=kind, title=title, now=now)
    assert str(editing.value) == str(posting.value)
    return str(editing.value)


# --- A change of category passes the posting rules (Trust item 2) ---


def test_a_story_post_may_not_become_a_third_pending_proposal(t0):
    """2016: “Each Player may have at most 2 Proposals pending.” A Story Post edited into a Proposal is held to
    it exactly as a new Proposal is."""
    players = make_table(5, start=t0)
    author = players[2]
    make_proposal(author, at=t0 - timedelta(hours=5), title="Proposal: One")
    make_proposal(author, at=t0 - timedelta(hours=4), title="Proposal: Two")
    idea = story(author, at=t0)
    message = refused_alike(
        author=author, kind="proposal", post=idea, now=t0 + timedelta(minutes=1), title="Proposal: Three"
    )
    assert message.startswith(limits.PENDING_LIMIT.format(count=2, limit=2))
    assert Post.objects.get(pk=idea.pk).kind == "story"
    assert Post.objects.filter(author=author, kind="proposal").count() == 2


def test_a_proposal_moved_into_its_category_is_not_counted_twice(t0):
    """The post being moved is not one of its author's pending Proposals yet: with one pending, a Story Post
    may become the second."""
    players = make_table(5, start=t0)
    author = players[2]
    make_proposal(author, at=t0 - timedelta(hours=5), title="Proposal: One")
    idea = story(author, at=t0)
    moved = edit(idea, author, kind="proposal", title="Proposal: Two", now=t0 + timedelta(minutes=1))
    assert (moved.kind, moved.status) == ("proposal", "pending")


def test_the_emperor_may_not_edit_a_post_into_a_declaration_of_victory(t0):
    """2016: the Emperor may not make a DoV; a Story Post of the Emperor's moved into that category is refused
    with the same words."""
    players = make_table(5, start=t0)
    emperor = players[0]
    idea = story(emperor, at=t0, title="DoV: I Win")
    message = refused_alike(author=emperor, kind="dov", post=idea, now=t0 + timedelta(minutes=1))
    assert message == limits.DOV_NOT_BY_EMPEROR
    assert Post.objects.get(pk=idea.pk).kind == "story"


def test_hiatus_forbids_moving_a_post_into_a_proposal(t0):
    """2016: while a DoV is pending the game is in hiatus and no Proposal may be posted, nor made by editing."""
    players = make_table(5, start=t0)
    post_create(author=players[3], kind="dov", title="DoV: Me", body="I win.", now=t0 - timedelta(hours=1))
    idea = story(players[2], at=t0)
    message = refused_alike(
        author=players[2], kind="proposal", post=idea, now=t0 + timedelta(minutes=1), title="Proposal: Sneaky"
    )
    assert "hiatus" in message and "posting a Proposal is not allowed" in message


def test_an_idle_author_may_not_move_a_post_into_a_proposal(t0):
    """Only active players post; an author idled since writing a Story Post may not turn it into a Proposal."""
    players = make_table(5, start=t0)
    idea = story(players[2], at=t0)
    make_idle(players[2], since=t0 + timedelta(seconds=30))
    message = refused_alike(
        author=players[2], kind="proposal", post=idea, now=t0 + timedelta(minutes=1), title="Proposal: From Idle"
    )
    assert message == "Only active Players may make posts."


def test_an_anonymous_cfj_may_not_become_a_proposal(t0):
    """2008: only a Call for Judgement may be posted anonymously; an anonymous CfJ may not become a Proposal."""
    players = make_table(5, start=t0, profile="2008")
    cfj = post_create(author=players[2], kind="cfj", title="CfJ: Hidden", now=t0, anonymous=True)
    message = refused_alike(author=players[2], kind="proposal", post=cfj, now=t0 + timedelta(minutes=1), anonymous=True)
    assert "Only a Call for Judgement may be posted anonymously" in message
    assert Post.objects.get(pk=cfj.pk).kind == "cfj"


def test_no_post_becomes_an_ascension_address_by_editing(t0):
    """An Ascension Address is posted through its own form only, never by a change of category."""
    players = make_table(5, start=t0)
    idea = story(players[2], at=t0)
    with pytest.raises(PostError, match=ASCENSION_THROUGH_FORM):
        edit(idea, players[2], kind="ascension", now=t0 + timedelta(minutes=1))


def test_the_subject_rule_holds_on_a_change_of_category(t0):
    """“The title needs a subject” holds when a post is edited into a new category too."""
    players = make_table(5, start=t0)
    idea = story(players[2], at=t0)
    with pytest.raises(PostError, match=EMPTY_SUBJECT):
        edit(idea, players[2], kind="proposal", title="Proposal:  ", now=t0 + timedelta(minutes=1))


def test_the_edit_form_refuses_a_category_change_past_the_limit(client, t0, settings):
    """Through the edit form, the same refusal, a 400, and the post unchanged."""
    players = make_table(5, start=t0)
    author = players[2]
    make_proposal(author, at=t0 - timedelta(hours=5), title="Proposal: One")
    make_proposal(author, at=t0 - timedelta(hours=4), title="Proposal: Two")
    idea = story(author, at=t0)
    login(client, author)
    import time_machine

    with time_machine.travel(t0 + timedelta(minutes=1), tick=False):
        response = client.post(
            reverse("edit_post", args=[idea.slug]), {"kind": "proposal", "title": "Proposal: Three", "body": "x"}
        )
    assert response.status_code == 400
    assert escape(limits.PENDING_LIMIT.format(count=2, limit=2)) in response.content.decode()
    assert Post.objects.get(pk=idea.pk).kind == "story"


# --- Only the author edits; an unchanged edit changes nothing (Trust item 3) ---


@pytest.mark.parametrize("profile", ["2005", "2008", "2016"])
def test_nobody_but_the_author_edits_a_post_not_even_an_admin(profile, t0):
    """2008/2016: “If no Player has commented on it, an official post may be altered or removed by its author”;
    “The Admin processing an official post is allowed to append to the post to reflect its new status”, in the
    Admin field, which resolving writes. No profile lets anyone else, admins included, alter a post."""
    players = make_table(5, start=t0, profile=profile)
    proposal = make_proposal(players[2], at=t0)
    spectator = make_spectator("Lurker")
    for intruder in (players[1], players[3], spectator):  # an admin, a player, an account that is not one
        with pytest.raises(PostError, match=limits.EDIT_ONLY_AUTHOR):
            edit(proposal, intruder, now=t0 + timedelta(minutes=1))
        with pytest.raises(PostError, match=limits.EDIT_ONLY_AUTHOR):
            edit(proposal, intruder, body="Hijacked.", now=t0 + timedelta(minutes=1))
    after = Post.objects.get(pk=proposal.pk)
    assert after.edited_at is None and after.body == "Do a thing."


def test_an_edit_that_changes_nothing_writes_nothing(t0):
    """The author saves the form unchanged: the post is not marked edited and nothing is written."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0)
    with CaptureQueriesContext(connection) as queries:
        edit(proposal, players[2], now=t0 + timedelta(minutes=1))
    writes = [q["sql"] for q in queries if q["sql"].split()[0].upper() in ("UPDATE", "INSERT", "DELETE")]
    assert writes == []
    assert Post.objects.get(pk=proposal.pk).edited_at is None


def test_others_are_refused_the_edit_page(client, t0):
    """Another player, an admin or a spectator opening or posting the edit form is refused (403), with why;
    the post is not marked edited."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0)
    spectator = make_spectator("Lurker")
    for intruder in (players[1], players[3], spectator):
        login(client, intruder)
        page = client.get(reverse("edit_post", args=[proposal.slug]))
        assert page.status_code == 403 and limits.EDIT_ONLY_AUTHOR in page.content.decode()
        assert "<form" not in page.content.decode().split("<main")[-1]
        sent = client.post(
            reverse("edit_post", args=[proposal.slug]),
            {"kind": "proposal", "title": proposal.title, "body": proposal.body},
        )
        assert sent.status_code == 403 and limits.EDIT_ONLY_AUTHOR in sent.content.decode()
    assert Post.objects.get(pk=proposal.pk).edited_at is None


# --- The Edit link (A player's week, bug 5) ---


def test_the_edit_link_shows_only_when_an_edit_is_allowed_and_says_why_not(client, t0):
    """The author sees Edit while the post may be edited; once a vote locks it (2016: a comment other than a
    “Note:”), the page says why instead. Nobody else sees either."""
    import time_machine

    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0)
    edit_url = reverse("edit_post", args=[proposal.slug])
    login(client, players[2])
    with time_machine.travel(t0 + timedelta(minutes=1), tick=False):
        page = client.get(proposal.get_absolute_url()).content.decode()
    assert f'href="{edit_url}"' in page
    login(client, players[3])
    with time_machine.travel(t0 + timedelta(minutes=1), tick=False):
        page = client.get(proposal.get_absolute_url()).content.decode()
    assert f'href="{edit_url}"' not in page and "not editable" not in page
    vote(proposal, players[3], "for", at=t0 + timedelta(minutes=2))
    login(client, players[2])
    with time_machine.travel(t0 + timedelta(minutes=3), tick=False):
        page = client.get(proposal.get_absolute_url()).content.decode()
        refused = client.get(edit_url)
    locked = escape(limits.EDIT_LOCKED["until_non_note_comment"].format(who="P04", did="voted"))
    assert f'href="{edit_url}"' not in page and locked in page
    assert refused.status_code == 403 and locked in refused.content.decode()


def test_django_admin_cannot_change_a_posts_category_or_state(client, t0):
    """The operator's admin site is another way in: there a post's category, author, time and state are shown,
    not edited, so no posting rule or resolution record is bypassed."""
    players = make_table(5, start=t0)
    idea = story(players[2], at=t0)
    from dynasties.models import User

    User.objects.create_superuser(username="Operator", password=PASSWORD)
    assert client.login(username="Operator", password=PASSWORD)
    url = reverse("admin:votes_post_change", args=[idea.pk])
    page = client.get(url).content.decode()
    assert 'name="kind"' not in page and 'name="status"' not in page and 'name="title"' in page
    client.post(
        url,
        {
            "slug": idea.slug,
            "title": "Story Post: Renamed",
            "body": idea.body,
            "flavour": "",
            "kind": "proposal",
            "status": "pending",
            "sticky": "",
        },
    )
    after = Post.objects.get(pk=idea.pk)
    assert (after.kind, after.status, after.title) == ("story", "", "Story Post: Renamed")
