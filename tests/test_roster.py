"""The roster: applications and approval, idling and unidling, leaving, renaming."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from blognomic.flows.roster.services import (
    RosterError,
    application_approve,
    application_submit,
    idle_candidates,
    player_idle,
    player_leave,
    player_rename,
    player_unidle,
    players_idle,
)
from dynasties.models import Absence, Application, Rename, User
from gndt.models import Cell, Column, Row
from tests.factories import make_proposal, make_table, vote
from votes.models import Post
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0):
    players = make_table(5, start=t0)
    Column.objects.create(dynasty=players[0].dynasties_ruled.get(), name="Gold", kind="integer", default="3")
    return players


def test_approving_an_application_makes_a_player_with_a_gndt_row_of_defaults(client, players, t0):
    """An admin approves; the applicant becomes a player, can log in, and has a GNDT row of defaults."""
    response = client.post(
        reverse("join"),
        {
            "name": "Seventy-Fifth Trombone",
            "password": "a-good-passphrase",
            "password_again": "a-good-passphrase",
            "message": "Hello!",
        },
    )
    assert response.status_code == 302
    assert "Application sent" in client.get(response["Location"]).content.decode()
    application = Application.objects.get()
    user = application_approve(application=application, admin=players[1], now=t0 + timedelta(hours=1))
    assert user.is_player and user.check_password("a-good-passphrase")
    row = Row.objects.get(user=user)
    assert Cell.objects.get(row=row).value == "3"
    assert client.login(username="Seventy-Fifth Trombone", password="a-good-passphrase")


def test_a_current_player_cannot_apply_again(players, t0):
    """A second application from a current player is refused with a message, and nothing is stored."""
    with pytest.raises(RosterError, match="P03 is already a player"):
        application_submit(name="p03", password="x" * 10, message="", ip_address=None, now=t0)
    assert not Application.objects.exists()


def test_applications_are_rate_limited_per_address(players, t0):
    """Spam sign-ups were a real problem: three applications a day from one address."""
    for i in range(3):
        application_submit(name=f"New {i}", password="x" * 10, message="", ip_address="10.0.0.9", now=t0)
    with pytest.raises(RosterError, match="Too many applications"):
        application_submit(name="New 4", password="x" * 10, message="", ip_address="10.0.0.9", now=t0)
    assert Application.objects.count() == 3


def test_only_admins_approve(players, t0):
    application = application_submit(name="Newcomer", password="x" * 10, message="", ip_address=None, now=t0)
    with pytest.raises(RosterError, match="Only admins"):
        application_approve(application=application, admin=players[3], now=t0)
    assert not User.objects.filter(username="Newcomer").exists()


def test_player_may_idle_themselves_and_leaves_the_quorum(client, players, t0):
    """Idle players are not counted: quorum drops from 3 of 5 to 3 of 4."""
    player_idle(user=players[4], by=players[4], now=t0 + timedelta(hours=1))
    html = client.get("/").content.decode()
    assert "There are 4 active players. Quorum is 3." in html


def test_admin_may_idle_only_after_seven_days_of_inactivity(players, t0):
    """“has not posted an entry or comment in the last seven days”."""
    make_proposal(players[3], at=t0, title="Proposal: Recent")
    with pytest.raises(RosterError, match="may idle them from 12:00 UTC on 1 Aug 2016"):
        player_idle(user=players[3], by=players[1], now=t0 + timedelta(days=6))
    assert [u.username for u, _ in idle_candidates(now=t0 + timedelta(days=6))] == ["P01", "P02", "P03", "P05"]
    player_idle(user=players[3], by=players[1], now=t0 + timedelta(days=7, hours=1))
    assert Absence.objects.filter(user=players[3], ended_at__isnull=True).exists()


def test_2016_unidle_window_of_four_days(players, t0):
    """Ruleset 142: no unidling within four days of going idle in the current dynasty."""
    player_idle(user=players[4], by=players[4], now=t0)
    with pytest.raises(RosterError, match="may be unidled from 12:00 UTC on 29 Jul 2016"):
        player_unidle(user=players[4], by=players[1], now=t0 + timedelta(days=3))
    player_unidle(user=players[4], by=players[4], now=t0 + timedelta(days=4))
    assert not Absence.objects.filter(user=players[4], ended_at__isnull=True).exists()


def test_leaving_bars_rejoining_for_two_weeks(players, t0):
    """2016: someone who left “may not become a Hunter again within the following two weeks”."""
    player_leave(user=players[4], now=t0)
    application = application_submit(
        name="P05", password="x" * 10, message="", ip_address=None, now=t0 + timedelta(days=3)
    )
    with pytest.raises(RosterError, match="may rejoin from 12:00 UTC on 8 Aug 2016"):
        application_approve(application=application, admin=players[1], now=t0 + timedelta(days=3))
    user = application_approve(application=application, admin=players[1], now=t0 + timedelta(days=15))
    assert User.objects.active_at(t0 + timedelta(days=15)).filter(pk=user.pk).exists()


def test_rename_needs_an_admin_and_an_enacted_proposal(players, t0):
    """A player may change their name only as a result of a proposal approving it."""
    from gndt.roster import gndt_player_joined

    gndt_player_joined(dynasty=players[0].dynasties_ruled.get(), user=players[2], now=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Call Me Ishmael")
    with pytest.raises(RosterError, match="enacted Proposal"):
        player_rename(user=players[2], new_name="Ishmael", admin=players[1], proposal=proposal, now=t0)
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    proposal = Post.objects.get(pk=proposal.pk)
    player_rename(
        user=players[2], new_name="Ishmael", admin=players[1], proposal=proposal, now=t0 + timedelta(hours=14)
    )
    assert Rename.objects.get().old_name == "P03"
    assert Row.objects.get(user=players[2]).name == "Ishmael"
    assert User.objects.filter(username="Ishmael").exists()


def test_admins_make_and_remove_admins_but_never_the_last(client, players, t0):
    from blognomic.flows.roster.services import player_set_admin
    from tests.factories import PASSWORD

    with pytest.raises(RosterError, match="Only admins"):
        player_set_admin(user=players[3], is_admin=True, by=players[3], now=t0)
    with pytest.raises(RosterError, match="at least one admin"):
        player_set_admin(user=players[1], is_admin=False, by=players[1], now=t0)
    client.login(username="P02", password=PASSWORD)
    response = client.post(reverse("set_admin", args=["P04"]), {"admin": "yes"})
    assert response.status_code == 302 and User.objects.get(username="P04").is_admin
    assert "(admin)" in client.get(reverse("roster")).content.decode()


def test_the_roster_loads_the_active_players_and_reads_the_idle_ones_only_when_asked(
    players, t0, django_assert_num_queries
):
    """Every page needs the active players and how many are idle; only a few list the idle ones, who after
    twenty years are hundreds."""
    from dynasties.selectors import roster_at
    from tests.factories import make_player

    now = t0 + timedelta(days=3)
    for n in range(12):
        sleeper = make_player(f"Sleeper {n:02}", joined_at=t0)
        player_idle(user=sleeper, by=sleeper, now=t0 + timedelta(hours=1 + n))
    player_leave(user=players[4], now=t0 + timedelta(days=1))
    with django_assert_num_queries(1):
        roster = roster_at(now)
        assert [user.username for user in roster.active] == [p.username for p in players[:4]]
        assert roster.idle_count == 12
    third = User.objects.get(username="Sleeper 03")
    with django_assert_num_queries(1):
        assert roster.idle_among([players[0], third]) == {"Sleeper 03"}
    with django_assert_num_queries(1):
        assert [user.username for user in roster.idle] == [f"Sleeper {n:02}" for n in range(12)]
        assert roster.idle_count == 12 and roster.idle_among([players[4]]) == frozenset()
    # Before the first of them went idle: nobody idle, and no question asked about it.
    earlier = roster_at(t0 + timedelta(minutes=30))
    with django_assert_num_queries(0):
        assert earlier.idle_count == 0 and earlier.idle_among(players) == frozenset()


def test_with_nobody_active_the_idle_players_are_still_counted(players, t0):
    from dynasties.selectors import roster_at

    for n, player in enumerate(players):
        player_idle(user=player, by=player, now=t0 + timedelta(hours=n))
    roster = roster_at(t0 + timedelta(days=1))
    assert roster.active == [] and roster.idle_count == 5


def test_an_admin_idles_many_inactive_players_in_one_action(players, t0):
    """Each as an admin may idle one (inactive for the idle period), all in one action."""
    later = t0 + timedelta(days=8)
    players_idle(users=[players[2], players[3], players[4]], by=players[1], now=later)
    assert set(Absence.objects.filter(ended_at__isnull=True).values_list("user__username", flat=True)) == {
        "P03",
        "P04",
        "P05",
    }


def test_idling_many_is_all_or_nothing_and_says_who_could_not_be(players, t0):
    make_proposal(players[3], at=t0 + timedelta(days=5), title="Proposal: Recent")
    with pytest.raises(RosterError, match="Nobody was idled: .*P04"):
        players_idle(users=[players[2], players[3]], by=players[1], now=t0 + timedelta(days=8))
    assert not Absence.objects.exists()
    with pytest.raises(RosterError, match="Only admins"):
        players_idle(users=[players[2]], by=players[3], now=t0 + timedelta(days=8))


def test_the_roster_asks_to_confirm_before_idling_the_checked_players(client, players, t0):
    client.force_login(players[1])
    url = reverse("idle_many")
    response = client.post(url, {"players": ["P03", "P05"]})
    assert response.status_code == 200 and "Idle these 2" in response.content.decode()
    assert not Absence.objects.exists()
    client.post(url, {"players": ["P03", "P05"], "confirm": "yes"})
    assert Absence.objects.filter(ended_at__isnull=True).count() == 2
    client.force_login(players[3])
    assert client.post(url, {"players": ["P04"], "confirm": "yes"}).status_code == 403
