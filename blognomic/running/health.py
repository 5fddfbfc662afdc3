"""``/healthz/``, answered ahead of every other middleware, and what it checks: the database answers,
Redis answers (when configured), beat ran lately, and a page can be rendered.

The answer names each component with ``ok`` or ``not ok`` and nothing more, since any host may ask; why a
check failed goes to the log. Beat is judged by the heartbeat it records every minute: older than
``BEAT_STALE_SECONDS`` is stale. A process that has just started gives beat that long to run first, because
in docker-compose beat starts only once the web server is healthy.

``pages`` renders the frame every page is drawn in (``base.html``, through the not-found page, which needs no
game): its templates, its addresses and its static files. Under ``DEBUG=0`` a static file is named through the
manifest ``collectstatic`` writes, so a site deployed without it answers every page with an error; this check
says so instead of ``ok``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control

from blognomic.running.models import Heartbeat

logger = logging.getLogger(__name__)

STARTED_AT = time.time()
# The page frame, rendered without a request or a game: no query, the same templates and static files.
PAGE_FRAME = "404.html"
REDIS_TIMEOUT_SECONDS = 1.0


@dataclass(frozen=True)
class Check:
    component: str
    ok: bool


def beat_is_fresh(*, last_run: datetime | None, now: datetime, stale_after: timedelta, up_for: timedelta) -> bool:
    """Whether beat counts as alive: its last run is recent, or this process is too young to tell."""
    if up_for < stale_after:
        return True
    return last_run is not None and now - last_run <= stale_after


def health_checks(*, now: datetime) -> list[Check]:
    checks = [Check("database", _database_answers())]
    if settings.REDIS_URL:
        checks.append(Check("redis", _redis_answers()))
    if settings.HEALTH_CHECKS_BEAT:
        checks.append(Check("beat", checks[0].ok and _beat_is_fresh(now)))
    checks.append(Check("pages", _pages_render()))
    return checks


def _pages_render() -> bool:
    try:
        render_to_string(PAGE_FRAME, {"request_path": HEALTH_PATH})
    except Exception:
        logger.exception("Health check: the page frame cannot be rendered (was `collectstatic` run?).")
        return False
    return True


def beat_last_run() -> datetime | None:
    return Heartbeat.objects.filter(name="beat").values_list("last_run_at", flat=True).first()


def _beat_is_fresh(now: datetime) -> bool:
    try:
        last_run = beat_last_run()
    except Exception:
        logger.exception("Health check: cannot read beat's heartbeat.")
        return False
    fresh = beat_is_fresh(
        last_run=last_run,
        now=now,
        stale_after=timedelta(seconds=settings.BEAT_STALE_SECONDS),
        up_for=timedelta(seconds=time.time() - STARTED_AT),
    )
    if not fresh:
        logger.warning(
            "Health check: beat last ran at %s, longer ago than %s s.", last_run, settings.BEAT_STALE_SECONDS
        )
    return fresh


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        logger.exception("Health check: the database does not answer.")
        return False
    return True


# One client (with its connection pool) per address, kept between checks.
_redis_clients: dict[str, object] = {}


def _redis_answers() -> bool:
    # Only a site with REDIS_URL asks, and only then needs the client library.
    import redis

    url = settings.REDIS_URL
    try:
        client = _redis_clients.get(url)
        if client is None:
            client = _redis_clients[url] = redis.Redis.from_url(
                url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
            )
        return bool(client.ping())
    except Exception:
        logger.exception("Health check: Redis does not answer.")
        return False


def healthz(request: HttpRequest) -> HttpResponse:
    """For container health checks and monitors: each component ``ok`` or ``not ok``; 503 unless all are ok."""
    checks = health_checks(now=timezone.now())
    text = "".join(f"{check.component} {'ok' if check.ok else 'not ok'}\n" for check in checks)
    response = HttpResponse(text, content_type="text/plain", status=200 if all(c.ok for c in checks) else 503)
    patch_cache_control(response, no_store=True)
    return response


HEALTH_PATH = "/healthz/"


class HealthCheckMiddleware:
    """Answers ``/healthz/`` ahead of host validation and the HTTPS redirect.

    A container's health check asks gunicorn directly, as ``127.0.0.1`` over plain HTTP: production settings
    would refuse that host (ALLOWED_HOSTS) and redirect to https. The answer says only ``ok`` or ``not ok``
    for the database, Redis, beat and pages (above), so it is safe to give to any host.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
