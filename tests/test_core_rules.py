"""Core-rule parameters changed by enacted proposals, recorded with the proposal, and taking effect."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse

from blognomic.flows.roster.services import RosterError, rule_change_record
from dynasties.models import Game, RuleChange
from dynasties.profiles import ADJUSTABLE, PROFILES, parse_parameter, with_overrides
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.models import Post
from votes.posting import PostError
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db


def test_every_adjustable_parameter_is_a_profile_field():
    for profile in PROFILES.values():
        for name in ADJUSTABLE:
            assert hasattr(profile, name), name


@pytest.mark.parametrize(
    ("parameter", "raw", "value"),
    [
        ("pending_limit", "3", 3),
        ("stale_after_days", "none", None),
        ("veto_sticky", "no", False),
    ],
)
def test_parse_parameter(parameter, raw, value):
    assert parse_parameter(parameter, raw) == value
    assert getattr(with_overrides(PROFILES["2016"], {parameter: value}), parameter) == value


@pytest.mark.parametrize(
    ("parameter", "raw", "message"),
    [
        ("pending_limit", "three", "a whole number"),
        ("pending_limit", "none", "a whole number of 0 or more;"),
        ("veto_sticky", "maybe", "yes or no"),
        ("quorum", "4", "not a rule parameter"),
    ],
)
def test_bad_parameter_values_are_refused(parameter, raw, message):
    with pytest.raises(ValueError, match=message):
        parse_parameter(parameter, raw)


@pytest.fixture
def enacted(t0):
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Three At Once")
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    return players, Post.objects.get(pk=proposal.pk)


def test_a_raised_pending_limit_lets_a_third_proposal_through(enacted, t0):
    """An enacted proposal raises the pending limit from 2 to 3; the change is recorded with it."""
    players, proposal = enacted
    author = players[3]
    make_proposal(author, at=t0 + timedelta(hours=14), title="Proposal: One")
    make_proposal(author, at=t0 + timedelta(hours=14, minutes=1), title="Proposal: Two")
    with pytest.raises(PostError, match="the limit is 2"):
        make_proposal(author, at=t0 + timedelta(hours=14, minutes=2), title="Proposal: Three")
    rule_change_record(
        parameter="pending_limit",
        raw_value="3",
        proposal=proposal,
        admin=players[1],
        now=t0 + timedelta(hours=14, minutes=3),
    )
    make_proposal(author, at=t0 + timedelta(hours=14, minutes=4), title="Proposal: Three")
    assert Game.load().rules_profile().pending_limit == 3
    assert RuleChange.objects.get().proposal == proposal


def test_the_profile_at_a_moment_has_only_the_changes_made_by_then(enacted, t0):
    """``rules_profile(at=…)`` applies the changes recorded by ``at``, the later of two changes to one parameter
    winning; without ``at`` every change on record applies."""
    players, proposal = enacted
    first, second = t0 + timedelta(hours=14), t0 + timedelta(hours=20)
    rule_change_record(parameter="cfj_hours", raw_value="30", proposal=proposal, admin=players[1], now=first)
    rule_change_record(parameter="cfj_hours", raw_value="60", proposal=proposal, admin=players[1], now=second)
    rule_change_record(parameter="stale_after_days", raw_value="none", proposal=proposal, admin=players[1], now=second)
    game = Game.load()
    before = game.rules_profile(at=first - timedelta(seconds=1))
    assert (before.cfj_hours, before.stale_after_days) == (48, 7)
    assert game.rules_profile(at=first).cfj_hours == 30
    between = game.rules_profile(at=second - timedelta(minutes=1))
    assert (between.cfj_hours, between.stale_after_days) == (30, 7)
    assert (game.rules_profile(at=second).cfj_hours, game.rules_profile(at=second).stale_after_days) == (60, None)
    assert game.rules_profile() == game.rules_profile(at=second)


def test_the_profile_at_many_moments_reads_the_changes_once(enacted, t0, django_assert_num_queries):
    players, proposal = enacted
    rule_change_record(parameter="cfj_hours", raw_value="30", proposal=proposal, admin=players[1], now=t0)
    game = Game.load()
    with django_assert_num_queries(1):
        for hours in range(-2, 3):
            game.rules_profile(at=t0 + timedelta(hours=hours))
        game.rules_profile()


def test_changes_need_an_admin_and_an_enacted_proposal(enacted, t0):
    players, proposal = enacted
    pending = make_proposal(players[4], at=t0 + timedelta(hours=14), title="Proposal: Not Yet")
    with pytest.raises(RosterError, match="Only admins"):
        rule_change_record(parameter="daily_limit", raw_value="5", proposal=proposal, admin=players[3], now=t0)
    with pytest.raises(RosterError, match="enacted Proposal"):
        rule_change_record(parameter="daily_limit", raw_value="5", proposal=pending, admin=players[1], now=t0)
    assert not RuleChange.objects.exists()


def test_core_rules_page_shows_changes_and_takes_them_from_admins(client, enacted):
    players, proposal = enacted
    assert client.get(reverse("core_rules")).status_code == 200
    client.login(username="P02", password=PASSWORD)
    client.post(reverse("core_rules"), {"parameter": "cfj_hours", "value": "72", "proposal": proposal.slug})
    html = client.get(reverse("core_rules")).content.decode()
    assert "<strong>72</strong>" in html and "Proposal: Three At Once" in html
    client.logout()
    client.login(username="P04", password=PASSWORD)
    assert (
        client.post(
            reverse("core_rules"), {"parameter": "cfj_hours", "value": "1", "proposal": proposal.slug}
        ).status_code
        == 403
    )


@pytest.mark.django_db(transaction=True)
def test_rule_changes_survive_an_archive_round_trip(enacted, t0):
    from blognomic.moving.archive import ArchiveError, export_archive, import_archive

    players, proposal = enacted
    rule_change_record(
        parameter="stale_after_days", raw_value="none", proposal=proposal, admin=players[1], now=t0 + timedelta(days=1)
    )
    first = export_archive()
    assert first["rule_changes"] == [
        {
            "parameter": "stale_after_days",
            "value": None,
            "proposal": proposal.slug,
            "by": "P02",
            "at": "2016-07-26T12:00:00Z",
        }
    ]
    bad = {**first, "rule_changes": [{**first["rule_changes"][0], "value": "soon"}]}
    call_command("flush", "--no-input", verbosity=0)
    with pytest.raises(ArchiveError, match=r"rule_changes\[0\]\.value"):
        import_archive(bad)
    import_archive(first)
    assert export_archive() == first
    assert Game.load().rules_profile().stale_after_days is None
