"""The demo's clock in a real Chromium: an admin moves it ahead from the admin panel and watches a Proposal
become enactable without waiting twelve hours."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.running import demo_clock
from tests.factories import PASSWORD, make_proposal, make_table, vote

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(settings):
    settings.DEMO_CLOCK, settings.DEBUG = True, True
    demo_clock.install()
    yield
    demo_clock.uninstall()


def test_an_admin_moves_the_demo_clock_and_sees_a_proposal_become_enactable(browser, live_server, screenshot, demo):
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=3))
    proposal = make_proposal(players[2], at=now - timedelta(hours=3), title="Proposal: Brighter Lamps")
    for voter in players[:4]:
        vote(proposal, voter, "for", at=now - timedelta(hours=2))
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/?next=/admin-panel/")
    page.fill("input[name=username]", players[1].username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked button[type=submit]")
    panel = page.locator("#panel-brighter-lamps")
    expect(panel.locator(".standing")).to_contain_text("If nothing changes, it could be enacted from")
    control = page.locator(".demo-clock")
    expect(control).to_contain_text("its clock is the real one")
    screenshot(page, "demo-clock-before.png", full_page=True)
    control.get_by_role("button", name="12 hours").click()
    expect(page.locator(".messages")).to_contain_text("The demo's clock now runs 12 hours ahead of the real one.")
    expect(page.locator(".demo-clock-note")).to_have_text("(demo clock, 12 hours ahead)")
    expect(panel.locator("button.enact")).to_be_visible()
    screenshot(page, "demo-clock-after.png", full_page=True)
    panel.locator("button.enact").click()
    expect(page.locator(".messages")).to_contain_text("Enacted")
