"""Hidden GNDT columns keep their secrets on every page: a player or a visitor learns nothing of a hidden
column (its name, its default, its description, changes to its settings, the scheduled effects on it, the
values it holds or the moments they changed), while admins and the Emperor see all of it.

“Secret state: only the Emperor and admins see it.” Every page of the GNDT is opened as each kind of viewer,
and the page's text is searched for anything that names the secret.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from gndt.models import Column, EffectRun, ScheduledEffect, Update
from gndt.selectors import gndt_log
from gndt.services import (
    gndt_column_add,
    gndt_column_edit,
    gndt_effect_save,
    gndt_effects_apply_due,
    gndt_row_add,
    gndt_undo,
)
from tests.factories import PASSWORD, T0
from tests.gndt.builders import make_gndt, update

pytestmark = pytest.mark.django_db

# Everything below is about the hidden columns (Role, from the builder, and Curse Marks, added here).
SECRETS = (
    "Curse Marks",
    "Cursed since the third night",  # its description
    "Rule 3.1 (the Curse)",  # its description after a change
    "Midnight curse",  # a scheduled effect on it
    "a quiet night",  # the Emperor's comment on a change to hidden values only
    "Werewolf",
    "Villager",
    "hidden value",
)


def build_game():
    """Make a GNDT with secrets of every kind, and return it with the updates a player must not see."""
    game = make_gndt(T0)
    admin, emperor = game.admin, game.emperor
    with time_machine.travel(T0, tick=False):
        curse = gndt_column_add(
            dynasty=game.dynasty,
            by=admin,
            now=T0,
            name="Curse Marks",
            kind=Column.INTEGER,
            default="7",
            hidden=True,
            description="Cursed since the third night",
        )
        gndt_column_edit(
            column=curse, by=admin, now=T0 + timedelta(minutes=1), default="9", description="Rule 3.1 (the Curse)"
        )
        gndt_effect_save(
            dynasty=game.dynasty,
            by=admin,
            now=T0 + timedelta(minutes=2),
            name="Midnight curse",
            column=curse,
            delta=1,
            hour=0,
            starts_at=T0,
        )
        update(game, emperor, {("P04", "Role"): "Werewolf"}, now=T0 + timedelta(minutes=3), comment="a quiet night")
        update(game, game.player("P03"), {("P03", "Money"): "250"}, now=T0 + timedelta(minutes=4), comment="paid")
        # A row added now gets starting values in every column, hidden ones too: the update is shown, the
        # hidden values in it are not, nor how many there were.
        gndt_row_add(dynasty=game.dynasty, by=admin, now=T0 + timedelta(minutes=5), name="The Vault")
    report = gndt_effects_apply_due(now=T0 + timedelta(days=1, minutes=1))
    assert report.applied, "the effect on the hidden column ran"
    assert EffectRun.objects.filter(update__isnull=False).exists()
    game.secret_updates = list(
        Update.objects.filter(dynasty=game.dynasty, comment__regex=r"(?i)curse|quiet night|column Role").order_by("pk")
    )
    # Role added (by the builder), Curse Marks added and changed, the effect scheduled and run, the night.
    assert len(game.secret_updates) == 6
    game.curse = curse
    return game


@pytest.fixture
def secret_game(db):
    return build_game()


def viewer_client(name: str | None) -> Client:
    client = Client()
    if name is not None:
        assert client.login(username=name, password=PASSWORD)
    return client


def pages(game) -> list[str]:
    moment = (game.start + timedelta(days=1, minutes=2)).strftime("%Y-%m-%dT%H:%M:%S")
    number = game.dynasty.number
    return [
        reverse("gndt_table"),
        reverse("gndt_table") + f"?at={moment}",
        reverse("gndt_table") + "?sort=Curse Marks",
        reverse("gndt_log"),
        reverse("gndt_log") + "?row=P04",
        reverse("gndt_log") + "?row=The Vault",
        reverse("gndt_log") + "?column=Curse Marks",
        reverse("gndt_export"),
        reverse("gndt_export") + f"?at={moment}",
        reverse("gndt_dynasty_table", args=[number]),
        reverse("gndt_dynasty_table", args=[number]) + f"?at={moment}",
        reverse("gndt_dynasty_log", args=[number]),
        reverse("gndt_dynasty_export", args=[number]),
        reverse("gndt_edit"),
        *(reverse("gndt_update", args=[u.pk]) for u in Update.objects.filter(dynasty=game.dynasty)),
    ]


@pytest.mark.parametrize("viewer", [None, "P03"], ids=["visitor", "player"])
def test_no_page_shows_anything_of_a_hidden_column_to_players_or_visitors(secret_game, viewer):
    client = viewer_client(viewer)
    secret_links = {reverse("gndt_update", args=[u.pk]) for u in secret_game.secret_updates}
    with time_machine.travel(secret_game.start + timedelta(days=1, hours=1), tick=False):
        for url in pages(secret_game):
            response = client.get(url)
            if url in secret_links:
                assert response.status_code == 404, f"{url} is an update about a hidden column"
                body = response.content.decode()
            else:
                assert response.status_code in (200, 302), url
                body = response.content.decode()
            for secret in SECRETS:
                assert secret not in body, f"{url} shows “{secret}” to {viewer or 'a visitor'}"
            for link in secret_links:
                assert f'href="{link}"' not in body, f"{url} links to the secret update {link}"


@pytest.mark.parametrize("viewer", ["P02", "P01"], ids=["admin", "emperor"])
def test_admins_and_the_emperor_see_every_secret(secret_game, viewer):
    client = viewer_client(viewer)
    with time_machine.travel(secret_game.start + timedelta(days=1, hours=1), tick=False):
        log = client.get(reverse("gndt_log")).content.decode()
        for secret in ("Curse Marks", "Rule 3.1 (the Curse)", "Midnight curse", "a quiet night", "Werewolf"):
            assert secret in log
        assert "hidden value" not in log
        for secret_update in secret_game.secret_updates:
            response = client.get(reverse("gndt_update", args=[secret_update.pk]))
            assert response.status_code == 200
        csv_text = client.get(reverse("gndt_export")).content.decode()
        assert "Curse Marks" in csv_text and "Werewolf" in csv_text
        table = client.get(reverse("gndt_table")).content.decode()
        assert 'title="Rule 3.1 (the Curse)"' in table


def test_the_manage_page_shows_admins_the_effects_and_runs_on_hidden_columns(secret_game):
    client = viewer_client("P02")
    with time_machine.travel(secret_game.start + timedelta(days=1, hours=1), tick=False):
        html = client.get(reverse("gndt_manage")).content.decode()
    assert "Midnight curse" in html and "Curse Marks" in html
    assert viewer_client("P03").get(reverse("gndt_manage")).status_code == 403


def test_the_rule_is_one_queryset_method_for_updates_changes_effects_and_runs(secret_game):
    """What a player may see is filtered in the database, the same way on every page."""
    player, admin, dynasty = secret_game.player("P03"), secret_game.admin, secret_game.dynasty
    updates = Update.objects.filter(dynasty=dynasty)
    assert set(updates.visible_to(admin, dynasty)) == set(updates)
    assert not set(updates.visible_to(player, dynasty)) & set(secret_game.secret_updates)
    assert set(gndt_log(dynasty, viewer=player)) == set(updates.visible_to(player, dynasty))
    assert not ScheduledEffect.objects.visible_to(player, dynasty).exists()
    assert ScheduledEffect.objects.visible_to(admin, dynasty).count() == 1
    assert not EffectRun.objects.visible_to(player, dynasty).exists()
    assert not Column.objects.filter(dynasty=dynasty).visible_to(player, dynasty).filter(hidden=True).exists()


def test_a_dynasty_that_hides_no_column_shows_every_update_and_hiding_one_brings_the_rule_back(secret_game):
    """The rule asks first whether the dynasty hides any column at all, since most hide none: its answer must be
    the whole rule's. With every column shown, a player sees every update; with one hidden again, the updates
    about it are left out, and those about the column still shown stay."""
    player, dynasty = secret_game.player("P03"), secret_game.dynasty
    updates = Update.objects.filter(dynasty=dynasty)
    Column.objects.filter(dynasty=dynasty).update(hidden=False)
    assert set(updates.visible_to(player, dynasty)) == set(updates)
    Column.objects.filter(pk=secret_game.curse.pk).update(hidden=True)
    shown = set(updates.visible_to(player, dynasty))
    about_the_curse = {u for u in secret_game.secret_updates if "curse" in u.comment.lower()}
    about_roles = {u for u in secret_game.secret_updates if u.comment == "a quiet night"}
    assert about_the_curse and about_roles
    assert not shown & about_the_curse
    assert about_roles <= shown


def test_a_player_cannot_undo_or_probe_an_update_about_a_hidden_column(secret_game):
    """Undoing a secret update through its address answers as if there were no such update."""
    night = next(u for u in secret_game.secret_updates if u.comment == "a quiet night")
    client = viewer_client("P03")
    with time_machine.travel(secret_game.start + timedelta(days=1, hours=1), tick=False):
        response = client.post(reverse("gndt_undo", args=[night.pk]), {"next": reverse("gndt_log")})
    assert response.status_code == 404
    assert not Update.objects.filter(undoes=night).exists()
    gndt_undo(update=night, by=secret_game.admin, now=secret_game.start + timedelta(days=2))
