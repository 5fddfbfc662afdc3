"""Private messages between players: conversations of two or more people, kept exactly as sent.

Nothing here is edited or deleted, by either side, so that any participant can later show what was said
(the seeds send secret actions to the Emperor this way).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Conversation(models.Model):
    subject = models.CharField(max_length=200)
    started_at = models.DateTimeField()
    last_message_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-last_message_at", "-pk"]

    def __str__(self) -> str:
        return self.subject

    def get_absolute_url(self) -> str:
        return reverse("message_thread", args=[self.pk])


class Participant(models.Model):
    """One person in a conversation, and how far they have read it."""

    conversation = models.ForeignKey(Conversation, on_delete=models.PROTECT, related_name="participants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="conversations")
    last_read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["conversation", "user"], name="one_participant_each")]
        indexes = [models.Index(fields=["user", "conversation"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.conversation}"


class Message(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.PROTECT, related_name="messages")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sent_messages")
    sent_at = models.DateTimeField(db_index=True)
    body = models.TextField()
    body_html = models.TextField(blank=True, editable=False, help_text="The body's Markdown, rendered once when sent.")

    class Meta:
        ordering = ["sent_at", "pk"]

    def __str__(self) -> str:
        return f"{self.sender} at {self.sent_at:%Y-%m-%d %H:%M}"
