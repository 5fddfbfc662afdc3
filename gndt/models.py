"""The GNDT: a dynasty's gamestate as typed columns, rows and cells, with an append-only change log."""

from django.conf import settings
from django.db import models


class Column(models.Model):
    INTEGER = "integer"
    TEXT = "text"
    CHOICE = "choice"
    LIST = "list"
    PLAYER = "player"
    KIND_CHOICES = [(INTEGER, "Whole number"), (TEXT, "Text"), (CHOICE, "One of a list"), (LIST, "List"),
                    (PLAYER, "A player")]

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_columns")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=8, choices=KIND_CHOICES, default=TEXT)
    minimum = models.IntegerField(null=True, blank=True)
    maximum = models.IntegerField(null=True, blank=True)
    allow_negative = models.BooleanField(default=False, help_text="Whole numbers only: may it go below zero?")
    clamp = models.BooleanField(
        default=False, help_text="Whole numbers only: hold values to the bounds instead of refusing them."
    )
    choices = models.JSONField(default=list, blank=True, help_text="The allowed values of a choice column.")
    default = models.CharField(max_length=200, blank=True, help_text="The value a new player starts with.")
    order = models.PositiveIntegerField(default=0)
    hidden = models.BooleanField(default=False, help_text="Secret state: only the Emperor and admins see it.")

    class Meta:
        ordering = ["order", "pk"]
        constraints = [models.UniqueConstraint(fields=["dynasty", "name"], name="unique_column_per_dynasty")]

    def __str__(self) -> str:
        return self.name


class Row(models.Model):
    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_rows")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="gndt_rows",
        help_text="Empty for rows that are not players, such as 'The Pot'.",
    )
    name = models.CharField(max_length=150)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["order", "name"]
        constraints = [models.UniqueConstraint(fields=["dynasty", "name"], name="unique_row_per_dynasty")]

    def __str__(self) -> str:
        return self.name


class Cell(models.Model):
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="cells")
    column = models.ForeignKey(Column, on_delete=models.CASCADE, related_name="cells")
    value = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["row", "column"], name="unique_cell")]

    def __str__(self) -> str:
        return f"{self.row}/{self.column}={self.value}"


class Update(models.Model):
    """One logged change by one person: a comment, any dice rolled, and the cells it changed."""

    dynasty = models.ForeignKey("dynasties.Dynasty", on_delete=models.CASCADE, related_name="gndt_updates")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="gndt_updates"
    )
    at = models.DateTimeField(db_index=True)
    comment = models.TextField(blank=True)
    rolls = models.JSONField(default=list, blank=True)
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"Update {self.pk} by {self.by} at {self.at:%Y-%m-%d %H:%M}"


class CellChange(models.Model):
    update = models.ForeignKey(Update, on_delete=models.CASCADE, related_name="changes")
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="changes")
    column = models.ForeignKey(Column, on_delete=models.CASCADE, related_name="changes")
    old = models.TextField(blank=True)
    new = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]
