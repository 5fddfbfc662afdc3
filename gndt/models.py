"""The GNDT: a dynasty's gamestate as typed columns, rows and cells, with an append-only change log.

A ``Cell`` holds the current value of one row in one column. Every change to a cell is written through
``gndt.services`` as a ``CellChange`` (old and new value) belonging to an ``Update`` (who, when, the comment,
any dice rolled), so the table as it stood at any moment can be rebuilt from the log. Updates are never
edited or deleted: an undo is a new update that points back at the one it reverses.

Declared actions (``Action``), time-driven adjustments (``ScheduledEffect`` and the ``EffectRun`` that
records each period applied) and the word lists drawn from by ``FRUIT``, ``COLOUR`` and the like
(``RandomListVersion``) belong to the GNDT too.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from dynasties.phases import PHASE_CHOICES, PHASE_RULES
from gndt import actions as action_rules
from gndt.schedule import WEEKDAYS, ScheduleSpec
from gndt.values import ColumnSpec


class ImmutableRecordError(Exception):
    """The log is append-only: an update or a cell change is never edited after it is written."""


# --- Secrets -----------------------------------------------------------------------------------------------
#
# A hidden column is secret state: everything about it (its name, settings, values, the changes to them and
# the scheduled effects on it) is shown only to those who may see its values. The rule lives here, as
# ``sees_hidden`` and one ``visible_to(viewer, dynasty)`` method on each queryset a page reads, so that every
# page filters the same way and in the database.
#
# A hidden column may also be *owner-visible* (``Column.owner_visible``): each player then sees the value in
# their own row and nothing else of it, as a Villager knows their own Role. To such a player the column
# exists (its heading, their own cell, the log entries that changed their own cell); every other row's value
# in it, and every update about it that changed nothing of theirs, stays as secret as any hidden column's.
# Only admins and the Emperor change it. ``sees_value`` is the per-cell rule; the querysets below apply the
# same rule in the database.
#
# Declaring one in code (a demo or a seed game)::
#
#     gndt_column_add(dynasty=d, by=admin, now=now, name="Role", kind=Column.CHOICE,
#                     choices=["Villager", "Werewolf"], hidden=True, owner_visible=True)


def sees_hidden(viewer, dynasty) -> bool:
    """Admins and the dynasty's Emperor see (and may change) hidden columns."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return False
    return bool(viewer.is_admin or (dynasty is not None and dynasty.emperor_id == viewer.pk))


def viewer_pk(viewer) -> int | None:
    """The account id of a logged-in viewer, None for a visitor."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    return viewer.pk


def sees_value(viewer, dynasty, column, row_user_id: int | None, *, privileged: bool | None = None) -> bool:
    """Whether ``viewer`` may see ``column``'s value in a row belonging to ``row_user_id`` (None: a row that
    is not a player's). ``privileged`` may pass ``sees_hidden`` already worked out, to save asking per cell."""
    if not column.hidden:
        return True
    if privileged is None:
        privileged = sees_hidden(viewer, dynasty)
    if privileged:
        return True
    pk = viewer_pk(viewer)
    return bool(column.owner_visible and pk is not None and row_user_id == pk)


class ColumnQuerySet(models.QuerySet):
    def visible_to(self, viewer, dynasty) -> ColumnQuerySet:
        """The columns ``viewer`` may know of: hidden ones only for admins and the Emperor, and owner-visible
        ones also for a player with a row in the column's dynasty."""
        if sees_hidden(viewer, dynasty):
            return self
        pk = viewer_pk(viewer)
        if pk is None:
            return self.filter(hidden=False)
        own_row = Row.objects.filter(dynasty=models.OuterRef("dynasty"), user_id=pk)
        return self.filter(Q(hidden=False) | Q(owner_visible=True) & models.Exists(own_row))

    def in_use(self) -> ColumnQuerySet:
        return self.filter(retired_at__isnull=True)

    def existing_at(self, at: datetime) -> ColumnQuerySet:
        """Columns that had been added by ``at`` and not yet removed."""
        return self.filter(Q(created_at__isnull=True) | Q(created_at__lte=at)).filter(
            Q(retired_at__isnull=True) | Q(retired_at__gt=at)
        )


class Column(models.Model):
    INTEGER = "integer"
    TEXT = "text"
    CHOICE = "choice"
    LIST = "list"
    PLAYER = "player"
    KIND_CHOICES = [
        (INTEGER, "Whole number"),
        (TEXT, "Text"),
        (CHOICE, "One of a list"),
        (LIST, "List"),
        (PLAYER, "A player"),
    ]

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_columns")
    name = models.CharField(max_length=60, help_text="The heading players see, as the dynastic rules name it.")
    kind = models.CharField(
        max_length=8,
        choices=KIND_CHOICES,
        default=TEXT,
        help_text="What a cell may hold. A list is comma-separated items; a player is a current player's name.",
    )
    minimum = models.IntegerField(
        null=True,
        blank=True,
        help_text="Whole numbers only: the lowest value allowed. Empty: 0, or no limit if negatives are allowed.",
    )
    maximum = models.IntegerField(null=True, blank=True, help_text="Whole numbers only: the highest value allowed.")
    allow_negative = models.BooleanField(default=False, help_text="Whole numbers only: may it go below zero?")
    clamp = models.BooleanField(
        default=False, help_text="Whole numbers only: hold values to the bounds instead of refusing them."
    )
    choices = models.JSONField(
        default=list,
        blank=True,
        help_text="A choice column: the allowed values. A list column: the allowed items (empty: any). "
        "A whole-number or player column: extra values allowed besides numbers or names, such as '-'.",
    )
    default = models.CharField(
        max_length=200,
        blank=True,
        help_text="The value a new player starts with. Empty: blank, or for numbers the allowed value nearest 0.",
    )
    order = models.PositiveIntegerField(default=0, help_text="Columns are shown left to right by this number.")
    hidden = models.BooleanField(default=False, help_text="Secret state: only the Emperor and admins see it.")
    owner_visible = models.BooleanField(
        default=False,
        help_text="Hidden columns only: each player also sees the value in their own row (a secret role), "
        "and nobody else's.",
    )
    description = models.CharField(
        max_length=300, blank=True, help_text="Shown as a tooltip on the heading: which rule defines it."
    )
    created_at = models.DateTimeField(
        null=True, blank=True, help_text="When the column was added; empty for a column there from the start."
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="When the column was removed; its history stays in the log."
    )

    objects = ColumnQuerySet.as_manager()

    class Meta:
        ordering = ["order", "pk"]
        # Unique regardless of case, so "Gold" and "gold" cannot be two columns a reader takes for one.
        constraints = [models.UniqueConstraint("dynasty", Lower("name"), name="unique_column_per_dynasty_any_case")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_numeric(self) -> bool:
        return self.kind == self.INTEGER

    def visible_to(self, viewer, dynasty=None) -> bool:
        """Whether ``viewer`` may know of this column (the same rule as ``Column.objects.visible_to``)."""
        dynasty = dynasty if dynasty is not None else self.dynasty
        if not self.hidden or sees_hidden(viewer, dynasty):
            return True
        pk = viewer_pk(viewer)
        return bool(self.owner_visible and pk is not None and Row.objects.filter(dynasty=dynasty, user_id=pk).exists())

    def spec(self) -> ColumnSpec:
        """The pure description of what this column's cells may hold (``gndt.values``)."""
        return ColumnSpec(
            name=self.name,
            kind=self.kind,
            minimum=self.minimum,
            maximum=self.maximum,
            allow_negative=self.allow_negative,
            clamp=self.clamp,
            choices=tuple(self.choices or ()),
            default=self.default if self.default != "" else None,
        )


class RowQuerySet(models.QuerySet):
    def in_use(self) -> RowQuerySet:
        return self.filter(retired_at__isnull=True)

    def existing_at(self, at: datetime) -> RowQuerySet:
        return self.filter(Q(created_at__isnull=True) | Q(created_at__lte=at)).filter(
            Q(retired_at__isnull=True) | Q(retired_at__gt=at)
        )


class Row(models.Model):
    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_rows")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="gndt_rows",
        help_text="Empty for rows that are not players, such as 'The Pot'.",
    )
    name = models.CharField(max_length=150)
    order = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(
        null=True, blank=True, help_text="When the row was added; empty for a row there from the start."
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="When the row was removed; its history stays in the log."
    )

    objects = RowQuerySet.as_manager()

    class Meta:
        ordering = ["order", Lower("name"), "name"]
        constraints = [models.UniqueConstraint("dynasty", Lower("name"), name="unique_row_per_dynasty_any_case")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_player(self) -> bool:
        return self.user_id is not None


class Cell(models.Model):
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="cells")
    column = models.ForeignKey(Column, on_delete=models.CASCADE, related_name="cells")
    value = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["row", "column"], name="unique_cell")]

    def __str__(self) -> str:
        return f"{self.row}/{self.column}={self.value}"


class Action(models.Model):
    """A named action of a dynastic rule and how often it may be taken ("as a daily action, …")."""

    FREQUENCY_CHOICES = [
        (action_rules.DAILY, "Daily: once a day per player"),
        (action_rules.WEEKLY, "Weekly: once a week per player"),
        (action_rules.DAILY_COMMUNAL, "Daily communal: one player a day"),
        (action_rules.WEEKLY_COMMUNAL, "Weekly communal: one player a week"),
        (action_rules.UNLIMITED, "Unlimited (only the weekly cap applies)"),
    ]

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_actions")
    name = models.CharField(max_length=80, help_text="As the dynastic rule names it, e.g. 'Buy a Map'.")
    frequency = models.CharField(max_length=16, choices=FREQUENCY_CHOICES, default=action_rules.DAILY)
    weekly_cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="At most this many times in a calendar week (Monday to Sunday, UTC). Empty: no cap. "
        "For a communal action the cap counts every player's performances.",
    )
    description = models.CharField(max_length=300, blank=True, help_text="Which rule defines it.")
    phase = models.CharField(
        max_length=20,
        blank=True,
        choices=[("", "Any time"), *((name, f"Only during the {name}") for name in PHASE_CHOICES)],
        help_text="Only during this phase of the game's calendar (Daytime: even-numbered days of the month, "
        "UTC; Nighttime: odd ones). Empty: at any time.",
    )
    retired_at = models.DateTimeField(null=True, blank=True, help_text="When the action stopped being offered.")

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["dynasty", "name"], name="unique_action_per_dynasty")]

    def __str__(self) -> str:
        return self.name

    def spec(self) -> action_rules.ActionSpec:
        return action_rules.ActionSpec(name=self.name, frequency=self.frequency, weekly_cap=self.weekly_cap)


class UpdateQuerySet(models.QuerySet):
    def visible_to(self, viewer, dynasty) -> UpdateQuerySet:
        """The updates ``viewer`` may see in ``dynasty``'s log.

        For those who may not see hidden columns, an update is left out when it is about a hidden column
        (an admin's change to one, or a scheduled effect's definition or run on one), or when every value it
        changed is in a hidden column. An update that changed visible values too is kept; its hidden changes
        are left out by ``CellChange.objects.visible_to``.

        For an owner-visible column, a player also sees the updates that changed their own value in it (an
        effect's run, say), with only that change.
        """
        if sees_hidden(viewer, dynasty):
            return self
        changes = CellChange.objects.filter(update=models.OuterRef("pk"))
        seen = models.Exists(changes.visible_to(viewer, dynasty))
        public_subject = Q(column__isnull=True) | Q(column__hidden=False)
        # Most dynasties hide no column, and then every update is visible: asked first, in the same query, this
        # spares the database the look at every update's changes, most of the log's query time.
        hides_nothing = ~models.Exists(Column.objects.filter(dynasty=dynasty, hidden=True))
        return self.filter(
            hides_nothing | public_subject & (~models.Exists(changes) | seen) | Q(column__owner_visible=True) & seen
        )

    def for_log(self) -> UpdateQuerySet:
        """Updates with what the log shows: who, the action, undo links, and each change's row and column."""
        return self.select_related("by", "action", "undoes", "post").prefetch_related(
            models.Prefetch("changes", queryset=CellChange.objects.select_related("row", "column")),
            models.Prefetch("undone_by", queryset=Update.objects.only("pk", "undoes_id", "at")),
        )


class Update(models.Model):
    """One logged change by one person: a comment, any dice rolled, and the cells it changed."""

    PLAYER = "player"
    UNDO = "undo"
    EFFECT = "effect"
    ADMIN = "admin"
    IMPORT = "import"
    SOURCE_CHOICES = [
        (PLAYER, "Player"),
        (UNDO, "Undo"),
        (EFFECT, "Scheduled effect"),
        (ADMIN, "Admin"),
        (IMPORT, "Imported"),
    ]

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_updates")
    # Indexed with the dynasty (Meta.indexes), which serves a look-up by person alone as well.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="gndt_updates",
        db_index=False,
    )
    at = models.DateTimeField(db_index=True)
    comment = models.TextField(blank=True)
    rolls = models.JSONField(default=list, blank=True)
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    action = models.ForeignKey(
        Action,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="performances",
        help_text="The declared action this update performs, if any.",
    )
    source = models.CharField(max_length=8, choices=SOURCE_CHOICES, default=PLAYER)
    column = models.ForeignKey(
        Column,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="updates_about",
        help_text="The column this update is about: an admin's change to it, or a scheduled effect on it. "
        "Whoever may not see a hidden column does not see the updates about it.",
    )
    post = models.ForeignKey(
        "votes.Post",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="gndt_updates",
        help_text="The enacted matter whose amendment made this update, if any.",
    )

    objects = UpdateQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["dynasty", "at"], name="gndt_update_dynasty_at"),
            # The log's menu of everyone who has updated asks, person by person, whether they have an update in
            # the dynasty: found in one step here, where the dynasty's index alone made SQLite read its whole
            # log for each person who has none (seconds a page over a long log; tests/test_gndt_page_queries.py).
            models.Index(fields=["by", "dynasty"], name="gndt_update_by_dynasty"),
        ]

    def __str__(self) -> str:
        return f"Update {self.pk} by {self.by or 'the system'} at {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableRecordError("A GNDT update is never changed once logged; undo it instead.")
        super().save(*args, **kwargs)


class CellChangeQuerySet(models.QuerySet):
    def visible_to(self, viewer, dynasty) -> CellChangeQuerySet:
        """Changes to visible columns, and to owner-visible ones in the viewer's own row."""
        if sees_hidden(viewer, dynasty):
            return self
        pk = viewer_pk(viewer)
        if pk is None:
            return self.filter(column__hidden=False)
        return self.filter(Q(column__hidden=False) | Q(column__owner_visible=True, row__user_id=pk))


class CellChange(models.Model):
    update = models.ForeignKey(Update, on_delete=models.CASCADE, related_name="changes")
    row = models.ForeignKey(Row, on_delete=models.PROTECT, related_name="changes")
    column = models.ForeignKey(Column, on_delete=models.PROTECT, related_name="changes")
    old = models.TextField(blank=True)
    new = models.TextField(blank=True)

    objects = CellChangeQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.row}/{self.column}: {self.old!r} → {self.new!r}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableRecordError("A logged cell change is never edited.")
        super().save(*args, **kwargs)


class ScheduledEffectQuerySet(models.QuerySet):
    def visible_to(self, viewer, dynasty) -> ScheduledEffectQuerySet:
        return self if sees_hidden(viewer, dynasty) else self.filter(column__hidden=False)


class ScheduledEffect(models.Model):
    """A recurring adjustment applied by Celery beat: "every Monday add 1 to Treasure, to at most 10"."""

    ONE_ROW = "row"
    PLAYERS = "players"
    ALL_ROWS = "all"
    TARGET_CHOICES = [(ONE_ROW, "One row"), (PLAYERS, "Every active player's row"), (ALL_ROWS, "Every row")]
    WEEKDAY_CHOICES = list(enumerate(WEEKDAYS))

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_effects")
    name = models.CharField(max_length=120, help_text="What players will read in the log, e.g. 'The Year turns'.")
    column = models.ForeignKey(
        Column, on_delete=models.PROTECT, related_name="effects", help_text="A whole-number column."
    )
    target = models.CharField(max_length=8, choices=TARGET_CHOICES, default=PLAYERS)
    row = models.ForeignKey(
        Row,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="effects",
        help_text="Only when the target is one row.",
    )
    delta = models.IntegerField(help_text="Added to the value each time; negative to subtract.")
    at_most = models.IntegerField(
        null=True,
        blank=True,
        help_text="The effect raises a value no higher than this (it never lowers one).",
    )
    at_least = models.IntegerField(
        null=True, blank=True, help_text="The effect lowers a value no lower than this (it never raises one)."
    )
    weekday = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=WEEKDAY_CHOICES,
        help_text="Empty: every day. Otherwise once a week on this day.",
    )
    hour = models.PositiveSmallIntegerField(default=0, help_text="UTC hour, 0–23.")
    minute = models.PositiveSmallIntegerField(default=0, help_text="UTC minute, 0–59.")
    starts_at = models.DateTimeField(help_text="Occurrences before this moment never apply.")
    enabled = models.BooleanField(default=True, help_text="Untick to stop the effect; its runs stay logged.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = ScheduledEffectQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def schedule(self) -> ScheduleSpec:
        return ScheduleSpec(hour=self.hour, minute=self.minute, weekday=self.weekday, starts_at=self.starts_at)

    def describe(self) -> str:
        """``every Monday at 00:00 UTC add 1 to Treasure (at most 10)``."""
        verb = f"add {self.delta} to" if self.delta >= 0 else f"subtract {-self.delta} from"
        limits = []
        if self.at_most is not None:
            limits.append(f"at most {self.at_most}")
        if self.at_least is not None:
            limits.append(f"at least {self.at_least}")
        whose = {
            self.ONE_ROW: f" of {self.row}" if self.row_id else "",
            self.PLAYERS: " of every active player",
            self.ALL_ROWS: " of every row",
        }[self.target]
        tail = f" ({', '.join(limits)})" if limits else ""
        return f"{self.schedule().describe()} {verb} {self.column}{whose}{tail}"


class EffectRunQuerySet(models.QuerySet):
    def visible_to(self, viewer, dynasty) -> EffectRunQuerySet:
        return self if sees_hidden(viewer, dynasty) else self.filter(effect__column__hidden=False)


class EffectRun(models.Model):
    """One period of a scheduled effect, applied or passed over; the unique key makes a second run a no-op."""

    APPLIED = "applied"
    SKIPPED = "skipped"
    OUTCOME_CHOICES = [(APPLIED, "Applied"), (SKIPPED, "Skipped")]

    effect = models.ForeignKey(ScheduledEffect, on_delete=models.CASCADE, related_name="runs")
    period_key = models.CharField(max_length=12, help_text="'2016-07-26' for a day, '2016-W30' for an ISO week.")
    at = models.DateTimeField()
    outcome = models.CharField(max_length=8, choices=OUTCOME_CHOICES, default=APPLIED)
    update = models.OneToOneField(Update, null=True, blank=True, on_delete=models.PROTECT, related_name="effect_run")
    note = models.TextField(blank=True)

    objects = EffectRunQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["effect", "period_key"], name="unique_effect_period")]

    def __str__(self) -> str:
        return f"{self.effect} {self.period_key} ({self.outcome})"


class RandomListVersion(models.Model):
    """One version of a word list for random draws (``FRUIT``…); the newest version of each name is in force.

    A version belongs to one dynasty, or to the whole game when ``dynasty`` is empty; a dynasty's own version
    wins over the game's, which wins over the built-in lists.
    """

    dynasty = models.ForeignKey(
        "dynasties.Dynasty",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="gndt_list_versions",
        help_text="Empty: the list applies to every dynasty without its own.",
    )
    name = models.CharField(max_length=30, help_text="The token players type, in capitals, e.g. FRUIT.")
    entries = models.JSONField(default=list, blank=True)
    removed = models.BooleanField(default=False, help_text="The token no longer draws from any list.")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    note = models.CharField(max_length=300, blank=True, help_text="Why: the proposal that changed it, say.")

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M}"


class GameVariableQuerySet(models.QuerySet):
    def shown(self) -> GameVariableQuerySet:
        return self.filter(retired_at__isnull=True)


class GameVariable(models.Model):
    """A value the sidebar and the phone summary show beside Quorum: one GNDT cell ("The Year", a row that is
    not a player's, in the Year column; "The Pot") or the phase of the calendar ("Daytime").

    Declaring one in code (admins use the GNDT's manage page)::

        gndt_variable_add(dynasty=d, by=admin, now=now, label="The Year", row=calendar_row, column=year)
        gndt_variable_add(dynasty=d, by=admin, now=now, label="Time of day", phase_rule="day-parity")

    A cell variable is shown to a viewer only when they may see that cell (``sees_value``).
    """

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_variables")
    label = models.CharField(max_length=60, help_text="What the sidebar calls it, e.g. 'The Year'.")
    row = models.ForeignKey(
        Row, null=True, blank=True, on_delete=models.PROTECT, related_name="+", help_text="A cell's row."
    )
    column = models.ForeignKey(
        Column, null=True, blank=True, on_delete=models.PROTECT, related_name="+", help_text="A cell's column."
    )
    phase_rule = models.CharField(
        max_length=20,
        blank=True,
        choices=[("", "None: a GNDT cell"), *((rule, rule) for rule in PHASE_RULES)],
        help_text="Instead of a cell: show the phase this rule puts the present in.",
    )
    order = models.PositiveIntegerField(default=0)
    proposal = models.ForeignKey(
        "votes.Post",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The enacted proposal (or Ascension Address) that made it gamestate, if one did.",
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    retired_at = models.DateTimeField(null=True, blank=True, help_text="When it stopped being shown.")

    objects = GameVariableQuerySet.as_manager()

    class Meta:
        ordering = ["order", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(phase_rule="", row__isnull=False, column__isnull=False)
                | ~Q(phase_rule="") & Q(row__isnull=True, column__isnull=True),
                name="gndt_variable_cell_or_phase",
            )
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def name(self) -> str:
        return self.label


class PrivateDeckQuerySet(models.QuerySet):
    def for_listing(self) -> PrivateDeckQuerySet:
        """Decks with their owner and draws, in a fixed number of queries."""
        return self.select_related("owner", "dynasty").prefetch_related(
            models.Prefetch("draws", queryset=PrivateDraw.objects.order_by("pk"))
        )


class PrivateDeck(models.Model):
    """A player's own shuffled deck for one hand (Ruleset 52): its order is known to its owner alone until
    they reveal it at the showdown; its checksum is public from the moment it is dealt.

    ``order`` and ``salt`` are the secret: no page, feed, export or API puts them in a response for anyone
    but the owner before ``revealed_at`` (see ``gndt.selectors.private_deck_view``). Draws name positions only
    (``PrivateDraw``)."""

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="private_decks")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="private_decks")
    hand = models.CharField(max_length=40, help_text="The hand this deck is for, as in HAND#3.")
    digest = models.CharField(
        max_length=64, help_text="The public checksum: SHA-256 of the salt, a line break and the order, in hex."
    )
    order = models.TextField(help_text="The cards, one per line. Secret to its owner until revealed.")
    salt = models.CharField(max_length=64, help_text="Secret to its owner until revealed, then published.")
    dealt_at = models.DateTimeField(db_index=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    objects = PrivateDeckQuerySet.as_manager()

    class Meta:
        ordering = ["-dealt_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["dynasty", "owner", "hand"], name="one_private_deck_per_hand"),
        ]

    def __str__(self) -> str:
        # Never the order: this is what logs and Django's admin would show.
        return f"{self.owner}'s deck for hand {self.hand}"

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None


class PrivateDraw(models.Model):
    """Positions drawn from a private deck, logged in public as the GNDT update ``update``."""

    deck = models.ForeignKey(PrivateDeck, on_delete=models.CASCADE, related_name="draws")
    update = models.OneToOneField(Update, on_delete=models.PROTECT, related_name="private_draw")
    positions = models.JSONField(help_text="Positions in the deck, counted from 1.")

    def __str__(self) -> str:
        return f"Positions {self.positions} of {self.deck}"
