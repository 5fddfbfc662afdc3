"""Time ``import_history`` on the real figures and the statistics page on what it loads.

Run from the project root: ``.venv/bin/python benchmarks/bench_stats.py [--dynasties 20]`` (the whole
history without it). It reads ``../shared/data/blognomic-history/`` at run time, imports into a fresh,
migrated SQLite database in a temporary directory (``DATABASE_URL`` is always replaced, so no other
database is touched; ``REDIS_URL`` too, so the cache is the process's own), and prints the import's time,
then the statistics' query count and time, and the page and one chart with a cold and a warm cache.
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HISTORY = ROOT.parent / "shared" / "data" / "blognomic-history"


def setup_django(database_path: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "blognomic.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{database_path}"
    # Production-like settings: with DEBUG on Django would keep every query in memory.
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def timed_get(client, url: str) -> tuple[int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.get(url, secure=True)  # production settings redirect plain HTTP
        seconds = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return len(queries), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dynasties", help="Only these dynasties (3 for the latest three, or 28-30).")
    parser.add_argument("--directory", type=Path, default=HISTORY, help="The history's directory.")
    args = parser.parse_args()
    if not (args.directory / "fullprophistory.csv").exists():
        sys.exit(f"{args.directory} has no fullprophistory.csv: the benchmark reads the real figures at run time.")

    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-stats-"))
    try:
        setup_django(workdir / "bench.sqlite3")
        from django.core.cache import cache
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext
        from django.utils import timezone

        from blognomic.community.stats.selectors import statistics
        from dynasties.models import Game

        call_command("migrate", verbosity=0)
        # Production static storage (WhiteNoise's manifest) needs collectstatic; STATIC_ROOT is gitignored.
        call_command("collectstatic", interactive=False, verbosity=0)
        Game.load()
        out = io.StringIO()
        options = ["--dynasties", args.dynasties] if args.dynasties else []
        started = time.perf_counter()
        call_command("import_history", str(args.directory), *options, stdout=out)
        print(f"import_history: {time.perf_counter() - started:.1f} s")
        print("  " + out.getvalue().strip().replace("\n", "\n  "))

        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            stats = statistics(timezone.now())
            seconds = time.perf_counter() - started
        print(
            f"statistics: {len(queries)} queries, {seconds * 1000:.0f} ms "
            f"({stats.proposals} proposals, {len(stats.players)} players, {len(stats.dynasties)} dynasties)"
        )

        client = Client()
        client.get("/stats/top-players.png", secure=True)  # loads matplotlib once, as a running server would have
        for url in ("/stats/", "/stats/top-players.png"):
            cache.clear()
            cold = timed_get(client, url)
            warm = timed_get(client, url)
            print(
                f"{url}: cold {cold[0]} queries, {cold[1] * 1000:.0f} ms; warm {warm[0]} queries, "
                f"{warm[1] * 1000:.0f} ms"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
