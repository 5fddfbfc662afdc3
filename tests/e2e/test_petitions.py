"""A 2005 Petition in a real Chromium: a Family petitions from the post form, the Duke answers, an admin
resolves it after 48 hours and the GNDT is untouched by the Proposals' rewards."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD
from tests.kinds_builders import duchy
from votes.posting import post_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_petition_the_duke_answers(browser, live_server, screenshot):
    """2005: "only the Duke may vote on it"; "After 48 hours a Petition is considered resolved … If the Duke has
    voted FOR the Petition then it is considered approved"."""
    now = timezone.now()
    players, _ = duchy(now - timedelta(hours=60))
    petitioner, duke, admin = players[3], players[0], players[1]
    old = post_create(
        author=petitioner,
        kind="matter",
        title="Petition: Accuse P05",
        body="P05 broke the Law.",
        now=now - timedelta(hours=49),
    )

    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(3)]
    family, duke_page, admin_page = (context.new_page() for context in contexts)

    log_in(family, live_server.url, petitioner.username, PASSWORD, "/new/")
    family.select_option("select[name=kind]", "matter")
    family.fill("input[name=title]", "Petition: Marriage of Ada")
    family.fill("textarea[name=body]", "May Ada marry into our house?")
    family.click("p.form-buttons button[type=submit]:not(.secondary)")
    expect(family.locator(".tally-kind")).to_have_text("Petition")
    expect(family.locator(".tally-electorate")).to_have_text("P01")
    expect(family.locator("button.vote-for")).to_have_count(0)
    screenshot(family, "petition-posted.png", full_page=True)

    log_in(duke_page, live_server.url, duke.username, PASSWORD, old.get_absolute_url())
    expect(duke_page.locator("button.vote-veto")).to_have_count(0)
    duke_page.fill("#comment-text", "The accusation stands: Insolence.")
    duke_page.click("button.vote-for")
    expect(duke_page.locator(".tally-columns th").first).to_have_text("For (1)")
    expect(duke_page.locator(".can-enact")).to_have_text("Can be enacted now.")
    screenshot(duke_page, "petition-answered.png", full_page=True)

    log_in(admin_page, live_server.url, admin.username, PASSWORD, "/admin-panel/")
    block = admin_page.locator("#panel-accuse-p05")
    expect(block.locator(".matter-kind")).to_have_text("Petition")
    block.locator("button.enact").click()
    expect(admin_page.locator(".messages .message.success")).to_contain_text("Enacted")
    admin_page.goto(live_server.url + old.get_absolute_url())
    expect(admin_page.locator(".admin-note")).to_contain_text("Enacted (approved) 1-0 (Quorum 1) by P02")
    screenshot(admin_page, "petition-approved.png", full_page=True)
    for context in contexts:
        context.close()
