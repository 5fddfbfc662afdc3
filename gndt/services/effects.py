"""Scheduled effects: defining them, and applying each once per period (the beat job).

The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery

from dynasties.models import Dynasty, User
from gndt.models import (
    Cell,
    Column,
    EffectRun,
    Row,
    ScheduledEffect,
    Update,
)
from gndt.schedule import ScheduleSpec, due_periods, skipped_periods
from gndt.selectors import dynasty_is_archived
from gndt.services.common import (
    GndtError,
    clean_name,
    locked_cells,
    log_admin_update,
    require_admin,
    require_open,
    shown,
    write_changes,
)
from gndt.values import CellValueError, apply_adjustment
from votes.state import game_state

EFFECT_NEEDS_NUMBER = "A scheduled effect changes a whole-number column; “{column}” is {kind}."
EFFECT_NEEDS_ROW = "Choose the row the effect changes, or target every player's row or every row."
EFFECT_ROW_UNWANTED = "A row is chosen only when the effect targets one row."
EFFECT_OTHER_DYNASTY = "The effect's column and row must belong to the same dynasty's GNDT."
BAD_SCHEDULE = "The schedule is not valid: {problem}."


# --- Scheduled effects -----------------------------------------------------------------------------------


def gndt_effect_save(
    *,
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    name: str,
    column: Column,
    delta: int,
    target: str = ScheduledEffect.PLAYERS,
    row: Row | None = None,
    at_most: int | None = None,
    at_least: int | None = None,
    weekday: int | None = None,
    hour: int = 0,
    minute: int = 0,
    starts_at: datetime | None = None,
    enabled: bool = True,
    effect: ScheduledEffect | None = None,
) -> ScheduledEffect:
    """Define (or change) a recurring adjustment that beat applies once per day or week."""
    require_admin(by, "schedule effects")
    require_open(dynasty)
    name = clean_name(name, what="scheduled effect", limit=120)
    _check_effect_target(dynasty, column=column, target=target, row=row)
    starts_at = starts_at or now
    try:
        ScheduleSpec(hour=hour, minute=minute, weekday=weekday, starts_at=starts_at)
    except ValueError as error:
        raise GndtError(BAD_SCHEDULE.format(problem=str(error).rstrip("."))) from None
    values = {
        "name": name,
        "column": column,
        "target": target,
        "row": row,
        "delta": delta,
        "at_most": at_most,
        "at_least": at_least,
        "weekday": weekday,
        "hour": hour,
        "minute": minute,
        "starts_at": starts_at,
        "enabled": enabled,
    }
    with transaction.atomic():
        if effect is None:
            effect = ScheduledEffect.objects.create(dynasty=dynasty, created_by=by, **values)
            verb = "Scheduled"
        else:
            effect = ScheduledEffect.objects.select_for_update().get(pk=effect.pk)
            for key, value in values.items():
                setattr(effect, key, value)
            effect.save()
            verb = "Changed the scheduled effect"
        state = "" if enabled else " (paused)"
        log_admin_update(dynasty, by, now, f"{verb} {name}: {effect.describe()}{state}", column=column)
    return effect


def _check_effect_target(dynasty: Dynasty, *, column: Column, target: str, row: Row | None) -> None:
    """Refuses an effect on another dynasty's table, on a column that is not a number, or on a row the
    target does not call for."""
    if column.dynasty_id != dynasty.pk or (row is not None and row.dynasty_id != dynasty.pk):
        raise GndtError(EFFECT_OTHER_DYNASTY)
    if column.kind != Column.INTEGER:
        raise GndtError(EFFECT_NEEDS_NUMBER.format(column=column.name, kind=column.get_kind_display().lower()))
    if target == ScheduledEffect.ONE_ROW and row is None:
        raise GndtError(EFFECT_NEEDS_ROW)
    if target != ScheduledEffect.ONE_ROW and row is not None:
        raise GndtError(EFFECT_ROW_UNWANTED)
    if target not in dict(ScheduledEffect.TARGET_CHOICES):
        raise GndtError(EFFECT_NEEDS_ROW)


@dataclass
class EffectOutcome:
    """What one scheduled effect did (or, in a dry run, would do) for one period."""

    effect: str
    period: str
    outcome: str  # "applied", "skipped", or "already" when another run applied it first
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # (row, old, new)
    note: str = ""
    update_id: int | None = None


@dataclass
class EffectsReport:
    dry_run: bool
    outcomes: list[EffectOutcome] = field(default_factory=list)

    @property
    def applied(self) -> list[EffectOutcome]:
        return [outcome for outcome in self.outcomes if outcome.outcome == EffectRun.APPLIED]

    @property
    def done(self) -> list[str]:
        """One line per effect and period, for the management command and the Celery task's result."""
        lines = []
        for outcome in self.outcomes:
            changes = ", ".join(f"{row} {shown(old)} → {shown(new)}" for row, old, new in outcome.changes)
            parts = [f"{outcome.effect} ({outcome.period}): {outcome.outcome}", changes, outcome.note]
            lines.append(" — ".join(part for part in parts if part))
        return lines

    def __str__(self) -> str:
        return "\n".join(self.done) if self.done else "No scheduled effect is due."


HIATUS_NOTE = "The game was in hiatus, so the effect did not apply for this period."
MISSED_NOTE = "Missed while the scheduler was not running: {keys}."
NOTHING_CHANGED_NOTE = "No value changed: every row was already at the effect's limit."


def gndt_effects_apply_due(*, now: datetime, dry_run: bool = False) -> EffectsReport:
    """Apply every scheduled effect whose period has come and has not been applied yet.

    Each (effect, period) is claimed by a unique ``EffectRun`` in the same transaction that writes its
    update, so running twice, concurrently or late applies it once. Missed earlier periods are noted, not
    caught up (see ``gndt.schedule``). While the game is in hiatus the period is recorded as skipped.
    """
    report = EffectsReport(dry_run=dry_run)
    last_key = EffectRun.objects.filter(effect=OuterRef("pk")).order_by("-pk").values("period_key")[:1]
    effects = list(
        ScheduledEffect.objects.filter(enabled=True, dynasty__ended_at__isnull=True)
        .select_related("dynasty", "column", "row")
        .annotate(last_key=Subquery(last_key))
    )
    if not effects:
        return report
    hiatus = game_state(now).hiatus is not None
    dynasties = {effect.dynasty_id: effect.dynasty for effect in effects}
    archived = {pk for pk, dynasty in dynasties.items() if dynasty_is_archived(dynasty)}
    for effect in effects:
        if effect.dynasty_id in archived or effect.column.retired_at is not None:
            continue
        spec = effect.schedule()
        for key in due_periods(spec, last_applied_key=effect.last_key, now=now):
            missed = skipped_periods(spec, last_applied_key=effect.last_key, now=now, limit=10)
            note = MISSED_NOTE.format(keys=", ".join(missed)) if missed else ""
            if dry_run:
                outcome = _effect_outcome(effect, key, now, hiatus=hiatus, note=note, write=False)
            else:
                try:
                    with transaction.atomic():
                        outcome = _effect_outcome(effect, key, now, hiatus=hiatus, note=note, write=True)
                except IntegrityError:
                    outcome = EffectOutcome(effect=effect.name, period=key, outcome="already")
            report.outcomes.append(outcome)
    return report


def _effect_rows(effect: ScheduledEffect, now: datetime) -> list[Row]:
    if effect.target == ScheduledEffect.ONE_ROW:
        return [effect.row] if effect.row is not None and effect.row.retired_at is None else []
    rows = Row.objects.in_use().filter(dynasty=effect.dynasty_id)
    if effect.target == ScheduledEffect.PLAYERS:
        rows = rows.filter(user__in=User.objects.active_at(now))
    return list(rows)


def _effect_outcome(
    effect: ScheduledEffect, key: str, now: datetime, *, hiatus: bool, note: str, write: bool
) -> EffectOutcome:
    if write:
        # Claim the period first: a concurrent run blocks here and then fails on the unique key.
        run = EffectRun.objects.create(effect=effect, period_key=key, at=now, outcome=EffectRun.SKIPPED)
    if hiatus:
        outcome = EffectOutcome(
            effect=effect.name,
            period=key,
            outcome=EffectRun.SKIPPED,
            note=" ".join(filter(None, [HIATUS_NOTE, note])),
        )
        if write:
            run.note = outcome.note
            run.save(update_fields=["note"])
        return outcome
    rows = _effect_rows(effect, now)
    if write:
        cells = locked_cells((row, effect.column) for row in rows)
    else:
        cells = {
            (cell.row_id, cell.column_id): cell for cell in Cell.objects.filter(row__in=rows, column=effect.column)
        }
    writes, refused = _adjustments(effect, rows, cells)
    notes = [note] if note else []
    if refused:
        notes.append("Not applied to " + "; ".join(refused) + ".")
    if not writes:
        notes.append(NOTHING_CHANGED_NOTE)
    outcome = EffectOutcome(
        effect=effect.name,
        period=key,
        outcome=EffectRun.APPLIED,
        changes=[(row.name, old, new) for row, _, old, new in writes],
        note=" ".join(notes),
    )
    if write:
        _record_run(run, effect, key, now, outcome=outcome, writes=writes, cells=cells)
    return outcome


def _adjustments(effect: ScheduledEffect, rows: list[Row], cells: dict) -> tuple[list[tuple], list[str]]:
    """Each row's cell as the effect changes it (row, cell, old, new), and the rows it cannot change, why."""
    spec = effect.column.spec()
    writes, refused = [], []
    for row in sorted(rows, key=lambda r: (r.order, r.name)):
        cell = cells.get((row.pk, effect.column_id))
        current = cell.value if cell is not None else ""
        try:
            new = apply_adjustment(spec, current, effect.delta, at_most=effect.at_most, at_least=effect.at_least)
        except CellValueError as error:
            refused.append(f"{row.name}: {error}")
            continue
        if new != current:
            writes.append((row, cell, current, new))
    return writes, refused


def _record_run(
    run: EffectRun,
    effect: ScheduledEffect,
    key: str,
    now: datetime,
    *,
    outcome: EffectOutcome,
    writes: list[tuple],
    cells: dict,
) -> None:
    """The effect's changes as one update, and the period's run as applied, citing it."""
    if writes:
        update = Update.objects.create(
            dynasty=effect.dynasty,
            by=None,
            at=now,
            source=Update.EFFECT,
            column=effect.column,
            comment=f"{effect.name}: {effect.describe()} (period {key})",
        )
        # Written cells come from ``locked_cells``, which made every missing one.
        write_changes(update, [(cells[(row.pk, effect.column_id)], new) for row, _, _, new in writes])
        run.update = update
        outcome.update_id = update.pk
    run.outcome = EffectRun.APPLIED
    run.note = outcome.note
    run.save(update_fields=["outcome", "note", "update"])
