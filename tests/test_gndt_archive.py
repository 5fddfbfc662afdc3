"""The archive's ``gndt`` part: export and import give back the same GNDT, a bad field is named by its path
(``gndt.rows[3].values.Oil``) and nothing is written, and the import costs a fixed number of queries."""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blognomic.moving.archive.fields import ArchiveError
from blognomic.moving.archive.gndt_export import export_gndt
from blognomic.moving.archive.gndt_import import import_gndt, names_in_gndt
from dynasties.models import Dynasty, User
from gndt.models import (
    Action,
    Cell,
    CellChange,
    Column,
    EffectRun,
    RandomListVersion,
    Row,
    ScheduledEffect,
    Update,
)
from gndt.services import gndt_action_save, gndt_effect_save, gndt_effects_apply_due, gndt_list_set, gndt_undo
from tests.factories import T0, make_spectator
from tests.gndt.builders import make_gndt, update

pytestmark = pytest.mark.django_db


def wipe_gndt() -> None:
    """Remove every GNDT record, so an export can be imported into an empty GNDT."""
    EffectRun.objects.all().delete()
    ScheduledEffect.objects.all().delete()
    CellChange.objects.all().delete()
    Update.objects.update(undoes=None)
    Update.objects.all().delete()
    Cell.objects.all().delete()
    Row.objects.all().delete()
    Column.objects.all().delete()
    Action.objects.all().delete()
    RandomListVersion.objects.all().delete()


def counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (
            Column,
            Row,
            Cell,
            Update,
            CellChange,
            Action,
            RandomListVersion,
            ScheduledEffect,
            EffectRun,
        )
    )


def everyone() -> dict[str, User]:
    return {user.username: user for user in User.objects.all()}


def dynasties() -> dict[int, Dynasty]:
    return {dynasty.number: dynasty for dynasty in Dynasty.objects.all()}


def build_export() -> dict:
    """A GNDT with every kind of record, built through the services, and its export."""
    game = make_gndt(T0)
    spectator = make_spectator("Lurker")
    gndt_action_save(dynasty=game.dynasty, by=game.admin, now=T0, name="Dig", frequency="daily", weekly_cap=3)
    gndt_list_set(dynasty=None, name="FRUIT", entries=["Fig"], by=game.admin, now=T0, note="Proposal: Figs")
    gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=T0,
        name="Allowance",
        target="players",
        column=Column.objects.get(name="Money"),
        delta=5,
        at_most=1000,
    )
    first = update(
        game,
        game.player("P03"),
        {("P03", "Money"): "250", ("The Pot", "Money"): "50"},
        now=T0,
        comment="ante DICE6 FRUIT",
        action="Dig",
    )
    update(
        game,
        game.emperor,
        {("P04", "Role"): "Werewolf", ("P04", "Items"): "Gun, Sword (old, rusty)"},
        now=T0 + timedelta(minutes=1),
    )
    gndt_undo(update=first, by=game.player("P05"), now=T0 + timedelta(minutes=2))
    gndt_effects_apply_due(now=T0 + timedelta(days=1))
    assert spectator.username not in names_in_gndt(export_gndt())
    return export_gndt()


@pytest.fixture
def exported(db) -> dict:
    return build_export()


def test_importing_an_export_gives_back_the_same_gndt(exported):
    """Columns with their rules, rows (players and not), every value, actions, word list versions, effects
    with their runs, and the whole log with dice, actions and undo links survive the round trip."""
    before = counts()
    assert json.loads(json.dumps(exported)) == exported, "the export is plain JSON"
    wipe_gndt()
    import_gndt(copy.deepcopy(exported), users=everyone(), dynasties=dynasties())
    assert counts() == before
    assert export_gndt() == exported
    undo = Update.objects.get(source=Update.UNDO)
    assert undo.undoes.comment == "ante DICE6 FRUIT" and undo.undoes.action.name == "Dig"
    assert EffectRun.objects.get().update.source == Update.EFFECT


def test_names_in_gndt_lists_every_account_it_mentions(exported):
    """An archive importer creates these accounts before calling ``import_gndt``; each comes with its first
    mention, for refusing one the archive does not declare."""
    names = names_in_gndt(exported)
    assert set(names) == {"P01", "P02", "P03", "P04", "P05"}
    assert names["P01"] == f"gndt.rows[{at_row(exported, 'P01')}].player"
    assert names_in_gndt({"log": [{"by": 3}, "junk"], "rows": None}) == {}


def at_row(data: dict, name: str) -> int:
    return next(i for i, row in enumerate(data["rows"]) if row["name"] == name)


def mutate(data: dict, where: tuple, new) -> dict:
    data = copy.deepcopy(data)
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = new
    return data


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (
            lambda d: mutate(d, ("rows", at_row(d, "P03"), "values", "Money"), "lots"),
            "gndt.rows[{P03}].values.Money",
            "Money must be a whole number; got 'lots'",
        ),
        (
            lambda d: mutate(d, ("rows", at_row(d, "P03"), "values", "Thalers"), "250"),
            "gndt.rows[{P03}].values.Thalers",
            "Thalers may not exceed 200; got '250'",
        ),
        (
            lambda d: mutate(d, ("rows", at_row(d, "P03"), "values", "Oil"), "5"),
            "gndt.rows[{P03}].values.Oil",
            "Dynasty 1 has no GNDT column 'Oil'",
        ),
        (
            lambda d: mutate(d, ("rows", at_row(d, "P03"), "values", "Poker Table"), "Seated"),
            "gndt.rows[{P03}].values.Poker Table",
            "Poker Table must be one of Button, Yes, -; got 'Seated'",
        ),
        (
            lambda d: mutate(d, ("rows", at_row(d, "P03"), "player"), "Nobody"),
            "gndt.rows[{P03}].player",
            "'Nobody' is not a player or account of the archive",
        ),
        (
            lambda d: mutate(d, ("columns", 0, "dynasty"), 99),
            "gndt.columns[0].dynasty",
            "Dynasty 99 is not in the archive or the database",
        ),
        (
            lambda d: mutate(d, ("columns", 0, "kind"), "money"),
            "gndt.columns[0].kind",
            "must be one of integer, text, choice, list, player; got 'money'",
        ),
        (
            lambda d: mutate(d, ("columns", 1, "name"), "Money"),
            "gndt.columns[1].name",
            "Column 'Money' appears twice in Dynasty 1",
        ),
        (lambda d: mutate(d, ("columns", 0, "minimum"), 10) | {}, "gndt.columns[0]", None),
        (
            lambda d: mutate(d, ("log", 0, "changes"), [{"row": "Ghost", "column": "Money", "old": "", "new": "1"}]),
            "gndt.log[0].changes[0].row",
            "Dynasty 1 has no GNDT row 'Ghost'",
        ),
        (
            lambda d: mutate(d, ("log", 0, "undoes"), 3),
            "gndt.log[0].undoes",
            "must be the position of an earlier entry of the log",
        ),
        (lambda d: mutate(d, ("log", 0, "at"), "yesterday"), "gndt.log[0].at", "not an ISO 8601 time"),
        (
            lambda d: mutate(d, ("log", 0, "action"), "Fly"),
            "gndt.log[0].action",
            "Dynasty 1 has no action 'Fly'",
        ),
        (
            lambda d: mutate(d, ("effects", 0, "runs", 0, "outcome"), "maybe"),
            "gndt.effects[0].runs[0].outcome",
            "must be one of applied, skipped; got 'maybe'",
        ),
    ],
    ids=[
        "wrong-kind",
        "out-of-bounds",
        "unknown-column",
        "choice-not-allowed",
        "unknown-player",
        "unknown-dynasty",
        "unknown-kind",
        "duplicate-column",
        "minimum-above-values",
        "unknown-row",
        "undo-forward",
        "bad-time",
        "unknown-action",
        "bad-run-outcome",
    ],
)
def test_a_bad_field_is_named_and_nothing_is_written(exported, change, path, message):
    bad = change(exported)
    wipe_gndt()
    with pytest.raises(ArchiveError) as error:
        import_gndt(bad, users=everyone(), dynasties=dynasties())
    expected_path = path.replace("{P03}", str(at_row(exported, "P03")))
    if message is None:  # a minimum of 10 makes the Money default of 300 fine but Pieces' default refused
        assert error.value.path.startswith("gndt.")
    else:
        assert (error.value.path, error.value.message) == (expected_path, message)
    assert counts() == (0,) * 9


def test_a_dynasty_that_already_has_the_column_is_refused(exported):
    """A partial archive cannot load a column over one the database already holds."""
    with pytest.raises(ArchiveError) as error:
        import_gndt(exported, users=everyone(), dynasties=dynasties(), path="archive.gndt")
    assert error.value.path == "archive.gndt.columns[0].name"
    assert error.value.message == "Dynasty 1 already has a GNDT column called 'Money'"


def test_importing_inserts_in_bulk(exported):
    """Ten times the log costs no query per record: the same reads, and inserts of at least 100 rows each
    (the database's limit on parameters sets the batch size)."""
    users, numbers = everyone(), dynasties()
    wipe_gndt()
    with CaptureQueriesContext(connection) as small:
        import_gndt(copy.deepcopy(exported), users=users, dynasties=numbers)
    bigger = copy.deepcopy(exported)
    plain = [entry for entry in bigger["log"] if entry["undoes"] is None]
    top = max(entry["pk"] for entry in bigger["log"])
    bigger["log"] = bigger["log"] + [dict(entry, undoes=None, pk=top + i + 1) for i, entry in enumerate(plain * 10)]
    wipe_gndt()
    with CaptureQueriesContext(connection) as large:
        import_gndt(bigger, users=users, dynasties=numbers)
    assert Update.objects.count() == len(bigger["log"])

    def reads(context):
        return [
            q["sql"] for q in context.captured_queries if not q["sql"].startswith(("INSERT", "SAVEPOINT", "RELEASE"))
        ]

    assert len(reads(small)) == len(reads(large))
    inserts = Counter(q["sql"].split('"')[1] for q in large.captured_queries if q["sql"].startswith("INSERT"))
    rows = {"gndt_update": Update.objects.count(), "gndt_cellchange": CellChange.objects.count()}
    for table, written in rows.items():
        assert inserts[table] <= math.ceil(written / 100), (table, inserts[table], written)
