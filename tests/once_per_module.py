"""A game built once for all the tests of a module, as Django's ``TestCase.setUpTestData`` builds one per class.

A module of a hundred parametrised cases that each built the same game through the real services (the GNDT's
columns and rows, a ruleset, players) spent most of its time building it. Here the game is built inside a
transaction held open while the module runs; each test's own transaction (pytest-django's, for the ``db``
fixture) is then a savepoint inside it, rolled back when the test ends, so every test starts from the game as
built; the module's transaction is rolled back after its last test. Each test is given its own deep copy of
the built objects, as ``setUpTestData`` does, so what one test changes on them in memory no other test sees.

Not for a module with tests that commit (``transaction=True``, a live server): their transaction would be the
module's.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from django.db import transaction

from tests.isolation import as_in_a_test

Built = TypeVar("Built")


def built_once_per_module(build: Callable[[], Built]):
    """A module-scoped fixture holding what ``build()`` made, and rolling it back after the module's last test.
    Tests ask for it through a fixture of their own that requests ``db`` and returns ``fresh_copy(built)``.

    Once made, the game is in the database of every later test of the module, whether it asked or not; so every
    test of the module must use it (``pytest.mark.usefixtures`` on the module), or the fixture fails, naming
    those that do not: a test that does not know of the game would otherwise pass or fail by the order."""

    @pytest.fixture(scope="module")
    def fixture(request, django_db_setup, django_db_blocker) -> Iterator[Built]:
        outside = not_using(request.fixturename, request.module, request.session.items)
        if outside:
            pytest.fail(
                f"every test of {request.module.__name__} runs inside its shared game's transaction once a test "
                f"has asked for it, so each must see it whatever the order: mark the module with "
                f"pytest.mark.usefixtures({request.fixturename!r}), or move these elsewhere: {', '.join(outside)}"
            )
        with as_in_a_test(), django_db_blocker.unblock(), transaction.atomic():
            yield build()
            transaction.set_rollback(True)

    return fixture


def fresh_copy(built: Built) -> Built:
    """The built objects as they were built, for one test: a deep copy, as the database's rows are."""
    return copy.deepcopy(built)


def not_using(fixture: str, module, items) -> list[str]:
    """The tests of ``module`` among ``items`` that do not ask for ``fixture``, directly or through another."""
    return [item.name for item in items if getattr(item, "module", None) is module and fixture not in item.fixturenames]


def made_once_per_module(make: Callable[[], Built]):
    """A module-scoped fixture holding plain data that ``make()`` works out from a game it builds (an archive
    exported from it, say), the game rolled back at once: nothing is left in the database, so unlike
    ``built_once_per_module`` the module's tests need not all use it. Tests take a ``fresh_copy`` to change."""

    @pytest.fixture(scope="module")
    def fixture(django_db_setup, django_db_blocker) -> Built:
        with as_in_a_test(), django_db_blocker.unblock(), transaction.atomic():
            made = make()
            transaction.set_rollback(True)
        return made

    return fixture
