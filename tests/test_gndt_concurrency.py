"""No lost GNDT updates under real concurrency: simultaneous edits of one cell, an undo racing an edit, a
communal action claimed twice at once, and two beat runs applying the same effect period.

These need row locks and concurrent connections, so they run on PostgreSQL only (SQLite serialises every
write, which proves nothing about locking).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gndt.models import Column, EffectRun, Row, Update
from gndt.services import GndtError, gndt_action_save, gndt_effect_save, gndt_effects_apply_due, gndt_undo, gndt_update
from tests.concurrency import run_together
from tests.factories import PASSWORD
from tests.gndt.builders import make_gndt, value

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


@pytest.fixture
def game():
    return make_gndt(timezone.now() - timedelta(hours=1))


def test_simultaneous_edits_of_one_cell_through_the_web_keep_exactly_one(game):
    """Ten players saw P03's Money at 300 and press Save at the same moment, each with a different value:
    one is saved; the nine others are refused with what changed, and no edit is silently overwritten."""
    row = Row.objects.get(dynasty=game.dynasty, name="P03")
    column = Column.objects.get(dynasty=game.dynasty, name="Money")
    field = f"{row.pk}-{column.pk}"
    editors = [game.players[i % len(game.players)] for i in range(10)]

    def editor(i, user):
        def save():
            client = Client()
            assert client.login(username=user.username, password=PASSWORD)
            response = client.post(
                reverse("gndt_edit"),
                {f"v-{field}": str(400 + i), f"s-{field}": "300", "comment": f"edit {i}"},
            )
            return response.status_code, response.content.decode()

        return save

    results = run_together([editor(i, user) for i, user in enumerate(editors)])
    saved = [i for i, (status, _) in enumerate(results) if status == 302]
    refused = [html for status, html in results if status == 400]
    assert len(saved) == 1 and len(refused) == 9
    assert all("P03’s Money is now “" in html and "not “300” as you saw it" in html for html in refused)
    assert value(game, "P03", "Money") == str(400 + saved[0])
    assert Update.objects.filter(comment__startswith="edit ").count() == 1


def test_an_undo_racing_an_edit_of_the_same_cell_never_loses_the_edit(game):
    """An undo and a new edit of the cell it changed arrive together: whichever comes second is refused."""
    original = gndt_update(
        dynasty=game.dynasty,
        by=game.player("P03"),
        changes={("P03", "Money"): "500"},
        seen={("P03", "Money"): "300"},
        now=timezone.now(),
    )

    def undo():
        try:
            gndt_undo(update=original, by=game.player("P04"), now=timezone.now())
        except GndtError as error:
            return str(error)
        return "undone"

    def edit():
        try:
            gndt_update(
                dynasty=game.dynasty,
                by=game.player("P05"),
                changes={("P03", "Money"): "450"},
                seen={("P03", "Money"): "500"},
                now=timezone.now(),
            )
        except GndtError as error:
            return str(error)
        return "edited"

    undo_result, edit_result = run_together([undo, edit])
    assert (undo_result == "undone") != (edit_result == "edited")
    if undo_result == "undone":
        assert value(game, "P03", "Money") == "300" and "is now “300”, not “500”" in edit_result
    else:
        assert value(game, "P03", "Money") == "450" and "has changed since" in undo_result


def test_a_communal_action_claimed_by_two_players_at_once_goes_to_one(game):
    """A daily communal action is one player's per day: two declarations at the same instant, one succeeds."""
    gndt_action_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=timezone.now(),
        name="Ring the Bell",
        frequency="daily_communal",
    )

    def declare(user):
        def run():
            try:
                gndt_update(
                    dynasty=game.dynasty,
                    by=user,
                    changes={},
                    seen={},
                    comment="ding",
                    action="Ring the Bell",
                    now=timezone.now(),
                )
            except GndtError as error:
                return str(error)
            return "rang"

        return run

    results = run_together([declare(game.player("P03")), declare(game.player("P04"))])
    assert results.count("rang") == 1
    assert "already did it today" in next(result for result in results if result != "rang")
    assert Update.objects.filter(action__name="Ring the Bell").count() == 1


def test_two_beat_runs_at_once_apply_an_effect_period_once(game):
    """Beat fires twice at the same moment (two schedulers by mistake): the Money of each player rises once."""
    now = timezone.now()
    gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=now - timedelta(days=2),
        name="Allowance",
        column=Column.objects.get(dynasty=game.dynasty, name="Money"),
        delta=5,
        hour=0,
        minute=0,
        starts_at=now - timedelta(days=2),
    )
    reports = run_together([lambda: gndt_effects_apply_due(now=now) for _ in range(4)])
    assert sum(len(report.applied) for report in reports) == 1
    assert EffectRun.objects.count() == 1
    assert value(game, "P03", "Money") == "305"
