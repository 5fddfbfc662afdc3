"""Effects of resolving a matter (votes.effects), clause by clause from the 2005 rewards for Proposals."""

from __future__ import annotations

from votes import effects
from votes.effects import CellDelta, EffectSpec, ResolutionFacts

REWARD = EffectSpec(
    id=1,
    label="the proposer's reward",
    column="Thalers",
    amount=10,
    trivial_amount=2,
    core_kind="proposal",
    when="enacted",
)
PENALTY = EffectSpec(
    id=2, label="the proposer's loss", column="Thalers", amount=-3, core_kind="proposal", when="failed"
)
CLAIM = EffectSpec(
    id=3,
    label="the enacting admin's claim",
    column="Thalers",
    amount=5,
    trivial_amount=2,
    core_kind="proposal",
    when="enacted",
    target="admin",
    optional=True,
)
IDLE_HANDS = EffectSpec(
    id=4,
    label="deducted for not voting",
    column="Thalers",
    amount=-5,
    core_kind="proposal",
    when="either",
    target="non_voters",
    optional=True,
    after_hours=48,
    not_if_vetoed_or_self_killed=True,
)
RULES_2005 = (REWARD, PENALTY, CLAIM, IDLE_HANDS)


def facts(**changes) -> ResolutionFacts:
    base = {
        "core_kind": "proposal",
        "kind_id": None,
        "enacted": True,
        "author": "Amy",
        "admin": "Ada",
        "trivial": False,
        "vetoed": False,
        "self_killed": False,
        "open_hours": 20.0,
        "not_voted": ("Gus",),
    }
    return ResolutionFacts(**(base | changes))


def test_the_proposer_gains_ten_thalers_on_enactment():
    """2005: "When a Proposal is enacted, its proposer gains 10 Thalers"."""
    assert effects.changes_due(RULES_2005, facts()) == [CellDelta("Amy", "Thalers", 10, "the proposer's reward", 1)]


def test_the_proposer_gains_two_thalers_for_a_trivial_proposal():
    """2005: "… or 2 Thalers if it was Trivial"."""
    assert [d.delta for d in effects.changes_due(RULES_2005, facts(trivial=True))] == [2]


def test_the_proposer_loses_three_thalers_on_failure():
    """2005: "When a Proposal fails, its proposer loses 3 Thalers."."""
    assert effects.changes_due(RULES_2005, facts(enacted=False)) == [
        CellDelta("Amy", "Thalers", -3, "the proposer's loss", 2)
    ]


def test_the_enacting_admin_may_claim_five_thalers():
    """2005: "Whenever an Admin Enacts a non-Trivial Proposal, they may claim 5 Thalers. Whenever they Enact a
    Trivial Proposal, they may claim 2 Thalers." A claim is the admin's choice, never automatic."""
    assert effects.offered(RULES_2005, facts()) == [CLAIM]
    assert CellDelta("Ada", "Thalers", 5, "the enacting admin's claim", 3) in effects.changes_due(
        RULES_2005, facts(), chosen=[3]
    )
    assert CellDelta("Ada", "Thalers", 2, "the enacting admin's claim", 3) in effects.changes_due(
        RULES_2005, facts(trivial=True), chosen=[3]
    )
    assert len(effects.changes_due(RULES_2005, facts())) == 1  # not chosen: only the proposer's reward


def test_no_claim_on_a_failure_and_none_for_the_system():
    """The claim is for the Admin who Enacts: not on a failure, and the system (auto-resolution) claims nothing."""
    assert CLAIM not in effects.offered(RULES_2005, facts(enacted=False))
    assert effects.changes_due(RULES_2005, facts(admin=None), chosen=[3, 4]) == [
        CellDelta("Amy", "Thalers", 10, "the proposer's reward", 1)
    ]


def test_non_voters_may_lose_five_thalers_after_48_hours():
    """2005: "Whenever an Admin Enacts or Fails a Proposal that has been pending for more than 48 hours, he/she
    has the option of deducting 5 Thalers from the accounts of all active Families who did not vote"."""
    late = facts(open_hours=49.0, not_voted=("Gus", "Hal"))
    assert IDLE_HANDS in effects.offered(RULES_2005, late)
    due = effects.changes_due(RULES_2005, late, chosen=[4])
    assert [(d.player, d.delta) for d in due if d.effect_id == 4] == [("Gus", -5), ("Hal", -5)]
    assert IDLE_HANDS not in effects.offered(RULES_2005, facts(open_hours=48.0))  # not more than 48 hours
    assert IDLE_HANDS in effects.offered(RULES_2005, facts(open_hours=49.0, enacted=False))


def test_no_deduction_on_a_vetoed_or_self_killed_proposal():
    """2005: "This deduction cannot take place if a proposal has been vetoed or self failed."."""
    for how in ({"vetoed": True}, {"self_killed": True}):
        late = facts(open_hours=60.0, enacted=False, **how)
        assert IDLE_HANDS not in effects.offered(RULES_2005, late)
        assert all(d.effect_id != 4 for d in effects.changes_due(RULES_2005, late, chosen=[4]))


def test_effects_of_proposals_leave_other_kinds_alone():
    """A Proposal's rewards are not a Call for Judgement's, nor a Town Meeting's (a Proposal of a kind)."""
    assert effects.changes_due(RULES_2005, facts(core_kind="cfj")) == []
    assert effects.changes_due(RULES_2005, facts(kind_id=7)) == []
    petition = EffectSpec(label="petition fee", column="Thalers", amount=-1, kind_id=7, when="either")
    assert [d.delta for d in effects.changes_due([petition], facts(kind_id=7, enacted=False))] == [-1]


def test_bad_definitions_are_refused():
    columns = {"Thalers": "integer", "Title": "text", "Role": "text"}
    assert effects.spec_problems(
        EffectSpec(label="x", column="Gold", amount=1, core_kind="proposal"), columns=columns
    ) == ["The GNDT column “Gold” does not exist."]
    assert effects.spec_problems(
        EffectSpec(label="x", column="Title", amount=1, core_kind="proposal"), columns=columns
    ) == [effects.NOT_A_NUMBER_COLUMN.format(column="Title")]
    assert effects.spec_problems(
        EffectSpec(label="x", column="Role", amount=1, core_kind="proposal"), columns=columns, hidden={"Role"}
    ) == [effects.HIDDEN_COLUMN.format(column="Role")]
    assert effects.spec_problems(
        EffectSpec(label="x", column="Thalers", amount=0, core_kind="story"), columns=columns
    ) == [effects.AMOUNT_NEEDED.format(most=effects.MAX_AMOUNT), effects.KIND_NEEDED]
