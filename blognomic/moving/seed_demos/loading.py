"""Choosing a seed demo from a file name or path, and loading it once into an empty database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction

from blognomic.moving.seed_demos import families, hackers, hunters, saloon, zahndorf
from blognomic.moving.seed_demos.building import SeedDemo, seed_demo_build
from dynasties.models import Dynasty, Game, User
from ruleset.models import Page
from votes.models import Post

DEFAULT_SEED_DIRECTORY = Path("..") / "shared" / "seeds"
"""Where the seed rulesets are looked for, from the project's root, when only a file name is given."""

SEED_DEMOS: dict[str, SeedDemo] = {
    demo.file_name: demo for demo in (families.DEMO, zahndorf.DEMO, saloon.DEMO, hackers.DEMO, hunters.DEMO)
}

UNKNOWN_SEED = "{name} is not a seed with a demo game. The seeds are: {known}."
SEED_MISSING = "Cannot read the seed ruleset {path}: {reason}."
SEED_ELSEWHERE = " If the seeds are elsewhere, give the file's path."
SEED_NOT_TEXT = "{path} is not UTF-8 text; a seed ruleset is a plain-text export of the ruleset page."
OTHER_GAME = (
    "This database already holds a game ({what}); a seed demo is loaded only into an empty database. "
    "Use a fresh database (for example DATABASE_URL=sqlite:///seed.sqlite3) and run the command again."
)
ALREADY_LOADED = "The demo of {file} ({label}) is already loaded; nothing changed."


class SeedDemoError(Exception):
    """The seed could not be chosen or loaded; the message says why and nothing was written."""


@dataclass(frozen=True)
class ChosenSeed:
    demo: SeedDemo
    path: Path
    by_name: bool = False


def known_seeds() -> str:
    return ", ".join(f"{demo.file_name} ({demo.ruleset_label}, {demo.players_term})" for demo in SEED_DEMOS.values())


def seed_choose(argument: str, *, directory: Path | None = None) -> ChosenSeed:
    """The demo for ``argument``, a seed's file name (looked for in ``directory``) or a path to it."""
    argument = (argument or "").strip()
    if "\x00" in argument:
        raise SeedDemoError(UNKNOWN_SEED.format(name=repr(argument), known=known_seeds()))
    given = Path(argument)
    demo = SEED_DEMOS.get(given.name)
    if demo is None:
        raise SeedDemoError(UNKNOWN_SEED.format(name=argument or "''", known=known_seeds()))
    if given.name == argument:
        base = directory if directory is not None else Path(settings.BASE_DIR) / DEFAULT_SEED_DIRECTORY
        path = base / given.name
    else:
        path = given
    return ChosenSeed(demo=demo, path=path, by_name=given.name == argument)


def seed_text(chosen: ChosenSeed) -> str:
    try:
        raw = chosen.path.read_bytes()
    except OSError as error:
        message = SEED_MISSING.format(path=chosen.path, reason=error.strerror or error)
        raise SeedDemoError(message + (SEED_ELSEWHERE if chosen.by_name else "")) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SeedDemoError(SEED_NOT_TEXT.format(path=chosen.path)) from None


def seed_demo_loaded(demo: SeedDemo) -> bool:
    """Whether this seed's demo is already in the database (its dynasty, under its Emperor)."""
    return Dynasty.objects.filter(
        number=demo.dynasty_number, emperor__username=demo.emperor, emperor_term=demo.emperor_term
    ).exists()


def _what_is_there() -> str | None:
    """A short description of the game already in the database, or None when it is empty."""
    counts = [
        (User.objects.count(), "account"),
        (Dynasty.objects.count(), "dynasty"),
        (Post.objects.count(), "post"),
        (Page.objects.count(), "wiki page"),
    ]
    held = [f"{count} {noun if count == 1 else _plural(noun)}" for count, noun in counts if count]
    return ", ".join(held) or None


def _plural(noun: str) -> str:
    return "dynasties" if noun == "dynasty" else f"{noun}s"


def seed_demo_load(chosen: ChosenSeed, *, now: datetime) -> bool:
    """Load the chosen demo; False when it was already loaded (nothing changed).

    Refused with ``OTHER_GAME`` when the database holds anything else, so the demo never mixes with a game.
    """
    text = seed_text(chosen)
    with transaction.atomic():
        # Locking the one Game row serialises two loads started at once: the second waits, then finds the
        # first one's game.
        Game.load()
        Game.objects.select_for_update().get(pk=1)
        if seed_demo_loaded(chosen.demo):
            return False
        what = _what_is_there()
        if what is not None:
            raise SeedDemoError(OTHER_GAME.format(what=what))
        seed_demo_build(chosen.demo, seed_text=text, now=now)
    return True
