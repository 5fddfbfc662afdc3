"""Time the queries every page makes, built and compiled by the ORM each time against compiled once.

Run from the project root: ``.venv/bin/python benchmarks/bench_compiled.py [--rounds 7] [--calls 300]
[--database-url postgres://blognomic:blognomic@127.0.0.1:5432/blognomic]``.

On the demo game (``manage.py demo``'s, in a fresh SQLite file, or with ``--database-url`` a PostgreSQL database
made for the run and dropped after) it times, in CPU milliseconds per call (the best of ``--rounds`` rounds of
``--calls`` calls each):

- each query ``dynasties.compiled.CompiledOnce`` keeps (the game's row, the current dynasty, the pending matters
  with their authors, the sidebar's latest comments) through the ORM, as a page made it before, and compiled once;
- the game's state that every page reads (``votes.state.game_state``: five queries), as it is and with those
  queries made through the ORM again;
- running the compiled SQL alone, with no model made of the rows: the floor.

Both paths must give the same rows (it checks), and each is one query.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_votes import setup_django  # noqa: E402 - found through the path set above
from benchdb import TemporaryDatabase  # noqa: E402


def cpu_ms(call: Callable[[], object], *, rounds: int, calls: int) -> float:
    call()
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(calls):
            call()
        best = min(best, time.process_time() - started)
    return best / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--database-url", help="postgres://…: measure on a temporary PostgreSQL database.")
    args = parser.parse_args()
    if min(args.rounds, args.calls) < 1:
        sys.exit("--rounds and --calls must be positive.")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    database = TemporaryDatabase(Path(tempfile.mkdtemp(prefix="blognomic-bench-compiled-")), args.database_url)
    database.create()
    try:
        setup_django(database.url)
        measure(database, rounds=args.rounds, calls=args.calls)
    finally:
        from django.db import connections

        connections.close_all()
        database.drop()


def measure(database: TemporaryDatabase, *, rounds: int, calls: int) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from blognomic.moving.demo import build_demo
    from dynasties import models as dynasty_models
    from dynasties.compiled import CompiledOnce
    from votes import selectors, state

    call_command("migrate", verbosity=0)
    now = timezone.now()
    build_demo(now=now)
    print(f"database: {database.label}, {database.server_version()}; the demo game")
    print(f"CPU ms per call, best of {rounds} rounds of {calls}\n")
    print(f"{'query':<44} {'ORM':>8} {'compiled':>9} {'SQL alone':>10}")
    kept: list[tuple[object, str, CompiledOnce]] = [
        (dynasty_models, "_the_game", dynasty_models._the_game),
        (dynasty_models, "_running_dynasty", dynasty_models._running_dynasty),
        (state, "_pending_with_authors", state._pending_with_authors),
        (selectors, "_latest_comments", selectors._latest_comments),
    ]
    names = [
        "the game's row",
        "the current dynasty",
        "the pending matters with their authors",
        "the sidebar's latest comments",
    ]
    for (_module, _name, compiled), name in zip(kept, names, strict=True):
        through_orm = lambda compiled=compiled: list(compiled.build())  # noqa: E731
        assert [row.pk for row in through_orm()] == [row.pk for row in compiled()], name
        with CaptureQueriesContext(connection) as queries:
            compiled()
        assert len(queries) == 1, name
        sql = queries[0]["sql"]

        def alone(sql: str = sql) -> None:
            with connection.cursor() as cursor:
                cursor.execute(sql)
                cursor.fetchall()

        print(
            f"{name:<44} {cpu_ms(through_orm, rounds=rounds, calls=calls):8.3f} "
            f"{cpu_ms(compiled, rounds=rounds, calls=calls):9.3f} {cpu_ms(alone, rounds=rounds, calls=calls):10.3f}"
        )

    as_shipped = cpu_ms(lambda: state.game_state(now), rounds=rounds, calls=calls)
    for module, attribute, compiled in kept:
        setattr(module, attribute, lambda compiled=compiled: list(compiled.build()))
    try:
        through_orm = cpu_ms(lambda: state.game_state(now), rounds=rounds, calls=calls)
    finally:
        for module, attribute, compiled in kept:
            setattr(module, attribute, compiled)
    print(f"{'the game state (game_state, five queries)':<44} {through_orm:8.3f} {as_shipped:9.3f}")


if __name__ == "__main__":
    main()
