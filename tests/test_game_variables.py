"""Game variables in the sidebar and the phone summary, and declared actions limited to a phase.

Ruleset 21 (2005): “The Year is tracked in the Blog sidebar.” and “Once per day at midnight GMT the Calendar
advances 10 Years.” Ruleset 52 (2008): “There is a row in the GNDT entitled “The Pot” which is used to track
the amount of Money in the Pot at any given time.” Ruleset 50 (2008): “All even-numbered days in the real
world are Daytime in Zahndorf, and all odd-numbered days are Nighttime”.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dynasties.models import Dynasty
from dynasties.phases import DAYTIME, OUTSIDE_PHASE
from gndt.game_variables import game_variables_shown
from gndt.models import Column, GameVariable, Row, Update
from gndt.services import GndtError, gndt_action_save, gndt_column_add, gndt_effect_save, gndt_effects_apply_due
from gndt.services.variables import (
    VARIABLE_CELL_OR_PHASE,
    VARIABLE_LABEL_TAKEN,
    VARIABLE_NEEDS_SOURCE,
    VARIABLE_PROPOSAL_NOT_ENACTED,
    gndt_variable_add,
    gndt_variable_retire,
)
from tests.factories import PASSWORD, T0, make_proposal, vote
from tests.gndt.builders import make_gndt, update, value
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

# 25 July 2016 is odd: Nighttime. The 26th is Daytime.
NIGHT = datetime(2016, 7, 25, 12, 0, tzinfo=UTC)
DAY = datetime(2016, 7, 26, 12, 0, tzinfo=UTC)


def build_game():
    game = make_gndt(T0)
    with time_machine.travel(T0, tick=False):
        game.calendar = Row.objects.get(dynasty=game.dynasty, name="The Pot")
        game.year = gndt_column_add(dynasty=game.dynasty, by=game.admin, now=T0, name="Year", kind=Column.INTEGER)
        update(game, game.admin, {("The Pot", "Year"): "1500", ("The Pot", "Money"): "40"}, now=T0)
    return game


@pytest.fixture
def game(db):
    return build_game()


def enacted_proposal(game, t0):
    proposal = make_proposal(game.player("P03"), at=t0 - timedelta(days=2), title="Proposal: Keep the Year")
    for name in ("P04", "P05"):
        vote(proposal, game.player(name), "for", at=t0 - timedelta(days=2, hours=-1))
    matter_resolve(post=proposal, admin=game.admin, action="enact", now=t0 - timedelta(days=1))
    proposal.refresh_from_db()
    return proposal


def page(client: Client, url: str, at: datetime) -> str:
    with time_machine.travel(at, tick=False):
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- Declaring them ---------------------------------------------------------------------------------------


def test_admins_declare_a_cell_and_a_phase_citing_the_enacted_proposal(game, t0):
    proposal = enacted_proposal(game, t0)
    year = gndt_variable_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        label="The Year",
        row=game.calendar,
        column=game.year,
        proposal=proposal,
    )
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="Time of day", phase_rule="day-parity")
    assert Dynasty.objects.get(pk=game.dynasty.pk).shows_variables
    assert year.proposal == proposal and year.by == game.admin
    logged = Update.objects.filter(comment__startswith="Showing the game variable The Year").get()
    assert "Proposal: Keep the Year" in logged.comment
    game.dynasty.refresh_from_db()
    shown = game_variables_shown(game.dynasty, viewer=None, now=NIGHT)
    assert [(v.label, v.value) for v in shown] == [("The Year", "1500"), ("Time of day", "Nighttime")]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"label": "Both", "phase_rule": "day-parity", "column": "year", "row": "calendar"}, VARIABLE_CELL_OR_PHASE),
        ({"label": "Nothing"}, VARIABLE_NEEDS_SOURCE),
        ({"label": "Half", "column": "year"}, VARIABLE_NEEDS_SOURCE),
        ({"label": "Moon", "phase_rule": "moon"}, "no phase rule"),
        ({"label": "\u200bYear", "phase_rule": "day-parity"}, "invisible"),
        ({"label": "", "phase_rule": "day-parity"}, "needs a name"),
    ],
)
def test_bad_variables_are_refused_and_nothing_is_saved(game, t0, kwargs, message):
    kwargs = {key: getattr(game, value) if key in ("row", "column") else value for key, value in kwargs.items()}
    with pytest.raises(GndtError, match=message.split("{")[0][:20]):
        gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, **kwargs)
    assert not GameVariable.objects.exists()
    assert not Dynasty.objects.get(pk=game.dynasty.pk).shows_variables


def test_a_second_variable_of_the_same_name_and_an_unenacted_citation_are_refused(game, t0):
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="Time", phase_rule="day-parity")
    with pytest.raises(GndtError, match=VARIABLE_LABEL_TAKEN.format(label="TIME")):
        gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="TIME", phase_rule="day-parity")
    pending = make_proposal(game.player("P03"), at=t0, title="Proposal: Not Yet")
    with pytest.raises(GndtError) as refused:
        gndt_variable_add(
            dynasty=game.dynasty,
            by=game.admin,
            now=t0,
            label="Pot",
            row=game.calendar,
            column=Column.objects.get(name="Money"),
            proposal=pending,
        )
    assert str(refused.value) == VARIABLE_PROPOSAL_NOT_ENACTED.format(title="Proposal: Not Yet")
    with pytest.raises(GndtError, match="Only admins"):
        gndt_variable_add(dynasty=game.dynasty, by=game.player("P03"), now=t0, label="X", phase_rule="day-parity")
    assert GameVariable.objects.count() == 1


def test_removing_the_last_variable_stops_the_pages_asking(game, t0):
    variable = gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="Time", phase_rule="day-parity")
    gndt_variable_retire(variable=variable, by=game.admin, now=t0 + timedelta(hours=1))
    assert not Dynasty.objects.get(pk=game.dynasty.pk).shows_variables
    assert GameVariable.objects.get().retired_at is not None


# --- Showing them -----------------------------------------------------------------------------------------


def test_the_sidebar_and_the_phone_summary_show_the_year_the_pot_and_the_phase(game, t0, client):
    gndt_variable_add(
        dynasty=game.dynasty, by=game.admin, now=t0, label="The Year", row=game.calendar, column=game.year
    )
    gndt_variable_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        label="The Pot",
        row=game.calendar,
        column=Column.objects.get(name="Money"),
    )
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="In Zahndorf", phase_rule="day-parity")
    night = page(client, reverse("front_page"), NIGHT)
    sidebar = night.split('id="variables"')[1].split("</section>")[0]
    assert "<dt>The Year</dt><dd>1500</dd>" in sidebar and "<dt>The Pot</dt><dd>40</dd>" in sidebar
    assert "<dt>In Zahndorf</dt><dd>Nighttime</dd>" in sidebar
    summary = night.split('id="game-summary"')[1].split("</section>")[0]
    assert "The Year: <strong>1500</strong>" in summary and "In Zahndorf: <strong>Nighttime</strong>" in summary
    assert "In Zahndorf</dt><dd>Daytime" in page(client, reverse("front_page"), DAY)


def test_the_year_advances_every_midnight_by_a_scheduled_effect(game, t0, client):
    """“Once per day at midnight GMT the Calendar advances 10 Years.”"""
    gndt_variable_add(
        dynasty=game.dynasty, by=game.admin, now=t0, label="The Year", row=game.calendar, column=game.year
    )
    gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        name="The Calendar advances",
        column=game.year,
        target="row",
        row=game.calendar,
        delta=10,
        hour=0,
        starts_at=t0,
    )
    gndt_effects_apply_due(now=t0 + timedelta(days=1, minutes=1))
    gndt_effects_apply_due(now=t0 + timedelta(days=1, minutes=2))  # a second run that day changes nothing
    assert value(game, "The Pot", "Year") == "1510"
    assert "<dt>The Year</dt><dd>1510</dd>" in page(client, reverse("front_page"), t0 + timedelta(days=1, hours=1))


def test_a_variable_on_a_hidden_cell_is_shown_only_to_who_may_see_it(game, t0):
    gndt_variable_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        label="Pot role",
        row=game.calendar,
        column=Column.objects.get(name="Role"),
    )
    game.dynasty.refresh_from_db()
    assert game_variables_shown(game.dynasty, viewer=game.player("P03"), now=NIGHT) == []
    assert [v.label for v in game_variables_shown(game.dynasty, viewer=game.admin, now=NIGHT)] == ["Pot role"]
    assert not Update.objects.filter(comment__contains="Pot role").visible_to(game.player("P03"), game.dynasty)


def test_pages_spend_one_query_on_variables_however_many_and_none_without(game, t0):
    client = Client()
    assert client.login(username="P03", password=PASSWORD)

    def queries() -> int:
        with time_machine.travel(NIGHT, tick=False), CaptureQueriesContext(connection) as context:
            assert client.get(reverse("front_page")).status_code == 200
        return len(context.captured_queries)

    without = queries()
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="Time", phase_rule="day-parity")
    one = queries()
    for label, column in (("Year", game.year), ("Pot", Column.objects.get(name="Money"))):
        gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label=label, row=game.calendar, column=column)
    assert one == without + 1
    assert queries() == one


def test_the_manage_page_adds_a_variable_and_refuses_a_bad_one(game, t0):
    client = Client()
    assert client.login(username="P02", password=PASSWORD)
    with time_machine.travel(NIGHT, tick=False):
        bad = client.post(
            reverse("gndt_variable_new"),
            {"label": "Both", "row": game.calendar.pk, "column": game.year.pk, "phase_rule": "day-parity"},
        )
        assert bad.status_code == 400 and VARIABLE_CELL_OR_PHASE in bad.content.decode()
        unknown = client.post(
            reverse("gndt_variable_new"),
            {"label": "Y", "row": game.calendar.pk, "column": game.year.pk, "proposal": "no-such"},
        )
        assert unknown.status_code == 400 and "No post with id" in unknown.content.decode()
        assert not GameVariable.objects.exists()
        good = client.post(
            reverse("gndt_variable_new"), {"label": "The Year", "row": game.calendar.pk, "column": game.year.pk}
        )
        assert good.status_code == 302
        variable = GameVariable.objects.get()
        removed = client.post(reverse("gndt_remove", args=["variables", variable.pk]))
        assert removed.status_code == 302
    assert GameVariable.objects.get().retired_at is not None


# --- Phase limits on declared actions --------------------------------------------------------------------


def test_an_action_limited_to_the_daytime_is_refused_at_night(game, t0):
    """A declared action “only during the Daytime” is refused on an odd-numbered day, naming when day comes."""
    gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Lynch", frequency="unlimited", phase=DAYTIME)
    p3 = game.player("P03")
    with pytest.raises(GndtError) as refused:
        update(game, p3, {("P03", "Money"): "301"}, now=NIGHT, action="Lynch")
    assert str(refused.value) == OUTSIDE_PHASE.format(
        what="Lynch", done="taken", phase="Daytime", now_phase="Nighttime", until="Tue 26 Jul 2016 00:00"
    )
    assert value(game, "P03", "Money") == "300"
    update(game, p3, {("P03", "Money"): "301"}, now=DAY, action="Lynch")
    assert value(game, "P03", "Money") == "301"


def test_an_action_with_an_unknown_phase_is_refused(game, t0):
    with pytest.raises(GndtError, match="no phase “Dusk”"):
        gndt_action_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Howl", frequency="daily", phase="Dusk")


@pytest.mark.parametrize(
    "fields",
    [
        {"label": "X", "row": "99999999999999999999", "column": "1"},
        {"label": "X", "row": "١", "column": "٢"},
        {"label": "Null\x00", "phase_rule": "day-parity"},
        {"label": "X", "phase_rule": "moon"},
        {"label": "X" * 61, "phase_rule": "day-parity"},
        {"label": "X", "phase_rule": "day-parity", "proposal": "a\x00b"},
    ],
)
def test_hostile_variable_forms_get_a_400_and_change_nothing(game, fields):
    client = Client()
    assert client.login(username="P02", password=PASSWORD)
    with time_machine.travel(NIGHT, tick=False):
        response = client.post(reverse("gndt_variable_new"), fields)
    assert response.status_code == 400
    assert not GameVariable.objects.exists()


def test_the_sidebar_beside_a_past_moment_shows_the_variables_as_they_stood(client, game, t0):
    """/at/ shows the game then, its sidebar too: the Year as it stood (1500, not the 1510 it became), the
    phase of that day, and no variable declared only later."""
    gndt_variable_add(
        dynasty=game.dynasty, by=game.admin, now=t0, label="The Year", row=game.calendar, column=game.year
    )
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=t0, label="Time of day", phase_rule="day-parity")
    update(game, game.admin, {("The Pot", "Year"): "1510"}, now=DAY)
    money = Column.objects.get(dynasty=game.dynasty, name="Money")
    gndt_variable_add(dynasty=game.dynasty, by=game.admin, now=DAY, label="The Pot", row=game.calendar, column=money)
    html = client.get("/at/2016-07-25T12:00:00Z/").content.decode()
    sidebar = html.split('<aside class="sidebar')[1]
    variables = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", sidebar)
    assert variables == [("The Year", "1500"), ("Time of day", "Nighttime")]
