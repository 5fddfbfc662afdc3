"""The GNDT side of an amendment: the table as plain data to check operations against, applying them when
the matter is enacted (one update that cites it), and reverting what was applied (as a new update).

The operations themselves and their rules live in ``gndt.amendment_operations``; here they meet the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Max

from dynasties.models import Dynasty, User
from gndt import naming
from gndt.amendment_operations import GNDT_OPS, Table, apply_gndt_operations, column_spec
from gndt.models import Cell, CellChange, Column, Row, Update
from gndt.services.common import GndtError, cell_name, locked_cells, require_open, shown, write_changes
from gndt.sight import Sight
from votes.amendment_errors import OperationRefused

REVERT_CHANGED = "{cell} has changed since the amendment set it (it is now {current}, not {new})"
OPERATION_FAILED = "Operation {number}: {reason}."


@dataclass
class GndtApplication:
    """What one amendment did to the GNDT, by primary key, so it can be shown and reverted."""

    update: int | None = None
    columns_added: list[int] = field(default_factory=list)
    columns_retired: list[int] = field(default_factory=list)
    rows_added: list[int] = field(default_factory=list)
    rows_retired: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "update": self.update,
            "columns_added": self.columns_added,
            "columns_retired": self.columns_retired,
            "rows_added": self.rows_added,
            "rows_retired": self.rows_retired,
        }


def _player_names(now: datetime) -> frozenset[str]:
    return frozenset(User.objects.active_at(now).values_list("username", flat=True))


def gndt_amendment_table(
    dynasty: Dynasty | None, *, now: datetime, lock: bool = False, sight: Sight | None = None
) -> Table:
    """``dynasty``'s table as ``gndt.amendment_operations`` reads it: columns and rows in use, every value, and
    every name the table has or had.

    With ``sight``, the table its reader may check an amendment against: the hidden columns they may not know
    of are left out (an operation on one is refused as on a column that does not exist), and the values and
    settings they may not see are marked so that no refusal tells them.
    """
    if dynasty is None:
        return Table(columns={}, rows={}, players=_player_names(now))
    # Retired ones too, read in the same query: their names stay taken.
    column_query = Column.objects.filter(dynasty=dynasty).order_by("order", "pk")
    row_query = Row.objects.filter(dynasty=dynasty).order_by("order", "pk")
    if lock:
        column_query, row_query = column_query.select_for_update(), row_query.select_for_update()
    every_column, every_row = list(column_query), list(row_query)
    columns = [column for column in every_column if column.retired_at is None]
    rows = [row for row in every_row if row.retired_at is None]
    if sight is not None and not sight.privileged:
        columns = [column for column in columns if sight.knows_column(column.name)]
    names = {column.pk: column.name for column in columns}
    row_names = {row.pk: row.name for row in rows}
    values = {
        (row_names[row_id], names[column_id]): value
        for row_id, column_id, value in Cell.objects.filter(row__in=rows, column__in=columns).values_list(
            "row_id", "column_id", "value"
        )
    }
    unseen: frozenset[tuple[str, str]] = frozenset()
    sealed: frozenset[str] = frozenset()
    if sight is not None and not sight.privileged:
        sealed = frozenset(column.name for column in columns if column.hidden)
        unseen = frozenset(
            (row.name, column) for row in rows for column in sealed if not sight.sees_cell(row.name, column)
        )
    return Table(
        columns={column.name: column.spec() for column in columns},
        rows={row.name: row.user_id is not None for row in rows},
        values=values,
        players=_player_names(now),
        column_names=frozenset(column.name for column in every_column),
        row_names=frozenset(row.name for row in every_row),
        unseen=unseen,
        sealed=sealed,
    )


def gndt_apply_amendment(
    *, dynasty: Dynasty | None, operations: Sequence[dict], post, by: User | None, now: datetime
) -> GndtApplication:
    """Apply the GNDT operations of an enacted matter's amendment: one update citing ``post``.

    Raises ``GndtError`` naming the operation when one no longer applies; nothing is written then.
    """
    numbered = [(index, op) for index, op in enumerate(operations) if op.get("op") in GNDT_OPS]
    applied = GndtApplication()
    if not numbered:
        return applied
    if dynasty is None:
        raise GndtError("There is no dynasty, so there is no GNDT to change.")
    require_open(dynasty)
    with transaction.atomic():
        table = gndt_amendment_table(dynasty, now=now, lock=True)
        try:
            result = apply_gndt_operations(table, operations)
        except OperationRefused as error:
            raise GndtError(OPERATION_FAILED.format(number=error.index + 1, reason=error.reason)) from None
        columns = {column.name: column for column in Column.objects.in_use().filter(dynasty=dynasty)}
        rows = {row.name: row for row in Row.objects.in_use().filter(dynasty=dynasty)}
        for _, op in numbered:
            _change_shape(dynasty, op, columns, rows, applied, now)
        update = Update.objects.create(
            dynasty=dynasty, by=by, at=now, source=Update.ADMIN, post=post, comment=f"Enacting {post.title}"
        )
        applied.update = update.pk
        final: dict[tuple[str, str], tuple[str, str]] = {}
        for write in result.writes:
            old = final[(write.row, write.column)][0] if (write.row, write.column) in final else write.old
            final[(write.row, write.column)] = (old, write.new)
        pairs = {key: (rows[key[0]], columns[key[1]]) for key in final if key[0] in rows and key[1] in columns}
        cells = locked_cells(pairs.values())
        write_changes(
            update,
            sorted(
                (
                    (cells[(row.pk, column.pk)], final[key][1])
                    for key, (row, column) in pairs.items()
                    if cells[(row.pk, column.pk)].value != final[key][1]
                ),
                key=lambda write: write[0].pk,
            ),
        )
    return applied


def _change_shape(
    dynasty: Dynasty, op: dict, columns: dict, rows: dict, applied: GndtApplication, now: datetime
) -> None:
    kind = op["op"]
    if kind == "column_add":
        spec = column_spec(op)
        order = (Column.objects.filter(dynasty=dynasty).aggregate(m=Max("order"))["m"] or 0) + 1
        column = Column.objects.create(
            dynasty=dynasty,
            name=spec.name,
            kind=spec.kind,
            minimum=spec.minimum,
            maximum=spec.maximum,
            allow_negative=spec.allow_negative,
            clamp=spec.clamp,
            choices=list(spec.choices),
            default=spec.default or "",
            order=order,
            created_at=now,
        )
        columns[spec.name] = column
        applied.columns_added.append(column.pk)
    elif kind == "column_retire":
        column = columns.pop(op["column"])
        Column.objects.filter(pk=column.pk).update(retired_at=now)
        applied.columns_retired.append(column.pk)
    elif kind == "row_add":
        order = (Row.objects.filter(dynasty=dynasty).aggregate(m=Max("order"))["m"] or 0) + 1
        row = Row.objects.create(dynasty=dynasty, name=naming.normalise(op["row"]), order=order, created_at=now)
        rows[row.name] = row
        applied.rows_added.append(row.pk)
    elif kind == "row_retire":
        row = rows.pop(op["row"])
        Row.objects.filter(pk=row.pk).update(retired_at=now)
        applied.rows_retired.append(row.pk)


def gndt_revert_amendment(*, applied: dict, post, by: User | None, now: datetime) -> Update | None:
    """Put back what an amendment did to the GNDT, as a new update citing ``post``.

    Cells return to their old values, added columns and rows are removed and removed ones come back. Refused
    with ``GndtError`` when a cell it set has changed since (the message names each one).
    """
    update_pk = applied.get("update")
    if update_pk is None:
        return None
    with transaction.atomic():
        target = Update.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=update_pk)
        require_open(target.dynasty)
        changes = list(CellChange.objects.filter(update=target).select_related("row", "column"))
        cells = locked_cells((change.row, change.column) for change in changes)
        moved = [
            REVERT_CHANGED.format(
                cell=cell_name(change.row.name, change.column.name),
                current=shown(cells[(change.row_id, change.column_id)].value),
                new=shown(change.new),
            )
            for change in changes
            if cells[(change.row_id, change.column_id)].value != change.new
        ]
        if moved:
            raise GndtError("; ".join(moved) + ".", problems=moved)
        Column.objects.filter(pk__in=applied.get("columns_added", [])).update(retired_at=now)
        Row.objects.filter(pk__in=applied.get("rows_added", [])).update(retired_at=now)
        Column.objects.filter(pk__in=applied.get("columns_retired", [])).update(retired_at=None)
        Row.objects.filter(pk__in=applied.get("rows_retired", [])).update(retired_at=None)
        undo = Update.objects.create(
            dynasty=target.dynasty,
            by=by,
            at=now,
            source=Update.UNDO,
            undoes=target,
            post=post,
            comment=f"Reverting what {post.title} applied",
        )
        write_changes(undo, [(cells[(change.row_id, change.column_id)], change.old) for change in changes])
    return undo
