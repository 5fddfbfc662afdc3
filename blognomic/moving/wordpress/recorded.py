"""What an admin wrote in a post's admin field when resolving it, read as an outcome and a tally.

BlogNomic's admins write the result in a few set phrases: "Enacted 5-0", "Failed 2-7", "Self-killed",
"Vetoed", "Enacted by Quorum", "Failed, 3-6", now and then with an en dash or more words after. A pure
function, so the import can compare what was recorded with what the engine counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ENACTED = "enacted"
FAILED = "failed"
VETOED = "vetoed"
SELF_KILLED = "self-killed"


@dataclass(frozen=True)
class RecordedResult:
    outcome: str  # enacted, failed, vetoed or self-killed
    for_count: int | None = None
    against_count: int | None = None

    @property
    def status(self) -> str:
        return ENACTED if self.outcome == ENACTED else FAILED


_OUTCOME = re.compile(
    r"^\W*(?P<word>enacted|passed|failed|timed[\s-]*out|vetoed|self[\s-]*killed|illegal)\b(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
# "5-0", "5 - 0", "5–0", "5 to 0"; digits only, at most four of them: no admin counted ten thousand votes.
_COUNTS = re.compile(r"(?<!\d)(\d{1,4})\s*(?:-|–|—|to)\s*(\d{1,4})(?!\d)", re.ASCII | re.IGNORECASE)
_WORDS = {
    "enacted": ENACTED,
    "passed": ENACTED,
    "failed": FAILED,
    "timedout": FAILED,
    "vetoed": VETOED,
    "selfkilled": SELF_KILLED,
    "illegal": SELF_KILLED,
}


def parse_recorded_result(text: str) -> RecordedResult | None:
    """The outcome (and FOR-AGAINST counts, when written) an admin recorded; None when the text says neither.

    Only the first line counts: an admin field may go on with remarks that hold numbers of their own.
    """
    first = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    match = _OUTCOME.match(first)
    if match is None:
        return None
    outcome = _WORDS[re.sub(r"[\s-]", "", match["word"].lower())]
    counts = _COUNTS.search(match["rest"])
    if counts is None:
        return RecordedResult(outcome=outcome)
    return RecordedResult(outcome=outcome, for_count=int(counts[1]), against_count=int(counts[2]))
