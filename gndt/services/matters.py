"""The GNDT's answers to the votes layer's hooks for a dynasty's own kinds of matter and effects of resolving.

``gndt_values_for_kinds`` gives the players' values a kind's electorate filter reads (never a hidden
column's); ``gndt_apply_resolution_effects`` carries out the effects of an enactment or a failure in the
resolution's own transaction, as one logged update citing the matter, with each column's bounds and
clamping. The first is the reader of GNDT values and the second a step of resolving, both installed by
``blognomic/enactment.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dynasties.models import Dynasty, User
from gndt.amendment_operations import GndtApplied, Table, apply_gndt_operations
from gndt.models import Cell, CellChange, Column, Row, Update
from gndt.services.amendment_writes import gndt_amendment_table
from gndt.services.common import GndtError, locked_cells, require_open, write_changes
from votes import matter_kind_rules
from votes.amendment_errors import OperationRefused
from votes.effects import CellDelta, describe
from votes.models import Outcome
from votes.resolution_steps import EnactmentRefused

NO_GNDT = "There is no dynasty, so there is no GNDT for “{title}” to change."
NO_ROW = "Effect “{label}”: {player} has no row in the GNDT."
EFFECT_FAILED = "Effect “{label}” on {player}’s {column}: {reason}."
OUTCOME_WORDS: dict[str, str] = {
    Outcome.ENACTED: "enacting",
    Outcome.FAILED: "failing",
    Outcome.VETOED: "failing",
    Outcome.SELF_KILLED: "failing",
}


def gndt_values_for_kinds(dynasty_id: int, *, at: datetime | None = None) -> matter_kind_rules.GameValues:
    """The columns in use and each player's values in the visible ones, now or as they stood ``at``.

    Three queries now, four for a past moment (the later changes, played backwards)."""
    moment = at
    columns = Column.objects.filter(dynasty_id=dynasty_id)
    rows = Row.objects.filter(dynasty_id=dynasty_id, user__isnull=False).select_related("user")
    if moment is None:
        columns, rows = columns.in_use(), rows.in_use()
    else:
        columns, rows = columns.existing_at(moment), rows.existing_at(moment)
    table_columns = list(columns.only("pk", "name", "kind", "hidden"))
    player_rows = list(rows)
    visible = {column.pk: column.name for column in table_columns if not column.hidden}
    # Every row asked for is a player's (``user__isnull=False``).
    players = {row.pk: row.user.username for row in player_rows if row.user is not None}
    cells = {
        (row_id, column_id): value
        for row_id, column_id, value in Cell.objects.filter(row__in=player_rows, column_id__in=visible).values_list(
            "row_id", "column_id", "value"
        )
    }
    if moment is not None:
        later = (
            CellChange.objects.filter(
                update__dynasty_id=dynasty_id, update__at__gt=moment, row__in=player_rows, column_id__in=visible
            )
            .order_by("-update__at", "-update_id", "-pk")
            .values_list("row_id", "column_id", "old")
        )
        for row_id, column_id, old in later:
            cells[(row_id, column_id)] = old
    values: dict[str, dict[str, str]] = {name: {} for name in players.values()}
    for (row_id, column_id), value in cells.items():
        values[players[row_id]][visible[column_id]] = value
    return matter_kind_rules.GameValues(
        columns={column.name: column.kind for column in table_columns},
        hidden=frozenset(column.name for column in table_columns if column.hidden),
        values=values,
    )


def gndt_apply_resolution_effects(
    *, post, deltas: Sequence[CellDelta], by: User | None, now: datetime, outcome: str = Outcome.ENACTED
) -> Update | None:
    """Apply the effects of resolving ``post`` to the current dynasty's GNDT: one update citing it.

    Raises ``EnactmentRefused`` naming the effect when one cannot apply (no row, a retired column, a value
    past a bound the column does not clamp); the resolution's transaction then keeps nothing.
    """
    if not deltas:
        return None
    dynasty = Dynasty.objects.current()
    if dynasty is None:
        raise EnactmentRefused(NO_GNDT.format(title=post.title))
    try:
        require_open(dynasty)
    except GndtError as error:
        raise EnactmentRefused(str(error)) from None
    table = gndt_amendment_table(dynasty, now=now, lock=True)
    player_rows = {
        row.user.username: row
        for row in Row.objects.in_use().filter(dynasty=dynasty, user__isnull=False).select_related("user")
    }
    result = _effects_applied(table, deltas, player_rows)
    columns = {column.name: column for column in Column.objects.in_use().filter(dynasty=dynasty)}
    rows = {row.name: row for row in player_rows.values()}
    final: dict[tuple[str, str], str] = {}
    for write in result.writes:
        final[(write.row, write.column)] = write.new
    pairs = {key: (rows[key[0]], columns[key[1]]) for key in final}
    cells = locked_cells(pairs.values())
    verb = OUTCOME_WORDS.get(outcome, "resolving")
    update = Update.objects.create(
        dynasty=dynasty,
        by=by,
        at=now,
        source=Update.ADMIN,
        post=post,
        comment=f"Effects of {verb} {post.title}: " + "; ".join(describe(delta) for delta in deltas),
    )
    write_changes(
        update,
        sorted(
            (
                (cells[(row.pk, column.pk)], final[key])
                for key, (row, column) in pairs.items()
                if cells[(row.pk, column.pk)].value != final[key]
            ),
            key=lambda write: write[0].pk,
        ),
    )
    return update


def _effects_applied(table: Table, deltas: Sequence[CellDelta], player_rows: dict[str, Row]) -> GndtApplied:
    """The table after the effects, as ``cell_add`` operations on the players' rows; refused naming the effect
    that cannot apply."""
    operations = []
    for delta in deltas:
        row = player_rows.get(delta.player)
        if row is None:
            raise EnactmentRefused(NO_ROW.format(label=delta.label, player=delta.player))
        operations.append({"op": "cell_add", "row": row.name, "column": delta.column, "delta": delta.delta})
    try:
        return apply_gndt_operations(table, operations)
    except OperationRefused as error:
        delta = deltas[error.index]
        raise EnactmentRefused(
            EFFECT_FAILED.format(label=delta.label, player=delta.player, column=delta.column, reason=error.reason)
        ) from None
