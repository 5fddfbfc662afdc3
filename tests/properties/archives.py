"""A game exported to an archive, and tools to damage one field of it and import the result; shared by the
archive's property tests and its regression tests."""

from __future__ import annotations

import copy
import re
from datetime import timedelta

from django.apps import apps
from django.db import connection, transaction

from blognomic.moving.archive import ArchiveError, export_archive, import_archive
from ruleset.models import Page
from ruleset.services import page_create, revision_add
from tests.factories import make_proposal, vote
from tests.gndt.builders import make_gndt, update
from votes.services import matter_resolve

GAME_APPS = ("dynasties", "votes", "ruleset", "gndt", "amendments", "wordpress", "running", "web")
# The page cache's content version is one row the site keeps, not part of any game.
NOT_GAME_STATE = {"ContentVersion"}


def exported_game(t0, *, personal: bool = False) -> dict:
    """The export of a small game (players, a dynasty, a resolved proposal with votes, a pending one, the GNDT with
    an update, the Ruleset with two revisions); with ``personal``, also a private message, a sealed text, an
    amendment and a deck's draw. The database is left empty again."""
    with transaction.atomic():
        game = make_gndt(t0)
        update(
            game,
            game.player("P03"),
            {("P03", "Money"): "250", ("P03", "Items"): "Rope"},
            now=t0 + timedelta(minutes=5),
            comment="Bought rope DICE6",
        )
        proposal = make_proposal(game.player("P03"), at=t0, title="Proposal: Lanterns", body="Add *lanterns*.")
        for name in ("P04", "P05"):
            vote(proposal, game.player(name), "for", at=t0 + timedelta(hours=1), text="Bright.")
        matter_resolve(post=proposal, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
        make_proposal(game.player("P04"), at=t0 + timedelta(hours=14), title="Proposal: Fog")
        page = page_create(
            title="Ruleset",
            kind=Page.RULESET,
            author=game.admin,
            now=t0,
            slug="ruleset",
            text="== Core ==\n=== Lamps ===\nLamps shine.",
            summary="Start",
        )
        revision_add(
            page=page,
            author=game.admin,
            text="== Core ==\n=== Lamps ===\nLamps glow.",
            summary="Glow",
            now=t0 + timedelta(hours=14),
            post=proposal,
        )
        if personal:
            _add_personal_parts(game, t0 + timedelta(hours=15))
        exported = export_archive()
        transaction.set_rollback(True)
    assert not any(counts().values()), "the fixture leaves the database empty"
    return exported


def _add_personal_parts(game, now) -> None:
    from blognomic.community.commitments.services import seal_create
    from blognomic.community.messaging.services import message_send
    from blognomic.flows.amendments.services import post_create_with_amendment, ruleset_base_number

    message_send(sender=game.player("P03"), recipients=["P04"], subject="Lanterns", body="Vote for them?", now=now)
    seal_create(owner=game.player("P04"), title="Hole cards", text="7 of clubs", now=now)
    update(game, game.player("P05"), {}, now=now, comment="HAND#1 2DECK52")
    post_create_with_amendment(
        author=game.player("P05"),
        kind="proposal",
        title="Proposal: Shine",
        body="Lamps shine again.",
        flavour="",
        trivial=False,
        anonymous=False,
        base_number=ruleset_base_number(),
        now=now,
        operations=[{"op": "rule_replace_passage", "rule": "rule-lamps", "old": "glow", "new": "shine"}],
    )


def counts() -> dict[str, int]:
    """The rows of every game table, in one query: a test may ask a thousand times, once per damaged archive."""
    models = [
        model
        for label in GAME_APPS
        for model in apps.get_app_config(label).get_models()
        if model.__name__ not in NOT_GAME_STATE and not model._meta.proxy
    ]
    quote = connection.ops.quote_name
    columns = ", ".join(f"(SELECT COUNT(*) FROM {quote(model._meta.db_table)})" for model in models)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns}")
        row = cursor.fetchone()
    return {model.__name__: count for model, count in zip(models, row, strict=True)}


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
