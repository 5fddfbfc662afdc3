"""Failed logins are limited per account and per address (django-axes), with a clear message."""

from __future__ import annotations

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
    return Client(REMOTE_ADDR=address).post(reverse("login"), {"username": name, "password": password},
                                            **headers)


def fail_to_limit(name: str, address: str) -> None:
    """Fail as often as the limit allows: the last failure is answered with the lock-out page."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = attempt(name, "not-the-password", address)
        assert response.status_code == 200 and LOCKED not in response.content.decode()
    assert attempt(name, "not-the-password", address).status_code == 429


def test_an_account_is_locked_after_five_failures_even_from_another_address(players):
    """Guessing one player's password from many addresses stops at the limit for that name."""
    fail_to_limit("P01", "10.0.0.1")
    for address in ("10.0.0.1", "10.0.0.2"):
        response = attempt("P01", PASSWORD, address)
        assert response.status_code == 429
        html = response.content.decode()
        assert LOCKED in html and "with this name or from this address" in html and "15 minutes" in html
        assert "_auth_user_id" not in response.client.session
    assert attempt("P02", PASSWORD, "10.0.0.2").status_code == 302  # others are not affected


def test_an_address_is_locked_after_five_failures_whatever_the_names(players):
    """Trying many names from one address stops at the limit for that address."""
    for i in range(settings.AXES_FAILURE_LIMIT):
        attempt(f"Guess {i}", "not-the-password", "10.0.0.7")
    response = attempt("P03", PASSWORD, "10.0.0.7")
    assert response.status_code == 429 and LOCKED in response.content.decode()
    assert attempt("P03", PASSWORD, "10.0.0.8").status_code == 302


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
        attempt(f"Guess {i}", "wrong", "172.18.0.2", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 203.0.113.9")
    locked = attempt("P02", PASSWORD, "172.18.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert locked.status_code == 429
    other = attempt("P02", PASSWORD, "172.18.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.4")
    assert other.status_code == 302
