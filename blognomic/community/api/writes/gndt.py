"""GNDT writes through the API: updating cells and taking a declared action, for a token with the ``gndt``
scope or the signed-in browser with its CSRF token.

Both call ``gndt.services.gndt_update``, as the GNDT's edit form does, so the table's rules hold as they do
in the browser. The seeds' "Gamestate Tracking" leaves keeping the GNDT to the players; the service adds
what the site promises besides: each changed cell carries the value its writer saw, and a cell that changed
since is a conflict (409) that says what it is now and who changed it, with nothing written. A hidden column
is, to a writer who may not see it, a column that does not exist; an owner-visible one is read-only to its
owner. What a write answers is built from what its writer may see.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from ninja import Router, Status
from ninja.errors import HttpError

from blognomic.community.api import schemas
from blognomic.community.tokens.auth import acting_as
from blognomic.community.tokens.scopes import GNDT
from dynasties.models import Dynasty
from gndt import services
from gndt.models import Action, Update
from gndt.selectors import actions_offered, gndt_table_for, log_entries
from gndt.services.common import CellKey, cell_name
from votes.state import GameState, game_state

router = Router(tags=["GNDT"])

NO_TABLE = "No dynasty has a GNDT yet."
NO_SUCH_ACTION = "There is no action “{name}” in this dynasty."
GIVEN_TWICE = "{cell} is given more than once; name each cell once, in changes or in based_on."
WRITE_ANSWERS = {
    201: schemas.GndtWritten,
    400: schemas.Problem,
    401: schemas.Problem,
    403: schemas.Problem,
    404: schemas.Problem,
    409: schemas.Problem,
}


def _table_state() -> tuple[GameState, Dynasty]:
    state = game_state(timezone.now())
    if state.dynasty is None:
        raise HttpError(404, NO_TABLE)
    return state, state.dynasty


def _cells(payload: schemas.GndtWriteIn) -> tuple[dict[CellKey, str], dict[CellKey, str]]:
    """The changes and the values seen, keyed as the service takes them; a cell named twice is refused, since
    which of its values was meant cannot be known."""
    changes: dict[CellKey, str] = {}
    seen: dict[CellKey, str] = {}
    for change in payload.changes:
        key = (change.row, change.column)
        if key in seen:
            raise HttpError(400, GIVEN_TWICE.format(cell=cell_name(*key)))
        changes[key], seen[key] = change.value, change.seen
    for cell in payload.based_on:
        key = (cell.row, cell.column)
        if key in seen:
            raise HttpError(400, GIVEN_TWICE.format(cell=cell_name(*key)))
        seen[key] = cell.seen
    return changes, seen


def _write(request, payload: schemas.GndtWriteIn, *, action: Action | None = None):
    """Run ``gndt_update`` for the request's user and answer with what it changed, or refuse as it says."""
    state, dynasty = _table_state()
    changes, seen = _cells(payload)
    try:
        update = services.gndt_update(
            dynasty=dynasty,
            by=request.user,
            changes=changes,
            seen=seen,
            comment=payload.comment,
            action=action,
            now=timezone.now(),
        )
    except services.GndtConflict as conflict:
        raise HttpError(409, str(conflict)) from None
    except services.GndtForbidden as forbidden:
        raise HttpError(403, str(forbidden)) from None
    except services.GndtError as error:
        raise HttpError(400, str(error)) from None
    return Status(201, _written(update, viewer=request.user, state=state))


def _written(update: Update, *, viewer, state: GameState) -> dict:
    """The update as ``viewer`` sees it in the log, and the rows it changed as ``viewer`` sees the table."""
    dynasty = update.dynasty
    update = Update.objects.for_log().select_related("action", "by").get(pk=update.pk)
    entry = log_entries([update], viewer=viewer, dynasty=dynasty)[0]
    touched = {change.row.pk for change in entry.changes}
    table = gndt_table_for(dynasty, viewer=viewer, state=state)
    return {
        "id": update.pk,
        "at": update.at,
        "by": update.by.username if update.by else "",
        "comment": update.comment,
        "action": update.action.name if update.action else None,
        "rolls": [str(roll.get("text", "")) for roll in update.rolls],
        "changes": [
            {"row": c.row.name, "column": c.column.name, "old": c.old, "new": c.new}
            for c in entry.changes
            if c.column is not None
        ],
        "rows": [
            {
                "name": r.row.name,
                "player": r.row.user.username if r.row.user else None,
                "idle": r.idle,
                # Another player's value in an owner-visible column is left out, not sent blank.
                "values": {cell.column.name: cell.value for cell in r.cells if not cell.concealed},
            }
            for r in table.all_rows
            if r.row.pk in touched
        ],
        "url": reverse("gndt_update", args=[update.pk]),
    }


@router.post(
    "/gndt/updates",
    auth=acting_as(GNDT),
    response=WRITE_ANSWERS,
    url_name="gndt_updates",
    summary="Update GNDT cells, as the table's edit form does (scope gndt)",
)
def gndt_update_api(request, payload: schemas.GndtWriteIn):
    """Each change names its cell by row and column, the new value, and the value the writer saw there
    (``seen``); ``based_on`` lists other cells the change was worked out from. If any of them has changed
    since, nothing is written and the answer is 409 saying what each is now and who changed it."""
    return _write(request, payload)


@router.get(
    "/gndt/actions",
    response={200: schemas.GndtActions, 404: schemas.Problem},
    url_name="gndt_actions",
    summary="The current dynasty's declared actions and how often each may be taken",
)
def gndt_actions(request):
    _, dynasty = _table_state()
    return {
        "dynasty": dynasty.number,
        "actions": [
            {
                "name": action.name,
                "frequency": action.frequency,
                "weekly_cap": action.weekly_cap,
                "phase": action.phase,
                "description": action.description,
            }
            for action in actions_offered(dynasty)
        ],
    }


@router.post(
    "/gndt/actions/{name}",
    auth=acting_as(GNDT),
    response=WRITE_ANSWERS,
    url_name="gndt_action_take",
    summary="Take a declared action: a GNDT update that performs it (scope gndt)",
)
def gndt_action_take(request, name: str, payload: schemas.GndtWriteIn):
    """The update carries the action's changes and comment (its dice, say), and is refused as the seeds say:
    "If a game action is a Daily Action, each Hunter able to perform it may take that action once each day,
    but not more than once every ten hours" (Ruleset 142; six hours in Ruleset 52), a Weekly Action "once
    per week, but not more than once every twenty-four hours", a communal one by one player a day or week,
    and none during hiatus."""
    _, dynasty = _table_state()
    action = next((action for action in actions_offered(dynasty) if action.name == name), None)
    if action is None:
        raise HttpError(404, NO_SUCH_ACTION.format(name=name[:100]))
    return _write(request, payload, action=action)
