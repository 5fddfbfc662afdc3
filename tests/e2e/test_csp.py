"""The Content Security Policy in a real Chromium: htmx voting and GNDT editing work under it, and nothing
on the pages breaks it (no inline script, no inline style, no inline event handler)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gndt.models import Column, Row
from tests.factories import PASSWORD, make_proposal
from tests.gndt.builders import make_gndt

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Runs before any page script, through the browser's own channel (not subject to the page's policy).
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""


def watched_page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(LISTEN)
    page = context.new_page()
    reports: list[str] = []
    page.on(
        "console", lambda message: reports.append(message.text) if "Content Security Policy" in message.text else None
    )
    page.on("pageerror", lambda error: reports.append(f"page error: {error}"))
    return page, reports


def violations(page, reports) -> list[str]:
    return list(page.evaluate("window.__cspViolations")) + reports


def log_in(page, base: str, name: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}{next_path}")


def test_voting_and_editing_the_gndt_with_htmx_under_the_policy(browser, live_server, screenshot):
    """A player votes FOR with htmx and changes a GNDT cell inline on pages served with the policy on:
    both work in place, and the browser reports no violation on any page visited."""
    now = timezone.now()
    game = make_gndt(now)
    proposal = make_proposal(game.players[1], at=now, title="Proposal: Strict Lamps")
    page, reports = watched_page(browser)

    response = page.goto(live_server.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe-inline" not in policy

    other = make_proposal(game.players[3], at=now, title="Proposal: Lax Lamps")
    log_in(page, live_server.url, "P03", proposal.get_absolute_url())
    awaiting = page.locator("#awaiting-vote")
    expect(awaiting).to_contain_text("Strict Lamps")
    page.evaluate("window.__notReloaded = true")
    page.click("button.vote-for")
    expect(page.locator(".voters-for")).to_contain_text("P03")
    assert page.evaluate("window.__notReloaded === true"), "the vote was sent by htmx, in place"
    # Found in play: "Waiting for your vote" still listed the matter just voted on, until a reload.
    expect(awaiting).not_to_contain_text("Strict Lamps")
    expect(awaiting).to_contain_text(other.title)
    for icon in ("against", "for", "deferential"):  # "2 of 4 such votes logged a CSP error"
        page.click(f"button.vote-{icon}")
        page.wait_for_timeout(300)
    assert violations(page, reports) == []
    page.goto(live_server.url + other.get_absolute_url())
    page.click("button.vote-against")
    expect(page.locator("#awaiting-vote")).to_have_count(0)

    page.goto(live_server.url + "/gndt/")
    row = Row.objects.get(dynasty=game.dynasty, name="P03")
    column = Column.objects.get(dynasty=game.dynasty, name="Money")
    page.evaluate("window.__notReloaded = true")
    cell = page.locator(f"#cell-{row.pk}-{column.pk}")
    cell.locator("a.cell-edit").click()
    cell.locator(f"#v-{row.pk}-{column.pk}").fill("123")
    cell.locator("button.save").click()
    expect(page.locator(f"#cell-{row.pk}-{column.pk}")).to_have_text("123")
    assert page.evaluate("window.__notReloaded === true")
    for path in ("/", "/wiki/ruleset/", "/gndt/log/", "/dynasties/", "/core-rules/", "/players/P03/"):
        page.goto(live_server.url + path)
        page.wait_for_timeout(100)
        assert violations(page, reports) == [], path
    screenshot(page, "csp-gndt.png", full_page=True)
    page.context.close()


@pytest.mark.one_database  # the browser's enforcement of the policy: run on one database
def test_the_policy_is_enforced_and_a_violation_would_be_seen(browser, live_server):
    """The listener is not blind: an inline event handler added to the page is blocked and reported."""
    make_gndt(timezone.now())
    page, reports = watched_page(browser)
    page.goto(live_server.url + "/")
    page.evaluate("""document.body.insertAdjacentHTML("beforeend",
        '<img src="data:," onload="window.__inlineRan = true" onerror="window.__inlineRan = true">')""")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__inlineRan === undefined"), "the inline handler must not run"
    assert any("script-src" in v for v in violations(page, reports))
    page.context.close()
