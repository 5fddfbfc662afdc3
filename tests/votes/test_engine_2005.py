"""The 2005 profile (Ruleset 21), clause by clause: votes, DEFERENTIAL, self-kill, veto, enactment,
failure, Trivial proposals, Calls for Judgement and Declarations of Victory."""

from __future__ import annotations

from dynasties.profiles import get_profile
from votes.engine import INSTANT

from .builders import EMPEROR, hours, judged, matter, tallied, vote, votes

P = get_profile("2005")


# --- Votes ---


def test_only_the_most_recent_vote_counts() -> None:
    """2005 'only the most recent of those Votes is counted': FOR then AGAINST counts as AGAINST."""
    counted = tallied(matter(vote("Ben", 1, "for"), vote("Ben", 2, "against")), P, 3)
    assert counted.votes["Ben"] == "against"
    assert counted.effective_ballot["Ben"] == "Ben@2"
    assert counted.superseded == frozenset({"Ben@1"})


def test_idle_and_departed_players_have_no_vote() -> None:
    """2005 'If a Family leaves the game or goes idle, their Vote no longer counts.'"""
    counted = tallied(matter(vote("Zed", 1, "for"), vote("Ben", 1, "for")), P, 2)
    assert "Zed" not in counted.votes
    assert counted.not_counted == frozenset({"Zed@1"})
    assert counted.for_count == 2  # Ben and the author


def test_author_without_explicit_vote_counts_for() -> None:
    """2005 'If the Family who made a Proposal has not cast an explicit Vote on it, their Vote is counted
    as FOR': the implicit vote has no comment behind it."""
    counted = tallied(matter(), P, 1)
    assert counted.votes == {"Amy": "for"}
    assert "Amy" not in counted.effective_ballot


def test_idle_author_has_no_implicit_vote() -> None:
    """2005 idle Families 'are not counted as Families': an idle author's proposal has no implicit FOR."""
    counted = tallied(matter(), P, 1, players=("Ben", "Cat", "Ivy"))
    assert counted.votes == {}


def test_implicit_author_vote_is_for_proposals_only() -> None:
    """2005 gives the implicit FOR to 'the Family who made a Proposal'; a CfJ's author must vote."""
    counted = tallied(matter(kind="cfj", title="Call for Judgment"), P, 1)
    assert counted.votes == {}


def test_comments_after_now_are_ignored() -> None:
    """A tally 'as it stood at that moment': a vote posted after `now` is not seen."""
    counted = tallied(matter(vote("Ben", 1, "for"), vote("Ben", 5, "against")), P, 4)
    assert counted.votes["Ben"] == "for"
    assert counted.superseded == frozenset()


def test_comments_without_icons_are_not_votes() -> None:
    """2005 valid votes 'must be represented by appropriate icons': a comment without one is no vote."""
    counted = tallied(matter(vote("Ben", 1, None)), P, 2)
    assert "Ben" not in counted.votes
    assert counted.not_counted == frozenset()


def test_unknown_icon_is_not_counted() -> None:
    """Only the four icons of the glossary are votes; anything else is not counted."""
    counted = tallied(matter(vote("Ben", 1, "for"), vote("Ben", 2, "maybe")), P, 3)
    assert counted.votes["Ben"] == "for"
    assert counted.not_counted == frozenset({"Ben@2"})


# --- DEFERENTIAL ---


def test_deferential_counts_as_the_dukes_vote() -> None:
    """2005 'The vote will count as the same as the Duke's vote.'"""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "against")), P, 3)
    assert counted.votes["Ben"] == "against"
    assert counted.effective_ballot["Ben"] == "Ben@1"
    assert counted.against_count == 2


def test_deferential_follows_the_dukes_latest_vote() -> None:
    """2005 DEFERENTIAL follows the Duke's counted vote, so it changes when the Duke's vote changes."""
    subject = matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "against"), vote(EMPEROR, 3, "for"))
    assert tallied(subject, P, 2.5).votes["Ben"] == "against"
    assert tallied(subject, P, 3.5).votes["Ben"] == "for"


def test_duke_cannot_defer() -> None:
    """2005 'The Duke cannot cast a vote of DEFERENTIAL': it is not counted and the Duke's FOR stands."""
    counted = tallied(matter(vote(EMPEROR, 1, "for"), vote(EMPEROR, 2, "deferential")), P, 3)
    assert counted.votes[EMPEROR] == "for"
    assert counted.not_counted == frozenset({f"{EMPEROR}@2"})


def test_deferential_without_a_duke_is_an_abstention() -> None:
    """2005 'If there is no Duke, a vote of DEFERENTIAL counts as an explicit vote of abstention.'"""
    counted = tallied(matter(vote("Ben", 1, "deferential")), P, 2, emperor=None)
    assert counted.votes["Ben"] == "deferential"
    assert (counted.for_count, counted.against_count, counted.valid_count) == (1, 0, 1)


def test_deferential_before_the_duke_votes_is_unresolved() -> None:
    """2005 DEFERENTIAL is 'the same as the Duke's vote'; while the Duke has none it counts neither way."""
    counted = tallied(matter(vote("Ben", 1, "deferential")), P, 2)
    assert counted.votes["Ben"] == "deferential"
    assert counted.for_count == 1


def test_authors_deferential_is_an_explicit_vote() -> None:
    """2005 the implicit FOR is for an author who 'has not cast an explicit Vote'; a DEFERENTIAL is one."""
    counted = tallied(matter(vote("Amy", 1, "deferential"), vote(EMPEROR, 2, "against")), P, 3)
    assert counted.votes["Amy"] == "against"


# --- Self-kill and veto ---


def test_proposers_against_cannot_be_changed() -> None:
    """2005 'When the proposer votes against his or her own proposal, that vote may not be changed.'"""
    counted = tallied(matter(vote("Amy", 1, "against"), vote("Amy", 2, "for")), P, 3)
    assert counted.votes["Amy"] == "against"
    assert counted.self_killed
    assert counted.effective_ballot["Amy"] == "Amy@1"
    assert counted.not_counted == frozenset({"Amy@2"})


def test_proposers_against_lets_an_admin_fail_it() -> None:
    """2005 'or if the Family who proposed it has voted AGAINST it ... any Admin Staff may mark that
    Proposal as Failed'."""
    judgement = judged(matter(vote("Amy", 1, "against")), P, 2)
    assert judgement.can_fail
    assert "Self-killed by its author" in judgement.reasons


def test_self_kill_does_not_forbid_enactment_in_2005() -> None:
    """2005 only permits failing a proposal its author opposed; with Quorum FOR it may also be enacted."""
    judgement = judged(matter(vote("Amy", 1, "against"), votes("for", "Ben", "Cat", "Dan", "Eve", "Fay")), P, 2)
    assert judgement.can_enact and judgement.can_fail


def test_dukes_veto_fails_it_at_once() -> None:
    """2005 'They may veto any Proposal; that Proposal immediately fails.' Quorum FOR cannot save it."""
    judgement = judged(matter(votes("for", "Ben", "Cat", "Dan", "Eve"), vote(EMPEROR, 2, "veto")), P, 3)
    assert judgement.tally.vetoed
    assert not judgement.can_enact
    assert judgement.can_fail
    assert judgement.reasons == ["Vetoed by the Emperor"]
    assert judgement.enact_from is None


def test_veto_stands_after_the_duke_votes_again() -> None:
    """2005 a veto makes the proposal fail 'immediately', so a later vote by the Duke does not undo it."""
    counted = tallied(matter(vote(EMPEROR, 1, "veto"), vote(EMPEROR, 2, "for")), P, 3)
    assert counted.vetoed
    assert counted.votes[EMPEROR] == "for"


def test_veto_by_anyone_but_the_duke_is_not_counted() -> None:
    """2005 the veto is one of 'The Duke ... powers': another Family's VETO icon is not counted."""
    counted = tallied(matter(vote("Ben", 1, "veto")), P, 2)
    assert not counted.vetoed
    assert "Ben" not in counted.votes
    assert counted.not_counted == frozenset({"Ben@1"})


def test_veto_on_a_cfj_is_not_counted() -> None:
    """2005 the Duke 'may veto any Proposal'; a VETO icon on a Call for Judgement means nothing."""
    counted = tallied(matter(vote(EMPEROR, 1, "veto"), kind="cfj"), P, 2)
    assert not counted.vetoed
    assert counted.not_counted == frozenset({f"{EMPEROR}@1"})


# --- Enactment ---


def test_quorum_for_enacts_at_once() -> None:
    """2005 'If the oldest pending Proposal's FOR votes exceed or equal Quorum': exactly Quorum FOR is
    enough, with no minimum time open."""
    judgement = judged(matter(votes("for", "Ben", "Cat", "Dan", "Eve", at_hours=0.5)), P, 0.5)
    assert judgement.tally.for_count == judgement.tally.quorum == 5
    assert judgement.can_enact
    assert judgement.reasons == ["5 FOR reaches Quorum 5"]
    assert judgement.enact_from == hours(0.5)


def test_one_short_of_quorum_waits_for_48_hours() -> None:
    """2005 one FOR short of Quorum is not enactable until 'more than 48 hours old' with most votes FOR."""
    judgement = judged(matter(votes("for", "Ben", "Cat", "Dan")), P, 2)
    assert not judgement.can_enact
    assert judgement.enact_from == hours(48) + INSTANT
    assert any("4 FOR is short of Quorum 5" in reason for reason in judgement.reasons)


def test_majority_for_needs_more_than_48_hours() -> None:
    """2005 'if it is more than 48 hours old and more than half of its votes are FOR': not at exactly 48."""
    subject = matter(votes("for", "Ben", "Cat"), votes("against", "Dan", "Eve"))
    at_48 = judged(subject, P, 48)
    assert not at_48.can_enact
    assert at_48.enact_from == hours(48) + INSTANT
    after_48 = judged(subject, P, 48.001)
    assert after_48.can_enact
    assert after_48.reasons == ["Open 48 hours with more FOR than AGAINST (3 to 2)"]


def test_tie_after_48_hours_is_neither_enacted_nor_failed() -> None:
    """2005 a tie is neither 'more than half ... FOR' nor 'most of its votes are AGAINST'."""
    tie = judged(matter(vote("Ben", 1, "for"), votes("against", "Cat", "Dan")), P, 60)
    assert (tie.tally.for_count, tie.tally.against_count) == (2, 2)
    assert not tie.can_enact and not tie.can_fail
    assert tie.reasons[0].startswith("Cannot be enacted yet: ")
    assert tie.reasons[1].startswith("Cannot be failed yet: ")
    assert tie.enact_from is None and tie.fail_from is None


# --- Failure ---


def test_enough_against_to_block_quorum_fails_it() -> None:
    """2005 'enough AGAINST votes that it could not be Enacted without one of those votes being changed':
    5 AGAINST of 9 leaves 4 possible FOR, short of Quorum 5."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay")), P, 1)
    assert judgement.can_fail
    assert judgement.reasons == ["Only 4 players not voting AGAINST, fewer than Quorum 5"]
    assert judgement.fail_from == hours(1)


def test_one_against_fewer_does_not_block() -> None:
    """2005 with 4 AGAINST of 9, the other 5 could still reach Quorum 5: it cannot be failed for that."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve")), P, 1)
    assert judgement.tally.not_voting_against == 5
    assert not judgement.can_fail


def test_all_voted_and_not_enactable_fails_it() -> None:
    """2005 'if all Families have voted on it and it still cannot be Enacted': 4 FOR, 4 AGAINST and one
    abstention in a Metadynasty."""
    subject = matter(
        votes("for", "Ben", "Cat", "Dan"),
        votes("against", "Eve", "Fay", "Gus", "Hal"),
        vote("Ivy", 2, "deferential"),
    )
    judgement = judged(subject, P, 3, emperor=None)
    assert len(judgement.tally.votes) == 9
    assert judgement.can_fail
    assert judgement.reasons == ["All 9 active players have voted and it cannot be enacted"]


def test_not_everyone_voted_keeps_it_open() -> None:
    """2005 the all-voted clause needs every Family's vote: with one missing, a 4-4 proposal stays open."""
    subject = matter(votes("for", "Ben", "Cat", "Dan"), votes("against", "Eve", "Fay", "Gus", "Hal"))
    judgement = judged(subject, P, 3)
    assert not judgement.can_fail
    assert "1 active player has not voted" in judgement.reasons[1]


def test_most_votes_against_after_48_hours_fails_it() -> None:
    """2005 'if it is more than 48 hours old and most of its votes are AGAINST'."""
    subject = matter(vote("Ben", 1, "for"), votes("against", "Cat", "Dan", "Eve"))
    before = judged(subject, P, 47)
    assert not before.can_fail
    assert before.fail_from == hours(48) + INSTANT
    after = judged(subject, P, 49)
    assert after.can_fail
    assert after.reasons == ["Open 49 hours with most of its votes AGAINST (2 FOR to 3 AGAINST)"]


def test_never_failable_when_it_can_only_pass() -> None:
    """2005 with Quorum FOR and no AGAINST, no failure clause can ever apply: fail_from is None."""
    judgement = judged(matter(votes("for", "Ben", "Cat", "Dan", "Eve")), P, 1)
    assert judgement.can_enact
    assert judgement.fail_from is None


# --- Trivial proposals ---


def test_title_may_declare_it_trivial() -> None:
    """2005 'A Family can state in his Proposal's title that the Proposal is Trivial'."""
    assert tallied(matter(title="Proposal : Fix a typo (Trivial)"), P, 1).trivial
    assert not tallied(matter(title="Proposal : Nontrivial matters"), P, 1).trivial


def test_most_for_votes_marked_trivial_make_it_trivial() -> None:
    """2005 'If most of a Proposal's FOR votes are marked 'Trivial', the Proposal becomes Trivial':
    3 of 5 FOR votes marked (the author's implicit FOR is unmarked)."""
    marked = tuple(vote(name, 1, "for", trivial=True) for name in ("Ben", "Cat", "Dan"))
    counted = tallied(matter(marked, vote("Eve", 1, "for")), P, 2)
    assert counted.for_count == 5
    assert counted.trivial


def test_half_of_for_votes_marked_trivial_is_not_most() -> None:
    """2005 'most' is more than half: 2 marked of 4 FOR votes does not make it Trivial."""
    marked = tuple(vote(name, 1, "for", trivial=True) for name in ("Ben", "Cat"))
    counted = tallied(matter(marked, vote("Dan", 1, "for")), P, 2)
    assert counted.for_count == 4
    assert not counted.trivial


def test_trivial_mark_on_a_replaced_vote_does_not_count() -> None:
    """2005 only a counted FOR vote can be 'marked Trivial': a mark on a vote later changed is ignored."""
    subject = matter(vote("Ben", 1, "for", trivial=True), vote("Ben", 2, "for"))
    assert not tallied(subject, P, 3).trivial


def test_other_profiles_have_no_trivial_proposals() -> None:
    """Only Ruleset 21 has Trivial proposals."""
    assert not tallied(matter(title="Proposal: Trivial fix"), get_profile("2016"), 1).trivial


# --- Calls for Judgement ---


def test_cfj_ends_on_quorum_for() -> None:
    """2005 'CfJs continue until they reach a quorum of FOR votes': then more than half FOR passes it."""
    judgement = judged(matter(votes("for", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="cfj"), P, 1)
    assert judgement.can_enact
    assert judgement.reasons == [
        "5 FOR reaches Quorum 5 and more than half of the cast votes are FOR (5 FOR to 0 AGAINST)"
    ]


def test_cfj_ends_after_four_days() -> None:
    """2005 'or until four days have passed': 2 FOR to 1 AGAINST waits until exactly 96 hours."""
    subject = matter(votes("for", "Ben", "Cat"), vote("Dan", 1, "against"), kind="cfj")
    before = judged(subject, P, 95)
    assert not before.can_enact and not before.can_fail
    assert before.enact_from == hours(96)
    assert judged(subject, P, 96).can_enact


def test_cfj_without_majority_fails_after_four_days() -> None:
    """2005 'if more than half of the cast votes are in favour ... Otherwise, the CfJ fails': a tie fails."""
    judgement = judged(matter(vote("Ben", 1, "for"), vote("Cat", 1, "against"), kind="cfj"), P, 96)
    assert judgement.can_fail and not judgement.can_enact


def test_cfj_quorum_against_does_not_end_it_in_2005() -> None:
    """2005 only 'a quorum of FOR votes' ends a CfJ early; Quorum AGAINST still waits for four days."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="cfj"), P, 1)
    assert not judgement.can_fail
    assert judgement.fail_from == hours(96)


# --- Declarations of Victory ---


def test_dov_wins_with_more_than_half_of_families() -> None:
    """2005 'If more than half of Families consider the win legal': 5 of 9 FOR."""
    judgement = judged(matter(votes("for", "Amy", "Ben", "Cat", "Dan", "Eve"), kind="dov"), P, 1)
    assert judgement.can_enact
    assert judgement.reasons == ["5 of 9 players consider the win legal, more than half"]


def test_dov_fails_with_more_than_half_against() -> None:
    """2005 'If more than half consider it illegal, however, then the Hiatus ends'."""
    judgement = judged(matter(votes("against", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="dov"), P, 1)
    assert judgement.can_fail
    assert not judgement.can_enact


def test_dov_without_clear_decision_lets_the_duke_decide_after_24_hours() -> None:
    """2005 'If no clear decision is reached after 24 hours, the Duke may optionally step in'."""
    subject = matter(votes("for", "Amy", "Ben", "Cat", "Dan"), votes("against", "Eve", "Fay", "Gus", "Hal"), kind="dov")
    early = judged(subject, P, 23)
    assert not early.emperor_may_decide
    assert early.emperor_may_decide_from == hours(24)
    late = judged(subject, P, 24)
    assert late.emperor_may_decide
    assert late.emperor_may_decide_from == hours(24)
    assert "No clear decision after 24 hours: the Emperor may decide whether the win is legal" in late.reasons


def test_dov_in_a_metadynasty_has_nobody_to_decide() -> None:
    """2005 only 'the Duke' may step in; without one, an undecided DoV just stays pending."""
    judgement = judged(matter(vote("Amy", 1, "for"), kind="dov"), P, 30, emperor=None)
    assert not judgement.emperor_may_decide
    assert judgement.emperor_may_decide_from is None


def test_dov_accepts_deferential() -> None:
    """2005 DoV responses use 'the FOR, AGAINST and DEFERENTIAL icons'; a deferral follows the Duke."""
    counted = tallied(matter(vote("Ben", 1, "deferential"), vote(EMPEROR, 2, "for"), kind="dov"), P, 3)
    assert counted.votes["Ben"] == "for"
