"""Reading private messages: a player's inbox with unread counts, what they sent, one conversation."""

from __future__ import annotations

from django.db.models import Count, F, OuterRef, Q, Subquery

from blognomic.community.messaging.models import Conversation, Message, Participant


def unread_count(user) -> int:
    """Messages from others in the user's conversations that arrived after they last read each one.

    Every signed-in page asks. The user's own participant row is joined once and compared in the same
    ``filter()`` (a second call would join another participant), not looked up again for each message."""
    return (
        Message.objects.filter(
            Q(conversation__participants__last_read_at__isnull=True)
            | Q(sent_at__gt=F("conversation__participants__last_read_at")),
            conversation__participants__user=user,
        )
        .exclude(sender=user)
        .count()
    )


def inbox(user, *, limit: int = 100) -> list[Conversation]:
    """The user's conversations, latest first, each with ``unread`` and ``names`` (the other people)."""
    mine = Participant.objects.filter(conversation=OuterRef("pk"), user=user)
    conversations = list(
        Conversation.objects.filter(participants__user=user)
        .annotate(read_at=Subquery(mine.values("last_read_at")[:1]))
        .annotate(
            unread=Count(
                "messages",
                filter=~Q(messages__sender=user) & (Q(read_at__isnull=True) | Q(messages__sent_at__gt=F("read_at"))),
                distinct=True,
            )
        )
        .prefetch_related("participants__user")
        .order_by("-last_message_at", "-pk")[:limit]
    )
    for conversation in conversations:
        conversation.names = [p.user.username for p in conversation.participants.all() if p.user_id != user.pk]
    return conversations


def sent(user, *, limit: int = 100) -> list[Message]:
    return list(
        Message.objects.filter(sender=user)
        .select_related("conversation")
        .prefetch_related("conversation__participants__user")
        .order_by("-sent_at", "-pk")[:limit]
    )


def thread(conversation: Conversation) -> list[Message]:
    return list(conversation.messages.select_related("sender").order_by("sent_at", "pk"))
