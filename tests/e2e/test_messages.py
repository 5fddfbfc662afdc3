"""A private message round trip in Chromium: the unread count appears, the thread reads, the reply arrives."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_private_message_round_trip(browser, live_server, screenshot):
    """Cato writes to the Emperor; the Emperor sees "Messages 1", reads it (the count goes) and replies."""
    make_table(4, start=timezone.now() - timezone.timedelta(days=3))
    cato = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    log_in(cato, live_server.url, "P04", PASSWORD, "/messages/new/")
    cato.fill("#to", "P01")
    cato.fill("#subject", "Secret action")
    cato.fill("#body", "I light the north lamp tonight.")
    cato.click("form.message-form button[type=submit]")
    expect(cato.locator(".message-thread")).to_contain_text("I light the north lamp tonight.")

    emperor = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    log_in(emperor, live_server.url, "P01", PASSWORD, "/")
    expect(emperor.locator("#messages-link .badge")).to_have_text("1")
    emperor.click("#messages-link")
    emperor.click("text=Secret action")
    expect(emperor.locator(".message-thread")).to_contain_text("I light the north lamp tonight.")
    expect(emperor.locator("#messages-link .badge")).to_have_count(0)
    emperor.fill("#body", "Noted, keeper.")
    emperor.click("form.message-form button[type=submit]")
    screenshot(emperor, "messages-thread.png", full_page=True)

    cato.goto(live_server.url + "/")
    expect(cato.locator("#messages-link .badge")).to_have_text("1")
    cato.goto(live_server.url + "/messages/")
    expect(cato.locator("tr.unread")).to_contain_text("Secret action")
    for page in (cato, emperor):
        page.context.close()
