"""What an admin wrote in a post's admin field when resolving it, read as an outcome and the counts it gives.

BlogNomic's admins write free words: "Reached quorum, 6 votes to 2. Enacted by Ann.", "Reaches quorum and
passes at 5-1. -Ann", "Popular with four PIRATES in favour and one deferring. Enacted by Ann.", "Vetoed.
-Bo", "Timed out 3-4", "Self-killed". The outcome and the counts may stand anywhere in the note, in digits
or in words. ``recorded_result`` puts the note together with the outcome the post's status already says,
as the JSON kept in ``Resolution.tally["recorded"]``. Pure functions, so the import can compare what was
recorded with what the engine counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

ENACTED = "enacted"
FAILED = "failed"
VETOED = "vetoed"
SELF_KILLED = "self-killed"
ILLEGAL = "illegal"
QUARANTINED = "quarantined"
OUTCOMES = (ENACTED, FAILED, VETOED, SELF_KILLED, ILLEGAL, QUARANTINED)
# Ways of failing that a note may name more precisely than a "failed" status does.
KINDS_OF_FAILING = (VETOED, SELF_KILLED, ILLEGAL, QUARANTINED)

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_NUMBER_WORDS = {word: n for n, word in enumerate(_UNITS)} | _TENS | {"nil": 0}
for _ten, _value in _TENS.items():
    for _unit in range(1, 10):
        _NUMBER_WORDS[f"{_ten}-{_UNITS[_unit]}"] = _value + _unit
        _NUMBER_WORDS[f"{_ten} {_UNITS[_unit]}"] = _value + _unit

# A count: up to three digits (no admin counted a thousand votes; a year is no count), or a number word.
_NUMBER = (
    r"(?:(?<!\d)\d{1,3}(?!\d|\.\d)|\b(?:"
    + "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS if w not in _TENS), key=len, reverse=True))
    # "twenty-one" is one number, never twenty to one.
    + r"|(?:"
    + "|".join(_TENS)
    + r")(?!-(?:"
    + "|".join(_UNITS[1:10])
    + r")\b))\b)"
)
_DASH = r"\s*(?:-|–|—|to)\s*"
_OUTCOME = re.compile(
    r"\b(?P<word>enact(?:ed|s)?|pass(?:ed|es)?|fail(?:ed|s)?|tim(?:ed|es)[\s-]*out|veto(?:ed|es)?|"
    r"self[\s-]*kill(?:ed|s)?|illegal|quarantined?)\b",
    re.IGNORECASE,
)
_PAIR = re.compile(
    # Not inside a date or a longer run of numbers ("2016-07-01", "5-0-1").
    rf"(?<![\w.\-–—])(?P<for>{_NUMBER})(?:\s+(?:votes?|for))?{_DASH}(?P<against>{_NUMBER})(?![-–—]?\d)",
    re.IGNORECASE,
)
_FOR_AGAINST = re.compile(
    rf"(?P<for>{_NUMBER})\s+for\b[\s,;]*(?:and\s+|with\s+)?(?P<against>{_NUMBER})\s+against\b", re.IGNORECASE
)
# Up to two words between a number and what it counts ("four PIRATES in favour"), none of them a number.
_BETWEEN = rf"(?:\s+(?!{_NUMBER})[^\W\d]+){{0,2}}?"
_IN_FAVOUR = re.compile(
    rf"(?P<for>{_NUMBER}){_BETWEEN}\s+in\s+favou?r\b(?:[\s,;]*(?:and\s+)?(?P<against>{_NUMBER})"
    rf"{_BETWEEN}\s+(?:against|opposed))?",
    re.IGNORECASE,
)
_DEFERRING = re.compile(rf"(?P<n>{_NUMBER}){_BETWEEN}\s+(?:deferring|deferential|defers?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class NoteReading:
    """What a note says: an outcome (or None), each FOR-AGAINST count in the order written, those deferring."""

    outcome: str | None
    counts: tuple[tuple[int, int], ...] = ()
    deferring: int | None = None


def number(text: str) -> int:
    """A count as written, in digits or in words ("5", "five", "twenty-one")."""
    text = re.sub(r"\s+", " ", text.strip().casefold())
    return int(text) if text.isdigit() else _NUMBER_WORDS[text]


def outcome_word(word: str) -> str:
    """The outcome a word of a note names ("passes", "Timed out", "self killed")."""
    word = re.sub(r"[\s-]+", "", word.casefold())
    if word.startswith(("enact", "pass")):
        return ENACTED
    if word.startswith(("fail", "tim")):
        return FAILED
    if word.startswith("veto"):
        return VETOED
    if word.startswith("self"):
        return SELF_KILLED
    return ILLEGAL if word == "illegal" else QUARANTINED


def note_outcome(note: str) -> str | None:
    """The first outcome the note names, wherever it stands; None when it names none."""
    match = _OUTCOME.search(note or "")
    return outcome_word(match["word"]) if match else None


def note_counts(note: str) -> tuple[tuple[int, int], ...]:
    """Every FOR-AGAINST count in the note, in the order written: "5-1", "6 votes to 2", "three to one",
    "4 for, 1 against", "five in favour and two against". "N in favour" with no AGAINST named counts N to 0."""
    found: list[tuple[int, tuple[int, int]]] = []
    taken: list[range] = []
    for pattern in (_FOR_AGAINST, _IN_FAVOUR, _PAIR):
        for match in pattern.finditer(note or ""):
            span = range(*match.span())
            if any(span.start < t.stop and t.start < span.stop for t in taken):
                continue
            taken.append(span)
            against = number(match["against"]) if match["against"] else 0
            found.append((span.start, (number(match["for"]), against)))
    return tuple(pair for _, pair in sorted(found))


def note_deferring(note: str) -> int | None:
    """How many the note says deferred ("and one deferring"), or None when it does not say."""
    match = _DEFERRING.search(note or "")
    return number(match["n"]) if match else None


def read_note(note: str) -> NoteReading:
    return NoteReading(outcome=note_outcome(note), counts=note_counts(note), deferring=note_deferring(note))


def recorded_result(*, status_outcome: str | None, note: str) -> dict[str, Any] | None:
    """The recorded result kept with a resolution, or None when neither the status nor the note gives an
    outcome. The status's outcome stands; a note that names a way of failing ("Vetoed", "Self-killed")
    under a status of failed says how it failed. Shape::

        {"outcome": "enacted" | "failed" | "vetoed" | "self-killed" | "illegal" | "quarantined",
         "source": "status" | "note", "counts": [[FOR, AGAINST], ...], "deferring": int | None}
    """
    reading = read_note(note)
    outcome, source = status_outcome, "status"
    if outcome is None:
        outcome, source = reading.outcome, "note"
    elif outcome == FAILED and reading.outcome in KINDS_OF_FAILING:
        outcome, source = reading.outcome, "note"
    if outcome is None:
        return None
    return {
        "outcome": outcome,
        "source": source,
        "counts": [list(pair) for pair in reading.counts],
        "deferring": reading.deferring,
    }


def outcome_kept(recorded_outcome: str) -> str:
    """The outcome a matter is kept with here: illegal and quarantined matters failed."""
    return FAILED if recorded_outcome in (ILLEGAL, QUARANTINED) else recorded_outcome


def status_left(recorded_outcome: str) -> str:
    """The status a recorded outcome leaves a matter in: enacted, or failed."""
    return ENACTED if recorded_outcome == ENACTED else FAILED
