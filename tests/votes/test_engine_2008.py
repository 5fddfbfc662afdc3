"""The 2008 profile (Rulesets 50 and 52), clause by clause: votes, DEFERENTIAL, Self-Kill, the Mayor's
VETO, enactment, failure, Calls for Judgement and Declarations of Victory."""

from __future__ import annotations

from dynasties.profiles import get_profile

from .builders import EMPEROR, hours, judged, matter, tallied, vote, votes

P = get_profile("2008")
FIVE_FOR = votes("for", "Ben", "Cat", "Dan", "Eve")  # with the author's implicit FOR


# --- Votes ---


def test_only_the_most_recent_vote_counts() -> None:
    """2008 'If a Villager casts more than one Vote on a Proposal, only the most recent of those Votes is
    counted.'"""
    counted = tallied(matter(vote("Ben", 1, "against"), vote("Ben", 2, "deferential"), vote("Ben", 3, "for")), P, 4)
    assert counted.votes["Ben"] == "for"
    assert counted.superseded == frozenset({"Ben@1", "Ben@2"})


def test_idle_villagers_votes_no_longer_count() -> None:
    """2008 'If a Villager leaves the game or goes Idle, their Vote no longer counts.'"""
    players = ("Amy", "Cat", "Dan")
    counted = tallied(matter(vote("Ben", 1, "against")), P, 2, players=players, emperor=None)
    assert counted.votes == {"Amy": "for"}
    assert counted.active_count == 3 and counted.quorum == 2
    assert counted.not_counted == frozenset({"Ben@1"})


def test_author_who_has_not_voted_counts_for() -> None:
    """2008 'If the Villager who made a Proposal has not cast a Vote on it, their Vote is counted as FOR.'"""
    assert tallied(matter(), P, 1).votes == {"Amy": "for"}


def test_no_implicit_vote_on_a_dov() -> None:
    """2008 gives the implicit FOR to 'the Villager who made a Proposal' only; a DoV's poster must vote."""
    assert tallied(matter(kind="dov"), P, 1).votes == {}


# --- DEFERENTIAL ---


def test_deferential_counts_as_the_mayors_vote() -> None:
    """2008 'The vote will count as the same as the Mayor's vote.'"""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "for")), P, 3)
    assert counted.votes["Ben"] == "for"
    assert counted.for_count == 3


def test_mayor_cannot_defer() -> None:
    """2008 'The Mayor cannot cast a vote of DEFERENTIAL.'"""
    counted = tallied(matter(vote(EMPEROR, 1, "deferential")), P, 2)
    assert EMPEROR not in counted.votes
    assert counted.not_counted == frozenset({f"{EMPEROR}@1"})


def test_deferential_without_a_mayor_abstains() -> None:
    """2008 'If there is no Mayor, a vote of DEFERENTIAL counts as an explicit vote of abstention.'"""
    counted = tallied(matter(vote("Ben", 1, "deferential")), P, 2, emperor=None)
    assert counted.votes["Ben"] == "deferential"
    assert counted.valid_count == 1


def test_deferential_follows_a_mayors_veto_nowhere() -> None:
    """2008 a VETO is neither FOR nor AGAINST, so a deferral to a vetoing Mayor counts neither way."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "veto")), P, 3)
    assert counted.votes["Ben"] == "deferential"
    assert counted.votes[EMPEROR] == "veto"


# --- Self-Kill and VETO ---


def test_self_kill_cannot_be_changed() -> None:
    """2008 'If a Villager votes against their own proposal, that vote may not be changed. This is
    referred to as a Self-Kill.'"""
    counted = tallied(matter(vote("Amy", 1, "against"), vote("Amy", 2, "for")), P, 3)
    assert counted.self_killed
    assert counted.votes["Amy"] == "against"
    assert counted.not_counted == frozenset({"Amy@2"})


def test_self_killed_proposal_cannot_be_enacted_and_may_be_failed() -> None:
    """2008 enactment needs it to have 'not been vetoed or self-killed'; failing is allowed when 'The
    Villager who proposed it has voted AGAINST it.'"""
    subject = matter(vote("Amy", 1, "against"), votes("for", "Ben", "Cat", "Dan", "Eve", "Fay"))
    judgement = judged(subject, P, 13)
    assert judgement.tally.for_count == 5
    assert not judgement.can_enact
    assert judgement.can_fail
    assert judgement.reasons == ["Self-killed by its author"]
    assert judgement.enact_from is None


def test_mayors_veto_fails_it() -> None:
    """2008 'The Mayor may vote to VETO any Proposal' and it may be failed if 'The Mayor has voted to
    VETO it.'"""
    judgement = judged(matter(FIVE_FOR, vote(EMPEROR, 2, "veto")), P, 13)
    assert judgement.tally.vetoed
    assert not judgement.can_enact
    assert judgement.reasons == ["Vetoed by the Emperor"]


def test_mayors_veto_is_a_vote_that_can_change() -> None:
    """2008 the VETO is a vote ('has voted to VETO it'), and only the most recent vote counts."""
    counted = tallied(matter(vote(EMPEROR, 1, "veto"), vote(EMPEROR, 2, "for")), P, 3)
    assert not counted.vetoed
    assert counted.votes[EMPEROR] == "for"


# --- Enactment ---


def test_quorum_for_needs_12_hours_open() -> None:
    """2008 'It has a number of FOR votes that exceed or equal Quorum, has been open for voting for at
    least 12 hours': exactly Quorum FOR waits until exactly 12 hours."""
    subject = matter(FIVE_FOR)
    early = judged(subject, P, 11.99)
    assert not early.can_enact
    assert early.enact_from == hours(12)
    on_time = judged(subject, P, 12)
    assert on_time.can_enact
    assert on_time.reasons == ["5 FOR reaches Quorum 5 and it has been open 12 hours"]


def test_majority_after_48_hours() -> None:
    """2008 'open for voting for at least 48 hours, it has more than 1 valid vote, more than half of its
    votes are FOR': 3 FOR to 2 AGAINST enacts at exactly 48 hours."""
    subject = matter(votes("for", "Ben", "Cat"), votes("against", "Dan", "Eve"))
    assert not judged(subject, P, 47.9).can_enact
    assert judged(subject, P, 47.9).enact_from == hours(48)
    assert judged(subject, P, 48).can_enact


def test_single_valid_vote_cannot_enact() -> None:
    """2008 the 48-hour route needs 'more than 1 valid vote'; the author alone may instead be failed for
    'fewer than 2 valid votes'."""
    judgement = judged(matter(), P, 48)
    assert not judgement.can_enact
    assert judgement.can_fail
    assert "Open 48 hours with fewer than 2 valid votes" in judgement.reasons


def test_abstentions_are_not_valid_votes() -> None:
    """2008 an abstaining DEFERENTIAL is not FOR or AGAINST, so it does not make a second valid vote."""
    judgement = judged(matter(vote("Ben", 1, "deferential")), P, 48, emperor=None)
    assert judgement.tally.valid_count == 1
    assert not judgement.can_enact and judgement.can_fail


# --- Failure ---


def test_enough_against_fails_it_before_12_hours() -> None:
    """2008 'It has enough AGAINST votes that it could not be Enacted without one of those votes being
    changed': 5 AGAINST of 9 fails it at once."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay")), P, 1)
    assert judgement.can_fail
    assert judgement.fail_from == hours(1)


def test_exactly_quorum_not_against_is_not_blocked() -> None:
    """2008 with 4 AGAINST of 9 the other 5 could reach Quorum 5, so it is not failed for that."""
    assert not judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve")), P, 1).can_fail


def test_half_or_fewer_for_after_48_hours_fails_it() -> None:
    """2008 'open for voting for at least 48 hours and half or fewer of its votes are FOR': a 2-2 tie."""
    subject = matter(vote("Ben", 1, "for"), votes("against", "Cat", "Dan"))
    early = judged(subject, P, 47)
    assert not early.can_fail
    assert early.fail_from == hours(48)
    judgement = judged(subject, P, 48)
    assert judgement.can_fail and not judgement.can_enact
    assert judgement.reasons == ["Open 48 hours with half or fewer of its votes FOR (2 FOR to 2 AGAINST)"]


# --- Calls for Judgement ---


def test_cfj_ends_on_quorum_against() -> None:
    """2008 'Unfailed CfJs continue until they reach a quorum of FOR votes, a quorum of AGAINST votes':
    then half or fewer FOR fails it."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="cfj"), P, 1)
    assert judgement.can_fail
    assert judgement.reasons == [
        "5 AGAINST reaches Quorum 5 and half or fewer of the cast votes are FOR (0 FOR to 5 AGAINST)"
    ]


def test_cfj_ends_after_four_days_without_hiatus() -> None:
    """2008 'if there is no hiatus going on, until four days have passed'."""
    subject = matter(votes("for", "Ben", "Cat"), vote("Dan", 1, "against"), kind="cfj")
    early = judged(subject, P, 95)
    assert not early.can_enact and not early.can_fail
    assert early.enact_from == hours(96)
    assert judged(subject, P, 96).can_enact


def test_cfj_ends_after_two_days_during_hiatus() -> None:
    """2008 'and if there is a hiatus going on until two days have passed'."""
    subject = matter(votes("for", "Ben", "Cat"), vote("Dan", 1, "against"), kind="cfj")
    early = judged(subject, P, 10, hiatus=True)
    assert early.enact_from == hours(48)
    judgement = judged(subject, P, 48, hiatus=True)
    assert judgement.can_enact
    assert judgement.reasons[0].startswith("Open 48 hours during hiatus")


def test_anonymous_cfj_has_no_implicit_vote() -> None:
    """2008 a Villager 'may post anonymously': the anonymous author is no Villager and has no vote."""
    assert P.cfj_anonymous
    counted = tallied(matter(kind="cfj", author="Call for Judgment"), P, 1)
    assert counted.votes == {}


# --- Declarations of Victory ---


def test_dov_answers_use_for_and_against_only() -> None:
    """2008 Villagers respond to a DoV '(using the FOR and AGAINST icons)': a DEFERENTIAL is not counted."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "for"), kind="dov"), P, 3)
    assert "Ben" not in counted.votes
    assert counted.not_counted == frozenset({"Ben@1"})


def test_dov_may_be_resolved_after_24_hours() -> None:
    """2008 'The Declaration of Victory may be resolved after 24 hours': Quorum FOR waits until then."""
    subject = matter(votes("for", "Amy", "Ben", "Cat", "Dan", "Eve"), kind="dov")
    early = judged(subject, P, 23)
    assert not early.can_enact and not early.can_fail
    assert early.enact_from == hours(24)
    assert judged(subject, P, 24).can_enact


def test_dov_may_be_resolved_after_12_hours_once_the_mayor_voted() -> None:
    """2008 'or after 12 hours if the Mayor has voted on it'."""
    subject = matter(votes("for", "Amy", "Ben", "Cat", "Dan", EMPEROR), kind="dov")
    assert judged(subject, P, 11).enact_from == hours(12)
    assert judged(subject, P, 12).can_enact


def test_dov_needs_a_quorum_of_voters() -> None:
    """2008 'if a Quorum of Villagers have voted on the DoV and more than half of those votes were in
    favour, then the DoV passes - otherwise the DoV fails': 3 FOR 1 AGAINST is too few voters."""
    judgement = judged(matter(votes("for", "Amy", "Ben", "Cat"), vote("Dan", 1, "against"), kind="dov"), P, 24)
    assert judgement.can_fail and not judgement.can_enact
    assert judgement.reasons == ["Open 24 hours and it fails: 4 votes do not reach Quorum 5"]


def test_dov_passes_with_quorum_voting_and_majority_for() -> None:
    """2008 exactly Quorum voters (3 FOR, 2 AGAINST) with more than half in favour passes it."""
    judgement = judged(matter(votes("for", "Amy", "Ben", "Cat"), votes("against", "Dan", "Eve"), kind="dov"), P, 24)
    assert judgement.can_enact and not judgement.can_fail


def test_dov_tie_fails() -> None:
    """2008 a tie is not 'more than half of those votes ... in favour', so the DoV fails."""
    subject = matter(votes("for", "Amy", "Ben", "Cat"), votes("against", "Dan", "Eve", "Fay"), kind="dov")
    judgement = judged(subject, P, 24)
    assert judgement.can_fail and not judgement.can_enact
