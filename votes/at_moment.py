"""The game at a moment: what judges a matter at ``at``, and the one function that judges it.

A matter is judged on its ballots, under the rule parameters in force at ``at`` (``Game.rules_profile(at=…)``),
by the players active then, with the Emperor then and every kind of hiatus then (a pending Declaration of
Victory, a dynasty awaiting its Ascension Address, seasonal downtime). The live tally box, the resolving
service, the game at a past moment (``/at/``), the ``tally`` command and the importers all judge through
``judge_at``, so a past page judges as the live page judged at that moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dynasties.hiatus import Hiatus, hiatus_at
from dynasties.models import Dynasty, Game, User
from dynasties.profiles import Profile
from votes import engine, matter_kind_rules
from votes.engine_inputs import electorate_of, matter_of_ballots
from votes.matter_kind_services import ValuesCache, electorate_for_post
from votes.models import Kind, Post
from votes.selectors import pending_at
from votes.state import GameState


@dataclass(frozen=True)
class Basis:
    """What judges every matter at ``at``: the rules then and the core electorate then (with its hiatus)."""

    at: datetime
    profile: Profile
    electorate: engine.Electorate
    hiatus: Hiatus | None
    past: bool = True  # False for the game as it stands, whose GNDT is read as it is


def awaiting_ascension_at(dynasty: Dynasty | None, *, at: datetime) -> bool:
    """Whether ``dynasty`` (the one running at ``at``) was begun by a Declaration and had no Ascension Address
    by then."""
    if dynasty is None or dynasty.declaration_id is None:
        return False
    return dynasty.ascended_at is None or dynasty.ascended_at > at


def basis_at(*, at: datetime, game: Game, dynasty: Dynasty | None, active: frozenset[str], pending_dov: bool) -> Basis:
    """The basis from what was read of the moment: the rules then, and hiatus of every kind as the live
    state counts it (``votes.state.game_state``)."""
    profile = game.rules_profile(at=at)
    hiatus = hiatus_at(
        profile=profile, now=at, pending_dov=pending_dov, awaiting_ascension=awaiting_ascension_at(dynasty, at=at)
    )
    emperor = dynasty.emperor.username if dynasty and dynasty.emperor else None
    electorate = engine.Electorate(active=active, emperor=emperor, hiatus=hiatus is not None)
    return Basis(at=at, profile=profile, electorate=electorate, hiatus=hiatus)


def read_basis_at(at: datetime, *, game: Game | None = None) -> Basis:
    """The basis at ``at``, read from the records: who was active, the dynasty then, any Declaration pending."""
    return basis_at(
        at=at,
        game=game or Game.load(),
        dynasty=Dynasty.objects.at(at),
        active=frozenset(User.objects.active_at(at).values_list("username", flat=True)),
        pending_dov=bool(pending_at(at, kinds=(Kind.DOV,))),
    )


def basis_of(state: GameState, *, at: datetime | None = None) -> Basis:
    """The basis of the game as it stands, judged at ``at`` (``state.now`` by default): ``state`` was read with
    its roster and hiatus of every kind (``votes.state.game_state``)."""
    return Basis(
        at=at or state.now,
        profile=state.game.rules_profile(),
        electorate=electorate_of(state),
        hiatus=state.hiatus,
        past=False,
    )


def judge_at(
    post: Post, ballots: tuple[engine.Ballot, ...], *, basis: Basis, cache: ValuesCache | None = None
) -> tuple[engine.Judgement, engine.Electorate, matter_kind_rules.KindSpec | None]:
    """Judge ``post`` on ``ballots`` at ``basis.at``: its judgement, who may vote on it (a dynasty's own kind of
    matter has its own electorate, read from the GNDT as it stood) and that kind, if any."""
    # The live game reads the GNDT as it is; a past moment reads it as it stood then.
    electorate, spec = electorate_for_post(post, basis.electorate, at=basis.at if basis.past else None, cache=cache)
    judgement = engine.judge(
        matter_of_ballots(post, ballots), electorate=electorate, profile=basis.profile, now=basis.at, kind=spec
    )
    return judgement, electorate, spec
