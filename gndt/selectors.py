"""Reads of the GNDT: the table as players see it, with hidden columns only for those allowed."""

from __future__ import annotations

from dataclasses import dataclass, field

from dynasties.models import Dynasty
from gndt.models import Cell, Column, Row


@dataclass
class TableRow:
    row: Row
    values: list[str]
    idle: bool = False


@dataclass
class Table:
    columns: list[Column]
    rows: list[TableRow] = field(default_factory=list)
    idle_rows: list[TableRow] = field(default_factory=list)


def can_see_hidden(viewer, state) -> bool:
    if not viewer.is_authenticated:
        return False
    return viewer.is_admin or (state.emperor is not None and state.emperor.pk == viewer.pk)


def gndt_table_for(dynasty: Dynasty, *, viewer, state) -> Table:
    """The whole table in three queries, whatever its size."""
    columns = list(Column.objects.filter(dynasty=dynasty))
    if not can_see_hidden(viewer, state):
        columns = [c for c in columns if not c.hidden]
    rows = list(Row.objects.filter(dynasty=dynasty).select_related("user"))
    values = {
        (cell.row_id, cell.column_id): cell.value
        for cell in Cell.objects.filter(row__dynasty=dynasty).only("row_id", "column_id", "value")
    }
    idle_names = {user.username for user in state.roster.idle}
    table = Table(columns=columns)
    for row in rows:
        entry = TableRow(row=row, values=[values.get((row.pk, c.pk), "") for c in columns])
        if row.user is not None and row.user.username in idle_names:
            entry.idle = True
            table.idle_rows.append(entry)
        else:
            table.rows.append(entry)
    return table
