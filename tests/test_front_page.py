"""The front page a player reads every day: toteboards, ages, their own vote, recent comments, previews."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import override_settings
from django.urls import reverse

from blognomic.templatetags.blog_tags import vote_icon
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.services import comment_add

pytestmark = pytest.mark.django_db


def board_of(html: str, slug: str) -> str:
    match = re.search(rf'<article[^>]*id="post-{slug}">(.*?)</article>', html, re.S)
    assert match, f"{slug} is not listed"
    board = re.search(r'<div class="toteboard[^"]*"[^>]*>(.*?)</div>\s*<!-- /toteboard -->', match.group(1), re.S)
    assert board, f"{slug} has no toteboard"
    return board.group(1)


def test_each_pending_matter_shows_its_toteboard_age_own_vote_and_whether_it_can_be_resolved(client, t0):
    """FOR/AGAINST/DEF counts with their icons, Quorum, “26 hours old”, the viewer's own vote, and the
    verdict the admin panel would give."""
    players = make_table(5, start=t0)
    ripe = make_proposal(players[1], at=t0, title="Proposal: Ripe")
    young = make_proposal(players[2], at=t0 + timedelta(hours=20), title="Proposal: Young")
    vote(ripe, players[3], "for", at=t0 + timedelta(hours=1))
    vote(ripe, players[4], "deferential", at=t0 + timedelta(hours=2))
    vote(ripe, players[0], "for", at=t0 + timedelta(hours=3))
    vote(young, players[4], "against", at=t0 + timedelta(hours=21))
    assert client.login(username="P04", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=26, minutes=30), tick=False):
        html = client.get("/").content.decode()
    ripe_board = board_of(html, ripe.slug)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", ripe_board))
    assert "FOR 4" in text and "AGAINST 0" in text and "DEF 1" in text and "Quorum 3" in text
    assert "/static/img/vote/for.svg" in ripe_board and "/static/img/vote/deferential.svg" in ripe_board
    assert "26 hours old" in text
    assert "Your vote: FOR" in text
    assert "Can be enacted now" in text
    young_text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", board_of(html, young.slug)))
    assert "6 hours old" in young_text and "You have not voted" in young_text
    assert "Waits for the oldest pending Proposal." in young_text  # Ripe is older


def test_the_sidebar_lists_recent_comments(client, t0):
    players = make_table(4, start=t0)
    proposal = make_proposal(players[1], at=t0, title="Proposal: Chatty")
    for i in range(7):
        comment_add(post=proposal, author=players[i % 4], text=f"Remark number {i}", now=t0 + timedelta(minutes=i))
    html = client.get("/").content.decode()
    box = re.search(r'<section class="box" id="recent-comments">(.*?)</section>', html, re.S).group(1)
    assert "Remark number 6" in box and "Remark number 2" in box and "Remark number 1" not in box
    assert box.index("Remark number 6") < box.index("Remark number 5")
    assert "Proposal: Chatty" in box and f"{proposal.get_absolute_url()}#comment-" in box


def test_markdown_preview_renders_with_the_same_sanitiser_as_saving(client, t0):
    make_table(3, start=t0)
    assert client.login(username="P02", password=PASSWORD)
    response = client.post(reverse("markdown_preview"), {"text": "Some *stress* <script>alert(1)</script>"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<em>stress</em>" in html and "<script" not in html
    assert client.post(reverse("markdown_preview"), {"body": "**bold**"}).content.decode().count("<strong>") == 1


def test_post_and_comment_forms_offer_a_preview(client, t0):
    players = make_table(3, start=t0)
    proposal = make_proposal(players[1], at=t0)
    assert client.login(username="P02", password=PASSWORD)
    preview = reverse("markdown_preview")
    for url in (reverse("new_post"), proposal.get_absolute_url()):
        html = client.get(url).content.decode()
        assert f'data-hx-post="{preview}"' in html and 'class="markdown-preview' in html, url
        assert "onclick" not in html and "<script>" not in html


def test_comments_show_their_vote_icons_as_the_sites_images(client, t0):
    """“a check box … FOR, an X … AGAINST, an IMP … DEFERENTIAL, and an Imperial Seal … the Imperial Veto”."""
    from django.contrib.staticfiles import finders

    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0)
    vote(proposal, players[2], "for", at=t0 + timedelta(hours=1))
    vote(proposal, players[3], "against", at=t0 + timedelta(hours=1))
    vote(proposal, players[4], "deferential", at=t0 + timedelta(hours=1))
    vote(proposal, players[0], "veto", at=t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    for icon, label in (("for", "FOR"), ("against", "AGAINST"), ("deferential", "DEFERENTIAL"), ("veto", "VETO")):
        assert f'<img class="vote-icon" src="/static/img/vote/{icon}.svg" alt="{label}"' in html
        assert "<svg" in open(finders.find(f"img/vote/{icon}.svg")).read()


def test_the_listing_counts_its_posts_once_until_the_content_changes(client, t0):
    """The page is rendered afresh every minute (the sidebar tells the time) without counting every post
    again, and a new post counts at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from votes.models import Post

    players = make_table(3, start=t0)
    for n in range(20):
        Post.objects.create(
            slug=f"tale-{n}",
            kind="story",
            title=f"Story: Tale {n}",
            author=players[n % 3],
            posted_at=t0 + timedelta(minutes=n),
            body="Once.",
        )

    def read(minutes: int) -> tuple[str, int]:
        with (
            time_machine.travel(t0 + timedelta(hours=1, minutes=minutes), tick=False),
            CaptureQueriesContext(connection) as queries,
        ):
            html = client.get(reverse("category", args=["story-posts"])).content.decode()
        return html, sum("COUNT(" in q["sql"] and "blognomic_post" in q["sql"] for q in queries)

    html, counted = read(0)
    assert counted == 1 and "Page 1 of" not in html
    html, counted = read(5)
    assert counted == 0 and "Tale 19" in html
    Post.objects.create(
        slug="tale-new",
        kind="story",
        title="Story: Tale New",
        author=players[0],
        posted_at=t0 + timedelta(minutes=50),
        body="Twice.",
    )
    html, counted = read(6)
    assert counted == 1 and "Page 1 of 2" in html and "Tale New" in html


def test_a_matter_pending_over_48_hours_says_so_in_words_beside_its_red_title(client, t0):
    """The sidebar marks a matter pending more than 48 hours in red, and says why in visible text, which a
    screen reader reads and a phone shows, rather than only in a tooltip."""
    players = make_table(5, start=t0)
    make_proposal(players[1], at=t0, title="Proposal: Old Hat")
    make_proposal(players[2], at=t0 + timedelta(hours=40), title="Proposal: New Hat")
    with time_machine.travel(t0 + timedelta(hours=49), tick=False):
        html = client.get("/").content.decode()
    pending = re.search(r'<section class="box" id="pending">(.*?)</section>', html, re.S).group(1)
    items = {re.sub(r"<[^>]+>", "", item).split(" ")[1]: item for item in re.findall(r"<li.*?</li>", pending, re.S)}
    assert items["Old"].startswith('<li class="old">') and "(pending over 48 hours)" in items["Old"]
    assert "title=" not in items["Old"]
    assert "class=" not in items["New"].split(">")[0] and "pending over" not in items["New"]


def test_a_vote_icon_follows_the_static_files_address_when_it_changes():
    """Each icon's image is made once and kept, and made again when the static files move (a test's settings,
    or the manifest's hashed names)."""
    assert 'src="/static/img/vote/for.svg"' in vote_icon("for")
    with override_settings(STATIC_URL="/assets/"):
        assert 'src="/assets/img/vote/for.svg" alt="FOR"' in vote_icon("for")
    assert 'src="/static/img/vote/for.svg"' in vote_icon("for")
