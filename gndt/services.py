"""Writes on the GNDT: updates, undo, managing columns, rows, actions, effects and word lists.

Each service validates everything first, then runs in one transaction that locks the cells it changes
(``select_for_update``, in primary-key order so two writers never deadlock), and records who did what when
as an ``Update`` with one ``CellChange`` per cell. A refused write raises ``GndtError`` with a message for the
player that names the cell, column, row or rule at fault, and writes nothing.

The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery

from dynasties.models import Dynasty, User
from gndt import dice
from gndt.actions import ActionSpec, Performed, Spacing, check_action_with_spacing, start_of_week
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
from gndt.schedule import ScheduleSpec, due_periods, skipped_periods
from gndt.selectors import dynasty_is_archived, random_lists_for, sees_hidden
from gndt.values import CellValueError, ColumnSpec, apply_adjustment, starting_value, validate_value
from votes.state import game_state

CellKey = tuple[str, str]  # (row name, column name)

MAX_COMMENT_LENGTH = 5000
MAX_LIST_ENTRIES = 500
MAX_LIST_ENTRY_LENGTH = 100


class GndtError(Exception):
    """A GNDT write was refused; the message says why, and ``problems`` lists each reason on its own."""

    def __init__(self, message: str, *, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [message]


NOT_A_PLAYER = "Only active {players} may update the GNDT."
NOT_AN_ADMIN = "Only admins may {what}."
ARCHIVED = "{dynasty} has ended: its GNDT is archived and read-only."
NOTHING_TO_DO = "Change a value or write a comment: an empty update is not logged."
NOTHING_CHANGED = "Every value given is already in the table; change something or write a comment."
COMMENT_TOO_LONG = "A comment may be at most {limit:,} characters; this one has {length:,}."
UNKNOWN_ROW = "There is no row “{row}” in the GNDT."
UNKNOWN_COLUMN = "There is no column “{column}” in the GNDT."
NOT_TEXT = "{cell}: a value must be text."
SEEN_MISSING = (
    "{cell}: the value you saw was not sent, so the change cannot be checked; reload and try again."
)
CONFLICT = (
    "Nothing was saved: the table changed after you loaded it. {details}. Reload and make your change again."
)
CONFLICT_CELL = "{cell} is now {current}, not {seen} as you saw it ({who})"
UNKNOWN_ACTION = "There is no action “{action}” in this dynasty."
ALREADY_UNDONE = "Update #{pk} was already undone by update #{by}; undo that one to restore its values."
NOTHING_TO_UNDO = "Update #{pk} changed no values, so there is nothing to undo."
UNDO_CONFLICT = "Update #{pk} cannot be undone: {details}."
UNDO_CHANGED_CELL = "{cell} has changed since (it is now {current}; update #{pk} set it to {new}; {who})"
UNDO_SECRET = "Update #{pk} changed hidden values, which only admins and the {emperor} may undo."
UNDO_OTHER_DYNASTY = "Update #{pk} belongs to another dynasty's GNDT."
NAME_REQUIRED = "A {what} needs a name."
NAME_TOO_LONG = "A {what} name may be at most {limit} characters."
NAME_TAKEN = "There is already a {what} called “{name}” in this GNDT."
BAD_COLUMN = "Column “{name}”: {problem}."
BAD_DEFAULT = "Column “{name}”: the default is not allowed: {problem}"
NOT_A_PLAYER_ACCOUNT = "{name} has not joined the game, so cannot have a player row."
PLAYER_HAS_ROW = "{name} already has a row in this GNDT."
BAD_ACTION = "Action “{name}”: {problem}."
EFFECT_NEEDS_NUMBER = "A scheduled effect changes a whole-number column; “{column}” is {kind}."
EFFECT_NEEDS_ROW = "Choose the row the effect changes, or target every player's row or every row."
EFFECT_ROW_UNWANTED = "A row is chosen only when the effect targets one row."
EFFECT_OTHER_DYNASTY = "The effect's column and row must belong to the same dynasty's GNDT."
BAD_SCHEDULE = "The schedule is not valid: {problem}."
BAD_LIST_NAME = (
    "A list name is the token players type: capital letters and digits, starting with a letter, "
    "such as FRUIT."
)
LIST_NAME_IS_DICE = "{name} would be read as a dice roll; choose a name that does not start with DICE."
LIST_ALIAS = "{name} is another spelling of {target}; change {target} instead."
LIST_EMPTY = "The {name} list needs at least one entry; remove the list instead."
LIST_TOO_LONG = "A list may have at most {limit} entries."
LIST_ENTRY_BAD = "Each entry must be one line of at most {limit} characters; “{entry}” is not."
LIST_UNCHANGED = "The {name} list already has exactly those entries."
LIST_NOT_THERE = "There is no {name} list to remove."
NEW_DYNASTY_NOT_LATER = "Dynasty {new} does not come after Dynasty {old}, so its GNDT cannot follow on."
NEW_DYNASTY_HAS_TABLE = "{dynasty} already has a GNDT; it was started before."
KEEP_UNKNOWN = "{dynasty} has no column “{column}” to keep."

_LIST_NAME = re.compile(r"[A-Z][A-Z0-9]{0,29}")


def shown(value: str) -> str:
    """A cell value as messages quote it."""
    return f"“{value}”" if value != "" else "blank"


def cell_name(row: str, column: str) -> str:
    return f"{row}’s {column}"


# --- Updating cells --------------------------------------------------------------------------------------


def gndt_update(
    *,
    dynasty: Dynasty,
    by: User,
    changes: Mapping[CellKey, str],
    seen: Mapping[CellKey, str],
    comment: str = "",
    action: Action | str | None = None,
    now: datetime,
) -> Update:
    """Change cells of ``dynasty``'s table, log it, and roll any dice named in ``comment``.

    ``seen`` holds the value the editor saw in every cell they change (and in any other cell their change
    was based on): if one of them has changed since, nothing is written and the error says what changed.
    ``action`` names a declared action this update performs; it is refused when its limits forbid it.
    """
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT_LENGTH:
        raise GndtError(COMMENT_TOO_LONG.format(limit=MAX_COMMENT_LENGTH, length=len(comment)))
    if not changes and not comment:
        raise GndtError(NOTHING_TO_DO)
    _check_may_update(dynasty, by, now)
    secret_ok = sees_hidden(by, dynasty)
    with transaction.atomic():
        rows, columns = _rows_and_columns(dynasty)
        problems: list[str] = []
        targets = _resolve_keys(changes, rows, columns, secret_ok, problems)
        watched = _resolve_keys(seen, rows, columns, secret_ok, problems)
        if problems:
            raise _refusal(problems)
        players = (
            _player_names(now)
            if any(column.kind == Column.PLAYER for _, column in targets.values())
            else None
        )
        new_values = _validated(changes, targets, players, problems)
        for key, (row, column) in targets.items():
            if key not in seen:
                problems.append(SEEN_MISSING.format(cell=cell_name(row.name, column.name)))
        if problems:
            raise _refusal(problems)
        declared = _declared_action(dynasty, action) if action not in (None, "") else None
        cells = _locked_cells([*watched.values(), *targets.values()])
        _check_seen(seen, watched, cells)
        changed = {key: new for key, new in new_values.items() if cells[_pair(targets[key])].value != new}
        if not changed and not comment:
            raise GndtError(NOTHING_CHANGED)
        if declared is not None:
            _check_action_allowed(declared, by=by, now=now)
        rolls = _roll(comment, dynasty)
        update = Update.objects.create(
            dynasty=dynasty,
            by=by,
            at=now,
            comment=comment,
            rolls=rolls,
            action=declared,
            source=Update.PLAYER,
        )
        _write(update, [(cells[_pair(targets[key])], new) for key, new in changed.items()])
    return update


def gndt_undo(*, update: Update, by: User, now: datetime, comment: str = "") -> Update:
    """Restore the values ``update`` replaced, as a new update that points back at it.

    Refused if any of those cells has changed since (the message names each one and who changed it), if the
    update was already undone, or if its dynasty is archived.
    """
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT_LENGTH:
        raise GndtError(COMMENT_TOO_LONG.format(limit=MAX_COMMENT_LENGTH, length=len(comment)))
    with transaction.atomic():
        # Locking the update itself puts two undos of it in a queue: the second sees the first.
        target = (
            Update.objects.select_for_update(of=("self",))
            .select_related("dynasty__emperor")
            .get(pk=update.pk)
        )
        dynasty = target.dynasty
        _check_may_update(dynasty, by, now)
        later_undo = Update.objects.filter(undoes=target).order_by("pk").first()
        if later_undo is not None:
            raise GndtError(ALREADY_UNDONE.format(pk=target.pk, by=later_undo.pk))
        changes = list(target.changes.select_related("row", "column"))
        if not changes:
            raise GndtError(NOTHING_TO_UNDO.format(pk=target.pk))
        if any(change.column.hidden for change in changes) and not sees_hidden(by, dynasty):
            raise GndtError(UNDO_SECRET.format(pk=target.pk, emperor=dynasty.emperor_term))
        cells = _locked_cells((change.row, change.column) for change in changes)
        moved = [change for change in changes if cells[(change.row_id, change.column_id)].value != change.new]
        if moved:
            last = _last_changes([(change.row, change.column) for change in moved])
            details = "; ".join(
                UNDO_CHANGED_CELL.format(
                    cell=cell_name(change.row.name, change.column.name),
                    current=shown(cells[(change.row_id, change.column_id)].value),
                    pk=target.pk,
                    new=shown(change.new),
                    who=_who_changed(last.get((change.row_id, change.column_id))),
                )
                for change in moved
            )
            raise GndtError(UNDO_CONFLICT.format(pk=target.pk, details=details))
        undo = Update.objects.create(
            dynasty=dynasty,
            by=by,
            at=now,
            comment=comment or f"Undo of update #{target.pk}",
            undoes=target,
            source=Update.UNDO,
        )
        _write(undo, [(cells[(change.row_id, change.column_id)], change.old) for change in changes])
    return undo


def _check_may_update(dynasty: Dynasty, by: User, now: datetime) -> None:
    if dynasty_is_archived(dynasty):
        raise GndtError(ARCHIVED.format(dynasty=dynasty.name))
    if by.is_admin or by.pk == dynasty.emperor_id:
        return
    if not User.objects.active_at(now).filter(pk=by.pk).exists():
        raise GndtError(NOT_A_PLAYER.format(players=dynasty.players_term.lower()))


def _rows_and_columns(dynasty: Dynasty) -> tuple[dict[str, Row], dict[str, Column]]:
    rows = {row.name: row for row in Row.objects.in_use().filter(dynasty=dynasty)}
    columns = {column.name: column for column in Column.objects.in_use().filter(dynasty=dynasty)}
    return rows, columns


def _resolve_keys(
    keys: Iterable[CellKey],
    rows: dict[str, Row],
    columns: dict[str, Column],
    secret_ok: bool,
    problems: list[str],
) -> dict[CellKey, tuple[Row, Column]]:
    resolved = {}
    for key in keys:
        row_name, column_name = key
        row = rows.get(row_name)
        column = columns.get(column_name)
        if column is not None and column.hidden and not secret_ok:
            column = None  # a hidden column does not exist for those who may not see it
        if row is None:
            _add_once(problems, UNKNOWN_ROW.format(row=row_name))
        if column is None:
            _add_once(problems, UNKNOWN_COLUMN.format(column=column_name))
        if row is not None and column is not None:
            resolved[key] = (row, column)
    return resolved


def _add_once(problems: list[str], problem: str) -> None:
    if problem not in problems:
        problems.append(problem)


def _refusal(problems: list[str]) -> GndtError:
    return GndtError(" ".join(_sentence(problem) for problem in problems), problems=problems)


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _player_names(now: datetime) -> frozenset[str]:
    return frozenset(User.objects.active_at(now).values_list("username", flat=True))


def _validated(
    changes: Mapping[CellKey, str],
    targets: dict[CellKey, tuple[Row, Column]],
    players: frozenset[str] | None,
    problems: list[str],
) -> dict[CellKey, str]:
    validated = {}
    for key, (row, column) in targets.items():
        raw = changes[key]
        if not isinstance(raw, str):
            problems.append(NOT_TEXT.format(cell=cell_name(row.name, column.name)))
            continue
        try:
            validated[key] = validate_value(column.spec(), raw, players=players or frozenset())
        except CellValueError as error:
            problems.append(f"{row.name}: {error}")
    return validated


def _pair(target: tuple[Row, Column]) -> tuple[int, int]:
    row, column = target
    return (row.pk, column.pk)


def _locked_cells(pairs: Iterable[tuple[Row, Column]]) -> dict[tuple[int, int], Cell]:
    """The cells at ``pairs``, locked for this transaction; missing cells are created blank first."""
    wanted = {(row.pk, column.pk) for row, column in pairs}
    if not wanted:
        return {}
    row_ids = {row_id for row_id, _ in wanted}
    column_ids = {column_id for _, column_id in wanted}

    def fetch() -> dict[tuple[int, int], Cell]:
        found = Cell.objects.select_for_update().filter(row_id__in=row_ids, column_id__in=column_ids)
        return {(cell.row_id, cell.column_id): cell for cell in found.order_by("pk")}

    cells = fetch()
    missing = wanted - cells.keys()
    if missing:
        Cell.objects.bulk_create(
            [Cell(row_id=r, column_id=c, value="") for r, c in missing], ignore_conflicts=True
        )
        cells = fetch()
    return {pair: cells[pair] for pair in wanted}


def _check_seen(
    seen: Mapping[CellKey, str],
    watched: dict[CellKey, tuple[Row, Column]],
    cells: dict[tuple[int, int], Cell],
) -> None:
    moved = []
    for key, (row, column) in watched.items():
        saw = _normalised(seen[key])
        current = cells[(row.pk, column.pk)].value
        if saw != current:
            moved.append((row, column, saw, current))
    if not moved:
        return
    last = _last_changes([(row, column) for row, column, _, _ in moved])
    details = "; ".join(
        CONFLICT_CELL.format(
            cell=cell_name(row.name, column.name),
            current=shown(current),
            seen=shown(saw),
            who=_who_changed(last.get((row.pk, column.pk))),
        )
        for row, column, saw, current in moved
    )
    raise GndtError(CONFLICT.format(details=details), problems=[details])


def _normalised(value) -> str:
    return str(value).replace("\r\n", "\n").strip() if value is not None else ""


def _last_changes(pairs: list[tuple[Row, Column]]) -> dict[tuple[int, int], CellChange]:
    """The latest logged change of each cell (only on the error path, so one small query per cell)."""
    last = {}
    for row, column in pairs:
        change = (
            CellChange.objects.filter(row=row, column=column)
            .select_related("update__by")
            .order_by("-update__at", "-update_id")
            .first()
        )
        if change is not None:
            last[(row.pk, column.pk)] = change
    return last


def _who_changed(change: CellChange | None) -> str:
    if change is None:
        return "no logged change explains it"
    update = change.update
    who = update.by.username if update.by else "a scheduled effect"
    when = f"{update.at:%H:%M:%S} UTC on {update.at.day} {update.at:%b %Y}"
    return f"changed by {who} in update #{update.pk} at {when}"


def _declared_action(dynasty: Dynasty, action: Action | str) -> Action:
    name = action.name if isinstance(action, Action) else str(action)
    locked = (
        Action.objects.select_for_update().filter(dynasty=dynasty, name=name, retired_at__isnull=True).first()
    )
    if locked is None or (isinstance(action, Action) and locked.pk != action.pk):
        raise GndtError(UNKNOWN_ACTION.format(action=name))
    return locked


def _check_action_allowed(action: Action, *, by: User, now: datetime) -> None:
    """Refuse an action over its daily, weekly or communal limit, or during hiatus (``gndt.actions``)."""
    state = game_state(now)
    profile = state.game.rules_profile()
    spacing = None
    if profile.daily_action_spacing_hours is not None or profile.weekly_action_spacing_hours is not None:
        spacing = Spacing(
            daily=timedelta(hours=profile.daily_action_spacing_hours or 0),
            weekly=timedelta(hours=profile.weekly_action_spacing_hours or 0),
        )
    # The spacing never reaches back further than the week before this one, so older history is not read.
    since = start_of_week(now) - timedelta(weeks=1)
    # A performance logged after ``now`` comes from a request that took the action's lock first, though its
    # clock read later: it happened at the same moment as this one, so it counts as at ``now``.
    history = [
        Performed(actor=update.by.username if update.by else "", at=min(update.at, now))
        for update in Update.objects.filter(action=action, at__gte=since).select_related("by")
    ]
    verdict = check_action_with_spacing(
        action.spec(),
        spacing=spacing,
        actor=by.username,
        now=now,
        history=history,
        hiatus=state.hiatus is not None,
    )
    if not verdict.allowed:
        raise GndtError(verdict.message)


def _roll(comment: str, dynasty: Dynasty) -> list[dict]:
    if not comment:
        return []
    try:
        rolls = dice.roll_comment(comment, lists=random_lists_for(dynasty))
    except dice.DiceError as error:
        raise GndtError(str(error)) from None
    return [
        {
            "token": roll.token,
            "kind": roll.kind,
            "count": roll.count,
            "sides": roll.sides,
            "results": list(roll.results),
            "total": roll.total,
            "pick": roll.pick,
            "text": dice.describe(roll),
        }
        for roll in rolls
    ]


def _write(update: Update, writes: list[tuple[Cell, str]]) -> None:
    """Log each cell's old and new value under ``update`` and store the new values."""
    CellChange.objects.bulk_create(
        CellChange(update=update, row_id=cell.row_id, column_id=cell.column_id, old=cell.value, new=new)
        for cell, new in writes
    )
    for cell, new in writes:
        cell.value = new
    Cell.objects.bulk_update([cell for cell, _ in writes], ["value"])


def _log_admin(
    dynasty: Dynasty, by: User | None, now: datetime, comment: str, writes: list[tuple[Cell, str]] = ()
) -> Update:
    update = Update.objects.create(dynasty=dynasty, by=by, at=now, comment=comment, source=Update.ADMIN)
    if writes:
        _write(update, list(writes))
    return update


# --- Managing the table ----------------------------------------------------------------------------------


def _require_admin(by: User | None, what: str) -> None:
    if by is not None and not by.is_admin:
        raise GndtError(NOT_AN_ADMIN.format(what=what))


def _require_open(dynasty: Dynasty) -> None:
    if dynasty_is_archived(dynasty):
        raise GndtError(ARCHIVED.format(dynasty=dynasty.name))


def _clean_name(name: str, *, what: str, limit: int) -> str:
    name = (name or "").strip()
    if not name:
        raise GndtError(NAME_REQUIRED.format(what=what))
    if len(name) > limit:
        raise GndtError(NAME_TOO_LONG.format(what=what, limit=limit))
    if any(ord(character) < 32 for character in name):
        raise GndtError(f"A {what} name must be one line of text.")
    return name


COLUMN_FIELDS = (
    "name",
    "kind",
    "minimum",
    "maximum",
    "allow_negative",
    "clamp",
    "choices",
    "default",
    "order",
    "hidden",
    "description",
)


def _column_spec(fields: dict) -> ColumnSpec:
    """Check a column's settings through ``gndt.values`` and return its spec."""
    spec_fields = {key: fields[key] for key in ("kind", "minimum", "maximum", "allow_negative", "clamp")}
    choices = tuple(str(choice).strip() for choice in fields.get("choices") or ())
    try:
        spec = ColumnSpec(
            name=fields["name"], choices=choices, default=fields.get("default") or None, **spec_fields
        )
    except ValueError as error:
        raise GndtError(BAD_COLUMN.format(name=fields["name"], problem=str(error).rstrip("."))) from None
    if spec.default is not None and spec.kind != Column.PLAYER:
        try:
            validate_value(spec, spec.default)
        except CellValueError as error:
            raise GndtError(BAD_DEFAULT.format(name=spec.name, problem=error)) from None
    return spec


def gndt_column_add(
    *,
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    name: str,
    kind: str = Column.TEXT,
    minimum: int | None = None,
    maximum: int | None = None,
    allow_negative: bool = False,
    clamp: bool = False,
    choices: Iterable[str] = (),
    default: str = "",
    order: int | None = None,
    hidden: bool = False,
    description: str = "",
) -> Column:
    """Add a column; every row gets the column's starting value, logged as one update."""
    _require_admin(by, "add GNDT columns")
    _require_open(dynasty)
    name = _clean_name(name, what="column", limit=60)
    fields = {
        "name": name,
        "kind": kind,
        "minimum": minimum,
        "maximum": maximum,
        "allow_negative": allow_negative,
        "clamp": clamp,
        "choices": list(choices),
        "default": (default or "").strip(),
    }
    spec = _column_spec(fields)
    with transaction.atomic():
        if Column.objects.filter(dynasty=dynasty, name=name).exists():
            raise GndtError(NAME_TAKEN.format(what="column", name=name))
        if order is None:
            order = (
                Column.objects.filter(dynasty=dynasty)
                .order_by("-order")
                .values_list("order", flat=True)
                .first()
                or 0
            ) + 1
        column = Column.objects.create(
            dynasty=dynasty,
            order=order,
            hidden=hidden,
            description=description.strip(),
            created_at=now,
            **{**fields, "choices": list(spec.choices)},
        )
        rows = list(Row.objects.in_use().filter(dynasty=dynasty))
        Cell.objects.bulk_create([Cell(row=row, column=column, value="") for row in rows])
        cells = _locked_cells((row, column) for row in rows)
        starts = {row.pk: row_starting_value(column, row) for row in rows}
        writes = sorted(
            ((cell, starts[row_id]) for (row_id, _), cell in cells.items() if starts[row_id] != ""),
            key=lambda write: write[0].pk,
        )
        _log_admin(dynasty, by, now, f"Added the column {name}", writes)
    return column


def gndt_column_edit(*, column: Column, by: User | None, now: datetime, **changes) -> Column:
    """Change a column's name or rules; values already in the table are kept as they are."""
    _require_admin(by, "change GNDT columns")
    unknown = set(changes) - set(COLUMN_FIELDS)
    if unknown:
        raise TypeError(f"Unknown column fields: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        column = Column.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=column.pk)
        _require_open(column.dynasty)
        fields = {key: getattr(column, key) for key in COLUMN_FIELDS}
        fields.update(changes)
        fields["name"] = _clean_name(fields["name"], what="column", limit=60)
        fields["default"] = (fields["default"] or "").strip()
        fields["description"] = (fields["description"] or "").strip()
        spec = _column_spec(fields)
        fields["choices"] = list(spec.choices)
        if (
            fields["name"] != column.name
            and Column.objects.filter(dynasty=column.dynasty_id, name=fields["name"]).exists()
        ):
            raise GndtError(NAME_TAKEN.format(what="column", name=fields["name"]))
        described = [
            f"{key.replace('_', ' ')}: {_setting(getattr(column, key))} → {_setting(value)}"
            for key, value in fields.items()
            if getattr(column, key) != value
        ]
        if not described:
            return column
        for key, value in fields.items():
            setattr(column, key, value)
        column.save()
        _log_admin(column.dynasty, by, now, f"Changed the column {column.name}: " + "; ".join(described))
    return column


def _setting(value) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if value is None or value == "":
        return "none"
    return str(value)


def gndt_column_retire(*, column: Column, by: User | None, now: datetime) -> Column:
    """Remove a column from the table; its values and history stay in the log."""
    _require_admin(by, "remove GNDT columns")
    with transaction.atomic():
        column = Column.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=column.pk)
        _require_open(column.dynasty)
        if column.retired_at is None:
            column.retired_at = now
            column.save(update_fields=["retired_at"])
            _log_admin(column.dynasty, by, now, f"Removed the column {column.name}")
    return column


def gndt_row_add(
    *,
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    name: str = "",
    user: User | None = None,
    order: int | None = None,
) -> Row:
    """Add a row: a player's (named after them) or one that is not a player, such as “The Pot” or “:PROTO”.

    Every column's starting value is written to the new row and logged.
    """
    _require_admin(by, "add GNDT rows")
    _require_open(dynasty)
    if user is not None:
        if not user.is_player:
            raise GndtError(NOT_A_PLAYER_ACCOUNT.format(name=user.username))
        name = user.username
    name = _clean_name(name, what="row", limit=150)
    with transaction.atomic():
        row = _create_row(dynasty, name=name, user=user, order=order, now=now)
        _log_admin(dynasty, by, now, f"Added the row {name}", _starting_writes([row], dynasty))
    return row


def _create_row(
    dynasty: Dynasty, *, name: str, user: User | None, order: int | None, now: datetime | None
) -> Row:
    if Row.objects.filter(dynasty=dynasty, name=name).exists():
        raise GndtError(NAME_TAKEN.format(what="row", name=name))
    if user is not None and Row.objects.filter(dynasty=dynasty, user=user).exists():
        raise GndtError(PLAYER_HAS_ROW.format(name=user.username))
    if order is None:
        order = (
            Row.objects.filter(dynasty=dynasty).order_by("-order").values_list("order", flat=True).first()
            or 0
        ) + 1
    return Row.objects.create(dynasty=dynasty, user=user, name=name, order=order, created_at=now)


def row_starting_value(column: Column, row: Row) -> str:
    """A player's row starts at the column's default; a row that is not a player (“The Pot”) ignores it.

    The default is "the value a new player starts with"; a pot or a codename starts from the kind's own
    starting value instead (0 for a number, blank for text), and an admin sets anything else.
    """
    spec = column.spec()
    return starting_value(spec if row.is_player else replace(spec, default=None))


def _starting_writes(rows: list[Row], dynasty: Dynasty) -> list[tuple[Cell, str]]:
    columns = list(Column.objects.in_use().filter(dynasty=dynasty))
    Cell.objects.bulk_create(
        [Cell(row=row, column=column, value="") for row in rows for column in columns], ignore_conflicts=True
    )
    cells = _locked_cells((row, column) for row in rows for column in columns)
    rows_by_pk = {row.pk: row for row in rows}
    columns_by_pk = {column.pk: column for column in columns}
    writes = []
    for (row_id, column_id), cell in sorted(cells.items(), key=lambda item: item[1].pk):
        start = row_starting_value(columns_by_pk[column_id], rows_by_pk[row_id])
        if start != "":
            writes.append((cell, start))
    return writes


def gndt_rows_add_missing_players(*, dynasty: Dynasty, by: User | None, now: datetime) -> list[Row]:
    """Give every active player without a row in ``dynasty`` a row of starting values (one logged update)."""
    _require_admin(by, "add GNDT rows")
    _require_open(dynasty)
    with transaction.atomic():
        have = Row.objects.filter(dynasty=dynasty)
        taken_names = set(have.values_list("name", flat=True))
        with_rows = set(have.exclude(user=None).values_list("user_id", flat=True))
        newcomers = [
            user
            for user in User.objects.active_at(now).order_by("username")
            if user.pk not in with_rows and user.username not in taken_names
        ]
        if not newcomers:
            return []
        order = have.order_by("-order").values_list("order", flat=True).first() or 0
        Row.objects.bulk_create(
            Row(dynasty=dynasty, user=user, name=user.username, order=order + i + 1, created_at=now)
            for i, user in enumerate(newcomers)
        )
        rows = list(Row.objects.filter(dynasty=dynasty, user__in=newcomers))
        names = ", ".join(row.name for row in rows)
        _log_admin(dynasty, by, now, f"Added rows for {names}", _starting_writes(rows, dynasty))
    return rows


def gndt_row_retire(*, row: Row, by: User | None, now: datetime) -> Row:
    """Remove a row (a side pot that is settled, a codename retired); its history stays in the log."""
    _require_admin(by, "remove GNDT rows")
    with transaction.atomic():
        row = Row.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=row.pk)
        _require_open(row.dynasty)
        if row.retired_at is None:
            row.retired_at = now
            row.save(update_fields=["retired_at"])
            _log_admin(row.dynasty, by, now, f"Removed the row {row.name}")
    return row


# --- Declared actions ------------------------------------------------------------------------------------


def gndt_action_save(
    *,
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    name: str,
    frequency: str,
    weekly_cap: int | None = None,
    description: str = "",
    action: Action | None = None,
) -> Action:
    """Define a named action with its frequency and weekly cap, or change one (``action``)."""
    _require_admin(by, "define actions")
    _require_open(dynasty)
    name = _clean_name(name, what="action", limit=80)
    try:
        ActionSpec(name=name, frequency=frequency, weekly_cap=weekly_cap)
    except ValueError as error:
        raise GndtError(BAD_ACTION.format(name=name, problem=str(error).rstrip("."))) from None
    with transaction.atomic():
        clash = Action.objects.filter(dynasty=dynasty, name=name)
        if action is not None:
            clash = clash.exclude(pk=action.pk)
        if clash.exists():
            raise GndtError(NAME_TAKEN.format(what="action", name=name))
        cap = f", at most {weekly_cap} a week" if weekly_cap else ""
        summary = f"{name} ({frequency.replace('_', ' ')}{cap})"
        if action is None:
            action = Action.objects.create(
                dynasty=dynasty,
                name=name,
                frequency=frequency,
                weekly_cap=weekly_cap,
                description=description.strip(),
            )
            _log_admin(dynasty, by, now, f"Defined the action {summary}")
        else:
            action = Action.objects.select_for_update().get(pk=action.pk)
            action.name, action.frequency, action.weekly_cap = name, frequency, weekly_cap
            action.description = description.strip()
            action.save()
            _log_admin(dynasty, by, now, f"Changed the action {summary}")
    return action


def gndt_action_retire(*, action: Action, by: User | None, now: datetime) -> Action:
    _require_admin(by, "remove actions")
    with transaction.atomic():
        action = Action.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=action.pk)
        if action.retired_at is None:
            action.retired_at = now
            action.save(update_fields=["retired_at"])
            _log_admin(action.dynasty, by, now, f"Removed the action {action.name}")
    return action


# --- Word lists for random draws -------------------------------------------------------------------------


def gndt_list_set(
    *,
    dynasty: Dynasty | None,
    name: str,
    entries: Iterable[str] = (),
    by: User | None,
    now: datetime,
    note: str = "",
    removed: bool = False,
) -> RandomListVersion:
    """Record a new version of a word list (``FRUIT``…) for a dynasty, or for the game if ``dynasty`` is None.

    Every change is kept as a version, so the log can always say which list a past draw used.
    """
    _require_admin(by, "change the random lists")
    name = (name or "").strip().upper()
    if not _LIST_NAME.fullmatch(name):
        raise GndtError(BAD_LIST_NAME)
    if name.startswith("DICE") or re.fullmatch(r"[0-9]*DICE.*", name):
        raise GndtError(LIST_NAME_IS_DICE.format(name=name))
    if name in dice.LIST_ALIASES:
        raise GndtError(LIST_ALIAS.format(name=name, target=dice.LIST_ALIASES[name]))
    cleaned = [str(entry).strip() for entry in entries if str(entry).strip()]
    for entry in cleaned:
        if len(entry) > MAX_LIST_ENTRY_LENGTH or "\n" in entry:
            raise GndtError(LIST_ENTRY_BAD.format(limit=MAX_LIST_ENTRY_LENGTH, entry=entry[:40]))
    if len(cleaned) > MAX_LIST_ENTRIES:
        raise GndtError(LIST_TOO_LONG.format(limit=MAX_LIST_ENTRIES))
    current = random_lists_for(dynasty)
    if removed:
        if name not in current:
            raise GndtError(LIST_NOT_THERE.format(name=name))
        cleaned = []
    else:
        if not cleaned:
            raise GndtError(LIST_EMPTY.format(name=name))
        if tuple(cleaned) == current.get(name):
            raise GndtError(LIST_UNCHANGED.format(name=name))
    return RandomListVersion.objects.create(
        dynasty=dynasty,
        name=name,
        entries=cleaned,
        removed=removed,
        by=by,
        at=now,
        note=(note or "").strip()[:300],
    )


# --- Scheduled effects -----------------------------------------------------------------------------------


def gndt_effect_save(
    *,
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    name: str,
    column: Column,
    delta: int,
    target: str = ScheduledEffect.PLAYERS,
    row: Row | None = None,
    at_most: int | None = None,
    at_least: int | None = None,
    weekday: int | None = None,
    hour: int = 0,
    minute: int = 0,
    starts_at: datetime | None = None,
    enabled: bool = True,
    effect: ScheduledEffect | None = None,
) -> ScheduledEffect:
    """Define (or change) a recurring adjustment that beat applies once per day or week."""
    _require_admin(by, "schedule effects")
    _require_open(dynasty)
    name = _clean_name(name, what="scheduled effect", limit=120)
    if column.dynasty_id != dynasty.pk or (row is not None and row.dynasty_id != dynasty.pk):
        raise GndtError(EFFECT_OTHER_DYNASTY)
    if column.kind != Column.INTEGER:
        raise GndtError(
            EFFECT_NEEDS_NUMBER.format(column=column.name, kind=column.get_kind_display().lower())
        )
    if target == ScheduledEffect.ONE_ROW and row is None:
        raise GndtError(EFFECT_NEEDS_ROW)
    if target != ScheduledEffect.ONE_ROW and row is not None:
        raise GndtError(EFFECT_ROW_UNWANTED)
    if target not in dict(ScheduledEffect.TARGET_CHOICES):
        raise GndtError(EFFECT_NEEDS_ROW)
    starts_at = starts_at or now
    try:
        ScheduleSpec(hour=hour, minute=minute, weekday=weekday, starts_at=starts_at)
    except ValueError as error:
        raise GndtError(BAD_SCHEDULE.format(problem=str(error).rstrip("."))) from None
    values = {
        "name": name,
        "column": column,
        "target": target,
        "row": row,
        "delta": delta,
        "at_most": at_most,
        "at_least": at_least,
        "weekday": weekday,
        "hour": hour,
        "minute": minute,
        "starts_at": starts_at,
        "enabled": enabled,
    }
    with transaction.atomic():
        if effect is None:
            effect = ScheduledEffect.objects.create(dynasty=dynasty, created_by=by, **values)
            verb = "Scheduled"
        else:
            effect = ScheduledEffect.objects.select_for_update().get(pk=effect.pk)
            for key, value in values.items():
                setattr(effect, key, value)
            effect.save()
            verb = "Changed the scheduled effect"
        state = "" if enabled else " (paused)"
        _log_admin(dynasty, by, now, f"{verb} {name}: {effect.describe()}{state}")
    return effect


@dataclass
class EffectOutcome:
    """What one scheduled effect did (or, in a dry run, would do) for one period."""

    effect: str
    period: str
    outcome: str  # "applied", "skipped", or "already" when another run applied it first
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # (row, old, new)
    note: str = ""
    update_id: int | None = None


@dataclass
class EffectsReport:
    dry_run: bool
    outcomes: list[EffectOutcome] = field(default_factory=list)

    @property
    def applied(self) -> list[EffectOutcome]:
        return [outcome for outcome in self.outcomes if outcome.outcome == EffectRun.APPLIED]

    @property
    def done(self) -> list[str]:
        """One line per effect and period, for the management command and the Celery task's result."""
        lines = []
        for outcome in self.outcomes:
            changes = ", ".join(f"{row} {shown(old)} → {shown(new)}" for row, old, new in outcome.changes)
            parts = [f"{outcome.effect} ({outcome.period}): {outcome.outcome}", changes, outcome.note]
            lines.append(" — ".join(part for part in parts if part))
        return lines

    def __str__(self) -> str:
        return "\n".join(self.done) if self.done else "No scheduled effect is due."


HIATUS_NOTE = "The game was in hiatus, so the effect did not apply for this period."
MISSED_NOTE = "Missed while the scheduler was not running: {keys}."
NOTHING_CHANGED_NOTE = "No value changed: every row was already at the effect's limit."


def gndt_effects_apply_due(*, now: datetime, dry_run: bool = False) -> EffectsReport:
    """Apply every scheduled effect whose period has come and has not been applied yet.

    Each (effect, period) is claimed by a unique ``EffectRun`` in the same transaction that writes its
    update, so running twice, concurrently or late applies it once. Missed earlier periods are noted, not
    caught up (see ``gndt.schedule``). While the game is in hiatus the period is recorded as skipped.
    """
    report = EffectsReport(dry_run=dry_run)
    last_key = EffectRun.objects.filter(effect=OuterRef("pk")).order_by("-pk").values("period_key")[:1]
    effects = list(
        ScheduledEffect.objects.filter(enabled=True, dynasty__ended_at__isnull=True)
        .select_related("dynasty", "column", "row")
        .annotate(last_key=Subquery(last_key))
    )
    if not effects:
        return report
    hiatus = game_state(now).hiatus is not None
    dynasties = {effect.dynasty_id: effect.dynasty for effect in effects}
    archived = {pk for pk, dynasty in dynasties.items() if dynasty_is_archived(dynasty)}
    for effect in effects:
        if effect.dynasty_id in archived or effect.column.retired_at is not None:
            continue
        spec = effect.schedule()
        for key in due_periods(spec, last_applied_key=effect.last_key, now=now):
            missed = skipped_periods(spec, last_applied_key=effect.last_key, now=now, limit=10)
            note = MISSED_NOTE.format(keys=", ".join(missed)) if missed else ""
            if dry_run:
                outcome = _effect_outcome(effect, key, now, hiatus=hiatus, note=note, write=False)
            else:
                try:
                    with transaction.atomic():
                        outcome = _effect_outcome(effect, key, now, hiatus=hiatus, note=note, write=True)
                except IntegrityError:
                    outcome = EffectOutcome(effect=effect.name, period=key, outcome="already")
            report.outcomes.append(outcome)
    return report


def _effect_rows(effect: ScheduledEffect, now: datetime) -> list[Row]:
    if effect.target == ScheduledEffect.ONE_ROW:
        return [effect.row] if effect.row is not None and effect.row.retired_at is None else []
    rows = Row.objects.in_use().filter(dynasty=effect.dynasty_id)
    if effect.target == ScheduledEffect.PLAYERS:
        rows = rows.filter(user__in=User.objects.active_at(now))
    return list(rows)


def _effect_outcome(
    effect: ScheduledEffect, key: str, now: datetime, *, hiatus: bool, note: str, write: bool
) -> EffectOutcome:
    if write:
        # Claim the period first: a concurrent run blocks here and then fails on the unique key.
        run = EffectRun.objects.create(effect=effect, period_key=key, at=now, outcome=EffectRun.SKIPPED)
    if hiatus:
        outcome = EffectOutcome(
            effect=effect.name,
            period=key,
            outcome=EffectRun.SKIPPED,
            note=" ".join(filter(None, [HIATUS_NOTE, note])),
        )
        if write:
            run.note = outcome.note
            run.save(update_fields=["note"])
        return outcome
    rows = _effect_rows(effect, now)
    spec = effect.column.spec()
    if write:
        cells = _locked_cells((row, effect.column) for row in rows)
    else:
        cells = {
            (cell.row_id, cell.column_id): cell
            for cell in Cell.objects.filter(row__in=rows, column=effect.column)
        }
    writes, refused = [], []
    for row in sorted(rows, key=lambda r: (r.order, r.name)):
        cell = cells.get((row.pk, effect.column_id))
        current = cell.value if cell is not None else ""
        try:
            new = apply_adjustment(
                spec, current, effect.delta, at_most=effect.at_most, at_least=effect.at_least
            )
        except CellValueError as error:
            refused.append(f"{row.name}: {error}")
            continue
        if new != current:
            writes.append((row, cell, current, new))
    notes = [note] if note else []
    if refused:
        notes.append("Not applied to " + "; ".join(refused) + ".")
    if not writes:
        notes.append(NOTHING_CHANGED_NOTE)
    outcome = EffectOutcome(
        effect=effect.name,
        period=key,
        outcome=EffectRun.APPLIED,
        changes=[(row.name, old, new) for row, _, old, new in writes],
        note=" ".join(notes),
    )
    if write:
        if writes:
            update = Update.objects.create(
                dynasty=effect.dynasty,
                by=None,
                at=now,
                source=Update.EFFECT,
                comment=f"{effect.name}: {effect.describe()} (period {key})",
            )
            _write(update, [(cell, new) for _, cell, _, new in writes])
            run.update = update
            outcome.update_id = update.pk
        run.outcome = EffectRun.APPLIED
        run.note = outcome.note
        run.save(update_fields=["outcome", "note", "update"])
    return outcome


# --- Dynasties -------------------------------------------------------------------------------------------


def gndt_start_dynasty(
    *,
    old_dynasty: Dynasty,
    new_dynasty: Dynasty,
    keep_columns: Iterable[str],
    now: datetime,
    by: User | None = None,
) -> Update | None:
    """Start ``new_dynasty``'s GNDT with the columns of ``old_dynasty`` named in ``keep_columns``.

    The kept columns keep their rules but not their values: every active player gets a row with each
    column's starting value (Ruleset 21's stats "reset to zero or blank" at a new dynasty). Rows already
    made in the new dynasty (a player who joined while it awaited its Ascension Address) are kept and get
    the starting values too. The old table becomes read-only, since a later dynasty now follows it.
    Returns the update that logs the starting values (None when there were none to write).
    """
    _require_admin(by, "start a new GNDT")
    if new_dynasty.number <= old_dynasty.number:
        raise GndtError(NEW_DYNASTY_NOT_LATER.format(new=new_dynasty.number, old=old_dynasty.number))
    keep = [name.strip() for name in keep_columns]
    with transaction.atomic():
        if Column.objects.filter(dynasty=new_dynasty).exists():
            raise GndtError(NEW_DYNASTY_HAS_TABLE.format(dynasty=new_dynasty.name))
        old_columns = {column.name: column for column in Column.objects.filter(dynasty=old_dynasty)}
        unknown = [name for name in keep if name not in old_columns]
        if unknown:
            raise _refusal([KEEP_UNKNOWN.format(dynasty=old_dynasty.name, column=name) for name in unknown])
        kept = sorted((old_columns[name] for name in dict.fromkeys(keep)), key=lambda c: (c.order, c.pk))
        Column.objects.bulk_create(
            Column(dynasty=new_dynasty, **{key: getattr(column, key) for key in COLUMN_FIELDS})
            for column in kept
        )
        # Players keep their place from the old table; newcomers follow in name order.
        old_order = dict(
            Row.objects.filter(dynasty=old_dynasty).exclude(user=None).values_list("user_id", "order")
        )
        existing = Row.objects.filter(dynasty=new_dynasty)
        have_rows = set(existing.exclude(user=None).values_list("user_id", flat=True))
        taken = set(existing.values_list("name", flat=True))
        players = sorted(
            (
                user
                for user in User.objects.active_at(now)
                if user.pk not in have_rows and user.username not in taken
            ),
            key=lambda user: (user.pk not in old_order, old_order.get(user.pk, 0), user.username),
        )
        first = len(taken)
        Row.objects.bulk_create(
            Row(dynasty=new_dynasty, user=user, name=user.username, order=first + i + 1)
            for i, user in enumerate(players)
        )
        rows = list(Row.objects.in_use().filter(dynasty=new_dynasty))
        writes = _starting_writes(rows, new_dynasty)
        if not writes:
            return None
        return _log_admin(new_dynasty, by, now, f"The GNDT of {new_dynasty.name} begins", writes)
