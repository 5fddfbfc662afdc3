"""Every object and list of an archive is checked for its kind before any field is read: ``true``, a number, a
string or null where an object or a list belongs is refused naming its path, and nothing is written.

Finding: "an archive whose ``amendments`` is ``true`` raises ``TypeError`` in the importer"
(``tests/properties/test_archive_properties.py`` found it).
"""

from __future__ import annotations

import json
import re

import pytest

from blognomic.moving.archive import ArchiveError, export_archive, import_archive
from blognomic.moving.archive.shapes import ARCHIVE, LIST, MUST_BE_LIST, MUST_BE_OBJECT, MUST_BE_TEXT, OBJECT, TEXT
from dynasties.models import User
from tests.factories import T0
from tests.properties.archives import attempt, counts, exported_game, get, leaves, replaced

pytestmark = pytest.mark.django_db

WRONG_FOR_A_LIST = (True, 0, 2.5, "posts", {})
WRONG_FOR_AN_OBJECT = (True, 0, 2.5, "wiki", [])


@pytest.fixture
def archive(db) -> dict:
    return exported_game(T0)


def test_amendments_that_are_true_are_refused_naming_them(archive):
    """The property test's find: ``"amendments": true`` was a ``TypeError`` (a 500 for whoever imports)."""
    error = attempt({**archive, "amendments": True})
    assert error is not None and (error.path, error.message) == ("amendments", MUST_BE_LIST)


def test_the_check_that_nothing_was_written_sees_one_row_written(archive):
    """``attempt`` trusts ``counts`` to see a half-import: one row more in any game table shows."""
    before = counts()
    User.objects.create(username="Stray")
    after = counts()
    assert after.pop("User") == before.pop("User") + 1
    assert after == before


def containers(archive: dict) -> list[tuple[str, tuple, type]]:
    return [
        (path, keys, type(get(archive, keys)))
        for path, keys in leaves(archive)
        if isinstance(get(archive, keys), (dict, list))
    ]


def test_each_object_or_list_of_an_export_given_a_value_of_another_kind_is_refused_by_its_path(archive):
    """Every object and list of a whole game's export, replaced by each value of another kind (``true``, 0, 2.5, a
    string, a list for an object, an object for a list): refused, naming that very place, and nothing written."""
    places = containers(archive)
    assert len(places) > 100
    for path, keys, kind in places:
        wrong = WRONG_FOR_A_LIST if kind is list else WRONG_FOR_AN_OBJECT
        for value in wrong:
            error = attempt(replaced(archive, keys, value))
            assert error is not None, f"{path} = {value!r} was imported"
            assert error.path == path and error.message in (MUST_BE_LIST, MUST_BE_OBJECT), (path, value, str(error))


def test_a_null_item_of_a_list_is_refused_by_its_path(archive):
    """``"posts": [null]`` leaves out no field: it is an item that is not an object."""
    for path, keys, kind in containers(archive):
        if kind is list and get(archive, keys) and path.rpartition(".")[2] not in ("results", "operations"):
            error = attempt(replaced(archive, (*keys, 0), None))
            assert error is not None, f"{path}[0] = null was imported"
            assert error.path == f"{path}[0]", (path, str(error))


def test_a_word_list_entry_that_is_not_text_is_refused_by_its_path(archive):
    archive["gndt"]["lists"] = [
        {
            "dynasty": None,
            "name": "FRUIT",
            "entries": ["Lemon", 7],
            "removed": False,
            "by": None,
            "at": "2016-07-25T12:00:00Z",
            "note": "",
        }
    ]
    error = attempt(archive)
    assert error is not None and (error.path, error.message) == ("gndt.lists[0].entries[1]", MUST_BE_TEXT)


def test_a_document_that_is_not_an_object_is_refused():
    for document in ([], True, None, "archive", 3):
        with pytest.raises(ArchiveError, match="^The archive must be a JSON object$"):
            import_archive(document)


def _declared(path: str) -> bool:
    """Whether the skeleton gives a kind for ``path`` (indices written ``[]``)."""
    shape = ARCHIVE
    for key, index in re.findall(r"([^.\[\]]+)|(\[\])", path):
        if index:
            if not isinstance(shape, list):
                return shape == LIST
            [shape] = shape
        elif isinstance(shape, dict) and key in shape:
            shape = shape[key]
        else:
            return shape == OBJECT
    return shape not in (TEXT,)


def test_the_skeleton_declares_every_object_and_list_a_rich_export_holds(t0):
    """A field the exporter writes as an object or a list but the skeleton does not know would be read unchecked:
    every one of a rich game's export (personal data, the GNDT, matter kinds, amendments) is declared."""
    from tests.test_archive_round_trip import build_rich_game

    build_rich_game(t0)
    archive = json.loads(json.dumps(export_archive()))
    missing = sorted(
        {
            re.sub(r"\[\d+\]", "[]", path)
            for path, _, _ in containers(archive)
            if not _declared(re.sub(r"\[\d+\]", "[]", path))
        }
    )
    assert not missing


# Found by the explore profile over an archive with an amendment (each crashed the importer with a TypeError or a
# UnicodeEncodeError).


def an_amendment(archive: dict, operations) -> dict:
    archive["amendments"] = [
        {
            "post": "fog",
            "operations": operations,
            "base_ruleset_revision": None,
            "written_at": "2016-07-25T18:00:00Z",
            "applications": [],
        }
    ]
    return archive


@pytest.mark.parametrize(
    "operation",
    [
        {"op": ["rule_repeal"], "rule": "rule-lamps"},
        {"op": "rule_repeal", "rule": ["rule-lamps"]},
        {"op": {"rule_repeal": 1}},
    ],
)
def test_an_operation_naming_its_kind_or_rule_with_a_list_is_refused(archive, operation):
    error = attempt(an_amendment(archive, [operation]))
    assert error is not None and error.path == "amendments[0].operations"
    assert error.message.startswith("Operation 1")


def test_an_operation_holding_a_lone_surrogate_is_refused_naming_it(archive):
    from blognomic.moving.archive.fields import BAD_UNICODE

    error = attempt(an_amendment(archive, [{"op": "rule_repeal", "rule": "rule-\ud800"}]))
    assert error is not None and (error.path, error.message) == ("amendments[0].operations[0].rule", BAD_UNICODE)


def test_an_amendment_with_a_lone_surrogate_is_refused_wherever_it_comes_from():
    from blognomic.flows.amendments.shape import NOT_UNICODE, AmendmentRefused, check_shape

    with pytest.raises(AmendmentRefused) as refused:
        check_shape(["\ud800"])
    assert str(refused.value) == NOT_UNICODE
