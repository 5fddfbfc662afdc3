"""Sessions that tell an outage from a session deleted elsewhere, and whose cached copy can be read beside
other keys.

Django's session middleware answers 400 ("the request's session was deleted before the request completed")
whenever saving the session fails with any database error on update. That is right when another request
logged the reader out and deleted the row, but while the database is unreachable the same 400 tells a player
their request was bad. Here an outage stays what it is: the database's error, answered with the site's
error page like every other request that needed the database while it was away.

``SessionStore`` is Django's ``cached_db`` store (the engine when Redis is configured) with one addition: a
caller about to read the cache anyway may fetch the session's cached copy in the same round trip and hand it
over (``key_to_prime``, ``prime``), so a cached page for a player costs one trip to Redis fewer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.cache import DEFAULT_CACHE_ALIAS
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponseBase


def outage_behind(error: BaseException) -> BaseException | None:
    """The connection failure somewhere behind ``error``, if it was one."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, (OperationalError, InterfaceError)):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


class OutageAwareSessionMiddleware(SessionMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        try:
            return super().process_response(request, response)
        except SessionInterrupted as interrupted:
            outage = outage_behind(interrupted)
            if outage is None:
                raise
            raise outage from interrupted


class SessionStore(cached_db.SessionStore):
    def key_to_prime(self) -> str | None:
        """The default cache's key for this session's cached copy, while it is still to be loaded and a caller
        reading the default cache may fetch it (None otherwise)."""
        if self.session_key is None or hasattr(self, "_session_cache"):
            return None
        if settings.SESSION_CACHE_ALIAS != DEFAULT_CACHE_ALIAS:
            return None
        return self.cache_key

    def prime(self, data: dict[str, Any] | None) -> None:
        """What the cache held under ``key_to_prime()``, read by the caller: the next load takes it instead of
        reading the cache again. Nothing found (None) leaves the load as Django's (the database, then the
        cache)."""
        if data is not None:
            self._primed = data

    def load(self) -> dict[str, Any]:
        primed = self.__dict__.pop("_primed", None)
        return primed if primed is not None else super().load()
