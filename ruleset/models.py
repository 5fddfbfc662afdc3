"""Wiki pages and their append-only revisions. The Ruleset is one page; gamestate pages are others."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse

RULESET_SLUG = "ruleset"


class Page(models.Model):
    RULESET = "ruleset"
    GAMESTATE = "gamestate"
    ORDINARY = "page"
    KIND_CHOICES = [(RULESET, "Ruleset"), (GAMESTATE, "Gamestate"), (ORDINARY, "Ordinary page")]

    title = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=200, unique=True, allow_unicode=True)
    kind = models.CharField(
        max_length=10,
        choices=KIND_CHOICES,
        default=ORDINARY,
        help_text="The Ruleset and gamestate pages may be edited only by admins; ordinary pages by any player.",
    )
    protected = models.BooleanField(default=False, help_text="Only admins may edit a protected page.")
    current = models.ForeignKey(
        "Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("wiki_page", args=[self.slug])


class RevisionQuerySet(models.QuerySet):
    def as_of(self, moment: datetime) -> Revision | None:
        return self.filter(at__lte=moment).order_by("-number").first()


class Revision(models.Model):
    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="revisions"
    )
    at = models.DateTimeField()
    summary = models.CharField(max_length=300, blank=True)
    text = models.TextField(blank=True)
    size = models.PositiveIntegerField(default=0)
    post = models.ForeignKey(
        "blognomic.Post",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="revisions",
        help_text="The post that caused this revision, for example the enacted proposal.",
    )

    objects = RevisionQuerySet.as_manager()

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["page", "number"], name="unique_revision_number")]

    def __str__(self) -> str:
        return f"{self.page} r{self.number}"

    def save(self, *args, **kwargs) -> None:
        self.size = len(self.text.encode("utf-8"))
        super().save(*args, **kwargs)
