"""After an import, in Chromium: an admin begins the current dynasty from the admin panel, and hides a post."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dynasties.models import Dynasty
from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_player
from votes.posting import post_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_admin_begins_the_current_dynasty_from_the_admin_panel(browser, live_server, screenshot):
    """The panel links to the page; the form's dynasty runs at once and the site uses its terms."""
    joined = timezone.now() - timedelta(days=90)
    make_player("Ferro Lind", joined_at=joined, admin=True)
    make_player("Tide Marrow", joined_at=joined)
    page = browser.new_page()
    log_in(page, live_server.url, "Ferro Lind", PASSWORD, "/admin-panel/")
    page.click("text=begin the current dynasty")
    page.fill("input[name=number]", "241")
    page.fill("input[name=emperor]", "Tide Marrow")
    page.fill("input[name=player_term]", "Diver")
    page.fill("input[name=emperor_term]", "Lighthouse Keeper")
    screenshot(page, "dynasty-start.png")
    page.click("form.dynasty-start-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/dynasties/241/")
    expect(page.locator("body")).to_contain_text("The First Dynasty of Tide Marrow")
    assert Dynasty.objects.current().emperor_term == "Lighthouse Keeper"


def test_an_admin_hides_an_imported_post_and_shows_it_again(browser, live_server, screenshot):
    """From the post's page to the admin panel's list of hidden posts; meanwhile a visitor gets 404."""
    joined = timezone.now() - timedelta(days=90)
    make_player("Ferro Lind", joined_at=joined, admin=True)
    author = make_player("Tide Marrow", joined_at=joined)
    post = post_create(author=author, kind="story", title="A Test Post From The Old Blog", body="Ignore.", now=joined)
    page = browser.new_page()
    log_in(page, live_server.url, "Ferro Lind", PASSWORD, post.get_absolute_url())
    page.click("button.hide")
    page.wait_for_url(f"{live_server.url}/admin-panel/hidden/")
    expect(page.locator(".hidden-post")).to_contain_text("A Test Post From The Old Blog")
    screenshot(page, "hidden-posts.png")
    visitor = browser.new_page()
    assert visitor.goto(f"{live_server.url}{post.get_absolute_url()}").status == 404
    visitor.goto(f"{live_server.url}/")
    expect(visitor.locator("body")).not_to_contain_text("A Test Post From The Old Blog")
    page.click(".hidden-post button.unhide")
    expect(page.locator("body")).to_contain_text("No post is hidden.")
    visitor.goto(f"{live_server.url}/")
    expect(visitor.locator("body")).to_contain_text("A Test Post From The Old Blog")
