"""The demo's clock: off unless DEMO_CLOCK is on (only `make run` sets it), never possible in production, and
in the demo an admin's way to move the game's time ahead and watch a deadline pass."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core.checks import run_checks
from django.urls import reverse

from blognomic.running import demo_clock
from blognomic.running.models import DemoClock
from tests.factories import PASSWORD, make_proposal, make_table, vote
from tests.test_settings import PRODUCTION, run_manage

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings):
    """The clock as `make run` installs it (the test runner turns DEBUG off; the demo runs with it on)."""
    settings.DEMO_CLOCK, settings.DEBUG = True, True
    demo_clock.install()
    yield
    demo_clock.uninstall()


def login(client, name: str) -> None:
    assert client.login(username=name, password=PASSWORD)


def test_off_by_default_the_address_is_not_there_and_the_panel_offers_nothing(client, t0):
    players = make_table(5, start=t0)
    login(client, players[1].username)
    assert client.post(reverse("demo_clock_move"), {"hours": "12"}).status_code == 404
    assert "The demo's clock" not in client.get(reverse("admin_panel")).content.decode()
    assert not DemoClock.objects.exists()


def test_the_clock_will_not_install_outside_the_demo(settings):
    settings.DEMO_CLOCK, settings.DEBUG = True, False
    with pytest.raises(demo_clock.DemoClockError, match="never for a real game"):
        demo_clock.install()
    settings.DEMO_CLOCK, settings.DEBUG = False, True
    with pytest.raises(demo_clock.DemoClockError):
        demo_clock.install()
    assert not demo_clock.installed()


def test_production_settings_refuse_the_demo_clock():
    """DEBUG=0 with DEMO_CLOCK=1 stops start-up, naming the setting."""
    result = run_manage("check", env={**PRODUCTION, "DEMO_CLOCK": "1"})
    assert result.returncode != 0 and "DEMO_CLOCK" in result.stderr


def test_check_deploy_refuses_the_demo_clock_whatever_debug_says(settings):
    settings.DEMO_CLOCK = True
    errors = [message.id for message in run_checks(include_deployment_checks=True)]
    assert "blognomic.E001" in errors
    settings.DEMO_CLOCK = False
    assert "blognomic.E001" not in [message.id for message in run_checks(include_deployment_checks=True)]


def test_an_admin_moves_the_demo_clock_ahead_and_a_proposal_becomes_enactable(client, t0, demo):
    """A Proposal with Quorum FOR at 3 hours waits for its twelfth hour; moving the demo's clock 12 hours ahead
    shows it enactable at once, and the header says how far ahead the demo runs."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0)
    for voter in players[:4]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    login(client, players[1].username)
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        assert "Cannot be resolved yet." in client.get(proposal.get_absolute_url()).content.decode()
        panel = client.get(reverse("admin_panel")).content.decode()
        assert "its clock is the real one" in panel and 'name="hours" value="12"' in panel
        moved = client.post(reverse("demo_clock_move"), {"hours": "12"}, follow=True).content.decode()
        assert "The demo&#x27;s clock now runs 12 hours ahead of the real one." in moved
        page = client.get(proposal.get_absolute_url()).content.decode()
    assert "Can be enacted now." in page
    assert 'Tue 26 Jul 2016 03:00:00 UTC</time> <span class="demo-clock-note">(demo clock, 12 hours ahead)' in page
    assert DemoClock.objects.get().ahead == timedelta(hours=12)


def test_the_demo_keeps_its_time_across_a_restart(t0, demo):
    players = make_table(3, start=t0, admins=(1,))
    demo_clock.demo_clock_move(admin=players[1], step="24")
    demo_clock.demo_clock_move(admin=players[1], step="1")
    demo_clock.uninstall()
    demo_clock.install()
    assert demo_clock.ahead() == timedelta(hours=25)
    assert demo_clock.describe(demo_clock.ahead()) == "1 day 1 hour"


@pytest.mark.parametrize("step", ["-12", "0", "1000", ""])
def test_only_the_offered_steps_move_it_and_only_ahead(client, t0, demo, step):
    players = make_table(3, start=t0, admins=(1,))
    login(client, players[1].username)
    response = client.post(reverse("demo_clock_move"), {"hours": step}, follow=True).content.decode()
    assert "Move the demo&#x27;s clock ahead by 1, 12 or 24 hours." in response
    assert not DemoClock.objects.exists() and demo_clock.ahead() == timedelta(0)


@pytest.mark.parametrize("who", [None, "P03", "P01"], ids=["visitor", "player", "emperor"])
def test_only_an_admin_may_move_it(client, t0, demo, who):
    make_table(5, start=t0)
    if who:
        login(client, who)
    response = client.post(reverse("demo_clock_move"), {"hours": "12"})
    assert response.status_code == (403 if who else 302) and not DemoClock.objects.exists()
