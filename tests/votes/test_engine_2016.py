"""The 2016 profile (the 2015 ruleset and Ruleset 142), clause by clause: Votable Matters, Special
Proposal Voting, Resolution of Proposals, stale proposals, Calls for Judgement and Declarations of
Victory."""

from __future__ import annotations

from dynasties.profiles import get_profile
from votes.engine import INSTANT, is_stale, oldest_pending

from .builders import EMPEROR, hours, judged, matter, tallied, vote, votes

P = get_profile("2016")
FIVE_FOR = votes("for", "Ben", "Cat", "Dan", "Eve")  # with the author's implicit FOR


# --- Votable Matters ---


def test_vote_is_the_last_valid_icon() -> None:
    """2016 'A Hunter's Vote on a Votable Matter is the last valid voting icon that they have used'."""
    counted = tallied(matter(vote("Ben", 1, "for"), vote("Ben", 2, "against")), P, 3)
    assert counted.votes["Ben"] == "against"
    assert counted.effective_ballot["Ben"] == "Ben@2"
    assert counted.superseded == frozenset({"Ben@1"})


def test_non_hunter_never_has_a_vote() -> None:
    """2016 'A non-Hunter never has a Vote, even if they were a Hunter previously and had cast a valid
    Vote.'"""
    players = ("Amy", "Cat", "Dan", EMPEROR)
    counted = tallied(matter(vote("Ben", 1, "against")), P, 2, players=players)
    assert "Ben" not in counted.votes
    assert counted.not_counted == frozenset({"Ben@1"})
    assert counted.quorum == 3


def test_author_counts_for_on_every_votable_matter() -> None:
    """2016 'if the author of a Votable Matter has not used a valid voting icon ... the author's Vote is
    FOR': Proposals, CfJs and DoVs alike."""
    for kind in ("proposal", "cfj", "dov"):
        assert tallied(matter(kind=kind), P, 1).votes == {"Amy": "for"}


def test_authors_invalid_deferential_leaves_the_implicit_for() -> None:
    """2016 a DEFERENTIAL is not a 'valid voting icon' while the Pirate has no vote, so the author who only
    deferred still counts as FOR; the deferral is not counted."""
    counted = tallied(matter(vote("Amy", 1, "deferential")), P, 2)
    assert counted.votes["Amy"] == "for"
    assert "Amy" not in counted.effective_ballot
    assert counted.not_counted == frozenset({"Amy@1"})


# --- Special Proposal Voting ---


def test_self_kill_stands_even_if_the_author_changes_their_vote() -> None:
    """2016 'renders the Proposal Self-Killed, even if the author later changes their Vote.'"""
    judgement = judged(matter(vote("Amy", 1, "against"), vote("Amy", 2, "for"), FIVE_FOR), P, 13)
    assert judgement.tally.votes["Amy"] == "for"
    assert judgement.tally.self_killed
    assert not judgement.can_enact
    assert judgement.reasons == ["Self-killed by its author"]


def test_deferring_against_ones_own_proposal_is_not_a_self_kill() -> None:
    """2016 'a vote AGAINST their own Proposal (which is not in the form of a DEFERENTIAL vote)'."""
    counted = tallied(matter(vote("Amy", 1, "deferential"), vote(EMPEROR, 2, "against")), P, 3)
    assert counted.votes["Amy"] == "against"
    assert not counted.self_killed


def test_veto_stands_even_if_the_pirate_changes_their_vote() -> None:
    """2016 'renders the Proposal Vetoed, even if the Pirate later changes their Vote.'"""
    judgement = judged(matter(vote(EMPEROR, 1, "veto"), vote(EMPEROR, 2, "for"), FIVE_FOR), P, 13)
    assert judgement.tally.vetoed
    assert judgement.tally.votes[EMPEROR] == "for"
    assert not judgement.can_enact
    assert judgement.reasons == ["Vetoed by the Emperor"]


def test_only_the_pirate_may_veto_and_only_proposals() -> None:
    """2016 'The Pirate may use VETO as a voting icon to cast a Vote on a proposal'."""
    by_hunter = tallied(matter(vote("Ben", 1, "veto")), P, 2)
    assert not by_hunter.vetoed and by_hunter.not_counted == frozenset({"Ben@1"})
    on_cfj = tallied(matter(vote(EMPEROR, 1, "veto"), kind="cfj"), P, 2)
    assert not on_cfj.vetoed and on_cfj.not_counted == frozenset({f"{EMPEROR}@1"})


def test_deferential_is_the_pirates_vote_while_they_vote_for_or_against() -> None:
    """2016 'When the Pirate has a valid Vote other than VETO on a Proposal, then all votes of DEFERENTIAL
    are instead considered to be valid and the same as the Pirate's Vote'."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "against")), P, 3)
    assert counted.votes["Ben"] == "against"
    assert counted.effective_ballot["Ben"] == "Ben@1"
    assert counted.against_count == 2
    assert counted.not_voting_against == 7


def test_deferential_waits_while_the_pirate_has_not_voted() -> None:
    """2016 before the Pirate votes a lone DEFERENTIAL is not valid: it is shown as unresolved and counts
    neither FOR nor AGAINST. The Pirate's vote after `now` is not seen."""
    subject = matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 5, "for"))
    counted = tallied(subject, P, 4)
    assert counted.votes["Ben"] == "deferential"
    assert counted.effective_ballot["Ben"] == "Ben@1"
    assert (counted.for_count, counted.valid_count) == (1, 1)
    assert tallied(subject, P, 5).votes["Ben"] == "for"


def test_invalid_deferential_leaves_the_last_valid_vote() -> None:
    """2016 the Vote is 'the last valid voting icon': FOR then DEFERENTIAL still counts FOR until the
    Pirate votes, and then follows the Pirate."""
    subject = matter(vote("Ben", 1, "for"), vote("Ben", 2, "deferential"), vote(EMPEROR, 5, "against"))
    before = tallied(subject, P, 3)
    assert before.votes["Ben"] == "for"
    assert before.effective_ballot["Ben"] == "Ben@1"
    assert before.not_counted == frozenset({"Ben@2"})
    after = tallied(subject, P, 6)
    assert after.votes["Ben"] == "against"
    assert after.effective_ballot["Ben"] == "Ben@2"
    assert after.superseded == frozenset({"Ben@1"})


def test_deferential_is_not_valid_while_the_pirate_vetoes() -> None:
    """2016 DEFERENTIAL needs 'a valid Vote other than VETO' from the Pirate."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "veto")), P, 3)
    assert counted.votes["Ben"] == "deferential"


def test_deferential_in_a_metadynasty_never_counts() -> None:
    """2016 'If there is no Pirate, the Dynasty is a Metadynasty': a DEFERENTIAL never becomes valid."""
    counted = tallied(matter(vote("Ben", 1, "deferential")), P, 3, emperor=None)
    assert counted.votes["Ben"] == "deferential"
    assert counted.valid_count == 1


def test_the_pirate_cannot_defer() -> None:
    """2016 'If a Hunter other than the Pirate casts a vote of DEFERENTIAL': the Pirate's is not counted."""
    counted = tallied(matter(vote(EMPEROR, 1, "deferential")), P, 2)
    assert EMPEROR not in counted.votes
    assert counted.not_counted == frozenset({f"{EMPEROR}@1"})


def test_deferential_on_a_cfj_is_not_valid() -> None:
    """2016 the DEFERENTIAL rule is 'Special Proposal Voting'; on a CfJ it is never a valid Vote."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "for"), kind="cfj"), P, 3)
    assert "Ben" not in counted.votes
    assert counted.not_counted == frozenset({"Ben@1"})


# --- Resolution of Proposals ---


def test_quorum_for_needs_12_hours() -> None:
    """2016 'has been open for voting for at least 12 hours': Quorum FOR at 11 hours cannot be enacted
    yet, and can from exactly 12 hours."""
    subject = matter(FIVE_FOR)
    early = judged(subject, P, 11)
    assert not early.can_enact and not early.can_fail
    assert early.enact_from == hours(12)
    assert "it has Quorum FOR but has been open 11 of 12 hours" in early.reasons[0]
    assert judged(subject, P, 12).can_enact


def test_design_example_reason() -> None:
    """The tally example: 9 players, 5 FOR and 3 AGAINST at 32.5 hours is enactable on Quorum."""
    subject = matter(FIVE_FOR, votes("against", "Fay", "Gus", "Hal"))
    judgement = judged(subject, P, 32.5)
    assert judgement.tally.open_hours == 32.5
    assert (judgement.can_enact, judgement.can_fail) == (True, False)
    assert judgement.reasons == ["5 FOR reaches Quorum 5 and it has been open 12 hours"]


def test_more_for_than_against_after_48_hours() -> None:
    """2016 'open for voting for at least 48 hours, it has more than 1 valid Vote cast on it, more valid
    Votes cast on it are FOR than are AGAINST'."""
    subject = matter(vote("Ben", 1, "for"), vote("Cat", 1, "against"))
    assert judged(subject, P, 47).enact_from == hours(48)
    judgement = judged(subject, P, 48)
    assert judgement.can_enact and not judgement.can_fail
    assert judgement.reasons == ["Open 48 hours with more FOR than AGAINST (2 to 1)"]


def test_tie_after_48_hours_fails() -> None:
    """2016 'open for voting for at least 48 hours and cannot be Enacted': a 2-2 tie."""
    subject = matter(vote("Ben", 1, "for"), votes("against", "Cat", "Dan"))
    judgement = judged(subject, P, 48)
    assert judgement.can_fail and not judgement.can_enact
    assert judgement.reasons == ["Open 48 hours and it cannot be enacted"]
    assert judged(subject, P, 20).fail_from == hours(48)


def test_single_vote_after_48_hours_fails() -> None:
    """2016 the 48-hour route needs 'more than 1 valid Vote', so the author alone cannot enact it."""
    judgement = judged(matter(), P, 50)
    assert judgement.can_fail and not judgement.can_enact


def test_fewer_than_quorum_not_voting_against_fails() -> None:
    """2016 'The number of Hunters who are not voting AGAINST it is less than Quorum.'"""
    blocked = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay")), P, 1)
    assert blocked.can_fail
    assert blocked.reasons == ["Only 4 players not voting AGAINST, fewer than Quorum 5"]
    assert not judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve")), P, 1).can_fail


def test_deferrals_to_an_against_pirate_count_as_against() -> None:
    """2016 deferrals are 'the same as the Pirate's Vote', so they count towards blocking Quorum."""
    subject = matter(votes("deferential", "Ben", "Cat", "Dan"), vote(EMPEROR, 1, "against"), vote("Eve", 1, "against"))
    judgement = judged(subject, P, 2)
    assert judgement.tally.against_count == 5
    assert judgement.can_fail


def test_stale_proposal_may_be_failed_after_seven_days() -> None:
    """2016 'If a proposal somehow ends up being pending for more than 7 days, it ... can be failed by any
    Admin': not at exactly 7 days, from the instant after."""
    subject = matter(FIVE_FOR)
    at_seven_days = judged(subject, P, 168)
    assert at_seven_days.can_enact and not at_seven_days.can_fail
    assert at_seven_days.fail_from == hours(168) + INSTANT
    stale = judged(subject, P, 169)
    assert stale.can_fail
    assert "Pending more than 7 days: it is skipped as the oldest and any admin may fail it" in stale.reasons


def test_stale_proposal_is_skipped_as_oldest() -> None:
    """2016 a stale proposal 'is ignored for the purpose of calculating the oldest pending proposal'."""
    pending = [("old", hours(0)), ("newer", hours(30))]
    assert oldest_pending(pending, profile=P, now=hours(168)) == "old"
    assert oldest_pending(pending, profile=P, now=hours(169)) == "newer"
    assert is_stale(hours(0), profile=P, now=hours(168) + INSTANT)
    assert not is_stale(hours(0), profile=P, now=hours(168))


# --- Calls for Judgement ---


def test_cfj_resolvable_with_quorum_against() -> None:
    """2016 'A Pending CFJ may be Resolved by an Admin if it has a Quorum of FOR Votes, a Quorum of AGAINST
    Votes': Quorum AGAINST fails it at once."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="cfj"), P, 1)
    assert judgement.can_fail and not judgement.can_enact


def test_cfj_resolvable_with_quorum_for() -> None:
    """2016 a CfJ with a Quorum of FOR Votes may be resolved at once, and is enacted."""
    assert judged(matter(FIVE_FOR, kind="cfj"), P, 1).can_enact


def test_cfj_needs_more_than_48_hours_without_quorum() -> None:
    """2016 'or if it has been open for voting for more than 48 hours': not at exactly 48 hours."""
    subject = matter(vote("Ben", 1, "for"), vote("Cat", 1, "against"), kind="cfj")
    at_48 = judged(subject, P, 48)
    assert not at_48.can_enact and not at_48.can_fail
    assert at_48.enact_from == hours(48) + INSTANT
    assert "voting continues until Quorum 5 FOR or Quorum 5 AGAINST or more than 48 hours open" in at_48.reasons[0]
    assert judged(subject, P, 48.01).can_enact


def test_cfj_tie_fails() -> None:
    """2016 'it is to be Enacted if it has more FOR Votes than AGAINST Votes and Failed otherwise'."""
    judgement = judged(matter(vote("Cat", 1, "against"), kind="cfj"), P, 49)
    assert judgement.can_fail and not judgement.can_enact


# --- Declarations of Victory ---


def test_dov_at_12_hours_with_pirate_for() -> None:
    """2016 'open for voting for at least 12 hours, has a number of FOR Votes that exceed or equal Quorum,
    and either the Pirate has Voted FOR it or it has no AGAINST Votes': the Pirate's FOR outweighs one
    AGAINST."""
    subject = matter(votes("for", "Ben", "Cat", "Dan", EMPEROR), vote("Eve", 1, "against"), kind="dov")
    assert judged(subject, P, 11).enact_from == hours(12)
    judgement = judged(subject, P, 12)
    assert judgement.can_enact
    assert judgement.reasons == ["5 FOR reaches Quorum 5, it has been open 12 hours and the Emperor voted FOR"]


def test_dov_at_12_hours_unopposed() -> None:
    """2016 the 12-hour route also applies when 'it has no AGAINST Votes'."""
    judgement = judged(matter(FIVE_FOR, kind="dov"), P, 12)
    assert judgement.can_enact
    assert judgement.reasons == ["5 FOR reaches Quorum 5, it has been open 12 hours and it has no AGAINST votes"]


def test_dov_at_24_hours_with_few_against() -> None:
    """2016 'open for voting for at least 24 hours, has a number of FOR Votes that exceed or equal Quorum,
    and has a number of AGAINST Votes lesser than half of Quorum, rounded down': 1 AGAINST < 2."""
    subject = matter(FIVE_FOR, vote("Fay", 1, "against"), kind="dov")
    early = judged(subject, P, 12)
    assert not early.can_enact
    assert early.enact_from == hours(24)
    assert judged(subject, P, 24).can_enact


def test_dov_with_half_quorum_against_waits_for_48_hours() -> None:
    """2016 2 AGAINST is not 'lesser than half of Quorum, rounded down' (5 // 2 = 2), so 5 FOR to 2 AGAINST
    waits for the 48-hour route: Quorum voted and more than half FOR."""
    subject = matter(FIVE_FOR, votes("against", "Fay", "Gus"), kind="dov")
    judgement = judged(subject, P, 24)
    assert not judgement.can_enact
    assert judgement.enact_from == hours(48)
    assert judged(subject, P, 48).reasons == ["Open 48 hours, 7 votes reach Quorum 5 and more than half are FOR (5)"]


def test_dov_at_48_hours_needs_a_quorum_of_votes() -> None:
    """2016 'has a number of Votes that exceed or equal Quorum, and more than half of its valid Votes are
    FOR': 3 FOR 1 AGAINST is 4 votes, short of Quorum 5, so it fails as it 'cannot be Enacted'."""
    subject = matter(votes("for", "Ben", "Cat"), vote("Dan", 1, "against"), kind="dov")
    judgement = judged(subject, P, 48)
    assert not judgement.can_enact and judgement.can_fail
    assert judgement.reasons == ["Open 48 hours and it cannot be enacted"]
    passing = matter(votes("for", "Ben", "Cat"), votes("against", "Dan", "Eve"), kind="dov")
    assert judged(passing, P, 48).can_enact


def test_dov_fails_from_12_hours_when_quorum_is_out_of_reach() -> None:
    """2016 'open for voting for at least 12 hours, and the number of Hunters who are not voting AGAINST it
    is less than Quorum'."""
    subject = matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="dov")
    early = judged(subject, P, 11)
    assert not early.can_fail
    assert early.fail_from == hours(12)
    judgement = judged(subject, P, 12)
    assert judgement.can_fail
    assert judgement.reasons == ["Open 12 hours and only 4 players not voting AGAINST, fewer than Quorum 5"]


def test_dov_deferential_is_not_valid() -> None:
    """2016 a DEFERENTIAL on a DoV is never valid: it does not follow the Pirate's FOR."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "for"), kind="dov"), P, 3)
    assert "Ben" not in counted.votes


def test_a_new_dov_says_once_that_its_first_12_hours_decide() -> None:
    """2016 every route to enacting or failing a DoV waits at least 12 hours: before then that is all that
    decides, said once, not as "0 of 12 hours; 0 of 24 hours; 0 of 48 hours" for each route and action."""
    judgement = judged(matter(kind="dov"), P, 0.1)
    assert judgement.reasons == ["Cannot be enacted or failed yet: it has been open 0.1 of 12 hours"]


def test_a_dov_past_12_hours_tells_each_route_that_could_still_decide() -> None:
    """2016 at 13 hours with one AGAINST and the Pirate silent, the 12-hour route is closed by that AGAINST and
    the 24-hour route waits; the 48-hour route, which waits longer, is not told beside it."""
    subject = matter(FIVE_FOR, vote("Fay", 1, "against"), kind="dov")
    judgement = judged(subject, P, 13)
    assert judgement.reasons[0] == (
        "Cannot be enacted yet: the Emperor has not voted FOR and it has 1 AGAINST vote; "
        "it has been open 13 of 24 hours"
    )


def test_a_proposal_with_quorum_waiting_is_told_only_the_12_hour_mark() -> None:
    """2016 a Proposal with Quorum FOR at 3 hours waits for its 12 hours; the 48-hour simple majority, which
    comes later, decides nothing before then."""
    judgement = judged(matter(FIVE_FOR), P, 3)
    assert judgement.reasons[0] == "Cannot be enacted yet: it has Quorum FOR but has been open 3 of 12 hours"
