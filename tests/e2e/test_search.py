"""Searching in Chromium: a rule's wording leads to the Proposal that introduced it."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.moving.demo import build_demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_search_for_a_rules_wording_finds_its_proposal(browser, live_server, screenshot):
    build_demo(now=timezone.now())
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(live_server.url + "/")
    page.click("nav.site-nav >> text=Search")
    page.fill("#q", '"gains 3 Oil"')
    page.click("form.search-form button[type=submit]")
    expect(page.locator("#results-posts .hits li").first).to_contain_text("Oil Rations")
    expect(page.locator("#results-posts mark").first).to_have_text("gains 3 Oil")
    screenshot(page, "search.png", full_page=True)
    page.locator("#results-posts .hits a").first.click()
    expect(page.locator("h1")).to_contain_text("Oil Rations")
