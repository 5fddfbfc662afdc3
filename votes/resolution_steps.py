"""The steps of resolving a matter, in order, the checks that may stop Enact being offered, and the reader of a
dynasty's GNDT values that a dynasty's own kinds of matter filter voters by.

Resolving a matter writes to layers above this one (the Ruleset, the GNDT, the next dynasty), which votes
never imports. So votes runs a sequence the site installs when it starts: each step named, each with the
condition under which it runs, all inside the resolution's transaction. The whole sequence is listed in one
place, ``blognomic/enactment.py``; ``votes.services.matter_resolve`` runs it.

A step that cannot carry out its part raises ``EnactmentRefused``: the transaction keeps nothing and the
admin is shown the message.

This is the one way votes asks a higher layer for anything: typed callables the site installs, never a signal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from django.core.exceptions import ImproperlyConfigured

from votes.matter_kind_rules import NO_GNDT, GameValues
from votes.models import AMENDABLE_KINDS, Kind, Outcome

if TYPE_CHECKING:
    from dynasties.models import User
    from votes.effects import CellDelta
    from votes.engine import Tally
    from votes.models import Post, Resolution

NOT_INSTALLED = "No resolution steps are installed; the site installs them when it starts (blognomic/enactment.py)."


class EnactmentRefused(Exception):
    """A step could not carry out the resolution; nothing of it is kept and the message is shown to the admin."""


@dataclass
class Resolving:
    """A matter being resolved, locked, as every step sees it. ``resolution`` is filled by the step that
    records it, for the steps after."""

    post: Post
    outcome: str
    by: User | None  # the admin, or None for the system
    tally: Tally
    note: str  # what the admin field and the resolution record say
    now: datetime
    apply_amendment: bool = True  # False when the admin chose to enact without applying the post's amendment
    deltas: Sequence[CellDelta] = ()  # the GNDT changes the dynasty's effects of resolving make
    resolution: Resolution | None = None


def always(resolving: Resolving) -> bool:
    return True


def declaration_enacted(resolving: Resolving) -> bool:
    return resolving.post.kind == Kind.DOV and resolving.outcome == Outcome.ENACTED


def amendable_matter_enacted(resolving: Resolving) -> bool:
    return resolving.post.kind in AMENDABLE_KINDS and resolving.outcome == Outcome.ENACTED


def effects_due(resolving: Resolving) -> bool:
    return bool(resolving.deltas)


@dataclass(frozen=True)
class ResolutionStep:
    """One step of resolving a matter: what it does, in words, and when it runs."""

    name: str
    run: Callable[[Resolving], object]
    when: Callable[[Resolving], bool] = always


@dataclass(frozen=True)
class EnactmentObstacle:
    """Something that may make enacting a matter do less than it says (an amendment that no longer applies).

    ``find`` is given ``posts`` (pending matters whose votes allow enacting them now) and ``now``, and returns
    post id → a reason anyone may read (it names no secret). Pages and jobs then offer Enact only where it
    will succeed, and enacting without the amendment where that is what remains.
    """

    name: str
    find: Callable[..., dict[int, str]]


class GameValuesReader(Protocol):
    """Reads a dynasty's GNDT as a kind of matter's electorate filter sees it, now (``at`` None) or as it stood
    ``at``: every column in use with its kind and whether it is hidden, and each player's visible values."""

    def __call__(self, dynasty_id: int, *, at: datetime | None = None) -> GameValues: ...


def _no_gndt(dynasty_id: int, *, at: datetime | None = None) -> GameValues:
    return NO_GNDT


_steps: list[ResolutionStep] = []
_obstacles: list[EnactmentObstacle] = []
_game_values: list[GameValuesReader] = [_no_gndt]


def install(
    *,
    steps: Sequence[ResolutionStep],
    obstacles: Sequence[EnactmentObstacle],
    game_values: GameValuesReader,
) -> None:
    """Make ``steps`` what resolving a matter does, in this order, ``obstacles`` what may stop Enact, and
    ``game_values`` what reads a dynasty's GNDT for its kinds of matter (until installed: there is no GNDT)."""
    _steps[:] = steps
    _obstacles[:] = obstacles
    _game_values[:] = [game_values]


def installed_game_values() -> GameValuesReader:
    return _game_values[0]


def game_values(dynasty_id: int, *, at: datetime | None = None) -> GameValues:
    """The dynasty's GNDT values as the installed reader gives them."""
    return _game_values[0](dynasty_id, at=at)


def installed_steps() -> tuple[ResolutionStep, ...]:
    return tuple(_steps)


def installed_obstacles() -> tuple[EnactmentObstacle, ...]:
    return tuple(_obstacles)


def carry_out(resolving: Resolving) -> None:
    """Run every installed step whose condition holds, in order, in the caller's transaction."""
    if not _steps:
        raise ImproperlyConfigured(NOT_INSTALLED)
    for step in _steps:
        if step.when(resolving):
            step.run(resolving)


def obstacles_to_enacting(posts: Sequence[Post], *, now: datetime) -> dict[int, str]:
    """Why enacting each of ``posts`` would not carry out all it says: the first reason any check gives."""
    found: dict[int, str] = {}
    if not posts:
        return found
    for obstacle in _obstacles:
        for post_id, reason in obstacle.find(posts=list(posts), now=now).items():
            found.setdefault(post_id, reason)
    return found
