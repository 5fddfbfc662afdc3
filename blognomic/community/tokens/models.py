"""A personal access token: a secret a player gives their own program so it may act for them through the API,
within the scopes they chose and until it expires or they revoke it. Only a hash of the secret is kept."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models

from blognomic.community.tokens.scopes import SCOPE_CHOICES


class AccessToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=80, help_text="What the owner calls it: which program holds it.")
    # The secret's public part, shown in lists and used to find the row; the rest is only in ``secret_hash``.
    public_id = models.CharField(max_length=16, unique=True, editable=False)
    secret_hash = models.CharField(max_length=64, editable=False)
    scopes = models.JSONField(default=list, help_text=f"Some of: {', '.join(value for value, _ in SCOPE_CHOICES)}.")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        # Throttling keys requests by this: one budget per token, whoever presents it.
        return f"token:{self.pk}"

    @property
    def shown_id(self) -> str:
        return f"bn_{self.public_id}_…"

    def refusal_at(self, now: datetime) -> str | None:
        """Why this token no longer acts, or None while it does."""
        if self.revoked_at is not None:
            return f"This token ({self.shown_id}) was revoked."
        if self.expires_at <= now:
            return f"This token ({self.shown_id}) expired on {self.expires_at:%Y-%m-%d %H:%M} UTC."
        if not self.user.is_active:
            return "The account this token acts for is disabled."
        return None


class TokenUse(models.Model):
    """When and from where a token was last used: bookkeeping kept apart from the token, so a program's
    requests move no content version (shown only on its owner's account page, which is never cached)."""

    token = models.OneToOneField(AccessToken, primary_key=True, on_delete=models.CASCADE, related_name="use")
    at = models.DateTimeField()
    address = models.GenericIPAddressField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.token} used {self.at:%Y-%m-%d %H:%M}"


class IdempotentAnswer(models.Model):
    """The first answer to an API write sent with an ``Idempotency-Key``, given again to any retry with that key
    (see ``blognomic.community.api.idempotency``). Kept a day."""

    # Whose key: a hash of the Authorization header for a token, the account for a browser session.
    caller = models.CharField(max_length=80)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, path and body.")
    created_at = models.DateTimeField(db_index=True)
    # None while the first request is still being answered.
    status = models.PositiveSmallIntegerField(null=True)
    content_type = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=500, blank=True)
    body = models.BinaryField(default=b"")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["caller", "key"], name="one_answer_per_key")]

    def __str__(self) -> str:
        return f"{self.key} → {self.status}"
