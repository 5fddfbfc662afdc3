"""What every test runs with, as plain functions: the conftest's autouse fixtures apply them to each test, and
the site's sweep (``tests/site_sweep.py``, made before any test's own fixtures) applies them to itself."""

from __future__ import annotations

import ipaddress

from blognomic.celery import app

# What the test resolver answers for names under example.org, example.com and example.net: a public address
# no test connects to. Other names are not found.
PUBLIC_TEST_ADDRESS = "93.184.215.14"


def run_tasks_in_process() -> None:
    """Tasks run in-process in tests even when REDIS_URL is set (the worker test starts its own)."""
    app.conf.update(task_always_eager=True, task_eager_propagates=True)


def resolve_offline(host: str, port: int) -> list:
    """Webhook addresses are resolved by this table, never by the network, so no test needs the internet."""
    if host.rstrip(".").endswith(("example.org", "example.com", "example.net")):
        return [ipaddress.ip_address(PUBLIC_TEST_ADDRESS)]
    return []
