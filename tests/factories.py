"""Builders for test data that keep related objects consistent and go through the real services."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dynasties.models import Absence, Dynasty, Game, User
from votes.posting import post_create
from votes.services import comment_add

PASSWORD = "test-password"
# The moment most tests' games start (the ``t0`` fixture).
T0 = datetime(2016, 7, 25, 12, 0, tzinfo=UTC)


def make_game(profile: str = "2016") -> Game:
    game = Game.load()
    game.profile = profile
    game.save()
    return game


def make_player(name: str, *, joined_at: datetime, admin: bool = False, password: str = PASSWORD) -> User:
    user = User.objects.create_user(username=name, password=password)
    user.joined_at = joined_at
    user.is_admin = admin
    user.save()
    return user


def make_spectator(name: str) -> User:
    return User.objects.create_user(username=name, password=PASSWORD)


def make_idle(user: User, *, since: datetime) -> Absence:
    return Absence.objects.create(user=user, kind=Absence.IDLE, started_at=since)


def make_dynasty(
    *,
    emperor: User | None,
    started_at: datetime,
    number: int = 1,
    player_term: str = "Player",
    emperor_term: str = "Emperor",
) -> Dynasty:
    return Dynasty.objects.create(
        number=number, emperor=emperor, started_at=started_at, player_term=player_term, emperor_term=emperor_term
    )


def make_table(
    n_players: int,
    *,
    start: datetime,
    profile: str = "2016",
    emperor_index: int | None = 0,
    admins: tuple[int, ...] = (1,),
) -> list[User]:
    """A game with ``n_players`` players named P01…, a dynasty, and the given admins and Emperor."""
    make_game(profile)
    players = [
        make_player(f"P{i + 1:02d}", joined_at=start - timedelta(days=30), admin=i in admins) for i in range(n_players)
    ]
    make_dynasty(
        emperor=players[emperor_index] if emperor_index is not None else None, started_at=start - timedelta(days=30)
    )
    return players


def make_proposal(author: User, *, at: datetime, title: str = "Proposal: Something", **kwargs):
    return post_create(
        author=author, kind="proposal", title=title, body=kwargs.pop("body", "Do a thing."), now=at, **kwargs
    )


def vote(post, user: User, icon: str | None, *, at: datetime, text: str = ""):
    return comment_add(post=post, author=user, icon=icon, text=text, now=at)
