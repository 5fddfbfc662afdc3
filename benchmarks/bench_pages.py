"""Load-test the site's pages under gunicorn against the bare ``/healthz/`` view, in the same run.

Run from the project root: ``.venv/bin/python benchmarks/bench_pages.py [--proposals 2000] [--seconds 5]
[--concurrency 4] [--database-url postgres://blognomic:blognomic@127.0.0.1:5432/blognomic]``.

It builds a realistic game with ``bench_archive``'s builder (the last dynasties of the real history in
``../shared/data/blognomic-history/fullprophistory.csv``, with their real comment counts) plus a GNDT for the
current dynasty, and imports it into a fresh database: a SQLite file in a temporary directory, or, with
``--database-url``, a temporary PostgreSQL database created beside the one named (that one is only
connected to, never written) and dropped at the end. It then starts gunicorn on a free loopback port with
production settings (``DEBUG=0``, WhiteNoise's manifest storage after ``collectstatic``) and, for each page,
runs a closed-loop load generator: ``--concurrency`` threads, each with a persistent
``http.client.HTTPConnection``, for ``--seconds`` or ``--max-requests`` requests, whichever ends first.

It prints, per page: requests per second, the ratio to the bare view (bare req/s ÷ page req/s), median and
95th-percentile latency, errors (anything but a 200), and the SQL queries one request runs (counted in this
process with Django's test client against the same database). Then the peak RSS of the gunicorn workers.

The load generator runs on the same machine as the server and shares its CPUs, so the absolute figures
are those of this machine under that contention; the ratios are what to compare between runs.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_archive import (  # noqa: E402 - found through the path set above
    DEFAULT_CSV,
    build_archive,
    read_proposals,
    stamp,
)

HOST = "127.0.0.1"
GNDT_COLOURS = ["Red", "Green", "Blue", "Gold", "Black"]
GNDT_MOODS = ["Calm", "Restless", "Scheming", "Asleep", "Triumphant"]


# ---------------------------------------------------------------------------------------------------------
# The game


def add_gndt(archive: dict, seed: int, updates: int) -> None:
    """A GNDT for the current (last) dynasty: its players and The Pot, four columns and a log of updates."""
    rng = random.Random(seed + 1)
    dynasty = archive["dynasties"][-1]
    number = dynasty["number"]
    known = {player["name"] for player in archive["players"]}
    names: list[str] = []
    for post in archive["posts"]:
        if post["dynasty"] == number and post["author"] in known and post["author"] not in names:
            names.append(post["author"])
    columns = [
        {"name": "Points", "kind": "integer", "minimum": 0, "maximum": None, "allow_negative": False,
         "choices": [], "default": "0"},
        {"name": "Gold", "kind": "integer", "minimum": 0, "maximum": 1000, "allow_negative": False,
         "choices": [], "default": "10"},
        {"name": "Colour", "kind": "choice", "minimum": None, "maximum": None, "allow_negative": False,
         "choices": GNDT_COLOURS, "default": "Red"},
        {"name": "Mood", "kind": "text", "minimum": None, "maximum": None, "allow_negative": False,
         "choices": [], "default": "Calm"},
    ]
    for order, column in enumerate(columns, start=1):
        column.update({"dynasty": number, "clamp": False, "order": order, "hidden": False, "description": "",
                       "created_at": None, "retired_at": None})
    row_names = [*names, "The Pot"]
    state = {row: {column["name"]: column["default"] for column in columns} for row in row_names}
    started = datetime.fromisoformat(dynasty["started_at"].replace("Z", "+00:00"))
    ended = max(datetime.fromisoformat(p["posted_at"].replace("Z", "+00:00"))
                for p in archive["posts"] if p["dynasty"] == number)
    moments = sorted(started + (ended - started) * rng.random() for _ in range(updates))
    log = []
    for at in moments:
        changes = []
        for row in rng.sample(row_names, k=min(len(row_names), rng.choice((1, 1, 1, 2)))):
            for column in rng.sample(columns, k=rng.choice((1, 1, 2))):
                name = column["name"]
                old = state[row][name]
                if column["kind"] == "integer":
                    new = str(max(0, min(1000, int(old) + rng.randint(-3, 6))))
                elif column["kind"] == "choice":
                    new = rng.choice(GNDT_COLOURS)
                else:
                    new = rng.choice(GNDT_MOODS)
                if new != old:
                    state[row][name] = new
                    changes.append({"row": row, "column": name, "old": old, "new": new})
        if not changes:
            continue
        log.append({"dynasty": number, "at": stamp(at), "by": rng.choice(names) if names else None,
                    "source": "player", "comment": f"Update {len(log) + 1}", "rolls": [], "action": None,
                    "undoes": None, "changes": changes})
    rows = [
        {"dynasty": number, "name": row, "player": row if row in known else None, "order": order,
         "created_at": None, "retired_at": None, "values": state[row]}
        for order, row in enumerate(row_names, start=1)
    ]
    archive["gndt"] = {"columns": columns, "rows": rows, "actions": [], "lists": [], "effects": [], "log": log}


# ---------------------------------------------------------------------------------------------------------
# The database


class TemporaryDatabase:
    """A fresh database for the run: a SQLite file in ``workdir``, or a PostgreSQL database beside ``url``."""

    def __init__(self, workdir: Path, url: str | None) -> None:
        self.admin_url = url
        self.name = None
        if not url:
            self.url = f"sqlite:///{workdir / 'bench.sqlite3'}"
            return
        parts = urlsplit(url)
        if parts.scheme not in {"postgres", "postgresql"}:
            sys.exit("--database-url must be a postgres:// URL (SQLite is the default).")
        self.name = f"blognomic_bench_{os.getpid()}_{secrets.token_hex(3)}"
        self.url = urlunsplit(parts._replace(path=f"/{self.name}"))

    @property
    def label(self) -> str:
        return "SQLite (temporary file)" if self.name is None else f"PostgreSQL (temporary database {self.name})"

    def _admin(self, statement: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(sql.SQL(statement).format(sql.Identifier(self.name)))

    def create(self) -> None:
        if self.name is not None:
            self._admin("CREATE DATABASE {}")

    def drop(self) -> None:
        if self.name is not None:
            self._admin("DROP DATABASE IF EXISTS {} WITH (FORCE)")


def server_environment(database_url: str) -> dict[str, str]:
    """Production settings as the README gives them, minus HTTPS (the benchmark speaks plain HTTP)."""
    env = dict(os.environ)
    env.pop("REDIS_URL", None)
    env.update({
        "DJANGO_SETTINGS_MODULE": "blognomic.settings",
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": env.get("SECRET_KEY") or secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "WARNING",
    })
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.pop("REDIS_URL", None)
    os.environ.update(env)
    import django

    django.setup()


def load_game(archive: dict) -> None:
    from django.core.management import call_command

    from blognomic.archive import import_archive

    call_command("migrate", verbosity=0)
    import_archive(archive)
    # Production static storage (WhiteNoise's manifest) needs collectstatic; STATIC_ROOT is gitignored.
    call_command("collectstatic", interactive=False, verbosity=0)


def pick_pages() -> list[tuple[str, str]]:
    """(label, path) for each page measured, the bare view first, chosen from the imported data."""
    from django.db.models import Count
    from django.db.models.functions import TruncMonth
    from django.urls import reverse

    from dynasties.models import User
    from votes.models import Kind, Post

    busiest = Post.objects.annotate(n=Count("comments")).order_by("-n", "pk").values_list("slug", "n").first()
    month = (
        Post.objects.annotate(month=TruncMonth("posted_at")).values("month").annotate(n=Count("pk"))
        .order_by("-n", "-month").first()
    )
    author = (
        User.objects.filter(posts__kind=Kind.PROPOSAL).annotate(n=Count("posts")).order_by("-n", "pk")
        .values_list("username", flat=True).first()
    )
    return [
        ("bare view", reverse("healthz")),
        ("front page", reverse("front_page")),
        (f"busy post ({busiest[1]} comments)", reverse("post_detail", args=[busiest[0]])),
        ("monthly archive", reverse("month_archive", args=[month["month"].year, month["month"].month])),
        ("category: proposals", reverse("category", args=["proposals"])),
        ("player page", reverse("player_detail", args=[author])),
        ("ruleset", reverse("wiki_page", args=["ruleset"])),
        ("ruleset history", reverse("wiki_history", args=["ruleset"])),
        ("GNDT", reverse("gndt_table")),
        ("feed", reverse("feed")),
    ]


def count_queries(pages: list[tuple[str, str]]) -> dict[str, int]:
    """Queries of one request to each page, in this process, after one warm-up request."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST=HOST)
    counts = {}
    for _label, path in pages:
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code} in-process")
        counts[path] = len(queries)
    return counts


# ---------------------------------------------------------------------------------------------------------
# The server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Gunicorn:
    def __init__(self, env: dict[str, str], workers: int, logfile: Path) -> None:
        self.port = free_port()
        self.logfile = logfile
        self.command = [
            str(Path(sys.executable).parent / "gunicorn"), "blognomic.wsgi",
            "--bind", f"{HOST}:{self.port}", "--workers", str(workers), "--threads", "1",
            "--timeout", "60", "--graceful-timeout", "5",
        ]
        with logfile.open("wb") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
                connection.request("GET", "/healthz/")
                response = connection.getresponse()
                response.read()
                connection.close()
                if response.status == 200:
                    return
            except OSError:
                pass  # not listening yet: try again until the timeout
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz/ within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def worker_pids(self) -> list[int]:
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command name may hold spaces or parentheses: the parent pid follows the last ')'.
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.process.pid:
                pids.append(int(entry.name))
        return sorted(pids)

    @staticmethod
    def peak_rss_mb(pid: int) -> float | None:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # the master stops its workers
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


# ---------------------------------------------------------------------------------------------------------
# The load generator


def run_load(port: int, path: str, seconds: float, concurrency: int, max_requests: int) -> dict:
    """Closed loop: each thread sends its next request when the last one is answered."""
    lock = threading.Lock()
    issued = 0
    results: list[tuple[list[float], int, Counter]] = []
    start = threading.Barrier(concurrency + 1)
    deadline = 0.0

    def worker() -> None:
        nonlocal issued
        latencies: list[float] = []
        errors = 0
        kinds: Counter = Counter()
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        start.wait()
        while True:
            with lock:
                if issued >= max_requests:
                    break
                issued += 1
            began = time.perf_counter()
            if began >= deadline:
                break
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors += 1
                    kinds[f"HTTP {response.status}"] += 1
            except (OSError, http.client.HTTPException) as error:
                errors += 1
                kinds[type(error).__name__] += 1
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=30)
            latencies.append(time.perf_counter() - began)
        connection.close()
        with lock:
            results.append((latencies, errors, kinds))

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline = began + seconds
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    latencies = sorted(value for result in results for value in result[0])
    kinds = sum((result[2] for result in results), Counter())
    count = len(latencies)
    return {
        "requests": count,
        "seconds": elapsed,
        "rps": count / elapsed if elapsed else 0.0,
        "median_ms": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p95_ms": latencies[min(count - 1, max(0, -(-95 * count // 100) - 1))] * 1000 if latencies else float("nan"),
        "errors": sum(result[1] for result in results),
        "error_kinds": kinds,
    }


# ---------------------------------------------------------------------------------------------------------


def print_table(pages: list[tuple[str, str]], figures: dict[str, dict], queries: dict[str, int]) -> None:
    bare = figures[pages[0][1]]["rps"]
    header = (f"{'page':<28} {'path':<34} {'req/s':>8} {'vs bare view':>14} {'median ms':>10} {'p95 ms':>8} "
              f"{'errors':>7} {'queries':>8}")
    print(header)
    print("-" * len(header))
    for index, (label, path) in enumerate(pages):
        figure = figures[path]
        if index == 0:
            ratio = "baseline"
        elif figure["rps"]:
            ratio = f"{bare / figure['rps']:.1f}× slower"
        else:
            ratio = "—"
        shown = path if len(path) <= 34 else path[:31] + "..."
        print(f"{label:<28} {shown:<34} {figure['rps']:>8.1f} {ratio:>14} {figure['median_ms']:>10.1f} "
              f"{figure['p95_ms']:>8.1f} {figure['errors']:>7} {queries[path]:>8}")
    for label, path in pages:
        if figures[path]["errors"]:
            kinds = ", ".join(f"{kind} ×{n}" for kind, n in figures[path]["error_kinds"].most_common())
            print(f"errors on {label}: {kinds}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proposals", type=int, default=2000,
                        help="Take the last dynasties until they hold this many proposals.")
    parser.add_argument("--seconds", type=float, default=5.0, help="Load each page for this long.")
    parser.add_argument("--concurrency", type=int, default=4, help="Client threads, each with its connection.")
    parser.add_argument("--max-requests", type=int, default=100_000, help="Stop a page after this many requests.")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (sync, one thread each).")
    parser.add_argument("--gndt-updates", type=int, default=2000, help="GNDT log entries in the current dynasty.")
    parser.add_argument("--database-url",
                        help="postgres://user:password@host:port/db: measure on a temporary PostgreSQL database "
                             "created on that server (the named database is not written) and dropped afterwards.")
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV, help="Path of fullprophistory.csv.")
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args()
    if not args.csv.exists():
        sys.exit(f"{args.csv} is missing: the benchmark reads the real figures from ../shared at run time.")
    if args.concurrency < 1 or args.seconds <= 0 or args.max_requests < 1:
        sys.exit("--concurrency, --seconds and --max-requests must be positive.")

    # A SIGTERM (from run_all, say) unwinds like Ctrl-C, so gunicorn and the temporary database go too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-pages-"))
    database = TemporaryDatabase(workdir, args.database_url)
    server: Gunicorn | None = None
    created = False
    try:
        started = time.perf_counter()
        archive = build_archive(read_proposals(args.csv, args.proposals, None), args.seed)
        add_gndt(archive, args.seed, args.gndt_updates)
        numbers = [d["number"] for d in archive["dynasties"]]
        comments = sum(len(p["comments"]) for p in archive["posts"])
        database.create()
        created = True
        env = server_environment(database.url)
        setup_django(env)
        load_game(archive)
        print(f"game: dynasties {numbers[0]}–{numbers[-1]} ({len(numbers)}), {len(archive['posts'])} proposals, "
              f"{comments} comments, {len(archive['players'])} players, "
              f"{sum(len(p['revisions']) for p in archive['wiki']['pages'])} ruleset revisions, "
              f"GNDT {len(archive['gndt']['rows'])} rows × {len(archive['gndt']['columns'])} columns with "
              f"{len(archive['gndt']['log'])} updates (built and imported in {time.perf_counter() - started:.1f} s)")
        print(f"database: {database.label}")

        pages = pick_pages()
        queries = count_queries(pages)
        from django.db import connections

        connections.close_all()

        server = Gunicorn(env, args.workers, workdir / "gunicorn.log")
        server.wait_ready()
        print(f"server: gunicorn, {args.workers} sync workers × 1 thread, DEBUG=0, on {HOST}:{server.port}; "
              f"load: {args.concurrency} client threads × {args.seconds:g} s (at most {args.max_requests} "
              f"requests) per page, after {2 * args.concurrency} warm-up requests; {os.cpu_count()} CPUs shared "
              f"by server and client")
        print()
        figures = {}
        for _label, path in pages:
            run_load(server.port, path, 60, args.concurrency, 2 * args.concurrency)  # warm-up, not counted
            figures[path] = run_load(server.port, path, args.seconds, args.concurrency, args.max_requests)
        print_table(pages, figures, queries)
        print()
        workers = server.worker_pids()
        peaks = {pid: server.peak_rss_mb(pid) for pid in workers}
        shown = ", ".join(f"pid {pid} {mb:.1f} MB" for pid, mb in peaks.items() if mb is not None)
        master = server.peak_rss_mb(server.process.pid)
        print(f"gunicorn peak RSS (VmHWM): workers {shown or 'unknown'}; master {master or 0:.1f} MB")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        if server is not None:
            server.stop()
        if created:
            try:
                from django.db import connections

                connections.close_all()
            except Exception:  # noqa: BLE001 - Django may not be set up yet
                pass  # nothing was opened, so nothing to close
            database.drop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
