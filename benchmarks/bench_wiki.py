"""Time the wiki's diff VIEW on two ~100 KB ruleset revisions, through the Django test client.

Run from the project root: ``.venv/bin/python benchmarks/bench_wiki.py [--runs N]``. It creates a throwaway
test database (SQLite in memory, or PostgreSQL when ``DATABASE_URL`` is set), saves two generated ~100 KB
rulesets (the generator of ``bench_diff.py``: no seed text) as revisions 1 and 2 of the Ruleset, and
prints, for the inline and side-by-side diff pages, the median milliseconds of a whole request and its
number of SQL queries, both computed (cache emptied before each request) and cached (rendered HTML and
diffs are cached under a digest of the texts). For scale it also times the bare ``/healthz/`` view (one
query, no template), the wiki index (the shared layout) and the history of a page with 5,000 revisions,
and prints each page's time as a ratio to the bare view.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blognomic.settings")

import django  # noqa: E402

django.setup()

from bench_diff import edited_copy, generated_ruleset  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

HISTORY_REVISIONS = 5000


def build_pages(seed: int) -> tuple[int, int]:
    """The Ruleset with two ~100 KB revisions, and a page with 5,000 small ones; returns the two sizes."""
    from dynasties.models import Game
    from ruleset.models import Page, Revision
    from ruleset.services import page_create, revision_add

    Game.load()
    rng = random.Random(seed)
    old_lines = generated_ruleset(rng)
    old, new = "\n".join(old_lines), "\n".join(edited_copy(rng, old_lines))
    start = datetime(2016, 7, 1, tzinfo=UTC)
    page = page_create(title="Ruleset", kind=Page.RULESET, text=old, now=start, slug="ruleset")
    revision_add(page=page, author=None, text=new, summary="Sixty edits", now=start + timedelta(hours=1))
    busy = Page.objects.create(title="Logbook", slug="logbook", created_at=start)
    Revision.objects.bulk_create(
        (
            Revision(
                page=busy,
                number=n,
                at=start + timedelta(minutes=n),
                summary=f"Entry {n}",
                text=f"Entry {n}\n" * 200,
                size=len(f"Entry {n}\n") * 200,
            )
            for n in range(1, HISTORY_REVISIONS + 1)
        ),
        batch_size=1000,
    )
    busy.current = busy.revisions.order_by("-number").first()
    busy.save(update_fields=["current"])
    return len(old.encode()), len(new.encode())


def measure(client: Client, url: str, runs: int, *, cold: bool = False) -> tuple[float, int]:
    """Median milliseconds of ``runs`` requests, and the queries of one request.

    ``cold`` empties the cache before every timed request, so renderings and diffs are computed each time.
    """
    response = client.get(url)  # warm caches (templates, URL resolver) before timing
    assert response.status_code == 200, (url, response.status_code)
    reset_queries()  # with DEBUG on, a full query log (9,000 entries) would hide new queries from the count
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    timings = []
    for _ in range(runs):
        if cold:
            cache.clear()
        started = time.perf_counter()
        client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings), len(queries.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed requests per page (default 15)")
    parser.add_argument("--seed", type=int, default=142, help="random seed for the generated texts")
    arguments = parser.parse_args()

    setup_test_environment()
    database = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        old_size, new_size = build_pages(arguments.seed)
        print(f"database: {connection.vendor}; revisions of {old_size:,} and {new_size:,} bytes")
        client = Client()
        bare, bare_queries = measure(client, "/healthz/", arguments.runs)
        print(f"bare view /healthz/: median {bare:.1f} ms, {bare_queries} queries")
        pages = [
            ("wiki index (the layout and one query)", "/wiki/", False),
            ("diff view, inline, computed", "/wiki/ruleset/diff/1/latest/", True),
            ("diff view, side by side, computed", "/wiki/ruleset/diff/1/latest/?view=side", True),
            ("diff view, inline, cached", "/wiki/ruleset/diff/1/latest/", False),
            ("diff view, side by side, cached", "/wiki/ruleset/diff/1/latest/?view=side", False),
            ("ruleset page (~100 KB, structured), computed", "/wiki/ruleset/", True),
            ("ruleset page (~100 KB, structured), cached", "/wiki/ruleset/", False),
            (f"history of a page with {HISTORY_REVISIONS:,} revisions", "/wiki/logbook/history/", False),
            ("its oldest history page", "/wiki/logbook/history/?page=1000", False),
        ]
        for name, url, cold in pages:
            milliseconds, queries = measure(client, url, arguments.runs, cold=cold)
            print(
                f"{name}: median {milliseconds:.1f} ms over {arguments.runs} runs, {queries} queries, "
                f"{milliseconds / bare:.1f}× the bare view"
            )
    finally:
        connection.creation.destroy_test_db(database, verbosity=0)


if __name__ == "__main__":
    main()
