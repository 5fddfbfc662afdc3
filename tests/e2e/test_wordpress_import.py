"""In Chromium: a blog imported from a WordPress export shows its matters; the admin idles many players at once."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from dynasties.models import Absence
from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_table
from tests.wordpress.test_importing import blog
from votes.models import Post

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_imported_proposal_shows_its_votes_and_tally(browser, live_server, screenshot, tmp_path):
    """Item 8: "import a small WordPress export ... open ... an imported Proposal with its votes and tally"."""
    export = tmp_path / "blog.xml"
    export.write_bytes(blog())
    call_command("import_wordpress", str(export), stdout=open(os.devnull, "w"))  # noqa: SIM115
    proposal = Post.objects.get(title="Proposal: Quorum Matters")

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(live_server.url + proposal.get_absolute_url())
    expect(page.locator("h1.post-title")).to_have_text("Proposal: Quorum Matters")
    expect(page.locator(".status")).to_have_text("Enacted")
    expect(page.locator(".admin-note")).to_contain_text("Enacted 3-0")
    for name in ("Kevan", "Bucky", "Cato"):
        expect(page.locator(".voters-for")).to_contain_text(name)
    expect(page.locator(".voters-against")).not_to_contain_text("Watcher")
    expect(page.locator(".tally-quorum")).to_be_visible()
    expect(page.locator("#comments .comment")).to_have_count(4)  # the guest's comment is not kept
    expect(page.locator("#comments .icon-for")).to_have_count(3)
    screenshot(page, "wordpress-imported-proposal.png", full_page=True)


def test_an_admin_idles_the_checked_players_after_confirming(browser, live_server, screenshot):
    """After an import, the admin idles many players at once from the roster: check, confirm, done."""
    from django.utils import timezone

    make_table(5, start=timezone.now())
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "P02", PASSWORD, "/roster/")
    for name in ("P03", "P04", "P05"):
        page.check(f"form.idle-many input[value={name}]")
    page.click("form.idle-many button")
    expect(page.locator("h1")).to_contain_text("Idle 3")
    expect(page.locator("ul.chosen li")).to_have_count(3)
    assert not Absence.objects.exists()
    screenshot(page, "roster-idle-many-confirm.png")
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/roster/")
    expect(page.locator("ul.messages")).to_contain_text("3 players are now idle")
    assert set(Absence.objects.values_list("user__username", flat=True)) == {"P03", "P04", "P05"}
