"""The shape of an amendment: known operations, their fields, and the size limits, refused with the reason."""

from __future__ import annotations

import pytest

from blognomic.flows.amendments.shape import (
    MAX_OPERATIONS,
    AmendmentRefused,
    check_shape,
    describe_parameter,
)


def test_a_well_formed_amendment_passes_unchanged():
    ops = [
        {"op": "rule_repeal", "rule": "rule-fog"},
        {"op": "cell_add", "row": "Cato", "column": "Oil", "delta": 3},
        {"op": "parameter_set", "parameter": "pending_limit", "value": "3"},
    ]
    assert check_shape(ops) == ops


@pytest.mark.parametrize(
    ("ops", "message"),
    [
        ({"op": "rule_repeal"}, "An amendment is a list of operations."),
        ([{"op": "rule_explode", "rule": "x"}], "Operation 1 (rule_explode): “rule_explode” is not an operation"),
        ([{"op": "rule_repeal"}], "Operation 1 (repeal ): it needs “rule”."),
        ([{"op": "rule_repeal", "rule": 3}], "Operation 1 (repeal 3): “rule” must be text."),
        ([{"op": "rule_add", "title": "Tides"}], "Operation 1 (add the rule “Tides”): say where it goes"),
        (
            [{"op": "cell_set", "row": "Cato", "column": "Oil", "value": "1", "colour": "red"}],
            "Operation 1 (set Cato’s Oil): it does not take “colour”.",
        ),
        (
            [{"op": "parameter_set", "parameter": "pending_limit", "value": "lots"}],
            "Operation 1 (set pending_limit): pending_limit takes a whole number of 0 or more; got “lots”.",
        ),
        (
            [{"op": "parameter_set", "parameter": "quorum", "value": "3"}],
            "Operation 1 (set quorum): “quorum” is not a rule parameter that can be changed here.",
        ),
    ],
)
def test_malformed_operations_are_refused_naming_the_operation(ops, message):
    with pytest.raises(AmendmentRefused) as caught:
        check_shape(ops)
    assert str(caught.value).startswith(message)


def test_too_many_operations_or_too_many_bytes_are_refused():
    """“An amendment too large (say over 100 operations or 200 KB) is refused at posting.”"""
    with pytest.raises(AmendmentRefused, match="at most 100 operations; this one has 101"):
        check_shape([{"op": "row_add", "row": f"R{n}"} for n in range(MAX_OPERATIONS + 1)])
    with pytest.raises(AmendmentRefused, match="at most 200 KB"):
        check_shape([{"op": "rule_replace", "rule": "rule-fog", "body": "x" * 210_000}])


def test_a_parameter_change_in_plain_words():
    assert describe_parameter({"op": "parameter_set", "parameter": "stale_after_days", "value": "none"}, 7) == (
        "Sets stale_after_days (Days after which a pending Proposal is skipped as stale) from 7 to none"
    )
