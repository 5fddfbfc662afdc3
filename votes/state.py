"""The state of the game that every page and service reads: the roster, quorum, pending matters, hiatus."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from dynasties.hiatus import Hiatus, hiatus_at
from dynasties.models import Dynasty, Game, User
from dynasties.selectors import Roster, roster_at
from votes import horizon
from votes.engine import quorum
from votes.models import Kind, Post


@dataclass(frozen=True)
class PendingAge:
    post: Post
    hours: float

    @property
    def old(self) -> bool:
        return self.hours > OLD_PENDING_HOURS


OLD_PENDING_HOURS = 48


@dataclass
class GameState:
    game: Game
    dynasty: Dynasty | None
    roster: Roster
    pending: list[Post]
    hiatus: Hiatus | None
    now: datetime

    @property
    def pending_ages(self) -> list[PendingAge]:
        horizon.note((post.posted_at + timedelta(hours=OLD_PENDING_HOURS) for post in self.pending), now=self.now)
        return [PendingAge(post, post.open_hours(self.now)) for post in self.pending]

    @property
    def quorum(self) -> int:
        return quorum(len(self.roster.active))

    @property
    def player_term(self) -> str:
        return self.dynasty.player_term if self.dynasty else "Player"

    @property
    def players_term(self) -> str:
        return self.dynasty.players_term if self.dynasty else "Players"

    @property
    def emperor_term(self) -> str:
        return self.dynasty.emperor_term if self.dynasty else "Emperor"

    @property
    def emperor(self) -> User | None:
        return self.dynasty.emperor if self.dynasty else None


def game_state(now: datetime) -> GameState:
    game = Game.load()
    dynasty = Dynasty.objects.current()
    pending = list(Post.objects.pending().select_related("author", "matter_kind").order_by("posted_at", "pk"))
    pending_dov = any(post.kind == Kind.DOV for post in pending)
    hiatus = hiatus_at(
        profile=game.rules_profile(),
        now=now,
        pending_dov=pending_dov,
        awaiting_ascension=bool(dynasty and dynasty.awaiting_ascension),
    )
    return GameState(game=game, dynasty=dynasty, roster=roster_at(now), pending=pending, hiatus=hiatus, now=now)
