"""The site's own middleware: bad requests refused before and after the views (NUL bytes anywhere, and
values a view could not read).

PostgreSQL cannot store or even compare text holding a NUL byte (it raises mid-request), and SQLite would
store it; no address, query, form or cookie of this site has a use for one, so a request carrying one is
refused whole, before any view or session lookup runs. Views refuse other unreadable input by raising
``BadRequest`` with a message for the player (see ``dynasties.inputs``); this turns it into a 400 page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render
from django.utils.html import escape

NUL_REFUSED = "The request was refused: it holds a NUL character (\\u0000), which no field of this site accepts."
NUL = "\x00"
# The JSON API answers in JSON, refusals included (its own errors are its handlers'; this one comes first).
API_PREFIX = "/api/"


def holds_nul(request: HttpRequest) -> bool:
    if NUL in request.path or NUL in request.path_info:
        return True
    if NUL in request.META.get("QUERY_STRING", "") or _any_nul(request.GET.lists()):
        return True
    if _any_nul(request.COOKIES.items()):
        return True
    if request.method == "POST" and _any_nul(request.POST.lists()):
        return True
    return False


def _any_nul(pairs) -> bool:
    for key, values in pairs:
        if NUL in key:
            return True
        for value in values if isinstance(values, list) else [values]:
            if NUL in value:
                return True
    return False


class RefuseNulMiddleware:
    """A NUL byte in the path, the query string, a cookie or the posted form: a 400 before anything else.

    The page is plain, not the site's template: rendering that reads the session and the game state, which
    is what a NUL byte in a cookie would break.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if holds_nul(request):
            if request.path_info.startswith(API_PREFIX):
                return JsonResponse({"detail": NUL_REFUSED}, status=400)
            return HttpResponseBadRequest(
                '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad request</title></head>'
                f"<body><h1>Bad request</h1><p>{escape(NUL_REFUSED)}</p></body></html>",
                content_type="text/html; charset=utf-8",
            )
        return self.get_response(request)


class BadInputMiddleware:
    """``BadRequest`` raised by a view becomes the site's error page with its message and status 400, with or
    without DEBUG (Django's own 400 page shows no message)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, BadRequest):
            return None
        context = {"heading": "Bad request", "message": str(exception)}
        if getattr(request, "htmx", False):
            return render(request, "_error_fragment.html", context, status=400)
        return render(request, "error.html", context, status=400)
