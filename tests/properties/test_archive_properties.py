"""Properties of the archive importer (``blognomic.moving.archive``) over damaged archives.

A whole game is built through the services and exported; each example damages one field of that export
(a NUL byte in a text, or any JSON value in place of any field) and imports it into an empty database. The
import either succeeds or is refused with an ``ArchiveError`` naming the field's path, and a refused import
writes nothing at all.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.properties.archives import attempt, exported_game, get, leaves, names_a_place_in, replaced, within
from tests.properties.profiles import examples

pytestmark = pytest.mark.django_db

DB_SETTINGS = settings(max_examples=examples(30), suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def archive(t0) -> dict:
    return exported_game(t0)


def test_the_undamaged_export_imports(archive):
    """The base of every example is a good archive: any refusal below comes from the damage alone."""
    assert attempt(archive) is None


@DB_SETTINGS
@given(data=st.data())
def test_a_nul_byte_in_any_text_is_refused_naming_the_field(archive, data):
    """A NUL byte anywhere in a text field: refused, the error names that field (or the object holding it),
    and nothing is written."""
    texts = [(path, keys) for path, keys in leaves(archive) if isinstance(get(archive, keys), str)]
    path, keys = data.draw(st.sampled_from(texts), label="field")
    text = get(archive, keys)
    at = data.draw(st.integers(min_value=0, max_value=len(text)), label="position")
    error = attempt(replaced(archive, keys, text[:at] + "\x00" + text[at:]))
    assert error is not None, f"{path}: a NUL byte was accepted"
    assert within(error.path, path), (error.path, path, str(error))


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.sampled_from(
        [
            "",
            " ",
            "0001-01-01T00:00+14:00",
            "9999-12-31T23:59-14:00",
            "2016-07-25T12:00:00",
            "not a time",
            "\ud800",
            "²",
            "-1",
            "for",
            "proposal",
            "P01",
            "Nobody",
            "x" * 400,
        ]
    ),
    st.text(max_size=10),
    st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=3)), max_size=3),
    st.dictionaries(st.text(max_size=5), st.one_of(st.none(), st.integers(), st.text(max_size=3)), max_size=3),
)


@DB_SETTINGS
@given(data=st.data(), value=junk)
def test_any_value_in_any_field_is_imported_or_refused_naming_a_field(archive, data, value):
    """Any JSON value in place of any field (or any object or list): the import succeeds, or an
    ``ArchiveError`` names a field of the damaged archive and nothing is written; never another error."""
    path, keys = data.draw(st.sampled_from(leaves(archive)), label="field")
    damaged = replaced(archive, keys, value)
    error = attempt(damaged)
    if error is not None:
        assert error.path and names_a_place_in(error.path, damaged), (error.path, path, str(error))
        assert str(error).startswith(error.path)


@pytest.fixture
def personal_archive(t0) -> dict:
    return exported_game(t0, personal=True)


@DB_SETTINGS
@given(data=st.data(), value=junk)
def test_any_value_in_any_field_of_messages_seals_amendments_and_decks_is_imported_or_refused(
    personal_archive, data, value
):
    """The same over an archive that also holds a private message, a sealed text, an amendment and a deck's draw,
    the parts a small game's export leaves empty."""
    path, keys = data.draw(st.sampled_from(leaves(personal_archive)), label="field")
    damaged = replaced(personal_archive, keys, value)
    error = attempt(damaged)
    if error is not None:
        assert error.path and names_a_place_in(error.path, damaged), (error.path, path, str(error))
        assert str(error).startswith(error.path)


def test_the_archive_with_personal_parts_imports(personal_archive):
    assert attempt(personal_archive) is None
    assert personal_archive["personal"]["seals"] and personal_archive["amendments"]
    assert any(roll["kind"] == "deck" for entry in personal_archive["gndt"]["log"] for roll in entry["rolls"])
