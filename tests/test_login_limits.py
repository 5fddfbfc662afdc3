"""Failed logins are limited per name from one address, and per address whatever the names (django-axes),
with a clear message that never says whether the name belongs to an account."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import PASSWORD, make_table

pytestmark = pytest.mark.django_db

LOCKED = "Too many attempts to log in"


@pytest.fixture
def players():
    return make_table(3, start=timezone.now())


def attempt(name: str, password: str, address: str, **headers):
    return Client(REMOTE_ADDR=address).post(reverse("login"), {"username": name, "password": password}, **headers)


def fail_to_limit(name: str, address: str):
    """Fail as often as the limit allows: the last failure is answered with the lock-out page."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = attempt(name, "not-the-password", address)
        assert response.status_code == 200 and LOCKED not in response.content.decode()
    last = attempt(name, "not-the-password", address)
    assert last.status_code == 429
    return last


def spray(address: str, failures: int) -> None:
    """Fail ``failures`` times from one address, never more than four times with one name."""
    for i in range(failures):
        attempt(f"Guess {i // (settings.AXES_FAILURE_LIMIT - 1)}", "not-the-password", address)


def test_five_failures_lock_that_name_from_that_address_only(players):
    """ "Anyone can lock a player out. Five wrong passwords from one address lock the account from every
    address for 15 minutes" — no more: the name is locked from the address that failed, and the real
    player logging in from another address gets in."""
    fail_to_limit("P01", "10.0.0.1")
    locked = attempt("P01", PASSWORD, "10.0.0.1")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert LOCKED in html and "15 minutes" in html
    assert "_auth_user_id" not in locked.client.session

    elsewhere = attempt("P01", PASSWORD, "10.0.0.2")
    assert elsewhere.status_code == 302 and "_auth_user_id" in elsewhere.client.session
    assert attempt("P02", PASSWORD, "10.0.0.1").status_code == 302  # other names from the address too


def without_tokens(html: str) -> str:
    """The page without its CSRF tokens and nonces, which differ on every response."""
    return re.sub(r'(value|nonce|content)="[^"]*"|"X-CSRFToken": "[^"]*"', "", html)


def test_the_lock_out_page_does_not_say_whether_the_account_exists(players):
    """Locking out a player's name and a name nobody has gives the same answer, word for word."""
    with time_machine.travel(timezone.now(), tick=False):
        real = fail_to_limit("P01", "10.0.0.1")
        made_up = fail_to_limit("Nobody Here", "10.0.0.3")
        assert without_tokens(real.content.decode()) == without_tokens(made_up.content.decode())
        real, made_up = attempt("P01", PASSWORD, "10.0.0.1"), attempt("Nobody Here", PASSWORD, "10.0.0.3")
    assert (real.status_code, without_tokens(real.content.decode())) == (
        made_up.status_code,
        without_tokens(made_up.content.decode()),
    )


def test_an_address_trying_many_names_is_locked_at_its_own_higher_limit(players):
    """One address may not spray many accounts: failures with any names from it count together, up to
    LOGIN_ADDRESS_FAILURE_LIMIT; other addresses are not affected."""
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT > settings.AXES_FAILURE_LIMIT
    spray("10.0.0.7", settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1)
    assert attempt("P03", PASSWORD, "10.0.0.7").status_code == 302  # one short of the limit

    spray("10.0.0.8", settings.LOGIN_ADDRESS_FAILURE_LIMIT)
    response = attempt("P03", PASSWORD, "10.0.0.8")
    assert response.status_code == 429 and LOCKED in response.content.decode()
    assert attempt("P03", PASSWORD, "10.0.0.9").status_code == 302


def test_logging_in_does_not_clear_the_failures_of_other_names_from_the_address(players):
    """A player who has an account of their own cannot reset the address's count between guesses."""
    spray("10.0.0.7", settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1)
    assert attempt("P02", PASSWORD, "10.0.0.7").status_code == 302
    attempt("Another Guess", "not-the-password", "10.0.0.7")
    assert attempt("P02", PASSWORD, "10.0.0.7").status_code == 429


def test_the_lock_lifts_after_the_cool_off(players):
    fail_to_limit("P01", "10.0.0.1")
    with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME + timedelta(minutes=1)):
        assert attempt("P01", PASSWORD, "10.0.0.1").status_code == 302


def test_a_successful_login_clears_the_count(players):
    """A player who mistypes a few times and then logs in starts again from zero."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt("P01", "typo", "10.0.0.1")
    assert attempt("P01", PASSWORD, "10.0.0.1").status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt("P01", "typo", "10.0.0.1")
    assert attempt("P01", PASSWORD, "10.0.0.1").status_code == 302


def test_behind_the_proxy_the_address_is_the_one_the_proxy_appended(players, settings):
    """Behind the proxy every request comes from its address; the client is the last X-Forwarded-For entry,
    and entries a client adds in front of it change nothing."""
    settings.CLIENT_ADDRESS_FROM_PROXY = True
    for i in range(settings.AXES_FAILURE_LIMIT):
        attempt("P02", "wrong", "172.18.0.2", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 203.0.113.9")
    locked = attempt("P02", PASSWORD, "172.18.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert locked.status_code == 429
    other = attempt("P02", PASSWORD, "172.18.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.4")
    assert other.status_code == 302
