"""What decides a pending matter now, said once (``votes.standing``): from the resolution options the
resolving service checks and the engine's judgement."""

from __future__ import annotations

from dynasties.profiles import get_profile
from votes.limits import ALLOWED, RESOLVE_NOT_LEGAL, RESOLVE_NOT_OLDEST, LimitVerdict
from votes.standing import (
    CAN_ENACT,
    CAN_ENACT_WITHOUT_AMENDMENT,
    CAN_FAIL,
    ENACT_WITHOUT_AMENDMENT,
    NOT_YET,
    WAITS_FOR_HIATUS,
    WAITS_FOR_OLDEST,
    standing_of,
)

from .builders import hours, judged, matter, vote, votes

P = get_profile("2016")
YES = LimitVerdict(allowed=True, message=ALLOWED)
NOT_LEGAL = LimitVerdict(allowed=False, message=RESOLVE_NOT_LEGAL)
NOT_OLDEST = LimitVerdict(allowed=False, message=RESOLVE_NOT_OLDEST)
HIATUS = LimitVerdict(allowed=False, message="The game is in hiatus (a Declaration of Victory is pending): …")
QUORUM_FOR = matter(votes("for", "Ben", "Cat", "Dan", "Eve"))


def test_what_the_options_allow_is_the_verdict() -> None:
    enactable = judged(QUORUM_FOR, P, 13)
    assert standing_of({"enact": YES, "fail": NOT_LEGAL}, enactable).verdict == CAN_ENACT
    failable = judged(matter(vote("Amy", 1, "against")), P, 2)
    assert standing_of({"enact": NOT_LEGAL, "fail": YES}, failable).verdict == CAN_FAIL


def test_enacting_only_without_the_amendment_says_why() -> None:
    obstacle = LimitVerdict(allowed=False, message="its amendment no longer applies")
    options = {"enact": obstacle, "fail": NOT_LEGAL, ENACT_WITHOUT_AMENDMENT: YES}
    standing = standing_of(options, judged(QUORUM_FOR, P, 13))
    assert (standing.verdict, standing.why) == (CAN_ENACT_WITHOUT_AMENDMENT, "Its amendment no longer applies.")
    assert standing.can_enact and standing.from_moment is None


def test_a_proposal_behind_an_older_one_names_it_and_no_moment() -> None:
    """2016 "the oldest pending Proposal … may be resolved": whatever its votes say, a newer Proposal waits,
    so no "could be enacted from" is offered, which the queue would make untrue."""
    waiting = judged(QUORUM_FOR, P, 3)
    assert waiting.enact_from == hours(12)
    standing = standing_of({"enact": NOT_OLDEST, "fail": NOT_OLDEST}, waiting, oldest_title="Proposal: Older")
    assert standing.verdict == WAITS_FOR_OLDEST
    assert standing.why == "Only the oldest pending Proposal may be resolved, and “Proposal: Older” is older."
    assert standing.from_moment is None


def test_a_proposal_behind_an_older_one_says_its_own_votes_would_allow_it() -> None:
    standing = standing_of({"enact": NOT_OLDEST, "fail": NOT_OLDEST}, judged(QUORUM_FOR, P, 13))
    assert standing.why.endswith("On its own votes it could be enacted now.")


def test_the_hiatus_decides_before_the_votes() -> None:
    standing = standing_of({"enact": HIATUS, "fail": HIATUS}, judged(QUORUM_FOR, P, 3))
    assert standing.verdict == WAITS_FOR_HIATUS and standing.why.startswith("The game is in hiatus")
    assert standing.from_moment is None


def test_when_time_alone_decides_only_the_first_moment_is_told() -> None:
    """Quorum FOR at 3 hours: enactable at 12 hours; that it could also be failed as stale after seven days is
    not worth telling beside it."""
    judgement = judged(QUORUM_FOR, P, 3)
    standing = standing_of({"enact": NOT_LEGAL, "fail": NOT_LEGAL}, judgement)
    assert (standing.verdict, standing.from_action, standing.from_moment) == (NOT_YET, "enacted", hours(12))
    one_for = judged(matter(), P, 3)
    standing = standing_of({"enact": NOT_LEGAL, "fail": NOT_LEGAL}, one_for)
    assert (standing.from_action, standing.from_moment) == ("failed", one_for.fail_from)


def test_enacting_later_without_the_amendment_is_said_with_the_moment() -> None:
    standing = standing_of(
        {"enact": NOT_LEGAL, "fail": NOT_LEGAL},
        judged(QUORUM_FOR, P, 3),
        later_obstacle="its amendment no longer applies",
    )
    assert standing.from_moment == hours(12) and standing.from_caveat == "Its amendment no longer applies."
