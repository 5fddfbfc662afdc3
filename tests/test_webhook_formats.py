"""The chat players use: each webhook speaks the format chosen for it (plain JSON, Discord or Slack); "a delivery
that fails is retried and recorded as today"; "an unknown format refused with a clear message", on the webhooks
page and in an archive."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse

from blognomic.moving.archive import export_archive, import_archive
from blognomic.moving.archive.fields import ArchiveError
from dynasties.models import Webhook, WebhookDelivery
from dynasties.webhooks import MAX_ATTEMPTS, retry_delay, webhooks_deliver
from tests.factories import PASSWORD, make_proposal, make_table, vote
from tests.test_chat_formats import assert_discord_shape, assert_slack_shape
from votes.jobs import flag_resolvable_matters
from votes.notices import notices_send
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

REFUSED = "is not a webhook format: choose plain JSON, Discord or Slack"


@pytest.fixture
def players(t0):
    return make_table(5, start=t0)


def test_each_webhook_gets_the_three_events_in_its_own_format_with_the_posts_absolute_link(players, t0, settings):
    settings.SITE_URL = "https://nomic.example.org/"
    for format in ("plain", "discord", "slack"):
        Webhook.objects.create(url=f"https://chat.example.org/{format}", format=format, created_at=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Foghorns")
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    flag_resolvable_matters(now=t0 + timedelta(hours=12))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    notices_send(now=t0 + timedelta(hours=13))
    sent: dict[str, list[dict]] = {}
    webhooks_deliver(now=t0 + timedelta(hours=13), send=lambda url, body: sent.setdefault(url, []).append(body))
    link = "https://nomic.example.org" + proposal.get_absolute_url()
    plain = sent["https://chat.example.org/plain"]
    assert sorted(event["event"] for event in plain) == ["matter_posted", "matter_resolvable", "matter_resolved"]
    assert all(event["url"] == link for event in plain)
    discord, slack = sent["https://chat.example.org/discord"], sent["https://chat.example.org/slack"]
    assert len(discord) == len(slack) == 3
    for body in discord:
        assert_discord_shape(body)
        assert body["embeds"][0]["url"] == link and body["allowed_mentions"] == {"parse": []}
    for body in slack:
        assert_slack_shape(body)
        assert f"<{link}|open>" in body["text"]
    assert {body["content"] for body in discord} == {
        "New Proposal: “Proposal: Foghorns” by P03",
        "Proposal “Proposal: Foghorns” may now be enacted",
        "Proposal “Proposal: Foghorns” was enacted",
    }


def test_a_failing_discord_delivery_is_retried_then_recorded_as_failed(players, t0):
    Webhook.objects.create(url="https://chat.example.org/discord", format="discord", created_at=t0)
    make_proposal(players[2], at=t0)
    notices_send(now=t0)
    moment, bodies = t0, []
    for _ in range(MAX_ATTEMPTS):
        webhooks_deliver(now=moment, send=lambda url, body: bodies.append(body) or "the server said 500")
        delivery = WebhookDelivery.objects.get()
        moment = delivery.next_attempt_at
    assert delivery.status == "failed" and delivery.last_error == "the server said 500"
    assert len(bodies) == MAX_ATTEMPTS and all("embeds" in body for body in bodies)
    assert delivery.attempts == MAX_ATTEMPTS and retry_delay(1) == timedelta(minutes=1)


def test_the_webhooks_page_offers_the_formats_and_refuses_an_unknown_one(client, players):
    assert client.login(username="P02", password=PASSWORD)  # an admin
    page = client.get(reverse("webhooks")).content.decode()
    assert '<option value="discord">Discord</option>' in page and '<option value="slack">Slack</option>' in page
    for bad in ("teams", "Slack", "slack ", "9" * 20, "ｓｌａｃｋ"):
        response = client.post(reverse("webhooks"), {"url": "https://chat.example.org/hook", "format": bad})
        assert response.status_code == 400 and REFUSED in response.content.decode()
    assert not Webhook.objects.exists()
    response = client.post(reverse("webhooks"), {"url": "https://chat.example.org/hook", "format": "slack"})
    assert response.status_code == 302
    assert Webhook.objects.get().format == "slack"
    assert "(Slack)" in client.get(reverse("webhooks")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_an_archive_keeps_a_webhooks_format_and_refuses_an_unknown_one(players, t0):
    Webhook.objects.create(url="https://chat.example.org/hook", format="discord", created_at=t0)
    archive = export_archive()
    assert archive["personal"]["webhooks"][0]["format"] == "discord"
    call_command("flush", "--no-input", verbosity=0)
    import_archive(archive)
    assert Webhook.objects.get().format == "discord" and export_archive() == archive
    call_command("flush", "--no-input", verbosity=0)
    for bad in ("teams", 3, None):
        broken = copy.deepcopy(archive)
        broken["personal"]["webhooks"][0]["format"] = bad
        if bad is None:  # an archive from before formats: plain JSON
            import_archive(broken)
            assert Webhook.objects.get().format == "plain"
            call_command("flush", "--no-input", verbosity=0)
            continue
        with pytest.raises(ArchiveError, match=rf"personal\.webhooks\[0\]\.format.*{REFUSED}"):
            import_archive(broken)
    assert not Webhook.objects.exists()
