"""The admin panel's button that moves the demo's clock ahead (``blognomic.running.demo_clock``).

Outside the demo the address is not there at all: it answers 404, whoever asks.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from blognomic.running.demo_clock import NOT_AN_ADMIN, DemoClockError, demo_clock_move, describe, installed
from votes.requests import GameRequest, admin_of


@require_POST
def move_demo_clock(request: GameRequest) -> HttpResponse:
    if not installed():
        raise Http404("The demo clock runs only in the demo.")
    admin = admin_of(request, NOT_AN_ADMIN)
    try:
        ahead = demo_clock_move(admin=admin, step=request.POST.get("hours", ""))
    except DemoClockError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"The demo's clock now runs {describe(ahead)} ahead of the real one.")
    return redirect("admin_panel")
