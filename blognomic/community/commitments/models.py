"""Sealed commitments. The sealed text itself is not kept until its owner reveals it; the digest is public."""

from django.conf import settings
from django.db import models


class Seal(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seals")
    title = models.CharField(max_length=200, help_text="What the sealed text is, e.g. “Hole cards, hand 3”.")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the nonce, a newline and the text, in hex.")
    nonce = models.CharField(max_length=64, help_text="Kept secret until the reveal, then published.")
    sealed_at = models.DateTimeField(db_index=True)
    revealed_text = models.TextField(blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-sealed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.title} ({self.owner})"

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None
