"""Mail that arrives: written to an outbox where the reason arose, sent by a job with retries and back-off, a
permanent failure kept where admins see it, every link absolute, plain text and HTML, a Message-ID under the
site's domain, Auto-Submitted, and a one-click unsubscribe (RFC 8058) in the headers and the body."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils.html import escape

from dynasties import mail as outbox
from dynasties.mail import ERASED, GIVE_UP_AFTER, mail_queue, mails_send, retry_delay
from dynasties.models import NoticePreferences, OutgoingMail
from dynasties.notify import notify, preferences_of
from dynasties.unsubscribe import unsubscribe_token
from dynasties.views import UNSUBSCRIBE_UNKNOWN
from tests.factories import PASSWORD, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0, settings):
    settings.SITE_URL = "https://nomic.example.org"
    players = make_table(3, start=t0)
    for player in players:
        player.email = f"{player.username.lower()}@example.org"
        player.save()
    return players


class Refusing:
    """A mail connection whose server answers every send with ``error``."""

    def __init__(self, error: Exception):
        self.error, self.tries = error, 0

    def send_messages(self, messages):
        self.tries += 1
        raise self.error

    def close(self):
        pass


def test_a_notice_waits_in_the_outbox_and_is_sent_by_the_job_whole(players, t0):
    """The mail has plain text and HTML, an absolute link, a Message-ID under the site's domain,
    Auto-Submitted: auto-generated, List-Unsubscribe with List-Unsubscribe-Post, and an unsubscribe line."""
    notify(users=[players[0]], key="k", text="New: “Proposal: Lamps”.", url="/posts/lamps/", now=t0, kind="new_matter")
    assert mail.outbox == [] and OutgoingMail.objects.get().status == OutgoingMail.PENDING
    mails_send(now=t0)
    [message] = mail.outbox
    assert message.to == [players[0].email]
    assert "https://nomic.example.org/posts/lamps/" in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and 'href="https://nomic.example.org/posts/lamps/"' in html
    assert message.extra_headers["Message-ID"].endswith("@nomic.example.org>")
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link.startswith("https://nomic.example.org/notices/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "To stop these mails (a new proposal" in message.body and link in message.body
    assert OutgoingMail.objects.get().status == OutgoingMail.SENT
    mails_send(now=t0 + timedelta(minutes=1))
    assert len(mail.outbox) == 1  # sent once


def test_a_message_request_never_waits_for_the_mail_server(players, t0, monkeypatch):
    """A private message tells its reader by mail, but the request only writes to the outbox."""
    monkeypatch.setattr(outbox, "get_connection", lambda **kw: pytest.fail("the request sent mail"))
    client = Client()
    client.login(username=players[1].username, password=PASSWORD)
    response = client.post("/messages/new/", {"to": players[0].username, "subject": "Lamps", "body": "Hello."})
    assert response.status_code == 302
    assert OutgoingMail.objects.filter(user=players[0], kind="message").count() == 1


@pytest.mark.parametrize(
    "error",
    [
        smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
        ConnectionRefusedError(111, "Connection refused"),
        TimeoutError("timed out"),
        smtplib.SMTPRecipientsRefused({"p01@example.org": (450, b"Mailbox busy")}),
        smtplib.SMTPDataError(421, b"Try again later"),
    ],
)
def test_a_temporary_failure_is_retried_with_back_off_and_no_notice_is_lost(players, t0, monkeypatch, error):
    mail_queue(user=players[0], to=players[0].email, kind="new_matter", subject="s", text="t", now=t0)
    monkeypatch.setattr(outbox, "get_connection", lambda **kw: Refusing(error))
    mails_send(now=t0)
    queued = OutgoingMail.objects.get()
    assert (queued.status, queued.attempts) == (OutgoingMail.PENDING, 1)
    assert queued.next_attempt_at == t0 + retry_delay(1) and queued.last_error
    assert mails_send(now=t0 + timedelta(seconds=30)).done == []  # not yet due
    monkeypatch.undo()
    mails_send(now=t0 + retry_delay(1))
    assert len(mail.outbox) == 1 and OutgoingMail.objects.get().status == OutgoingMail.SENT


def test_waits_grow_to_an_hour_at_most():
    assert [retry_delay(n).total_seconds() / 60 for n in (1, 2, 3, 7, 8, 30)] == [1, 2, 4, 60, 60, 60]


def test_an_unreachable_server_costs_one_try_a_run_not_one_a_mail(players, t0, monkeypatch):
    for player in players:
        mail_queue(user=player, to=player.email, kind="new_matter", subject="s", text="t", now=t0)
    refusing = Refusing(ConnectionRefusedError(111, "Connection refused"))
    monkeypatch.setattr(outbox, "get_connection", lambda **kw: refusing)
    mails_send(now=t0)
    assert refusing.tries == 1
    assert OutgoingMail.objects.filter(status=OutgoingMail.PENDING).count() == 3


def test_a_permanent_refusal_is_recorded_for_the_admins_without_the_address(players, t0, monkeypatch):
    """Who, what, when and why, on the admins' page; the address itself is shown to no one."""
    mail_queue(user=players[2], to=players[2].email, kind="new_matter", subject="New: Lamps", text="t", now=t0)
    monkeypatch.setattr(
        outbox,
        "get_connection",
        lambda **kw: Refusing(smtplib.SMTPRecipientsRefused({players[2].email: (550, b"5.1.1 No such user")})),
    )
    mails_send(now=t0)
    failed = OutgoingMail.objects.get()
    assert failed.status == OutgoingMail.FAILED and "550 5.1.1 No such user" in failed.last_error
    admin = Client()
    admin.login(username=players[1].username, password=PASSWORD)  # make_table's admin
    page = admin.get("/notices/mail/").content.decode()
    assert players[2].username in page and "New: Lamps" in page and "No such user" in page
    assert players[2].email not in page
    player = Client()
    player.login(username=players[0].username, password=PASSWORD)
    assert player.get("/notices/mail/").status_code == 403


def test_after_three_days_of_temporary_failures_a_mail_is_given_up_and_recorded(players, t0, monkeypatch):
    mail_queue(user=players[0], to=players[0].email, kind="new_matter", subject="s", text="t", now=t0)
    monkeypatch.setattr(outbox, "get_connection", lambda **kw: Refusing(TimeoutError("timed out")))
    mails_send(now=t0 + GIVE_UP_AFTER)
    assert OutgoingMail.objects.get().status == OutgoingMail.FAILED


def test_a_mail_holding_a_secret_link_is_erased_once_sent(players, t0):
    mail_queue(
        user=players[0],
        to=players[0].email,
        kind="reset",
        subject="s",
        text="https://x/reset/abc/",
        now=t0,
        secret=True,
    )
    mails_send(now=t0)
    assert "reset/abc" in mail.outbox[0].body
    assert OutgoingMail.objects.get().text == ERASED


def test_one_click_unsubscribe_turns_that_kind_off_without_logging_in(players, t0):
    """RFC 8058: a POST to the List-Unsubscribe link, with no cookie and no CSRF token, turns it off; a GET (a
    link scanner) changes nothing; every other preference stays."""
    NoticePreferences.objects.create(user=players[0], reply=True)
    token = unsubscribe_token(user_pk=players[0].pk, kind="new_matter")
    client = Client(enforce_csrf_checks=True)
    assert client.get(f"/notices/unsubscribe/{token}/").status_code == 200
    assert preferences_of([players[0]])[players[0].pk]["new_matter"] is True
    response = client.post(f"/notices/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    wants = preferences_of([players[0]])[players[0].pk]
    assert wants["new_matter"] is False and wants["reply"] is True and wants["by_email"] is True


def test_the_digest_can_be_turned_off_from_its_mail(players, t0):
    NoticePreferences.objects.create(user=players[0], daily_digest=True)
    Client().post(f"/notices/unsubscribe/{unsubscribe_token(user_pk=players[0].pk, kind='daily_digest')}/")
    assert preferences_of([players[0]])[players[0].pk]["daily_digest"] is False


@pytest.mark.parametrize("token", ["nonsense", "W10:1abc:def", "x" * 5000, "ä\u202e"])
def test_a_forged_or_broken_unsubscribe_link_changes_nothing(players, token):
    response = Client().post(f"/notices/unsubscribe/{token}/")
    assert response.status_code == 404 and escape(UNSUBSCRIBE_UNKNOWN) in response.content.decode()
    assert not NoticePreferences.objects.exists()
