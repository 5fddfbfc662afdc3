"""The GNDT pages' fixed query counts, on a game of their own: a table of 60 players and a log of 50,000
updates, not the small game of ``tests/test_gndt_pages.py``."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from dynasties.models import Dynasty, User
from gndt.models import Cell, CellChange, Column, Row, Update
from gndt.selectors import log_filter_choices
from tests.factories import make_table
from tests.growth import LINEAR_GROWTH_LIMIT, cpu_seconds
from tests.test_gndt_pages import count_queries, logged_in

pytestmark = pytest.mark.django_db


def build_table(dynasty, users, *, n_columns: int, n_other_rows: int, first: int = 0) -> None:
    """Rows for ``users`` and ``n_other_rows`` rows that are not players, with ``n_columns`` numeric columns
    numbered from ``first``, and every cell filled; inserted in bulk. Existing rows get the new columns too."""
    Column.objects.bulk_create(
        Column(dynasty=dynasty, name=f"Stat {i}", kind="integer", order=i) for i in range(first, first + n_columns)
    )
    existing = Row.objects.filter(dynasty=dynasty).count()
    Row.objects.bulk_create(
        [Row(dynasty=dynasty, user=user, name=user.username, order=existing + i) for i, user in enumerate(users)]
        + [Row(dynasty=dynasty, name=f"Pot {existing + i}", order=100 + existing + i) for i in range(n_other_rows)]
    )
    Cell.objects.bulk_create(
        (
            Cell(row=row, column=column, value=str(row.order + column.order))
            for row in Row.objects.filter(dynasty=dynasty)
            for column in Column.objects.filter(dynasty=dynasty)
        ),
        ignore_conflicts=True,
    )


def build_log(dynasty, user, *, n_updates: int, start) -> None:
    """``n_updates`` logged updates, each changing one cell, inserted in bulk."""
    row = Row.objects.filter(dynasty=dynasty).first()
    column = Column.objects.filter(dynasty=dynasty).first()
    updates = Update.objects.bulk_create(
        (
            Update(
                dynasty=dynasty,
                by=user,
                at=start + timedelta(seconds=i),
                comment=f"update {i}",
                rolls=[{"text": "DICE6: 3"}] if i % 10 == 0 else [],
            )
            for i in range(n_updates)
        ),
        batch_size=5000,
    )
    CellChange.objects.bulk_create(
        (CellChange(update=u, row=row, column=column, old=str(i), new=str(i + 1)) for i, u in enumerate(updates)),
        batch_size=5000,
    )


PAGES = [
    "/gndt/",
    "/gndt/log/",
    "/gndt/log/?page=2",
    "/gndt/log/?by=P02&column=Stat 0&row=P01",
    "/gndt/?at=2016-07-20T00:00Z",
    "/gndt/?sort=Stat 1&dir=desc",
    "/gndt/export.csv",
    "/gndt/edit/",
]


VIEWERS = {"a visitor": None, "a player": "P03", "an admin": "P02"}


def test_table_and_log_pages_use_a_fixed_number_of_queries(t0):
    """A 3x2 table and a 60x20 one cost the same queries; so do a log of 60 updates and one of 50,000; for a
    visitor, a player and an admin (the large game is built once for the three). The log's menu of everyone who
    has updated costs about the same over both logs too: SQLite read the whole log once for each of the 58
    players with no update in it (0.5 to 1.2 s a page, where the 60-update log's took 6 ms)."""
    players = make_table(60, start=t0)
    dynasty = Dynasty.objects.get()
    build_table(dynasty, players[:3], n_columns=2, n_other_rows=0)
    build_log(dynasty, players[1], n_updates=60, start=t0 - timedelta(days=20))
    clients = {viewer: logged_in(name) if name else Client() for viewer, name in VIEWERS.items()}
    pages = {
        viewer: PAGES if name else [page for page in PAGES if "edit" not in page] for viewer, name in VIEWERS.items()
    }

    def counted() -> dict[str, dict[str, int]]:
        with time_machine.travel(t0, tick=False):
            return {
                viewer: {page: count_queries(clients[viewer], page) for page in pages[viewer]} for viewer in VIEWERS
            }

    def menu_seconds() -> dict[str, float]:
        """The CPU seconds of the log's filter menus (everyone who has updated among them) for each viewer,
        the fewest of three tries."""
        viewers = {
            viewer: User.objects.get(username=name) if name else AnonymousUser() for viewer, name in VIEWERS.items()
        }
        return {
            viewer: min(cpu_seconds(lambda user=user: log_filter_choices(dynasty, viewer=user)) for _ in range(3))
            for viewer, user in viewers.items()
        }

    small, small_seconds = counted(), menu_seconds()
    build_table(dynasty, players[3:55], n_columns=18, n_other_rows=5, first=2)
    build_log(dynasty, players[1], n_updates=50_000 - 60, start=t0 - timedelta(days=10))
    assert (Row.objects.count(), Column.objects.count(), Update.objects.count()) == (60, 20, 50_000)
    large, large_seconds = counted(), menu_seconds()
    for viewer in VIEWERS:
        assert small[viewer] == large[viewer], viewer
        print(f"queries for {viewer}:", large[viewer])
        print(f"log menus for {viewer}: {small_seconds[viewer] * 1000:.1f} → {large_seconds[viewer] * 1000:.1f} ms")
        assert large_seconds[viewer] < LINEAR_GROWTH_LIMIT * small_seconds[viewer], viewer
    with time_machine.travel(t0, tick=False):
        html = clients["a visitor"].get("/gndt/log/").content.decode()
    assert "50,000 updates" in html and "Page 1 of 1,000" in html
