"""Load-test the site's main pages under gunicorn against the bare ``/healthz/`` view, in the same run.

Run from the project root: ``.venv/bin/python benchmarks/bench_pages.py [--proposals 2000 | --scale 10]
[--seconds 5] [--concurrency 4] [--database-url postgres://blognomic:blognomic@127.0.0.1:5432/blognomic]
[--load-generator auto|wrk|python]``.

It builds a realistic game with ``bench_archive``'s builder (the last dynasties of the real history in
``../shared/data/blognomic-history/fullprophistory.csv`` with their real comment counts, or with ``--scale``
the whole history that many times over, growing into the past) plus a GNDT for the current dynasty, and
loads it into a fresh database: a SQLite file in a temporary directory, or, with ``--database-url``, a
temporary PostgreSQL database created beside the one named (that one is only connected to, never written)
and dropped at the end. ``--loader bulk`` (the default) writes it with ``bulk_load``, ``--loader importer``
with ``import_archive`` (the same rows, far slower at scale). It then starts gunicorn on a free loopback
port with production settings (``DEBUG=0``, WhiteNoise's manifest storage after ``collectstatic``) and
loads each page in turn for ``--seconds`` with ``--concurrency`` connections, closed loop.

The load generator is wrk when it is installed (the benchmark tries ``apt-get install wrk`` when it is
missing, as root or through passwordless sudo, unless ``--no-install``), reading its 95th percentile through
``wrk_report.lua``; otherwise a Python client (one thread and one ``http.client`` connection per client).
The run says which it used. The Python client saturates a core of its own well before the server does, so
its figures for fast pages are the client's limit, not the server's.

Pages: the bare view, the front page, the busiest post, the busiest month's archive, the proposals category,
the player page of the busiest proposer, the Ruleset, its history, a diff of its last two revisions, the
GNDT and its log, the feed, the admin panel (as an admin), and the front page and the busiest post as an
active player (a session cookie made in this process and a CSRF cookie, sent with every request, as a
browser sends them after its first page).

It prints, per page: requests per second, the ratio to the bare view (bare req/s ÷ page req/s) and the page's
share of the bare view's throughput, median and 95th-percentile latency, errors (anything but a 200), and the
SQL queries one request runs (counted in this process with Django's test client against the same database,
as the same user). Then the peak RSS of the gunicorn workers.

The load generator runs on the same machine as the server and shares its CPUs, so the absolute figures
are those of this machine under that contention; the ratios are what to compare between runs.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import platform
import random
import resource
import secrets
import shlex
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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from html import escape
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_archive import (  # noqa: E402 - found through the path set above
    DEFAULT_CSV,
    build_archive,
    last_dynasties,
    read_history,
    scaled_rows,
    stamp,
)
from benchdb import TemporaryDatabase  # noqa: E402

WRK_SCRIPT = BENCH_DIR / "wrk_report.lua"
PAGE_KEYS = (
    "front",
    "post",
    "month",
    "category",
    "player",
    "ruleset",
    "history",
    "diff",
    "gndt",
    "gndt_log",
    "feed",
    "admin_panel",
    "front_player",
    "post_player",
    "search",
    "stats",
    "api_posts",
    "messages",
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
        {
            "name": "Points",
            "kind": "integer",
            "minimum": 0,
            "maximum": None,
            "allow_negative": False,
            "choices": [],
            "default": "0",
        },
        {
            "name": "Gold",
            "kind": "integer",
            "minimum": 0,
            "maximum": 1000,
            "allow_negative": False,
            "choices": [],
            "default": "10",
        },
        {
            "name": "Colour",
            "kind": "choice",
            "minimum": None,
            "maximum": None,
            "allow_negative": False,
            "choices": GNDT_COLOURS,
            "default": "Red",
        },
        {
            "name": "Mood",
            "kind": "text",
            "minimum": None,
            "maximum": None,
            "allow_negative": False,
            "choices": [],
            "default": "Calm",
        },
    ]
    for order, column in enumerate(columns, start=1):
        column.update(
            {
                "dynasty": number,
                "clamp": False,
                "order": order,
                "hidden": False,
                "description": "",
                "created_at": None,
                "retired_at": None,
            }
        )
    row_names = [*names, "The Pot"]
    state = {row: {column["name"]: column["default"] for column in columns} for row in row_names}
    started = datetime.fromisoformat(dynasty["started_at"].replace("Z", "+00:00"))
    ended = max(
        datetime.fromisoformat(p["posted_at"].replace("Z", "+00:00"))
        for p in archive["posts"]
        if p["dynasty"] == number
    )
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
        log.append(
            {
                "dynasty": number,
                "at": stamp(at),
                "by": rng.choice(names) if names else None,
                "source": "player",
                "comment": f"Update {len(log) + 1}",
                "rolls": [],
                "action": None,
                "undoes": None,
                "changes": changes,
            }
        )
    rows = [
        {
            "dynasty": number,
            "name": row,
            "player": row if row in known else None,
            "order": order,
            "created_at": None,
            "retired_at": None,
            "values": state[row],
        }
        for order, row in enumerate(row_names, start=1)
    ]
    archive["gndt"] = {"columns": columns, "rows": rows, "actions": [], "lists": [], "effects": [], "log": log}


# ---------------------------------------------------------------------------------------------------------
# The database


def server_environment(database_url: str, redis_url: str | None = None) -> dict[str, str]:
    """Production settings as docs/running/production.md gives them, minus HTTPS (the benchmark speaks plain
    HTTP); Redis only when asked for (the cache, the content version and sessions then live there)."""
    env = dict(os.environ)
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "blognomic.settings",
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "SECRET_KEY": env.get("SECRET_KEY") or secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "WARNING",
        }
    )
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.pop("REDIS_URL", None)
    os.environ.update(env)
    import django

    django.setup()


def load_game(archive: dict, loader: str = "bulk") -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if loader == "importer":
        from blognomic.moving.archive import import_archive

        import_archive(archive)
    else:
        from bulk_load import bulk_load

        bulk_load(archive)
    # Production static storage (WhiteNoise's manifest) needs collectstatic; STATIC_ROOT is gitignored.
    call_command("collectstatic", interactive=False, verbosity=0)


def settle_database() -> float | None:
    """On PostgreSQL, vacuum and analyze the freshly loaded database, so that pages are measured against tables
    in the state a running site's autovacuum keeps them (visibility map set, statistics current) rather than
    racing autovacuum for the CPUs. Returns the seconds it took (None on SQLite)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
    return time.perf_counter() - started


@dataclass(frozen=True)
class Page:
    """One page to measure; ``as_user`` names who is logged in (None: a visitor)."""

    label: str
    path: str
    as_user: str | None = None
    key: str = field(default="", compare=False)

    @property
    def ident(self) -> str:
        return f"{self.path} as {self.as_user}" if self.as_user else self.path


def pick_users() -> dict[str, str]:
    """An active player who is neither admin nor Emperor (else any active player), and an active admin."""
    from django.db.models import Count
    from django.utils import timezone

    from dynasties.models import User
    from votes.state import game_state

    state = game_state(timezone.now())
    active = User.objects.filter(username__in=state.roster.active_names)
    emperor = state.emperor.pk if state.emperor else None
    ranked = active.annotate(n=Count("comments")).order_by("-n", "pk")
    player = ranked.filter(is_admin=False).exclude(pk=emperor).first() or ranked.first()
    admin = ranked.filter(is_admin=True).first() or User.objects.filter(is_admin=True).order_by("pk").first()
    if player is None or admin is None:
        raise SystemExit("the game has no active player or no admin to log in as")
    return {"player": player.username, "admin": admin.username}


def pick_pages(users: dict[str, str] | None = None) -> list[Page]:
    """The pages measured, the bare view first, chosen from the loaded data."""
    from django.db.models import Count, Max
    from django.db.models.functions import TruncMonth
    from django.urls import reverse

    from dynasties.models import User
    from ruleset.models import Revision
    from votes.models import Kind, Post

    users = users or pick_users()
    busiest = Post.objects.annotate(n=Count("comments")).order_by("-n", "pk").values_list("slug", "n").first()
    # The monthly archive serves the years 2000 onward; at scale the history reaches further back.
    month = (
        Post.objects.filter(posted_at__year__gte=2000)
        .annotate(month=TruncMonth("posted_at"))
        .values("month")
        .annotate(n=Count("pk"))
        .order_by("-n", "-month")
        .first()
    )
    author = (
        User.objects.filter(posts__kind=Kind.PROPOSAL)
        .annotate(n=Count("posts"))
        .order_by("-n", "pk")
        .values_list("username", flat=True)
        .first()
    )
    last = Revision.objects.filter(page__slug="ruleset").aggregate(top=Max("number"))["top"] or 1
    post_path = reverse("post_detail", args=[busiest[0]])
    pages = [
        Page("bare view", reverse("healthz"), key="bare"),
        Page("front page", reverse("front_page"), key="front"),
        Page(f"busy post ({busiest[1]} comments)", post_path, key="post"),
        Page(
            "monthly archive", reverse("month_archive", args=[month["month"].year, month["month"].month]), key="month"
        ),
        Page("category: proposals", reverse("category", args=["proposals"]), key="category"),
        Page("player page", reverse("player_detail", args=[author]), key="player"),
        Page("Ruleset", reverse("wiki_page", args=["ruleset"]), key="ruleset"),
        Page("Ruleset history", reverse("wiki_history", args=["ruleset"]), key="history"),
        Page(
            f"Ruleset diff r{max(1, last - 1)}→r{last}",
            reverse("wiki_diff", args=["ruleset", str(max(1, last - 1)), str(last)]),
            key="diff",
        ),
        Page("GNDT", reverse("gndt_table"), key="gndt"),
        Page("GNDT log", reverse("gndt_log"), key="gndt_log"),
        Page("feed", reverse("feed"), key="feed"),
        Page("admin panel (admin)", reverse("admin_panel"), users["admin"], key="admin_panel"),
        Page("front page (player)", reverse("front_page"), users["player"], key="front_player"),
        Page("busy post (player)", post_path, users["player"], key="post_player"),
        Page("search (“quorum”)", reverse("search") + "?q=quorum", key="search"),
        Page("statistics", reverse("stats"), key="stats"),
        Page("API: posts", "/api/posts", key="api_posts"),
        Page("messages (player)", reverse("messages_inbox"), users["player"], key="messages"),
    ]
    return pages


def session_cookies(pages: list[Page]) -> dict[str, str]:
    """The cookies (``name=value; …``) a logged-in browser sends, for each user some page is measured as: a
    session made in this process, and the CSRF cookie every page after the first finds set (without it each
    response would make and set a new one, which no player's browser asks for)."""
    from django.conf import settings
    from django.test import Client

    from dynasties.models import User

    cookies = {}
    for name in sorted({page.as_user for page in pages if page.as_user}):
        client = Client()
        client.force_login(User.objects.get(username=name))
        session = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        cookies[name] = f"{session}; {settings.CSRF_COOKIE_NAME}={csrf_secret(name)}"
    return cookies


def csrf_secret(name: str) -> str:
    """A CSRF cookie for ``name``'s browser: Django takes a 32-character secret as both cookie and token."""
    return hashlib.blake2b(name.encode(), digest_size=16).hexdigest()


def count_queries(pages: list[Page]) -> dict[str, int]:
    """Queries of one request to each page, in this process, as its user, after one warm-up request, with the
    page cache off: what rendering the page costs (served from the cache, a page costs one to three)."""
    return {ident: rendering["queries"] for ident, rendering in fresh_renderings(pages, repeat=1).items()}


def fresh_renderings(pages: list[Page], repeat: int = 5) -> dict[str, dict]:
    """Each page rendered afresh ``repeat`` times in this process, as its user, with the page cache off (what a
    cache miss costs the worker that takes it), after one warm-up request: the milliseconds of each rendering
    and the queries of the last. Whatever the site keeps under the content version (search hits, the
    statistics' aggregates) stays kept, as it does for a miss on the running site. Each rendering's CPU time
    in this process is kept beside its wall time (``cpu_ms``): on a shared machine the wall time also holds
    the waits for a CPU (the database server's work is in the wall time only)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from dynasties.models import User

    renderings = {}
    for page in pages:
        client = Client(HTTP_HOST=HOST)
        if page.as_user:
            client.force_login(User.objects.get(username=page.as_user))
        times, cpu = [], []
        with override_settings(PAGE_CACHE=False):
            client.get(page.path)
            for _ in range(repeat):
                with CaptureQueriesContext(connection) as queries:
                    began, began_cpu = time.perf_counter(), time.process_time()
                    response = client.get(page.path)
                    times.append((time.perf_counter() - began) * 1000)
                    cpu.append((time.process_time() - began_cpu) * 1000)
                if response.status_code != 200:
                    raise SystemExit(f"{page.ident} answered {response.status_code} in-process")
        renderings[page.ident] = {"ms": times, "cpu_ms": cpu, "queries": len(queries)}
    return renderings


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
            str(Path(sys.executable).parent / "gunicorn"),
            "blognomic.wsgi",
            "--bind",
            f"{HOST}:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            "1",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
        ]
        with logfile.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

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


def run_load(
    port: int, path: str, seconds: float, concurrency: int, max_requests: int, cookie: str | None = None
) -> dict:
    """Closed loop: each thread sends its next request when the last one is answered."""
    lock = threading.Lock()
    issued = 0
    results: list[tuple[list[float], int, Counter]] = []
    start = threading.Barrier(concurrency + 1)
    deadline = 0.0
    headers = {"Cookie": cookie} if cookie else {}

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
                connection.request("GET", path, headers=headers)
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


def find_wrk(install: bool) -> str | None:
    """wrk's path; when missing and ``install``, try Debian's package (as root or with passwordless sudo)."""
    found = shutil.which("wrk")
    if found or not install or not shutil.which("apt-get"):
        return found
    command = ["apt-get", "install", "-y", "-q", "wrk"]
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            return None
        command = ["sudo", "-n", *command]
    print("wrk is missing: trying " + " ".join(command), flush=True)
    try:
        subprocess.run(
            command,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=300,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return shutil.which("wrk")


def wrk_command(
    wrk: str, port: int, path: str, seconds: float, concurrency: int, cookie: str | None, script: Path = WRK_SCRIPT
) -> list[str]:
    command = [
        wrk,
        "--threads",
        "1",
        "--connections",
        str(concurrency),
        "--duration",
        f"{max(1, round(seconds))}s",
        "--timeout",
        "30s",
        "--latency",
        "--script",
        str(script),
    ]
    if cookie:
        command += ["--header", f"Cookie: {cookie}"]
    return [*command, f"http://{HOST}:{port}{path}"]


def run_wrk(wrk: str, port: int, path: str, seconds: float, concurrency: int, cookie: str | None = None) -> dict:
    """One wrk run (one thread, ``concurrency`` connections), read back through wrk_report.lua's line."""
    command = wrk_command(wrk, port, path, seconds, concurrency, cookie)
    finished = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120)
    line = next((line for line in finished.stdout.splitlines() if line.startswith("BENCH_PAGES_JSON ")), None)
    if finished.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({finished.returncode}):\n{finished.stdout}\n{finished.stderr}")
    data = json.loads(line.split(" ", 1)[1])
    elapsed = data["duration_us"] / 1e6
    kinds = Counter(
        {f"wrk {kind} errors": data[kind] for kind in ("connect", "read", "write", "timeout") if data[kind]}
    )
    if data["status"]:
        kinds["HTTP 4xx/5xx"] = data["status"]
    return {
        "requests": data["requests"],
        "seconds": elapsed,
        "rps": data["requests"] / elapsed if elapsed else 0.0,
        "median_ms": data["p50_us"] / 1000,
        "p95_ms": data["p95_us"] / 1000,
        "errors": sum(kinds.values()),
        "error_kinds": kinds,
    }


def check_page(port: int, page: Page, cookie: str | None) -> float:
    """One request through gunicorn before the load: a 200, and for a logged-in page, the user's name on it.

    Returns its milliseconds: the page's first request, before any cache the site keeps holds it.

    wrk counts only 4xx and 5xx as errors, so a lost session (a redirect to the login page) would otherwise
    be measured as a fast page.
    """
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    began = time.perf_counter()
    connection.request("GET", page.path, headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    body = response.read().decode("utf-8", errors="replace")
    elapsed = (time.perf_counter() - began) * 1000
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{page.ident} answered {response.status} through gunicorn")
    if page.as_user and escape(page.as_user) not in body:
        raise SystemExit(f"{page.ident}: the page does not show {page.as_user}, so the session was not used")
    return elapsed


# ---------------------------------------------------------------------------------------------------------


def measure_rounds(
    port: int,
    pages: list[Page],
    cookies: dict[str, str],
    *,
    rounds: int,
    seconds: float,
    concurrency: int,
    max_requests: int = 100_000,
    wrk: str | None = None,
    cpu_seconds: Callable[[], float] | None = None,
) -> tuple[list[dict[str, dict]], dict[str, float], list[Page]]:
    """Every page in turn, ``rounds`` times, with wrk (or the Python client when ``wrk`` is None).

    Returns each round's figures by page (each with the 1-minute load average as the page began, ``load1``),
    each page's first request in milliseconds (see ``check_page``), and the pages left out because their first
    request took over a minute. With ``cpu_seconds`` (the CPU time the server's processes have used so far),
    each figure also holds the server's CPU milliseconds per request, ``cpu_ms``: unlike the rates and the
    latencies, it hardly changes with what else the machine runs.
    """
    measured: list[dict[str, dict]] = []
    first: dict[str, float] = {}
    too_slow: list[Page] = []
    for round_number in range(rounds):
        figures = {}
        for page in pages:
            cookie = cookies.get(page.as_user) if page.as_user else None
            if page in too_slow:
                continue
            if round_number == 0:
                try:
                    first[page.ident] = check_page(port, page, cookie)
                except TimeoutError:
                    # One page taking over a minute should not cost the whole run: report it, go on.
                    print(f"{page.label} ({page.path}): no answer within 60 s; not measured")
                    too_slow.append(page)
                    continue
                run_load(port, page.path, 60, concurrency, 2 * concurrency, cookie)  # warm-up
            load1 = os.getloadavg()[0]
            cpu_before = cpu_seconds() if cpu_seconds else 0.0
            if wrk:
                figures[page.ident] = run_wrk(wrk, port, page.path, seconds, concurrency, cookie)
            else:
                figures[page.ident] = run_load(port, page.path, seconds, concurrency, max_requests, cookie)
            figures[page.ident]["load1"] = load1
            if cpu_seconds and figures[page.ident]["requests"]:
                used = cpu_seconds() - cpu_before
                figures[page.ident]["cpu_ms"] = used * 1000 / figures[page.ident]["requests"]
        measured.append(figures)
    return measured, first, too_slow


def combine_rounds(pages: list[Page], rounds: list[dict[str, dict]]) -> dict[str, dict]:
    """Each page's figures over the rounds: medians, and its ratio to the bare view of the same round.

    The machine may be shared, so the load on it drifts during a run; a ratio taken within one round, where
    the bare view was measured moments before, drifts less than one taken across the run.
    """
    bare = pages[0].ident
    combined = {}
    for page in pages:
        runs = [figures[page.ident] for figures in rounds]
        answered = [run for run in runs if run["requests"]]  # a round may end before a slow page answers
        ratios = [figures[bare]["rps"] / figures[page.ident]["rps"] for figures in rounds if figures[page.ident]["rps"]]
        combined[page.ident] = {
            "requests": sum(run["requests"] for run in runs),
            "rps": statistics.median(run["rps"] for run in runs),
            "ratio": statistics.median(ratios) if ratios else None,
            "ratio_range": (min(ratios), max(ratios)) if ratios else None,
            "median_ms": statistics.median(run["median_ms"] for run in answered) if answered else float("nan"),
            "p95_ms": statistics.median(run["p95_ms"] for run in answered) if answered else float("nan"),
            # A p95 that differs widely between rounds is a few slow requests (a fresh rendering) in one round.
            "p95_range": (min(run["p95_ms"] for run in answered), max(run["p95_ms"] for run in answered))
            if answered
            else None,
            "errors": sum(run["errors"] for run in runs),
            "error_kinds": sum((run["error_kinds"] for run in runs), Counter()),
            "load1": statistics.median(run["load1"] for run in runs) if all("load1" in run for run in runs) else None,
            "cpu_ms": statistics.median(run["cpu_ms"] for run in runs)
            if all("cpu_ms" in run for run in runs)
            else None,
        }
    return combined


def print_table(
    pages: list[Page],
    figures: dict[str, dict],
    queries: dict[str, int],
    rounds: int = 1,
    first: dict[str, float] | None = None,
) -> None:
    spread = rounds > 1
    first = first or {}
    # The machine's 1-minute load average as each page began (median over the rounds): it may be shared.
    loaded = all(figures[page.ident].get("load1") is not None for page in pages)
    # The server's CPU per request, and its ratio to the bare view's, where measured.
    bare_cpu = figures[pages[0].ident].get("cpu_ms")
    header = (
        f"{'page':<30} {'path':<34} {'req/s':>8} {'vs bare view':>14} {'of bare':>8} "
        + (f"{'ratio range':>12} " if spread else "")
        + f"{'median ms':>10} {'p95 ms':>8} "
        + (f"{'p95 range':>12} " if spread else "")
        + f"{'first ms':>9} {'errors':>7} {'queries':>8}"
        + (f" {'load':>6}" if loaded else "")
        + (f" {'CPU ms':>7} {'CPU ×':>6}" if bare_cpu else "")
    )
    print(header)
    print("-" * len(header))
    for index, page in enumerate(pages):
        figure = figures[page.ident]
        span = ""
        if index == 0:
            ratio, share = "baseline", "100%"
        elif figure["ratio"]:
            ratio, share = f"{figure['ratio']:.1f}× slower", f"{100 / figure['ratio']:.1f}%"
            low, high = figure["ratio_range"]
            span = f"{low:.1f}–{high:.1f}×"
        else:
            ratio, share = "—", "—"
        shown = page.path if len(page.path) <= 34 else page.path[:31] + "..."
        print(
            f"{page.label:<30} {shown:<34} {figure['rps']:>8.1f} {ratio:>14} {share:>8} "
            + (f"{span:>12} " if spread else "")
            + f"{figure['median_ms']:>10.1f} {figure['p95_ms']:>8.1f} "
            + (f"{p95_span(figure):>12} " if spread else "")
            + f"{first.get(page.ident, float('nan')):>9.1f} {figure['errors']:>7} "
            f"{queries[page.ident]:>8}"
            + (f" {figure['load1']:>6.2f}" if loaded else "")
            + (cpu_columns(figure.get("cpu_ms"), bare_cpu) if bare_cpu else "")
        )
    few = [page.label for page in pages if figures[page.ident]["requests"] < 20 * rounds]
    if few:
        print(
            f"fewer than 20 requests a round on: {', '.join(few)}; their percentiles rest on few samples "
            "(raise --seconds)"
        )
    for page in pages:
        if figures[page.ident]["errors"]:
            kinds = ", ".join(f"{kind} ×{n}" for kind, n in figures[page.ident]["error_kinds"].most_common())
            print(f"errors on {page.label}: {kinds}")


def cpu_columns(cpu_ms: float | None, bare_cpu_ms: float) -> str:
    if cpu_ms is None:
        return f" {'—':>7} {'—':>6}"
    return f" {cpu_ms:>7.2f} {cpu_ms / bare_cpu_ms:>6.1f}"


def p95_span(figure: dict) -> str:
    if not figure.get("p95_range"):
        return ""
    low, high = figure["p95_range"]
    return f"{low:.0f}–{high:.0f}"


def load_text() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def machine_description() -> str:
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 2**20:.1f} GiB memory"
    except OSError:
        pass  # not Linux: leave the memory out
    model = ""
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        pass  # no /proc/cpuinfo model line: leave it out
    return (
        f"{os.cpu_count()} CPUs{f' ({model})' if model else ''}{memory}, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--proposals", type=int, default=2000, help="Take the last dynasties until they hold this many proposals."
    )
    parser.add_argument(
        "--scale",
        type=float,
        help="Instead of --proposals: the real history this many times over (1: all of it, "
        "10: 158,000 proposals and 1.4 million comments).",
    )
    parser.add_argument(
        "--loader",
        choices=("bulk", "importer"),
        default="bulk",
        help="Load the game with bulk_load (default) or import_archive.",
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="Load each page for this long, per round.")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="Measure every page this many times in turn and report medians (a shared machine's "
        "load drifts; ratios are taken within each round).",
    )
    parser.add_argument("--concurrency", type=int, default=4, help="Client connections (closed loop).")
    parser.add_argument(
        "--max-requests", type=int, default=100_000, help="Python client only: stop a page after this many requests."
    )
    parser.add_argument(
        "--load-generator",
        choices=("auto", "wrk", "python"),
        default="auto",
        help="auto: wrk when installed (or installable), else the Python client.",
    )
    parser.add_argument("--no-install", action="store_true", help="Do not try to install wrk when it is missing.")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (sync, one thread each).")
    parser.add_argument("--gndt-updates", type=int, default=2000, help="GNDT log entries in the current dynasty.")
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="KEY",
        help="Measure only these pages (besides the bare view): " + ", ".join(PAGE_KEYS) + ".",
    )
    parser.add_argument(
        "--database-url",
        help="postgres://user:password@host:port/db: measure on a temporary PostgreSQL database "
        "created on that server (the named database is not written) and dropped afterwards.",
    )
    parser.add_argument(
        "--redis-url",
        help="redis://host:port/db: serve with Redis as the production setup does (pages, the "
        "content version and sessions there); without it, each worker's local memory and "
        "the database.",
    )
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV, help="Path of fullprophistory.csv.")
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args()
    if not args.csv.exists():
        sys.exit(f"{args.csv} is missing: the benchmark reads the real figures from ../shared at run time.")
    if args.concurrency < 1 or args.seconds <= 0 or args.max_requests < 1 or args.rounds < 1:
        sys.exit("--concurrency, --seconds, --rounds and --max-requests must be positive.")
    if args.scale is not None and args.scale <= 0:
        sys.exit("--scale must be positive.")
    unknown = sorted(set(args.only or ()) - set(PAGE_KEYS))
    if unknown:
        sys.exit(f"unknown page(s) for --only: {', '.join(unknown)}; choose from {', '.join(PAGE_KEYS)}")

    wrk = None
    if args.load_generator != "python":
        wrk = find_wrk(install=not args.no_install)
        if wrk is None and args.load_generator == "wrk":
            sys.exit("wrk is not installed and could not be installed (Debian: apt-get install wrk).")

    # A SIGTERM (from run_all, say) unwinds like Ctrl-C, so gunicorn and the temporary database go too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-pages-"))
    database = TemporaryDatabase(workdir, args.database_url)
    server: Gunicorn | None = None
    created = False
    try:
        started = time.perf_counter()
        history = read_history(args.csv)
        rows = scaled_rows(history, args.scale) if args.scale else last_dynasties(history, args.proposals)
        archive = build_archive(rows, args.seed)
        add_gndt(archive, args.seed, args.gndt_updates)
        built = time.perf_counter() - started
        numbers = [d["number"] for d in archive["dynasties"]]
        comments = sum(len(p["comments"]) for p in archive["posts"])
        summary = (
            f"dynasties {numbers[0]}–{numbers[-1]} ({len(numbers)}), {len(archive['posts'])} proposals, "
            f"{comments} comments, {len(archive['players'])} players "
            f"({sum(not p['idle'] for p in archive['players'])} active), "
            f"{sum(len(p['revisions']) for p in archive['wiki']['pages'])} Ruleset revisions, "
            f"GNDT {len(archive['gndt']['rows'])} rows × {len(archive['gndt']['columns'])} columns with "
            f"{len(archive['gndt']['log'])} updates"
        )
        database.create()
        created = True
        env = server_environment(database.url)
        setup_django(env)
        loading = time.perf_counter()
        load_game(archive, args.loader)
        loaded = time.perf_counter() - loading
        del archive, rows, history
        print(f"game{f' at scale {args.scale:g}' if args.scale else ''}: {summary}")
        print(
            f"built in {built:.1f} s, loaded ({args.loader}) in {loaded:.1f} s; peak RSS of this process "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        )
        print(f"database: {database.label}, {database.server_version()}")
        print(f"machine: {machine_description()}")
        settled = settle_database()
        if settled is not None:
            print(f"VACUUM (ANALYZE) after loading, as autovacuum would have done on a running site: {settled:.1f} s")

        pages = pick_pages()
        if args.only:
            pages = [page for page in pages if page.key == "bare" or page.key in args.only]
        queries = count_queries(pages)
        cookies = session_cookies(pages)
        from django.db import connections

        connections.close_all()

        server = Gunicorn(server_environment(database.url, args.redis_url), args.workers, workdir / "gunicorn.log")
        server.wait_ready()
        if wrk:
            version = subprocess.run([wrk, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
            generator = f"wrk ({version.split(' Copyright')[0].strip()}), 1 thread × {args.concurrency} connections"
        else:
            generator = f"Python client ({args.concurrency} threads, one connection each)"
        print(
            f"server: gunicorn, {args.workers} sync workers × 1 thread, DEBUG=0, on {HOST}:{server.port}; "
            f"{os.cpu_count()} CPUs shared by server and client"
        )
        print(
            "cache: "
            + (
                f"Redis ({args.redis_url}): pages, the content version and sessions"
                if args.redis_url
                else "each worker's local memory; the content version and sessions in the database"
            )
        )
        print(
            f"load generator: {generator}; {args.seconds:g} s per page per round, {args.rounds} round(s), "
            f"after {2 * args.concurrency} warm-up requests"
        )
        if wrk:
            print(
                "wrk command (the cookie header only for logged-in pages): "
                + shlex.join(
                    wrk_command(
                        "wrk",
                        server.port,
                        "/PAGE/",
                        args.seconds,
                        args.concurrency,
                        "sessionid=SESSION",
                        WRK_SCRIPT.relative_to(ROOT),
                    )
                )
            )
        print()
        load_before = load_text()
        rounds, first, too_slow = measure_rounds(
            server.port,
            pages,
            cookies,
            rounds=args.rounds,
            seconds=args.seconds,
            concurrency=args.concurrency,
            max_requests=args.max_requests,
            wrk=wrk,
        )
        pages = [page for page in pages if page not in too_slow]
        if args.rounds > 1:
            print(
                f"{args.rounds} rounds over every page; each figure is the median over the rounds, each ratio "
                "taken against the bare view of its own round"
            )
        print_table(pages, combine_rounds(pages, rounds), queries, args.rounds, first)
        print(
            "first ms: the page's first request through gunicorn, alone, before its warm-up (a cold request: "
            "no cache of the site's holds it yet, and the worker may be loading templates)"
        )
        print()
        print(
            f"load average (1, 5, 15 min) before the pages: {load_before}; after: {load_text()} "
            f"(the machine's other work shares the {os.cpu_count()} CPUs)"
        )
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
