"""Reading the result an admin recorded in the admin field ("Enacted 5-0", "Failed 2-7", "Self-killed")."""

import pytest

from blognomic.moving.wordpress.recorded import RecordedResult, parse_recorded_result


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Enacted 5-0", RecordedResult("enacted", 5, 0)),
        ("Failed 2-7", RecordedResult("failed", 2, 7)),
        ("FAILED, 3 – 6", RecordedResult("failed", 3, 6)),
        ("enacted 11 to 2 (after a CfJ)", RecordedResult("enacted", 11, 2)),
        ("Self-killed", RecordedResult("self-killed")),
        ("self killed", RecordedResult("self-killed")),
        ("Vetoed", RecordedResult("vetoed")),
        ("Enacted by Quorum", RecordedResult("enacted")),
        ("Timed out 3-4", RecordedResult("failed", 3, 4)),
        ("Enacted 6-1\nPrevious count 4-0 was wrong", RecordedResult("enacted", 6, 1)),
    ],
)
def test_recorded_results_are_read_case_insensitively(text, expected):
    """The admin's recorded result: outcome and FOR-AGAINST counts where written, in any case."""
    assert parse_recorded_result(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "Kevan", "5-0", "Reenacted", "Enactedly 5-0"])
def test_text_that_records_no_result_reads_as_none(text):
    assert parse_recorded_result(text) is None


def test_twenty_digit_counts_are_not_counts():
    """A number no admin wrote as a count (20 digits) is not read as one; the outcome still is."""
    assert parse_recorded_result("Enacted 12345678901234567890-0") == RecordedResult("enacted")


def test_a_recorded_result_has_the_status_it_leaves():
    assert [RecordedResult(o).status for o in ("enacted", "failed", "vetoed", "self-killed")] == [
        "enacted",
        "failed",
        "failed",
        "failed",
    ]
