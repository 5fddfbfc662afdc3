"""Every ``next`` the site reads goes through one helper: a path on this site, or the view's own fallback.

The finding: "500 after a write: ``POST /gndt/updates/<pk>/undo/`` with ``next=1`` (or ``on``, ``yes``) applies
the undo, then fails redirecting to "1". One safe-redirect helper for every ``next`` in the site."
"""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from dynasties.models import Absence
from dynasties.redirects import MAX_NEXT_LENGTH, local_path
from gndt.models import Update
from tests.factories import PASSWORD, T0
from tests.gndt.builders import make_gndt, update, value

pytestmark = pytest.mark.django_db

# A NUL byte anywhere in a request is refused by the site's middleware with a 400 before any view runs.
NUL = "\x00"
HOSTILE = [
    "1",
    "on",
    "yes",
    "gndt_log",
    "//evil.example",
    "///evil.example",
    "https://evil.example/",
    "http://testserver.evil.example/",
    "javascript:alert(1)",
    "\\\\evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/gndt/\x00",
    "/gndt/\r\nSet-Cookie: a=b",
    "\x00",
    " //evil.example",
    "/" + "a" * (MAX_NEXT_LENGTH + 1),
    "ftp://evil.example/",
    "data:text/html,hi",
    "  ",
]


def assert_local(response, fallback: str | None = None, *, hostile: str = "") -> str | None:
    """A redirect to a path on this site, never a 500 and never another host (or, for a NUL, a 400)."""
    if NUL in hostile:
        assert response.status_code == 400, response.content.decode()[:1000]
        return None
    assert response.status_code == 302, response.content.decode()[:1000]
    location = response["Location"]
    parts = urlsplit(location)
    assert location.startswith("/") and not location.startswith("//") and "\\" not in location, location
    assert not parts.scheme and not parts.netloc, location
    if fallback is not None:
        assert location == fallback
    return location


# --- The helper ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hostile", HOSTILE)
def test_only_a_path_on_this_site_is_a_place_to_go_back_to(hostile):
    """ "1" names no page, "//evil.example" and "\\\\evil" are other hosts to a browser, NUL and line breaks
    cannot be sent in a header: none of them is a place to send anyone."""
    assert local_path(hostile, host="testserver") is None


@pytest.mark.parametrize("good", ["/", "/gndt/log/", "/gndt/log/?by=P03&page=2", "/players/Åsa/", "/wiki/a#b", "/%0a"])
def test_a_path_on_this_site_is_kept_as_it_is(good):
    assert local_path(good, host="testserver") == good


def test_an_address_that_is_not_text_is_no_place():
    assert local_path(None, host="testserver") is None


# --- Every view that reads next --------------------------------------------------------------------------


@pytest.fixture
def game(db):
    return make_gndt(T0)


@pytest.fixture
def now(t0):
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        yield t0 + timedelta(hours=1)


def logged_in(name: str) -> Client:
    client = Client(raise_request_exception=False)
    assert client.login(username=name, password=PASSWORD)
    return client


@pytest.mark.parametrize("hostile", HOSTILE)
def test_undo_with_a_hostile_next_is_applied_and_goes_back_to_the_log(game, now, hostile):
    """The finding's own case: the undo is applied, and the answer is the log, not a 500 after the write."""
    original = update(game, game.player("P03"), {("P03", "Money"): "999"}, now=now)
    response = logged_in("P04").post(reverse("gndt_undo", args=[original.pk]), {"next": hostile})
    if assert_local(response, fallback=reverse("gndt_log"), hostile=hostile) is None:
        assert not Update.objects.filter(undoes=original).exists()
        return
    assert value(game, "P03", "Money") == "300"
    assert Update.objects.filter(undoes=original).exists()


@pytest.mark.parametrize("hostile", HOSTILE)
def test_undo_by_a_visitor_with_a_hostile_next_asks_to_log_in_and_come_back_to_the_log(game, now, hostile):
    original = update(game, game.player("P03"), {("P03", "Money"): "999"}, now=now)
    response = Client(raise_request_exception=False).post(reverse("gndt_undo", args=[original.pk]), {"next": hostile})
    to_log_in = f"{reverse('login')}?next={reverse('gndt_log').replace('/', '%2F')}"
    assert_local(response, fallback=to_log_in, hostile=hostile)


def test_undo_goes_back_to_the_page_it_came_from(game, now):
    original = update(game, game.player("P03"), {("P03", "Money"): "999"}, now=now)
    back = reverse("gndt_log") + "?by=P03&page=1"
    response = logged_in("P04").post(reverse("gndt_undo", args=[original.pk]), {"next": back})
    assert_local(response, fallback=back)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_idling_and_unidling_with_a_hostile_next_go_to_the_players_page(game, now, hostile):
    admin = logged_in("P02")
    idled = assert_local(
        admin.post(reverse("idle", args=["P04"]), {"next": hostile}), fallback="/players/P04/", hostile=hostile
    )
    assert Absence.objects.filter(user__username="P04", ended_at__isnull=True).exists() == (idled is not None)
    assert_local(
        admin.post(reverse("unidle", args=["P04"]), {"next": hostile}), fallback="/players/P04/", hostile=hostile
    )


@pytest.mark.parametrize("hostile", HOSTILE)
def test_logging_in_with_a_hostile_next_goes_to_the_front_page(game, hostile):
    client = Client(raise_request_exception=False)
    page = client.get(reverse("login"), {"next": hostile})
    if NUL not in hostile:
        assert page.status_code == 200 and 'name="next" value=""' in page.content.decode()
    response = client.post(reverse("login"), {"username": "P03", "password": PASSWORD, "next": hostile})
    assert_local(response, fallback=reverse("front_page"), hostile=hostile)


def test_logging_in_goes_back_to_the_page_that_asked(game):
    client = Client()
    response = client.post(reverse("login") + "?next=/gndt/log/", {"username": "P03", "password": PASSWORD})
    assert_local(response, fallback="/gndt/log/")


@pytest.mark.parametrize("hostile", HOSTILE)
def test_logging_out_with_a_hostile_next_goes_to_the_front_page(game, hostile):
    response = logged_in("P03").post(reverse("logout"), {"next": hostile})
    assert_local(response, fallback=reverse("front_page"), hostile=hostile)
