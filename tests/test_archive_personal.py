"""The archive carries what players keep for themselves or between them (messages, sealed texts, notice
preferences, private feed addresses) and the webhooks with their deliveries and the digests already sent:
after export, flush and import, every message and seal is where it was and no job tells anyone again."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client

from blognomic.community.commitments.models import Seal
from blognomic.community.commitments.services import seal_create, seal_reveal
from blognomic.community.messaging.models import Conversation, Message
from blognomic.community.messaging.services import message_reply, message_send
from blognomic.moving.archive import export_archive, import_archive
from blognomic.moving.archive.fields import ArchiveError
from dynasties.mail import mails_send
from dynasties.models import NoticePreferences, Notification, User, Webhook, WebhookDelivery
from dynasties.webhooks import webhooks_deliver
from tests.factories import PASSWORD, make_proposal, make_table
from votes.notices import digests_send, notices_send

pytestmark = pytest.mark.django_db(transaction=True)


def build(t0):
    players = make_table(4, start=t0)
    for player in players:
        player.email = f"{player.username.lower()}@example.org"
        player.save()
    talk = message_send(
        sender=players[3], recipients=["P01", "P02"], subject="Secret action", body="North lamp.", now=t0
    )
    message_reply(conversation=talk, sender=players[0], body="Noted.", now=t0 + timedelta(minutes=5))
    seal = seal_create(owner=players[2], title="Hole cards", text="AS KD", now=t0)
    seal_create(owner=players[3], title="Codename", text=":PROTO is mine", now=t0 + timedelta(minutes=1))
    seal_reveal(seal=seal, by=players[2], text="AS KD", now=t0 + timedelta(hours=1))
    NoticePreferences.objects.create(user=players[1], reply=True, daily_digest=True)
    User.objects.filter(pk=players[3].pk).update(notices_feed_token="t" * 43)
    Webhook.objects.create(url="https://chat.example.org/hook", created_at=t0, created_by=players[1])
    make_proposal(players[2], at=t0 + timedelta(hours=2), title="Proposal: Brass Bells")
    now = t0 + timedelta(hours=3)
    notices_send(now=now)
    webhooks_deliver(now=now, send=lambda url, payload: None)
    digests_send(now=now)
    mails_send(now=now)
    return players, now


def test_messages_seals_preferences_webhooks_and_digests_survive_a_round_trip(t0):
    players, now = build(t0)
    assert WebhookDelivery.objects.filter(status="sent").exists() and len(mail.outbox) > 0
    talk = Conversation.objects.get()
    client = Client()
    client.login(username="P02", password=PASSWORD)
    before = client.get(talk.get_absolute_url()).content.decode()
    first = export_archive()
    assert len(first["personal"]["conversations"][0]["messages"]) == 2

    call_command("flush", "--no-input", verbosity=0)
    import_archive(first)

    assert export_archive() == first
    assert Conversation.objects.get().pk == talk.pk and Message.objects.count() == 2
    assert Seal.objects.get(title="Hole cards").revealed_text == "AS KD"
    client = Client()
    client.login(username="P02", password=PASSWORD)
    after = client.get(talk.get_absolute_url()).content.decode()
    assert "North lamp." in after and ("csrfmiddlewaretoken" in before) == ("csrfmiddlewaretoken" in after)
    assert Client().get("/notices/feed/" + "t" * 43 + "/").status_code == 200

    mail.outbox.clear()
    notices, deliveries = Notification.objects.count(), WebhookDelivery.objects.count()
    notices_send(now=now)
    digests_send(now=now)
    mails_send(now=now)
    assert webhooks_deliver(now=now, send=lambda url, payload: pytest.fail("sent again")).done == []
    assert Notification.objects.count() == notices and WebhookDelivery.objects.count() == deliveries
    assert not mail.outbox, "a job told someone something again"


def test_a_bad_personal_field_is_refused_by_its_path_and_nothing_is_written(t0):
    build(t0)
    archive = export_archive()
    call_command("flush", "--no-input", verbosity=0)
    broken = copy.deepcopy(archive)
    del broken["personal"]["seals"][1]["owner"]
    with pytest.raises(ArchiveError, match=r"personal\.seals\[1\]\.owner"):
        import_archive(broken)
    for url in ("http://127.0.0.1:6379/", "http://0x7f000001/", "http://user:pass@chat.example.org/"):
        broken = copy.deepcopy(archive)  # the webhooks page's rules, on the way in from an archive too
        broken["personal"]["webhooks"][0]["url"] = url
        with pytest.raises(ArchiveError, match=r"personal\.webhooks\[0\]\.url"):
            import_archive(broken)
    broken = copy.deepcopy(archive)
    broken["personal"]["digests"][0]["day"] = "yesterday"
    with pytest.raises(ArchiveError, match=r"personal\.digests\[0\]\.day"):
        import_archive(broken)
    assert not User.objects.exists() and not Conversation.objects.exists()
