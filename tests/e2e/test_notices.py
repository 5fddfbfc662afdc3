"""In Chromium: "not voted yet" goes when a player votes, and a notice arrives for the player they named."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_proposal, make_table
from votes.notices import notices_send

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_voting_clears_not_voted_and_a_named_player_gets_a_notice(browser, live_server, screenshot):
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=2))
    proposal = make_proposal(players[2], at=now - timedelta(hours=2), title="Proposal: Brass Foghorns")
    notices_send(now=timezone.now())  # the new matter is announced; this notice is not the one looked for

    voter = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    log_in(voter, live_server.url, "P04", PASSWORD, proposal.get_absolute_url())
    expect(voter.locator("#awaiting-vote")).to_contain_text("Proposal: Brass Foghorns")
    expect(voter.locator(".not-voted-list")).to_contain_text("P04")
    voter.fill("#comment-text", "Yes, and P05 should look at the budget.")
    voter.click("button.vote-for")
    expect(voter.locator(".not-voted-list")).not_to_contain_text("P04")
    expect(voter.locator(".not-voted-list")).to_contain_text("Not voted yet (3)")
    screenshot(voter, "not-voted-after-vote.png", full_page=True)

    notices_send(now=timezone.now())  # what beat runs every minute
    named = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    log_in(named, live_server.url, "P05", PASSWORD, "/")
    expect(named.locator(".site-nav .badge").last).to_be_visible()
    named.goto(live_server.url + "/notices/")
    expect(named.locator(".notices")).to_contain_text("P04 named you on “Proposal: Brass Foghorns”.")
    for page in (voter, named):
        page.context.close()  # no tally box may poll the server once the test's database is gone
