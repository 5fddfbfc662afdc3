"""The GNDT table of the current dynasty."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from dynasties.selectors import game_state
from gndt.selectors import gndt_table_for


def gndt_table(request: HttpRequest) -> HttpResponse:
    request.game_state = state = game_state(timezone.now())
    table = gndt_table_for(state.dynasty, viewer=request.user, state=state) if state.dynasty else None
    return render(request, "gndt/table.html", {"table": table})
