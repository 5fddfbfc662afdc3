"""The front page and a matter in Chromium: toteboards with the site's icons, and the Markdown preview."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.moving.demo import DEMO_PASSWORD, build_demo

# Run on SQLite alone (`one_database`): the player reads and previews, writing nothing; the views are tested
# on both databases.
pytestmark = [pytest.mark.e2e, pytest.mark.one_database, pytest.mark.django_db(transaction=True)]


def test_a_player_reads_the_toteboards_and_previews_a_comment(browser, live_server, screenshot):
    build_demo(now=timezone.now())
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/?next=/")
    page.fill("input[name=username]", "Cato")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    storms = page.locator("#post-storm-warnings .toteboard")
    expect(storms).to_contain_text("Your vote: FOR")
    expect(storms).to_contain_text("hours old")
    for icon in ("for", "against", "deferential"):
        assert storms.locator(f"img[src$='/vote/{icon}.svg']").evaluate("img => img.naturalWidth") > 0
    expect(page.locator("#recent-comments li").first).to_be_visible()
    screenshot(page, "front-page-toteboards.png", full_page=True)

    page.goto(f"{live_server.url}/posts/the-keepers-logbook/")
    page.fill("#comment-text", "A *careful* plan <script>alert(1)</script>")
    page.click("button.preview")
    expect(page.locator("#comment-preview em")).to_have_text("careful")
    expect(page.locator("#comment-preview script")).to_have_count(0)
    screenshot(page, "comment-preview.png", full_page=True)

    # An address with nothing at it: the game's header and the message, no sidebar.
    page.goto(f"{live_server.url}/no/such/page/")
    expect(page.locator("h1")).to_have_text("Not found")
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator(".sidebar")).to_have_count(0)
    screenshot(page, "not-found.png", full_page=True)
    page.close()
