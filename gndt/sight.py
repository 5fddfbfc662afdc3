"""What one reader may see of a GNDT, told by name: amendments name their rows and columns as text.

The rule is ``gndt.models``' own (``sees_hidden``, ``sees_value``, ``Column.objects.visible_to``); a ``Sight``
looks the names up once, so that an amendment's operations, its diff, its refusals and what it applied are
told to each reader by that one rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dynasties.models import Dynasty
from gndt.models import Column, Row, sees_hidden, sees_value, viewer_pk


@dataclass(frozen=True)
class Sight:
    viewer: object
    dynasty: Dynasty | None
    privileged: bool = True
    hidden: dict[str, Column] = field(default_factory=dict)  # by name, in use or retired: names never repeat
    known: frozenset[str] = frozenset()  # the hidden columns the reader may know of
    row_users: dict[str, int | None] = field(default_factory=dict)  # row name → its player's account

    def knows_column(self, column: str) -> bool:
        return column not in self.hidden or column in self.known

    def sees_cell(self, row: str, column: str) -> bool:
        hidden = self.hidden.get(column)
        if hidden is None:
            return True
        return sees_value(self.viewer, self.dynasty, hidden, self.row_users.get(row), privileged=self.privileged)

    def sees_operation(self, op: dict) -> bool:
        """Whether the reader may see what an amendment's operation does: an operation on a cell they may not
        see, or removing a column they may not know of, is a secret to them."""
        kind = op.get("op")
        if kind in ("cell_set", "cell_add"):
            return self.sees_cell(str(op.get("row", "")), str(op.get("column", "")))
        if kind == "column_retire":
            return self.knows_column(str(op.get("column", "")))
        return True


def sight_of(viewer, dynasty: Dynasty | None) -> Sight:
    """``viewer``'s sight of ``dynasty``'s GNDT: one query, or up to three when it holds hidden columns that
    ``viewer`` (a player) may partly see."""
    if dynasty is None:
        return Sight(viewer=viewer, dynasty=None)
    privileged = sees_hidden(viewer, dynasty)
    hidden = {column.name: column for column in Column.objects.filter(dynasty=dynasty, hidden=True)}
    if privileged or not hidden:
        return Sight(viewer=viewer, dynasty=dynasty, privileged=privileged, hidden=hidden, known=frozenset(hidden))
    known: frozenset[str] = frozenset()
    row_users: dict[str, int | None] = {}
    if viewer_pk(viewer) is not None and any(column.owner_visible for column in hidden.values()):
        known = frozenset(
            Column.objects.filter(pk__in=[column.pk for column in hidden.values()])
            .visible_to(viewer, dynasty)
            .values_list("name", flat=True)
        )
        row_users = dict(Row.objects.filter(dynasty=dynasty).values_list("name", "user_id"))
    return Sight(viewer=viewer, dynasty=dynasty, privileged=False, hidden=hidden, known=known, row_users=row_users)
