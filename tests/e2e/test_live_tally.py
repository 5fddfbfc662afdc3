"""A matter's page shows another player's vote within ten seconds, without a reload (``blognomic.web.live``)."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.moving.demo import build_demo
from dynasties.models import User
from votes.models import Post
from votes.services import comment_add

# Run on SQLite alone (`one_database`): the endpoint and its answers are tested on both databases.
pytestmark = [pytest.mark.e2e, pytest.mark.one_database, pytest.mark.django_db(transaction=True)]


def test_a_watched_matter_shows_a_vote_cast_elsewhere_without_a_reload(browser, live_server, screenshot):
    build_demo(now=timezone.now())
    post = next(post for post in Post.objects.pending() if post.kind == "proposal")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}{post.get_absolute_url()}")
    page.evaluate("window.sameDocument = true")
    tally = page.locator(f"#tally-{post.slug}")
    voter_name = page.locator(".not-voted-list a").first.inner_text()
    expect(tally.locator(".voters-against")).not_to_contain_text(voter_name)
    status = page.locator("#live-status")
    expect(status).to_have_text("")

    comment_add(
        post=post, author=User.objects.get(username=voter_name), icon="against", text="Not this.", now=timezone.now()
    )

    expect(tally.locator(".voters-against")).to_contain_text(voter_name, timeout=10_000)
    expect(status).to_have_text(re.compile(r"^Tally now \d+ FOR, \d+ AGAINST\.$"))
    expect(page.locator("#comments")).to_contain_text("Not this.")
    assert page.evaluate("window.sameDocument") is True  # no reload
    screenshot(page, "live-tally.png", full_page=True)
    page.close()
