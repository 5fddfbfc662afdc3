"""``Idempotency-Key`` for every API write: a bot that retries a request (its connection dropped, it timed out)
gets the first answer again, and nothing is posted or voted twice.

A middleware rather than a decorator, so that no write can forget it: every POST, PUT, PATCH and DELETE under
the API's root that carries the header is covered, and the schema declares the header on each
(``views.BlogNomicAPI``). Keys belong to their caller (the token presented, or the signed-in account), so two
callers never share one. The first request with a key claims it before it runs; a retry while it runs is told
409 with ``Retry-After``; a retry after it is given the stored answer, marked ``Idempotent-Replayed: true``;
the same key with another method, path or body is refused with 422. Answers about the credentials (401, 403,
429) and server errors are not kept, so a retry after them runs afresh. A replay is given only to a caller who
could send the request now: a live token, or a browser with its CSRF token.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import cache

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.urls import reverse
from django.utils import timezone
from ninja.utils import check_csrf

from blognomic.community.api.retries import HEADER, WRITES
from blognomic.community.api.views import api
from blognomic.community.tokens.idempotency_store import answer_claim, answer_keep, answer_release
from blognomic.community.tokens.issuing import TokenRefused, token_for

_KEY = re.compile(r"[\x21-\x7e]{1,255}")
NOT_KEPT = frozenset({401, 403, 429})
BAD_KEY = "An Idempotency-Key is 1 to 255 visible ASCII characters, such as a UUID."
OTHER_REQUEST = "This Idempotency-Key was first sent with another request; use a new key for a new request."
STILL_RUNNING = "The first request with this Idempotency-Key is still being answered; retry in a moment."


@cache
def _operations() -> list[tuple[re.Pattern, frozenset[str]]]:
    """Each address of the API (as a pattern) with the methods it takes, read from the API's own schema."""
    paths = api.get_openapi_schema(path_prefix=reverse("api:api-root"))["paths"]
    found = []
    for path, operations in paths.items():
        parts = [part if not part.startswith("{") else None for part in path.rstrip("/").split("/")]
        pattern = "/".join("[^/]+" if part is None else re.escape(part) for part in parts)
        found.append((re.compile(pattern + "/?"), frozenset(method.upper() for method in operations)))
    return found


def takes(method: str, path: str) -> bool:
    """Whether an operation of the API answers ``method`` at ``path``; any other request is answered 405 or
    404 by the API itself, with nothing to keep, so a key it carries is not spent on it."""
    return any(pattern.fullmatch(path) and method in methods for pattern, methods in _operations())


def _problem(detail: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status)


def caller_of(request: HttpRequest) -> str | None:
    if "authorization" in request.headers:
        return "t:" + hashlib.sha256(request.headers["authorization"].encode()).hexdigest()[:64]
    if request.user.is_authenticated:
        return f"u:{request.user.pk}"
    return None


def fingerprint_of(request: HttpRequest) -> str:
    return hashlib.sha256(b"\n".join([request.method.encode(), request.path.encode(), request.body])).hexdigest()


def _answered_without_running(request: HttpRequest) -> bool:
    """Whether the API answers the request before any operation runs, whatever key it carries: a form the
    site has already read as one (400: the API takes JSON), or a body over the site's limit (413)."""
    try:
        request.body  # noqa: B018 (readable, or already read as a form)
    except (RawPostDataException, RequestDataTooBig):
        return True
    return False


def _may_be_answered_now(request: HttpRequest) -> bool:
    if "authorization" in request.headers:
        _, _, presented = request.headers["authorization"].partition(" ")
        try:
            token_for(presented, now=timezone.now())
        except TokenRefused:
            return False
        return True
    return check_csrf(request) is None


def _replay(answer) -> HttpResponse:
    response = HttpResponse(bytes(answer.body), status=answer.status, content_type=answer.content_type or None)
    if answer.location:
        response["Location"] = answer.location
    response["Idempotent-Replayed"] = "true"
    return response


class IdempotencyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.prefix: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.prefix is None:
            self.prefix = reverse("api:api-root")
        key = request.headers.get(HEADER)
        if key is None or request.method not in WRITES or not request.path_info.startswith(self.prefix):
            return self.get_response(request)
        if not takes(request.method, request.path):
            return self.get_response(request)
        if not _KEY.fullmatch(key):
            return _problem(BAD_KEY, 400)
        caller = caller_of(request)
        if caller is None or _answered_without_running(request):  # The API refuses it itself, saying why.
            return self.get_response(request)
        fingerprint = fingerprint_of(request)
        answer, claimed = answer_claim(caller=caller, key=key, fingerprint=fingerprint, now=timezone.now())
        if not claimed:
            if not _may_be_answered_now(request):
                return self.get_response(request)  # The API refuses it, saying why.
            if answer.fingerprint != fingerprint:
                return _problem(OTHER_REQUEST, 422)
            if answer.status is None:
                response = _problem(STILL_RUNNING, 409)
                response["Retry-After"] = "1"
                return response
            return _replay(answer)
        response = self.get_response(request)
        if response.status_code >= 500 or response.status_code in NOT_KEPT or response.streaming:
            answer_release(answer)
        else:
            answer_keep(
                answer,
                status=response.status_code,
                content_type=response.get("Content-Type", ""),
                location=response.get("Location", ""),
                body=response.content,
            )
        return response
