"""What players keep for themselves or between them, in the archive: private messages, sealed texts, notice
preferences and private feed addresses; and the admins' webhooks with their deliveries and the digests
already sent, so that a restored game neither loses a message nor tells anyone anything twice.

All optional, under ``personal``:
- ``conversations[]``: ``pk``, ``subject``, ``started_at``, ``participants[]`` (``name``, ``last_read_at``),
  ``messages[]`` (``from``, ``at``, ``body``), oldest first.
- ``seals[]``: ``pk``, ``owner``, ``title``, ``digest``, ``nonce``, ``sealed_at``, ``revealed_text``,
  ``revealed_at`` (the nonce is as secret as the password hashes the archive also carries).
- ``preferences[]``: ``name``, each of ``NoticePreferences``' switches and ``turned_on_at`` (kind: when it was
  turned on); ``feeds[]``: ``name``, ``token``.
- ``webhooks[]``: ``url``, ``format`` (``plain``, ``discord`` or ``slack``; plain when missing), ``enabled``,
  ``created_at``, ``created_by``, ``deliveries[]`` (``key``, ``payload``, ``status``, ``attempts``,
  ``created_at``, ``next_attempt_at``, ``last_error``).
- ``digests[]``: ``name``, ``day`` (``YYYY-MM-DD``), ``sent_at``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from blognomic.community.commitments.models import Seal
from blognomic.community.commitments.services import MAX_TEXT as MAX_SEALED_TEXT
from blognomic.community.messaging.models import Conversation, Message, Participant
from blognomic.community.messaging.services import MAX_BODY as MAX_MESSAGE_BODY
from blognomic.community.messaging.services import MAX_SUBJECT
from blognomic.moving.archive.fields import ArchiveError, Reader, check_json, format_time
from blognomic.moving.archive.keys import keep_primary_keys, optional_pk
from dynasties.models import EmailDigest, NoticePreferences, User, Webhook, WebhookDelivery
from dynasties.webhooks import WebhookError, check_url, check_webhook_format
from votes.markup import render_markdown

SWITCHES = tuple(NoticePreferences.defaults())
KINDS = tuple(kind for kind, _, _ in NoticePreferences.KINDS)
DELIVERY_STATES = (WebhookDelivery.PENDING, WebhookDelivery.SENT, WebhookDelivery.FAILED)
NOT_A_PARTICIPANT = "{name!r} is not a participant of this conversation, so cannot have written in it"
PARTICIPANT_TWICE = "{name!r} is a participant of this conversation already"


def export_personal(names: dict[int, str]) -> dict:
    """What belongs to the players themselves: conversations, seals, notice settings, feeds, webhooks, digests."""
    return {
        "conversations": _export_conversations(names),
        "seals": [
            {
                "pk": s.pk,
                "owner": names[s.owner_id],
                "title": s.title,
                "digest": s.digest,
                "nonce": s.nonce,
                "sealed_at": format_time(s.sealed_at),
                "revealed_text": s.revealed_text,
                "revealed_at": format_time(s.revealed_at),
            }
            for s in Seal.objects.order_by("pk")
        ],
        "preferences": [
            {
                "name": names[p.user_id],
                **{k: getattr(p, k) for k in SWITCHES},
                "turned_on_at": {k: format_time(p.turned_on_since(k)) for k in sorted(p.turned_on_at or {})},
            }
            for p in NoticePreferences.objects.order_by("pk")
        ],
        "feeds": [
            {"name": name, "token": token}
            for name, token in User.objects.exclude(notices_feed_token="")
            .order_by("pk")
            .values_list("username", "notices_feed_token")
        ],
        "webhooks": _export_webhooks(names),
        "digests": [
            {"name": names[d.user_id], "day": d.day.isoformat(), "sent_at": format_time(d.sent_at)}
            for d in EmailDigest.objects.order_by("pk")
        ],
    }


def _export_conversations(names: dict[int, str]) -> list[dict]:
    """Every conversation with its participants and messages (three queries)."""
    messages: dict[int, list[dict]] = {}
    for m in Message.objects.order_by("sent_at", "pk").values("conversation_id", "sender_id", "sent_at", "body"):
        messages.setdefault(m["conversation_id"], []).append(
            {"from": names[m["sender_id"]], "at": format_time(m["sent_at"]), "body": m["body"]}
        )
    participants: dict[int, list[dict]] = {}
    for p in Participant.objects.order_by("pk").values("conversation_id", "user_id", "last_read_at"):
        participants.setdefault(p["conversation_id"], []).append(
            {"name": names[p["user_id"]], "last_read_at": format_time(p["last_read_at"])}
        )
    return [
        {
            "pk": c.pk,
            "subject": c.subject,
            "started_at": format_time(c.started_at),
            "participants": participants.get(c.pk, []),
            "messages": messages.get(c.pk, []),
        }
        for c in Conversation.objects.order_by("pk")
    ]


def _export_webhooks(names: dict[int, str]) -> list[dict]:
    """Every webhook with its deliveries (two queries)."""
    deliveries: dict[int, list[dict]] = {}
    for d in WebhookDelivery.objects.order_by("pk"):
        deliveries.setdefault(d.webhook_id, []).append(
            {
                "key": d.key,
                "payload": d.payload,
                "status": d.status,
                "attempts": d.attempts,
                "created_at": format_time(d.created_at),
                "next_attempt_at": format_time(d.next_attempt_at),
                "last_error": d.last_error,
            }
        )
    return [
        {
            "url": w.url,
            "format": w.format,
            "enabled": w.enabled,
            "created_at": format_time(w.created_at),
            "created_by": names.get(w.created_by_id),
            "deliveries": deliveries.get(w.pk, []),
        }
        for w in Webhook.objects.order_by("pk")
    ]


def _webhook_url(r: Reader) -> str:
    """A webhook's address, checked as the webhooks page checks it, except where a name leads: an archive is
    read without the network, and every delivery resolves and checks the name anyway."""
    try:
        return check_url(r.text("url", max_length=500), resolve=False)
    except WebhookError as problem:
        raise ArchiveError(r.at("url"), str(problem)) from None


def _webhook_format(r: Reader) -> str:
    """A webhook's format, one the webhooks page offers."""
    try:
        return check_webhook_format(r.data.get("format"))
    except WebhookError as problem:
        raise ArchiveError(r.at("format"), str(problem)) from None


def parse_personal(data: Any) -> tuple[dict, dict[str, str]]:
    """Check ``personal`` without touching the database; returns it and every name it mentions, each with the
    path of its first mention."""
    if data is None:
        return {}, {}
    root = Reader(data, "personal")
    name = _NameReader()
    out: dict[str, list] = {
        key: [] for key in ("conversations", "seals", "preferences", "feeds", "webhooks", "digests")
    }
    for item, path in root.items("conversations"):
        out["conversations"].append(_parse_conversation(Reader(item, path), name))
    for item, path in root.items("seals"):
        out["seals"].append(_parse_seal(Reader(item, path), name))
    for item, path in root.items("preferences"):
        r = Reader(item, path)
        out["preferences"].append(
            {
                "name": name(r, "name"),
                **{k: r.boolean(k, default=NoticePreferences.defaults()[k]) for k in SWITCHES},
                "turned_on_at": _turned_on_at(r),
            }
        )
    for item, path in root.items("feeds"):
        r = Reader(item, path)
        out["feeds"].append({"name": name(r, "name"), "token": r.text("token", max_length=64)})
    for item, path in root.items("webhooks"):
        out["webhooks"].append(_parse_webhook(Reader(item, path), name))
    for item, path in root.items("digests"):
        out["digests"].append(_parse_digest(Reader(item, path), name))
    return out, name.names


class _NameReader:
    """Reads a player's name and remembers where each name was first mentioned."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def __call__(self, r: Reader, key: str, *, required: bool = True) -> str | None:
        value = r.text(key, required=required, default=None) if required else r.data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise ArchiveError(r.at(key), "must be a player's name")
        self.names.setdefault(value, r.at(key))
        return value


def _parse_conversation(r: Reader, name: _NameReader) -> dict:
    people = []
    for p, pp in r.items("participants"):
        person = Reader(p, pp)
        who = name(person, "name")
        if any(other["name"] == who for other in people):
            raise ArchiveError(person.at("name"), PARTICIPANT_TWICE.format(name=who))
        people.append({"name": who, "last_read_at": person.time("last_read_at", required=False)})
    said = []
    for m, mp in r.items("messages"):
        message = Reader(m, mp)
        sender = name(message, "from")
        if not any(person["name"] == sender for person in people):
            raise ArchiveError(message.at("from"), NOT_A_PARTICIPANT.format(name=sender))
        said.append(
            {"from": sender, "at": message.time("at"), "body": message.text("body", max_length=MAX_MESSAGE_BODY)}
        )
    return {
        "pk": optional_pk(r),
        "subject": r.text("subject", max_length=MAX_SUBJECT),
        "started_at": r.time("started_at"),
        "participants": people,
        "messages": said,
    }


def _parse_seal(r: Reader, name: _NameReader) -> dict:
    return {
        "pk": optional_pk(r),
        "owner": name(r, "owner"),
        "title": r.text("title", max_length=200),
        "digest": r.text("digest", max_length=64),
        "nonce": r.text("nonce", max_length=64),
        "sealed_at": r.time("sealed_at"),
        "revealed_text": r.text("revealed_text", required=False, max_length=MAX_SEALED_TEXT),
        "revealed_at": r.time("revealed_at", required=False),
    }


def _parse_webhook(r: Reader, name: _NameReader) -> dict:
    deliveries = []
    for d, dp in r.items("deliveries"):
        h = Reader(d, dp)
        deliveries.append(
            {
                "key": h.text("key", max_length=200),
                "payload": check_json(h.data.get("payload"), h.at("payload")),
                "status": h.choice("status", DELIVERY_STATES),
                "attempts": h.integer("attempts"),
                "created_at": h.time("created_at"),
                "next_attempt_at": h.time("next_attempt_at"),
                "last_error": h.text("last_error", required=False, max_length=500),
            }
        )
    return {
        "url": _webhook_url(r),
        "format": _webhook_format(r),
        "enabled": r.boolean("enabled", default=True),
        "created_at": r.time("created_at"),
        "created_by": name(r, "created_by", required=False),
        "deliveries": deliveries,
    }


def _parse_digest(r: Reader, name: _NameReader) -> dict:
    try:
        day = date.fromisoformat(r.text("day"))
    except ValueError:
        raise ArchiveError(r.at("day"), "not a date such as 2016-07-25") from None
    return {"name": name(r, "name"), "day": day, "sent_at": r.time("sent_at")}


def import_personal(parsed: dict, *, users: dict[str, User]) -> list:
    """Write what ``parse_personal`` checked; returns the models whose rows kept the archive's keys."""
    kept = []
    if not parsed:
        return kept
    if _import_conversations(parsed["conversations"], users=users):
        kept.append(Conversation)
    seals = [
        Seal(
            owner=users[s["owner"]],
            title=s["title"],
            digest=s["digest"],
            nonce=s["nonce"],
            sealed_at=s["sealed_at"],
            revealed_text=s["revealed_text"],
            revealed_at=s["revealed_at"],
        )
        for s in parsed["seals"]
    ]
    if keep_primary_keys(Seal, seals, [s["pk"] for s in parsed["seals"]]):
        kept.append(Seal)
    Seal.objects.bulk_create(seals)
    for p in parsed["preferences"]:
        NoticePreferences.objects.update_or_create(
            user=users[p["name"]],
            defaults={k: p[k] for k in SWITCHES}
            | {"turned_on_at": {k: at.isoformat() for k, at in p["turned_on_at"].items()}},
        )
    for f in parsed["feeds"]:
        User.objects.filter(pk=users[f["name"]].pk).update(notices_feed_token=f["token"])
    for w in parsed["webhooks"]:
        hook = Webhook.objects.create(
            url=w["url"],
            format=w["format"],
            enabled=w["enabled"],
            created_at=w["created_at"],
            created_by=users.get(w["created_by"]) if w["created_by"] else None,
        )
        WebhookDelivery.objects.bulk_create(WebhookDelivery(webhook=hook, **d) for d in w["deliveries"])
    EmailDigest.objects.bulk_create(
        EmailDigest(user=users[d["name"]], day=d["day"], sent_at=d["sent_at"]) for d in parsed["digests"]
    )
    return kept


def _import_conversations(parsed: list[dict], *, users: dict[str, User]) -> bool:
    """The conversations with their participants and messages; True when they kept the archive's keys."""
    conversations = [
        Conversation(
            subject=c["subject"],
            started_at=c["started_at"],
            last_message_at=max((m["at"] for m in c["messages"]), default=c["started_at"]),
        )
        for c in parsed
    ]
    kept = keep_primary_keys(Conversation, conversations, [c["pk"] for c in parsed])
    Conversation.objects.bulk_create(conversations)
    for conversation, c in zip(conversations, parsed, strict=True):
        Participant.objects.bulk_create(
            Participant(conversation=conversation, user=users[p["name"]], last_read_at=p["last_read_at"])
            for p in c["participants"]
        )
        Message.objects.bulk_create(
            Message(
                conversation=conversation,
                sender=users[m["from"]],
                sent_at=m["at"],
                body=m["body"],
                body_html=render_markdown(m["body"]),
            )
            for m in c["messages"]
        )
    return kept


def _turned_on_at(r: Reader) -> dict:
    """A preference's ``turned_on_at``: for each kind of notice, when it was turned on."""
    if not r.has("turned_on_at"):
        return {}
    moments = Reader(r.data["turned_on_at"], r.at("turned_on_at"))
    for kind in moments.data:
        if kind not in KINDS:
            raise ArchiveError(moments.at(str(kind)), f"is not a kind of notice ({', '.join(KINDS)})")
    return {kind: moments.time(kind) for kind in moments.data}
