"""What every test runs with, as plain functions: the conftest's autouse fixtures apply them to each test, and
the site's sweep (``tests/site_sweep.py``, made before any test's own fixtures) applies them to itself."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.test import override_settings

from blognomic.celery import app
from dynasties import outbound

# Password hashing is deliberately slow; tests create many accounts.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

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


@contextmanager
def as_in_a_test() -> Iterator[pytest.MonkeyPatch]:
    """What the conftest's autouse fixtures give each test, for work done before any test's own fixtures run (the
    site's sweep). Yields a monkeypatch that is undone on leaving."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS, CONTENT_VERSION_STORE="memory"):
        with pytest.MonkeyPatch.context() as patch:
            run_tasks_in_process()
            patch.setattr(outbound, "resolve", resolve_offline)
            yield patch
