"""The main journeys in a real Chromium: a visitor reads the demo, players vote, an admin enacts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.moving.demo import DEMO_PASSWORD, build_demo
from tests.factories import PASSWORD, make_proposal, make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, name: str, password: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}{next_path}")


@pytest.mark.one_database  # reads only: run on one database
def test_demo_front_page_shows_the_sidebar(browser, live_server, screenshot):
    """A visitor opens the demo game and reads the quorum line, the dynasty and the pending matters."""
    build_demo(now=timezone.now())
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(live_server.url + "/")
    expect(page.locator(".quorum-line")).to_have_text("There are 7 active keepers. Quorum is 4.")
    expect(page.locator("#dynasty")).to_contain_text("The First Dynasty of Wren")
    expect(page.locator("#pending li.old")).to_have_count(1)
    first = page.locator("#utc-clock").text_content()
    page.wait_for_timeout(1100)
    assert page.locator("#utc-clock").text_content() != first, "the UTC clock ticks"
    screenshot(page, "front-page.png", full_page=True)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(live_server.url + "/")
    expect(phone.locator(".quorum-line")).to_be_visible()
    screenshot(phone, "front-page-phone.png")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    log_in(page, live_server.url, "Ada", DEMO_PASSWORD, "/admin-panel/")
    expect(page.locator("h1")).to_have_text("Admin panel")
    page.close()
    phone.close()


def test_two_players_vote_and_an_admin_enacts(browser, live_server, screenshot):
    """Two players vote from the post page and see the tally change without a reload; the admin enacts."""
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=2), admins=(1,))
    proposal = make_proposal(players[2], at=now - timedelta(hours=13), title="Proposal: Lanterns For All")
    url = proposal.get_absolute_url()

    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(3)]
    alice, bob, admin = (context.new_page() for context in contexts)
    for page, player in ((alice, players[3]), (bob, players[4])):
        log_in(page, live_server.url, player.username, PASSWORD, url)

    alice.evaluate("window.__notReloaded = true")
    expect(alice.locator(".tally-columns th").first).to_have_text("For (1)")
    alice.fill("#comment-text", "Bright idea.")
    alice.click("button.vote-for")
    expect(alice.locator(".tally-columns th").first).to_have_text("For (2)")
    expect(alice.locator(".voters-for")).to_contain_text("P04")
    assert alice.evaluate("window.__notReloaded === true"), "the tally changed in place"

    bob.evaluate("window.__notReloaded = true")
    bob.click("button.vote-for")
    expect(bob.locator(".tally-columns th").first).to_have_text("For (3)")
    expect(bob.locator(".can-enact")).to_have_text("Can be enacted now.")
    assert bob.evaluate("window.__notReloaded === true")
    screenshot(bob, "post-after-votes.png", full_page=True)

    log_in(admin, live_server.url, players[1].username, PASSWORD, "/admin-panel/")
    block = admin.locator("#panel-lanterns-for-all")
    expect(block.locator("button.fail")).to_have_count(0)
    block.locator("button.enact").click()
    expect(admin.locator(".messages .message.success")).to_contain_text("Enacted")
    expect(admin.locator("a", has_text="edit the Ruleset")).to_have_attribute(
        "href", "/wiki/ruleset/edit/?post=lanterns-for-all&summary=Enacting%20Proposal%3A%20Lanterns%20For%20All"
    )
    screenshot(admin, "admin-panel-enacted.png", full_page=True)

    alice.goto(live_server.url + url)
    expect(alice.locator(".admin-note")).to_contain_text("Enacted 3-0 (Quorum 3) by P02")
    expect(alice.locator(".closed")).to_be_visible()
    for context in contexts:
        context.close()
