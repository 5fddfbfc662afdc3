"""What the roster does to the GNDT: a joining player gets a row of defaults; a rename renames the row.

Called by the roster (``blognomic.flows.roster.services``); each change is logged like any other update, by the system.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max

from dynasties.models import Dynasty, User
from gndt.models import Cell, CellChange, Column, Row, Update
from gndt.values import starting_value


def gndt_player_joined(*, dynasty: Dynasty, user: User, now: datetime, reset: bool = False) -> Row:
    """Give ``user`` a row in ``dynasty``'s table with every column's starting value.

    With ``reset``, an existing row is set back to the starting values (a player unidling in a later
    dynasty than the one they idled in); otherwise an existing row keeps its values.
    """
    with transaction.atomic():
        row = Row.objects.select_for_update().filter(dynasty=dynasty, user=user).first()
        if row is not None and not reset:
            return row
        if row is None:
            order = (Row.objects.filter(dynasty=dynasty).aggregate(m=Max("order"))["m"] or 0) + 1
            row = Row.objects.create(dynasty=dynasty, user=user, name=user.username, order=order, created_at=now)
        columns = list(Column.objects.in_use().filter(dynasty=dynasty))
        current = {cell.column_id: cell for cell in Cell.objects.filter(row=row)}
        changes = []
        for column in columns:
            value = starting_value(column.spec())
            cell = current.get(column.pk)
            old = cell.value if cell else ""
            if cell is None:
                Cell.objects.create(row=row, column=column, value=value)
            elif cell.value != value:
                Cell.objects.filter(pk=cell.pk).update(value=value)
            if old != value:
                changes.append((column, old, value))
        if changes:
            update = Update.objects.create(
                dynasty=dynasty,
                by=None,
                at=now,
                source=Update.ADMIN,
                comment=f"Starting values for {user.username}"
                if not reset
                else f"{user.username} unidled in a new dynasty: starting values",
            )
            CellChange.objects.bulk_create(
                CellChange(update=update, row=row, column=column, old=old, new=new) for column, old, new in changes
            )
        return row


def gndt_player_renamed(*, user: User, old_name: str) -> None:
    """Rows follow their player's name; the log keeps pointing at the same rows."""
    Row.objects.filter(user=user, name=old_name).update(name=user.username)
