"""In Chromium: a secret each player sees alone, the game variables beside Quorum, and a new dynasty's theme
applied on every page after its Ascension Address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dynasties.models import Dynasty
from dynasties.phases import phase_at
from gndt.models import Column, Row
from gndt.services import gndt_column_add
from gndt.services.variables import gndt_variable_add
from ruleset.models import Page
from ruleset.services import page_create
from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, vote
from tests.gndt.builders import make_gndt, update
from votes.posting import post_create
from votes.services import matter_resolve

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_role_is_seen_by_its_owner_alone(browser, live_server, screenshot):
    now = timezone.now()
    game = make_gndt(now - timedelta(days=1))
    gndt_column_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=now,
        name="Calling",
        kind=Column.CHOICE,
        choices=["Baker", "Oracle", "Lycanthrope"],
        default="Baker",
        hidden=True,
        owner_visible=True,
    )
    update(game, game.emperor, {("P03", "Calling"): "Oracle", ("P04", "Calling"): "Lycanthrope"}, now=now)
    pot = Row.objects.get(dynasty=game.dynasty, name="The Pot")
    gndt_variable_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=now,
        label="The Pot",
        row=pot,
        column=Column.objects.get(dynasty=game.dynasty, name="Money"),
    )
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=now, label="In the village", phase_rule="day-parity")
    base = live_server.url

    owner = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(owner, base, "P03", PASSWORD, "/gndt/")
    row = owner.locator("#row-" + str(Row.objects.get(dynasty=game.dynasty, name="P03").pk))
    expect(row).to_contain_text("Oracle")
    expect(owner.locator(".gndt-table")).not_to_contain_text("Lycanthrope")
    expect(owner.locator(".gndt-table thead")).to_contain_text("own only")
    expect(owner.locator("#variables")).to_contain_text(phase_at(timezone.now()))
    expect(owner.locator("#variables")).to_contain_text("The Pot")
    screenshot(owner, "gndt-own-secret.png", full_page=True)

    other = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(other, base, "P04", PASSWORD, "/gndt/")
    expect(other.locator(".gndt-table")).to_contain_text("Lycanthrope")
    expect(other.locator(".gndt-table")).not_to_contain_text("Oracle")

    visitor = browser.new_page(viewport={"width": 390, "height": 844})
    visitor.goto(base + "/gndt/")
    expect(visitor.locator(".gndt-table")).not_to_contain_text("Calling")
    expect(visitor.locator("#game-summary")).to_contain_text("In the village")
    screenshot(visitor, "phone-summary-variables.png", full_page=False)
    for page in (owner, other, visitor):
        page.close()


def test_the_theme_of_the_ascension_address_is_applied(browser, live_server, screenshot):
    now = timezone.now()
    game = make_gndt(now - timedelta(days=3))
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        text="== Dynastic Rules ==\n=== Moons ===\nMoons rise.\n",
        now=now - timedelta(days=3),
        slug="ruleset",
    )
    dov = post_create(
        author=game.player("P03"),
        kind="dov",
        title="Declaration of Victory: Moons",
        body="Won.",
        now=now - timedelta(hours=14),
    )
    for name in ("P01", "P04", "P05"):
        vote(dov, game.player(name), "for", at=now - timedelta(hours=13))
    matter_resolve(post=dov, admin=game.admin, action="enact", now=now - timedelta(hours=1))
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    log_in(page, live_server.url, "P03", PASSWORD, "/ascension/")
    page.fill("input[name=theme]", "Werewolves")
    page.fill("input[name=player_term]", "Villager")
    page.fill("input[name=emperor_term]", "Mayor")
    page.select_option("select[name=palette]", "midnight")
    page.fill("input[name=header_line]", "The moon is full over the village")
    page.fill("input[name=vote_label_for]", "Aye")
    page.fill("input[name=vote_label_against]", "Nay")
    page.click(".ascension-form button[type=submit]")
    expect(page.locator(".message.success")).to_contain_text("The new dynasty has begun")
    assert Dynasty.objects.current().palette == "midnight"

    post_create(
        author=game.player("P04"), kind="proposal", title="Proposal: Curfew", body="Stay in.", now=timezone.now()
    )
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("data-palette", "midnight")
    expect(page.locator(".header-line")).to_have_text("The moon is full over the village")
    expect(page.locator(".toteboard").first).to_contain_text("Aye 1")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(16, 23, 39)", background
    screenshot(page, "theme-after-ascension.png", full_page=True)
    assert not [error for error in errors if "Content Security Policy" in error], errors
    page.close()
