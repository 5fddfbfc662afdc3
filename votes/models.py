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
from django.db.models import Exists, OuterRef, Prefetch
from django.urls import reverse

from dynasties.phases import PHASE_CHOICES
from votes import effects, matter_kind_rules
from votes.markup import render_markdown

MAX_BODY_BYTES = 100 * 1024


class Kind(models.TextChoices):
    PROPOSAL = "proposal", "Proposal"
    CFJ = "cfj", "Call for Judgement"
    DOV = "dov", "Declaration of Victory"
    STORY = "story", "Story Post"
    ASCENSION = "ascension", "Ascension Address"
    POST = "post", "Post"
    MATTER = "matter", "Votable matter"  # of a kind the dynasty defined (a Petition); see MatterKind


# Each category's own plural, for headings ("Calls for Judgement", not "Call for Judgements").
KIND_PLURALS = {
    Kind.PROPOSAL: "Proposals",
    Kind.CFJ: "Calls for Judgement",
    Kind.DOV: "Declarations of Victory",
    Kind.STORY: "Story Posts",
    Kind.ASCENSION: "Ascension Addresses",
    Kind.POST: "Posts",
    Kind.MATTER: "Votable matters",
}
VOTABLE_KINDS = (Kind.PROPOSAL, Kind.CFJ, Kind.DOV, Kind.MATTER)
OFFICIAL_KINDS = (Kind.PROPOSAL, Kind.CFJ, Kind.DOV, Kind.ASCENSION, Kind.MATTER)
KIND_SLUGS = {
    "proposals": Kind.PROPOSAL,
    "calls-for-judgement": Kind.CFJ,
    "declarations-of-victory": Kind.DOV,
    "story-posts": Kind.STORY,
    "ascension-addresses": Kind.ASCENSION,
    "posts": Kind.POST,
    "votable-matters": Kind.MATTER,
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
    def shown(self) -> PostQuerySet:
        """Posts not hidden by an admin: what every listing, feed, search, the API and the statistics show."""
        return self.filter(hidden_at__isnull=True)

    def hidden(self) -> PostQuerySet:
        return self.filter(hidden_at__isnull=False)

    def votable(self) -> PostQuerySet:
        return self.filter(kind__in=VOTABLE_KINDS)

    def counting_towards_limits(self) -> PostQuerySet:
        """Proposals, and the dynasty's own kinds of matter, that count towards proposal limits."""
        return self.filter(
            models.Q(kind=Kind.PROPOSAL, matter_kind__isnull=True)
            | models.Q(kind__in=(Kind.PROPOSAL, Kind.MATTER), matter_kind__counts_towards_limits=True)
        )

    def pending(self) -> PostQuerySet:
        return self.votable().filter(status=Status.PENDING)

    def played_here(self) -> PostQuerySet:
        """Posts written on this site, not brought in from another (``imported_at``)."""
        return self.filter(imported_at__isnull=True)

    def recently_resolved(self) -> PostQuerySet:
        """Matters resolved here and not reopened since, newest first, each once however often it was resolved.
        A matter resolved on the site it was imported from is left out: its result stands (the admin panel
        offers to reopen these).

        Tested with EXISTS rather than joined and made DISTINCT: over ten times the history the join sorted
        every resolved matter's columns to keep the newest few."""
        resolved = Resolution.objects.filter(post=OuterRef("pk"), imported_at__isnull=True)
        return self.votable().exclude(status=Status.PENDING).filter(Exists(resolved)).order_by("-posted_at", "-pk")

    def for_listing(self) -> PostQuerySet:
        return self.select_related("author", "dynasty", "matter_kind")

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
        null=True,
        blank=True,
        editable=False,
        help_text="When it had been pending more than seven days (2016): skipped for 'oldest', failable.",
    )
    carried_out_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When an admin said this enacted matter's effects were carried out by other means (or needed no "
        "Ruleset change): the admin panel stops asking for a Ruleset revision that cites it.",
    )
    matter_kind = models.ForeignKey(
        "votes.MatterKind",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="posts",
        help_text="The dynasty's own kind of matter this is (a Petition, a Town Meeting), set from its title.",
    )
    imported_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When it was brought in from another site (a WordPress export): an imported resolved matter keeps "
        "the result recorded there and is never reopened, re-judged or announced. Empty: posted here.",
    )

    hidden_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When an admin hid this post from the site (an imported post that should not be shown); "
        "empty: shown. Hidden, it is in no listing, feed, search, statistic or API answer, and only admins "
        "may open its page.",
    )
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+", editable=False
    )

    objects = PostQuerySet.as_manager()
    # Not a field: a listing sets it on the posts of its page (``with_comment_counts``) in one query.
    comment_count: int

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

    def keeps_recorded_result(self, latest: Resolution | None) -> bool:
        """Whether this is an imported matter resolved where it came from (``latest``, its latest resolution,
        was imported too, or it has none): its result stands as recorded there, never reopened, re-judged or
        voted on here. A matter imported pending and resolved here is like any other."""
        return self.imported_at is not None and self.is_resolved and (latest is None or latest.imported_at is not None)

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


class CommentQuerySet(models.QuerySet):
    def shown(self) -> CommentQuerySet:
        """Comments on posts not hidden by an admin (``PostQuerySet.shown``)."""
        return self.filter(post__hidden_at__isnull=True)


class Comment(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="comments")
    at = models.DateTimeField(db_index=True)
    icon = models.CharField(max_length=12, choices=Icon.choices, blank=True, null=True)  # noqa: DJ001 - null: no icon
    trivial = models.BooleanField(default=False, help_text="2005 profile: a FOR vote marked Trivial.")
    text = models.TextField(blank=True)
    text_html = models.TextField(blank=True, editable=False)
    imported_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="When it was brought in from another site. Empty: made here."
    )

    objects = CommentQuerySet.as_manager()

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

    # A resolution records one of the outcomes, or that an admin reopened the matter: a record, not an outcome.
    REOPENED = "reopened"
    OUTCOME_CHOICES = [*Outcome.choices, (REOPENED, "Reopened")]

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
    imported_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When it was brought in from another site: its tally may hold the result recorded there "
        "(see votes.recorded). Empty: resolved here.",
    )

    class Meta:
        ordering = ["at", "pk"]
        # The admin panel asks for the matters enacted in the last week (enacted_awaiting_ruleset): without
        # it, every resolution of the game's history is read to find them.
        indexes = [models.Index(fields=["at"], name="resolution_at")]

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

    The operations are plain JSON (see ``blognomic.flows.amendments``): votes stores them with the post and
    says when the post is enacted; the layer above checks, shows and applies them. They may be changed
    only while the post itself may be edited.
    """

    post = models.OneToOneField(Post, on_delete=models.CASCADE, related_name="amendment")
    operations = models.JSONField(default=list, help_text="The operations, in the order they apply.")
    digest = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the operations.")
    base_ruleset_revision = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The Ruleset revision the amendment was written against; rules are followed from there.",
    )
    written_at = models.DateTimeField(help_text="When the operations were last written.")

    def __str__(self) -> str:
        return f"Amendment of {self.post.slug} ({len(self.operations)} operations)"

    def save(self, *args, **kwargs) -> None:
        self.digest = amendment_digest(self.operations)
        super().save(*args, **kwargs)


class MatterKindQuerySet(models.QuerySet):
    def in_force(self, dynasty) -> MatterKindQuerySet:
        return self.filter(dynasty=dynasty, retired_at__isnull=True)


class MatterKind(models.Model):
    """A kind of votable matter a dynasty's rules define (see ``votes.matter_kind_rules``), recorded citing the enacted
    Proposal that defined it. Never edited: a change retires it and defines a new one."""

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="matter_kinds")
    name = models.CharField(max_length=60, help_text="As the dynastic rule names it: “Petition”, “Town Meeting”.")
    base = models.CharField(
        max_length=8,
        choices=[("proposal", "A kind of Proposal (queues like one)"), ("matter", "A category of its own")],
        default="matter",
    )
    subject_rule = models.CharField(
        max_length=8, choices=[("prefix", "The title starts with"), ("phrase", "The title includes")], default="prefix"
    )
    subject_text = models.CharField(max_length=60, help_text="“Petition:” or “Town Meeting”.")
    posters = models.CharField(
        max_length=12,
        default="any",
        choices=[
            ("any", "Any active player"),
            ("not_emperor", "Any active player but the Emperor"),
            ("emperor", "The Emperor alone"),
            ("filter", "Players whose GNDT values pass the conditions"),
        ],
    )
    posters_filter = models.JSONField(
        default=list, blank=True, help_text='Conditions: [{"column": "Alive", "op": "=", "value": "Yes"}].'
    )
    electorate = models.CharField(
        max_length=12,
        default="any",
        choices=[
            ("any", "Every active player"),
            ("emperor", "The Emperor alone"),
            ("filter", "Players whose GNDT values pass the conditions"),
        ],
    )
    electorate_filter = models.JSONField(
        default=list,
        blank=True,
        help_text='Conditions, all of which must hold: [{"column": "Occupation", "op": "≠", "value": "Prisoner"}].',
    )
    quorum = models.CharField(
        max_length=8,
        default="profile",
        choices=[
            ("profile", "The profile's: half the active players, rounded down, plus one"),
            ("eligible", "Half the eligible voters, rounded down, plus one"),
        ],
    )
    resolution = models.CharField(
        max_length=8,
        default="core",
        choices=[
            ("core", "By the core rules of Proposals"),
            ("verdict", "A verdict after some hours: approved, rejected or ignored"),
        ],
    )
    verdict_hours = models.PositiveIntegerField(null=True, blank=True, help_text="For a verdict: after how many hours.")
    veto = models.CharField(
        max_length=8,
        default="profile",
        choices=[
            ("profile", "As the profile says for its base"),
            ("none", "Nobody"),
            ("emperor", "The Emperor, even without a vote on it"),
            ("filter", "Players whose GNDT values pass"),
        ],
    )
    veto_filter = models.JSONField(default=list, blank=True)
    counts_towards_limits = models.BooleanField(default=True, help_text="Counts towards proposal limits.")
    phase = models.CharField(
        max_length=20,
        blank=True,
        choices=[("", "Any time"), *((name, f"Only during the {name}") for name in PHASE_CHOICES)],
        help_text="May be posted only during this phase of the game's calendar (Daytime: even-numbered days of "
        "the month, UTC; Nighttime: odd ones). Empty: at any time.",
    )
    proposal = models.ForeignKey(
        Post, on_delete=models.PROTECT, related_name="+", help_text="The enacted Proposal that defined it."
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    retired_at = models.DateTimeField(null=True, blank=True)
    retired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    retired_because = models.ForeignKey(
        Post,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The enacted Proposal that removed it.",
    )

    objects = MatterKindQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def definition_fields(spec) -> dict:
        """The model's fields a definition fills: the inverse of ``spec()``, for every way a kind is written."""
        return {
            "name": spec.name,
            "base": spec.base,
            "subject_rule": spec.subject_rule,
            "subject_text": spec.subject_text,
            "posters": spec.posters,
            "posters_filter": matter_kind_rules.conditions_as_json(spec.posters_filter),
            "electorate": spec.electorate,
            "electorate_filter": matter_kind_rules.conditions_as_json(spec.electorate_filter),
            "quorum": spec.quorum,
            "resolution": spec.resolution,
            "verdict_hours": spec.verdict_hours,
            "veto": spec.veto,
            "veto_filter": matter_kind_rules.conditions_as_json(spec.veto_filter),
            "counts_towards_limits": spec.counts_towards_limits,
            "phase": spec.phase,
        }

    def spec(self):
        """The pure definition (``votes.matter_kind_rules.KindSpec``)."""
        return matter_kind_rules.KindSpec(
            id=self.pk,
            name=self.name,
            base=self.base,
            subject_rule=self.subject_rule,
            subject_text=self.subject_text,
            posters=self.posters,
            posters_filter=matter_kind_rules.conditions_from(self.posters_filter),
            electorate=self.electorate,
            electorate_filter=matter_kind_rules.conditions_from(self.electorate_filter),
            quorum=self.quorum,
            resolution=self.resolution,
            verdict_hours=self.verdict_hours,
            veto=self.veto,
            veto_filter=matter_kind_rules.conditions_from(self.veto_filter),
            counts_towards_limits=self.counts_towards_limits,
            phase=self.phase,
        )


class MatterEffect(models.Model):
    """A change to the GNDT that resolving a matter makes under a dynasty's rules (see ``votes.effects``),
    recorded citing the enacted Proposal that defined it. Never edited: a change retires it."""

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="matter_effects")
    label = models.CharField(max_length=120, help_text="Shown to the admin and in the GNDT log: “proposer's reward”.")
    core_kind = models.CharField(
        max_length=8,
        blank=True,
        choices=[("proposal", "Proposals"), ("cfj", "Calls for Judgement"), ("dov", "Declarations of Victory")],
    )
    matter_kind = models.ForeignKey(
        MatterKind,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="effects",
        help_text="Or one of the dynasty's own kinds.",
    )
    when = models.CharField(
        max_length=8,
        default="enacted",
        choices=[("enacted", "On enactment"), ("failed", "On failure"), ("either", "On either")],
    )
    target = models.CharField(
        max_length=12,
        default="author",
        choices=[
            ("author", "Its author"),
            ("admin", "The admin who resolves it"),
            ("non_voters", "Every active player who did not vote on it"),
        ],
    )
    column = models.CharField(max_length=60, help_text="The GNDT column (whole numbers) it changes.")
    amount = models.IntegerField(help_text="Added to the value; negative to take away.")
    trivial_amount = models.IntegerField(null=True, blank=True, help_text="Instead, when the matter is Trivial.")
    optional = models.BooleanField(default=False, help_text="The admin chooses it when resolving (a checkbox).")
    after_hours = models.PositiveIntegerField(
        null=True, blank=True, help_text="Only when it was pending more than this many hours."
    )
    not_if_vetoed_or_self_killed = models.BooleanField(default=False)
    proposal = models.ForeignKey(
        Post, on_delete=models.PROTECT, related_name="+", help_text="The enacted Proposal that defined it."
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    retired_at = models.DateTimeField(null=True, blank=True)

    objects = MatterKindQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return self.label

    @staticmethod
    def definition_fields(spec) -> dict:
        """The model's fields a definition fills: the inverse of ``spec()``, for every way an effect is written."""
        return {
            "label": spec.label,
            "core_kind": spec.core_kind,
            "when": spec.when,
            "target": spec.target,
            "column": spec.column,
            "amount": spec.amount,
            "trivial_amount": spec.trivial_amount,
            "optional": spec.optional,
            "after_hours": spec.after_hours,
            "not_if_vetoed_or_self_killed": spec.not_if_vetoed_or_self_killed,
        }

    def spec(self):
        """The pure definition (``votes.effects.EffectSpec``)."""
        return effects.EffectSpec(
            id=self.pk,
            label=self.label,
            column=self.column,
            amount=self.amount,
            target=self.target,
            when=self.when,
            trivial_amount=self.trivial_amount,
            optional=self.optional,
            after_hours=self.after_hours,
            not_if_vetoed_or_self_killed=self.not_if_vetoed_or_self_killed,
            core_kind=self.core_kind,
            kind_id=self.matter_kind_id,
        )
