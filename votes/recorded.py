"""The result an imported matter was given on the site it came from, read from its resolution's tally.

The WordPress import keeps what the old site's admins recorded under ``Resolution.tally["recorded"]``:
``{"outcome", "source", "counts", "deferring"}``, where ``outcome`` is one of ``OUTCOMES``, ``source`` says
whether it was read from the post's status or from the admin's note, ``counts`` lists the FOR-AGAINST pairs
written (an admin may write more than one, "5-2, then 5-3") and ``deferring`` the DEFERENTIAL votes when
written. A pure reader: a malformed record reads as none, so a page never fails on an old import.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OUTCOMES = {
    "enacted": "Enacted",
    "failed": "Failed",
    "vetoed": "Vetoed",
    "self-killed": "Self-killed",
    "illegal": "Illegal",
    "quarantined": "Quarantined",
}
SOURCES = {"status": "the post's status", "note": "the admin's note"}


@dataclass(frozen=True)
class Recorded:
    outcome: str
    source: str
    counts: tuple[tuple[int, int], ...]
    deferring: int | None

    @property
    def outcome_label(self) -> str:
        return OUTCOMES[self.outcome]

    @property
    def source_label(self) -> str:
        return SOURCES[self.source]

    @property
    def final_count(self) -> tuple[int, int] | None:
        """The last FOR-AGAINST pair written: the count the matter was resolved on."""
        return self.counts[-1] if self.counts else None

    def differs_from(self, for_count: int, against_count: int) -> bool:
        """Whether the engine's count is not the one recorded (False when no count was recorded)."""
        return self.final_count is not None and self.final_count != (for_count, against_count)


def _count(value: Any) -> int | None:
    # bool is an int in Python; a count is never true or false.
    return value if type(value) is int and value >= 0 else None


def read_recorded(tally: Any) -> Recorded | None:
    """The recorded result in a resolution's ``tally``, or None when it holds none or holds it malformed."""
    record = tally.get("recorded") if isinstance(tally, dict) else None
    if not isinstance(record, dict):
        return None
    outcome, source, pairs = record.get("outcome"), record.get("source"), record.get("counts", [])
    if outcome not in OUTCOMES or source not in SOURCES or not isinstance(pairs, list):
        return None
    counts = []
    for pair in pairs:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            return None
        for_count, against_count = _count(pair[0]), _count(pair[1])
        if for_count is None or against_count is None:
            return None
        counts.append((for_count, against_count))
    deferring = record.get("deferring")
    if deferring is not None and _count(deferring) is None:
        return None
    return Recorded(outcome=outcome, source=source, counts=tuple(counts), deferring=deferring)
