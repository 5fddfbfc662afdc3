"""Sessions that tell an outage from a session deleted elsewhere.

Django's session middleware answers 400 ("the request's session was deleted before the request completed")
whenever saving the session fails with any database error on update. That is right when another request
logged the reader out and deleted the row, but while the database is unreachable the same 400 tells a player
their request was bad. Here an outage stays what it is: the database's error, answered with the site's
error page like every other request that needed the database while it was away.
"""

from __future__ import annotations

from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.middleware import SessionMiddleware
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
