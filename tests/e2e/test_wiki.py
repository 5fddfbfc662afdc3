"""A visitor reads the ruleset wiki in a real Chromium: the Ruleset, a rule reference, the history, a diff
(side by side, then inline without a reload) and an old revision, with a screenshot of each page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from ruleset.services import revision_add
from tests.factories import make_table
from tests.test_wiki_services import RULESET_TEXT, make_ruleset
from votes.posting import post_create

# Run on SQLite alone (`one_database`): the visitor reads and writes nothing; the wiki views are tested on
# both databases.
pytestmark = [pytest.mark.e2e, pytest.mark.one_database, pytest.mark.django_db(transaction=True)]


def build_wiki(now):
    """A game whose Ruleset has three revisions; the third enacts a proposal and cites "Rule 1.3"."""
    players = make_table(4, start=now - timedelta(days=3))
    admin = players[1]
    start = now - timedelta(days=2)
    page = make_ruleset(admin, start)
    second = RULESET_TEXT.replace("Storms sink the ships", "Storms wreck the ships")
    revision_add(page=page, author=admin, text=second, summary="Fix the Storms rule", now=start + timedelta(hours=5))
    proposal = post_create(
        author=players[2], kind="proposal", title="Proposal: Gold", body="Add gold.", now=start + timedelta(hours=6)
    )
    third = second.replace(
        "== Appendix ==",
        "=== Gold ===\nGold shines. A Player who finds Gold follows Rule 1.3 and Rule 2.1.\n"
        "* Gold is counted in the GNDT.\n* Gold may not be traded.\n== Appendix ==",
    )
    revision_add(
        page=page,
        author=admin,
        text=third,
        summary="Enacting Proposal: Gold",
        now=start + timedelta(hours=20),
        post=proposal,
    )
    return page


def test_a_visitor_reads_the_ruleset_its_history_a_diff_and_an_old_revision(browser, live_server, screenshot):
    """Not logged in: the Ruleset, a "Rule 1.3" link, the history, a diff both ways and revision 1."""
    build_wiki(timezone.now())
    page = browser.new_page(viewport={"width": 1200, "height": 900})

    page.goto(live_server.url + "/wiki/ruleset/")
    expect(page.locator("h1")).to_contain_text("Ruleset")
    expect(page.locator(".ruleset-toc")).to_contain_text("Dynasties")
    expect(page.locator("#rule-gold h3")).to_contain_text("2.4 Gold")
    expect(page.locator(".wiki-tabs")).not_to_contain_text("Edit")
    screenshot(page, "wiki-ruleset.png", full_page=True)

    page.locator("#rule-gold a.rule-ref", has_text="1.3").click()
    expect(page).to_have_url(re.compile(r"/wiki/ruleset/#rule-dynasties$"))
    expect(page.locator("#rule-dynasties")).to_be_in_viewport()
    screenshot(page, "wiki-rule-link.png")

    page.locator(".wiki-tabs a", has_text="History").click()
    expect(page.locator(".wiki-history tbody tr")).to_have_count(3)
    expect(page.locator("#r3")).to_contain_text("Enacting Proposal: Gold")
    expect(page.locator("#r1 .wiki-size-change")).to_have_text(re.compile(r"\(\+[\d,]+\)"))
    screenshot(page, "wiki-history.png", full_page=True)

    page.locator('#r1 input[name="old"]').check()
    page.locator('#r3 input[name="new"]').check()
    page.locator('input[name="view"][value="side"]').check()
    page.get_by_role("button", name="Compare selected revisions").click()
    expect(page).to_have_url(re.compile(r"/wiki/ruleset/diff/1/3/\?view=side$"))
    expect(page.locator("table.diff-side-by-side")).to_be_visible()
    expect(page.locator("table.diff-side-by-side ins").first).to_be_visible()
    screenshot(page, "wiki-diff-side-by-side.png", full_page=True)

    page.evaluate("window.__notReloaded = true")
    page.locator(".diff-views a", has_text="Inline").click()
    expect(page.locator(".diff-inline")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/wiki/ruleset/diff/1/3/\?view=inline$"))
    assert page.evaluate("window.__notReloaded === true"), "htmx swapped the diff in place"
    screenshot(page, "wiki-diff-inline.png", full_page=True)

    page.locator(".diff-head-old h3 a").click()
    expect(page.locator(".wiki-revision-heading")).to_contain_text("Revision as of")
    expect(page.locator(".wiki-revision-heading")).to_contain_text("P02")
    expect(page.locator(".wiki-old-note")).to_contain_text("revision 1 of 3")
    expect(page.locator("#rule-gold")).to_have_count(0)
    screenshot(page, "wiki-old-revision.png", full_page=True)
    page.locator("a.newer").click()
    expect(page).to_have_url(re.compile(r"/wiki/ruleset/r/2/$"))

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(live_server.url + "/wiki/ruleset/diff/1/3/?view=side")
    expect(phone.locator("table.diff-side-by-side")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "the diff fits a phone"
    screenshot(phone, "wiki-diff-phone.png", full_page=True)
    phone.goto(live_server.url + "/wiki/ruleset/history/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "the history fits a phone"
    page.close()
    phone.close()
