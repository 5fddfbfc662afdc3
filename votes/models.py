"""Resolutions of votable matters: an append-only record of who enacted, failed or reopened what, and when."""

from django.conf import settings
from django.db import models


class Resolution(models.Model):
    ENACTED = "enacted"
    FAILED = "failed"
    VETOED = "vetoed"
    SELF_KILLED = "self-killed"
    REOPENED = "reopened"
    OUTCOME_CHOICES = [
        (ENACTED, "Enacted"),
        (FAILED, "Failed"),
        (VETOED, "Vetoed"),
        (SELF_KILLED, "Self-killed"),
        (REOPENED, "Reopened"),
    ]

    post = models.ForeignKey("blognomic.Post", on_delete=models.CASCADE, related_name="resolutions")
    outcome = models.CharField(max_length=12, choices=OUTCOME_CHOICES)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="resolutions",
        help_text="Empty when the system resolved it automatically.",
    )
    at = models.DateTimeField()
    note = models.TextField(blank=True, help_text="The admin field as written at resolution.")
    tally = models.JSONField(default=dict, blank=True, help_text="The final tally at resolution.")
    reason = models.TextField(blank=True, help_text="Why it was reopened (for example the CfJ that overturned it).")

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.post.slug} {self.outcome} at {self.at:%Y-%m-%d %H:%M}"
