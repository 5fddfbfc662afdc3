"""The mail journeys in a real Chromium ("a browser test does the reset and the confirmation in Chromium"): a
player resets a forgotten password by the mailed link and logs in with the new one; a player gives an address on
the account page and confirms it by the mailed link. Mail is caught in memory and the links are opened as a
reader would, absolute, from ``SITE_URL``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from dynasties.mail import mails_send
from dynasties.models import User
from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
NEW_PASSWORD = "a lantern at dusk"


def mailed_link(to: str, base: str, path: str) -> str:
    """The link to ``path`` in the last mail to ``to``, once the outbox has been sent."""
    mails_send(now=timezone.now())
    to_them = [message for message in mail.outbox if message.to == [to]]
    assert to_them, f"nothing was mailed to {to}"
    return re.search(rf"{re.escape(base)}{re.escape(path)}\S+/", to_them[-1].body).group(0)


@pytest.fixture
def players(settings, live_server):
    settings.SITE_URL = live_server.url
    players = make_table(3, start=timezone.now() - timedelta(days=2))
    User.objects.filter(pk=players[0].pk).update(email="p01@example.org")
    return players


def test_a_forgotten_password_is_reset_by_the_mailed_link_and_the_new_one_logs_in(
    browser, live_server, players, screenshot
):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.click("text=Forgot your password?")
    page.fill("input[name=email]", "P01@example.org")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("h1")).to_be_visible()
    link = mailed_link("p01@example.org", live_server.url, "/accounts/password/reset/")

    page.goto(link)
    expect(page.locator("h1")).to_have_text("Choose a new password")
    page.fill("input[name=new_password1]", NEW_PASSWORD)
    page.fill("input[name=new_password2]", NEW_PASSWORD)
    screenshot(page, "password-reset.png", full_page=True)
    page.click("form.stacked button[type=submit]")
    expect(page.locator("h1")).to_have_text("Password set")

    page.goto(link)  # once only
    expect(page.locator("[role=alert]")).to_contain_text("expired or has already been used")
    log_in(page, live_server.url, "P01", NEW_PASSWORD, "/accounts/")
    expect(page.locator("h1")).to_have_text("Your account")
    assert User.objects.get(pk=players[0].pk).check_password(NEW_PASSWORD)


def test_an_address_given_on_the_account_page_is_confirmed_by_the_mailed_link(
    browser, live_server, players, screenshot
):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    log_in(page, live_server.url, "P02", PASSWORD, "/accounts/")
    page.fill("input[name=email]", "p02@example.org")
    page.fill("form.stacked input[name=password] >> nth=0", PASSWORD)
    page.click("form.stacked button[type=submit] >> nth=0")
    expect(page.locator(".facts")).to_contain_text("Waiting for you to follow the link mailed to p02@example.org")
    assert User.objects.get(pk=players[1].pk).email == ""  # not before it is confirmed
    link = mailed_link("p02@example.org", live_server.url, "/accounts/email/confirm/")

    page.goto(link)
    page.click("text=Confirm my address")
    expect(page.locator("[role=status]")).to_contain_text("Your address is confirmed")
    screenshot(page, "email-confirmed.png", full_page=True)
    page.goto(live_server.url + "/accounts/")
    expect(page.locator(".facts")).to_contain_text("Confirmed: p02@example.org")
    assert User.objects.get(pk=players[1].pk).email == "p02@example.org"
