"""Writes on the GNDT: updates and undo, managing the table, scheduled effects.

Each service validates everything first, then runs in one transaction that locks the cells it changes
(``select_for_update``, in primary-key order so two writers never deadlock), and records who did what when
as an ``Update`` with one ``CellChange`` per cell. A refused write raises ``GndtError`` with a message for the
player that names the cell, column, row or rule at fault, and writes nothing.
"""

from gndt.services.common import GndtConflict, GndtError, GndtForbidden
from gndt.services.effects import gndt_effect_save, gndt_effects_apply_due
from gndt.services.tables import (
    gndt_action_retire,
    gndt_action_save,
    gndt_column_add,
    gndt_column_edit,
    gndt_column_retire,
    gndt_list_set,
    gndt_row_add,
    gndt_row_retire,
    gndt_rows_add_missing_players,
    gndt_start_dynasty,
)
from gndt.services.updates import gndt_undo, gndt_update

__all__ = [
    "GndtConflict",
    "GndtError",
    "GndtForbidden",
    "gndt_action_retire",
    "gndt_action_save",
    "gndt_column_add",
    "gndt_column_edit",
    "gndt_column_retire",
    "gndt_effect_save",
    "gndt_effects_apply_due",
    "gndt_list_set",
    "gndt_row_add",
    "gndt_row_retire",
    "gndt_rows_add_missing_players",
    "gndt_start_dynasty",
    "gndt_undo",
    "gndt_update",
]
