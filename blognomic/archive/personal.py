"""What players keep for themselves or between them, in the archive: private messages, sealed texts, notice
preferences and private feed addresses; and the admins' webhooks with their deliveries and the digests
already sent, so that a restored game neither loses a message nor tells anyone anything twice.

All optional, under ``personal``:
- ``conversations[]``: ``pk``, ``subject``, ``started_at``, ``participants[]`` (``name``, ``last_read_at``),
  ``messages[]`` (``from``, ``at``, ``body``), oldest first.
- ``seals[]``: ``pk``, ``owner``, ``title``, ``digest``, ``nonce``, ``sealed_at``, ``revealed_text``,
  ``revealed_at`` (the nonce is as secret as the password hashes the archive also carries).
- ``preferences[]``: ``name`` and each of ``NoticePreferences``' switches; ``feeds[]``: ``name``, ``token``.
- ``webhooks[]``: ``url``, ``enabled``, ``created_at``, ``created_by``, ``deliveries[]`` (``key``, ``payload``,
  ``status``, ``attempts``, ``created_at``, ``next_attempt_at``, ``last_error``).
- ``digests[]``: ``name``, ``day`` (``YYYY-MM-DD``), ``sent_at``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from blognomic.archive.fields import ArchiveError, Reader, check_json, format_time
from blognomic.archive.keys import keep_primary_keys, optional_pk
from blognomic.commitments.models import Seal
from blognomic.messaging.models import Conversation, Message, Participant
from dynasties.models import EmailDigest, NoticePreferences, User, Webhook, WebhookDelivery

SWITCHES = tuple(NoticePreferences.defaults())
DELIVERY_STATES = (WebhookDelivery.PENDING, WebhookDelivery.SENT, WebhookDelivery.FAILED)


def export_personal(names: dict[int, str]) -> dict:
    messages: dict[int, list[dict]] = {}
    for m in Message.objects.order_by("sent_at", "pk").values("conversation_id", "sender_id", "sent_at", "body"):
        messages.setdefault(m["conversation_id"], []).append(
            {"from": names[m["sender_id"]], "at": format_time(m["sent_at"]), "body": m["body"]})
    participants: dict[int, list[dict]] = {}
    for p in Participant.objects.order_by("pk").values("conversation_id", "user_id", "last_read_at"):
        participants.setdefault(p["conversation_id"], []).append(
            {"name": names[p["user_id"]], "last_read_at": format_time(p["last_read_at"])})
    deliveries: dict[int, list[dict]] = {}
    for d in WebhookDelivery.objects.order_by("pk"):
        deliveries.setdefault(d.webhook_id, []).append(
            {"key": d.key, "payload": d.payload, "status": d.status, "attempts": d.attempts,
             "created_at": format_time(d.created_at), "next_attempt_at": format_time(d.next_attempt_at),
             "last_error": d.last_error})
    return {
        "conversations": [
            {"pk": c.pk, "subject": c.subject, "started_at": format_time(c.started_at),
             "participants": participants.get(c.pk, []), "messages": messages.get(c.pk, [])}
            for c in Conversation.objects.order_by("pk")],
        "seals": [
            {"pk": s.pk, "owner": names[s.owner_id], "title": s.title, "digest": s.digest, "nonce": s.nonce,
             "sealed_at": format_time(s.sealed_at), "revealed_text": s.revealed_text,
             "revealed_at": format_time(s.revealed_at)}
            for s in Seal.objects.order_by("pk")],
        "preferences": [{"name": names[p.user_id], **{k: getattr(p, k) for k in SWITCHES}}
                        for p in NoticePreferences.objects.order_by("pk")],
        "feeds": [{"name": name, "token": token} for name, token in
                  User.objects.exclude(notices_feed_token="").order_by("pk").values_list("username",
                                                                                           "notices_feed_token")],
        "webhooks": [
            {"url": w.url, "enabled": w.enabled, "created_at": format_time(w.created_at),
             "created_by": names.get(w.created_by_id), "deliveries": deliveries.get(w.pk, [])}
            for w in Webhook.objects.order_by("pk")],
        "digests": [{"name": names[d.user_id], "day": d.day.isoformat(), "sent_at": format_time(d.sent_at)}
                    for d in EmailDigest.objects.order_by("pk")],
    }


def parse_personal(data: Any) -> tuple[dict, set[str]]:
    """Check ``personal`` without touching the database; returns it and every name it mentions."""
    if data is None:
        return {}, set()
    root = Reader(data, "personal")
    names: set[str] = set()

    def name(r: Reader, key: str, *, required: bool = True) -> str | None:
        value = r.text(key, required=required, default=None) if required else r.data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise ArchiveError(r.at(key), "must be a player's name")
        names.add(value)
        return value

    out: dict[str, list] = {key: [] for key in ("conversations", "seals", "preferences", "feeds", "webhooks",
                                                 "digests")}
    for item, path in root.items("conversations"):
        r = Reader(item, path)
        people = [{"name": name(Reader(p, pp), "name"), "last_read_at": Reader(p, pp).time("last_read_at",
                                                                                             required=False)}
                  for p, pp in r.items("participants")]
        said = [{"from": name(Reader(m, mp), "from"), "at": Reader(m, mp).time("at"),
                 "body": Reader(m, mp).text("body", max_length=10_000)} for m, mp in r.items("messages")]
        out["conversations"].append({"pk": optional_pk(r), "subject": r.text("subject", max_length=200),
                                     "started_at": r.time("started_at"), "participants": people,
                                     "messages": said})
    for item, path in root.items("seals"):
        r = Reader(item, path)
        out["seals"].append({"pk": optional_pk(r), "owner": name(r, "owner"), "title": r.text("title", max_length=200),
                             "digest": r.text("digest", max_length=64), "nonce": r.text("nonce", max_length=64),
                             "sealed_at": r.time("sealed_at"),
                             "revealed_text": r.text("revealed_text", required=False),
                             "revealed_at": r.time("revealed_at", required=False)})
    for item, path in root.items("preferences"):
        r = Reader(item, path)
        out["preferences"].append({"name": name(r, "name"),
                                   **{k: r.boolean(k, default=NoticePreferences.defaults()[k]) for k in SWITCHES}})
    for item, path in root.items("feeds"):
        r = Reader(item, path)
        out["feeds"].append({"name": name(r, "name"), "token": r.text("token", max_length=64)})
    for item, path in root.items("webhooks"):
        r = Reader(item, path)
        deliveries = []
        for d, dp in r.items("deliveries"):
            h = Reader(d, dp)
            deliveries.append({"key": h.text("key", max_length=200), "payload": check_json(h.data.get("payload"),
                                                                                           h.at("payload")),
                               "status": h.choice("status", DELIVERY_STATES), "attempts": h.integer("attempts"),
                               "created_at": h.time("created_at"), "next_attempt_at": h.time("next_attempt_at"),
                               "last_error": h.text("last_error", required=False, max_length=500)})
        out["webhooks"].append({"url": r.text("url", max_length=500), "enabled": r.boolean("enabled", default=True),
                                "created_at": r.time("created_at"), "created_by": name(r, "created_by",
                                                                                      required=False),
                                "deliveries": deliveries})
    for item, path in root.items("digests"):
        r = Reader(item, path)
        try:
            day = date.fromisoformat(r.text("day"))
        except ValueError:
            raise ArchiveError(r.at("day"), "not a date such as 2016-07-25") from None
        out["digests"].append({"name": name(r, "name"), "day": day, "sent_at": r.time("sent_at")})
    return out, names


def import_personal(parsed: dict, *, users: dict[str, User]) -> list:
    """Write what ``parse_personal`` checked; returns the models whose rows kept the archive's keys."""
    kept = []
    if not parsed:
        return kept
    conversations = [Conversation(subject=c["subject"], started_at=c["started_at"],
                                  last_message_at=max((m["at"] for m in c["messages"]), default=c["started_at"]))
                     for c in parsed["conversations"]]
    if keep_primary_keys(Conversation, conversations, [c["pk"] for c in parsed["conversations"]]):
        kept.append(Conversation)
    Conversation.objects.bulk_create(conversations)
    for conversation, c in zip(conversations, parsed["conversations"], strict=True):
        Participant.objects.bulk_create(Participant(conversation=conversation, user=users[p["name"]],
                                                    last_read_at=p["last_read_at"]) for p in c["participants"])
        Message.objects.bulk_create(Message(conversation=conversation, sender=users[m["from"]], sent_at=m["at"],
                                            body=m["body"]) for m in c["messages"])
    seals = [Seal(owner=users[s["owner"]], title=s["title"], digest=s["digest"], nonce=s["nonce"],
                  sealed_at=s["sealed_at"], revealed_text=s["revealed_text"], revealed_at=s["revealed_at"])
             for s in parsed["seals"]]
    if keep_primary_keys(Seal, seals, [s["pk"] for s in parsed["seals"]]):
        kept.append(Seal)
    Seal.objects.bulk_create(seals)
    for p in parsed["preferences"]:
        NoticePreferences.objects.update_or_create(user=users[p["name"]], defaults={k: p[k] for k in SWITCHES})
    for f in parsed["feeds"]:
        User.objects.filter(pk=users[f["name"]].pk).update(notices_feed_token=f["token"])
    for w in parsed["webhooks"]:
        hook = Webhook.objects.create(url=w["url"], enabled=w["enabled"], created_at=w["created_at"],
                                      created_by=users.get(w["created_by"]) if w["created_by"] else None)
        WebhookDelivery.objects.bulk_create(WebhookDelivery(webhook=hook, **d) for d in w["deliveries"])
    EmailDigest.objects.bulk_create(EmailDigest(user=users[d["name"]], day=d["day"], sent_at=d["sent_at"])
                                    for d in parsed["digests"])
    return kept
