"""Posts in their categories, the comments on them (a vote is a comment with an icon) and resolutions.

Posts and comments keep the tables they were created with (``blognomic_post``, ``blognomic_comment``):
they moved here from the blog app when votes became the layer that owns them.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Prefetch
from django.urls import reverse

from votes.markup import render_markdown

MAX_BODY_BYTES = 100 * 1024


class Kind(models.TextChoices):
    PROPOSAL = "proposal", "Proposal"
    CFJ = "cfj", "Call for Judgement"
    DOV = "dov", "Declaration of Victory"
    STORY = "story", "Story Post"
    ASCENSION = "ascension", "Ascension Address"
    POST = "post", "Post"


# Each category's own plural, for headings ("Calls for Judgement", not "Call for Judgements").
KIND_PLURALS = {
    Kind.PROPOSAL: "Proposals",
    Kind.CFJ: "Calls for Judgement",
    Kind.DOV: "Declarations of Victory",
    Kind.STORY: "Story Posts",
    Kind.ASCENSION: "Ascension Addresses",
    Kind.POST: "Posts",
}
VOTABLE_KINDS = (Kind.PROPOSAL, Kind.CFJ, Kind.DOV)
OFFICIAL_KINDS = (Kind.PROPOSAL, Kind.CFJ, Kind.DOV, Kind.ASCENSION)
KIND_SLUGS = {
    "proposals": Kind.PROPOSAL,
    "calls-for-judgement": Kind.CFJ,
    "declarations-of-victory": Kind.DOV,
    "story-posts": Kind.STORY,
    "ascension-addresses": Kind.ASCENSION,
    "posts": Kind.POST,
}


class Status(models.TextChoices):
    PENDING = "pending", "Pending"
    ENACTED = "enacted", "Enacted"
    FAILED = "failed", "Failed"
    NONE = "", "Not votable"


class Outcome(models.TextChoices):
    ENACTED = "enacted", "Enacted"
    FAILED = "failed", "Failed"
    VETOED = "vetoed", "Vetoed"
    SELF_KILLED = "self-killed", "Self-killed"


class Icon(models.TextChoices):
    FOR = "for", "FOR"
    AGAINST = "against", "AGAINST"
    DEFERENTIAL = "deferential", "DEFERENTIAL"
    VETO = "veto", "VETO"


class PostQuerySet(models.QuerySet):
    def votable(self) -> PostQuerySet:
        return self.filter(kind__in=VOTABLE_KINDS)

    def pending(self) -> PostQuerySet:
        return self.votable().filter(status=Status.PENDING)

    def for_listing(self) -> PostQuerySet:
        return self.select_related("author", "dynasty")

    def with_comments(self) -> PostQuerySet:
        return self.prefetch_related(
            Prefetch("comments", queryset=Comment.objects.select_related("author").order_by("at", "pk"))
        )


class Post(models.Model):
    slug = models.SlugField(max_length=200, unique=True, allow_unicode=True)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.POST)
    title = models.CharField(max_length=300)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="posts")
    posted_at = models.DateTimeField(db_index=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    dynasty = models.ForeignKey(
        "dynasties.Dynasty", null=True, blank=True, on_delete=models.SET_NULL, related_name="posts"
    )
    body = models.TextField(blank=True, help_text="Markdown. This is the post.")
    body_html = models.TextField(blank=True, editable=False)
    flavour = models.TextField(
        blank=True, help_text="Flavour text: shown with the post but not part of it (it changes no rules)."
    )
    flavour_html = models.TextField(blank=True, editable=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.NONE, blank=True)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)
    admin_note = models.TextField(
        "admin field", blank=True, help_text="Filled in on resolution: who resolved it, when and the final tally."
    )
    trivial = models.BooleanField(default=False, help_text="2005 profile: a Trivial proposal.")
    sticky = models.BooleanField(default=False, help_text="Story posts only: keep at the top of the front page.")
    anonymous = models.BooleanField(
        default=False, help_text="2008: a Call for Judgement posted anonymously shows no author to anyone."
    )
    enactable_since = models.DateTimeField(null=True, blank=True, editable=False)
    failable_since = models.DateTimeField(null=True, blank=True, editable=False)
    stale_since = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text="When it had been pending more than seven days (2016): skipped for 'oldest', failable.",
    )

    objects = PostQuerySet.as_manager()

    class Meta:
        ordering = ["-posted_at", "-pk"]
        db_table = "blognomic_post"
        # Listings read newest first with the primary key breaking ties: a category's page walks
        # (kind, posted_at, pk) backwards and stops after one page instead of sorting every post of the kind.
        indexes = [
            models.Index(fields=["kind", "status", "posted_at"]),
            models.Index(fields=["author", "posted_at"]),
            models.Index(fields=["kind", "-posted_at", "-id"], name="post_kind_newest_first"),
            models.Index(fields=["-posted_at", "-id"], name="post_newest_first"),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs) -> None:
        self.body_html = render_markdown(self.body)
        self.flavour_html = render_markdown(self.flavour)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("post_detail", args=[self.slug])

    @property
    def is_votable(self) -> bool:
        return self.kind in VOTABLE_KINDS

    @property
    def is_pending(self) -> bool:
        return self.status == Status.PENDING

    @property
    def is_resolved(self) -> bool:
        return self.status in (Status.ENACTED, Status.FAILED)

    @property
    def subject(self) -> str:
        return title_subject(self.title)

    @property
    def display_status(self) -> str:
        """What players call the state: Pending, Enacted, Failed, Vetoed or Illegal (self-killed)."""
        if self.outcome == Outcome.VETOED:
            return "Vetoed"
        if self.outcome == Outcome.SELF_KILLED:
            return "Illegal (self-killed)"
        return self.get_status_display() if self.status else ""

    def open_hours(self, now: datetime) -> float:
        return max(0.0, (now - self.posted_at).total_seconds() / 3600)


def title_subject(title: str) -> str:
    """The subject of a post is the part of its title after the first colon (the whole title if none)."""
    _, colon, rest = title.partition(":")
    return rest.strip() if colon else title.strip()


class Comment(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="comments")
    at = models.DateTimeField(db_index=True)
    icon = models.CharField(max_length=12, choices=Icon.choices, blank=True, null=True)  # noqa: DJ001 - null: no icon
    trivial = models.BooleanField(default=False, help_text="2005 profile: a FOR vote marked Trivial.")
    text = models.TextField(blank=True)
    text_html = models.TextField(blank=True, editable=False)

    class Meta:
        db_table = "blognomic_comment"
        ordering = ["at", "pk"]
        # (author, at) serves a player's page and the idle check: their latest comments without a sort.
        indexes = [models.Index(fields=["post", "at"]), models.Index(fields=["author", "at"])]

    def __str__(self) -> str:
        return f"{self.author} on {self.post.slug} at {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs) -> None:
        self.text_html = render_markdown(self.text)
        super().save(*args, **kwargs)


class Resolution(models.Model):
    """An append-only record of who enacted, failed or reopened a matter, and when."""

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

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="resolutions")
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


AMENDABLE_KINDS = (Kind.PROPOSAL, Kind.CFJ)
"""Matters that may carry an amendment: what they change is applied when they are enacted."""


def amendment_digest(operations: list) -> str:
    """A fingerprint of an amendment's operations: the same operations always give the same digest."""
    canonical = json.dumps(operations, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Amendment(models.Model):
    """The exact change a Proposal or Call for Judgement makes, as a list of typed operations.

    The operations are plain JSON (see ``blognomic.amendments``): votes stores them with the post and
    says when the post is enacted; the layer above checks, shows and applies them. They may be changed
    only while the post itself may be edited.
    """

    post = models.OneToOneField(Post, on_delete=models.CASCADE, related_name="amendment")
    operations = models.JSONField(default=list, help_text="The operations, in the order they apply.")
    digest = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the operations.")
    base_ruleset_revision = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="The Ruleset revision the amendment was written against; rules are followed from there.",
    )
    written_at = models.DateTimeField(help_text="When the operations were last written.")

    def __str__(self) -> str:
        return f"Amendment of {self.post.slug} ({len(self.operations)} operations)"

    def save(self, *args, **kwargs) -> None:
        self.digest = amendment_digest(self.operations)
        super().save(*args, **kwargs)
