"""A player's program, from the browser to the API and back: P04 makes a vote-scoped token on the account page,
a script votes with it while P03 watches the matter's page (the tally changes there within ten seconds, without
a reload), and once P04 revokes the token in the browser the script's next request is refused."""

from __future__ import annotations

import re
from datetime import timedelta

import httpx
import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_gndt import log_in
from tests.factories import make_proposal, make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SECRET = re.compile(r"bn_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}")


def test_a_token_made_in_the_browser_votes_on_a_watched_matter_until_revoked(browser, live_server, screenshot):
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=2))
    post = make_proposal(players[2], at=now - timedelta(hours=1), title="Proposal: Brass for the Lantern")
    base = live_server.url

    owner = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    log_in(owner, base, "P04", "/accounts/tokens/")
    owner.fill("input[name=name]", "Vote script")
    owner.check("input[name=scopes][value=vote]")
    owner.select_option("select[name=days]", "7")
    owner.click("form.stacked button[type=submit]")
    secret = SECRET.search(owner.locator("#new-token").inner_text()).group(0)
    screenshot(owner, "token-made.png", full_page=True)

    watcher = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    watcher.goto(f"{base}{post.get_absolute_url()}")
    watcher.evaluate("window.sameDocument = true")
    tally = watcher.locator(f"#tally-{post.slug}")
    expect(tally.locator(".voters-against")).not_to_contain_text("P04")

    script = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"}, timeout=30)
    voted = script.post(
        f"/api/posts/{post.slug}/votes",
        json={"icon": "against", "text": "Brass tarnishes."},
        headers={"Idempotency-Key": "lantern-against"},
    )
    assert voted.status_code == 201, voted.text

    expect(tally.locator(".voters-against")).to_contain_text("P04", timeout=10_000)
    expect(watcher.locator("#live-status")).to_have_text(re.compile(r"^Tally now \d+ FOR, 1 AGAINST\.$"))
    expect(watcher.locator("#comments")).to_contain_text("Brass tarnishes.")
    assert watcher.evaluate("window.sameDocument") is True
    screenshot(watcher, "vote-from-a-script.png")

    owner.goto(f"{base}/accounts/tokens/")
    expect(owner.locator("table.tokens")).to_contain_text("Vote script")
    expect(owner.locator("table.tokens")).not_to_contain_text("never")  # its last use is shown
    owner.get_by_role("button", name="Revoke Vote script").click()
    expect(owner.locator("table.tokens")).to_contain_text("revoked")
    refused = script.post(f"/api/posts/{post.slug}/votes", json={"icon": "for"})
    assert refused.status_code == 401 and "revoked" in refused.json()["detail"]
    script.close()
