"""Slow clients cannot pin the site: a visitor is served promptly while others trickle their requests.

The stack as deployed (``deploy/gunicorn.conf.py`` behind ``deploy/Caddyfile``), on loopback against the test
database: clients send endless headers or endless bodies a byte at a time, more of them than gunicorn has
workers, and a normal visitor's every request is answered within a second or two. Caddy reads requests whole
before passing them on and drops a client whose headers take over 10 s. gunicorn alone, with its settings,
still serves the visitor while slow clients hold some of its threads.
"""

from __future__ import annotations

import shutil
import threading

import pytest
from django.conf import settings
from django.db import connection

from tests.slow_clients import (
    DEPLOYED_CADDYFILE,
    DEPLOYED_GUNICORN,
    Stack,
    served_meanwhile,
    site_environment,
    slow_clients,
)

pytestmark = pytest.mark.django_db(transaction=True)

# The longest a normal visitor may wait for the front page while slow clients trickle.
PROMPT_SECONDS = 2.0


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def environment() -> dict[str, str]:
    # Two workers of four threads: fewer threads than slow clients below, as on a small machine.
    return {**site_environment(database_url(), settings.SECRET_KEY), "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "4"}


def test_behind_the_proxy_slow_clients_leave_gunicorn_free_and_slow_headers_are_cut_off(tmp_path):
    if shutil.which("caddy") is None:
        pytest.fail("caddy is missing: `make test` installs Debian's caddy package.")
    stop = threading.Event()
    with Stack(
        env=environment(), workdir=tmp_path, gunicorn=DEPLOYED_GUNICORN, caddyfile=DEPLOYED_CADDYFILE.read_text()
    ) as stack:
        clients = slow_clients(stack.port, headers=6, bodies=6, stop=stop)
        try:
            answers = served_meanwhile(stack.port, seconds=13)
        finally:
            stop.set()
        logs = stack.logs()
    assert answers and all(status == 200 for status, _ in answers), logs
    slowest = max(seconds for _, seconds in answers)
    assert slowest < PROMPT_SECONDS, f"a visitor waited {slowest:.1f} s"
    # read_header 10s: the endless headers were dropped by the proxy, the endless bodies still waited on.
    cut = sorted(client.cut_after for client in clients if client.kind == "headers" and client.cut_after)
    assert len(cut) == 6 and 9 < cut[0] and cut[-1] < 13, cut
    assert not any(client.cut_after for client in clients if client.kind == "body")


def test_gunicorn_alone_with_its_settings_serves_a_visitor_while_slow_clients_hold_threads(tmp_path):
    stop = threading.Event()
    with Stack(env=environment(), workdir=tmp_path, gunicorn=DEPLOYED_GUNICORN, caddyfile=None) as stack:
        # Fewer slow clients than one worker's threads: a worker may accept them all, and with as many as its
        # threads it would queue the visitor behind them. Past that only the proxy protects (production.md).
        slow_clients(stack.port, headers=1, bodies=2, stop=stop)
        try:
            answers = served_meanwhile(stack.port, seconds=6)
        finally:
            stop.set()
        logs = stack.logs()
    assert answers and all(status == 200 for status, _ in answers), logs
    slowest = max(seconds for _, seconds in answers)
    assert slowest < PROMPT_SECONDS, f"a visitor waited {slowest:.1f} s"
