"""The ``gndt`` part of the archive format, loaded: checked field by field, then written in bulk.

``import_gndt()`` checks every field first and raises ``ArchiveError`` naming the bad one
(``gndt.rows[3].values.Oil``), then writes everything in bulk, a fixed number of queries whatever the size.
The archive importer calls it inside its own transaction, after players and dynasties exist, so a bad field
writes nothing at all. ``names_in_gndt`` tells the importer which accounts the data mentions, to create them
first. The shape is described with ``blognomic.moving.archive.gndt_export``, which writes it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from django.db import transaction

from blognomic.moving.archive.fields import MAX_INTEGER, ArchiveError, Reader, check_json, check_text
from blognomic.moving.archive.keys import keep_primary_keys, optional_pk
from dynasties.models import Dynasty, User
from dynasties.phases import PHASE_CHOICES
from gndt import decks
from gndt.actions import FREQUENCIES
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
from gndt.values import KINDS, CellValueError, validate_value
from votes.models import Post

# Rows written per query.
BATCH = 2000

SOURCES = tuple(value for value, _ in Update.SOURCE_CHOICES)
TARGETS = tuple(value for value, _ in ScheduledEffect.TARGET_CHOICES)
OUTCOMES = tuple(value for value, _ in EffectRun.OUTCOME_CHOICES)

UNKNOWN_DYNASTY = "Dynasty {number} is not in the archive or the database"
UNKNOWN_ACCOUNT = "{name!r} is not a player or account of the archive"
DUPLICATE = "{what} {name!r} appears twice in Dynasty {number}"
ALREADY_THERE = "Dynasty {number} already has a GNDT {what} called {name!r}"
UNKNOWN_COLUMN = "Dynasty {number} has no GNDT column {name!r}"
UNKNOWN_ROW = "Dynasty {number} has no GNDT row {name!r}"
UNKNOWN_ACTION = "Dynasty {number} has no action {name!r}"
NOT_EARLIER = "must be the position of an earlier entry of the log"
OTHER_DYNASTY = "refers to an entry of another dynasty's log"
NOT_A_LIST_OF_TEXT = "must be a list of strings"
UNKNOWN_POST = "no post with id {id!r} in this archive or on the site"
PLAYER_TWICE = "{name!r} already has a row in Dynasty {number}"


def names_in_gndt(data: Any, path: str = "gndt") -> dict[str, str]:
    """Every account name the ``gndt`` data mentions, each with the path of its first mention, for an importer
    that creates accounts first.

    Malformed entries are skipped here; ``import_gndt`` reports them with their path.
    """
    names: dict[str, str] = {}
    if not isinstance(data, dict):
        return names
    for key, field in (
        ("rows", "player"),
        ("log", "by"),
        ("lists", "by"),
        ("effects", "created_by"),
        ("variables", "by"),
    ):
        entries = data.get(key)
        for index, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict) and isinstance(entry.get(field), str) and entry[field].strip():
                names.setdefault(entry[field], f"{path}.{key}[{index}].{field}")
    return names


class _Tables:
    """What the data defines so far, by dynasty number, for checking references as they come."""

    def __init__(self) -> None:
        self.columns: dict[int, dict[str, Column]] = defaultdict(dict)
        self.rows: dict[int, dict[str, Row]] = defaultdict(dict)
        self.actions: dict[int, dict[str, Action]] = defaultdict(dict)
        self.player_rows: dict[int, set[str]] = defaultdict(set)


def import_gndt(
    data: dict,
    *,
    users: dict[str, User],
    dynasties: dict[int, Dynasty],
    posts: dict[str, Post] | None = None,
    path: str = "gndt",
) -> None:
    """Check the ``gndt`` data of an archive, then write its columns, rows, values, actions, word lists,
    scheduled effects and log. ``users`` maps names to accounts and ``dynasties`` numbers to dynasties;
    every name and number the data mentions must be among them. A log entry's ``post`` (the matter whose
    enactment made it) is a post of ``posts`` (the archive's, by id) or one already on the site. Raises
    ``ArchiveError`` and writes nothing when a field is bad. Returns the models whose rows kept the primary
    keys the data carried.
    """
    if data is None:
        return []
    root = Reader(data, path)
    tables = _Tables()
    columns = [_read_column(r, dynasties, tables) for r in _readers(root, "columns")]
    all_names = frozenset(users)
    rows = [_read_row(r, dynasties, users, tables, all_names) for r in _readers(root, "rows")]
    existing = _existing_names(dynasties, tables)
    for column, r in columns:
        if column.name.casefold() in existing["columns"].get(column.dynasty_id, ()):
            raise ArchiveError(
                r.at("name"),
                ALREADY_THERE.format(number=column.dynasty.number, what="column", name=column.name),
            )
    for row, _, r in rows:
        if row.name.casefold() in existing["rows"].get(row.dynasty_id, ()):
            raise ArchiveError(r.at("name"), ALREADY_THERE.format(number=row.dynasty.number, what="row", name=row.name))
    actions = [_read_action(r, dynasties, tables) for r in _readers(root, "actions")]
    lists = [_read_list(r, dynasties, users) for r in _readers(root, "lists")]
    log = [_read_update(r, i, dynasties, users, tables) for i, r in enumerate(_readers(root, "log"))]
    effects = [_read_effect(r, dynasties, users, tables, len(log)) for r in _readers(root, "effects")]
    _link_posts(log, posts or {})
    for i, (update, _, undoes, r) in enumerate(log):
        if undoes is not None:
            if undoes >= i:
                raise ArchiveError(r.at("undoes"), NOT_EARLIER)
            if log[undoes][0].dynasty_id != update.dynasty_id:
                raise ArchiveError(r.at("undoes"), OTHER_DYNASTY)
    with transaction.atomic():
        return _write(columns, rows, actions, lists, log, effects, tables)


def _link_posts(log: list, posts: dict[str, Post]) -> None:
    """Point each log entry at the post its ``post`` names: the archive's, else one on the site (one query)."""
    wanted = {update.post_id_in_archive for update, _, _, _ in log if update.post_id_in_archive}
    outside = wanted - posts.keys()
    found = {**Post.objects.in_bulk(list(outside), field_name="slug"), **posts} if outside else posts
    for update, _, _, r in log:
        if update.post_id_in_archive:
            if update.post_id_in_archive not in found:
                raise ArchiveError(r.at("post"), UNKNOWN_POST.format(id=update.post_id_in_archive))
            update.post = found[update.post_id_in_archive]


def _readers(root: Reader, key: str) -> list[Reader]:
    return [Reader(item, item_path) for item, item_path in root.items(key)]


def _dynasty(r: Reader, dynasties: dict[int, Dynasty], *, nullable: bool = False) -> Dynasty | None:
    number = r.integer("dynasty", required=not nullable)
    if number is None:
        return None
    if number not in dynasties:
        raise ArchiveError(r.at("dynasty"), UNKNOWN_DYNASTY.format(number=number))
    return dynasties[number]


def _account(r: Reader, key: str, users: dict[str, User]) -> User | None:
    name = r.text(key, required=False, max_length=150) or None
    if name is None:
        return None
    if name not in users:
        raise ArchiveError(r.at(key), UNKNOWN_ACCOUNT.format(name=name))
    return users[name]


def _optional_integer(r: Reader, key: str) -> int | None:
    return r.integer(key, required=False, minimum=-2_147_483_648)


def _strings(r: Reader, key: str) -> list[str]:
    value = r.data.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ArchiveError(r.at(key), NOT_A_LIST_OF_TEXT)
    return [check_text(item, f"{r.at(key)}[{i}]") for i, item in enumerate(value)]


def _read_column(r: Reader, dynasties, tables: _Tables) -> tuple[Column, Reader]:
    dynasty = _dynasty(r, dynasties)
    name = r.text("name", max_length=60)
    kind = r.choice("kind", KINDS, required=False) or Column.TEXT
    column = Column(
        dynasty=dynasty,
        name=name,
        kind=kind,
        minimum=_optional_integer(r, "minimum"),
        maximum=_optional_integer(r, "maximum"),
        allow_negative=r.boolean("allow_negative"),
        clamp=r.boolean("clamp"),
        choices=_strings(r, "choices"),
        default=r.text("default", required=False, max_length=200),
        order=r.integer("order", required=False) or 0,
        hidden=r.boolean("hidden"),
        owner_visible=r.boolean("owner_visible"),
        description=r.text("description", required=False, max_length=300),
        created_at=r.time("created_at", required=False),
        retired_at=r.time("retired_at", required=False),
    )
    if column.owner_visible and not column.hidden:
        raise ArchiveError(r.at("owner_visible"), "only a hidden column can be shown to each row's own player")
    column.archive_pk = optional_pk(r)
    try:
        spec = column.spec()
    except ValueError as error:
        raise ArchiveError(r.path, str(error)) from None
    if spec.default is not None and kind != Column.PLAYER:
        try:
            validate_value(replace(spec, clamp=False), spec.default)
        except CellValueError as error:
            raise ArchiveError(r.at("default"), str(error)) from None
    if _named(name, tables.columns[dynasty.number]):
        raise ArchiveError(r.at("name"), DUPLICATE.format(what="Column", name=name, number=dynasty.number))
    tables.columns[dynasty.number][name] = column
    return column, r


def _existing_names(dynasties: dict[int, Dynasty], tables: _Tables) -> dict[str, dict[int, set[str]]]:
    """Column and row names (case-folded) the database already holds for the dynasties the data touches."""
    touched = [dynasties[number].pk for number in {*tables.columns, *tables.rows} if dynasties[number].pk]
    found: dict[str, dict[int, set[str]]] = {"columns": defaultdict(set), "rows": defaultdict(set)}
    for model, key in ((Column, "columns"), (Row, "rows")):
        for dynasty_id, name in model.objects.filter(dynasty_id__in=touched).values_list("dynasty_id", "name"):
            found[key][dynasty_id].add(name.casefold())
    return found


def _named(name: str, names) -> bool:
    """Whether ``names`` holds ``name`` in any case: GNDT row and column names are unique regardless of case."""
    folded = name.casefold()
    return any(other.casefold() == folded for other in names)


def _read_row(r: Reader, dynasties, users, tables: _Tables, all_names: frozenset[str]):
    dynasty = _dynasty(r, dynasties)
    name = r.text("name", max_length=150)
    user = _account(r, "player", users)
    if _named(name, tables.rows[dynasty.number]):
        raise ArchiveError(r.at("name"), DUPLICATE.format(what="Row", name=name, number=dynasty.number))
    if user is not None:
        if user.username in tables.player_rows[dynasty.number]:
            raise ArchiveError(r.at("player"), PLAYER_TWICE.format(name=user.username, number=dynasty.number))
        tables.player_rows[dynasty.number].add(user.username)
    row = Row(
        dynasty=dynasty,
        user=user,
        name=name,
        order=r.integer("order", required=False) or 0,
        created_at=r.time("created_at", required=False),
        retired_at=r.time("retired_at", required=False),
    )
    row.archive_pk = optional_pk(r)
    tables.rows[dynasty.number][name] = row
    values = r.child("values")
    cells: dict[str, str] = {}
    for column_name, raw in values.data.items() if values is not None else ():
        where = values.at(column_name)
        column = tables.columns[dynasty.number].get(column_name)
        if column is None:
            raise ArchiveError(where, UNKNOWN_COLUMN.format(number=dynasty.number, name=column_name))
        if not isinstance(raw, str):
            raise ArchiveError(where, "must be a string")
        check_text(raw, where)
        # Stored values are taken as they are, never clamped: a value out of bounds is refused, not altered.
        try:
            cells[column_name] = validate_value(replace(column.spec(), clamp=False), raw, players=all_names)
        except CellValueError as error:
            raise ArchiveError(where, str(error)) from None
    return row, cells, r


def _read_action(r: Reader, dynasties, tables: _Tables) -> Action:
    dynasty = _dynasty(r, dynasties)
    name = r.text("name", max_length=80)
    if name in tables.actions[dynasty.number]:
        raise ArchiveError(r.at("name"), DUPLICATE.format(what="Action", name=name, number=dynasty.number))
    action = Action(
        dynasty=dynasty,
        name=name,
        frequency=r.choice("frequency", FREQUENCIES),
        weekly_cap=r.integer("weekly_cap", required=False, minimum=1),
        description=r.text("description", required=False, max_length=300),
        phase=r.choice("phase", ("", *PHASE_CHOICES), required=False) or "",
        retired_at=r.time("retired_at", required=False),
    )
    action.archive_pk = optional_pk(r)
    tables.actions[dynasty.number][name] = action
    return action


def _read_list(r: Reader, dynasties, users) -> RandomListVersion:
    return RandomListVersion(
        dynasty=_dynasty(r, dynasties, nullable=True),
        name=r.text("name", max_length=30),
        entries=_strings(r, "entries"),
        removed=r.boolean("removed"),
        by=_account(r, "by", users),
        at=r.time("at"),
        note=r.text("note", required=False, max_length=300),
    )


def _read_update(r: Reader, index: int, dynasties, users, tables: _Tables):
    dynasty = _dynasty(r, dynasties)
    number = dynasty.number
    action_name = r.text("action", required=False, max_length=80) or None
    if action_name is not None and action_name not in tables.actions[number]:
        raise ArchiveError(r.at("action"), UNKNOWN_ACTION.format(number=number, name=action_name))
    rolls = [_read_roll(roll_reader) for roll_reader in _readers(r, "rolls")]
    update = Update(
        dynasty=dynasty,
        by=_account(r, "by", users),
        at=r.time("at"),
        comment=r.text("comment", required=False),
        rolls=rolls,
        source=r.choice("source", SOURCES, required=False) or Update.PLAYER,
    )
    update.action_name = action_name
    update.post_id_in_archive = r.text("post", required=False, max_length=200) or None
    update.archive_pk = optional_pk(r)
    # None: not given (version 1), to be worked out; "": about no column.
    update.column_name = r.text("column", required=False, max_length=60) if "column" in r.data else None
    if update.column_name and update.column_name not in tables.columns[number]:
        raise ArchiveError(r.at("column"), UNKNOWN_COLUMN.format(number=number, name=update.column_name))
    undoes = r.integer("undoes", required=False)
    changes = []
    for change_reader in _readers(r, "changes"):
        row_name = change_reader.text("row", max_length=150)
        column_name = change_reader.text("column", max_length=60)
        if row_name not in tables.rows[number]:
            raise ArchiveError(change_reader.at("row"), UNKNOWN_ROW.format(number=number, name=row_name))
        if column_name not in tables.columns[number]:
            raise ArchiveError(change_reader.at("column"), UNKNOWN_COLUMN.format(number=number, name=column_name))
        changes.append(
            (
                row_name,
                column_name,
                change_reader.text("old", required=False),
                change_reader.text("new", required=False),
            )
        )
    return update, changes, undoes, r


def _read_roll(r: Reader) -> dict:
    """A roll as the log stores it: the page shows its ``text``, and a deck's later draws read its cards."""
    check_json(r.data, r.path)
    r.text("kind", max_length=40)
    r.text("text")
    r.text("token", required=False)
    r.text("pick", required=False)
    for key in ("count", "sides", "total"):
        _optional_integer(r, key)
    for number, where in r.items("results"):
        if type(number) is not int or not -MAX_INTEGER <= number <= MAX_INTEGER:
            raise ArchiveError(where, "must be a whole number")
    problem = decks.logged_roll_problem(r.data)
    if problem is not None:
        key, message = problem
        raise ArchiveError(r.at(key), message)
    return r.data


def _read_effect(r: Reader, dynasties, users, tables: _Tables, log_length: int):
    dynasty = _dynasty(r, dynasties)
    number = dynasty.number
    column_name = r.text("column", max_length=60)
    if column_name not in tables.columns[number]:
        raise ArchiveError(r.at("column"), UNKNOWN_COLUMN.format(number=number, name=column_name))
    row_name = r.text("row", required=False, max_length=150) or None
    if row_name is not None and row_name not in tables.rows[number]:
        raise ArchiveError(r.at("row"), UNKNOWN_ROW.format(number=number, name=row_name))
    effect = ScheduledEffect(
        dynasty=dynasty,
        name=r.text("name", max_length=120),
        target=r.choice("target", TARGETS),
        delta=r.integer("delta", minimum=-2_147_483_648),
        at_most=_optional_integer(r, "at_most"),
        at_least=_optional_integer(r, "at_least"),
        weekday=r.integer("weekday", required=False, maximum=6),
        hour=r.integer("hour", required=False, maximum=23) or 0,
        minute=r.integer("minute", required=False, maximum=59) or 0,
        starts_at=r.time("starts_at"),
        enabled=r.boolean("enabled", default=True),
        created_by=_account(r, "created_by", users),
    )
    effect.column_name, effect.row_name = column_name, row_name
    effect.archive_pk = optional_pk(r)
    runs = []
    periods = set()
    for run_reader in _readers(r, "runs"):
        period = run_reader.text("period", max_length=12)
        if period in periods:
            raise ArchiveError(run_reader.at("period"), f"period {period!r} appears twice")
        periods.add(period)
        position = run_reader.integer("update", required=False)
        if position is not None and position >= log_length:
            raise ArchiveError(run_reader.at("update"), "is not a position in the log")
        runs.append(
            (
                EffectRun(
                    period_key=period,
                    at=run_reader.time("at"),
                    outcome=run_reader.choice("outcome", OUTCOMES),
                    note=run_reader.text("note", required=False),
                ),
                position,
            )
        )
    return effect, runs


def _keep(model, objects: list, kept: list) -> None:
    if keep_primary_keys(model, objects, [getattr(obj, "archive_pk", None) for obj in objects]):
        kept.append(model)


def _about_column(update: Update, tables: _Tables, effects, run_effect: dict[int, ScheduledEffect]):
    """The column an update of a version 1 archive is about, from the run that wrote it or the fixed wording
    of the admin's change ("Added the column Gold", "Scheduled Tithe: …")."""
    number = update.dynasty.number
    effect = run_effect.get(id(update))
    if effect is not None:
        return tables.columns[number][effect.column_name]
    if update.source != Update.ADMIN:
        return None
    comment = update.comment
    for name, column in tables.columns[number].items():
        if comment in (f"Added the column {name}", f"Removed the column {name}") or comment.startswith(
            f"Changed the column {name}: "
        ):
            return column
    for effect, _ in effects:
        if effect.dynasty.number == number and comment.startswith(
            (f"Scheduled {effect.name}: ", f"Changed the scheduled effect {effect.name}: ")
        ):
            return tables.columns[number][effect.column_name]
    return None


def _write(columns, rows, actions, lists, log, effects, tables: _Tables) -> list:
    kept: list = []
    _keep(Column, [column for column, _ in columns], kept)
    Column.objects.bulk_create([column for column, _ in columns], batch_size=BATCH)
    _keep(Row, [row for row, _, _ in rows], kept)
    Row.objects.bulk_create([row for row, _, _ in rows], batch_size=BATCH)
    Cell.objects.bulk_create(
        (
            Cell(row=row, column=tables.columns[row.dynasty.number][name], value=value)
            for row, cells, _ in rows
            for name, value in cells.items()
        ),
        batch_size=BATCH,
    )
    _keep(Action, actions, kept)
    Action.objects.bulk_create(actions, batch_size=BATCH)
    RandomListVersion.objects.bulk_create(lists, batch_size=BATCH)
    updates = _write_log(log, effects, tables, kept)
    _write_effects(effects, updates, tables, kept)
    return kept


def _write_log(log, effects, tables: _Tables, kept: list) -> list[Update]:
    """The log's updates with what each is about and what it undoes, and their cell changes; returns the
    updates in the log's order."""
    updates = [update for update, _, _, _ in log]
    run_effect = {
        id(updates[position]): effect for effect, runs in effects for _, position in runs if position is not None
    }
    for update in updates:
        number = update.dynasty.number
        if update.action_name is not None:
            update.action = tables.actions[number][update.action_name]
        if update.column_name is None:
            update.column = _about_column(update, tables, effects, run_effect)
        elif update.column_name:
            update.column = tables.columns[number][update.column_name]
    _keep(Update, updates, kept)
    Update.objects.bulk_create(updates, batch_size=BATCH)
    with_undo = []
    for update, _, undoes, _ in log:
        if undoes is not None:
            update.undoes = updates[undoes]
            with_undo.append(update)
    if with_undo:
        Update.objects.bulk_update(with_undo, ["undoes"], batch_size=BATCH)
    CellChange.objects.bulk_create(
        (
            CellChange(
                update=update,
                row=tables.rows[update.dynasty.number][row_name],
                column=tables.columns[update.dynasty.number][column_name],
                old=old,
                new=new,
            )
            for update, changes, _, _ in log
            for row_name, column_name, old, new in changes
        ),
        batch_size=BATCH,
    )
    return updates


def _write_effects(effects, updates: list[Update], tables: _Tables, kept: list) -> None:
    """The scheduled effects and their runs, each run citing the update it made."""
    for effect, _ in effects:
        number = effect.dynasty.number
        effect.column = tables.columns[number][effect.column_name]
        effect.row = tables.rows[number][effect.row_name] if effect.row_name else None
    _keep(ScheduledEffect, [effect for effect, _ in effects], kept)
    ScheduledEffect.objects.bulk_create([effect for effect, _ in effects], batch_size=BATCH)
    EffectRun.objects.bulk_create(
        (
            EffectRun(
                effect=effect,
                period_key=run.period_key,
                at=run.at,
                outcome=run.outcome,
                note=run.note,
                update=updates[position] if position is not None else None,
            )
            for effect, runs in effects
            for run, position in runs
        ),
        batch_size=BATCH,
    )
