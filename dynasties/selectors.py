"""Reads about the roster: who was a player, active or idle, at a moment."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Exists, OuterRef, Q

from dynasties.models import Absence, User


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
