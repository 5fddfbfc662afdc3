"""The reader of an imported matter's recorded result (``Resolution.tally["recorded"]``)."""

from __future__ import annotations

import pytest

from votes.recorded import Recorded, read_recorded


def test_a_recorded_result_reads_its_outcome_counts_and_source():
    """The shape the WordPress import writes is read whole; the last count written is the final one."""
    tally = {"for": 3, "recorded": {"outcome": "enacted", "source": "note", "counts": [[4, 2], [5, 1]], "deferring": 2}}
    recorded = read_recorded(tally)
    assert recorded == Recorded(outcome="enacted", source="note", counts=((4, 2), (5, 1)), deferring=2)
    assert (recorded.outcome_label, recorded.source_label, recorded.final_count) == (
        "Enacted",
        "the admin's note",
        (5, 1),
    )


def test_a_result_read_from_the_status_alone_has_no_count_to_differ_from():
    """A status says the outcome, not the votes: no count is compared with the engine's."""
    record = {"outcome": "quarantined", "source": "status", "counts": [], "deferring": None}
    recorded = read_recorded({"recorded": record})
    assert recorded is not None and recorded.final_count is None
    assert not recorded.differs_from(0, 9)


def test_a_recorded_count_differs_from_the_engines_only_when_it_is_another():
    record = {"outcome": "failed", "source": "note", "counts": [[1, 6]], "deferring": None}
    recorded = read_recorded({"recorded": record})
    assert recorded.differs_from(2, 6)
    assert not recorded.differs_from(1, 6)


@pytest.mark.parametrize(
    "tally",
    [
        None,
        {},
        {"for": 1},
        {"recorded": "enacted"},
        {"recorded": {"outcome": "adopted", "source": "note", "counts": [], "deferring": None}},
        {"recorded": {"outcome": "failed", "source": "rumour", "counts": [], "deferring": None}},
        {"recorded": {"outcome": "failed", "source": "note", "counts": [[1]], "deferring": None}},
        {"recorded": {"outcome": "failed", "source": "note", "counts": [[1, -2]], "deferring": None}},
        {"recorded": {"outcome": "failed", "source": "note", "counts": [[True, 2]], "deferring": None}},
        {"recorded": {"outcome": "failed", "source": "note", "counts": "1-2", "deferring": None}},
        {"recorded": {"outcome": "failed", "source": "note", "counts": [], "deferring": "two"}},
    ],
)
def test_a_malformed_record_reads_as_none(tally):
    """A page never fails on an old import: what is not the shape reads as no recorded result."""
    assert read_recorded(tally) is None
