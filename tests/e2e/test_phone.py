"""The game on a phone (390×844): a compact summary in the first screen, and no page wider than the screen."""

from __future__ import annotations

import os

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blognomic.demo import DEMO_PASSWORD, build_demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page, base: str, name: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}{next_path}")


def assert_fits(page, name: str, screenshots_dir: str) -> None:
    page.screenshot(path=os.path.join(screenshots_dir, f"phone-{name}.png"), full_page=True)
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


def test_front_page_on_a_phone_starts_with_the_game_summary(phone, live_server, screenshots_dir):
    """Quorum, the Emperor and every pending matter with the viewer's own vote, before anything else."""
    summary_in_first_screen(phone)
    summary = phone.locator("#game-summary")
    expect(summary).to_contain_text("Quorum 4")
    expect(summary).to_contain_text("Harbourmaster: Wren")
    expect(summary.locator("li", has_text="Storm Warnings")).to_contain_text("you: FOR")
    expect(summary.locator("li", has_text="Logbook")).to_contain_text("not voted")
    assert_fits(phone, "front-page", screenshots_dir)


def test_a_matter_with_its_vote_buttons_fits_a_phone(phone, live_server, screenshots_dir):
    phone.goto(live_server.url + "/posts/storm-warnings/")
    summary_in_first_screen(phone)
    expect(phone.locator(".vote-buttons button.vote-for")).to_be_visible()
    expect(phone.locator(".tally-columns")).to_be_visible()
    assert_fits(phone, "matter", screenshots_dir)


def test_the_gndt_fits_a_phone(phone, live_server, screenshots_dir):
    phone.goto(live_server.url + "/gndt/")
    summary_in_first_screen(phone)
    expect(phone.locator("table").first).to_be_visible()
    assert_fits(phone, "gndt", screenshots_dir)


@pytest.mark.parametrize("view", ["", "?view=side"])
def test_a_diff_fits_a_phone(phone, live_server, screenshots_dir, view):
    from dynasties.models import User
    from ruleset.models import Page
    from ruleset.services import revision_add

    page = Page.objects.get(slug="ruleset")
    longer = "Lamplighter and Keeper of the Very Long Unbroken Wordsforeverandever"
    text = page.current.text.replace("Keeper", longer, 1)
    revision_add(page=page, author=User.objects.get(username="Ada"), text=text + "\nA new closing line.\n",
                 summary="A longer line", now=timezone.now())
    phone.goto(f"{live_server.url}/wiki/ruleset/diff/1/2/{view}")
    summary_in_first_screen(phone)
    assert_fits(phone, "diff" + view.replace("?view=", "-"), screenshots_dir)
