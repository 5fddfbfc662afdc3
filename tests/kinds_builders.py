"""A 2005 game with a GNDT of Thalers and the dynasty's Petitions and rewards, built through the real services;
and a 2008 village with its Town Meetings."""

from __future__ import annotations

from datetime import timedelta

from gndt.services import gndt_column_add, gndt_rows_add_missing_players, gndt_update
from tests.factories import make_proposal, make_table, vote
from votes.matter_kind_services import matter_effect_define, matter_kind_define
from votes.services import matter_resolve


def enacted_proposal(players, *, at, title="Proposal: Our Own Rules"):
    """A Proposal enacted an hour after ``at`` with six FOR of nine: the citation for a change to the rules."""
    post = make_proposal(players[2], at=at, title=title)
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "for", at=at + timedelta(minutes=10 + i))
    matter_resolve(post=post, admin=players[1], action="enact", now=at + timedelta(hours=13))
    post.refresh_from_db()
    return post


def duchy(t0):
    """Nine Families (P01 the Duke, P02 the admin) under the 2005 rules, each with 100 Thalers (0–200, clamped),
    a Petition kind and the 2005 rewards, all defined citing one enacted Proposal. Returns (players, citation)."""
    players = make_table(9, start=t0 - timedelta(days=1), profile="2005")
    admin = players[1]
    dynasty = players[0].dynasties_ruled.get()
    gndt_column_add(
        dynasty=dynasty,
        by=admin,
        now=t0 - timedelta(days=1),
        name="Thalers",
        kind="integer",
        minimum=0,
        maximum=200,
        clamp=True,
        default="100",
    )
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=t0 - timedelta(days=1))
    citation = enacted_proposal(players, at=t0 - timedelta(hours=20))
    matter_kind_define(
        admin=admin,
        proposal=citation,
        now=t0 - timedelta(hours=1),
        name="Petition",
        base="matter",
        subject_rule="prefix",
        subject_text="Petition:",
        posters="not_emperor",
        electorate="emperor",
        quorum="eligible",
        resolution="verdict",
        verdict_hours=48,
        veto="none",
        counts_towards_limits=False,
    )
    rules = [
        {"label": "the proposer's reward", "when": "enacted", "target": "author", "amount": 10, "trivial_amount": 2},
        {"label": "the proposer's loss", "when": "failed", "target": "author", "amount": -3},
        {
            "label": "the enacting admin's claim",
            "when": "enacted",
            "target": "admin",
            "amount": 5,
            "trivial_amount": 2,
            "optional": True,
        },
        {
            "label": "deducted for not voting",
            "when": "either",
            "target": "non_voters",
            "amount": -5,
            "optional": True,
            "after_hours": 48,
            "not_if_vetoed_or_self_killed": True,
        },
    ]
    for rule in rules:
        matter_effect_define(
            admin=admin, proposal=citation, now=t0 - timedelta(hours=1), core_kind="proposal", column="Thalers", **rule
        )
    return players, citation


def village(t0, *, phase=""):
    """Nine Villagers under the 2008 rules (P01 the Mayor), with Alive and Occupation columns: P07 and P08 are
    dead, P06 is the Prisoner; and the Town Meeting kind, limited to ``phase`` if given. Returns (players,
    citation)."""
    players = make_table(9, start=t0 - timedelta(days=1), profile="2008")
    admin = players[1]
    dynasty = players[0].dynasties_ruled.get()
    day = t0 - timedelta(days=1)
    gndt_column_add(
        dynasty=dynasty, by=admin, now=day, name="Alive", kind="choice", choices=["Yes", "No"], default="Yes"
    )
    gndt_column_add(dynasty=dynasty, by=admin, now=day, name="Occupation", kind="text")
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=day)
    changes = {
        ("P07", "Alive"): "No",
        ("P08", "Alive"): "No",
        ("P06", "Occupation"): "Prisoner",
        ("P01", "Occupation"): "Mayor",
    }
    seen = {("P07", "Alive"): "Yes", ("P08", "Alive"): "Yes", ("P06", "Occupation"): "", ("P01", "Occupation"): ""}
    gndt_update(dynasty=dynasty, by=admin, changes=changes, seen=seen, comment="The story so far", now=day)
    citation = enacted_proposal(players, at=t0 - timedelta(hours=20))
    matter_kind_define(
        admin=admin,
        proposal=citation,
        now=t0 - timedelta(hours=1),
        name="Town Meeting",
        base="proposal",
        subject_rule="phrase",
        subject_text="Town Meeting",
        posters="filter",
        posters_filter=[{"column": "Alive", "op": "=", "value": "Yes"}],
        electorate="filter",
        electorate_filter=[
            {"column": "Alive", "op": "=", "value": "Yes"},
            {"column": "Occupation", "op": "≠", "value": "Prisoner"},
        ],
        quorum="eligible",
        veto="emperor",
        phase=phase,
    )
    return players, citation
