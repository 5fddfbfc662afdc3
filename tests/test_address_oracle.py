"""No address oracle: /join/ and the account page answer an address another account has confirmed exactly as a
free one, and only the address's owner is told, by a mail to it (a few an hour at most)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from blognomic.community.accounts.addresses import ADDRESS_TAKEN, TAKEN_NOTICES_PER_HOUR
from blognomic.flows.roster.services import application_approve, application_submit
from dynasties.mail import mails_send
from dynasties.models import Application, OutgoingMail, User
from tests.factories import PASSWORD, make_table

pytestmark = pytest.mark.django_db
CHOSEN = "moss under the bridge"


@pytest.fixture
def owner(t0, settings):
    settings.SITE_URL = "https://nomic.example.org"
    players = make_table(3, start=t0)
    User.objects.filter(pk=players[0].pk).update(email="heron@example.org")
    return User.objects.get(pk=players[0].pk)


def join(name: str, email: str):
    return Client().post("/join/", {"name": name, "email": email, "password": CHOSEN, "password_again": CHOSEN})


def answer_shape(response) -> tuple:
    """What a stranger can read from an answer: its status, where it leads, and the page it leads to."""
    return response.status_code, response.get("Location")


def sent() -> list:
    mails_send(now=timezone.now())
    return list(mail.outbox)


def test_joining_with_a_taken_address_is_answered_as_with_a_free_one(owner):
    taken, free = join("Stranger One", "HERON@example.org"), join("Stranger Two", "free@example.org")
    assert answer_shape(taken) == answer_shape(free) == (302, "/join/sent/")
    assert ADDRESS_TAKEN not in taken.content.decode()
    assert Application.objects.count() == 2


def test_only_the_owner_is_told_by_mail(owner):
    join("Stranger One", "heron@example.org")
    outbox = sent()
    assert [m.to for m in outbox] == [["heron@example.org"]]
    assert "Someone gave this address" in outbox[0].body
    assert "Stranger One" not in outbox[0].body


def test_approving_such_an_application_gives_the_address_to_nobody_else(owner, t0):
    join("Stranger One", "heron@example.org")
    admin = User.objects.get(username="P02")
    player = application_approve(application=Application.objects.get(), admin=admin, now=timezone.now())
    player.refresh_from_db()
    assert (player.email, player.email_pending) == ("", "")
    assert User.objects.get(pk=owner.pk).email == "heron@example.org"


def test_the_account_page_answers_a_taken_address_as_a_free_one(owner):
    client = Client()
    client.login(username="P02", password=PASSWORD)
    taken = client.post("/accounts/", {"email": "heron@example.org", "password": PASSWORD})
    taken_page = client.get("/accounts/").content.decode()
    other = Client()
    other.login(username="P03", password=PASSWORD)
    free = other.post("/accounts/", {"email": "kite@example.org", "password": PASSWORD})
    free_page = other.get("/accounts/").content.decode()
    assert answer_shape(taken) == answer_shape(free) == (302, "/accounts/")
    notice = "A link to confirm the address was mailed to it"
    assert notice in taken_page and notice in free_page
    assert ADDRESS_TAKEN not in taken_page
    outbox = sent()
    assert sorted(m.to[0] for m in outbox) == ["heron@example.org", "kite@example.org"]
    to_owner = next(m for m in outbox if m.to == ["heron@example.org"])
    assert not re.search(r"/accounts/email/confirm/", to_owner.body), "no link that would give the address away"
    assert User.objects.get(pk=owner.pk).email == "heron@example.org"


def test_the_owner_is_told_a_few_times_an_hour_at_most(owner):
    for n in range(TAKEN_NOTICES_PER_HOUR + 3):
        application_submit(
            name=f"Stranger {n}",
            password=CHOSEN,
            message="",
            ip_address=None,
            now=timezone.now(),
            email="heron@example.org",
        )
    assert OutgoingMail.objects.filter(kind="address-taken").count() == TAKEN_NOTICES_PER_HOUR
