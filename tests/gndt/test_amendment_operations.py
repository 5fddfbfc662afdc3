"""GNDT amendments as data: cells, columns and rows changed by operations, checked like any other change."""

from __future__ import annotations

import pytest

from gndt.amendment_operations import (
    COLUMN_NAME_UNUSABLE,
    NO_SUCH_COLUMN,
    NO_SUCH_ROW,
    PLAYER_ROW,
    CellWrite,
    Table,
    apply_gndt_operations,
)
from gndt.values import ColumnSpec
from votes.amendment_errors import AmendError

TABLE = Table(
    columns={
        "Oil": ColumnSpec(name="Oil", kind="integer", maximum=100, clamp=True, default="10"),
        "Shift": ColumnSpec(name="Shift", kind="choice", choices=("Dawn", "Dusk", "Night")),
    },
    rows={"Cato": True, "Wren": True, "The Storehouse": False},
    values={("Cato", "Oil"): "12", ("Cato", "Shift"): "Dawn", ("Wren", "Oil"): "98", ("The Storehouse", "Oil"): "0"},
    players=frozenset({"Cato", "Wren"}),
)


def test_set_and_add_honour_the_columns_type_and_clamping():
    """“Add or subtract at a cell (honouring the column's type, bounds and clamping)”: Oil is 0 to 100, clamped."""
    applied = apply_gndt_operations(
        TABLE,
        [
            {"op": "cell_set", "row": "Cato", "column": "Shift", "value": "night"},
            {"op": "cell_add", "row": "Cato", "column": "Oil", "delta": 3},
            {"op": "cell_add", "row": "Wren", "column": "Oil", "delta": "+5"},
        ],
    )
    assert applied.writes == (
        CellWrite("Cato", "Shift", "Dawn", "Night"),
        CellWrite("Cato", "Oil", "12", "15"),
        CellWrite("Wren", "Oil", "98", "100"),
    )
    assert applied.descriptions == ("Cato’s Shift = Night", "Cato’s Oil +3", "Wren’s Oil +5")
    assert TABLE.value("Cato", "Oil") == "12"


@pytest.mark.parametrize(
    ("op", "reason"),
    [
        ({"op": "cell_set", "row": "Gus", "column": "Oil", "value": "1"}, NO_SUCH_ROW.format(row="Gus")),
        ({"op": "cell_set", "row": "Cato", "column": "Wax", "value": "1"}, NO_SUCH_COLUMN.format(column="Wax")),
        (
            {"op": "cell_set", "row": "Cato", "column": "Shift", "value": "Noon"},
            "Shift must be one of Dawn, Dusk, Night; got 'Noon'",
        ),
        ({"op": "cell_set", "row": "Cato", "column": "Oil", "value": "lots"}, "Oil must be a whole number; got 'lots'"),
        (
            {"op": "cell_add", "row": "Cato", "column": "Oil", "delta": "a few"},
            "the amount to add must be a whole number",
        ),
        ({"op": "column_add", "column": "Oil", "kind": "integer"}, COLUMN_NAME_UNUSABLE.format(column="Oil")),
        ({"op": "row_retire", "row": "Cato"}, PLAYER_ROW.format(row="Cato")),
    ],
)
def test_bad_operations_are_refused_with_the_reason(op, reason):
    """A row or column that does not exist, or a value outside the column's type or bounds, is refused."""
    with pytest.raises(AmendError) as caught:
        apply_gndt_operations(TABLE, [{"op": "row_add", "row": "The Pot"}, op])
    assert caught.value.index == 1
    assert reason in caught.value.reason


def test_a_new_column_starts_players_at_its_default_and_other_rows_at_zero():
    applied = apply_gndt_operations(
        TABLE,
        [
            {"op": "column_add", "column": "Wax", "kind": "integer", "default": "4"},
            {"op": "cell_add", "row": "The Storehouse", "column": "Wax", "delta": 2},
        ],
    )
    assert applied.table.value("Cato", "Wax") == "4" and applied.table.value("The Storehouse", "Wax") == "2"
    assert applied.descriptions[0] == "Adds the GNDT column Wax (integer, starting at 4)"


def test_rows_and_columns_come_and_go():
    applied = apply_gndt_operations(
        TABLE,
        [
            {"op": "row_add", "row": "The Pot"},
            {"op": "row_retire", "row": "The Storehouse"},
            {"op": "column_retire", "column": "Shift"},
        ],
    )
    assert set(applied.table.rows) == {"Cato", "Wren", "The Pot"} and set(applied.table.columns) == {"Oil"}
    with pytest.raises(AmendError, match="Choice column 'Bad' needs at least one choice"):
        apply_gndt_operations(TABLE, [{"op": "column_add", "column": "Bad", "kind": "choice"}])
