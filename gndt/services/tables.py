"""Managing a GNDT: columns, rows, declared actions, word lists, and the fresh table a new dynasty starts from.

The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime

from django.db import transaction
from django.db.models.functions import Lower

from dynasties.models import Dynasty, User
from dynasties.phases import PHASE_CHOICES, UNKNOWN_PHASE
from dynasties.terms import replace_keywords
from gndt import dice, naming
from gndt.actions import ActionSpec
from gndt.models import (
    Action,
    Cell,
    Column,
    RandomListVersion,
    Row,
    Update,
)
from gndt.selectors import random_lists_for
from gndt.services.common import (
    GndtError,
    clean_name,
    locked_cells,
    log_admin_update,
    refusal,
    require_admin,
    require_open,
)
from gndt.values import CellValueError, ColumnSpec, starting_value, validate_value

MAX_LIST_ENTRIES = 500
MAX_LIST_ENTRY_LENGTH = 100
NAME_TAKEN = "There is already a {what} called “{name}” in this GNDT."
BAD_COLUMN = "Column “{name}”: {problem}."
OWNER_VISIBLE_NOT_HIDDEN = (
    "Column “{name}”: only a hidden column can be shown to each row's own player; tick Hidden as well."
)
BAD_DEFAULT = "Column “{name}”: the default is not allowed: {problem}"
NOT_A_PLAYER_ACCOUNT = "{name} has not joined the game, so cannot have a player row."
PLAYER_HAS_ROW = "{name} already has a row in this GNDT."
BAD_ACTION = "Action “{name}”: {problem}."
BADLIST_NAME_PATTERN = (
    "A list name is the token players type: capital letters and digits, starting with a letter, such as FRUIT."
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
KEEP_UNKNOWN_ROW = "{dynasty} has no row “{row}” (other than a player's) to keep."
LIST_NAME_PATTERN = re.compile(r"[A-Z][A-Z0-9]{0,29}")


# --- Managing the table ----------------------------------------------------------------------------------


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
    "owner_visible",
    "description",
)


def _column_spec(fields: dict) -> ColumnSpec:
    """Check a column's settings through ``gndt.values`` and return its spec."""
    spec_fields = {key: fields[key] for key in ("kind", "minimum", "maximum", "allow_negative", "clamp")}
    choices = tuple(str(choice).strip() for choice in fields.get("choices") or ())
    try:
        spec = ColumnSpec(name=fields["name"], choices=choices, default=fields.get("default") or None, **spec_fields)
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
    owner_visible: bool = False,
    description: str = "",
) -> Column:
    """Add a column; every row gets the column's starting value, logged as one update.

    ``hidden`` makes it secret state; ``owner_visible`` (with ``hidden``) lets each player see their own row's
    value in it as well (see ``gndt.models``).
    """
    require_admin(by, "add GNDT columns")
    require_open(dynasty)
    name = clean_name(name, what="column", limit=60)
    if owner_visible and not hidden:
        raise GndtError(OWNER_VISIBLE_NOT_HIDDEN.format(name=name))
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
        taken = naming.clash(name, Column.objects.filter(dynasty=dynasty).values_list("name", flat=True))
        if taken is not None:
            raise GndtError(NAME_TAKEN.format(what="column", name=taken))
        if order is None:
            order = (
                Column.objects.filter(dynasty=dynasty).order_by("-order").values_list("order", flat=True).first() or 0
            ) + 1
        column = Column.objects.create(
            dynasty=dynasty,
            order=order,
            hidden=hidden,
            owner_visible=owner_visible,
            description=description.strip(),
            created_at=now,
            **{**fields, "choices": list(spec.choices)},
        )
        _fill_new_column(column, by=by, now=now)
    return column


def _fill_new_column(column: Column, *, by: User | None, now: datetime) -> None:
    """Every row's cell in a new column, with its starting value, logged as one update."""
    dynasty = column.dynasty
    rows = list(Row.objects.in_use().filter(dynasty=dynasty))
    Cell.objects.bulk_create([Cell(row=row, column=column, value="") for row in rows])
    cells = locked_cells((row, column) for row in rows)
    starts = {row.pk: row_starting_value(column, row) for row in rows}
    writes = sorted(
        ((cell, starts[row_id]) for (row_id, _), cell in cells.items() if starts[row_id] != ""),
        key=lambda write: write[0].pk,
    )
    log_admin_update(dynasty, by, now, f"Added the column {column.name}", writes, column=column)


def gndt_column_edit(*, column: Column, by: User | None, now: datetime, **changes) -> Column:
    """Change a column's name or rules; values already in the table are kept as they are."""
    require_admin(by, "change GNDT columns")
    unknown = set(changes) - set(COLUMN_FIELDS)
    if unknown:
        raise TypeError(f"Unknown column fields: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        column = Column.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=column.pk)
        require_open(column.dynasty)
        fields = {key: getattr(column, key) for key in COLUMN_FIELDS}
        fields.update(changes)
        fields["name"] = clean_name(fields["name"], what="column", limit=60)
        fields["default"] = (fields["default"] or "").strip()
        fields["description"] = (fields["description"] or "").strip()
        spec = _column_spec(fields)
        fields["choices"] = list(spec.choices)
        if fields["owner_visible"] and not fields["hidden"]:
            raise GndtError(OWNER_VISIBLE_NOT_HIDDEN.format(name=fields["name"]))
        others = Column.objects.filter(dynasty=column.dynasty_id).exclude(pk=column.pk)
        taken = (
            naming.clash(fields["name"], others.values_list("name", flat=True))
            if fields["name"] != column.name
            else None
        )
        if taken is not None:
            raise GndtError(NAME_TAKEN.format(what="column", name=taken))
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
        log_admin_update(
            column.dynasty, by, now, f"Changed the column {column.name}: " + "; ".join(described), column=column
        )
    return column


def _setting(value) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if value is None or value == "":
        return "none"
    return str(value)


def gndt_column_retire(*, column: Column, by: User | None, now: datetime) -> Column:
    """Remove a column from the table; its values and history stay in the log."""
    require_admin(by, "remove GNDT columns")
    with transaction.atomic():
        column = Column.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=column.pk)
        require_open(column.dynasty)
        if column.retired_at is None:
            column.retired_at = now
            column.save(update_fields=["retired_at"])
            log_admin_update(column.dynasty, by, now, f"Removed the column {column.name}", column=column)
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
    require_admin(by, "add GNDT rows")
    require_open(dynasty)
    if user is not None:
        if not user.is_player:
            raise GndtError(NOT_A_PLAYER_ACCOUNT.format(name=user.username))
        name = user.username
    name = clean_name(name, what="row", limit=150)
    with transaction.atomic():
        row = _create_row(dynasty, name=name, user=user, order=order, now=now)
        log_admin_update(dynasty, by, now, f"Added the row {name}", _starting_writes([row], dynasty))
    return row


def _create_row(dynasty: Dynasty, *, name: str, user: User | None, order: int | None, now: datetime | None) -> Row:
    taken = naming.clash(name, Row.objects.filter(dynasty=dynasty).values_list("name", flat=True))
    if taken is not None:
        raise GndtError(NAME_TAKEN.format(what="row", name=taken))
    if user is not None and Row.objects.filter(dynasty=dynasty, user=user).exists():
        raise GndtError(PLAYER_HAS_ROW.format(name=user.username))
    if order is None:
        order = (
            Row.objects.filter(dynasty=dynasty).order_by("-order").values_list("order", flat=True).first() or 0
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
    cells = locked_cells((row, column) for row in rows for column in columns)
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
    require_admin(by, "add GNDT rows")
    require_open(dynasty)
    with transaction.atomic():
        have = Row.objects.filter(dynasty=dynasty)
        taken_names = set(have.values_list("name", flat=True))
        with_rows = set(have.exclude(user=None).values_list("user_id", flat=True))
        newcomers = [
            user
            for user in User.objects.active_at(now).order_by(Lower("username"), "username")
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
        log_admin_update(dynasty, by, now, f"Added rows for {names}", _starting_writes(rows, dynasty))
    return rows


def gndt_row_retire(*, row: Row, by: User | None, now: datetime) -> Row:
    """Remove a row (a side pot that is settled, a codename retired); its history stays in the log."""
    require_admin(by, "remove GNDT rows")
    with transaction.atomic():
        row = Row.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=row.pk)
        require_open(row.dynasty)
        if row.retired_at is None:
            row.retired_at = now
            row.save(update_fields=["retired_at"])
            log_admin_update(row.dynasty, by, now, f"Removed the row {row.name}")
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
    phase: str = "",
    action: Action | None = None,
) -> Action:
    """Define a named action with its frequency, weekly cap and the phase it is limited to ("" for any
    time; ``dynasties.phases``), or change one (``action``)."""
    require_admin(by, "define actions")
    require_open(dynasty)
    name = clean_name(name, what="action", limit=80)
    phase = (phase or "").strip()
    if phase and phase not in PHASE_CHOICES:
        raise GndtError(
            BAD_ACTION.format(
                name=name, problem=UNKNOWN_PHASE.format(phase=phase, phases=", ".join(PHASE_CHOICES)).rstrip(".")
            )
        )
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
        during = f", only during the {phase}" if phase else ""
        summary = f"{name} ({frequency.replace('_', ' ')}{cap}{during})"
        if action is None:
            action = Action.objects.create(
                dynasty=dynasty,
                name=name,
                frequency=frequency,
                weekly_cap=weekly_cap,
                description=description.strip(),
                phase=phase,
            )
            log_admin_update(dynasty, by, now, f"Defined the action {summary}")
        else:
            action = Action.objects.select_for_update().get(pk=action.pk)
            action.name, action.frequency, action.weekly_cap = name, frequency, weekly_cap
            action.description = description.strip()
            action.phase = phase
            action.save()
            log_admin_update(dynasty, by, now, f"Changed the action {summary}")
    return action


def gndt_action_retire(*, action: Action, by: User | None, now: datetime) -> Action:
    require_admin(by, "remove actions")
    with transaction.atomic():
        action = Action.objects.select_for_update(of=("self",)).select_related("dynasty").get(pk=action.pk)
        if action.retired_at is None:
            action.retired_at = now
            action.save(update_fields=["retired_at"])
            log_admin_update(action.dynasty, by, now, f"Removed the action {action.name}")
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
    require_admin(by, "change the random lists")
    name = (name or "").strip().upper()
    if not LIST_NAME_PATTERN.fullmatch(name):
        raise GndtError(BADLIST_NAME_PATTERN)
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


# --- Dynasties -------------------------------------------------------------------------------------------


def gndt_start_dynasty(
    *,
    old_dynasty: Dynasty,
    new_dynasty: Dynasty,
    keep_columns: Iterable[str],
    now: datetime,
    by: User | None = None,
    keep_rows: Iterable[str] = (),
    renames: Mapping[str, str] | None = None,
) -> Update | None:
    """Start ``new_dynasty``'s GNDT with the columns of ``old_dynasty`` named in ``keep_columns``.

    The kept columns keep their rules but not their values: every active player gets a row with each
    column's starting value (Ruleset 21's stats "reset to zero or blank" at a new dynasty). Rows already
    made in the new dynasty (a player who joined while it awaited its Ascension Address) are kept and get
    the starting values too. Rows that are not players named in ``keep_rows`` ("The Storehouse") are kept
    the same way. ``renames`` (old → new, the Ascension's keyword replacement) applies to the kept columns'
    names and descriptions and the kept rows' names. The old table becomes read-only, since a later dynasty
    now follows it. Returns the update that logs the starting values (None when there were none to write).
    """
    require_admin(by, "start a new GNDT")
    if new_dynasty.number <= old_dynasty.number:
        raise GndtError(NEW_DYNASTY_NOT_LATER.format(new=new_dynasty.number, old=old_dynasty.number))
    keep = [name.strip() for name in keep_columns]
    with transaction.atomic():
        if Column.objects.filter(dynasty=new_dynasty).exists():
            raise GndtError(NEW_DYNASTY_HAS_TABLE.format(dynasty=new_dynasty.name))
        _copy_kept_columns(old_dynasty, new_dynasty, keep, renames)
        rows_before, taken = _add_player_rows(old_dynasty, new_dynasty, now)
        _copy_kept_rows(old_dynasty, new_dynasty, keep_rows, renames, after=rows_before, taken=taken)
        rows = list(Row.objects.in_use().filter(dynasty=new_dynasty))
        writes = _starting_writes(rows, new_dynasty)
        if not writes:
            return None
        return log_admin_update(new_dynasty, by, now, f"The GNDT of {new_dynasty.name} begins", writes)


def _renamed(text: str, renames: Mapping[str, str] | None) -> str:
    return replace_keywords(text, renames) if renames and text else text


def _copy_kept_columns(
    old_dynasty: Dynasty, new_dynasty: Dynasty, keep: list[str], renames: Mapping[str, str] | None
) -> None:
    """The old table's columns named in ``keep``, renamed, in their old order: their rules, not their values."""
    old_columns = {column.name: column for column in Column.objects.filter(dynasty=old_dynasty)}
    unknown = [name for name in keep if name not in old_columns]
    if unknown:
        raise refusal([KEEP_UNKNOWN.format(dynasty=old_dynasty.name, column=name) for name in unknown])
    kept = sorted((old_columns[name] for name in dict.fromkeys(keep)), key=lambda c: (c.order, c.pk))
    Column.objects.bulk_create(
        Column(
            dynasty=new_dynasty,
            **{
                **{key: getattr(column, key) for key in COLUMN_FIELDS},
                "name": _renamed(column.name, renames),
                "description": _renamed(column.description, renames),
            },
        )
        for column in kept
    )


def _add_player_rows(old_dynasty: Dynasty, new_dynasty: Dynasty, now: datetime) -> tuple[int, set[str]]:
    """A row for each active player the new table lacks; returns how many rows it then has and the names
    it had before."""
    # Players keep their place from the old table; newcomers follow in name order.
    old_order = dict(Row.objects.filter(dynasty=old_dynasty).exclude(user=None).values_list("user_id", "order"))
    existing = Row.objects.filter(dynasty=new_dynasty)
    have_rows = set(existing.exclude(user=None).values_list("user_id", flat=True))
    taken = set(existing.values_list("name", flat=True))
    players = sorted(
        (user for user in User.objects.active_at(now) if user.pk not in have_rows and user.username not in taken),
        key=lambda user: (user.pk not in old_order, old_order.get(user.pk, 0), user.username.casefold(), user.username),
    )
    first = len(taken)
    Row.objects.bulk_create(
        Row(dynasty=new_dynasty, user=user, name=user.username, order=first + i + 1) for i, user in enumerate(players)
    )
    return first + len(players), taken


def _copy_kept_rows(
    old_dynasty: Dynasty,
    new_dynasty: Dynasty,
    keep_rows: Iterable[str],
    renames: Mapping[str, str] | None,
    *,
    after: int,
    taken: set[str],
) -> None:
    """The old table's rows that are not players' and are named in ``keep_rows``, renamed, after ``after``."""
    others = {row.name: row for row in Row.objects.in_use().filter(dynasty=old_dynasty, user=None)}
    keep_others = [name.strip() for name in keep_rows if name.strip()]
    unknown = [name for name in keep_others if name not in others]
    if unknown:
        raise refusal([KEEP_UNKNOWN_ROW.format(dynasty=old_dynasty.name, row=name) for name in unknown])
    Row.objects.bulk_create(
        Row(dynasty=new_dynasty, name=_renamed(name, renames), order=after + i + 1)
        for i, name in enumerate(sorted(dict.fromkeys(keep_others), key=lambda n: (others[n].order, n)))
        if _renamed(name, renames) not in taken
    )
