"""A game built once for a module: each test starts from it as built, whatever an earlier test wrote to the
database or changed on the built objects in memory; and a module whose tests do not all use it is refused."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from dynasties.models import User
from tests.factories import T0, make_player
from tests.once_per_module import built_once_per_module, fresh_copy, not_using

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shared_player")]

shared_player = built_once_per_module(lambda: make_player("Alma", joined_at=T0))


@pytest.fixture
def alma(shared_player, db) -> User:
    return fresh_copy(shared_player)


@pytest.mark.parametrize("turn", ["first", "second"])
def test_each_test_starts_from_the_game_as_built(alma, turn):
    """Run twice: what the first turn writes and changes, the second must not see."""
    assert list(User.objects.values_list("username", "is_admin")) == [("Alma", False)]
    assert alma.is_admin is False
    alma.is_admin = True
    alma.save()
    make_player("Boris", joined_at=T0)


def test_the_built_objects_are_copied_for_each_test(alma, shared_player):
    assert alma == shared_player and alma is not shared_player


def test_a_test_that_does_not_ask_for_the_game_is_named():
    here, elsewhere = SimpleNamespace(), SimpleNamespace()
    items = [
        SimpleNamespace(name="asks", module=here, fixturenames=["db", "shared_player"]),
        SimpleNamespace(name="does_not", module=here, fixturenames=["db"]),
        SimpleNamespace(name="another_module", module=elsewhere, fixturenames=[]),
        SimpleNamespace(name="a_doctest_without_a_module", fixturenames=[]),
    ]
    assert not_using("shared_player", here, items) == ["does_not"]
