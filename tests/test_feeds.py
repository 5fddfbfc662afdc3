"""Atom feeds with absolute links: each category, one post's comments, a page's revisions, and a player's
notices at a private address; an unknown feed is a 404."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
from django.urls import reverse

from dynasties.models import Notification
from ruleset.services import page_create, revision_add
from tests.factories import PASSWORD, make_proposal, make_table, vote

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def _atom(response) -> ET.Element:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    return ET.fromstring(response.content)


def _links(feed: ET.Element) -> list[str]:
    return [link.get("href") for link in feed.iter(f"{ATOM}link")]


@pytest.fixture
def game(t0):
    players = make_table(4, start=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Fog Bells")
    vote(proposal, players[3], "for", at=t0 + timedelta(hours=1), text="Ring them loud.")
    return players, proposal


def test_a_category_feed_has_only_that_category_with_absolute_links(client, game):
    feed = _atom(client.get(reverse("category_feed", args=["proposals"])))
    titles = [e.findtext(f"{ATOM}title") for e in feed.iter(f"{ATOM}entry")]
    assert titles == ["Proposal: Fog Bells"]
    assert all(link.startswith("http://testserver/") for link in _links(feed))
    assert client.get(reverse("category_feed", args=["no-such-category"])).status_code == 404


def test_a_posts_comments_feed_carries_each_comment_and_its_vote(client, game):
    _, proposal = game
    feed = _atom(client.get(reverse("post_comments_feed", args=[proposal.slug])))
    entry = next(feed.iter(f"{ATOM}entry"))
    assert entry.findtext(f"{ATOM}title") == "P04 (FOR)"
    assert "Ring them loud." in entry.findtext(f"{ATOM}summary")
    assert entry.find(f"{ATOM}link").get("href").startswith("http://testserver/posts/")
    assert client.get(reverse("post_comments_feed", args=["nothing-here"])).status_code == 404


def test_the_ruleset_revisions_feed(client, game, t0):
    players, _ = game
    page = page_create(
        title="Ruleset",
        kind="ruleset",
        author=players[1],
        text="== Core ==\n=== One ===\nA.",
        summary="Start",
        now=t0,
        check_permission=False,
    )
    revision_add(
        page=page,
        author=players[1],
        text="== Core ==\n=== One ===\nB.",
        summary="Fix a typo",
        now=t0 + timedelta(hours=1),
        base_number=1,
    )
    feed = _atom(client.get(reverse("wiki_feed", args=["ruleset"])))
    assert [e.findtext(f"{ATOM}title") for e in feed.iter(f"{ATOM}entry")] == ["r2: Fix a typo", "r1: Start"]
    assert client.get(reverse("wiki_feed", args=["no-such-page"])).status_code == 404


def test_the_private_notices_feed_works_only_at_its_secret_address(client, game, t0):
    players, _ = game
    Notification.objects.create(user=players[3], key="k", text="Your proposal was enacted", created_at=t0)
    assert client.get("/notices/feed/guess/").status_code == 404
    assert client.login(username="P04", password=PASSWORD)
    client.post(reverse("notices_feed_renew"))
    players[3].refresh_from_db()
    token = players[3].notices_feed_token
    assert len(token) >= 40
    page = client.get(reverse("notifications")).content.decode()
    assert f"http://testserver/notices/feed/{token}/" in page
    client.logout()
    feed = _atom(client.get(reverse("notices_feed", args=[token])))
    assert [e.findtext(f"{ATOM}title") for e in feed.iter(f"{ATOM}entry")] == ["Your proposal was enacted"]
    assert client.login(username="P04", password=PASSWORD)
    client.post(reverse("notices_feed_renew"))
    client.logout()
    assert client.get(reverse("notices_feed", args=[token])).status_code == 404


def test_renewing_the_address_needs_a_post_and_a_login(client, game):
    assert client.post(reverse("notices_feed_renew")).status_code == 302  # to the login page
    assert client.login(username="P04", password=PASSWORD)
    assert client.get(reverse("notices_feed_renew")).status_code == 405
