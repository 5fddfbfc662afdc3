"""Properties of the archive importer (``blognomic.archive``) over damaged archives.

A whole game is built through the services and exported; each example damages one field of that export
(a NUL byte in a text, or any JSON value in place of any field) and imports it into an empty database. The
import either succeeds or is refused with an ``ArchiveError`` naming the field's path, and a refused import
writes nothing at all.
"""

from __future__ import annotations

import copy
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blognomic.archive import ArchiveError, export_archive, import_archive
from ruleset.models import Page
from ruleset.services import page_create, revision_add
from tests.factories import make_proposal, vote
from tests.gndt.builders import make_gndt, update
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

GAME_APPS = ("dynasties", "blognomic", "votes", "ruleset", "gndt")
DB_SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def archive(t0) -> dict:
    """The export of a small game (players, a dynasty, a resolved proposal with votes, a story, the GNDT with
    an update, the Ruleset with two revisions); the database is left empty again."""
    with transaction.atomic():
        game = make_gndt(t0)
        update(game, game.player("P03"), {("P03", "Money"): "250", ("P03", "Items"): "Rope"},
               now=t0 + timedelta(minutes=5), comment="Bought rope DICE6")
        proposal = make_proposal(game.player("P03"), at=t0, title="Proposal: Lanterns", body="Add *lanterns*.")
        for name in ("P04", "P05"):
            vote(proposal, game.player(name), "for", at=t0 + timedelta(hours=1), text="Bright.")
        matter_resolve(post=proposal, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
        make_proposal(game.player("P04"), at=t0 + timedelta(hours=14), title="Proposal: Fog")
        page = page_create(title="Ruleset", kind=Page.RULESET, author=game.admin, now=t0, slug="ruleset",
                           text="== Core ==\n=== Lamps ===\nLamps shine.", summary="Start")
        revision_add(page=page, author=game.admin, text="== Core ==\n=== Lamps ===\nLamps glow.", summary="Glow",
                     now=t0 + timedelta(hours=14), post=proposal)
        exported = export_archive()
        transaction.set_rollback(True)
    assert not any(counts().values()), "the fixture leaves the database empty"
    return exported


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for label in GAME_APPS
            for model in apps.get_app_config(label).get_models()}


def leaves(value, path: str = "") -> list[tuple[str, tuple]]:
    """Every field of a JSON document as (path as the importer names it, keys to reach it)."""
    found = [(path, ())] if path else []
    if isinstance(value, dict):
        for key, child in value.items():
            child_path = f"{path}.{key}" if path else key
            found += [(p, (key, *keys)) for p, keys in leaves(child, child_path)]
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += [(p, (index, *keys)) for p, keys in leaves(child, f"{path}[{index}]")]
    return found


def replaced(document: dict, keys: tuple, new) -> dict:
    damaged = copy.deepcopy(document)
    parent = damaged
    for key in keys[:-1]:
        parent = parent[key]
    parent[keys[-1]] = new
    return damaged


def get(document, keys: tuple):
    for key in keys:
        document = document[key]
    return document


_STEP = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


def names_a_place_in(path: str, document) -> bool:
    """Whether ``path`` leads into ``document``; its last step may be missing (a required field left out)."""
    steps = [int(index) if index else key for index, key in _STEP.findall(path)]
    node = document
    for position, step in enumerate(steps):
        last = position == len(steps) - 1
        if isinstance(step, int) and isinstance(node, list) and step < len(node):
            node = node[step]
        elif isinstance(step, str) and isinstance(node, dict) and step in node:
            node = node[step]
        elif not last:
            return False
    return True


def within(error_path: str, field_path: str) -> bool:
    """The error names the field itself or a field around it (``posts[1]`` for ``posts[1].title``)."""
    return error_path == field_path or field_path.startswith((error_path + ".", error_path + "["))


def attempt(damaged: dict) -> ArchiveError | None:
    """Import ``damaged`` into the empty database; a refusal must leave every table as it was."""
    with transaction.atomic():
        before = counts()
        try:
            import_archive(damaged)
        except ArchiveError as error:
            assert counts() == before, f"half-imported before refusing: {error}"
            transaction.set_rollback(True)
            return error
        transaction.set_rollback(True)
    return None


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
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True),
    st.sampled_from(["", " ", "0001-01-01T00:00+14:00", "9999-12-31T23:59-14:00", "2016-07-25T12:00:00",
                     "not a time", "\ud800", "²", "-1", "for", "proposal", "P01", "Nobody", "x" * 400]),
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
