"""A whole dynasty change in Chromium: a DoV puts the game in hiatus, it is enacted, the winner ascends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dynasties.models import Dynasty
from gndt.models import Column
from ruleset.models import Page
from ruleset.services import page_create
from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULESET = """== Core Rules ==
=== Players ===
Every Player may vote. The Emperor may veto.
== Dynastic Rules ==
=== Gold ===
Each Player has some Gold.
=== Maps ===
Players may buy Maps.
== Appendix ==
=== Keywords ===
Quorum: half the Players, plus one.
"""


def test_declaration_enactment_and_ascension_rename_the_players(browser, live_server, screenshot):
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=3), admins=(1,))
    page_create(title="Ruleset", kind=Page.RULESET, text=RULESET, now=now - timedelta(days=3), slug="ruleset")
    Column.objects.create(dynasty=Dynasty.objects.current(), name="Gold", kind="integer", default="5")
    winner, admin = players[2], players[1]
    pages = {
        name: browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        for name in ("winner", "p4", "p5", "admin")
    }
    base = live_server.url

    log_in(pages["winner"], base, winner.username, PASSWORD, "/new/")
    page = pages["winner"]
    page.select_option("select[name=kind]", "dov")
    page.fill("input[name=title]", "Declaration of Victory: All The Gold")
    page.fill("textarea[name=body]", "I hold every coin in the GNDT.")
    page.click("form.stacked button[type=submit]")
    expect(page.locator(".hiatus-banner")).to_contain_text("A declaration of victory is pending")
    dov_url = page.url.replace(base, "")

    for name, player in (("p4", players[3]), ("p5", players[4])):
        log_in(pages[name], base, player.username, PASSWORD, dov_url)
        pages[name].click("button.vote-for")
        expect(pages[name].locator(".voters-for")).to_contain_text(player.username)

    # Declarations are resolvable after 12 hours: age the post instead of waiting.
    from votes.models import Post

    Post.objects.filter(kind="dov").update(posted_at=now - timedelta(hours=13))
    log_in(pages["admin"], base, admin.username, PASSWORD, "/admin-panel/")
    pages["admin"].locator("button.enact").click()
    expect(pages["admin"].locator(".messages .message.success")).to_contain_text("Enacted")
    expect(pages["admin"].locator(".hiatus-banner")).to_contain_text("awaits its ascension address")

    page.goto(base + "/")
    page.click(".hiatus-banner a")
    page.fill("input[name=theme]", "Treasure hunters")
    page.fill("input[name=player_term]", "Hunter")
    page.fill("input[name=emperor_term]", "Pirate")
    page.check("input[name=keep_rules][value=rule-gold]")
    page.fill("textarea[name=body]", "Welcome aboard, Hunters.")
    screenshot(page, "ascension-form.png", full_page=True)
    page.click(".ascension-form button[type=submit]")
    expect(page.locator(".message.success")).to_contain_text("The new dynasty has begun")
    expect(page.locator(".hiatus-banner")).to_have_count(0)
    expect(page.locator(".quorum-line")).to_have_text("There are 5 active hunters. Quorum is 3.")
    expect(page.locator("#roster h2")).to_have_text("Hunters")
    expect(page.locator("#dynasty")).to_contain_text("Pirate")

    page.goto(base + "/wiki/ruleset/")
    body = page.locator(".ruleset")
    expect(body).to_contain_text("Every Hunter may vote. The Pirate may veto.")
    expect(body).to_contain_text("Each Hunter has some Gold.")
    expect(body).not_to_contain_text("Maps")
    screenshot(page, "ruleset-after-ascension.png", full_page=True)
    assert Page.objects.filter(title="Ruleset 1").exists()
