"""A player changes their own password: this session stays logged in, every other one is logged out, and a
refused change (wrong current password, a weak or mistyped new one) changes nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.django_db

NEW = "Brass lantern 1911"


@pytest.fixture
def keeper(t0):
    return make_player("Wren", joined_at=t0)


def logged_in(name: str, password: str = PASSWORD) -> Client:
    client = Client()
    assert client.login(username=name, password=password)
    return client


def can_log_in(name: str, password: str) -> bool:
    return Client().login(username=name, password=password)


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def change(client: Client, old: str, new1: str, new2: str | None = None):
    return client.post(
        reverse("password_change"),
        {"old_password": old, "new_password1": new1, "new_password2": new1 if new2 is None else new2},
    )


def test_a_player_finds_the_change_on_their_own_page_only(keeper, t0):
    other = make_player("Ada", joined_at=t0)
    client = logged_in(keeper.username)
    assert reverse("password_change") in client.get(keeper.get_absolute_url()).content.decode()
    assert reverse("password_change") not in client.get(other.get_absolute_url()).content.decode()


def test_a_change_keeps_this_session_and_logs_out_every_other(keeper):
    here, elsewhere = logged_in(keeper.username), logged_in(keeper.username)
    assert "Wren Log out" in text_of(elsewhere.get("/"))
    response = change(here, PASSWORD, NEW)
    assert response.status_code == 302 and response.url == reverse("password_change_done")
    assert "Password changed" in text_of(here.get(response.url))
    assert "Wren Log out" in text_of(here.get("/"))
    assert "Wren Log out" not in text_of(elsewhere.get("/"))
    assert can_log_in(keeper.username, NEW) and not can_log_in(keeper.username, PASSWORD)


@pytest.mark.parametrize(
    ("old", "new1", "new2", "message"),
    [
        ("not-my-password", NEW, NEW, "Your old password was entered incorrectly"),
        (PASSWORD, NEW, "Brass lantern 1912", "The two password fields didn’t match"),
        (PASSWORD, "48151623", "48151623", "This password is entirely numeric"),
        (PASSWORD, "lamp", "lamp", "This password is too short"),
        (PASSWORD, "password", "password", "This password is too common"),
        (PASSWORD, "wren\x00lamp light", "wren\x00lamp light", ""),
        (PASSWORD, "9" * 5000, "9" * 5000, "This password is entirely numeric"),
    ],
)
def test_a_refused_change_says_why_and_changes_nothing(keeper, old, new1, new2, message):
    client = logged_in(keeper.username)
    response = change(client, old, new1, new2)
    assert response.status_code in (200, 400), response.status_code
    assert message in text_of(response)
    assert can_log_in(keeper.username, PASSWORD)
    assert "Wren Log out" in text_of(client.get("/"))


def test_a_visitor_is_sent_to_log_in(keeper):
    response = Client().get(reverse("password_change"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
