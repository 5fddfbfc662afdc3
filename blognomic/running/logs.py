"""Log lines an operator can follow: one line per event, each naming the request or the task it belongs to.

Every request gets an id (a well-formed ``X-Request-ID`` from the proxy is kept, else a new one), returned in
the response's ``X-Request-ID``; a Celery task is known by its own id. The filter puts both on every record,
the formatter writes ``request=… task=…`` and folds a traceback onto its line.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING

from celery import current_task

if TYPE_CHECKING:  # at run time no models: the logging configuration imports this module before the apps load
    from django.http import HttpResponse

    from votes.requests import GameRequest

REQUEST_ID_HEADER = "X-Request-ID"
# What a proxy may hand down: short and plain, so a forged header cannot break a log line or a log search.
WELL_FORMED_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
NONE = "-"
LINE_FORMAT = "%(asctime)s %(levelname)s %(name)s request=%(request_id)s task=%(task_id)s %(message)s"

current_request_id: ContextVar[str] = ContextVar("current_request_id", default=NONE)
request_logger = logging.getLogger("blognomic.requests")


def request_id_from(header: str | None) -> str:
    return header if header and WELL_FORMED_ID.match(header) else uuid.uuid4().hex


def current_task_id() -> str:
    task_id = getattr(getattr(current_task, "request", None), "id", None) if current_task else None
    return task_id or NONE


class RequestIdMiddleware:
    """First of all middleware: the request's id for every log line written while it is answered, and for the
    reader in ``X-Request-ID``; at INFO, one line per request with its status and time."""

    def __init__(self, get_response: Callable[[GameRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: GameRequest) -> HttpResponse:
        request.request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))
        # Left set until the response is closed (``forget_request_id``): Django logs a 4xx or 5xx answer after
        # the last middleware has returned.
        current_request_id.set(request.request_id)
        started = time.monotonic()
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request.request_id
        request_logger.info(
            "%s %s %s %.0f ms", request.method, request.path, response.status_code, (time.monotonic() - started) * 1000
        )
        return response


def forget_request_id(**kwargs) -> None:
    """Connected to ``request_finished``: what is logged between requests belongs to none."""
    current_request_id.set(NONE)


class RequestAndTaskFilter(logging.Filter):
    """Sets ``request_id`` and ``task_id`` on every record (``-`` when there is none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        record.task_id = current_task_id()
        return True


class OneLineFormatter(logging.Formatter):
    """One event, one line: line breaks in the message and the traceback are written as ``\\n``."""

    def __init__(self, fmt: str = LINE_FORMAT, **kwargs) -> None:
        super().__init__(fmt, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        for name in ("request_id", "task_id"):
            if not hasattr(record, name):
                setattr(record, name, NONE)
        return super().format(record).replace("\r", "\\r").replace("\n", "\\n")
