"""Reading the result an admin recorded in the admin field, in free words, and keeping it with the status."""

import pytest

from blognomic.moving.wordpress.recorded import (
    NoteReading,
    note_counts,
    note_deferring,
    note_outcome,
    number,
    outcome_kept,
    read_note,
    recorded_result,
    status_left,
)


@pytest.mark.parametrize(
    "note, expected",
    [
        ("Got to quorum, 7 votes to 1. Enacted by Marisol.", NoteReading("enacted", ((7, 1),))),
        ("Reaches quorum and passes at 6-2. -Tobiah", NoteReading("enacted", ((6, 2),))),
        (
            "Popular with seven SAILORS in favour and one deferring. Enacted by Marisol.",
            NoteReading("enacted", ((7, 0),), 1),
        ),
        ("Vetoed. -Tobiah", NoteReading("vetoed")),
        ("Timed out 2-5", NoteReading("failed", ((2, 5),))),
        ("Self-killed", NoteReading("self-killed")),
        ("self killed by its author, 0-4", NoteReading("self-killed", ((0, 4),))),
        ("Timed out, three to four.", NoteReading("failed", ((3, 4),))),
        ("Fails twelve–nine after two days", NoteReading("failed", ((12, 9),))),
        ("Marked illegal by the admins", NoteReading("illegal")),
        ("Quarantined until the CfJ is done", NoteReading("quarantined")),
        ("Tobiah: 5 for, 2 against; enacted", NoteReading("enacted", ((5, 2),))),
        ("six in favour and two against. Failed by Marisol", NoteReading("failed", ((6, 2),))),
        ("-Marisol", NoteReading(None)),
        ("", NoteReading(None)),
    ],
)
def test_a_note_is_read_for_its_outcome_counts_and_deferring_wherever_they_stand(note, expected):
    """Real notes are free words: the outcome and the counts may stand anywhere, signed or not."""
    assert read_note(note) == expected


def test_the_first_outcome_named_is_the_notes():
    assert note_outcome("Reached quorum; enacted. (Fails the later CfJ.)") == "enacted"
    assert note_outcome("Enactedly nothing") is None  # a word only when it is the whole word


def test_every_count_in_a_note_is_read_in_the_order_written():
    assert note_counts("Enacted 6-1.\nThe earlier count, four to nil, was wrong.") == ((6, 1), (4, 0))


@pytest.mark.parametrize(
    "note",
    ["Enacted on 2016-07-04", "Posted at 12.30-5", "Failed 12345678901234567890-0", "Enacted by Room-101"],
)
def test_dates_long_numbers_and_names_are_no_counts(note):
    """A date, a number no admin wrote as a count (more than three digits) or a name's digits are no count."""
    assert note_counts(note) == ()


@pytest.mark.parametrize("written, value", [("5", 5), ("five", 5), ("Twenty-one", 21), ("forty two", 42)])
def test_numbers_are_read_in_digits_or_in_words(written, value):
    assert number(written) == value


def test_twenty_one_is_one_number_and_three_two_is_a_count():
    assert note_counts("Enacted twenty-one to nil") == ((21, 0),)
    assert note_counts("Timed out three-two") == ((3, 2),)


def test_deferring_is_read_only_where_the_note_says_it():
    assert note_deferring("Enacted 4-0 with two deferential") == 2
    assert note_deferring("Enacted 4-0") is None


def test_the_status_outcome_stands_over_the_note():
    """Where the status says the outcome, the status stands; the note's counts are kept beside it."""
    assert recorded_result(status_outcome="enacted", note="Failed 2-3 at first; recounted 5-0") == {
        "outcome": "enacted",
        "source": "status",
        "counts": [[2, 3], [5, 0]],
        "deferring": None,
    }


def test_a_failed_status_takes_the_way_of_failing_the_note_names():
    """A failed status with a note saying "Self-killed" or "Vetoed" failed that way."""
    assert recorded_result(status_outcome="failed", note="Self-killed.")["outcome"] == "self-killed"
    assert recorded_result(status_outcome="failed", note="Vetoed. -Tobiah")["source"] == "note"
    assert recorded_result(status_outcome="failed", note="Enacted 5-0")["outcome"] == "failed"


def test_only_the_note_says_the_outcome():
    assert recorded_result(status_outcome=None, note="Timed out two to five") == {
        "outcome": "failed",
        "source": "note",
        "counts": [[2, 5]],
        "deferring": None,
    }


def test_nothing_is_recorded_when_neither_says_an_outcome():
    assert recorded_result(status_outcome=None, note="7 votes to 1, -Marisol") is None


def test_illegal_and_quarantined_matters_fail_here():
    assert [outcome_kept(o) for o in ("illegal", "quarantined", "vetoed", "enacted")] == [
        "failed",
        "failed",
        "vetoed",
        "enacted",
    ]
    assert [status_left(o) for o in ("enacted", "vetoed", "illegal")] == ["enacted", "failed", "failed"]
