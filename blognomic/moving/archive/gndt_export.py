"""The ``gndt`` part of the archive format, written: every dynasty's GNDT as plain JSON data.

``export_gndt()`` returns the object stored under the archive's ``"gndt"`` key, reading plain values a batch
at a time; ``blognomic.moving.archive.gndt_import`` loads it back.

Shape (every list optional; times are ISO 8601 with a zone)::

    {"columns": [{"dynasty": 142, "name": "Pieces", "kind": "integer", "minimum": null, "maximum": null,
                  "allow_negative": true, "clamp": false, "choices": [], "default": "8", "order": 1,
                  "hidden": false, "owner_visible": false, "description": "", "created_at": null,
                  "retired_at": null}],
     "rows": [{"dynasty": 142, "name": "Kevan", "player": "Kevan", "order": 1, "created_at": null,
               "retired_at": null, "values": {"Pieces": "88"}}],
     "actions": [{"dynasty": 142, "name": "Buy a Map", "frequency": "daily", "weekly_cap": null,
                  "description": "", "phase": "", "retired_at": null}],
     "lists": [{"dynasty": null, "name": "FRUIT", "entries": ["Lemon"], "removed": false, "by": "Kevan",
                "at": "2016-07-01T00:00:00Z", "note": ""}],
     "effects": [{"dynasty": 142, "name": "Treasure grows", "column": "Treasure", "target": "players",
                  "row": null, "delta": 1, "at_most": 10, "at_least": null, "weekday": 0, "hour": 0,
                  "minute": 0, "starts_at": "…", "enabled": true,
                  "runs": [{"period": "2016-W31", "at": "…", "outcome": "applied", "update": 12, "note": ""}]}],
     "log": [{"dynasty": 142, "at": "…", "by": "Kevan", "source": "player", "comment": "DICE6",
              "rolls": [{"token": "DICE6", "kind": "dice", "results": [4], "text": "DICE6: 4"}],
              "action": "Buy a Map", "undoes": null, "post": null,
              "changes": [{"row": "Kevan", "column": "Pieces", "old": "8", "new": "7"}]}]}

``log`` is oldest first; ``undoes`` and a run's ``update`` are positions in ``log``. A log entry's ``column``
names the column it is about (an admin's change to it, or a scheduled effect on it), so that updates about a
hidden column stay secret; an archive without it (version 1) has it worked out from the log's wording. Columns,
rows, actions, effects and log entries carry their ``pk``, kept on import when free (``archive.keys``). A log
entry's ``post`` is the id of the matter whose enactment made it (its amendment or its effects), or null.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import F

from blognomic.moving.archive.fields import format_time
from dynasties.models import Dynasty
from gndt.models import (
    Action,
    Cell,
    CellChange,
    Column,
    EffectRun,
    RandomListVersion,
    Row,
    ScheduledEffect,
    Update,
)

# Rows read per query.
BATCH = 2000


def export_gndt() -> dict:
    """Every dynasty's GNDT as archive data (see the module docstring for the shape)."""
    numbers = dict(Dynasty.objects.values_list("pk", "number"))
    columns = list(Column.objects.order_by("dynasty__number", "order", "pk"))
    column_names = {column.pk: column.name for column in columns}
    rows = list(Row.objects.select_related("user").order_by("dynasty__number", "order", "pk"))
    row_names = {row.pk: row.name for row in rows}
    values = _values_by_row(column_names)
    actions = list(Action.objects.order_by("dynasty__number", "name"))
    action_names = {action.pk: action.name for action in actions}
    # The enacting matter's id alone, joined in: its body is not needed here.
    updates = list(Update.objects.select_related("by").annotate(post_slug=F("post__slug")).order_by("at", "pk"))
    position = {update.pk: i for i, update in enumerate(updates)}
    changes = _changes_by_update(row_names, column_names)
    runs = _runs_by_effect(position)
    return {
        "columns": [_column_data(column, numbers) for column in columns],
        "rows": [_row_data(row, numbers, values.get(row.pk, {})) for row in rows],
        "actions": [_action_data(action, numbers) for action in actions],
        "lists": [
            _list_data(version, numbers)
            for version in RandomListVersion.objects.select_related("by").order_by("at", "pk")
        ],
        "effects": [
            _effect_data(effect, numbers, column_names, row_names, runs.get(effect.pk, []))
            for effect in ScheduledEffect.objects.select_related("created_by").order_by("dynasty__number", "pk")
        ],
        "log": [
            {
                "pk": update.pk,
                "dynasty": numbers[update.dynasty_id],
                "at": format_time(update.at),
                "by": update.by.username if update.by else None,
                "source": update.source,
                "comment": update.comment,
                "rolls": update.rolls,
                "action": action_names.get(update.action_id),
                "undoes": position.get(update.undoes_id),
                "column": column_names.get(update.column_id),
                "post": update.post_slug,
                "changes": changes.get(update.pk, []),
            }
            for update in updates
        ],
    }


def _values_by_row(column_names: dict[int, str]) -> dict[int, dict[str, str]]:
    """Every cell's value, by row and then by its column's name."""
    values: dict[int, dict[str, str]] = defaultdict(dict)
    for row_id, column_id, value in Cell.objects.values_list("row_id", "column_id", "value").iterator(BATCH):
        values[row_id][column_names[column_id]] = value
    return values


def _changes_by_update(row_names: dict[int, str], column_names: dict[int, str]) -> dict[int, list[dict]]:
    """Every cell change, by the update that made it, in the order they were made."""
    changes: dict[int, list[dict]] = defaultdict(list)
    for update_id, row_id, column_id, old, new in (
        CellChange.objects.order_by("pk").values_list("update_id", "row_id", "column_id", "old", "new").iterator(BATCH)
    ):
        changes[update_id].append({"row": row_names[row_id], "column": column_names[column_id], "old": old, "new": new})
    return changes


def _runs_by_effect(position: dict[int, int]) -> dict[int, list[dict]]:
    """Every run of a scheduled effect, by effect; the update it made is named by its position in the log."""
    runs: dict[int, list[dict]] = defaultdict(list)
    for run in EffectRun.objects.order_by("at", "pk"):
        runs[run.effect_id].append(
            {
                "period": run.period_key,
                "at": format_time(run.at),
                "outcome": run.outcome,
                "update": position.get(run.update_id),
                "note": run.note,
            }
        )
    return runs


def _row_data(row: Row, numbers: dict[int, int], values: dict[str, str]) -> dict:
    return {
        "pk": row.pk,
        "dynasty": numbers[row.dynasty_id],
        "name": row.name,
        "player": row.user.username if row.user else None,
        "order": row.order,
        "created_at": format_time(row.created_at),
        "retired_at": format_time(row.retired_at),
        "values": values,
    }


def _action_data(action: Action, numbers: dict[int, int]) -> dict:
    return {
        "pk": action.pk,
        "dynasty": numbers[action.dynasty_id],
        "name": action.name,
        "frequency": action.frequency,
        "weekly_cap": action.weekly_cap,
        "description": action.description,
        "phase": action.phase,
        "retired_at": format_time(action.retired_at),
    }


def _list_data(version: RandomListVersion, numbers: dict[int, int]) -> dict:
    return {
        "dynasty": numbers.get(version.dynasty_id),
        "name": version.name,
        "entries": list(version.entries),
        "removed": version.removed,
        "by": version.by.username if version.by else None,
        "at": format_time(version.at),
        "note": version.note,
    }


def _effect_data(
    effect: ScheduledEffect,
    numbers: dict[int, int],
    column_names: dict[int, str],
    row_names: dict[int, str],
    runs: list[dict],
) -> dict:
    return {
        "pk": effect.pk,
        "dynasty": numbers[effect.dynasty_id],
        "name": effect.name,
        "column": column_names[effect.column_id],
        "target": effect.target,
        "row": row_names.get(effect.row_id),
        "delta": effect.delta,
        "at_most": effect.at_most,
        "at_least": effect.at_least,
        "weekday": effect.weekday,
        "hour": effect.hour,
        "minute": effect.minute,
        "starts_at": format_time(effect.starts_at),
        "enabled": effect.enabled,
        "created_by": effect.created_by.username if effect.created_by else None,
        "runs": runs,
    }


def _column_data(column: Column, numbers: dict[int, int]) -> dict:
    return {
        "pk": column.pk,
        "dynasty": numbers[column.dynasty_id],
        "name": column.name,
        "kind": column.kind,
        "minimum": column.minimum,
        "maximum": column.maximum,
        "allow_negative": column.allow_negative,
        "clamp": column.clamp,
        "choices": list(column.choices or []),
        "default": column.default,
        "order": column.order,
        "hidden": column.hidden,
        "owner_visible": column.owner_visible,
        "description": column.description,
        "created_at": format_time(column.created_at),
        "retired_at": format_time(column.retired_at),
    }
