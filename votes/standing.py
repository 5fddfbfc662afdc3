"""What decides a pending matter now, said once: the tally box, the toteboard and the admin panel all show this.

The engine judges a matter's own votes and age; `votes.limits.resolution_allowed` adds the queue of Proposals
and the hiatus; an amendment that no longer applies may stand in Enact's way. Each page used to put these
together itself, so a Proposal waiting behind an older one still read "could be enacted from …". Here they
are put together once: the verdict, what stands in the way when it is not the votes, and the moment from
which the matter could be resolved only when time alone decides it. Pure: no clock, no database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from votes.limits import RESOLVE_NOT_LEGAL, RESOLVE_NOT_OLDEST, LimitVerdict
from votes.tallying import Judgement

CAN_ENACT = "Can be enacted now."
CAN_ENACT_WITHOUT_AMENDMENT = "Can be enacted now, but only without its amendment."
CAN_FAIL = "Can be failed now."
WAITS_FOR_OLDEST = "Waits for the oldest pending Proposal."
WAITS_FOR_HIATUS = "Waits for the hiatus to end."
NOT_YET = "Cannot be resolved yet."

OLDEST_IS = "Only the oldest pending Proposal may be resolved, and “{oldest}” is older."
OLDEST_UNNAMED = "Only the oldest pending Proposal may be resolved, and an older one is pending."
VOTES_WOULD = {
    "enact": "On its own votes it could be enacted now.",
    "fail": "On its own votes it could be failed now.",
}

# Options keyed as `votes.judging.resolution_options` makes them, with what `with_enactment_obstacles` adds.
ENACT_WITHOUT_AMENDMENT = "enact_without_amendment"


@dataclass(frozen=True)
class Standing:
    """A pending matter's verdict now (``tone`` is "can-enact", "can-fail" or "cannot"), what stands in its way
    when the votes are not what decides (``why``), and, only when time alone decides, the moment from which it
    could be enacted or failed if nothing changes (``from_action`` and ``from_moment``; ``from_caveat`` when
    enacting then would be only without its amendment)."""

    verdict: str
    tone: str
    why: str = ""
    from_action: str = ""
    from_moment: datetime | None = None
    from_caveat: str = ""

    @property
    def can_enact(self) -> bool:
        return self.verdict in (CAN_ENACT, CAN_ENACT_WITHOUT_AMENDMENT)

    @property
    def can_fail(self) -> bool:
        return self.verdict == CAN_FAIL


def standing_of(
    options: Mapping[str, LimitVerdict],
    judgement: Judgement,
    *,
    oldest_title: str | None = None,
    later_obstacle: str = "",
) -> Standing:
    """The standing of a pending matter from its resolution ``options`` (enact / fail, and
    ``ENACT_WITHOUT_AMENDMENT`` where only that is offered) and the engine's ``judgement``.

    ``oldest_title`` names the Proposal it waits for, if it waits for one; ``later_obstacle`` is why enacting
    it when its votes first allow would be only without its amendment.
    """
    enact, fail = options["enact"], options["fail"]
    if enact.allowed:
        return Standing(CAN_ENACT, "can-enact")
    if ENACT_WITHOUT_AMENDMENT in options:
        return Standing(CAN_ENACT_WITHOUT_AMENDMENT, "can-enact", why=_sentence(enact.message))
    if fail.allowed:
        return Standing(CAN_FAIL, "can-fail")
    # Neither is allowed. The queue and the hiatus bar both actions alike, before the votes are looked at.
    would = " ".join(
        VOTES_WOULD[action] for action, legal in (("enact", judgement.can_enact), ("fail", judgement.can_fail)) if legal
    )
    if enact.message == RESOLVE_NOT_OLDEST:
        oldest = OLDEST_IS.format(oldest=oldest_title) if oldest_title else OLDEST_UNNAMED
        return Standing(WAITS_FOR_OLDEST, "cannot", why=_joined(oldest, would))
    if enact.message != RESOLVE_NOT_LEGAL:
        return Standing(WAITS_FOR_HIATUS, "cannot", why=_joined(enact.message, would))
    return _waiting_on_time(judgement, later_obstacle)


def _waiting_on_time(judgement: Judgement, later_obstacle: str) -> Standing:
    """Only its votes and age decide: the first moment it could be resolved, if nothing changes."""
    enact_from, fail_from = judgement.enact_from, judgement.fail_from
    if enact_from is not None and (fail_from is None or enact_from <= fail_from):
        caveat = _sentence(later_obstacle) if later_obstacle else ""
        return Standing(NOT_YET, "cannot", from_action="enacted", from_moment=enact_from, from_caveat=caveat)
    if fail_from is not None:
        return Standing(NOT_YET, "cannot", from_action="failed", from_moment=fail_from)
    return Standing(NOT_YET, "cannot")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _joined(*sentences: str) -> str:
    return " ".join(sentence for sentence in sentences if sentence)
