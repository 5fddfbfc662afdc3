"""``/at/<moment>/``: the whole game as it stood at a past moment, so a Call for Judgement can cite it.

``/at/?at=…`` is the time picker's plain GET form, sent on to the moment's own address. A moment that is not
one, or is still to come, is refused with a message and the picker (400); no view here writes anything.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from blognomic.flows.time_travel.selectors import FUTURE_MOMENT, game_at, sidebar_state_at
from dynasties.parsing import InputError, parse_moment
from gndt.game_variables import game_variables_at
from votes.requests import GameRequest
from votes.selectors import recent_comments
from votes.state import game_state

MOMENT_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def moment_address(moment: datetime) -> str:
    """The moment as its address writes it: ISO 8601 in UTC to the second, ``2026-11-19T09:00:00Z``."""
    return moment.astimezone(UTC).strftime(MOMENT_FORMAT)


def _refuse(request: GameRequest, message: str, typed: str) -> HttpResponse:
    return render(
        request, "time_travel/at.html", {"error": message, "typed": typed[:64], "picker_value": ""}, status=400
    )


@require_GET
def game_at_picker(request: GameRequest) -> HttpResponse:
    """The time picker's target: ``?at=`` sent on to ``/at/<moment>/``; without one, the picker alone."""
    now = timezone.now()
    request.game_state = game_state(now)
    typed = request.GET.get("at", "")
    if not typed:
        return render(
            request, "time_travel/at.html", {"picker_value": now.strftime("%Y-%m-%dT%H:%M"), "typed": "", "error": ""}
        )
    try:
        moment = parse_moment(typed)
    except InputError as error:
        return _refuse(request, str(error), typed)
    return redirect("game_at", at=moment_address(moment))


@require_GET
def game_at_moment(request: GameRequest, at: str) -> HttpResponse:
    now = timezone.now()
    request.game_state = game_state(now)
    try:
        when = parse_moment(at)
    except InputError as error:
        return _refuse(request, str(error), at)
    if when > now:
        return _refuse(request, FUTURE_MOMENT.format(moment=when.strftime("%Y-%m-%d %H:%M:%S")), at)
    game = game_at(when, viewer=request.user)
    status = 200 if game.began else 404
    context = {
        "game": game,
        "moment": when,
        "picker_value": when.strftime("%Y-%m-%dT%H:%M:%S"),
        "address": moment_address(when),
        "typed": "",
        "error": "",
    }
    if game.began:
        # The sidebar beside the past shows the game then too; the context processor leaves today's out.
        request.sidebar_then = True
        context["sidebar_then"] = {
            "state": sidebar_state_at(game),
            "recent_comments": recent_comments(at=when),
            "game_variables": game_variables_at(game.dynasty, table=game.table, at=when),
        }
    return render(request, "time_travel/at.html", context, status=status)
