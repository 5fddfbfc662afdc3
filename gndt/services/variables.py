"""Game variables: which GNDT cells, or which phase of the calendar, the sidebar and the phone summary show.

Admins choose them, citing the enacted proposal that made them gamestate when one did; each addition and
removal is logged as an admin's GNDT update. The dynasty's ``shows_variables`` flag is kept in step in the
same transaction, so that pages of a dynasty without variables spend no query on them.

The time is always passed in (``now``); nothing here reads the clock.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from dynasties.models import Dynasty, User
from dynasties.phases import PHASE_RULES
from gndt.models import Column, GameVariable, Row
from gndt.services.common import GndtError, clean_name, log_admin_update, require_admin, require_open
from votes.models import Kind, Post, Status

VARIABLE_CELL_OR_PHASE = "A game variable shows either one GNDT cell (a row and a column) or a phase rule, not both."
VARIABLE_NEEDS_SOURCE = "Choose what the variable shows: a row and a column of the GNDT, or a phase rule."
VARIABLE_UNKNOWN_RULE = "There is no phase rule “{rule}”; the rules are {rules}."
VARIABLE_OTHER_DYNASTY = "The {what} “{name}” is not in this dynasty's GNDT."
VARIABLE_RETIRED = "The {what} “{name}” has been removed from the GNDT."
VARIABLE_LABEL_TAKEN = "There is already a game variable called “{label}”."
VARIABLE_PROPOSAL_NOT_ENACTED = "“{title}” is not an enacted proposal, so it cannot be cited for a game variable."
MAX_VARIABLES = 12
TOO_MANY_VARIABLES = "A dynasty may show at most {limit} game variables; remove one first."


def gndt_variable_add(
    *,
    dynasty: Dynasty,
    by: User | None,
    now: datetime,
    label: str,
    row: Row | None = None,
    column: Column | None = None,
    phase_rule: str = "",
    proposal: Post | None = None,
    order: int | None = None,
) -> GameVariable:
    """Show a GNDT cell (``row`` and ``column``) or the phase of ``phase_rule`` under ``label``."""
    require_admin(by, "choose game variables")
    require_open(dynasty)
    label = clean_name(label, what="game variable", limit=60)
    phase_rule = (phase_rule or "").strip()
    _check_variable_source(dynasty, row=row, column=column, phase_rule=phase_rule)
    if proposal is not None and (proposal.kind not in (Kind.PROPOSAL, Kind.CFJ) or proposal.status != Status.ENACTED):
        raise GndtError(VARIABLE_PROPOSAL_NOT_ENACTED.format(title=proposal.title))
    with transaction.atomic():
        locked = Dynasty.objects.select_for_update().get(pk=dynasty.pk)
        shown = GameVariable.objects.shown().filter(dynasty=locked)
        if shown.filter(label__iexact=label).exists():
            raise GndtError(VARIABLE_LABEL_TAKEN.format(label=label))
        if shown.count() >= MAX_VARIABLES:
            raise GndtError(TOO_MANY_VARIABLES.format(limit=MAX_VARIABLES))
        if order is None:
            order = (shown.order_by("-order").values_list("order", flat=True).first() or 0) + 1
        variable = GameVariable.objects.create(
            dynasty=locked,
            label=label,
            row=row,
            column=column,
            phase_rule=phase_rule,
            order=order,
            proposal=proposal,
            by=by,
            at=now,
        )
        if not locked.shows_variables:
            Dynasty.objects.filter(pk=locked.pk).update(shows_variables=True)
        if row is not None and column is not None:
            source = f"{row.name}’s {column.name}"
        else:
            source = f"the phase ({phase_rule})"
        cited = f", as “{proposal.title}” enacted" if proposal is not None else ""
        # About the column, so that a variable on a hidden column stays as secret as the column.
        log_admin_update(locked, by, now, f"Showing the game variable {label}: {source}{cited}", column=column)
    dynasty.shows_variables = True
    return variable


def _check_variable_source(dynasty: Dynasty, *, row: Row | None, column: Column | None, phase_rule: str) -> None:
    """Refuses a variable that shows neither or both of a cell and a phase, or a cell not in use here."""
    has_cell = row is not None or column is not None
    if has_cell and phase_rule:
        raise GndtError(VARIABLE_CELL_OR_PHASE)
    if not phase_rule and (row is None or column is None):
        raise GndtError(VARIABLE_NEEDS_SOURCE)
    if phase_rule and phase_rule not in PHASE_RULES:
        raise GndtError(VARIABLE_UNKNOWN_RULE.format(rule=phase_rule, rules=", ".join(PHASE_RULES)))
    for what, item in (("row", row), ("column", column)):
        if item is None:
            continue
        if item.dynasty_id != dynasty.pk:
            raise GndtError(VARIABLE_OTHER_DYNASTY.format(what=what, name=item.name))
        if item.retired_at is not None:
            raise GndtError(VARIABLE_RETIRED.format(what=what, name=item.name))


def gndt_variable_retire(*, variable: GameVariable, by: User | None, now: datetime) -> GameVariable:
    """Stop showing a game variable; it stays recorded."""
    require_admin(by, "remove game variables")
    with transaction.atomic():
        variable = (
            GameVariable.objects.select_for_update(of=("self",)).select_related("dynasty", "column").get(pk=variable.pk)
        )
        require_open(variable.dynasty)
        if variable.retired_at is not None:
            return variable
        variable.retired_at = now
        variable.save(update_fields=["retired_at"])
        if not GameVariable.objects.shown().filter(dynasty=variable.dynasty_id).exists():
            Dynasty.objects.filter(pk=variable.dynasty_id).update(shows_variables=False)
        log_admin_update(
            variable.dynasty, by, now, f"No longer showing the game variable {variable.label}", column=variable.column
        )
    return variable
