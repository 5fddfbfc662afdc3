"""Reads about the roster, the current dynasty and the state of the game, shared by every page."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Exists, OuterRef, Q

from dynasties.hiatus import Hiatus, hiatus_at
from dynasties.models import Absence, Dynasty, Game, User
from votes.engine import quorum
from votes.models import Kind, Post


@dataclass
class Roster:
    active: list[User] = field(default_factory=list)
    idle: list[User] = field(default_factory=list)

    @property
    def active_names(self) -> frozenset[str]:
        return frozenset(user.username for user in self.active)


def roster_at(moment: datetime) -> Roster:
    """Every current player, split into active and idle, in one query."""
    away = Absence.objects.filter(user=OuterRef("pk"), started_at__lte=moment).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=moment)
    )
    gone = away.filter(kind=Absence.LEFT)
    users = (
        User.objects.players()
        .filter(joined_at__lte=moment)
        .annotate(is_away=Exists(away), is_gone=Exists(gone))
        .filter(is_gone=False)
        .order_by("username")
    )
    roster = Roster()
    for user in users:
        (roster.idle if user.is_away else roster.active).append(user)
    return roster


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
    pending = list(Post.objects.pending().select_related("author").order_by("posted_at", "pk"))
    pending_dov = any(post.kind == Kind.DOV for post in pending)
    hiatus = hiatus_at(
        profile=game.rules_profile(),
        now=now,
        pending_dov=pending_dov,
        awaiting_ascension=bool(dynasty and dynasty.awaiting_ascension),
    )
    return GameState(game=game, dynasty=dynasty, roster=roster_at(now), pending=pending, hiatus=hiatus, now=now)




def dynasty_history(dynasty: Dynasty) -> dict:
    """What the dynasty's history page shows: its players then, its big posts, its final ruleset."""
    from django.utils import timezone

    from ruleset.models import Page

    end = dynasty.ended_at or timezone.now()
    posts = Post.objects.filter(dynasty=dynasty).select_related("author")
    return {
        "players_at_start": list(User.objects.active_at(dynasty.started_at).values_list("username", flat=True)),
        "players_at_end": list(User.objects.active_at(end).values_list("username", flat=True)),
        "snapshot": Page.objects.filter(title=f"Ruleset {dynasty.number}").first(),
        "posts_of_interest": list(
            posts.filter(kind__in=[Kind.DOV, Kind.CFJ, Kind.ASCENSION, Kind.STORY]).order_by("posted_at")
        ),
        "proposal_counts": {
            "enacted": posts.filter(kind=Kind.PROPOSAL, status="enacted").count(),
            "failed": posts.filter(kind=Kind.PROPOSAL, status="failed").count(),
            "pending": posts.filter(kind=Kind.PROPOSAL, status="pending").count(),
        },
    }
