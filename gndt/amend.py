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
``AmendError`` naming the operation and the reason; nothing of the table is changed in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gndt.values import CellValueError, ColumnSpec, apply_adjustment, starting_value, validate_value

GNDT_OPS = ("cell_set", "cell_add", "column_add", "column_retire", "row_add", "row_retire")

NO_SUCH_ROW = "there is no row “{row}” in the GNDT"
NO_SUCH_COLUMN = "there is no column “{column}” in the GNDT"
ROW_EXISTS = "there is already a row “{row}” in the GNDT"
COLUMN_EXISTS = "there is already a column “{column}” in the GNDT"
PLAYER_ROW = "“{row}” is a player's row; players' rows come and go with the players"
NOT_WHOLE_NUMBER = "the amount to add must be a whole number"
ZERO_DELTA = "adding 0 changes nothing"
BAD_COLUMN = "the column's settings are not valid: {problem}"
EMPTY_NAME = "a {what} needs a name"
NAME_TOO_LONG = "a {what} name may be at most {limit} characters"
UNCHANGED = "{cell} is already {value}"


class AmendError(ValueError):
    """An operation could not be applied; ``index`` is its position in the amendment (from 0), if known."""

    def __init__(self, reason: str, *, index: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.index = index


@dataclass(frozen=True)
class Table:
    """A GNDT as plain data: column specs by name (in order), rows (name → is a player's), cell values."""

    columns: dict[str, ColumnSpec]
    rows: dict[str, bool]
    values: dict[tuple[str, str], str] = field(default_factory=dict)
    players: frozenset[str] = frozenset()

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


def column_spec(op: dict) -> ColumnSpec:
    """The spec a ``column_add`` operation asks for; ``AmendError`` when it is not a valid column."""
    name = _name(op.get("column"), what="column", limit=60)
    try:
        spec = ColumnSpec(
            name=name, kind=op.get("kind") or "text", minimum=op.get("minimum"), maximum=op.get("maximum"),
            allow_negative=bool(op.get("allow_negative")), clamp=bool(op.get("clamp")),
            choices=tuple(str(c) for c in op.get("choices") or ()), default=(op.get("default") or None),
        )
        if spec.default is not None and spec.kind != "player":
            validate_value(spec, spec.default)
    except (ValueError, TypeError) as error:
        raise AmendError(BAD_COLUMN.format(problem=str(error).rstrip("."))) from None
    return spec


def _name(raw, *, what: str, limit: int) -> str:
    name = str(raw or "").strip()
    if not name:
        raise AmendError(EMPTY_NAME.format(what=what))
    if len(name) > limit:
        raise AmendError(NAME_TOO_LONG.format(what=what, limit=limit))
    return name


def _delta(raw) -> int:
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


def _apply_one(columns: dict, rows: dict, values: dict, op: dict, players: frozenset[str],
               writes: list[CellWrite]) -> str:
    kind = op.get("op")
    if kind in ("cell_set", "cell_add"):
        row, column = str(op.get("row", "")), str(op.get("column", ""))
        if row not in rows:
            raise AmendError(NO_SUCH_ROW.format(row=row))
        if column not in columns:
            raise AmendError(NO_SUCH_COLUMN.format(column=column))
        spec, old = columns[column], values.get((row, column), "")
        try:
            if kind == "cell_set":
                new = validate_value(spec, str(op.get("value", "")), players=players)
                words = f"{describe_cell(row, column)} = {new}"
            else:
                delta = _delta(op.get("delta"))
                new = apply_adjustment(spec, old, delta)
                words = f"{describe_cell(row, column)} {_signed(delta)}"
        except CellValueError as error:
            raise AmendError(str(error)) from None
        if new == old and kind == "cell_set":
            raise AmendError(UNCHANGED.format(cell=describe_cell(row, column), value=new or "blank"))
        values[(row, column)] = new
        writes.append(CellWrite(row=row, column=column, old=old, new=new))
        return words
    if kind == "column_add":
        spec = column_spec(op)
        if spec.name in columns:
            raise AmendError(COLUMN_EXISTS.format(column=spec.name))
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


def apply_gndt_operations(table: Table, operations: Sequence[dict]) -> GndtApplied:
    """Apply the GNDT operations of an amendment (others are skipped) to a copy of ``table``."""
    columns, rows, values = dict(table.columns), dict(table.rows), dict(table.values)
    writes: list[CellWrite] = []
    descriptions = []
    for index, op in enumerate(operations):
        if op.get("op") not in GNDT_OPS:
            continue
        try:
            descriptions.append(_apply_one(columns, rows, values, op, table.players, writes))
        except AmendError as error:
            raise AmendError(error.reason, index=index) from None
    return GndtApplied(table=Table(columns=columns, rows=rows, values=values, players=table.players),
                       writes=tuple(writes), descriptions=tuple(descriptions))


def cells_named(op: dict) -> tuple[tuple[str, str], ...]:
    """The (row, column) cells an operation reads or writes; a column or row operation names none."""
    if op.get("op") in ("cell_set", "cell_add"):
        return ((str(op.get("row", "")), str(op.get("column", ""))),)
    return ()
