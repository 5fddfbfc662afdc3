"""Players' updates to the GNDT and their undo: validated whole, checked against what the editor saw, locked,
logged cell by cell. Dice and word-list draws in the comment are rolled here.

The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from django.db import transaction

from dynasties.models import Dynasty, User
from dynasties.phases import phase_refusal
from gndt import decks, dice
from gndt.actions import Performed, Spacing, check_action_with_spacing, start_of_week
from gndt.models import (
    Action,
    Cell,
    CellChange,
    Column,
    Row,
    Update,
)
from gndt.selectors import dynasty_is_archived, random_lists_for, sees_hidden, sees_value
from gndt.services.common import (
    ARCHIVED,
    CellKey,
    GndtConflict,
    GndtError,
    GndtForbidden,
    cell_name,
    locked_cells,
    pair_of,
    refusal,
    shown,
    write_changes,
)
from gndt.values import CellValueError, validate_value
from votes.state import game_state

MAX_COMMENT_LENGTH = 5000
NOT_A_PLAYER = "Only active {players} may update the GNDT."
NOTHING_TO_DO = "Change a value or write a comment: an empty update is not logged."
NOTHING_CHANGED = "Every value given is already in the table; change something or write a comment."
COMMENT_TOO_LONG = "A comment may be at most {limit:,} characters; this one has {length:,}."
UNKNOWN_ROW = "There is no row “{row}” in the GNDT."
UNKNOWN_COLUMN = "There is no column “{column}” in the GNDT."
OWN_SECRET_READ_ONLY = (
    "{cell}: you may see your own {column} but not change it; only admins and the {emperor} change it."
)
NOT_TEXT = "{cell}: a value must be text."
SEEN_MISSING = "{cell}: the value you saw was not sent, so the change cannot be checked; reload and try again."
CONFLICT = "Nothing was saved: the table changed after you loaded it. {details}. Reload and make your change again."
CONFLICT_CELL = "{cell} is now {current}, not {seen} as you saw it ({who})"
UNKNOWN_ACTION = "There is no action “{action}” in this dynasty."
ALREADY_UNDONE = "Update #{pk} was already undone by update #{by}; undo that one to restore its values."
NOTHING_TO_UNDO = "Update #{pk} changed no values, so there is nothing to undo."
UNDO_CONFLICT = "Update #{pk} cannot be undone: {details}."
UNDO_CHANGED_CELL = "{cell} has changed since (it is now {current}; update #{pk} set it to {new}; {who})"
UNDO_OWN_SECRET = (
    "Update #{pk} changed {cells}, which you may see but only admins and the {emperor} change, so only they may "
    "undo it."
)
UNDO_UNSEEN = "There is no update #{pk} for you to undo."


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
        targets = _resolve_keys(changes, rows, columns, secret_ok, problems, by=by, dynasty=dynasty)
        watched = _resolve_keys(seen, rows, columns, secret_ok, problems, by=by, dynasty=dynasty)
        if problems:
            raise refusal(problems)
        players = _player_names(now) if any(column.kind == Column.PLAYER for _, column in targets.values()) else None
        new_values = _validated(changes, targets, players, problems)
        for key, (row, column) in targets.items():
            if key not in seen:
                problems.append(SEEN_MISSING.format(cell=cell_name(row.name, column.name)))
        if problems:
            raise refusal(problems)
        declared = _declared_action(dynasty, action) if action not in (None, "") else None
        cells = locked_cells([*watched.values(), *targets.values()])
        _check_seen(seen, watched, cells)
        changed = {key: new for key, new in new_values.items() if cells[pair_of(targets[key])].value != new}
        if not changed and not comment:
            raise GndtError(NOTHING_CHANGED)
        if declared is not None:
            _check_action_allowed(declared, by=by, now=now)
        rolls = _roll(comment, dynasty, by)
        update = Update.objects.create(
            dynasty=dynasty,
            by=by,
            at=now,
            comment=comment,
            rolls=rolls,
            action=declared,
            source=Update.PLAYER,
        )
        write_changes(update, [(cells[pair_of(targets[key])], new) for key, new in changed.items()])
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
        target = Update.objects.select_for_update(of=("self",)).select_related("dynasty__emperor").get(pk=update.pk)
        dynasty = target.dynasty
        _check_may_update(dynasty, by, now)
        later_undo = Update.objects.filter(undoes=target).order_by("pk").first()
        if later_undo is not None:
            raise GndtError(ALREADY_UNDONE.format(pk=target.pk, by=later_undo.pk))
        changes = list(target.changes.select_related("row", "column"))
        if not changes:
            raise GndtError(NOTHING_TO_UNDO.format(pk=target.pk))
        changes = _changes_to_undo(target, changes, by=by, dynasty=dynasty)
        cells = locked_cells((change.row, change.column) for change in changes)
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
        write_changes(undo, [(cells[(change.row_id, change.column_id)], change.old) for change in changes])
    return undo


def _changes_to_undo(target: Update, changes: list[CellChange], *, by: User, dynasty: Dynasty) -> list[CellChange]:
    """The changes of ``target`` that ``by`` undoes: all of them for admins and the Emperor; for anyone else
    the ones in columns that are not hidden.

    Someone who may not see a hidden column sees the update without its hidden changes (``log_entries``), so
    undoing it restores what they see and leaves the rest, and nothing they are told (a refusal, a conflict)
    says there was more. A change they see but may not make (their own value in an owner-visible column)
    refuses the undo, naming it.
    """
    if sees_hidden(by, dynasty):
        return changes
    own = [c for c in changes if c.column.hidden and sees_value(by, dynasty, c.column, c.row.user_id, privileged=False)]
    if own:
        raise GndtError(
            UNDO_OWN_SECRET.format(
                pk=target.pk,
                emperor=dynasty.emperor_term,
                cells=", ".join(cell_name(c.row.name, c.column.name) for c in own),
            )
        )
    public = [change for change in changes if not change.column.hidden]
    if not public:
        raise GndtError(UNDO_UNSEEN.format(pk=target.pk))
    return public


def _check_may_update(dynasty: Dynasty, by: User, now: datetime) -> None:
    if dynasty_is_archived(dynasty):
        raise GndtError(ARCHIVED.format(dynasty=dynasty.name))
    if by.is_admin or by.pk == dynasty.emperor_id:
        return
    if not User.objects.active_at(now).filter(pk=by.pk).exists():
        raise GndtForbidden(NOT_A_PLAYER.format(players=dynasty.players_term.lower()))


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
    *,
    by: User,
    dynasty: Dynasty,
) -> dict[CellKey, tuple[Row, Column]]:
    resolved = {}
    for key in keys:
        row_name, column_name = key
        row = rows.get(row_name)
        column = columns.get(column_name)
        if column is not None and column.hidden and not secret_ok:
            if column.owner_visible and row is not None and row.user_id == by.pk:
                _add_once(
                    problems,
                    OWN_SECRET_READ_ONLY.format(
                        cell=cell_name(row.name, column.name), column=column.name, emperor=dynasty.emperor_term
                    ),
                )
                continue
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
    raise GndtConflict(CONFLICT.format(details=details), problems=[details])


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
    locked = Action.objects.select_for_update().filter(dynasty=dynasty, name=name, retired_at__isnull=True).first()
    if locked is None or (isinstance(action, Action) and locked.pk != action.pk):
        raise GndtError(UNKNOWN_ACTION.format(action=name))
    return locked


def _check_action_allowed(action: Action, *, by: User, now: datetime) -> None:
    """Refuse an action outside its phase (``dynasties.phases``), over its daily, weekly or communal limit, or
    during hiatus (``gndt.actions``)."""
    outside = phase_refusal(action.phase, now, what=action.name)
    if outside:
        raise GndtError(outside)
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


def _roll(comment: str, dynasty: Dynasty, by: User | None = None) -> list[dict]:
    if not comment:
        return []
    try:
        rolls = dice.roll_comment(comment, lists=random_lists_for(dynasty))
        plan = decks.plan_deck_draws(comment)
    except (dice.DiceError, decks.DeckError) as error:
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
    ] + _deck_draws(plan, dynasty, by)


def _deck_draws(plan: decks.DeckPlan, dynasty: Dynasty, by: User | None) -> list[dict]:
    """Shuffle and draw as the comment asks, from what the deck has dealt so far (read from the log)."""
    if plan.empty:
        return []
    # One writer at a time per dynasty, so two simultaneous draws can never deal the same card.
    Dynasty.objects.select_for_update(of=("self",)).filter(pk=dynasty.pk).first()
    deck = f"HAND#{plan.hand}" if plan.hand else f"{by.username if by else 'the system'}'s deck"
    logged = (
        roll
        for rolls in Update.objects.filter(dynasty=dynasty)
        .exclude(rolls=[])
        .order_by("pk")
        .values_list("rolls", flat=True)
        for roll in rolls
    )
    size, dealt = decks.dealt_so_far(logged, deck)
    out: list[dict[str, object]] = []
    if plan.shuffle:
        size, dealt = None, frozenset()
        out.append({"token": "SHUFFLE", "kind": "shuffle", "deck": deck, "text": f"SHUFFLE: {deck} is shuffled"})
    for draw in plan.draws:
        try:
            cards = decks.draw_cards(deck=deck, draw=draw, size=size, dealt=dealt, rng=dice.SYSTEM_RNG)
        except decks.DeckError as error:
            raise GndtError(str(error)) from None
        size, dealt = draw.size, dealt | set(cards)
        out.append(
            {
                "token": draw.token,
                "kind": "deck",
                "deck": deck,
                "size": draw.size,
                "count": draw.count,
                "results": list(cards),
                "total": 0,
                "pick": None,
                "text": f"{draw.token} from {deck}: {', '.join(str(card) for card in cards)}",
            }
        )
    return out
