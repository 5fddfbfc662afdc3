"""Sending private messages: to one or several players, a new conversation or a reply; nothing unsaid."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from blognomic.community.messaging.models import Conversation, Message, Participant
from dynasties.models import User
from dynasties.notify import notify
from dynasties.read_markers import marking_read
from votes.markup import render_markdown

MAX_BODY = 10_000
MAX_SUBJECT = 200
MAX_RECIPIENTS = 50

NO_RECIPIENT = "Name at least one player to send the message to."
TOO_MANY_RECIPIENTS = "A message may go to at most {limit} players at once."
UNKNOWN_RECIPIENT = "There is no player called “{name}”."
NOT_A_PLAYER = "{name} is not a player, so cannot receive private messages."
TO_ONESELF = "You cannot send a private message to yourself."
EMPTY_BODY = "Write something: an empty message is not sent."
BODY_TOO_LONG = "A message may be at most {limit:,} characters; this one has {length:,}."
SUBJECT_NEEDED = "Give the conversation a subject (at most {limit} characters)."
SENDER_NOT_PLAYER = "Only players may send private messages."
NOT_IN_CONVERSATION = "You are not part of this conversation."
NUL_CHARACTER = "A message may not contain the NUL character."


class MessageError(Exception):
    """A message was refused; nothing was sent. The text says why."""


def _clean_body(body: str) -> str:
    body = (body or "").strip()
    if "\x00" in body:
        raise MessageError(NUL_CHARACTER)
    if not body:
        raise MessageError(EMPTY_BODY)
    if len(body) > MAX_BODY:
        raise MessageError(BODY_TOO_LONG.format(limit=MAX_BODY, length=len(body)))
    return body


def _is_player(user: User) -> bool:
    return user.joined_at is not None and not user.absences.filter(kind="left", ended_at__isnull=True).exists()


def message_send(*, sender: User, recipients: Iterable[str], subject: str, body: str, now: datetime) -> Conversation:
    """Start a conversation between ``sender`` and the named players, with its first message."""
    if not _is_player(sender):
        raise MessageError(SENDER_NOT_PLAYER)
    names = list(dict.fromkeys(name.strip() for name in recipients if name and name.strip()))
    if not names:
        raise MessageError(NO_RECIPIENT)
    if len(names) > MAX_RECIPIENTS:
        raise MessageError(TOO_MANY_RECIPIENTS.format(limit=MAX_RECIPIENTS))
    subject = (subject or "").strip()
    if not subject or len(subject) > MAX_SUBJECT or "\x00" in subject:
        raise MessageError(SUBJECT_NEEDED.format(limit=MAX_SUBJECT))
    body = _clean_body(body)
    people = {user.username: user for user in User.objects.filter(username__in=names)}
    for name in names:
        if name not in people:
            raise MessageError(UNKNOWN_RECIPIENT.format(name=name))
        if people[name].pk == sender.pk:
            raise MessageError(TO_ONESELF)
        if not _is_player(people[name]):
            raise MessageError(NOT_A_PLAYER.format(name=name))
    with transaction.atomic():
        conversation = Conversation.objects.create(subject=subject, started_at=now, last_message_at=now)
        Participant.objects.create(conversation=conversation, user=sender, last_read_at=now)
        Participant.objects.bulk_create(Participant(conversation=conversation, user=people[name]) for name in names)
        message = Message.objects.create(
            conversation=conversation, sender=sender, sent_at=now, body=body, body_html=render_markdown(body)
        )
        _tell(message, [people[name] for name in names], now)
    return conversation


def message_reply(*, conversation: Conversation, sender: User, body: str, now: datetime) -> Message:
    """Add a message to a conversation the sender is part of; everyone else in it is told."""
    body = _clean_body(body)
    with transaction.atomic():
        conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
        others = [p.user for p in conversation.participants.select_related("user") if p.user_id != sender.pk]
        if not conversation.participants.filter(user=sender).exists():
            raise MessageError(NOT_IN_CONVERSATION)
        message = Message.objects.create(
            conversation=conversation, sender=sender, sent_at=now, body=body, body_html=render_markdown(body)
        )
        conversation.last_message_at = now
        conversation.save(update_fields=["last_message_at"])
        Participant.objects.filter(conversation=conversation, user=sender).update(last_read_at=now)
        _tell(message, others, now)
    return message


def conversation_mark_read(*, conversation: Conversation, user: User, now: datetime) -> bool:
    """Marks the conversation read by ``user`` up to ``now`` when someone else wrote in it since their last
    mark; otherwise writes nothing at all, so opening it again and again never writes. Returns whether it did."""
    from_others = Message.objects.filter(conversation=conversation).exclude(sender=user)
    unread = Q(Exists(from_others.filter(sent_at__gt=OuterRef("last_read_at")))) | (
        Q(last_read_at__isnull=True) & Q(Exists(from_others))
    )
    mine = Participant.objects.filter(unread, conversation=conversation, user=user)
    if not mine.exists():
        return False
    with marking_read(user):
        return bool(mine.update(last_read_at=now))


def _tell(message: Message, users: list[User], now: datetime) -> None:
    url = reverse("message_thread", args=[message.conversation_id])
    notify(
        users=users,
        key=f"message:{message.pk}",
        now=now,
        url=url,
        kind="message",
        text=f"A private message from {message.sender.username}: “{message.conversation.subject}”",
    )
