"""Notices players choose: what is sent, to whom, once; by email where wanted; a daily digest; and the
admins' webhooks, delivered by a job with retries so a failing receiver never blocks anything."""

from __future__ import annotations

import ipaddress
import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.core import mail
from django.urls import reverse

from dynasties.destinations import NOT_HTTP
from dynasties.mail import mails_send
from dynasties.models import EmailDigest, NoticePreferences, Notification, Webhook, WebhookDelivery
from dynasties.webhooks import MAX_ATTEMPTS, retry_delay, webhooks_deliver
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.jobs import flag_resolvable_matters
from votes.notices import _key, digests_send, notices_send
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0):
    players = make_table(5, start=t0)
    for player in players:
        player.email = f"{player.username.lower()}@example.org"
        player.save()
    return players


def keys(user) -> list[str]:
    return sorted(Notification.objects.filter(user=user).values_list("key", flat=True))


def test_a_new_matter_is_announced_once_to_everyone_but_its_author(players, t0):
    proposal = make_proposal(players[2], at=t0)
    notices_send(now=t0 + timedelta(minutes=1))
    notices_send(now=t0 + timedelta(minutes=2))
    assert keys(players[0]) == [_key("new-matter", proposal.slug)]
    assert keys(players[2]) == []
    assert Notification.objects.filter(key=_key("new-matter", proposal.slug)).count() == 4
    assert mail.outbox == []  # the notices wait in the outbox for its own job
    mails_send(now=t0 + timedelta(minutes=2))
    assert len(mail.outbox) == 4  # everyone gave an address and email is on by default


def test_a_player_who_turned_a_kind_off_hears_nothing_of_it(players, t0):
    NoticePreferences.objects.create(user=players[0], new_matter=False, by_email=False)
    make_proposal(players[2], at=t0)
    notices_send(now=t0 + timedelta(minutes=1))
    mails_send(now=t0 + timedelta(minutes=1))
    assert keys(players[0]) == []
    assert all(message.to != [players[0].email] for message in mail.outbox)


def test_closing_soon_reaches_only_those_who_have_not_voted(players, t0):
    proposal = make_proposal(players[2], at=t0)
    vote(proposal, players[3], "for", at=t0 + timedelta(minutes=5))
    vote(proposal, players[4], "for", at=t0 + timedelta(minutes=6))
    notices_send(now=t0 + timedelta(hours=1))  # enactable from 12 hours: within 12 hours of 1 hour in
    told = Notification.objects.filter(key=_key("closing", proposal.slug))
    closing = set(told.values_list("user__username", flat=True))
    assert closing == {"P01", "P02"}  # not P03 (the author's implicit FOR) nor P04, P05 (voted)


def test_an_author_hears_that_their_matter_was_resolved_and_the_webhook_gets_it(players, t0):
    Webhook.objects.create(url="http://127.0.0.1:9/", created_at=t0)
    proposal = make_proposal(players[2], at=t0)
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    resolution = matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    notices_send(now=t0 + timedelta(hours=13, minutes=1))
    assert _key("resolved", proposal.slug, resolution.at.isoformat()) in keys(players[2])
    events = {d.key: d.payload["event"] for d in WebhookDelivery.objects.all()}
    resolved = _key("resolved", proposal.slug, resolution.at.isoformat())
    assert events == {_key("posted", proposal.slug): "matter_posted", resolved: "matter_resolved"}


def test_replies_and_mentions(players, t0):
    NoticePreferences.objects.create(user=players[3], reply=True)
    proposal = make_proposal(players[2], at=t0)
    vote(proposal, players[3], "for", at=t0 + timedelta(minutes=1), text="Good idea.")
    comment = vote(proposal, players[4], "against", at=t0 + timedelta(minutes=2), text="p01, what do you think?")
    notices_send(now=t0 + timedelta(minutes=3))
    assert f"reply:{comment.pk}" in keys(players[3])  # asked for replies
    assert not Notification.objects.filter(user=players[2], key=f"reply:{comment.pk}").exists()  # off by default
    assert f"mention:{comment.pk}" in keys(players[0])
    assert not Notification.objects.filter(key__startswith="mention:", user=players[1]).exists()


def test_the_daily_digest_leaves_out_what_the_player_voted_on(players, t0):
    NoticePreferences.objects.create(user=players[0], daily_digest=True)
    voted = make_proposal(players[2], at=t0, title="Proposal: Voted On")
    make_proposal(players[3], at=t0, title="Proposal: Still Waiting")
    vote(voted, players[0], "for", at=t0 + timedelta(minutes=1))
    mail.outbox.clear()
    digests_send(now=t0 + timedelta(hours=19))
    digests_send(now=t0 + timedelta(hours=20))
    mails_send(now=t0 + timedelta(hours=20))
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert "Still Waiting" in body and "Voted On" not in body
    assert EmailDigest.objects.count() == 1


class _Receiver(BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):  # noqa: N802 - the http.server API
        length = int(self.headers["Content-Length"])
        type(self).received.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):  # keep test output quiet
        pass


def test_a_webhook_on_loopback_receives_the_events_as_json(players, t0, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = (ipaddress.ip_network("127.0.0.1/32"),)  # never so in production
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        Webhook.objects.create(url=f"http://127.0.0.1:{server.server_port}/hook", created_at=t0)
        proposal = make_proposal(players[2], at=t0, title="Proposal: Foghorns")
        for voter in players[3:5]:
            vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
        flag_resolvable_matters(now=t0 + timedelta(hours=12))
        notices_send(now=t0 + timedelta(hours=12))
        report = webhooks_deliver(now=t0 + timedelta(hours=12))
        assert len(report.done) == 2 and all(line.endswith("sent") for line in report.done)
        events = sorted(event["event"] for event in _Receiver.received)
        assert events == ["matter_posted", "matter_resolvable"]
        assert all(event["title"] == "Proposal: Foghorns" for event in _Receiver.received)
        assert webhooks_deliver(now=t0 + timedelta(hours=13)).done == []  # nothing is sent twice
    finally:
        server.shutdown()


def test_a_failing_webhook_is_retried_with_back_off_then_recorded_as_failed(players, t0):
    Webhook.objects.create(url="http://127.0.0.1:9/never", created_at=t0)
    make_proposal(players[2], at=t0)
    notices_send(now=t0)
    moment = t0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        webhooks_deliver(now=moment, send=lambda url, payload: "connection refused")
        delivery = WebhookDelivery.objects.get()
        assert delivery.attempts == attempt
        if attempt < MAX_ATTEMPTS:
            assert delivery.status == "pending" and delivery.next_attempt_at == moment + retry_delay(attempt)
            assert webhooks_deliver(now=moment, send=lambda *a: pytest.fail("retried too soon")).done == []
            moment = delivery.next_attempt_at
    assert delivery.status == "failed" and delivery.last_error == "connection refused"


def test_webhooks_are_for_admins_and_must_be_http(client, players):
    assert client.login(username="P03", password=PASSWORD)
    assert client.get(reverse("webhooks")).status_code == 403
    client.logout()
    assert client.login(username="P02", password=PASSWORD)  # an admin
    for bad in ("ftp://example.org/", "javascript:alert(1)", "not-a-url", "http://"):
        response = client.post(reverse("webhooks"), {"url": bad})
        assert response.status_code == 400 and NOT_HTTP in response.content.decode()
    assert not Webhook.objects.exists()
    assert client.post(reverse("webhooks"), {"url": "https://chat.example.org/hook"}).status_code == 302
    assert Webhook.objects.get().url == "https://chat.example.org/hook"


def test_the_preferences_page_saves_the_players_choices(client, players):
    assert client.login(username="P04", password=PASSWORD)
    assert "A matter I posted is enacted or failed" in client.get(reverse("notice_preferences")).content.decode()
    client.post(reverse("notice_preferences"), {"mention": "on", "daily_digest": "on"})
    stored = NoticePreferences.objects.get(user=players[3])
    assert stored.mention and stored.daily_digest and not stored.new_matter and not stored.by_email
