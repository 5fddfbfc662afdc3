"""The header's links at a small phone's width (360 px): every one can be brought into view, is visible there,
is the element under its own centre (nothing covers it) and takes a click, for a visitor and for an admin, who
has the most links."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}


def assert_every_header_link_reachable(page) -> int:
    links = page.locator(".site-header a, .site-header button")
    count = links.count()
    for i in range(count):
        link = links.nth(i)
        link.scroll_into_view_if_needed()
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SMALL_PHONE["width"], (
            f"{link.inner_text()!r} lies outside the screen: {box}"
        )
        on_top = link.evaluate(
            "el => { const r = el.getBoundingClientRect();"
            " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            " return hit !== null && (hit === el || el.contains(hit)); }"
        )
        assert on_top, f"{link.inner_text()!r} is covered at its centre"
        link.click(trial=True, timeout=2000)
    return count


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=SMALL_PHONE)
    yield context.new_page()
    context.close()


def test_a_visitor_reaches_every_header_link(phone, live_server):
    make_table(3, start=timezone.now() - timedelta(days=3))
    phone.goto(f"{live_server.url}/")
    assert assert_every_header_link_reachable(phone) >= 10


def test_an_admin_reaches_every_header_link(phone, live_server, screenshot):
    make_table(3, start=timezone.now() - timedelta(days=3), admins=(1,))
    log_in(phone, live_server.url, "P02", PASSWORD, "/")
    screenshot(phone, "phone-360-header.png")
    assert assert_every_header_link_reachable(phone) >= 14
