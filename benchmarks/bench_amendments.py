"""Time the post page of a Proposal carrying a 20-operation amendment against a 60-rule Ruleset, beside the
page of a Proposal without one.

Run from the project root: ``.venv/bin/python benchmarks/bench_amendments.py [--runs 40]
[--database-url postgres://…]``. The amendment replaces passages in ten rules, adds three, renames two,
repeals one and changes four GNDT cells; the post page shows it as a live diff against the Ruleset and GNDT
as they are now, cached by the amendment's digest and the newest revision, update, parameter change and
rename (``amendment_preview_cached``). Prints the median milliseconds and queries of each page over
``--runs`` requests (taken in turn), their ratio (the target: not measurably slower), and the first request
after the cache is emptied, which computes the diff.

The game is made through the archive importer and the real services in a fresh database (a SQLite file in
a temporary directory, or a PostgreSQL database made for the run and dropped after).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from benchdb import TemporaryDatabase  # noqa: E402 - found through the path set above

HOST = "bench.invalid"
RULES_PER_SECTION = 20
SECTIONS = ("Core Rules", "Dynastic Rules", "Appendix")


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def ruleset_text() -> str:
    """Sixty rules in three sections, each a few sentences of made-up game text."""
    lines = []
    for s, section in enumerate(SECTIONS, start=1):
        lines.append(f"== {section} ==")
        for r in range(1, RULES_PER_SECTION + 1):
            lines.append(f"=== Beacon {s}-{r} ===")
            lines.append(f"Each Keeper tends beacon {s}-{r} at dusk and logs its flame in the harbour book.")
            lines.append(f"A beacon left dark for a night costs its Keeper {r} Oil, paid to the Pot.")
            lines.append("")
    return "\n".join(lines)


def amendment() -> list[dict]:
    """Twenty operations: ten passages, three additions, two renames, a repeal and four GNDT cells."""
    ops = [
        {
            "op": "rule_replace_passage",
            "rule": f"rule-beacon-1-{r}",
            "old": f"costs its Keeper {r} Oil",
            "new": f"costs its Keeper {r + 1} Oil",
        }
        for r in range(1, 11)
    ]
    ops += [
        {
            "op": "rule_add",
            "after": f"rule-beacon-2-{r}",
            "title": f"Foghorn {r}",
            "body": f"A Keeper may sound foghorn {r} once a day.",
        }
        for r in (3, 6, 9)
    ]
    ops += [{"op": "rule_rename", "rule": f"rule-beacon-3-{r}", "title": f"Lamp {r}"} for r in (1, 2)]
    ops.append({"op": "rule_repeal", "rule": "rule-beacon-3-20"})
    ops += [{"op": "cell_add", "row": f"Keeper {n}", "column": "Oil", "delta": n} for n in range(1, 5)]
    return ops


def build_game(now: datetime) -> tuple[str, str]:
    from blognomic.flows.amendments.services import post_create_with_amendment, ruleset_base_number
    from blognomic.moving.archive import import_archive
    from dynasties.models import Dynasty, User
    from gndt.services import gndt_column_add, gndt_rows_add_missing_players
    from ruleset.models import Page
    from ruleset.services import page_create
    from votes.posting import post_create

    joined = stamp(now - timedelta(days=60))
    players = [{"name": f"Keeper {n}", "admin": n == 1, "idle": False, "joined_at": joined} for n in range(1, 8)]
    import_archive(
        {
            "format": "blognomic-archive",
            "version": 1,
            "profile": "2016",
            "players": players,
            "dynasties": [
                {"number": 1, "emperor": "Keeper 7", "started_at": stamp(now - timedelta(days=30)), "ended_at": None}
            ],
            "posts": [],
        }
    )
    admin = User.objects.get(username="Keeper 1")
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        slug="ruleset",
        author=admin,
        text=ruleset_text(),
        now=now - timedelta(days=20),
        check_permission=False,
    )
    dynasty = Dynasty.objects.get()
    gndt_column_add(dynasty=dynasty, by=admin, now=now - timedelta(days=20), name="Oil", kind="integer", default="10")
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=now - timedelta(days=20))
    common = {"kind": "proposal", "body": "As the amendment says.", "now": now - timedelta(hours=1)}
    plain = post_create(author=User.objects.get(username="Keeper 2"), title="Proposal: Brighter Beacons", **common)
    amended = post_create_with_amendment(
        author=User.objects.get(username="Keeper 3"),
        title="Proposal: Foghorns",
        flavour="",
        trivial=False,
        anonymous=False,
        operations=amendment(),
        base_number=ruleset_base_number(),
        **common,
    )
    return plain.get_absolute_url(), amended.get_absolute_url()


def timed_get(client, path: str) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        began = time.perf_counter()
        response = client.get(path)
        seconds = time.perf_counter() - began
    assert response.status_code == 200, (path, response.status_code)
    return seconds, len(queries)


def measure(runs: int) -> dict:
    from django.core.cache import cache
    from django.test import Client

    now = datetime.now(UTC).replace(microsecond=0)
    plain, amended = build_game(now)
    client = Client(HTTP_HOST=HOST)
    html = client.get(amended).content.decode()
    assert "Adds 2.4 Foghorn 3" in html or "Foghorn 3" in html, "the amendment's preview is on its page"
    cache.clear()
    cold_s, cold_queries = timed_get(client, amended)
    timed_get(client, plain)
    times = {plain: [], amended: []}
    queries = {}
    for _ in range(runs):
        for path in (plain, amended):
            seconds, count = timed_get(client, path)
            times[path].append(seconds)
            queries[path] = count
    plain_ms = statistics.median(times[plain]) * 1000
    amended_ms = statistics.median(times[amended]) * 1000
    return {
        "plain_ms": plain_ms,
        "amended_ms": amended_ms,
        "ratio": amended_ms / plain_ms,
        "plain_queries": queries[plain],
        "amended_queries": queries[amended],
        "cold_ms": cold_s * 1000,
        "cold_queries": cold_queries,
    }


def setup_django(database_url: str) -> None:
    import os
    import secrets

    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "blognomic.settings",
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "WARNING",
            "EMAIL_URL": "memory://",
        }
    )
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="Requests of each page (taken in turn).")
    parser.add_argument("--database-url", help="postgres://…: measure on a temporary PostgreSQL database.")
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be positive.")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-amendments-"))
    database = TemporaryDatabase(workdir, args.database_url)
    database.create()
    try:
        setup_django(database.url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        # Production static storage (WhiteNoise's manifest) needs collectstatic; STATIC_ROOT is gitignored.
        call_command("collectstatic", interactive=False, verbosity=0)
        print(f"database: {database.label}, {database.server_version()}")
        result = measure(args.runs)
        print(f"post page, 60-rule Ruleset, median of {args.runs} requests each:")
        print(f"  without an amendment:              {result['plain_ms']:8.2f} ms  {result['plain_queries']} queries")
        print(
            f"  with a 20-operation amendment:     {result['amended_ms']:8.2f} ms  {result['amended_queries']} queries"
        )
        print(f"  ratio (with / without):            {result['ratio']:8.2f}   (target: not measurably slower)")
        print(
            f"  first request after the cache is emptied (computes the diff): {result['cold_ms']:.2f} ms  "
            f"{result['cold_queries']} queries"
        )
    finally:
        from django.db import connections

        connections.close_all()
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
