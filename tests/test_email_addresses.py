"""An email address is part of an account: asked for (optional) on /join/, changed on the account page,
confirmed by a link sent to it before anything else is mailed there, and shown to no one else."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from blognomic.community.accounts.addresses import (
    ADDRESS_TAKEN,
    LINK_BROKEN,
    LINK_EXPIRED,
    LINK_USED,
    NOT_AN_ADDRESS,
    email_change_request,
)
from blognomic.community.accounts.forms import WRONG_PASSWORD
from blognomic.flows.roster.services import application_approve
from dynasties.mail import mails_send
from dynasties.models import Application, OutgoingMail, User
from dynasties.notify import notify
from tests.factories import PASSWORD, make_table

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a lantern at dusk"


@pytest.fixture
def players(t0, settings):
    settings.SITE_URL = "https://nomic.example.org"
    with time_machine.travel(t0, tick=False):
        return make_table(3, start=t0)


def logged_in(user) -> Client:
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    return client


def join(client: Client, name: str, email: str):
    return client.post(
        "/join/", {"name": name, "email": email, "password": NEW_PASSWORD, "password_again": NEW_PASSWORD}
    )


def the_link(message) -> str:
    return re.search(r"https://nomic\.example\.org(/accounts/email/confirm/[^/\s]+/)", message.body).group(1)


def last_mail():
    """Send what the outbox holds (a worker does so as soon as the request's transaction commits, which a test's
    transaction never does) and return the last mail sent."""
    mails_send(now=timezone.now())
    return mail.outbox[-1]


def test_an_applicant_gives_an_address_and_confirms_it_once_approved(players, t0, django_capture_on_commit_callbacks):
    """Nothing but the confirmation link reaches the address until it is followed."""
    assert join(Client(), "Newcomer", " new@example.org ").status_code == 302
    application = Application.objects.get()
    assert application.email == "new@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        user = application_approve(application=application, admin=players[1], now=t0)
    assert (user.email, user.email_pending) == ("", "new@example.org")
    notify(users=[user], key="k", text="A notice.", url="/", now=t0, kind="new_matter")
    assert list(OutgoingMail.objects.values_list("kind", flat=True)) == ["confirm"]
    [message] = mail.outbox  # sent at once, not at the next beat
    assert message.to == ["new@example.org"]
    link = the_link(message)
    assert "Confirm my address" in Client().get(link).content.decode()  # a GET (a scanner) confirms nothing
    assert User.objects.get(pk=user.pk).email == ""
    response = Client().post(link)
    assert response.status_code == 200 and "Your address is confirmed" in response.content.decode()
    assert (User.objects.get(pk=user.pk).email, User.objects.get(pk=user.pk).email_pending) == ("new@example.org", "")
    again = Client().post(link)
    assert again.status_code == 400 and escape(LINK_USED) in again.content.decode()


@pytest.mark.parametrize("email", ["not an address", "a@", "@example.org", "a@b@example.org", "x" * 250 + "@e.org"])
def test_joining_with_something_that_is_not_an_address_is_refused_and_nothing_is_sent(email):
    response = join(Client(), "Newcomer", email)
    assert response.status_code == 400 and escape(NOT_AN_ADDRESS) in response.content.decode()
    assert not Application.objects.exists()


def test_joining_without_an_address_still_works(players):
    assert join(Client(), "Newcomer", "").status_code == 302
    assert Application.objects.get().email == ""


def test_the_account_page_changes_the_address_with_the_password_and_keeps_the_old_until_confirmed(players):
    User.objects.filter(pk=players[0].pk).update(email="old@example.org")
    client = logged_in(players[0])
    wrong = client.post("/accounts/", {"email": "new@example.org", "password": "guess"})
    assert wrong.status_code == 400 and escape(WRONG_PASSWORD) in wrong.content.decode()
    assert not OutgoingMail.objects.exists()
    assert client.post("/accounts/", {"email": "new@example.org", "password": PASSWORD}).status_code == 302
    player = User.objects.get(pk=players[0].pk)
    assert (player.email, player.email_pending) == ("old@example.org", "new@example.org")
    page = client.get("/accounts/").content.decode()
    assert "old@example.org" in page and "new@example.org" in page
    client.post(the_link(last_mail()))
    assert User.objects.get(pk=players[0].pk).email == "new@example.org"


def test_an_address_taken_between_asking_and_confirming_is_refused_at_the_link(players, t0):
    email_change_request(user=players[0], address="shared@example.org", now=t0)
    link = the_link(last_mail())
    email_change_request(user=players[2], address="shared@example.org", now=t0)
    Client().post(the_link(last_mail()))
    response = Client().post(link)
    assert response.status_code == 400 and escape(ADDRESS_TAKEN) in response.content.decode()
    assert User.objects.get(pk=players[0].pk).email == ""


def test_a_confirmation_link_expires(players, t0, settings):
    with time_machine.travel(t0, tick=False):
        email_change_request(user=players[0], address="late@example.org", now=t0)
        link = the_link(last_mail())
    with time_machine.travel(t0 + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60), tick=False):
        response = Client().post(link)
    assert response.status_code == 400 and escape(LINK_EXPIRED) in response.content.decode()
    assert User.objects.get(pk=players[0].pk).email == ""


def test_a_newer_address_makes_the_earlier_link_useless(players, t0):
    email_change_request(user=players[0], address="first@example.org", now=t0)
    first = the_link(last_mail())
    email_change_request(user=players[0], address="second@example.org", now=t0)
    assert escape(LINK_USED) in Client().post(first).content.decode()


@pytest.mark.parametrize("token", ["nonsense", "eyJ1Ijo5OTl9:1abc:def", "\u202e" * 10, "x" * 3000])
def test_a_forged_or_mangled_confirmation_link_changes_nothing(players, token):
    response = Client().post(f"/accounts/email/confirm/{token}/")
    assert response.status_code == 400 and escape(LINK_BROKEN) in response.content.decode()


def test_nobody_else_sees_an_address(players):
    """Not on the player's page, the players' list, the API or the roster, to a visitor, a player or an admin."""
    User.objects.filter(pk=players[0].pk).update(email="secret@example.org", email_pending="next@example.org")
    pages = [f"/players/{players[0].username}/", "/players/", "/api/players", "/roster/"]
    for client in (Client(), logged_in(players[2]), logged_in(players[1])):
        for page in pages:
            response = client.get(page)
            text = response.content.decode()
            assert response.status_code in (200, 302, 403), page  # the roster is the admins'
            assert "secret@example.org" not in text and "next@example.org" not in text, page


def test_removing_the_address_stops_all_mail(players, t0):
    User.objects.filter(pk=players[0].pk).update(email="gone@example.org")
    client = logged_in(players[0])
    client.post("/accounts/email/remove/", {"password": PASSWORD})
    assert User.objects.get(pk=players[0].pk).email == ""
    notify(users=[User.objects.get(pk=players[0].pk)], key="k", text="t", url="/", now=t0, kind="new_matter")
    mails_send(now=t0)
    assert mail.outbox == []
