"""Damaged archives the property tests found getting past the importer's checks: each is refused with an
``ArchiveError`` naming the field, and nothing is written, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest

from blognomic.moving.archive.fields import NOT_FINITE, NUL_IN_TEXT
from dynasties.parsing import BAD_MOMENT, InputError, parse_moment
from tests.factories import T0
from tests.properties.archives import attempt, exported_game, get, leaves, replaced

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(db) -> dict:
    return exported_game(T0)


@pytest.mark.parametrize(
    "path",
    ["players[0].joined_at", "posts[0].comments[0].at", "gndt.columns[0].created_at", "wiki.pages[0].revisions[0].at"],
)
def test_a_time_followed_by_a_nul_byte_is_refused(archive, path):
    """``datetime.fromisoformat`` reads ``2016-07-25T12:00:00Z\\x00anything`` as a good time and drops the
    rest; the archive's times refuse it, naming the field."""
    keys = dict(leaves(archive))[path]
    error = attempt(replaced(archive, keys, get(archive, keys) + "\x00anything"))
    assert error is not None and (error.path, error.message) == (path, NUL_IN_TEXT)


def test_a_moment_typed_with_a_nul_byte_is_refused():
    with pytest.raises(InputError, match="not a date and time") as refused:
        parse_moment("2016-07-26T12:00Z\x00junk")
    assert str(refused.value) == BAD_MOMENT.format(value="2016-07-26T12:00Z\x00junk")


def roll_paths(archive) -> list[str]:
    return [path for path, keys in leaves(archive) if ".rolls[" in path and isinstance(get(archive, keys), str)]


@pytest.mark.parametrize("field", ["text", "token", "kind"])
def test_a_gndt_roll_holding_a_nul_byte_is_refused_naming_it(archive, field):
    """A roll stored with a GNDT update is free-form JSON: PostgreSQL's jsonb failed mid-import on a NUL byte
    ("unsupported Unicode escape sequence") and SQLite stored it."""
    [path] = [path for path in roll_paths(archive) if path.endswith(f".{field}")]
    keys = dict(leaves(archive))[path]
    error = attempt(replaced(archive, keys, get(archive, keys) + "\x00"))
    assert error is not None and (error.path, error.message) == (path, NUL_IN_TEXT)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_or_infinity_in_free_form_json_is_refused(archive, value):
    """JSON has no NaN or Infinity; PostgreSQL's jsonb refuses them mid-import."""
    [tally_path] = [path for path, _ in leaves(archive) if path.startswith("posts[0].resolution.tally.votes.")][:1]
    error = attempt(replaced(archive, dict(leaves(archive))[tally_path], value))
    assert error is not None and (error.path, error.message) == (tally_path, NOT_FINITE)
    [roll_path] = [path for path in roll_paths(archive) if path.endswith(".text")]
    error = attempt(replaced(archive, dict(leaves(archive))[roll_path], value))
    assert error is not None and (error.path, error.message) == (roll_path, NOT_FINITE)
