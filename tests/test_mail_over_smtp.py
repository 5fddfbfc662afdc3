"""Mail through a real SMTP server on loopback (aiosmtpd), each message parsed with Python's ``email`` package:
joining with an address, confirming it, a notice and its link, one-click unsubscribe, a password reset; and a
server that refuses or never answers."""

from __future__ import annotations

import re
import socket
import threading
from email import message_from_bytes, policy
from email.message import EmailMessage
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from django.test import Client
from django.utils import timezone

from blognomic.flows.roster.services import application_approve
from dynasties.mail import mails_send
from dynasties.models import Application, OutgoingMail, User
from dynasties.notify import notify, preferences_of
from tests.factories import make_table

pytestmark = pytest.mark.django_db
SITE = "https://nomic.example.org"
NEW_PASSWORD = "a lantern at dusk"


class Inbox:
    """An aiosmtpd handler that keeps every message and refuses any recipient starting with "refused"."""

    def __init__(self):
        self.messages: list[EmailMessage] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802 - aiosmtpd's API
        if address.startswith("refused"):
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's API
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def inbox(settings):
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", controller.port, 5
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.SITE_URL = SITE
    settings.DEFAULT_FROM_EMAIL = "BlogNomic <nomic@example.org>"
    yield handler
    controller.stop()


def deliver() -> None:
    mails_send(now=timezone.now())


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def link_in(message: EmailMessage, path: str) -> str:
    found = re.search(re.escape(SITE) + "(" + re.escape(path) + r"\S*)", text_of(message))
    assert found, text_of(message)
    return found.group(1)


def test_a_newcomer_joins_confirms_is_told_unsubscribes_and_resets_over_smtp(inbox, t0):
    players = make_table(3, start=t0)
    client = Client()
    client.post(
        "/join/",
        {"name": "Newcomer", "email": "newcomer@example.org", "password": NEW_PASSWORD, "password_again": NEW_PASSWORD},
    )
    user = application_approve(application=Application.objects.get(), admin=players[1], now=t0)
    deliver()
    [confirm] = inbox.messages
    assert confirm["To"] == "newcomer@example.org" and confirm["From"] == "BlogNomic <nomic@example.org>"
    assert confirm["Auto-Submitted"] == "auto-generated"
    assert confirm["Message-ID"].endswith("@nomic.example.org>")
    Client().post(link_in(confirm, "/accounts/email/confirm/"))
    assert User.objects.get(pk=user.pk).email == "newcomer@example.org"

    notify(
        users=[User.objects.get(pk=user.pk)],
        key="new",
        text="New: “Proposal: Lamps”.",
        url="/posts/lamps/",
        now=t0,
        kind="new_matter",
    )
    deliver()
    notice = inbox.messages[-1]
    assert notice.get_body(preferencelist=("html",)) is not None
    assert link_in(notice, "/posts/") == "/posts/lamps/"
    unsubscribe = notice["List-Unsubscribe"].strip().strip("<>")
    assert urlsplit(unsubscribe).netloc == "nomic.example.org" and unsubscribe in text_of(notice)
    assert notice["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # What a mail client does on one click (RFC 8058): a POST with this body, no cookie.
    response = Client(enforce_csrf_checks=True).post(
        urlsplit(unsubscribe).path, data="List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert preferences_of([user])[user.pk]["new_matter"] is False

    Client().post("/accounts/password/reset/", {"email": "NEWCOMER@example.org"})
    deliver()
    reset = inbox.messages[-1]
    browser = Client()
    form = browser.get(link_in(reset, "/accounts/password/reset/"), follow=True)
    browser.post(form.redirect_chain[-1][0], {"new_password1": "brass and tide", "new_password2": "brass and tide"})
    assert User.objects.get(pk=user.pk).check_password("brass and tide")
    assert len(inbox.messages) == 3


def test_a_recipient_the_server_refuses_is_recorded_and_the_rest_still_go(inbox, t0):
    players = make_table(2, start=t0)
    User.objects.filter(pk=players[0].pk).update(email="refused@example.org")
    User.objects.filter(pk=players[1].pk).update(email="p02@example.org")
    notify(
        users=list(User.objects.filter(pk__in=[p.pk for p in players]).order_by("pk")),
        key="k",
        text="t",
        url="/",
        now=t0,
        kind="new_matter",
    )
    deliver()
    assert [m["To"] for m in inbox.messages] == ["p02@example.org"]
    failed = OutgoingMail.objects.get(user=players[0])
    assert failed.status == OutgoingMail.FAILED and "550 5.1.1 No such mailbox" in failed.last_error


def test_a_server_that_never_answers_times_out_and_the_mail_waits(settings, t0):
    """A listener that accepts and says nothing: the send gives up after EMAIL_TIMEOUT and is tried again."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    held = []
    accepting = threading.Thread(target=lambda: held.append(listener.accept()), daemon=True)
    accepting.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", listener.getsockname()[1], 1
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    [player] = make_table(1, start=t0, admins=())
    User.objects.filter(pk=player.pk).update(email="p01@example.org")
    notify(users=[User.objects.get(pk=player.pk)], key="k", text="t", url="/", now=timezone.now(), kind="new_matter")
    try:
        deliver()
    finally:
        listener.close()
    waiting = OutgoingMail.objects.get()
    assert waiting.status == OutgoingMail.PENDING and waiting.attempts == 1 and "timed out" in waiting.last_error
