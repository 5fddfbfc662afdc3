"""``votes.at_moment``: what judges a matter at a moment (the rules, electorate and every kind of hiatus then),
and the ``tally`` command judging through it."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from blognomic.flows.roster.services import rule_change_record
from dynasties.models import Dynasty
from tests.factories import make_proposal, make_table, vote
from votes.at_moment import read_basis_at
from votes.models import Post
from votes.posting import post_create
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

WINTER = datetime(2016, 12, 22, 12, 0, tzinfo=UTC)


def test_seasonal_downtime_is_a_hiatus_at_a_past_moment():
    """2016: "hiatus every year on December 24th ... until December 27th": the basis at a moment then has
    the hiatus, as the live state has it, though no Declaration is pending."""
    make_table(5, start=WINTER)
    inside = read_basis_at(datetime(2016, 12, 25, 9, 0, tzinfo=UTC))
    assert inside.electorate.hiatus and inside.hiatus is not None and inside.hiatus.reasons == {"seasonal"}
    outside = read_basis_at(datetime(2016, 12, 27, 0, 0, tzinfo=UTC))
    assert not outside.electorate.hiatus and outside.hiatus is None


def test_a_dynasty_awaiting_its_ascension_address_is_in_hiatus_until_it_is_posted(t0):
    """An enacted Declaration begins a dynasty that awaits its Ascension Address: the game is in hiatus from
    then until the Address, and the basis at a moment in between says so, as the live state would."""
    players = make_table(5, start=t0)
    declaration = post_create(author=players[2], kind="dov", title="I have won", body="By lantern light.", now=t0)
    for voter in players[:5]:
        if voter != players[2]:
            vote(declaration, voter, "for", at=t0 + timedelta(hours=1))
    enacted = t0 + timedelta(hours=49)
    matter_resolve(post=declaration, admin=players[1], action="enact", now=enacted)
    assert read_basis_at(enacted - timedelta(hours=1)).hiatus.reasons == {"dov"}
    dynasty = Dynasty.objects.get(declaration=declaration)
    awaiting = read_basis_at(enacted + timedelta(hours=3))
    assert awaiting.hiatus is not None and awaiting.hiatus.reasons == {"ascension"}
    Dynasty.objects.filter(pk=dynasty.pk).update(ascended_at=enacted + timedelta(days=1))
    assert read_basis_at(enacted + timedelta(hours=3)).hiatus is not None
    assert read_basis_at(enacted + timedelta(days=2)).hiatus is None


def test_the_tally_command_judges_by_the_rules_then_in_force(t0):
    """A Proposal with Quorum FOR at six hours could not be enacted under the 12-hour wait then; a later
    change to a 4-hour wait does not change the tally at that moment, and does judge a moment after it."""
    players = make_table(5, start=t0)
    lamps = make_proposal(players[2], at=t0, title="Proposal: Lamp Oil")
    for voter in players[3:5]:
        vote(lamps, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=lamps, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    rule_change_record(
        parameter="quorum_wait_hours",
        raw_value="4",
        proposal=Post.objects.get(pk=lamps.pk),
        admin=players[1],
        now=t0 + timedelta(hours=14),
    )
    wick = make_proposal(players[3], at=t0 + timedelta(hours=15), title="Proposal: Wick Length")
    for voter in (players[2], players[4]):
        vote(wick, voter, "for", at=t0 + timedelta(hours=16))

    def can_enact(post: Post, at: datetime) -> bool:
        out = io.StringIO()
        call_command("tally", post.slug, "--at", f"{at:%Y-%m-%dT%H:%M:%SZ}", "--json", stdout=out)
        return json.loads(out.getvalue())["can_enact"]

    assert not can_enact(lamps, t0 + timedelta(hours=6))
    assert can_enact(wick, t0 + timedelta(hours=20))
