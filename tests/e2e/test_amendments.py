"""Amendments in a real Chromium: a player proposes by editing a rule in the post form's Ruleset editor, a
second proposal touches the same rule, the first is enacted and applied (its Ruleset revision and GNDT update
cite it), the second shows its conflict on its page and in the admin panel, the admin fails it, and the
rule's history names the first proposal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dynasties.models import Dynasty
from gndt.models import Update
from gndt.services import gndt_column_add, gndt_rows_add_missing_players
from ruleset.models import Page
from tests.factories import PASSWORD, make_table
from tests.test_wiki_services import make_ruleset
from votes.models import Post
from votes.services import comment_add

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="password"]', PASSWORD)
    page.locator('form button[type="submit"], form input[type="submit"]').first.click()


def propose_by_editing(page, base: str, title: str, old: str, new: str, *, gndt: tuple[str, str, str] | None = None):
    page.goto(base + "/new/")
    page.fill('input[name="title"]', title)
    page.fill('textarea[name="body"]', "As the amendment says.")
    page.locator("#ruleset-editor summary").click()
    editor = page.locator('textarea[name="ruleset_text"]')
    editor.fill(editor.input_value().replace(old, new))
    if gndt:
        page.locator("#gndt-editor summary").click()
        page.select_option('select[name="gndt_0_op"]', "cell_add")
        # Rows and columns are picked from the table, each column with its kind, not typed.
        expect(page.locator(f'select[name="gndt_0_column"] option[value="{gndt[1]}"]')).to_have_text(
            f"{gndt[1]} (whole number)"
        )
        page.select_option('select[name="gndt_0_row"]', gndt[0])
        page.select_option('select[name="gndt_0_column"]', gndt[1])
        page.fill('input[name="gndt_0_value"]', gndt[2])
    page.get_by_role("button", name="Preview the amendment").click()


def test_a_proposal_written_in_the_editor_is_enacted_and_a_rival_shows_its_conflict(browser, live_server, screenshot):
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=3))
    admin = players[1]
    make_ruleset(admin, now - timedelta(days=2))
    dynasty = Dynasty.objects.get()
    gndt_column_add(dynasty=dynasty, by=admin, now=now - timedelta(days=2), name="Gold", kind="integer", default="5")
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=now - timedelta(days=2))
    base = live_server.url
    page = browser.new_page(viewport={"width": 1200, "height": 900})

    log_in(page, base, "P03")
    propose_by_editing(
        page,
        base,
        "Proposal: Gentle Storms",
        "Storms sink the ships of careless Players.",
        "Storms damage the ships of careless Players.",
        gndt=("P03", "Gold", "2"),
    )
    preview = page.locator("#amendment")
    expect(preview).to_contain_text("In 2.3 Storms, replaces")
    expect(preview).to_contain_text("P03’s Gold +2")
    screenshot(page, "amendment-preview.png", full_page=True)
    # The preview keeps what was picked.
    expect(page.locator('select[name="gndt_0_row"]')).to_have_value("P03")
    screenshot(page.locator("#gndt-editor"), "amendment-gndt-editor.png")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator("h1.post-title")).to_have_text("Proposal: Gentle Storms")
    expect(page.locator("#amendment .diff-insert").first).to_contain_text("damage")

    log_in(page, base, "P04")
    propose_by_editing(
        page, base, "Proposal: No Storms", "Storms sink the ships of careless Players.", "Storms never happen."
    )
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator("h1.post-title")).to_have_text("Proposal: No Storms")

    # Thirteen hours of votes: the first may be enacted now, the second failed.
    earlier = now - timedelta(hours=13)
    for slug, minutes, icon in (("gentle-storms", 0, "for"), ("no-storms", 1, "against")):
        Post.objects.filter(slug=slug).update(posted_at=earlier + timedelta(minutes=minutes))
        for i, voter in enumerate(players):
            if voter.username != "P04":
                comment_add(
                    post=Post.objects.get(slug=slug), author=voter, icon=icon, now=earlier + timedelta(minutes=5 + i)
                )

    log_in(page, base, admin.username)
    page.goto(base + "/admin-panel/")
    page.locator("#panel-gentle-storms button.enact").click()
    expect(page.locator("li.message.success")).to_contain_text("Enacted")
    first = Post.objects.get(slug="gentle-storms")
    assert Page.objects.get(slug="ruleset").current.post == first
    assert Update.objects.filter(post=first).exists()

    rival = page.locator("#panel-no-storms")
    expect(rival.locator(".amendment-conflict")).to_contain_text(
        "changed since this was posted (Proposal: Gentle Storms, enacted"
    )
    screenshot(page, "amendment-admin-panel-conflict.png", full_page=True)
    page.goto(base + "/posts/no-storms/")
    expect(page.locator("#amendment .amendment-conflict")).to_contain_text("the passage to replace no longer occurs")
    screenshot(page, "amendment-post-conflict.png", full_page=True)

    page.goto(base + "/admin-panel/")
    page.locator('#panel-no-storms button[value="fail"]').click()
    expect(page.locator("li.message.success")).to_contain_text("Failed")

    page.goto(base + "/gndt/log/")
    expect(page.locator(".log-entry .cites").first).to_contain_text("Proposal: Gentle Storms")
    page.goto(base + "/wiki/ruleset/rule/rule-storms/history/")
    expect(page.locator(".wiki-history tbody tr").first).to_contain_text("Proposal: Gentle Storms")
    expect(page.locator(".rule-blame")).to_contain_text("Last changed by Proposal: Gentle Storms, enacted")
    screenshot(page, "amendment-rule-history.png", full_page=True)
    # The rule's blame on the Ruleset itself names the first proposal, and links it.
    page.goto(base + "/wiki/ruleset/")
    blame = page.locator("#rule-storms > .rule-blame")
    expect(blame).to_contain_text("Last changed by Proposal: Gentle Storms, enacted")
    blame.get_by_role("link", name="Proposal: Gentle Storms").click()
    expect(page.locator("h1.post-title")).to_have_text("Proposal: Gentle Storms")

    # The whole game just before the enactment: both proposals pending, the rule as it was.
    page.goto(base + "/at/")
    before = (first.resolutions.get().at - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S")
    page.fill('input[name="at"]', before)
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".game-at-banner")).to_contain_text("The game as it stood at")
    expect(page.locator(".game-at-pending")).to_contain_text("Proposal: Gentle Storms")
    expect(page.locator(".game-at-pending")).to_contain_text("Proposal: No Storms")
    page.locator(".game-at-ruleset summary").click()
    expect(page.locator(".game-at-ruleset")).to_contain_text("Storms sink the ships")
    screenshot(page, "amendment-game-at.png", full_page=True)
