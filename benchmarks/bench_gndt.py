"""Time the GNDT pages on a table of 60 rows and 20 columns with a log of 50,000 updates.

Run from the project root: ``.venv/bin/python benchmarks/bench_gndt.py [--updates 50000] [--repeat 20]``.

Builds the data in bulk in a fresh, migrated SQLite database in a temporary directory (``DATABASE_URL`` is
always replaced, so no other database is touched), then renders each page through Django's test client and
prints the median time, the queries it ran, and the ratio to the bare ``/healthz/`` view measured in the
same run. Also times one update through the service and the table replayed back to before the whole log.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

START = datetime(2016, 7, 25, 12, 0, tzinfo=UTC)


def setup_django(database_path: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "blognomic.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{database_path}"
    # DEBUG stays on so static files need no collectstatic; queries are captured explicitly anyway.
    os.environ["DEBUG"] = "1"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def build(n_players: int, n_columns: int, n_updates: int) -> None:
    from dynasties.models import Dynasty
    from gndt.models import Cell, CellChange, Column, Row, Update
    from tests.factories import make_table

    players = make_table(n_players, start=START)
    dynasty = Dynasty.objects.get()
    columns = Column.objects.bulk_create(
        Column(dynasty=dynasty, name=f"Stat {i}", kind="integer", order=i) for i in range(n_columns)
    )
    rows = Row.objects.bulk_create(
        Row(dynasty=dynasty, user=user, name=user.username, order=i) for i, user in enumerate(players)
    )
    Cell.objects.bulk_create(
        Cell(row=row, column=column, value=str(row.order * column.order)) for row in rows for column in columns
    )
    updates = Update.objects.bulk_create(
        (
            Update(
                dynasty=dynasty,
                by=players[i % n_players],
                at=START - timedelta(days=30) + timedelta(seconds=i * 40),
                comment=f"update {i} DICE6",
                rolls=[{"token": "DICE6", "kind": "dice", "results": [i % 6 + 1], "text": f"DICE6: {i % 6 + 1}"}],
            )
            for i in range(n_updates)
        ),
        batch_size=5000,
    )
    CellChange.objects.bulk_create(
        (
            CellChange(
                update=update, row=rows[i % n_players], column=columns[i % n_columns], old=str(i), new=str(i + 1)
            )
            for i, update in enumerate(updates)
        ),
        batch_size=5000,
    )


def measure(client, url: str, repeat: int) -> tuple[float, int]:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    # The query log keeps at most 9,000 entries and is full after the build; emptied, it counts again.
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        client.get(url)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) * 1000, len(queries)


def run(args) -> None:
    import time_machine
    from django.core.management import call_command
    from django.test import Client

    from dynasties.models import Dynasty, User
    from gndt.selectors import gndt_table_as_of
    from gndt.services import gndt_update
    from tests.factories import PASSWORD

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    build(args.players, args.columns, args.updates)
    print(
        f"built {args.players} rows x {args.columns} columns and {args.updates:,} updates "
        f"in {time.perf_counter() - started:.1f} s"
    )
    visitor, player = Client(), Client()
    assert player.login(username="P03", password=PASSWORD)
    pages = [
        ("bare view /healthz/", visitor, "/healthz/"),
        ("table, visitor", visitor, "/gndt/"),
        ("table, player (editable)", player, "/gndt/"),
        ("table sorted by a column", visitor, "/gndt/?sort=Stat 3&dir=desc"),
        ("table at a past moment", visitor, "/gndt/?at=2016-07-10T00:00Z"),
        ("CSV export", visitor, "/gndt/export.csv"),
        ("log, first page", visitor, "/gndt/log/"),
        ("log, page 500", visitor, "/gndt/log/?page=500"),
        ("log filtered by player", visitor, "/gndt/log/?by=P07"),
        ("plain edit form (whole table)", player, "/gndt/edit/"),
    ]
    with time_machine.travel(START, tick=False):
        baseline = None
        print(f"{'page':34} {'median ms':>10} {'queries':>8} {'x bare':>8}")
        for label, client, url in pages:
            ms, queries = measure(client, url, args.repeat)
            baseline = baseline or ms
            print(f"{label:34} {ms:10.1f} {queries:8d} {ms / baseline:8.1f}")
        dynasty = Dynasty.objects.get()
        started = time.perf_counter()
        table = gndt_table_as_of(dynasty, START - timedelta(days=31), viewer=User.objects.get(username="P03"))
        replay_ms = (time.perf_counter() - started) * 1000
        print(
            f"replaying all {args.updates:,} changes back to before the log: {replay_ms:.1f} ms "
            f"({len(table.all_rows)} rows)"
        )
        user = User.objects.get(username="P03")
        started = time.perf_counter()
        for i in range(args.repeat):
            current = "0" if i == 0 else str(1000 + i - 1)
            gndt_update(
                dynasty=dynasty,
                by=user,
                changes={("P03", "Stat 0"): str(1000 + i)},
                seen={("P03", "Stat 0"): current},
                comment="DICE6",
                now=START + timedelta(seconds=i),
            )
        print(
            f"one update through the service (lock, check, roll, log): "
            f"{(time.perf_counter() - started) * 1000 / args.repeat:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--columns", type=int, default=20)
    parser.add_argument("--updates", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-gndt-"))
    try:
        setup_django(workdir / "bench.sqlite3")
        run(args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
