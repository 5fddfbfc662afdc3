"""The permission matrix: every URL of the site × GET and POST (and, for the API, the same with each role's own
token instead of its cookie) × every role, against one written table.

The expected answers are in ``tests/permissions.csv``, one row per URL name and method, one column per role:
a status code, with ``+w`` when the request wrote to the database. A URL with no row fails the test, with a
message saying to add one. ``PERMISSIONS_OBSERVED=FILE`` writes the answers this run saw, in the table's
format, as a starting point for new rows (each to be checked by hand, not copied blindly); it needs every
case in one process (``-n 0``).

The requests are the site's one sweep (``tests/site_sweep.py``): every request in a savepoint that is rolled
back, so all of them see the same game, made once per process with the secrets canary and reads-don't-write.
Each row of the table (a URL name and a method) is a case of its own, reading that row's answers; one row
run alone still waits for the whole sweep (about two minutes).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator

import pytest
from django.urls import NoReverseMatch, reverse

from tests.permissions import ROLES, TABLE, methods_for, read_table, table_key, url_patterns

# The sweep is made once per process that runs one of its tests: kept on one worker, it is made once.
pytestmark = pytest.mark.xdist_group("site-sweep")


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


# The cases of the matrix, one per row of the table that some URL requests: known when the tests are
# collected, from the URL configuration alone, and the same in every worker.
MATRIX_ROWS = list(dict.fromkeys((key, method) for key, _name in requested_urls() for method in methods_for(key)))


def test_every_url_has_a_row_in_the_table():
    """A URL added without saying who may use it fails here, naming the rows to add."""
    table = read_table()
    missing = sorted(
        {
            (table_key(name, route), method)
            for name, route, _ in url_patterns()
            for method in methods_for(table_key(name, route))
        }
        - table.keys()
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


# The marker makes pytest-django create the test database even when this module runs alone, and runs each case
# on both databases' runs.
@pytest.mark.django_db
@pytest.mark.parametrize(("key", "method"), [pytest.param(*row, id=" ".join(row)) for row in MATRIX_ROWS])
def test_every_role_gets_the_answer_the_table_gives(key, method, site_sweep, observations):
    """Each URL × method × role answers as the table says: status, and whether anything was written."""
    answers = site_sweep.matrix(key, method)
    assert all(answers.values()), f"the sweep made no request of {key} {method}"
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
