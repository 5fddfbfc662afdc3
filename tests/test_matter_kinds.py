"""A dynasty's own kinds of votable matter and effects of resolving, through the services: defining them
citing an enacted Proposal, posting, voting, resolving (by an admin and by the beat job), the GNDT changes in
the same transaction, and bad definitions refused whole."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from dynasties.models import Game
from gndt.models import Cell, Update
from tests.factories import make_proposal, vote
from tests.kinds_builders import duchy, village
from votes import effects, matter_kind_rules
from votes.jobs import matters_auto_resolve
from votes.matter_kind_services import KindError, matter_effect_define, matter_kind_define, matter_kind_retire
from votes.models import MatterEffect, MatterKind, Post
from votes.posting import MAY_NOT_POST_KIND, NO_MATTER_KIND, PostError, post_create
from votes.services import NOT_IN_ELECTORATE, VoteError, matter_resolve

pytestmark = pytest.mark.django_db


def thalers(name: str) -> str:
    return Cell.objects.get(row__name=name, column__name="Thalers").value


def petition(players, *, at, title="Petition: Accuse P05"):
    return post_create(author=players[3], kind="matter", title=title, body="P05 broke the Law.", now=at)


# --- Defining ---


def test_a_kind_is_recorded_citing_the_enacted_proposal(t0):
    players, citation = duchy(t0)
    kind = MatterKind.objects.get(name="Petition")
    assert (kind.proposal, kind.by, kind.electorate, kind.verdict_hours) == (citation, players[1], "emperor", 48)
    assert MatterEffect.objects.filter(proposal=citation).count() == 4


def test_a_definition_must_cite_an_enacted_proposal(t0):
    players, _ = duchy(t0)
    pending = make_proposal(players[4], at=t0, title="Proposal: Not Yet")
    with pytest.raises(KindError, match="cite one"):
        matter_kind_define(admin=players[1], proposal=pending, now=t0, name="Plea", subject_text="Plea:")
    with pytest.raises(KindError, match="Only admins"):
        matter_kind_define(admin=players[4], proposal=pending, now=t0, name="Plea", subject_text="Plea:")


@pytest.mark.parametrize("builder", [duchy, village])
def test_a_definition_is_written_and_read_back_whole(t0, builder):
    """Defining a kind or effect and importing one both write ``definition_fields``; reading the row back gives
    the same definition, and every part of a definition has a field."""
    builder(t0)
    kind_parts = {f.name for f in dataclasses.fields(matter_kind_rules.KindSpec)} - {"id"}
    effect_parts = {f.name for f in dataclasses.fields(effects.EffectSpec)} - {"id", "kind_id"}
    assert MatterKind.objects.exists()
    for kind in MatterKind.objects.all():
        fields = MatterKind.definition_fields(kind.spec())
        assert set(fields) == kind_parts
        assert MatterKind(pk=kind.pk, **fields).spec() == kind.spec()
    for effect in MatterEffect.objects.all():
        fields = MatterEffect.definition_fields(effect.spec())
        assert set(fields) == effect_parts
        assert MatterEffect(pk=effect.pk, matter_kind_id=effect.matter_kind_id, **fields).spec() == effect.spec()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"subject_text": ""}, matter_kind_rules.SUBJECT_NEEDED),
        ({"electorate": "filter"}, matter_kind_rules.FILTER_NEEDED.format(what="Who may vote")),
        (
            {"electorate": "filter", "electorate_filter": [{"column": "Alvie", "op": "=", "value": "Yes"}]},
            "names the GNDT column “Alvie”, which does not exist",
        ),
        ({"electorate": "filter", "electorate_filter": ["Alive = Yes"]}, matter_kind_rules.BAD_CONDITION),
        ({"resolution": "verdict", "verdict_hours": "٤٨"}, "The verdict's hours must be a whole number"),
        ({"resolution": "verdict", "verdict_hours": "99999999999999999999"}, "The verdict's hours must be a whole"),
        ({"name": "Plea\x00"}, matter_kind_rules.CONTROL_CHARACTER),
        (
            {"electorate": "filter", "electorate_filter": [{"column": "Thalers", "op": "=", "value": "1\x00"}]},
            matter_kind_rules.CONTROL_CHARACTER,
        ),
        ({"subject_text": "Petition: again"}, "would also match the kind “Petition”"),
    ],
)
def test_bad_kinds_are_refused_with_the_reason_and_nothing_saved(t0, fields, message):
    """A kind without a subject rule or electorate, or filtering on a column that does not exist: refused."""
    players, citation = duchy(t0)
    before = MatterKind.objects.count()
    with pytest.raises(KindError) as refused:
        matter_kind_define(
            admin=players[1], proposal=citation, now=t0, **({"name": "Plea", "subject_text": "Plea:"} | fields)
        )
    assert message in str(refused.value)
    assert MatterKind.objects.count() == before


def test_bad_effects_are_refused_and_nothing_saved(t0):
    players, citation = duchy(t0)
    before = MatterEffect.objects.count()
    for fields, message in (
        ({"column": "Gold", "amount": 1}, "“Gold” does not exist"),
        ({"column": "Thalers", "amount": "lots"}, "The amount must be a whole number"),
        ({"column": "Thalers", "amount": 0}, "an amount other than 0"),
    ):
        with pytest.raises(KindError, match=message):
            matter_effect_define(admin=players[1], proposal=citation, now=t0, label="x", core_kind="proposal", **fields)
    assert MatterEffect.objects.count() == before


# --- Petitions ---


def test_the_duke_may_not_petition_and_a_petition_needs_its_subject(t0):
    players, _ = duchy(t0)
    with pytest.raises(PostError, match=MAY_NOT_POST_KIND.format(kind="Petition")):
        post_create(author=players[0], kind="matter", title="Petition: Let Me", now=t0)
    with pytest.raises(PostError) as refused:
        post_create(author=players[3], kind="matter", title="Plea: Mercy", now=t0)
    assert str(refused.value) == NO_MATTER_KIND.format(
        title="Plea: Mercy", known="Petition: a title starting “Petition:”"
    )
    assert not Post.objects.filter(kind="matter").exists()


def test_only_the_duke_votes_on_a_petition_and_after_48_hours_it_is_approved(t0):
    """2005: "only the Duke may vote on it"; "If the Duke has voted FOR the Petition then it is considered
    approved". No proposal's reward applies to a Petition."""
    players, _ = duchy(t0)
    post = petition(players, at=t0)
    assert post.matter_kind.name == "Petition" and post.status == "pending"
    with pytest.raises(VoteError, match=NOT_IN_ELECTORATE.format(kind="Petition")):
        vote(post, players[4], "for", at=t0 + timedelta(hours=1))
    vote(post, players[4], None, at=t0 + timedelta(hours=1), text="A fair accusation.")
    vote(post, players[0], "for", at=t0 + timedelta(hours=2))
    with pytest.raises(VoteError, match="cannot be enacted now"):
        matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=47))
    matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=48))
    post.refresh_from_db()
    assert post.status == "enacted"
    assert post.admin_note.startswith("Enacted (approved) 1-0 (Quorum 1) by P02")
    assert thalers("P04") == "100"


def test_an_unanswered_petition_is_ignored_by_the_beat_job(t0):
    """2005: "if the Duke has not voted then it is considered ignored"; the auto-resolution job fails it."""
    players, _ = duchy(t0)
    Game.objects.filter(pk=1).update(auto_resolve=True)
    post = petition(players, at=t0)
    report = matters_auto_resolve(now=t0 + timedelta(hours=49))
    assert f"{post.slug}: fail" in report.done
    post.refresh_from_db()
    assert post.status == "failed" and "Failed (ignored) 0-0" in post.admin_note


def test_tally_json_names_the_kind_and_its_electorate(t0):
    players, _ = duchy(t0)
    post = petition(players, at=t0)
    vote(post, players[0], "against", at=t0 + timedelta(hours=1))
    out = StringIO()
    call_command("tally", post.slug, "--json", "--at", (t0 + timedelta(hours=50)).isoformat(), stdout=out)
    report = json.loads(out.getvalue())
    assert report["kind"] == "matter" and report["matter_kind"] == "Petition"
    assert report["eligible_voters"] == ["P01"] and report["quorum"] == 1
    assert report["can_fail"] and report["reasons"] == ["Rejected after 48 hours: 0 FOR to 1 AGAINST"]


def test_a_retired_kind_marks_no_new_post(t0):
    players, citation = duchy(t0)
    matter_kind_retire(kind=MatterKind.objects.get(name="Petition"), admin=players[1], proposal=citation, now=t0)
    with pytest.raises(PostError, match="define no kinds"):
        petition(players, at=t0 + timedelta(minutes=1))


# --- Effects of resolving ---


def _pass(players, post, at):
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "for", at=at + timedelta(minutes=1 + i))


def test_the_proposer_gains_ten_thalers_in_the_enactments_transaction(t0):
    """2005: "When a Proposal is enacted, its proposer gains 10 Thalers"; logged citing the matter."""
    players, _ = duchy(t0)
    post = make_proposal(players[2], at=t0, title="Proposal: Taxes")
    _pass(players, post, t0)
    matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=1))
    assert thalers("P03") == "110" and thalers("P02") == "100"
    update = Update.objects.get(post=post)
    assert update.comment == "Effects of enacting Proposal: Taxes: P03 Thalers +10 (the proposer's reward)"
    assert "Effects: P03 Thalers +10" in Post.objects.get(pk=post.pk).admin_note


def test_a_trivial_proposal_pays_two_and_the_admin_may_claim(t0):
    """2005: "or 2 Thalers if it was Trivial"; "Whenever they Enact a Trivial Proposal, they may claim 2
    Thalers" (the title says Trivial: "A Family can state in his Proposal's title that the Proposal is
    Trivial")."""
    players, _ = duchy(t0)
    post = make_proposal(players[2], at=t0, title="Proposal: Trivial Spelling Fix")
    _pass(players, post, t0)
    claim = MatterEffect.objects.get(label="the enacting admin's claim")
    matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=1), effects_chosen=[claim.pk])
    assert (thalers("P03"), thalers("P02")) == ("102", "102")


def test_failing_costs_three_and_non_voters_may_be_docked_after_48_hours(t0):
    """2005: "When a Proposal fails, its proposer loses 3 Thalers"; after 48 hours "the option of deducting 5
    Thalers from the accounts of all active Families who did not vote on the Proposal"."""
    players, _ = duchy(t0)
    post = make_proposal(players[2], at=t0, title="Proposal: Unpopular")
    for i, voter in enumerate(players[3:7]):
        vote(post, voter, "against", at=t0 + timedelta(minutes=1 + i))
    docking = MatterEffect.objects.get(label="deducted for not voting")
    matter_resolve(
        post=post, admin=players[1], action="fail", now=t0 + timedelta(hours=49), effects_chosen=[docking.pk]
    )
    assert thalers("P03") == "97"
    assert [thalers(name) for name in ("P01", "P02", "P08", "P09")] == ["95"] * 4
    assert thalers("P04") == "100"


def test_no_docking_on_a_vetoed_proposal(t0):
    """2005: "This deduction cannot take place if a proposal has been vetoed or self failed.": not offered."""
    players, _ = duchy(t0)
    post = make_proposal(players[2], at=t0, title="Proposal: Vetoed")
    vote(post, players[0], "veto", at=t0 + timedelta(hours=1))
    docking = MatterEffect.objects.get(label="deducted for not voting")
    with pytest.raises(VoteError, match="not an optional effect"):
        matter_resolve(
            post=post, admin=players[1], action="fail", now=t0 + timedelta(hours=50), effects_chosen=[docking.pk]
        )
    assert Post.objects.get(pk=post.pk).status == "pending"
    matter_resolve(post=post, admin=players[1], action="fail", now=t0 + timedelta(hours=50))
    assert thalers("P03") == "97" and thalers("P09") == "100"


def test_thalers_are_clamped_at_their_bounds(t0):
    """2005: "Thalers may not fall below 0 or rise above 200. Any effect which would take Thalers beyond either of
    these boundaries instead sets it to that boundary"."""
    players, _ = duchy(t0)
    Cell.objects.filter(row__name="P03", column__name="Thalers").update(value="195")
    post = make_proposal(players[2], at=t0, title="Proposal: Rich")
    _pass(players, post, t0)
    matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=1))
    assert thalers("P03") == "200"


def test_an_effect_that_cannot_apply_resolves_nothing(t0):
    """All or nothing: a column that refuses values past its bound (not clamped) keeps the matter pending."""
    players, citation = duchy(t0)
    from gndt.services import gndt_column_add

    dynasty = players[0].dynasties_ruled.get()
    gndt_column_add(
        dynasty=dynasty, by=players[1], now=t0, name="Honour", kind="integer", minimum=0, maximum=3, default="3"
    )
    Cell.objects.filter(column__name="Honour").update(value="3")
    matter_effect_define(
        admin=players[1],
        proposal=citation,
        now=t0,
        label="honour for the proposer",
        core_kind="proposal",
        column="Honour",
        amount=1,
    )
    post = make_proposal(players[2], at=t0, title="Proposal: Honourable")
    _pass(players, post, t0)
    updates = Update.objects.count()
    with pytest.raises(VoteError, match="Effect “honour for the proposer” on P03’s Honour"):
        matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=1))
    assert Post.objects.get(pk=post.pk).status == "pending"
    assert thalers("P03") == "100" and Update.objects.count() == updates
    assert not post.resolutions.exists()


# --- Town Meetings ---


def test_a_town_meeting_counts_only_the_living_and_free_with_its_own_quorum(t0):
    """2008: "Dead Villagers and Prisoners may not vote in a Town Meeting, and Quorum … will be calculated as half
    the number of living, unimprisoned Villagers, rounded down, plus one." Six may vote: Quorum 4."""
    players, _ = village(t0)
    meeting = make_proposal(players[2], at=t0, title="Proposal: Town Meeting: Barn Raising")
    assert meeting.matter_kind.name == "Town Meeting"
    for dead in (players[6], players[5]):
        with pytest.raises(VoteError, match=NOT_IN_ELECTORATE.format(kind="Town Meeting")):
            vote(meeting, dead, "for", at=t0 + timedelta(hours=1))
    for voter in players[3:5] + [players[8]]:
        vote(meeting, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=meeting, admin=players[1], action="enact", now=t0 + timedelta(hours=12))
    assert Post.objects.get(pk=meeting.pk).admin_note.startswith("Enacted 4-0 (Quorum 4)")


def test_a_dead_villager_may_not_call_a_town_meeting(t0):
    """2008: "Town Meetings may be called by any living Villager"."""
    players, _ = village(t0)
    with pytest.raises(PostError, match=MAY_NOT_POST_KIND.format(kind="Town Meeting")):
        make_proposal(players[6], at=t0, title="Proposal: Town Meeting: From Beyond")
