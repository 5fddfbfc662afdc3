"""What every write on the GNDT shares: ``GndtError`` and the messages it carries, and the helpers that
lock cells in a fixed order and log each change as an ``Update``.

The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from dynasties.models import Dynasty, User
from gndt import naming
from gndt.models import (
    Cell,
    CellChange,
    Column,
    Row,
    Update,
)
from gndt.selectors import dynasty_is_archived

CellKey = tuple[str, str]  # (row name, column name)


class GndtError(Exception):
    """A GNDT write was refused; the message says why, and ``problems`` lists each reason on its own."""

    def __init__(self, message: str, *, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [message]


class GndtConflict(GndtError):
    """A write refused because the table changed since its writer read it: the message says what changed, and
    who changed it. Answered apart from other refusals (the API's 409), since sending it again cannot help."""


class GndtForbidden(GndtError):
    """A write refused because of who asks, not what they ask (the API's 403)."""


NOT_AN_ADMIN = "Only admins may {what}."
ARCHIVED = "{dynasty} has ended: its GNDT is archived and read-only."
UNDO_OTHER_DYNASTY = "Update #{pk} belongs to another dynasty's GNDT."
NAME_REQUIRED = "A {what} needs a name."
NAME_TOO_LONG = "A {what} name may be at most {limit} characters."


def shown(value: str) -> str:
    """A cell value as messages quote it."""
    return f"“{value}”" if value != "" else "blank"


def cell_name(row: str, column: str) -> str:
    return f"{row}’s {column}"


# --- What every write shares ---


def refusal(problems: list[str]) -> GndtError:
    return GndtError(" ".join(_sentence(problem) for problem in problems), problems=problems)


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def pair_of(target: tuple[Row, Column]) -> tuple[int, int]:
    row, column = target
    return (row.pk, column.pk)


def locked_cells(pairs: Iterable[tuple[Row, Column]]) -> dict[tuple[int, int], Cell]:
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
        Cell.objects.bulk_create([Cell(row_id=r, column_id=c, value="") for r, c in missing], ignore_conflicts=True)
        cells = fetch()
    return {pair: cells[pair] for pair in wanted}


def write_changes(update: Update, writes: list[tuple[Cell, str]]) -> None:
    """Log each cell's old and new value under ``update`` and store the new values."""
    CellChange.objects.bulk_create(
        CellChange(update=update, row_id=cell.row_id, column_id=cell.column_id, old=cell.value, new=new)
        for cell, new in writes
    )
    for cell, new in writes:
        cell.value = new
    Cell.objects.bulk_update([cell for cell, _ in writes], ["value"])


def log_admin_update(
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    comment: str,
    writes: Sequence[tuple[Cell, str]] = (),
    *,
    column: Column | None = None,
) -> Update:
    """Log an admin's change; ``column`` is the column it is about, so a hidden column's stays secret."""
    update = Update.objects.create(dynasty=dynasty, by=by, at=now, comment=comment, source=Update.ADMIN, column=column)
    if writes:
        write_changes(update, list(writes))
    return update


def require_admin(by: User | None, what: str) -> None:
    if by is not None and not by.is_admin:
        raise GndtError(NOT_AN_ADMIN.format(what=what))


def require_open(dynasty: Dynasty) -> None:
    if dynasty_is_archived(dynasty):
        raise GndtError(ARCHIVED.format(dynasty=dynasty.name))


def clean_name(name: str, *, what: str, limit: int) -> str:
    # Rows sit beside players' rows and columns are named in the log: ``gndt.naming`` says why.
    name = naming.normalise(name)
    problem = naming.name_problem(name, what=what)
    if problem is not None and problem != naming.ONE_LINE.format(what=what):
        raise GndtError(problem)
    if not name:
        raise GndtError(NAME_REQUIRED.format(what=what))
    if len(name) > limit:
        raise GndtError(NAME_TOO_LONG.format(what=what, limit=limit))
    if problem is not None:
        raise GndtError(problem)
    return name
