"""The address a request came from, as the rate limits (joining, logging in) must see it.

Behind the reverse proxy every request reaches gunicorn from the proxy's own address, so with
``BEHIND_TLS_PROXY`` the client is the last address of ``X-Forwarded-For``: the one the proxy itself
appended (earlier entries are whatever the client sent, and could be anything).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    if getattr(settings, "CLIENT_ADDRESS_FROM_PROXY", False):
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR") or None
