"""The Ruleset's operations and the GNDT's refuse with the one pair of errors ``votes.amendment_errors`` defines,
so a caller that applies both catches one class."""

from __future__ import annotations

import pytest

from gndt.amendment_operations import Table, apply_gndt_operations
from gndt.values import ColumnSpec
from ruleset.amendment_operations import apply_rule_operations
from votes.amendment_errors import AmendError, OperationRefused

LEDGER = Table(
    columns={"Coins": ColumnSpec(name="Coins", kind="integer")},
    rows={"Marlow": True},
    values={("Marlow", "Coins"): "4"},
    players=frozenset({"Marlow"}),
)


def _refusals() -> list[OperationRefused]:
    caught = []
    with pytest.raises(OperationRefused) as gndt:
        apply_gndt_operations(LEDGER, [{"op": "cell_set", "row": "Nobody", "column": "Coins", "value": "1"}])
    caught.append(gndt.value)
    with pytest.raises(OperationRefused) as ruleset:
        apply_rule_operations(
            "== Ledgers ==\n=== Coins ===\nEach player has Coins.", [{"op": "rule_repeal", "rule": "rule-no-such-rule"}]
        )
    caught.append(ruleset.value)
    return caught


def test_both_records_refuse_an_operation_with_the_same_class():
    """A GNDT operation on a row that is not there and a Ruleset operation on a rule that is not there both raise
    ``OperationRefused`` (an ``AmendError``), naming the operation's position and the reason."""
    for refusal in _refusals():
        assert type(refusal) is OperationRefused
        assert isinstance(refusal, AmendError)
        assert refusal.index == 0 and refusal.reason
