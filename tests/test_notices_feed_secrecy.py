"""The private notices feed does not outlive its owner's password or account: "after a password change or
deactivation the old feed address still answers, with private-message subjects in it". Setting a new
password, by any way in, gives the feed a new address; an inactive account's feed answers no one."""

from __future__ import annotations

from io import StringIO
from unittest import mock

import pytest
from django.contrib.auth.forms import AdminPasswordChangeForm, SetPasswordForm
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from dynasties.models import Notification, User
from tests.factories import PASSWORD, make_table

pytestmark = pytest.mark.django_db

NEW = "Brass lantern 1911"
SECRET_SUBJECT = "Private message from P02: where the body is buried"


@pytest.fixture
def owner(t0) -> User:
    """P04, with a private message notice and a feed address of their own."""
    players = make_table(4, start=t0)
    owner = players[3]
    Notification.objects.create(user=owner, key="pm", text=SECRET_SUBJECT, created_at=t0)
    client = Client()
    assert client.login(username=owner.username, password=PASSWORD)
    client.post(reverse("notices_feed_renew"))
    owner.refresh_from_db()
    assert feed_answers(owner.notices_feed_token)
    return owner


def feed_answers(token: str) -> bool:
    response = Client().get(reverse("notices_feed", args=[token]))
    assert response.status_code in (200, 404)
    if response.status_code == 404:
        assert SECRET_SUBJECT not in response.content.decode()
    return response.status_code == 200 and SECRET_SUBJECT in response.content.decode()


def moved_to_a_new_address(owner: User, old: str) -> None:
    owner.refresh_from_db()
    assert not feed_answers(old), "the old feed address still answers"
    assert owner.notices_feed_token and owner.notices_feed_token != old
    assert feed_answers(owner.notices_feed_token)


def test_changing_ones_password_gives_the_feed_a_new_address(owner):
    old = owner.notices_feed_token
    client = Client()
    assert client.login(username=owner.username, password=PASSWORD)
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    )
    assert response.status_code == 302
    moved_to_a_new_address(owner, old)
    page = client.get(reverse("notifications")).content.decode()
    assert f"/notices/feed/{User.objects.get(pk=owner.pk).notices_feed_token}/" in page


def test_a_refused_password_change_keeps_the_address(owner):
    old = owner.notices_feed_token
    client = Client()
    assert client.login(username=owner.username, password=PASSWORD)
    client.post(reverse("password_change"), {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW})
    owner.refresh_from_db()
    assert owner.notices_feed_token == old and feed_answers(old)


@pytest.mark.parametrize("form", [AdminPasswordChangeForm, SetPasswordForm], ids=["admin", "reset"])
def test_a_password_set_by_an_admin_or_a_reset_gives_the_feed_a_new_address(owner, form):
    old = owner.notices_feed_token
    fields = (
        {"password1": NEW, "password2": NEW}
        if form is AdminPasswordChangeForm
        else {"new_password1": NEW, "new_password2": NEW}
    )
    submitted = form(User.objects.get(pk=owner.pk), fields)
    assert submitted.is_valid(), submitted.errors
    submitted.save()
    moved_to_a_new_address(owner, old)


def test_a_password_set_with_the_changepassword_command_gives_the_feed_a_new_address(owner):
    old = owner.notices_feed_token
    with mock.patch("django.contrib.auth.management.commands.changepassword.getpass.getpass", return_value=NEW):
        call_command("changepassword", owner.username, stdout=StringIO())
    moved_to_a_new_address(owner, old)


def test_an_upgraded_password_hash_keeps_the_address(owner, settings):
    """Logging in may store the same password under a newer hash; the password has not changed, so neither
    does the address."""
    old = owner.notices_feed_token
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    assert Client().login(username=owner.username, password=PASSWORD)
    owner.refresh_from_db()
    assert owner.password.startswith("pbkdf2_")
    assert owner.notices_feed_token == old and feed_answers(old)


def test_a_password_change_does_not_give_a_feed_to_one_who_has_none(t0):
    player = make_table(2, start=t0)[1]
    player.set_password(NEW)
    player.save()
    player.refresh_from_db()
    assert player.notices_feed_token == ""


def test_a_deactivated_accounts_feed_answers_no_one(owner):
    token = owner.notices_feed_token
    User.objects.filter(pk=owner.pk).update(is_active=False)
    assert not feed_answers(token)
    User.objects.filter(pk=owner.pk).update(is_active=True)
    assert feed_answers(token)
