"""The state of the game that every page and service reads: the roster, quorum, pending matters, hiatus."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dynasties.clock import moment_plus
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

    @property
    def old_note(self) -> str:
        """Why an old matter is marked, in words beside it: its colour alone would tell no one who cannot
        see it, and a tooltip no one on a phone."""
        return f"pending over {OLD_PENDING_HOURS} hours" if self.old else ""


OLD_PENDING_HOURS = 48


@dataclass
class GameState:
    game: Game
    dynasty: Dynasty | None
    roster: Roster
    pending: list[Post]
    hiatus: Hiatus | None
    now: datetime
    # The game as it stood at a past moment (``/at/``): its ages are of then, and no time to come changes them.
    past: bool = False

    @property
    def pending_ages(self) -> list[PendingAge]:
        if not self.past:
            horizon.note(
                (moment_plus(post.posted_at, timedelta(hours=OLD_PENDING_HOURS)) for post in self.pending), now=self.now
            )
            # Shown in whole hours, rounded ("13h"): each changes on the half hour of its age.
            horizon.note_ages((post.posted_at for post in self.pending), timedelta(minutes=30), now=self.now)
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
    horizon.note(seasonal_downtime_moments(game.rules_profile(), now=now), now=now)
    return GameState(game=game, dynasty=dynasty, roster=roster_at(now), pending=pending, hiatus=hiatus, now=now)


def seasonal_downtime_moments(profile, *, now: datetime) -> list[datetime]:
    """When seasonal downtime begins and ends this year and next: every page shows whether the game is in
    hiatus, which changes then with no write."""
    if profile.seasonal_downtime is None:
        return []
    (start_month, start_day), (end_month, end_day) = profile.seasonal_downtime
    return [
        datetime(year, month, day, tzinfo=UTC)
        for year in (now.year, now.year + 1)
        for month, day in ((start_month, start_day), (end_month, end_day))
    ]
