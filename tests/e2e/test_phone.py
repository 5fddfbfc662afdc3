"""The game on a phone (390×844): a compact summary in the first screen, and no page wider than the screen.

Run on SQLite alone (``one_database``), as the accessibility checks are: how wide a page is does not depend
on it. The journeys that vote and enact in the browser run on both."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.moving.demo import DEMO_PASSWORD, build_demo

pytestmark = [pytest.mark.e2e, pytest.mark.one_database, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page, base: str, name: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}{next_path}")


def assert_fits(page, name: str, screenshot) -> None:
    screenshot(page, f"phone-{name}.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} is {width} px wide on a {PHONE['width']} px screen"


def summary_in_first_screen(page) -> None:
    summary = page.locator("#game-summary")
    expect(summary).to_be_visible()
    box = summary.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], f"the summary ends at {box['y'] + box['height']} px"


@pytest.fixture
def phone(browser, live_server):
    build_demo(now=timezone.now())
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, live_server.url, "Cato", "/")
    yield page
    context.close()


def test_front_page_on_a_phone_starts_with_the_game_summary(phone, live_server, screenshot):
    """Quorum, the Emperor and every pending matter with the viewer's own vote, before anything else."""
    summary_in_first_screen(phone)
    summary = phone.locator("#game-summary")
    expect(summary).to_contain_text("Quorum 4")
    expect(summary).to_contain_text("Harbourmaster: Wren")
    expect(summary.locator("li", has_text="Storm Warnings")).to_contain_text("you: FOR")
    expect(summary.locator("li", has_text="Logbook")).to_contain_text("not voted")
    assert_fits(phone, "front-page", screenshot)


def test_a_matter_with_its_vote_buttons_fits_a_phone(phone, live_server, screenshot):
    phone.goto(live_server.url + "/posts/storm-warnings/")
    summary_in_first_screen(phone)
    expect(phone.locator(".vote-buttons button.vote-for")).to_be_visible()
    expect(phone.locator(".tally-columns")).to_be_visible()
    assert_fits(phone, "matter", screenshot)


def test_the_gndt_fits_a_phone(phone, live_server, screenshot):
    phone.goto(live_server.url + "/gndt/")
    summary_in_first_screen(phone)
    expect(phone.locator("table").first).to_be_visible()
    assert_fits(phone, "gndt", screenshot)


@pytest.mark.parametrize("view", ["", "?view=side"])
def test_a_diff_fits_a_phone(phone, live_server, screenshot, view):
    from dynasties.models import User
    from ruleset.models import Page
    from ruleset.services import revision_add

    page = Page.objects.get(slug="ruleset")
    longer = "Lamplighter and Keeper of the Very Long Unbroken Wordsforeverandever"
    text = page.current.text.replace("Keeper", longer, 1)
    revision_add(
        page=page,
        author=User.objects.get(username="Ada"),
        text=text + "\nA new closing line.\n",
        summary="A longer line",
        now=timezone.now(),
    )
    phone.goto(f"{live_server.url}/wiki/ruleset/diff/1/2/{view}")
    summary_in_first_screen(phone)
    assert_fits(phone, "diff" + view.replace("?view=", "-"), screenshot)


NARROW = {"width": 375, "height": 667}


@pytest.fixture
def narrow(browser, live_server):
    build_demo(now=timezone.now())
    context = browser.new_context(viewport=NARROW)
    page = context.new_page()
    log_in(page, live_server.url, "Ada", "/")  # an admin: the longest menu
    yield page
    context.close()


def test_on_a_narrow_phone_the_menu_is_one_line_that_scrolls_sideways(narrow, live_server, screenshot):
    """At 375 px the menu stays one line above the game's summary instead of wrapping to four; the part beyond
    the screen's edge fades, and scrolling reaches the last link."""
    nav = narrow.locator(".site-nav")
    first = nav.locator("a").first.bounding_box()
    box = nav.bounding_box()
    assert box["height"] < 2 * first["height"], f"the menu is {box['height']} px high"
    expect(nav).to_have_attribute("data-more-right", "")
    summary_in_first_screen(narrow)
    assert narrow.locator("#game-summary").bounding_box()["y"] < 140
    nav.evaluate("nav => nav.scrollLeft = nav.scrollWidth")
    expect(nav.get_by_role("button", name="Log out")).to_be_in_viewport()
    expect(nav).not_to_have_attribute("data-more-right", "")
    expect(nav).to_have_attribute("data-more-left", "")
    screenshot(narrow, "phone-375-menu.png")
    assert narrow.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]


def test_on_a_narrow_phone_the_gndt_says_it_scrolls_sideways(narrow, live_server, screenshot):
    """The table is wider than a 375 px screen: a written hint says to swipe it, its region is named for
    keyboard and screen-reader users, and once scrolled to its end the edge stops fading. On a wide screen,
    where the table fits, no hint is shown."""
    narrow.goto(live_server.url + "/gndt/")
    hint = narrow.locator("#gndt-scroll-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("swipe it sideways to see every column")
    region = narrow.get_by_role("region", name="The GNDT")
    expect(region).to_have_attribute("data-more-right", "")
    screenshot(narrow, "phone-375-gndt.png")
    region.evaluate("box => box.scrollLeft = box.scrollWidth")
    expect(region).not_to_have_attribute("data-more-right", "")
    assert narrow.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    narrow.set_viewport_size({"width": 1400, "height": 900})
    expect(hint).to_be_hidden()
