"""The permission matrix: every URL of the site × GET and POST × every role, against one written table.

The expected answers are in ``tests/permissions.csv``, one row per URL name and method, one column per role:
a status code, with ``+w`` when the request wrote to the database. A URL with no row fails the test, with a
message saying to add one. ``PERMISSIONS_OBSERVED=FILE`` writes the answers this run saw, in the table's
format, as a starting point for new rows (each to be checked by hand, not copied blindly); it needs every
case in one process (``-n 0``).

Each row of the table (a URL name and a method) is a case of its own, so the suite's workers share them out.
Every request runs in a savepoint that is rolled back, so all of them see the same game, built once per module
in each worker.
"""

from __future__ import annotations

import copy
import csv
import os
import re
from collections.abc import Iterator

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import NoReverseMatch, reverse

from tests.permissions import (
    METHODS,
    ROLES,
    TABLE,
    game_with_clients,
    read_table,
    table_key,
    url_patterns,
)

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
# Writes that are not the endpoint's doing: sessions (messages, login) and the login limiter's records.
NOT_GAME_TABLES = ("django_session", "axes_")


@pytest.fixture(scope="module")
def game(django_db_setup, django_db_blocker):
    with game_with_clients(django_db_blocker) as built:
        yield built


@pytest.fixture
def db_access(django_db_blocker):
    with django_db_blocker.unblock():
        yield


def requested_urls() -> Iterator[tuple[str, str]]:
    """(table key, URL name) for every URL pattern that can be requested (Django's admin: those without
    arguments), in the URL configuration's order."""
    for name, route, _pattern in url_patterns():
        key = table_key(name, route)
        if key.startswith("admin:"):
            try:
                reverse(name) if name else None
            except NoReverseMatch:  # the admin's URLs that need an object id share the "admin:*" row
                continue
            if not name:
                continue
        yield key, name


def requests_to_make(game) -> Iterator[tuple[str, str, str, dict]]:
    """(table key, method, path, headers) for every URL pattern that can be requested."""
    for key, name in requested_urls():
        path = reverse(name, kwargs=game.args.get(name, {})) + game.queries.get(name, "")
        for method in METHODS:
            yield key, method, path, game.headers.get(key, {})


# The cases of the matrix, one per row of the table that some URL requests: known when the tests are
# collected, from the URL configuration alone, and the same in every worker.
MATRIX_ROWS = list(dict.fromkeys((key, method) for key, _name in requested_urls() for method in METHODS))


def answer(client: Client, method: str, path: str, data: dict, headers: dict) -> str:
    wrote: list[str] = []

    def watch(execute, sql, params, many, context):
        if WRITE.match(sql) and not any(table in sql for table in NOT_GAME_TABLES):
            wrote.append(sql)
        return execute(sql, params, many, context)

    cookies = copy.deepcopy(client.cookies)  # logging out or in would change who the next request is
    with transaction.atomic(), connection.execute_wrapper(watch):
        response = client.get(path, **headers) if method == "GET" else client.post(path, data, **headers)
        transaction.set_rollback(True)
    client.cookies = cookies
    return f"{response.status_code}{'+w' if wrote else ''}"


def test_every_url_has_a_row_in_the_table():
    """A URL added without saying who may use it fails here, naming the rows to add."""
    table = read_table()
    missing = sorted(
        {(table_key(name, route), method) for name, route, _ in url_patterns() for method in METHODS} - table.keys()
    )
    assert not missing, (
        f"Add rows to {TABLE.name} for these URLs (one per method, the expected answer for each role): "
        + ", ".join(f"{key} {method}" for key, method in missing)
    )
    known = {table_key(name, route) for name, route, _ in url_patterns()}
    stale = sorted(key for key, _ in table if key not in known)
    assert not stale, f"{TABLE.name} has rows for URLs that no longer exist: {stale}"


@pytest.fixture(scope="module")
def observations() -> Iterator[dict[tuple[str, str], dict[str, set[str]]]]:
    """The answers every case saw, written out at the end for ``PERMISSIONS_OBSERVED=FILE``."""
    target = os.environ.get("PERMISSIONS_OBSERVED")
    if target and os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.fail("PERMISSIONS_OBSERVED writes every case's answers from one process: run with -n 0")
    observed: dict[tuple[str, str], dict[str, set[str]]] = {}
    yield observed
    if target:
        with open(target, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["url", "method", *ROLES])
            for (key, method), answers in sorted(observed.items()):
                writer.writerow([key, method, *("|".join(sorted(answers[role])) for role in ROLES)])


# The marker makes pytest-django create the test database even when this module runs alone.
@pytest.mark.django_db
@pytest.mark.parametrize(("key", "method"), [pytest.param(*row, id=" ".join(row)) for row in MATRIX_ROWS])
def test_every_role_gets_the_answer_the_table_gives(key, method, game, db_access, observations):
    """Each URL × method × role answers as the table says: status, and whether anything was written."""
    built, clients = game
    answers: dict[str, set[str]] = {role: set() for role in ROLES}
    data = built.data.get(key, {}) if method == "POST" else {}
    for row_key, row_method, path, headers in requests_to_make(built):
        if (row_key, row_method) == (key, method):
            for role in ROLES:
                answers[role].add(answer(clients[role], method, path, data, headers))
    observations[(key, method)] = answers
    expected = read_table().get((key, method))
    if expected is None:
        return  # reported by test_every_url_has_a_row_in_the_table
    wrong = [
        f"{key} {method} as {role}: expected {expected[role]}, got {'|'.join(sorted(answers[role]))}"
        for role in ROLES
        if answers[role] != {expected[role]}
    ]
    assert not wrong, f"{len(wrong)} of {len(ROLES)} answers differ from {TABLE.name}:\n" + "\n".join(wrong)
