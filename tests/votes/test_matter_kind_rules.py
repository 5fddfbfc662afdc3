"""A dynasty's own kinds of votable matter (votes.matter_kind_rules), clause by clause: the 2005 Petition and the 2008
Town Meeting."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from dynasties.phases import DAYTIME, NIGHTTIME, OUTSIDE_PHASE, UNKNOWN_PHASE
from dynasties.profiles import get_profile
from tests.votes.builders import EMPEROR, PLAYERS, electorate, hours, matter, vote, votes
from votes import matter_kind_rules
from votes.engine import judge

P2005, P2008 = get_profile("2005"), get_profile("2008")

PETITION = matter_kind_rules.KindSpec(
    id=1,
    name="Petition",
    base="matter",
    subject_rule="prefix",
    subject_text="Petition:",
    posters="not_emperor",
    electorate="emperor",
    resolution="verdict",
    verdict_hours=48,
    veto="none",
    counts_towards_limits=False,
)
ALIVE = matter_kind_rules.Condition("Alive", "=", "Yes")
FREE = matter_kind_rules.Condition("Occupation", "≠", "Prisoner")
TOWN_MEETING = matter_kind_rules.KindSpec(
    id=2,
    name="Town Meeting",
    base="proposal",
    subject_rule="phrase",
    subject_text="Town Meeting",
    posters="filter",
    posters_filter=(ALIVE,),
    electorate="filter",
    electorate_filter=(ALIVE, FREE),
    quorum="eligible",
    veto="emperor",
)
# Nine villagers: Gus and Hal are dead, Fay is the Prisoner; Ivy is the Mayor.
VALUES = {name: {"Alive": "Yes", "Occupation": "Peasant"} for name in PLAYERS}
VALUES["Gus"]["Alive"] = VALUES["Hal"]["Alive"] = "No"
VALUES["Fay"]["Occupation"] = "Prisoner"
VALUES[EMPEROR]["Occupation"] = "Mayor"


def petition(*ballots):
    return matter(*ballots, kind="matter", title="Petition: Accuse Ben")


def judge_petition(subject, at_hours):
    voters = matter_kind_rules.electorate_for(PETITION, electorate(), values={})
    return judge(subject, electorate=voters, profile=P2005, now=hours(at_hours), kind=PETITION)


def judge_meeting(subject, at_hours, values=VALUES):
    voters = matter_kind_rules.electorate_for(TOWN_MEETING, electorate(), values=values)
    return judge(subject, electorate=voters, profile=P2008, now=hours(at_hours), kind=TOWN_MEETING)


# --- The subject rule ---


def test_a_petition_is_a_post_whose_subject_starts_petition():
    """2005: "This must be made in the form of a post with a subject of "Petition: [Topic]"."""
    assert matter_kind_rules.matches_subject(PETITION, "Petition: Accuse Ben")
    assert matter_kind_rules.matches_subject(PETITION, "petition:   Marriage of Ada")
    assert not matter_kind_rules.matches_subject(PETITION, "Petition:")  # no Topic
    assert not matter_kind_rules.matches_subject(PETITION, "A Petition: of sorts")


def test_a_town_meeting_is_a_proposal_whose_title_includes_the_phrase():
    """2008: "If a Proposal title includes the phrase "Town Meeting", then it represents a physical activity"."""
    assert matter_kind_rules.kind_for_title(
        [PETITION, TOWN_MEETING], base="proposal", title="Proposal: Town Meeting: Lynch Ben"
    )
    assert matter_kind_rules.kind_for_title([PETITION, TOWN_MEETING], base="proposal", title="Proposal: Gaol") is None
    # A Petition is not a Proposal, whatever its title says.
    assert matter_kind_rules.kind_for_title([PETITION], base="proposal", title="Petition: Accuse Ben") is None


# --- Who may post ---


def test_the_duke_may_not_be_a_petitioner():
    """2005: "The poster is known as the Petitioner. The Duke may not be a Petitioner."."""
    assert matter_kind_rules.may_post(PETITION, author="Amy", emperor=EMPEROR, values={})
    assert not matter_kind_rules.may_post(PETITION, author=EMPEROR, emperor=EMPEROR, values={})


def test_only_a_living_villager_may_call_a_town_meeting():
    """2008: "Town Meetings may be called by any living Villager"."""
    assert matter_kind_rules.may_post(TOWN_MEETING, author="Fay", emperor=EMPEROR, values=VALUES)  # the Prisoner lives
    assert not matter_kind_rules.may_post(TOWN_MEETING, author="Gus", emperor=EMPEROR, values=VALUES)
    assert not matter_kind_rules.may_post(TOWN_MEETING, author="Nobody", emperor=EMPEROR, values=VALUES)  # no row


# --- Petitions: only the Duke votes, a verdict after 48 hours ---


def test_only_the_duke_may_vote_on_a_petition():
    """2005: "Any Family may respond to the Petition using comments, but only the Duke may vote on it."."""
    subject = petition(vote("Ben", 1, "against"), vote(EMPEROR, 2, "for"))
    judgement = judge_petition(subject, 3)
    assert judgement.tally.votes == {EMPEROR: "for"}
    assert "Ben@1" in judgement.tally.not_counted
    assert judgement.tally.active_count == 1


def test_a_petition_is_not_resolved_before_48_hours():
    """2005: "After 48 hours a Petition is considered resolved": not before, whatever the Duke said."""
    judgement = judge_petition(petition(vote(EMPEROR, 1, "for")), 47.9)
    assert not judgement.can_enact and not judgement.can_fail
    assert judgement.enact_from == hours(48)
    assert "of the 48 hours" in judgement.reasons[0]


def test_the_dukes_for_approves_a_petition():
    """2005: "If the Duke has voted FOR the Petition then it is considered approved"."""
    judgement = judge_petition(petition(vote(EMPEROR, 1, "for")), 48)
    assert judgement.can_enact and not judgement.can_fail
    assert judgement.reasons == ["Approved after 48 hours: 1 FOR to 0 AGAINST"]


def test_the_dukes_against_rejects_a_petition():
    """2005: "if the Duke has voted AGAINST the Petition then it is considered rejected"; the last Pronouncement
    counts ("only the most recent may be Enforced")."""
    judgement = judge_petition(petition(vote(EMPEROR, 1, "for"), vote(EMPEROR, 5, "against")), 50)
    assert judgement.can_fail and not judgement.can_enact
    assert judgement.reasons == ["Rejected after 48 hours: 0 FOR to 1 AGAINST"]
    assert matter_kind_rules.verdict_word(judgement.tally, enacted=False) == matter_kind_rules.REJECTED


def test_a_petition_the_duke_never_answers_is_ignored():
    """2005: "and if the Duke has not voted then it is considered ignored"."""
    judgement = judge_petition(petition(), 49)
    assert judgement.can_fail
    assert judgement.reasons == ["Ignored after 48 hours: no eligible voter voted"]
    assert matter_kind_rules.verdict_word(judgement.tally, enacted=False) == matter_kind_rules.IGNORED


def test_a_petition_without_a_duke_has_nobody_to_answer_it():
    """In a Metadynasty there is no Duke: nobody may vote, and after 48 hours the Petition is ignored."""
    voters = matter_kind_rules.electorate_for(PETITION, electorate(emperor=None), values={})
    assert voters.active == frozenset()
    judgement = judge(petition(vote("Amy", 1, "for")), electorate=voters, profile=P2005, now=hours(49), kind=PETITION)
    assert judgement.tally.votes == {} and judgement.can_fail


# --- Town Meetings: the living and free vote, their own Quorum, the Mayor's veto ---


def test_dead_villagers_and_prisoners_may_not_vote_in_a_town_meeting():
    """2008: "Dead Villagers and Prisoners may not vote in a Town Meeting"."""
    subject = matter(votes("for", "Gus", "Hal", "Fay"), title="Proposal: Town Meeting: Barn Raising")
    tally = judge_meeting(subject, 1).tally
    assert set(tally.votes) == {"Amy"}  # the caller's implicit FOR only
    assert tally.not_counted == {"Gus@1", "Hal@1", "Fay@1"}


def test_town_meeting_quorum_is_half_the_living_unimprisoned_plus_one():
    """2008: "Quorum for enacting the effects of a Town Meeting will be calculated as half the number of living,
    unimprisoned Villagers, rounded down, plus one." Six may vote: Quorum 4, not the profile's 5."""
    subject = matter(votes("for", "Ben", "Cat", "Dan"), title="Proposal: Town Meeting: Barn Raising")
    judgement = judge_meeting(subject, 12)
    assert judgement.tally.quorum == 4 and judgement.tally.active_count == 6
    assert judgement.can_enact
    assert judgement.reasons[0] == "4 FOR reaches Quorum 4 and it has been open 12 hours"


def test_a_kind_may_keep_the_profiles_quorum_while_fewer_vote():
    """A kind whose Quorum is the profile's counts every active player, though only some may vote."""
    spec = matter_kind_rules.KindSpec(
        name="Gathering",
        base="proposal",
        subject_rule="phrase",
        subject_text="Gathering",
        electorate="filter",
        electorate_filter=(ALIVE,),
    )
    voters = matter_kind_rules.electorate_for(spec, electorate(), values=VALUES)
    assert len(voters.active) == 7 and voters.quorum_of == 9


def test_the_mayor_may_veto_a_town_meeting_even_when_dead():
    """2008: "The Mayor may Veto any Town Meeting … (If the Mayor is Dead, he is still able to Veto Town
    Meetings, representing the intervention of collective municipal government.)"."""
    values = {name: dict(row) for name, row in VALUES.items()}
    values[EMPEROR]["Alive"] = "No"
    subject = matter(vote(EMPEROR, 1, "veto"), title="Proposal: Town Meeting: Lynch Ben")
    judgement = judge_meeting(subject, 2, values=values)
    assert EMPEROR not in matter_kind_rules.electorate_for(TOWN_MEETING, electorate(), values=values).active
    assert judgement.tally.vetoed and judgement.can_fail
    assert "Vetoed by the Emperor" in judgement.reasons


def test_only_the_kinds_vetoers_may_veto_it():
    """A VETO from anyone the definition does not name is no vote, and says why."""
    from votes.tallying import why_not_counted

    voters = matter_kind_rules.electorate_for(TOWN_MEETING, electorate(), values=VALUES)
    subject = matter(vote("Ben", 1, "veto"), title="Proposal: Town Meeting: Lynch Ben")
    judgement = judge(subject, electorate=voters, profile=P2008, now=hours(2), kind=TOWN_MEETING)
    assert not judgement.tally.vetoed
    assert (
        why_not_counted(subject.ballots[0], matter=subject, electorate=voters, profile=P2008, tally=judgement.tally)
        == "Ben may not VETO a Town Meeting"
    )


# --- Bad definitions ---

COLUMNS = {"Alive": False, "Occupation": False, "Role": True}


def test_a_kind_without_a_subject_rule_is_refused():
    """A kind of votable matter needs a subject rule: nothing marks one otherwise."""
    spec = matter_kind_rules.KindSpec(name="Petition", base="matter", subject_rule="prefix", subject_text="  ")
    assert matter_kind_rules.spec_problems(spec, columns=COLUMNS) == [matter_kind_rules.SUBJECT_NEEDED]


def test_an_electorate_filter_without_conditions_is_refused():
    spec = matter_kind_rules.KindSpec(
        name="Meeting", base="proposal", subject_rule="phrase", subject_text="Meeting", electorate="filter"
    )
    assert matter_kind_rules.spec_problems(spec, columns=COLUMNS) == [
        matter_kind_rules.FILTER_NEEDED.format(what="Who may vote")
    ]


def test_an_electorate_filter_naming_a_missing_column_is_refused():
    spec = matter_kind_rules.KindSpec(
        name="Meeting",
        base="proposal",
        subject_rule="phrase",
        subject_text="Meeting",
        electorate="filter",
        electorate_filter=(matter_kind_rules.Condition("Alvie", "=", "Yes"),),
    )
    assert matter_kind_rules.spec_problems(spec, columns=COLUMNS) == [
        "The condition “Alvie = Yes” names the GNDT column “Alvie”, which does not exist."
    ]


def test_a_filter_on_a_hidden_column_is_refused():
    """Who may vote is public; a Villager's secret Role may not decide it."""
    spec = matter_kind_rules.KindSpec(
        name="Meeting",
        base="proposal",
        subject_rule="phrase",
        subject_text="Meeting",
        electorate="filter",
        electorate_filter=(matter_kind_rules.Condition("Role", "=", "Werewolf"),),
    )
    assert "hidden GNDT column “Role”" in matter_kind_rules.spec_problems(spec, columns=COLUMNS)[0]


def test_a_verdict_needs_its_hours_and_subject_rules_may_not_overlap():
    spec = matter_kind_rules.KindSpec(
        id=3, name="Plea", base="matter", subject_rule="prefix", subject_text="Petition: Plea", resolution="verdict"
    )
    problems = matter_kind_rules.spec_problems(spec, columns=COLUMNS, others=[PETITION])
    assert matter_kind_rules.VERDICT_HOURS.format(most=matter_kind_rules.MAX_VERDICT_HOURS) in problems
    assert any("would also match the kind “Petition”" in problem for problem in problems)


def test_conditions_from_json_refuse_malformed_ones():
    assert matter_kind_rules.conditions_from([{"column": "Alive", "op": "!=", "value": "No"}]) == (
        matter_kind_rules.Condition("Alive", "≠", "No"),
    )
    for bad in (
        {"column": "Alive"},
        [{"column": "", "op": "=", "value": "x"}],
        ["Alive = Yes"],
        [{"column": "Alive", "op": "<", "value": "3"}],
    ):
        try:
            matter_kind_rules.conditions_from(bad)
        except ValueError as error:
            assert str(error) == matter_kind_rules.BAD_CONDITION
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_a_matter_without_its_definition_falls_back_to_the_proposal_rules():
    """A votable matter whose kind is not at hand (an archive imported without definitions) is judged by the core
    rules of Proposals, with every active player voting, rather than refused."""
    subject = matter(votes("for", "Ben", "Cat", "Dan", "Eve", "Fay"), kind="matter", title="Petition: Old")
    judgement = judge(subject, electorate=electorate(), profile=P2008, now=hours(13))
    assert judgement.can_enact and judgement.tally.quorum == 5
    assert "Amy" not in judgement.tally.votes  # no implicit FOR outside Proposals


def test_names_and_conditions_that_cannot_be_stored_are_refused():
    """Too long, or holding a NUL or a line break: refused with the reason, before anything is saved."""
    spec = matter_kind_rules.KindSpec(
        name="P" * 61,
        base="matter",
        subject_rule="prefix",
        subject_text="Plea:\x00",
        electorate="filter",
        electorate_filter=(matter_kind_rules.Condition("Alive", "=", "Y" * 201),),
    )
    assert matter_kind_rules.spec_problems(spec, columns=COLUMNS) == [
        matter_kind_rules.NAME_TOO_LONG,
        matter_kind_rules.CONTROL_CHARACTER,
        matter_kind_rules.CONDITION_TOO_LONG,
    ]


# --- The phase a kind may be posted in ---

DAYTIME_MEETING = replace(TOWN_MEETING, phase=DAYTIME)


def test_a_town_meeting_is_called_only_in_the_daytime_of_even_numbered_days():
    """2008: "Town Meetings may be called by any living Villager during the daytime"; "Time in Zahndorf is
    divided into Daytime and Nighttime. All even-numbered days in the real world are Daytime in Zahndorf, and
    all odd-numbered days are Nighttime"."""
    assert matter_kind_rules.phase_refusal_for(DAYTIME_MEETING, datetime(2008, 7, 2, 23, 59, tzinfo=UTC)) is None
    refusal = matter_kind_rules.phase_refusal_for(DAYTIME_MEETING, datetime(2008, 7, 3, 0, 0, tzinfo=UTC))
    assert refusal == OUTSIDE_PHASE.format(
        what="A Town Meeting", done="posted", phase=DAYTIME, now_phase=NIGHTTIME, until="Fri 04 Jul 2008 00:00"
    )
    # The 31st and the 1st are both odd: two nights in a row.
    assert "until Sat 02 Aug 2008 00:00" in matter_kind_rules.phase_refusal_for(
        DAYTIME_MEETING, datetime(2008, 7, 31, 12, tzinfo=UTC)
    )
    # A kind with no phase may be posted at any time.
    assert matter_kind_rules.phase_refusal_for(TOWN_MEETING, datetime(2008, 7, 3, tzinfo=UTC)) is None


def test_a_phase_is_one_of_the_calendars_and_shows_among_the_kinds_rules():
    assert matter_kind_rules.spec_problems(DAYTIME_MEETING, columns=COLUMNS) == []
    assert matter_kind_rules.spec_problems(replace(TOWN_MEETING, phase="Dusk"), columns=COLUMNS) == [
        UNKNOWN_PHASE.format(phase="Dusk", phases="Daytime, Nighttime")
    ]
    assert matter_kind_rules.describe(DAYTIME_MEETING)[-1] == "May be posted only during the Daytime."
    assert not any("during" in line for line in matter_kind_rules.describe(TOWN_MEETING))
