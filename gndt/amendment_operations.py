"""Amendments to the GNDT as data: typed operations on cells, columns and rows, applied to plain data.

An operation is a dict with an ``op`` key:

- ``cell_set``: ``row``, ``column``, ``value`` (and ``was``, the value seen when the amendment was written);
- ``cell_add``: ``row``, ``column``, ``delta`` (a whole number; negative to subtract), honouring the
  column's bounds and clamping as ``gndt.values.apply_adjustment`` does;
- ``column_add``: ``column`` and its settings: ``kind``, ``minimum``, ``maximum``, ``allow_negative``,
  ``clamp``, ``choices``, ``default``;
- ``column_retire``: ``column``;
- ``row_add``: ``row`` (a row that is not a player's, such as “The Storehouse”);
- ``row_retire``: ``row`` (not a player's).

Rows and columns are named as the table shows them. ``apply_gndt_operations`` works on a ``Table`` (the
columns' specs, the rows, the values) and returns the new table with every cell change, or raises
``OperationRefused`` naming the operation and the reason; nothing of the table is changed in place.

A new row or column is named by the rules of ``gndt.naming``, against every name the table has or had. The
table may be the one its checker may see (``Table.unseen``, ``Table.sealed``): then no refusal tells them a
value or a setting they may not see, and a column they may not know of is simply not in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gndt import naming
from gndt.values import CellValueError, ColumnSpec, apply_adjustment, starting_value, validate_value
from votes.amendment_errors import AmendError, OperationRefused

# One operation as the amendment stores it (JSON): its values are checked as it is applied.
Operation = dict[str, Any]

GNDT_OPS = ("cell_set", "cell_add", "column_add", "column_retire", "row_add", "row_retire")

NO_SUCH_ROW = "there is no row “{row}” in the GNDT"
NO_SUCH_COLUMN = "there is no column “{column}” in the GNDT"
ROW_EXISTS = "there is already a row “{row}” in the GNDT"
ROW_NAME_TAKEN = "the GNDT has, or had, a row “{other}”, which “{row}” could be taken for"
# One answer for every name a new column cannot take (a public column's, a hidden or retired one's, one too
# like either): which of them it is would tell who may not know that a hidden column exists.
COLUMN_NAME_UNUSABLE = (
    "“{column}” cannot name a new column: the GNDT has, or had, a column of that name or one too like it"
)
SECRET_VALUE_REFUSED = "{cell} cannot hold that"
PLAYER_ROW = "“{row}” is a player's row; players' rows come and go with the players"
NOT_WHOLE_NUMBER = "the amount to add must be a whole number"
ZERO_DELTA = "adding 0 changes nothing"
BAD_COLUMN = "the column's settings are not valid: {problem}"
EMPTY_NAME = "a {what} needs a name"
NAME_TOO_LONG = "a {what} name may be at most {limit} characters"
UNCHANGED = "{cell} is already {value}"


@dataclass(frozen=True)
class Table:
    """A GNDT as plain data: column specs by name (in order), rows (name → is a player's), cell values."""

    columns: dict[str, ColumnSpec]
    rows: dict[str, bool]
    values: dict[tuple[str, str], str] = field(default_factory=dict)
    players: frozenset[str] = frozenset()
    # Every column and row name the table has or had (retired and hidden ones too): a new one may not take
    # one of them, nor one a reader could take for it.
    column_names: frozenset[str] = frozenset()
    row_names: frozenset[str] = frozenset()
    # Cells whose value the checker may not see: no refusal may depend on it, so one set to what it holds is
    # not refused and an amount added is not checked against the bounds (enactment, by an admin, checks it).
    unseen: frozenset[tuple[str, str]] = frozenset()
    # Columns whose settings the checker may not know (a secret role's choices): a value refused is refused
    # without naming them.
    sealed: frozenset[str] = frozenset()

    def value(self, row: str, column: str) -> str:
        return self.values.get((row, column), "")


@dataclass(frozen=True)
class CellWrite:
    row: str
    column: str
    old: str
    new: str


@dataclass(frozen=True)
class GndtApplied:
    """The table after the amendment, every cell it changed, and what each operation did in plain words."""

    table: Table
    writes: tuple[CellWrite, ...]
    descriptions: tuple[str, ...]


def column_spec(op: Operation) -> ColumnSpec:
    """The spec a ``column_add`` operation asks for; ``AmendError`` when it is not a valid column."""
    name = _name(op.get("column"), what="column", limit=60)
    try:
        spec = ColumnSpec(
            name=name,
            kind=op.get("kind") or "text",
            minimum=op.get("minimum"),
            maximum=op.get("maximum"),
            allow_negative=bool(op.get("allow_negative")),
            clamp=bool(op.get("clamp")),
            choices=tuple(str(c) for c in op.get("choices") or ()),
            default=(op.get("default") or None),
        )
        if spec.default is not None and spec.kind != "player":
            validate_value(spec, spec.default)
    except (ValueError, TypeError) as error:
        raise AmendError(BAD_COLUMN.format(problem=str(error).rstrip("."))) from None
    return spec


def _name(raw: object, *, what: str, limit: int) -> str:
    name = naming.normalise(raw)
    if not name:
        raise AmendError(EMPTY_NAME.format(what=what))
    if len(name) > limit:
        raise AmendError(NAME_TOO_LONG.format(what=what, limit=limit))
    problem = naming.name_problem(name, what=what)
    if problem is not None:
        raise AmendError(problem.rstrip("."))
    return name


def _delta(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise AmendError(NOT_WHOLE_NUMBER)
    try:
        delta = int(str(raw).strip().replace("+", "", 1))
    except ValueError:
        raise AmendError(NOT_WHOLE_NUMBER) from None
    if abs(delta) > 10**15:
        raise AmendError(NOT_WHOLE_NUMBER)
    if delta == 0:
        raise AmendError(ZERO_DELTA)
    return delta


def _signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}"


def describe_cell(row: str, column: str) -> str:
    """How players name a cell: “Cato's Oil”, “The Storehouse's Oil”."""
    return f"{row}’s {column}" if not row.endswith("s") else f"{row}’ {column}"


def _apply_to_cell(
    table: Table,
    columns: dict[str, ColumnSpec],
    rows: dict[str, bool],
    values: dict[tuple[str, str], str],
    op: Operation,
    writes: list[CellWrite],
) -> str:
    kind = op.get("op")
    row, column = str(op.get("row", "")), str(op.get("column", ""))
    if row not in rows:
        raise AmendError(NO_SUCH_ROW.format(row=row))
    if column not in columns:
        raise AmendError(NO_SUCH_COLUMN.format(column=column))
    spec, old = columns[column], values.get((row, column), "")
    unseen = (row, column) in table.unseen
    try:
        if kind == "cell_set":
            new = validate_value(spec, str(op.get("value", "")), players=table.players)
            words = f"{describe_cell(row, column)} = {new}"
        else:
            delta = _delta(op.get("delta"))
            words = f"{describe_cell(row, column)} {_signed(delta)}"
            try:
                new = apply_adjustment(spec, old, delta)
            except CellValueError:
                if not unseen:
                    raise
                new = old  # whether it fits depends on the value: enactment will tell
    except CellValueError as error:
        if column in table.sealed:
            raise AmendError(SECRET_VALUE_REFUSED.format(cell=describe_cell(row, column))) from None
        raise AmendError(str(error)) from None
    if new == old and kind == "cell_set" and not unseen:
        raise AmendError(UNCHANGED.format(cell=describe_cell(row, column), value=new or "blank"))
    values[(row, column)] = new
    writes.append(CellWrite(row=row, column=column, old=old, new=new))
    return words


def _apply_one(
    table: Table,
    columns: dict[str, ColumnSpec],
    rows: dict[str, bool],
    values: dict[tuple[str, str], str],
    taken: dict[str, set[str]],
    op: Operation,
    writes: list[CellWrite],
) -> str:
    kind = op.get("op")
    if kind in ("cell_set", "cell_add"):
        return _apply_to_cell(table, columns, rows, values, op, writes)
    if kind == "column_add":
        spec = column_spec(op)
        if naming.clash(spec.name, taken["columns"]) is not None:
            raise AmendError(COLUMN_NAME_UNUSABLE.format(column=spec.name))
        taken["columns"].add(spec.name)
        columns[spec.name] = spec
        for row, is_player in rows.items():
            start = starting_value(spec if is_player else replace(spec, default=None))
            values[(row, spec.name)] = start
            if start:
                writes.append(CellWrite(row=row, column=spec.name, old="", new=start))
        default = f", starting at {spec.default}" if spec.default else ""
        return f"Adds the GNDT column {spec.name} ({spec.kind}{default})"
    if kind == "column_retire":
        column = str(op.get("column", ""))
        if column not in columns:
            raise AmendError(NO_SUCH_COLUMN.format(column=column))
        del columns[column]
        return f"Removes the GNDT column {column}"
    if kind == "row_add":
        row = _name(op.get("row"), what="row", limit=150)
        if row in rows:
            raise AmendError(ROW_EXISTS.format(row=row))
        other = naming.clash(row, taken["rows"])
        if other is not None:
            raise AmendError(ROW_NAME_TAKEN.format(other=other, row=row))
        taken["rows"].add(row)
        rows[row] = False
        for name, spec in columns.items():
            start = starting_value(replace(spec, default=None))
            values[(row, name)] = start
            if start:
                writes.append(CellWrite(row=row, column=name, old="", new=start))
        return f"Adds the GNDT row {row}"
    if kind == "row_retire":
        row = str(op.get("row", ""))
        if row not in rows:
            raise AmendError(NO_SUCH_ROW.format(row=row))
        if rows[row]:
            raise AmendError(PLAYER_ROW.format(row=row))
        del rows[row]
        return f"Removes the GNDT row {row}"
    raise AmendError(f"“{kind}” is not a GNDT operation")


def apply_gndt_operations(table: Table, operations: Sequence[Operation]) -> GndtApplied:
    """Apply the GNDT operations of an amendment (others are skipped) to a copy of ``table``.

    Raises ``OperationRefused`` with the index of the first operation that does not apply."""
    columns, rows, values = dict(table.columns), dict(table.rows), dict(table.values)
    taken = {"columns": set(table.column_names) | set(columns), "rows": set(table.row_names) | set(rows)}
    writes: list[CellWrite] = []
    descriptions = []
    for index, op in enumerate(operations):
        if op.get("op") not in GNDT_OPS:
            continue
        try:
            descriptions.append(_apply_one(table, columns, rows, values, taken, op, writes))
        except AmendError as error:
            raise OperationRefused(error.reason, index=index) from None
    return GndtApplied(
        table=replace(table, columns=columns, rows=rows, values=values),
        writes=tuple(writes),
        descriptions=tuple(descriptions),
    )


def cells_named(op: Operation) -> tuple[tuple[str, str], ...]:
    """The (row, column) cells an operation reads or writes; a column or row operation names none."""
    if op.get("op") in ("cell_set", "cell_add"):
        return ((str(op.get("row", "")), str(op.get("column", ""))),)
    return ()
