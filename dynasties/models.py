"""Players, dynasties and the game itself.

Every player is a Django user whose username is the player's name. Accounts that never joined the game
(spectators, former players in imported archives) are users too, with ``joined_at`` empty: they may comment
but never have a vote. Idling and leaving are recorded as ``Absence`` spans so that who was active at any past
moment can be answered, which historical tallies need.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from functools import lru_cache

from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Exists, Func, OuterRef, Q, Subquery
from django.db.models.functions import Lower
from django.urls import get_script_prefix, reverse
from django.utils.deconstruct import deconstructible

from dynasties import chat_formats, names
from dynasties.profiles import get_profile, in_force_at, with_overrides
from dynasties.theming import DEFAULT_PALETTE, DEFAULT_VOTE_LABELS, HEADER_LINE_MAX, PALETTES, VOTE_LABEL_MAX, Theme

PROFILE_CHOICES = [
    ("2005", "2005 (Ruleset 21)"),
    ("2008", "2008 (Rulesets 50 and 52)"),
    ("2016", "2016 (2015 ruleset and Ruleset 142)"),
]


@deconstructible
class PlayerNameValidator:
    """Player names are free text ("Seventy-Fifth Trombone", "ais523") in Unicode's normal form (NFKC), with no
    slash, control, invisible or direction-changing character (``dynasties.names`` says why)."""

    message = "A name may not be blank, start or end with a space, or contain '/', control or invisible characters."

    def __call__(self, value: str) -> None:
        problem = names.name_problem(value) if isinstance(value, str) else self.message
        if problem is not None:
            raise ValidationError(problem, code="invalid")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerNameValidator)


class UserQuerySet(models.QuerySet):
    def lookalike(self, name: str) -> str | None:
        """The name of an account here that a reader could take ``name`` for (same confusable skeleton)."""
        key = names.lookalike_key(name)
        for other in self.values_list("username", flat=True).iterator():
            if names.lookalike_key(other) == key:
                return other
        return None

    def players(self) -> UserQuerySet:
        """Everyone who has joined the game at some point."""
        return self.filter(joined_at__isnull=False)

    def active_at(self, at: datetime) -> UserQuerySet:
        """Players who had joined by ``at`` and were neither idle nor gone then."""
        away = Absence.objects.filter(user=OuterRef("pk"), started_at__lte=at).filter(
            Q(ended_at__isnull=True) | Q(ended_at__gt=at)
        )
        return self.filter(joined_at__lte=at).exclude(Exists(away))


class PlayerManager(UserManager.from_queryset(UserQuerySet)):
    """Django's user manager (create_user, createsuperuser) with the roster's queryset methods."""


def new_feed_token() -> str:
    """The secret part of a private feed's address."""
    return secrets.token_urlsafe(32)


class User(AbstractUser):
    username_validator = PlayerNameValidator()

    username = models.CharField(
        "name",
        max_length=150,
        unique=True,
        validators=[username_validator],
        help_text="The player's name as shown everywhere in the game. Spaces and punctuation are allowed.",
        error_messages={"unique": "A player or account with that name already exists."},
    )
    joined_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When this account became a player. Empty for accounts that never joined (spectators).",
    )
    notices_feed_token = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        editable=False,
        help_text="The secret part of the address of this player's private feed of notices (empty: none yet).",
    )
    is_admin = models.BooleanField(
        "game admin",
        default=False,
        help_text="Game admins resolve votable matters, update the ruleset and manage the roster.",
    )
    # AbstractUser's ``email`` holds the confirmed address only, so nothing is ever mailed to an address its
    # owner has not shown they read.
    email_pending = models.EmailField(
        "address to confirm",
        blank=True,
        help_text="An address the player gave but has not confirmed yet; only the confirmation link goes there.",
    )

    objects = PlayerManager()

    class Meta:
        ordering = [Lower("username"), "username"]
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=~Q(email=""),
                name="one_account_per_email",
                violation_error_message="That address belongs to another account.",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    def save(self, *args, **kwargs):
        # A new password, by whatever way it was set (the player's form, a reset, Django's admin, the
        # changepassword command), moves the private feed to a new address: whoever learnt the old address
        # with the old password reads no more. Django leaves _password unset for a hash upgrade on login,
        # which changes no password.
        if self._password is not None and self.notices_feed_token:
            self.notices_feed_token = new_feed_token()
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "notices_feed_token"}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.username

    @property
    def is_player(self) -> bool:
        return self.joined_at is not None

    def get_absolute_url(self) -> str:
        return player_url(get_script_prefix(), self.username)


@lru_cache(maxsize=4096)
def player_url(prefix: str, username: str) -> str:
    """A player's page address, worked out once per name: a busy page links its players hundreds of times
    (the sidebar, every author and voter), and reversing a URL costs about as much as rendering the link.
    The prefix is part of the key because the address is under it; the URLs themselves never change while
    the site runs."""
    return reverse("player_detail", args=[username])


class Absence(models.Model):
    """A span during which a player was idle or had left the game. Open spans have no end."""

    IDLE = "idle"
    LEFT = "left"
    KIND_CHOICES = [(IDLE, "Idle"), (LEFT, "Left the game")]

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="absences")
    kind = models.CharField(max_length=8, choices=KIND_CHOICES, default=IDLE)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    dynasty = models.ForeignKey(
        "Dynasty",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        help_text="The dynasty in which the span started; unidling restores values only within it.",
    )

    class Meta:
        ordering = ["started_at"]
        indexes = [models.Index(fields=["user", "started_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} from {self.started_at:%Y-%m-%d}"


class Game(models.Model):
    """The one game this site runs: its name, its rules profile and its settings."""

    name = models.CharField(max_length=100, default="BlogNomic")
    profile = models.CharField(
        max_length=4,
        choices=PROFILE_CHOICES,
        default="2016",
        help_text="The era of core rules the game runs under: limits, tallies, locks and hiatus follow it.",
    )
    auto_resolve = models.BooleanField(
        default=False,
        help_text="Resolve the oldest pending matter automatically as soon as it is legal.",
    )

    def __str__(self) -> str:
        return self.name

    def rules_profile(self, *, at: datetime | None = None):
        """The profile with the changes enacted proposals made to its parameters by ``at`` (all of them when
        None), latest last: the game at a past moment is judged by the rules then, not by later changes."""
        if not hasattr(self, "_rule_changes"):
            # Read once per instance, so a page judging many moments asks once.
            self._rule_changes = list(RuleChange.objects.order_by("at", "pk").values_list("at", "parameter", "value"))
        return with_overrides(get_profile(self.profile), in_force_at(self._rule_changes, at=at))

    @classmethod
    def load(cls) -> Game:
        """The game's one row, made on first use."""
        game, _ = cls.objects.get_or_create(pk=1)
        return game


class DynastyQuerySet(models.QuerySet):
    def with_ordinals(self) -> list[Dynasty]:
        """The dynasties, each knowing which of its Emperor's dynasties it is ("The Second Dynasty of …")."""
        dynasties = list(self.select_related("emperor").order_by("number"))
        seen: dict[int, int] = {}
        for dynasty in dynasties:
            if dynasty.emperor_id is not None:
                seen[dynasty.emperor_id] = seen.get(dynasty.emperor_id, 0) + 1
                dynasty.emperor_ordinal = seen[dynasty.emperor_id]
        return dynasties

    def with_ordinal(self) -> DynastyQuerySet:
        """Each dynasty with ``emperor_ordinal``, counted in the same query: every page names the current one."""
        earlier = Dynasty.objects.filter(emperor_id=OuterRef("emperor_id"), number__lte=OuterRef("number"))
        return self.annotate(emperor_ordinal=Subquery(earlier.order_by().values(n=Func("pk", function="COUNT"))[:1]))

    def running(self) -> DynastyQuerySet:
        """The dynasty not yet ended (the newest, were there two), with its Emperor and ordinal."""
        return self.filter(ended_at__isnull=True).order_by("-number").select_related("emperor").with_ordinal()[:1]

    def at(self, at: datetime) -> Dynasty | None:
        """The dynasty that was running at ``at`` (begun by then, not yet ended), with its Emperor."""
        return (
            self.filter(started_at__lte=at)
            .filter(models.Q(ended_at__isnull=True) | models.Q(ended_at__gt=at))
            .select_related("emperor")
            .with_ordinal()
            .order_by("-started_at", "-number")
            .first()
        )


class DynastyManager(models.Manager.from_queryset(DynastyQuerySet)):
    def current(self) -> Dynasty | None:
        """The dynasty not yet ended, with its Emperor and ordinal."""
        return self.running().first()


class Dynasty(models.Model):
    number = models.PositiveIntegerField(unique=True)
    emperor = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="dynasties_ruled",
        help_text="Leave empty for a Metadynasty.",
    )
    player_term = models.CharField(max_length=40, default="Player", help_text="What players are called.")
    player_term_plural = models.CharField(max_length=40, blank=True, help_text="Leave empty to add an 's'.")
    emperor_term = models.CharField(max_length=40, default="Emperor", help_text="What the Emperor is called.")
    theme = models.CharField(max_length=200, blank=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    declaration = models.ForeignKey(
        "votes.Post",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The enacted Declaration of Victory that began this dynasty.",
    )
    ascension_address = models.ForeignKey(
        "votes.Post",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    ascended_at = models.DateTimeField(
        null=True, blank=True, help_text="When the Ascension Address was posted; the hiatus ends then."
    )
    palette = models.CharField(
        max_length=20,
        default=DEFAULT_PALETTE,
        choices=list(PALETTES.items()),
        help_text="The colour scheme every page shows while this dynasty runs.",
    )
    header_line = models.CharField(
        max_length=HEADER_LINE_MAX, blank=True, help_text="A line under the site's name on every page."
    )
    vote_label_for = models.CharField(
        max_length=VOTE_LABEL_MAX, blank=True, help_text="What the tally calls FOR. Empty: FOR."
    )
    vote_label_against = models.CharField(
        max_length=VOTE_LABEL_MAX, blank=True, help_text="What the tally calls AGAINST. Empty: AGAINST."
    )
    vote_label_deferential = models.CharField(
        max_length=VOTE_LABEL_MAX, blank=True, help_text="What the tally calls DEFERENTIAL. Empty: DEFERENTIAL."
    )
    shows_variables = models.BooleanField(
        default=False,
        help_text="Kept by the GNDT: whether any game variable is shown, so pages without any ask nothing more.",
    )

    objects = DynastyManager()

    class Meta:
        ordering = ["-number"]
        verbose_name_plural = "dynasties"

    def __str__(self) -> str:
        return self.name

    @property
    def awaiting_ascension(self) -> bool:
        return self.declaration_id is not None and self.ascended_at is None

    def look(self) -> Theme:
        """The dynasty's palette, header line and vote-icon names (``dynasties.theming``)."""
        return Theme(
            palette=self.palette if self.palette in PALETTES else DEFAULT_PALETTE,
            header_line=self.header_line,
            vote_labels=(
                ("for", self.vote_label_for or DEFAULT_VOTE_LABELS["for"]),
                ("against", self.vote_label_against or DEFAULT_VOTE_LABELS["against"]),
                ("deferential", self.vote_label_deferential or DEFAULT_VOTE_LABELS["deferential"]),
            ),
        )

    @property
    def players_term(self) -> str:
        return self.player_term_plural or f"{self.player_term}s"

    @property
    def name(self) -> str:
        if self.emperor_id is None:
            return f"Metadynasty {self.number}"
        # The current dynasty, and a list of them, come with it (with_ordinal, with_ordinals): no query each.
        nth = (
            getattr(self, "emperor_ordinal", None)
            or Dynasty.objects.filter(emperor_id=self.emperor_id, number__lte=self.number).count()
        )
        return f"The {ordinal_word(nth)} Dynasty of {self.emperor}"


ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth"]


def ordinal_word(n: int) -> str:
    if 1 <= n <= len(ORDINALS):
        return ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Application(models.Model):
    """A request to join the game, held until an admin approves or rejects it."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    STATUS_CHOICES = [(PENDING, "Pending"), (APPROVED, "Approved"), (REJECTED, "Rejected")]

    name = models.CharField(max_length=150, validators=[PlayerNameValidator()])
    password_hash = models.CharField(max_length=256, help_text="Hashed; becomes the player's password.")
    email = models.EmailField(
        blank=True,
        help_text="Given when applying (optional); once approved, the player is "
        "asked to confirm it before anything else is mailed there.",
    )
    message = models.TextField(blank=True, help_text="What the applicant wrote about joining.")
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PENDING)
    decided_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-submitted_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class Rename(models.Model):
    """A player's change of name, made by an admin because a proposal allowed it."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="renames")
    old_name = models.CharField(max_length=150)
    new_name = models.CharField(max_length=150)
    by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    proposal = models.ForeignKey("votes.Post", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at"]

    def __str__(self) -> str:
        return f"{self.old_name} → {self.new_name}"


class Notification(models.Model):
    """A message for one user, shown on the site; ``key`` makes sending it twice impossible."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications")
    key = models.CharField(max_length=200)
    text = models.CharField(max_length=500)
    url = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="unique_notification_key")]

    def __str__(self) -> str:
        return self.text


class RuleChange(models.Model):
    """A change to one core-rule parameter, made by an admin because an enacted proposal said so."""

    parameter = models.CharField(max_length=60)
    value = models.JSONField(null=True, blank=True, help_text="The new value; null means none (no limit).")
    proposal = models.ForeignKey("votes.Post", on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.parameter} = {self.value!r}"


class NoticePreferences(models.Model):
    """What a player wants to be told, and whether by email too. A player with no row gets the defaults."""

    # (field, what the preferences page calls it, on by default)
    KINDS = [
        ("new_matter", "A new Proposal, Call for Judgement or Declaration of Victory is posted", True),
        ("closing_soon", "A matter I have not voted on may be resolved within 12 hours", True),
        ("own_resolved", "A matter I posted is enacted or failed", True),
        ("reply", "Someone comments after me on a post I commented on", False),
        ("mention", "Someone names me in a comment", True),
        ("resolvable", "(Admins) A matter may now be enacted or failed", True),
        ("message", "A private message arrives", True),
    ]

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="notice_preferences")
    new_matter = models.BooleanField(default=True)
    closing_soon = models.BooleanField(default=True)
    own_resolved = models.BooleanField(default=True)
    reply = models.BooleanField(default=False)
    mention = models.BooleanField(default=True)
    resolvable = models.BooleanField(default=True)
    message = models.BooleanField(default=True)
    by_email = models.BooleanField(default=True, help_text="Send each notice by email as well (if I gave an address).")
    daily_digest = models.BooleanField(
        default=False, help_text="Once a day, an email of the matters still waiting for my vote."
    )
    # Kind -> ISO moment it was last turned on; a kind on since the row began (or the defaults) has none.
    turned_on_at = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"Notice preferences of {self.user}"

    def turned_on_since(self, kind: str) -> datetime | None:
        """When ``kind`` was last turned on; None when it has been on all along (or is off)."""
        moment = (self.turned_on_at or {}).get(kind)
        return datetime.fromisoformat(moment) if moment else None

    @classmethod
    def defaults(cls) -> dict[str, bool]:
        return {name: on for name, _, on in cls.KINDS} | {"by_email": True, "daily_digest": False}


class Webhook(models.Model):
    """An address the admins set up to receive the game's public events as JSON (a chat bot relays them)."""

    url = models.URLField(max_length=500, help_text="http:// or https:// address that accepts a JSON POST.")
    format = models.CharField(
        max_length=8,
        choices=list(chat_formats.FORMATS.items()),
        default=chat_formats.PLAIN,
        help_text="What the receiver reads: our plain JSON, or a Discord or Slack message.",
    )
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event queued for one webhook: sent by a beat job, retried with back-off, then recorded as failed."""

    PENDING, SENT, FAILED = "pending", "sent", "failed"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(max_length=200)
    payload = models.JSONField()
    status = models.CharField(max_length=8, default=PENDING)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    next_attempt_at = models.DateTimeField(db_index=True)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="one_delivery_per_event")]

    def __str__(self) -> str:
        return f"{self.key} to {self.webhook} ({self.status})"


class EmailDigest(models.Model):
    """That a player's daily digest for a day was sent, so a second run of the job sends nothing."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_digest_a_day")]

    def __str__(self) -> str:
        return f"Digest for {self.user} on {self.day}"


class OutgoingMail(models.Model):
    """One mail on its way: written where the reason to send arose, sent by a beat job (or a worker at once),
    retried with back-off while the mail server is away, and kept as failed, with why, when it cannot go."""

    PENDING, SENT, FAILED = "pending", "sent", "failed"
    STATUS_CHOICES = [(PENDING, "Waiting to be sent"), (SENT, "Sent"), (FAILED, "Failed")]

    user = models.ForeignKey(User, null=True, on_delete=models.CASCADE, related_name="+")
    to = models.EmailField()
    kind = models.CharField(max_length=40, help_text="What the mail is: a notice's kind, digest, confirm, reset.")
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    secret = models.BooleanField(
        default=False,
        help_text="Holds a link that acts for the player (a password reset); its text is erased once sent or failed.",
    )
    status = models.CharField(max_length=8, choices=STATUS_CHOICES, default=PENDING)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    next_attempt_at = models.DateTimeField(db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="mail_due")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user or self.to} ({self.status})"
