"""A forgotten password is reset by a link mailed to the confirmed address (/accounts/password/reset/): the link
works once, expires, and the page says nothing about whether an address exists. An account imported without a
usable password is claimed this way."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from blognomic.community.accounts.reset import RESETS_PER_HOUR
from dynasties.mail import mails_send
from dynasties.models import OutgoingMail, User
from tests.factories import make_table

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a lantern at dusk"


@pytest.fixture
def players(t0, settings):
    settings.SITE_URL = "https://nomic.example.org"
    players = make_table(3, start=t0)
    User.objects.filter(pk=players[0].pk).update(email="p01@example.org")
    return players


def ask(address: str):
    return Client().post("/accounts/password/reset/", {"email": address})


def reset_link() -> str:
    mails_send(now=timezone.now())
    return re.search(r"https://nomic\.example\.org(/accounts/password/reset/\S+/)", mail.outbox[-1].body).group(1)


def set_password(path: str):
    client = Client()
    form = client.get(path, follow=True)
    return client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else path,
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    ), form


def test_a_known_and_an_unknown_address_get_the_same_answer(players):
    known, unknown = ask("P01@example.org"), ask("nobody@example.org")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert list(OutgoingMail.objects.values_list("to", flat=True)) == ["p01@example.org"]


def test_the_link_sets_a_new_password_once(players):
    ask("p01@example.org")
    link = reset_link()
    assert link.startswith("/accounts/password/reset/")
    response, _ = set_password(link)
    assert response.status_code == 302
    assert User.objects.get(pk=players[0].pk).check_password(NEW_PASSWORD)
    assert OutgoingMail.objects.get(kind="reset").text.startswith("(Erased")
    again = Client().get(link, follow=True).content.decode()
    assert "expired or has already been used" in again


def test_the_link_expires(players, t0, settings):
    with time_machine.travel(t0, tick=False):
        ask("p01@example.org")
        link = reset_link()
    with time_machine.travel(t0 + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60), tick=False):
        assert "expired or has already been used" in Client().get(link, follow=True).content.decode()


def test_an_imported_account_without_a_usable_password_is_claimed_by_mail(players):
    imported = User.objects.create(username="Old Hand", email="old@example.org")
    imported.set_unusable_password()
    imported.save()
    ask("old@example.org")
    set_password(reset_link())
    assert User.objects.get(pk=imported.pk).check_password(NEW_PASSWORD)


def test_an_address_given_but_not_confirmed_gets_no_reset(players):
    User.objects.filter(pk=players[1].pk).update(email_pending="p02@example.org")
    ask("p02@example.org")
    assert not OutgoingMail.objects.exists()


def test_a_stranger_cannot_flood_a_mailbox_with_resets(players):
    for _ in range(RESETS_PER_HOUR + 3):
        ask("p01@example.org")
    assert OutgoingMail.objects.filter(kind="reset").count() == RESETS_PER_HOUR


def test_a_mail_server_that_fails_locks_no_one_out(players, monkeypatch):
    """The password is only changed by following the link; a failed send leaves the old one working."""
    from dynasties import mail as outbox
    from tests.factories import PASSWORD

    class Down:
        def send_messages(self, messages):
            raise ConnectionRefusedError(111, "Connection refused")

        def close(self):
            pass

    monkeypatch.setattr(outbox, "get_connection", lambda **kw: Down())
    ask("p01@example.org")
    mails_send(now=timezone.now())
    assert OutgoingMail.objects.get().status == OutgoingMail.PENDING
    assert User.objects.get(pk=players[0].pk).check_password(PASSWORD)


def test_the_login_page_links_the_reset(players):
    assert 'href="/accounts/password/reset/"' in Client().get("/accounts/login/").content.decode()
