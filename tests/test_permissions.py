"""The permission matrix: every URL of the site × GET and POST × every role, against one written table.

The expected answers are in ``tests/permissions.csv``, one row per URL name and method, one column per role:
a status code, with ``+w`` when the request wrote to the database. A URL with no row fails the test, with a
message saying to add one. ``PERMISSIONS_OBSERVED=FILE`` writes the answers this run saw, in the table's
format, as a starting point for new rows (each to be checked by hand, not copied blindly).

Every request runs in a savepoint that is rolled back, so all of them see the same game, built once.
"""

from __future__ import annotations

import copy
import csv
import os
import re
from collections.abc import Iterator

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from tests.permissions import (
    APPLICANT_ADDRESS,
    METHODS,
    ROLES,
    TABLE,
    build_game,
    read_table,
    table_key,
    url_patterns,
)

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
# Writes that are not the endpoint's doing: sessions (messages, login) and the login limiter's records.
NOT_GAME_TABLES = ("django_session", "axes_")


@pytest.fixture(scope="module")
def game(django_db_setup, django_db_blocker):
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with fast, django_db_blocker.unblock(), transaction.atomic():
        built = build_game(timezone.now())
        clients = {}
        for role in ROLES:
            # A view's exception is an answer like any other (a 500 in the table is a bug to fix).
            client = Client(REMOTE_ADDR=APPLICANT_ADDRESS if role == "applicant" else "198.51.100.7",
                            raise_request_exception=False)
            if built.users[role] is not None:
                client.force_login(built.users[role])
            clients[role] = client
        yield built, clients
        transaction.set_rollback(True)


@pytest.fixture
def db_access(django_db_blocker):
    with django_db_blocker.unblock():
        yield


def requests_to_make(game) -> Iterator[tuple[str, str, str, dict]]:
    """(table key, method, path) for every URL pattern that can be requested (Django's admin: those
    without arguments)."""
    for name, route, _pattern in url_patterns():
        key = table_key(name, route)
        if key.startswith("admin:"):
            try:
                path = reverse(name) if name else None
            except NoReverseMatch:  # the admin's URLs that need an object id share the "admin:*" row
                path = None
            if path is None:
                continue
        else:
            path = reverse(name, kwargs=game.args.get(name, {})) + game.queries.get(name, "")
        for method in METHODS:
            yield key, method, path, game.headers.get(key, {})


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
    missing = sorted({(table_key(name, route), method) for name, route, _ in url_patterns() for method in METHODS}
                     - table.keys())
    assert not missing, (
        f"Add rows to {TABLE.name} for these URLs (one per method, the expected answer for each role): "
        + ", ".join(f"{key} {method}" for key, method in missing)
    )
    known = {table_key(name, route) for name, route, _ in url_patterns()}
    stale = sorted(key for key, _ in table if key not in known)
    assert not stale, f"{TABLE.name} has rows for URLs that no longer exist: {stale}"


# The marker makes pytest-django create the test database even when this module runs alone.
@pytest.mark.django_db
def test_every_role_gets_the_answer_the_table_gives(game, db_access):
    """Each URL × method × role answers as the table says: status, and whether anything was written."""
    built, clients = game
    table = read_table()
    observed: dict[tuple[str, str], dict[str, set[str]]] = {}
    for key, method, path, headers in requests_to_make(built):
        data = built.data.get(key, {}) if method == "POST" else {}
        for role in ROLES:
            observed.setdefault((key, method), {}).setdefault(role, set()).add(
                answer(clients[role], method, path, data, headers))
    if os.environ.get("PERMISSIONS_OBSERVED"):
        with open(os.environ["PERMISSIONS_OBSERVED"], "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["url", "method", *ROLES])
            for (key, method), answers in sorted(observed.items()):
                writer.writerow([key, method, *("|".join(sorted(answers[role])) for role in ROLES)])
    wrong = []
    for (key, method), answers in sorted(observed.items()):
        expected = table.get((key, method))
        if expected is None:
            continue  # reported by test_every_url_has_a_row_in_the_table
        for role in ROLES:
            if answers[role] != {expected[role]}:
                wrong.append(f"{key} {method} as {role}: expected {expected[role]}, got "
                             f"{'|'.join(sorted(answers[role]))}")
    checked = sum(len(answers) for answers in observed.values())
    assert not wrong, f"{len(wrong)} of {checked} answers differ from {TABLE.name}:\n" + "\n".join(wrong)
