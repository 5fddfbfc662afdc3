"""Fair Play: the seeds' spam thresholds, clause by clause, and the admins told once when one is passed.

The clause (2015 ruleset and Ruleset 142, Rule “Fair Play”): “A Hunter should not ‘spam’ the BlogNomic blog.
What counts as spamming is subjective, but would typically include posting more than ten blog entries in a
day, more than ten blog comments in a row, or posting a blog entry of more than 1000 words.”
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from dynasties.models import Notification
from tests.factories import make_proposal, make_table, vote
from votes import fairplay
from votes.posting import PostError, post_create, post_edit
from votes.services import comment_add

# --- The pure thresholds ---


def test_ten_posts_in_a_day_pass_and_the_eleventh_is_flagged(t0):
    """“posting more than ten blog entries in a day”: ten are fine, an eleventh passes the threshold; a UTC
    day runs from 00:00:00 to 23:59:59, so posts of the day before do not count."""
    day = t0.replace(hour=0, minute=0)
    yesterday = [day - timedelta(minutes=i + 1) for i in range(5)]
    ten = [day + timedelta(hours=i) for i in range(10)]
    assert fairplay.posts_in_a_day(yesterday + ten, player_id=7, now=day + timedelta(hours=10)) is None
    eleventh = fairplay.posts_in_a_day(
        [*ten, day + timedelta(hours=23, minutes=59, seconds=59)],
        player_id=7,
        now=day + timedelta(hours=23, minutes=59, seconds=59),
    )
    assert eleventh == fairplay.Threshold(count=11, key="fairplay-posts:7:2016-07-25")


def test_more_than_ten_comments_in_a_row_are_flagged_once_per_run():
    """“more than ten blog comments in a row”: eleven of one account's comments with nobody else's between
    them pass the threshold; the run is named by its first comment, so a twelfth is the same finding."""
    run = [(100 + i, "ann") for i in range(11)]
    assert fairplay.comments_in_a_row([(1, "bob"), *run[:10]], post_id=5) is None
    expected = fairplay.Threshold(count=11, key="fairplay-comments:5:100")
    assert fairplay.comments_in_a_row([(1, "bob"), *run], post_id=5) == expected
    assert fairplay.comments_in_a_row([(1, "bob"), *run, (111, "ann")], post_id=5).key == "fairplay-comments:5:100"
    broken = [*run[:6], (50, "bob"), *run[6:]]
    assert fairplay.comments_in_a_row(broken, post_id=5) is None
    assert fairplay.comments_in_a_row([], post_id=5) is None


def test_a_blog_entry_of_more_than_1000_words_is_flagged():
    """“posting a blog entry of more than 1000 words”: 1000 words pass, 1001 do not; Markdown's bullets and
    rules are not words; the flavour text is part of the entry."""
    assert fairplay.word_count("- one **two** three-four\n\n---\n* > five 6") == 5
    assert fairplay.entry_too_long(body="word " * 1000, post_id=3) is None
    assert fairplay.entry_too_long(body="word " * 1000 + "\n\n- - -", post_id=3) is None
    assert fairplay.entry_too_long(body="word " * 990, flavour="tale " * 11, post_id=3) == fairplay.Threshold(
        1001, "fairplay-words:3"
    )


# --- Notices to the admins ---


@pytest.mark.django_db
def test_the_eleventh_post_of_a_day_tells_the_admins_once(t0, django_capture_on_commit_callbacks):
    """More than ten posts in a day: each admin gets one notice naming the player and the count; a twelfth
    post that day adds none."""
    players = make_table(5, start=t0)
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(10):
            post_create(author=players[3], kind="post", title=f"Chat: Number {i}", now=t0 + timedelta(minutes=i))
    assert not Notification.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        post_create(author=players[3], kind="story", title="Story: Eleven", now=t0 + timedelta(minutes=11))
    with django_capture_on_commit_callbacks(execute=True):
        post_create(author=players[3], kind="story", title="Story: Twelve", now=t0 + timedelta(minutes=12))
    notices = Notification.objects.filter(key__startswith="fairplay-posts:")
    assert [n.user for n in notices] == [players[1]]  # the one admin
    assert notices.get().text == fairplay.POSTS_FLAG.format(player="P04", count=11, day="2016-07-25 (UTC)")
    assert "more than ten blog entries in a day" in notices.get().text


@pytest.mark.django_db
def test_an_eleventh_comment_in_a_row_tells_the_admins_once(t0, django_capture_on_commit_callbacks):
    """More than ten comments in a row on one post: one notice per run, none when someone else comments
    between."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0)
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(10):
            comment_add(post=proposal, author=players[3], text=f"Point {i}", now=t0 + timedelta(minutes=i))
        vote(proposal, players[4], "for", at=t0 + timedelta(minutes=10, seconds=30))
        comment_add(post=proposal, author=players[3], text="Point 10", now=t0 + timedelta(minutes=11))
    assert not Notification.objects.exists()
    for i in range(11, 23):  # each comment commits on its own, as each request does
        with django_capture_on_commit_callbacks(execute=True):
            comment_add(post=proposal, author=players[3], text=f"Point {i}", now=t0 + timedelta(minutes=i + 1))
    notices = Notification.objects.filter(key__startswith="fairplay-comments:")
    assert notices.count() == 1
    assert notices.get().text == fairplay.COMMENTS_FLAG.format(player="P04", count=11, title=proposal.title)


@pytest.mark.django_db
def test_a_post_over_1000_words_tells_the_admins_once_made_or_edited(t0, django_capture_on_commit_callbacks):
    """A post of more than 1000 words, whether posted so or edited to it, is one notice; an anonymous one does
    not name its author."""
    players = make_table(5, start=t0, profile="2008")
    with django_capture_on_commit_callbacks(execute=True):
        long_one = post_create(author=players[3], kind="post", title="Essay: Long", body="word " * 1001, now=t0)
        short = post_create(author=players[3], kind="post", title="Essay: Short", body="word " * 1000, now=t0)
        post_edit(
            post=short,
            editor=players[3],
            title=short.title,
            body="word " * 1002,
            flavour="",
            kind="post",
            now=t0 + timedelta(minutes=1),
        )
        post_edit(
            post=short,
            editor=players[3],
            title=short.title,
            body="word " * 1003,
            flavour="",
            kind="post",
            now=t0 + timedelta(minutes=2),
        )
        hidden = post_create(
            author=players[2], kind="cfj", title="CfJ: Secret", body="why " * 1200, now=t0, anonymous=True
        )
    texts = sorted(Notification.objects.filter(key__startswith="fairplay-words:").values_list("text", flat=True))
    assert texts == sorted(
        [
            fairplay.WORDS_FLAG.format(title=long_one.title, by=" by P04", count=1001),
            fairplay.WORDS_FLAG.format(title=short.title, by=" by P04", count=1002),
            fairplay.WORDS_FLAG.format(title=hidden.title, by="", count=1200),
        ]
    )
    assert not any("P03" in text for text in texts)


@pytest.mark.django_db
def test_a_refused_post_tells_nobody(t0, django_capture_on_commit_callbacks):
    """A post refused by the posting rules (a fourth pending-limit Proposal) writes nothing, notices included."""
    players = make_table(5, start=t0)
    make_proposal(players[3], at=t0 - timedelta(hours=2), title="Proposal: One")
    make_proposal(players[3], at=t0 - timedelta(hours=1), title="Proposal: Two")
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(PostError, match="Proposals pending"):
        post_create(author=players[3], kind="proposal", title="Proposal: Long", body="word " * 2000, now=t0)
    assert not Notification.objects.exists()
