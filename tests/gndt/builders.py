"""A GNDT built through the real services, shared by the GNDT's service, page and archive tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from dynasties.models import Dynasty, User
from gndt.models import Cell, Update
from gndt.services import gndt_column_add, gndt_row_add, gndt_rows_add_missing_players, gndt_update
from tests.factories import make_table


@dataclass
class Game:
    dynasty: Dynasty
    players: list[User]
    emperor: User
    admin: User
    start: datetime

    def player(self, name: str) -> User:
        return next(user for user in self.players if user.username == name)


def make_gndt(start: datetime, *, n_players: int = 5, profile: str = "2016") -> Game:
    """Players P01 (the Emperor), P02 (an admin) … P0n; columns from the seeds' dynasties; a Pot row.

    Columns: Money (whole number, default 300), Thalers (0..200, clamped, default 200), Pieces (may go
    negative, default 8), Poker Table (Button / Yes / -), Forced Hand (a player or '-'), Items (a list),
    Role (hidden, default Villager).
    """
    players = make_table(n_players, start=start, profile=profile)
    dynasty = Dynasty.objects.get()
    admin = players[1]
    at = start - timedelta(days=29)
    columns = [
        {"name": "Money", "kind": "integer", "default": "300"},
        {"name": "Thalers", "kind": "integer", "minimum": 0, "maximum": 200, "clamp": True, "default": "200"},
        {"name": "Pieces", "kind": "integer", "allow_negative": True, "default": "8"},
        {"name": "Poker Table", "kind": "choice", "choices": ["Button", "Yes", "-"], "default": "-"},
        {"name": "Forced Hand", "kind": "player", "choices": ["-"], "default": "-"},
        {"name": "Items", "kind": "list"},
        {
            "name": "Role",
            "kind": "choice",
            "choices": ["Villager", "Werewolf", "Seer"],
            "default": "Villager",
            "hidden": True,
        },
    ]
    for column in columns:
        gndt_column_add(dynasty=dynasty, by=admin, now=at, **column)
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=at)
    gndt_row_add(dynasty=dynasty, by=admin, now=at, name="The Pot")
    return Game(dynasty=dynasty, players=players, emperor=players[0], admin=admin, start=start)


CALLINGS = ["Baker", "Oracle", "Lycanthrope"]


def add_calling(game: Game, *, at: datetime):
    """A hidden, owner-visible Calling (2008's Werewolves kept each Villager's role secret from the others):
    each player sees their own, the Emperor and the admins see all, a visitor none. Default Baker."""
    return gndt_column_add(
        dynasty=game.dynasty,
        by=game.admin,
        now=at,
        name="Calling",
        kind="choice",
        choices=CALLINGS,
        default=CALLINGS[0],
        hidden=True,
        owner_visible=True,
    )


def value(game: Game | Dynasty, row: str, column: str) -> str:
    dynasty = game.dynasty if isinstance(game, Game) else game
    return Cell.objects.get(row__dynasty=dynasty, row__name=row, column__name=column).value


def current_values(dynasty: Dynasty) -> dict[tuple[str, str], str]:
    return {
        (row, column): cell_value
        for row, column, cell_value in Cell.objects.filter(row__dynasty=dynasty).values_list(
            "row__name", "column__name", "value"
        )
    }


def update(
    game: Game,
    by: User,
    changes: dict[tuple[str, str], str],
    *,
    now: datetime,
    comment: str = "",
    action=None,
) -> Update:
    """An update made the way the page makes it: carrying the values the editor saw in each changed cell."""
    seen = {key: value(game, *key) for key in changes}
    return gndt_update(dynasty=game.dynasty, by=by, changes=changes, seen=seen, comment=comment, action=action, now=now)
