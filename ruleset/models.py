"""Wiki pages and their append-only revisions. The Ruleset is one page; gamestate pages are others.

A revision is never edited or deleted: every save, revert and keyword replacement appends one with the
next per-page number, so ``/wiki/<slug>/r/<n>/`` is a permalink people can quote. For pages of kind
``ruleset`` each revision also records which rules it added, changed or removed (``RuleChange``), so a
rule's own history is one indexed query however long the page's history grows.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse

RULESET_SLUG = "ruleset"
RULESET_TITLE = "Ruleset"


class PageQuerySet(models.QuerySet):
    def with_current_summary(self) -> PageQuerySet:
        """Pages with their current revision and its author, without loading the revision's text."""
        return self.select_related("current", "current__author").defer("current__text")


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
        help_text="The Ruleset and gamestate pages may be edited only by admins; other pages by any player.",
    )
    protected = models.BooleanField(default=False, help_text="Only admins may edit a protected page.")
    current = models.ForeignKey(
        "Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    created_at = models.DateTimeField()

    objects = PageQuerySet.as_manager()

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("wiki_page", args=[self.slug])

    @property
    def is_ruleset(self) -> bool:
        """Whether the page is shown structured: the Ruleset itself and its dynasty snapshots."""
        return self.kind == self.RULESET

    @property
    def admins_only(self) -> bool:
        """Whether only admins (and the flows they run, such as enactment) may edit the page."""
        return self.protected or self.kind in (self.RULESET, self.GAMESTATE)


class RevisionIsImmutable(Exception):
    """A saved revision was about to be changed in place; history is append-only."""


class RevisionQuerySet(models.QuerySet):
    def as_of(self, at: datetime) -> Revision | None:
        """The revision that was current at ``at`` (the last one saved by then), or None."""
        return self.filter(at__lte=at).order_by("-at", "-number").first()

    def without_text(self) -> RevisionQuerySet:
        """Revisions for listings: author and post joined, the (possibly 1 MB) text left unloaded."""
        return self.select_related("author", "post").only(
            "id",
            "page_id",
            "number",
            "at",
            "summary",
            "size",
            "author__username",
            "post__slug",
            "post__title",
        )


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
        "votes.Post",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="revisions",
        help_text="The post that caused this revision, for example the enacted proposal.",
    )
    rules_indexed = models.BooleanField(
        default=False,
        editable=False,
        help_text="Whether the rules this revision changed are recorded; `manage.py index_rule_changes` "
        "records them for revisions loaded from an archive.",
    )

    objects = RevisionQuerySet.as_manager()

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["page", "number"], name="unique_revision_number")]
        indexes = [models.Index(fields=["page", "at", "number"], name="revision_page_at")]

    def __str__(self) -> str:
        return f"{self.page} r{self.number}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise RevisionIsImmutable(f"{self} was saved already; add a new revision instead.")
        self.size = len(self.text.encode("utf-8"))
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("wiki_revision", args=[self.page.slug, self.number])


class RuleChange(models.Model):
    """One rule that one revision of a ruleset page added, changed or removed.

    Rules are identified by anchor (a slug of the title), so renumbering alone is not a change. A rule
    whose title changed (renamed, or by an Ascension's keyword replacement) is recorded as removed under
    its old anchor and added under the new one, and the added row names the old anchor in
    ``previous_anchor``: following those links gives a rule one identity across its whole history.
    """

    ADDED = "added"
    CHANGED = "changed"
    REMOVED = "removed"
    KIND_CHOICES = [(ADDED, "Added"), (CHANGED, "Changed"), (REMOVED, "Removed")]

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="rule_changes")
    revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="rule_changes")
    anchor = models.CharField(max_length=255)
    kind = models.CharField(max_length=8, choices=KIND_CHOICES)
    number = models.CharField(max_length=40, help_text="The rule's number in this revision (or its last).")
    title = models.CharField(max_length=300)
    previous_anchor = models.CharField(
        max_length=255,
        blank=True,
        db_index=True,
        help_text="For a rule added under a new title: the anchor it had before (it is the same rule).",
    )

    class Meta:
        ordering = ["-revision__number"]
        constraints = [models.UniqueConstraint(fields=["revision", "anchor"], name="unique_rule_change")]
        indexes = [models.Index(fields=["page", "anchor", "revision"], name="rule_change_page_anchor")]

    def __str__(self) -> str:
        return f"{self.anchor} {self.kind} in {self.revision_id}"


class ProtectionChange(models.Model):
    """An admin protected or unprotected a page: the page's protection log."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="protection_changes")
    protected = models.BooleanField(help_text="The protection the page was given.")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.page} {'protected' if self.protected else 'unprotected'} at {self.at:%Y-%m-%d %H:%M}"
