"""Reads of the GNDT: the table now or at any past moment, the log, and the word lists in force.

Every read here costs a fixed number of queries, whatever the size of the table or the log. Hidden columns
(secret state) and everything about them are left out unless the viewer is an admin or the dynasty's
Emperor: each read goes through the ``visible_to(viewer, dynasty)`` queryset methods of ``gndt.models``,
where that rule is written once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Lower

from dynasties.models import Dynasty, User
from gndt import private_decks as private_deck_rules
from gndt.dice import DEFAULT_LISTS
from gndt.models import (
    Action,
    Cell,
    CellChange,
    Column,
    EffectRun,
    PrivateDeck,
    RandomListVersion,
    Row,
    ScheduledEffect,
    Update,
    sees_hidden,
    sees_value,
    viewer_pk,
)

NAME_SORT = ""


@dataclass
class TableCell:
    column: Column
    value: str
    concealed: bool = False  # another player's value in an owner-visible column: never sent, shown blank
    read_only: bool = False  # a hidden column this viewer sees but may not change (their own secret)
    typed: str = ""  # on the edit form: what the editor typed, sent back with a refusal (else the value)


@dataclass
class TableRow:
    row: Row
    cells: list[TableCell]
    idle: bool = False

    @property
    def values(self) -> list[str]:
        return [cell.value for cell in self.cells]


@dataclass
class Table:
    """The table as a viewer sees it: player rows, rows that are not players, and idle players' rows apart."""

    dynasty: Dynasty
    columns: list[Column]
    rows: list[TableRow] = field(default_factory=list)
    other_rows: list[TableRow] = field(default_factory=list)
    idle_rows: list[TableRow] = field(default_factory=list)
    sort: str = NAME_SORT
    descending: bool = False
    as_of: datetime | None = None

    @property
    def all_rows(self) -> list[TableRow]:
        return [*self.rows, *self.other_rows, *self.idle_rows]

    @property
    def width(self) -> int:
        return len(self.columns) + 1


def can_see_hidden(viewer, state) -> bool:
    return sees_hidden(viewer, state.dynasty)


def visible_columns(dynasty: Dynasty, viewer, *, at: datetime | None = None) -> list[Column]:
    columns = Column.objects.filter(dynasty=dynasty)
    columns = columns.existing_at(at) if at is not None else columns.in_use()
    return list(columns.visible_to(viewer, dynasty))


@dataclass(frozen=True)
class AmendmentPicks:
    """What the post form's GNDT editor offers to pick from: the rows in use, players' apart from the others,
    and the columns the author may see, each with its kind ("whole number", "text, hidden")."""

    player_rows: list[str] = field(default_factory=list)
    other_rows: list[str] = field(default_factory=list)
    columns: list[tuple[str, str]] = field(default_factory=list)


def amendment_picks(dynasty: Dynasty | None, *, viewer) -> AmendmentPicks:
    """The rows and columns ``viewer`` may name in an amendment, as the table shows them to them: two queries.
    A column they may not see is not offered, as the table does not show it."""
    if dynasty is None:
        return AmendmentPicks()
    rows = Row.objects.in_use().filter(dynasty=dynasty).values_list("name", "user_id")
    kinds = dict(Column.KIND_CHOICES)
    columns = [
        (column.name, kinds[column.kind].lower() + (", hidden" if column.hidden else ""))
        for column in visible_columns(dynasty, viewer)
    ]
    return AmendmentPicks(
        player_rows=sorted((name for name, user_id in rows if user_id is not None), key=str.casefold),
        other_rows=sorted((name for name, user_id in rows if user_id is None), key=str.casefold),
        columns=columns,
    )


def gndt_table_for(
    dynasty: Dynasty,
    *,
    viewer,
    state=None,
    idle_names: Iterable[str] | None = None,
    sort: str = NAME_SORT,
    descending: bool = False,
) -> Table:
    """The whole current table in three queries, whatever its size."""
    columns = visible_columns(dynasty, viewer)
    rows = list(Row.objects.in_use().filter(dynasty=dynasty).select_related("user"))
    values = {
        (row_id, column_id): value
        for row_id, column_id, value in Cell.objects.filter(row__dynasty=dynasty).values_list(
            "row_id", "column_id", "value"
        )
    }
    idle = frozenset(idle_names if idle_names is not None else _idle_names(state, rows))
    return _assemble(dynasty, columns, rows, values, idle, sort=sort, descending=descending, viewer=viewer)


def gndt_table_as_of(
    dynasty: Dynasty,
    at: datetime,
    *,
    viewer,
    idle_names: Iterable[str] = (),
    sort: str = NAME_SORT,
    descending: bool = False,
) -> Table:
    """The table as it stood at ``at``: current values with every later change played backwards.

    For each cell the earliest change after ``at`` holds, as its old value, what the cell held then; a
    cell changed only before ``at`` still holds that value now. Rows and columns added after
    ``at``, or removed by then, are left out. Four queries, whatever the size of the log.
    """
    columns = visible_columns(dynasty, viewer, at=at)
    rows = list(Row.objects.existing_at(at).filter(dynasty=dynasty).select_related("user"))
    values = {
        (row_id, column_id): value
        for row_id, column_id, value in Cell.objects.filter(row__dynasty=dynasty).values_list(
            "row_id", "column_id", "value"
        )
    }
    later = (
        CellChange.objects.filter(update__dynasty=dynasty, update__at__gt=at)
        .order_by("-update__at", "-update_id", "-pk")
        .values_list("row_id", "column_id", "old")
    )
    # Walking from the newest change to the oldest, the last write per cell is the earliest change's ``old``.
    for row_id, column_id, old in later.iterator(chunk_size=5000):
        values[(row_id, column_id)] = old
    table = _assemble(
        dynasty, columns, rows, values, frozenset(idle_names), sort=sort, descending=descending, viewer=viewer
    )
    table.as_of = at
    return table


def _idle_names(state, rows: list[Row]) -> frozenset[str]:
    """The table's players who are idle (asked of them alone: the game may have hundreds of idle players)."""
    if state is None:
        return frozenset()
    return state.roster.idle_among(row.user for row in rows if row.user is not None)


def _assemble(dynasty, columns, rows, values, idle_names, *, sort: str, descending: bool, viewer) -> Table:
    table = Table(dynasty=dynasty, columns=columns, sort=sort, descending=descending)
    privileged = sees_hidden(viewer, dynasty)
    for row in rows:
        entry = TableRow(row=row, cells=[_cell(viewer, dynasty, c, row, values, privileged) for c in columns])
        if row.user is not None and row.user.username in idle_names:
            entry.idle = True
            table.idle_rows.append(entry)
        elif row.user is None:
            table.other_rows.append(entry)
        else:
            table.rows.append(entry)
    sort_column = next((c for c in columns if c.name == sort), None)
    if sort_column is None:
        table.sort = NAME_SORT
    for group in (table.rows, table.other_rows, table.idle_rows):
        _sort_rows(group, columns, sort_column, descending)
    return table


def _cell(viewer, dynasty, column: Column, row: Row, values: dict, privileged: bool) -> TableCell:
    # Concealed before sorting, so that sorting by an owner-visible column cannot reveal its order.
    if not sees_value(viewer, dynasty, column, row.user_id, privileged=privileged):
        return TableCell(column, "", concealed=True, read_only=True)
    return TableCell(column, values.get((row.pk, column.pk), ""), read_only=column.hidden and not privileged)


def _sort_rows(group: list[TableRow], columns: list[Column], column: Column | None, descending: bool) -> None:
    if column is None:
        if descending:
            group.sort(key=lambda entry: entry.row.name.casefold(), reverse=True)
        return
    index = columns.index(column)

    def key(entry: TableRow):
        value = entry.cells[index].value.strip()
        if column.is_numeric:
            try:
                return (0, int(value), "")
            except ValueError:
                pass  # a placeholder such as "-" in a number column sorts with the text
        return (1 if value else 2, 0, value.casefold())

    # Blank cells stay last in both directions.
    filled = [entry for entry in group if entry.cells[index].value.strip()]
    blank = [entry for entry in group if not entry.cells[index].value.strip()]
    filled.sort(key=key, reverse=descending)
    group[:] = filled + blank


def random_lists_for(dynasty: Dynasty | None) -> dict[str, tuple[str, ...]]:
    """The word lists in force: the dynasty's own version of a list, else the game's, else the built-in."""
    lists: dict[str, tuple[str, ...]] = dict(DEFAULT_LISTS)
    scope = Q(dynasty__isnull=True) | Q(dynasty=dynasty) if dynasty is not None else Q(dynasty__isnull=True)
    versions = RandomListVersion.objects.filter(scope).order_by("at", "pk")
    game_wide = {}
    own = {}
    for version in versions:
        (game_wide if version.dynasty_id is None else own)[version.name] = version
    for name, version in {**game_wide, **own}.items():
        if version.removed:
            lists.pop(name, None)
        else:
            lists[name] = tuple(version.entries)
    return lists


def list_history(dynasty: Dynasty | None) -> QuerySet[RandomListVersion]:
    scope = Q(dynasty__isnull=True) | Q(dynasty=dynasty) if dynasty is not None else Q(dynasty__isnull=True)
    return RandomListVersion.objects.filter(scope).select_related("by", "dynasty").order_by("-at", "-pk")


@dataclass(frozen=True)
class LogFilters:
    by: str = ""
    row: str = ""
    column: str = ""

    @property
    def active(self) -> bool:
        return bool(self.by or self.row or self.column)


def gndt_log(dynasty: Dynasty, *, viewer, filters: LogFilters = LogFilters()) -> QuerySet[Update]:
    """The dynasty's updates ``viewer`` may see, newest first, filtered by who made them and which row or
    column they changed.

    Only changes the viewer may see count for the filters: filtering by a hidden column matches nothing, and
    filtering by a row does not find an update that changed only hidden values of it.
    """
    updates = Update.objects.filter(dynasty=dynasty).visible_to(viewer, dynasty)
    if filters.by:
        updates = updates.filter(by__username=filters.by)
    if filters.row or filters.column:
        changes = CellChange.objects.filter(update=OuterRef("pk")).visible_to(viewer, dynasty)
        if filters.row:
            changes = changes.filter(row__name=filters.row)
        if filters.column:
            changes = changes.filter(column__name=filters.column)
        updates = updates.filter(Exists(changes))
    return updates.for_log().order_by("-at", "-pk")


@dataclass
class LogChange:
    row: Row
    column: Column
    old: str
    new: str


@dataclass
class LogEntry:
    update: Update
    changes: list[LogChange]
    hidden_changes: int  # changes left out for this viewer; never shown, nor told apart in any way
    undone_by: Update | None

    @property
    def pk(self) -> int:
        return self.update.pk


def log_entries(updates: Iterable[Update], *, viewer, dynasty: Dynasty) -> list[LogEntry]:
    """Log entries ready to show ``updates`` (already filtered by ``Update.objects.visible_to``) to ``viewer``:
    changes to hidden columns are left out for those who may not see them (an owner-visible column's change
    is shown only to that row's own player)."""
    entries = []
    privileged = sees_hidden(viewer, dynasty)
    for update in updates:
        shown, hidden = [], 0
        for change in update.changes.all():
            if not sees_value(viewer, dynasty, change.column, change.row.user_id, privileged=privileged):
                hidden += 1
                continue
            shown.append(LogChange(row=change.row, column=change.column, old=change.old, new=change.new))
        undone = list(update.undone_by.all())
        entries.append(
            LogEntry(update=update, changes=shown, hidden_changes=hidden, undone_by=undone[0] if undone else None)
        )
    return entries


def log_filter_choices(dynasty: Dynasty, *, viewer) -> dict[str, list[str]]:
    """Names offered in the log's filter menus: rows, visible columns and everyone who has updated."""
    rows = list(Row.objects.filter(dynasty=dynasty).values_list("name", flat=True))
    columns = Column.objects.filter(dynasty=dynasty).visible_to(viewer, dynasty)
    updates = Update.objects.filter(dynasty=dynasty, by=OuterRef("pk")).visible_to(viewer, dynasty)
    people = User.objects.filter(Exists(updates))
    return {
        "rows": sorted(rows, key=str.casefold),
        "columns": list(columns.values_list("name", flat=True)),
        "people": list(people.order_by(Lower("username"), "username").values_list("username", flat=True)),
    }


def gndt_update_shown(pk, *, viewer) -> Update | None:
    """The update numbered ``pk`` with what its log entry shows, or None when ``viewer`` may not see it (an
    update about a hidden column answers as if there were none)."""
    update = Update.objects.for_log().select_related("dynasty__emperor").filter(pk=pk).first()
    if update is None:
        return None
    if not Update.objects.filter(pk=update.pk).visible_to(viewer, update.dynasty).exists():
        return None
    return update


def recent_updates(dynasty: Dynasty, *, viewer, limit: int) -> list[LogEntry]:
    """The latest ``limit`` updates ``viewer`` may see, ready to show."""
    updates = Update.objects.filter(dynasty=dynasty).visible_to(viewer, dynasty).for_log().order_by("-at", "-pk")
    return log_entries(updates[:limit], viewer=viewer, dynasty=dynasty)


def effects_shown(dynasty: Dynasty, *, viewer) -> QuerySet[ScheduledEffect]:
    """The dynasty's scheduled effects ``viewer`` may see, each marked ``has_run`` if it ever ran."""
    last_run = EffectRun.objects.filter(effect=OuterRef("pk")).order_by("-pk")
    return (
        ScheduledEffect.objects.filter(dynasty=dynasty)
        .visible_to(viewer, dynasty)
        .select_related("column", "row")
        .annotate(has_run=Exists(last_run))
    )


def effect_runs_shown(dynasty: Dynasty, *, viewer) -> QuerySet[EffectRun]:
    return (
        EffectRun.objects.filter(effect__dynasty=dynasty).visible_to(viewer, dynasty).select_related("effect", "update")
    )


def actions_offered(dynasty: Dynasty) -> list[Action]:
    return list(Action.objects.filter(dynasty=dynasty, retired_at__isnull=True))


def dynasty_is_archived(dynasty: Dynasty) -> bool:
    """A dynasty that has ended, or that a later dynasty has followed, keeps its table read-only."""
    return dynasty.ended_at is not None or Dynasty.objects.filter(number__gt=dynasty.number).exists()


# --- Private decks -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrivateDeckView:
    """A private deck as one reader may see it. ``order``, ``salt`` and ``hole_cards`` are None unless the
    reader is its owner or the deck has been revealed: the secret is left out, not hidden by the template."""

    deck: PrivateDeck
    positions: tuple[int, ...]
    order: tuple[str, ...] | None = None
    salt: str | None = None
    hole_cards: tuple[tuple[int, str], ...] | None = None
    verified: bool | None = None  # after the reveal: whether the published order and salt match the checksum

    @property
    def is_own(self) -> bool:
        return self.order is not None and not self.deck.is_revealed


def private_deck_view(deck: PrivateDeck, viewer) -> PrivateDeckView:
    """What ``viewer`` may know of ``deck`` (Ruleset 52: the order is "noted privately by the Player", the
    checksum stated in public). Before the showdown only its owner sees the order, not the Dealer and not
    the admins; afterwards everyone does, with the check of the checksum."""
    positions = tuple(position for draw in deck.draws.all() for position in draw.positions)
    if not (deck.is_revealed or viewer_pk(viewer) == deck.owner_id):
        return PrivateDeckView(deck=deck, positions=positions)
    order = private_deck_rules.order_from_text(deck.order)
    cards = private_deck_rules.cards_at(order, positions)
    verified = (
        private_deck_rules.reveal_matches(deck.order, salt=deck.salt, digest=deck.digest) if deck.is_revealed else None
    )
    return PrivateDeckView(
        deck=deck,
        positions=positions,
        order=order,
        salt=deck.salt,
        hole_cards=tuple(zip(positions, cards, strict=True)),
        verified=verified,
    )


def private_decks_for(dynasty: Dynasty, viewer, *, owner: User | None = None) -> list[PrivateDeckView]:
    """``dynasty``'s private decks (``owner``'s alone if given), newest first, as ``viewer`` may see them."""
    decks = PrivateDeck.objects.filter(dynasty=dynasty).for_listing()
    if owner is not None:
        decks = decks.filter(owner=owner)
    return [private_deck_view(deck, viewer) for deck in decks]
