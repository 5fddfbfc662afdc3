"""Reading the game variables a page shows beside Quorum: the Year, the Pot, whether it is Daytime.

A variable is either one GNDT cell, read as it is now, or a phase of the calendar computed from the time
passed in (``dynasties.phases``); see ``gndt.models.GameVariable`` for declaring one and
``gndt.services.variables`` for the admins' writes. A cell the viewer may not see (a hidden column's) is
left out for them. One query when the dynasty shows any variable, none otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Q, Subquery

from dynasties.phases import phase_at
from gndt.models import Cell, GameVariable, sees_hidden, sees_value
from gndt.selectors import Table


@dataclass(frozen=True)
class VariableShown:
    label: str
    value: str
    is_phase: bool = False
    proposal: object | None = None  # the enacted matter that made it gamestate, for a link


def game_variables_shown(dynasty, *, viewer, now: datetime) -> list[VariableShown]:
    """The variables ``dynasty`` shows, in order, as ``viewer`` may see them at ``now``."""
    if dynasty is None or not dynasty.shows_variables:
        return []
    value = Cell.objects.filter(row=OuterRef("row"), column=OuterRef("column")).values("value")[:1]
    variables = (
        GameVariable.objects.shown()
        .filter(dynasty=dynasty)
        .select_related("row", "column", "proposal")
        .annotate(cell_value=Subquery(value))
    )
    privileged = sees_hidden(viewer, dynasty)
    shown = []
    for variable in variables:
        if variable.phase_rule:
            shown.append(VariableShown(variable.label, phase_at(now, variable.phase_rule), True, variable.proposal))
        elif variable.row.retired_at is not None or variable.column.retired_at is not None:
            continue  # a removed row or column has no value now
        elif sees_value(viewer, dynasty, variable.column, variable.row.user_id, privileged=privileged):
            shown.append(VariableShown(variable.label, variable.cell_value or "", False, variable.proposal))
    return shown


def game_variables_at(dynasty, *, table: Table | None, at: datetime) -> list[VariableShown]:
    """The variables ``dynasty`` showed at ``at``, for the sidebar of the game as it stood then: a cell's
    value is read from ``table``, the GNDT then as the viewer may see it, so a cell they may not see, or that
    was not there yet, is left out. One query."""
    if dynasty is None:
        return []
    variables = (
        GameVariable.objects.filter(dynasty=dynasty, at__lte=at)
        .filter(Q(retired_at__isnull=True) | Q(retired_at__gt=at))
        .select_related("proposal")
    )
    values = {
        (entry.row.pk, cell.column.pk): cell.value
        for entry in (table.all_rows if table else [])
        for cell in entry.cells
        if not cell.concealed
    }
    shown = []
    for variable in variables:
        if variable.phase_rule:
            shown.append(VariableShown(variable.label, phase_at(at, variable.phase_rule), True, variable.proposal))
        elif (variable.row_id, variable.column_id) in values:
            value = values[(variable.row_id, variable.column_id)]
            shown.append(VariableShown(variable.label, value, False, variable.proposal))
    return shown
