"""Reads about the roster: who was a player, active or idle, at a moment."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Exists, Func, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Lower

from dynasties.models import Absence, User


class Roster:
    """The current players at a moment: the active ones loaded, the idle ones counted.

    A game twenty years old has hundreds of idle players (thousands in a load test), and nearly every page
    needs only the active ones and how many are idle. The idle players themselves are read the first time
    ``idle`` is asked for (one query more, on the few pages that list them), or only those among some
    accounts with ``idle_among``.
    """

    def __init__(self, at: datetime, active: list[User], idle_count: int | None = None) -> None:
        self.moment = at
        self.active = active
        self._idle_count = idle_count
        self._idle: list[User] | None = None

    @property
    def active_names(self) -> frozenset[str]:
        return frozenset(user.username for user in self.active)

    @property
    def idle_count(self) -> int:
        if self._idle_count is None:
            self._idle_count = len(self.idle) if self._idle is not None else _current(self.moment, idle=True).count()
        return self._idle_count

    @property
    def idle(self) -> list[User]:
        if self._idle is None:
            self._idle = list(_current(self.moment, idle=True).order_by(Lower("username"), "username"))
        return self._idle

    def idle_among(self, users: Iterable[User]) -> frozenset[str]:
        """The names of those of ``users`` who were idle players at the moment (one query over them alone)."""
        if self._idle is not None:
            return frozenset(user.username for user in self._idle) & {user.username for user in users}
        ids = {user.pk for user in users}
        if not ids or self._idle_count == 0:
            return frozenset()
        return frozenset(_current(self.moment, idle=True).filter(pk__in=ids).values_list("username", flat=True))


def _current(moment: datetime, *, idle: bool) -> QuerySet[User]:
    """The players at ``moment`` who had not left, idle or active as asked."""
    away = Absence.objects.filter(user=OuterRef("pk"), started_at__lte=moment).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=moment)
    )
    return (
        User.objects.players()
        .filter(joined_at__lte=moment)
        .alias(is_away=Exists(away), is_gone=Exists(away.filter(kind=Absence.LEFT)))
        .filter(is_gone=False, is_away=idle)
    )


def _active_counting_idle(moment: datetime) -> QuerySet[User]:
    """The active players at ``moment`` by name, each carrying the number of idle ones (``idle_count``)."""
    idle_count = Subquery(_current(moment, idle=True).order_by().values(n=Func("pk", function="COUNT"))[:1])
    return _current(moment, idle=False).annotate(idle_count=idle_count).order_by(Lower("username"), "username")


def roster_at(at: datetime) -> Roster:
    """The players at ``at``: the active ones, each with the number of idle ones, in one query."""
    active = list(_active_counting_idle(at))
    # With no one active there is no row to carry the count; it is counted when asked for.
    return Roster(at, active, active[0].idle_count if active else None)
