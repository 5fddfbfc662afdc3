"""The site as ``docker-compose.yml`` runs it, on loopback: its pages with the clock running and a player writing.

Run from the project root: ``.venv/bin/python benchmarks/bench_deployed.py --database-url PG [--scale 1 | 10]
[--redis-url redis://127.0.0.1:6379/9] [--quick]``.

The processes are those of ``docker-compose.yml``, started natively: gunicorn (``--workers`` sync workers, 2 by
default, one per CPU of the machine measured on), the Celery worker (two processes, as the compose file has it)
and Celery beat with the production schedule (``CELERY_BEAT_SCHEDULE``, never ``BEAT_EVERY_SECONDS``), Redis as
cache, content-version store, session cache and broker, and PostgreSQL. Production settings as
``bench_pages.server_environment`` gives them (``DEBUG=0``, WhiteNoise's manifest), minus HTTPS.

Redis is one database number of a Redis server (``--redis-url``, which must name it): it is emptied with
FLUSHDB at the start and at the end, and nothing else on the server is touched, so give a number no one else
uses. PostgreSQL is a temporary database created beside the one ``--database-url`` names and dropped at the
end (as ``bench_pages``); with ``--keep`` it is the named database itself, loaded on the first run and found
loaded on the next (loading the 10× game takes minutes).

The game: at ``--scale 1`` the real history as ``manage.py import_history`` loads it from
``../shared/data/blognomic-history/``; at any other scale ``bench_pages``' builder (the real history that many
times over, with a GNDT), written with ``bulk_load``. Then ``VACUUM (ANALYZE)``, as autovacuum would have.

What it does, in order:

1. Starts the processes and catches up: every scheduled job once through the worker (the daily backup left
   out), as a site running all along would have run them. The first runs after an import of twenty years do
   real work (proposals gone stale to mark), which is printed but not held against the idle minute.
2. An idle minute (``--idle-seconds``): no requests. The content version is read from Redis every 0.2 s; it
   reports how often it moved and when, which jobs ran and how long they took (from the worker's log), the
   cache entries added (a statistics or a kept result worked out again is a new entry), and the rows each
   table had written (``pg_stat_user_tables``, read 11 s after the minute, since PostgreSQL may hold its
   counts back up to 10 s). Every figure here should be zero but the heartbeat's row.
3. Every page of ``bench_pages.pick_pages`` (visitor, player and admin), with beat running: wrk, ``--rounds``
   rounds of ``--seconds`` per page, ``--concurrency`` connections, each page's ratio to the bare view (a
   static file; ``/healthz/``, which checks the database, Redis and beat, is measured beside it) of its own
   round, its p95, the load average as it began, and the server's CPU time per request (gunicorn and the
   PostgreSQL backends that serve it, from ``/proc``), which the machine's other work hardly changes.
4. The writer alone for ``--writer-alone`` seconds: players post through HTTP every ``--writer-every``
   seconds, as htmx posts the comment form (``HX-Request``), in turn a FOR vote, a comment, an AGAINST vote,
   a comment, on a pending proposal (the benchmark's own, made anew each run). Three players take turns (the
   measured player first), as on a busy evening: one player's eleventh comment in a row would be flagged by
   Fair Play. Its POSTs are timed.
5. The pages of step 3 again while the writer writes, and the writer's POSTs under that load.
6. The CPU time and memory of each process over each step (from ``/proc``): gunicorn's master and workers,
   the Celery worker and its pool, beat, the Redis server (the whole server, which other databases may
   share), this database's PostgreSQL backends (those serving gunicorn, those serving the worker and beat,
   the rest), wrk and this process (the writer and the watches).
7. Once the processes have stopped: each page rendered afresh in this process with the page cache off
   (``bench_pages.fresh_renderings``), the cost of a cache miss, with its queries.

The load generator shares the machine's CPUs with the server, the worker, beat, Redis and PostgreSQL, and the
machine may be shared with other work: the 1-minute load average is printed beside each figure.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_archive import build_archive, read_history, scaled_rows  # noqa: E402 - found through the path above
from bench_pages import (  # noqa: E402
    HOST,
    PAGE_KEYS,
    WRK_SCRIPT,
    Gunicorn,
    Page,
    add_gndt,
    combine_rounds,
    find_wrk,
    load_game,
    load_text,
    machine_description,
    measure_rounds,
    pick_pages,
    pick_users,
    print_table,
    server_environment,
    session_cookies,
    settle_database,
    setup_django,
    wrk_command,
)
from benchdb import TemporaryDatabase  # noqa: E402

HISTORY_DIR = ROOT.parent / "shared" / "data" / "blognomic-history"
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"
WRITER_TITLE = "A busy evening (benchmark)"
# The bare view: a small file WhiteNoise serves (collectstatic puts it in STATIC_ROOT), touching neither the
# database nor Redis. The health check, the earlier benchmarks' bare view, now asks both and reads beat's
# heartbeat: it is measured beside it.
BARE = Page("bare view: a static file", "/static/favicon.svg", key="static")
# In turn: what each of the writer's posts is (a vote with its icon, or a comment without one).
WRITES = ("for", "", "against", "")
# The daily backup writes a whole archive (and a dump): a catch-up has no need of it, and BACKUP_DIR is unset.
CATCH_UP_LEFT_OUT = {"blognomic.tasks.write_backup"}
# The worker logs one line per finished task (Celery's trace logger at INFO), after the time (blognomic.running.logs).
TASK_LINE = re.compile(
    r"^(?P<at>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) .*?Task (?P<name>[\w.]+)\[[0-9a-f-]+\] "
    r"(?:succeeded in (?P<s>[0-9.]+)s|(?P<failed>raised))",
    re.MULTILINE,
)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# How the processes name themselves to PostgreSQL.
APPLICATIONS = {"web": "blognomic web", "jobs": "blognomic jobs"}
# The target for a fresh rendering at 10×; slower pages are profiled.
FRESH_TARGET_MS = 60
PG_STATS_LAG = 11  # seconds: PostgreSQL's backends report their counts at most 10 s late


# ---------------------------------------------------------------------------------------------------------
# The processes


class CeleryProcess:
    """``celery -A blognomic worker|beat`` as docker-compose.yml starts it, its output in ``logfile``."""

    def __init__(self, role: str, arguments: list[str], env: dict[str, str], logfile: Path) -> None:
        self.role = role
        self.logfile = logfile
        command = [str(Path(sys.executable).parent / "celery"), "-A", "blognomic", role, "--loglevel", "info"]
        with logfile.open("wb") as log:
            self.process = subprocess.Popen(
                [*command, *arguments],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def log_offset(self) -> int:
        try:
            return self.logfile.stat().st_size
        except OSError:
            return 0

    def log_since(self, offset: int) -> str:
        with self.logfile.open("rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", errors="replace")

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery {self.role} exited with {self.process.returncode}:\n{self.log_since(0)}")
            if text in self.log_since(0):
                return
            time.sleep(0.2)
        raise RuntimeError(f"celery {self.role} did not log {text!r} within {timeout:.0f} s:\n{self.log_since(0)}")

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # a warm shutdown: the worker finishes its tasks
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the pool goes with it
            self.process.wait(timeout=5)


@dataclass
class Stack:
    server: Gunicorn
    worker: CeleryProcess
    beat: CeleryProcess

    def stop(self) -> None:
        for process in (self.beat, self.worker, self.server):
            process.stop()


def start_stack(database_url: str, redis_url: str, workers: int, workdir: Path) -> Stack:
    """gunicorn, the Celery worker and beat, each as docker-compose.yml starts it (beat last, as there)."""
    env = server_environment(database_url, redis_url)
    env.pop("BEAT_EVERY_SECONDS", None)  # the production schedule
    # Each process names itself to PostgreSQL (libpq reads PGAPPNAME), so its backends' CPU is told apart.
    server = Gunicorn({**env, "PGAPPNAME": APPLICATIONS["web"]}, workers, workdir / "gunicorn.log")
    jobs_env = {**env, "LOG_LEVEL": "INFO"}  # a line per task, read back for the jobs' figures
    worker = CeleryProcess(
        "worker", ["--concurrency", "2"], {**jobs_env, "PGAPPNAME": APPLICATIONS["jobs"]}, workdir / "worker.log"
    )
    server.wait_ready()
    worker.wait_for("ready.")
    beat = CeleryProcess(
        "beat",
        ["--schedule", str(workdir / "celerybeat-schedule")],
        {**jobs_env, "PGAPPNAME": APPLICATIONS["jobs"]},
        workdir / "beat.log",
    )
    beat.wait_for("beat: Starting")
    return Stack(server, worker, beat)


# ---------------------------------------------------------------------------------------------------------
# Redis


class RedisDatabase:
    """The one database number of the Redis server that the run owns."""

    def __init__(self, url: str) -> None:
        import redis

        parts = urlsplit(url)
        number = parts.path.strip("/")
        if parts.scheme not in {"redis", "rediss"} or not number.isdigit():
            sys.exit("--redis-url must name a database number of its own, like redis://127.0.0.1:6379/9.")
        self.url = url
        self.number = int(number)
        self.client = redis.Redis.from_url(url)

    def flush(self) -> None:
        self.client.flushdb()  # this database number only

    def server_pid(self) -> int | None:
        try:
            return int(self.client.info("server")["process_id"])
        except Exception:  # noqa: BLE001 - a Redis elsewhere has no pid here
            return None

    def server_version(self) -> str:
        return str(self.client.info("server").get("redis_version", "?"))

    def read_int(self, key: str) -> int | None:
        value = self.client.get(key)
        return None if value is None else int(value)

    def keys(self) -> set[bytes]:
        return set(self.client.scan_iter(count=1000))


def key_family(key: bytes) -> str:
    """A cache key's kind: ``:1:stats:data:…`` is ``stats:data``, Celery's result ``celery-task-meta``."""
    text = key.decode("utf-8", errors="replace")
    if text.startswith(":1:"):
        text = text[3:]
    parts = text.split(":")
    if text.startswith("celery-task-meta-"):
        return "celery-task-meta"
    return ":".join(parts[:2]) if len(parts) > 2 else parts[0]


CELERY_FAMILIES = {"celery-task-meta", "_kombu.binding.celery", "_kombu.binding.celeryev", "unacked", "celery"}


def is_celery_key(family: str) -> bool:
    return family in CELERY_FAMILIES or family.startswith(("_kombu", "unacked", "celery"))


class VersionWatch(threading.Thread):
    """Reads the content version from Redis every ``every`` seconds and keeps each change with its time."""

    def __init__(self, redis_db: RedisDatabase, key: str, every: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.redis = redis_db
        self.key = key
        self.every = every
        self.changes: list[tuple[float, int]] = []  # (wall time, how far it moved)
        self.stopped = threading.Event()
        self.last: int | None = None

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                value = self.redis.read_int(self.key)
            except Exception:  # noqa: BLE001 - a read that failed is tried again next time
                value = None
            if value is not None:
                if self.last is not None and value != self.last:
                    # A value below the last is the key re-seeded (lost and started again): one move.
                    self.changes.append((time.time(), value - self.last if value > self.last else 1))
                self.last = value
            self.stopped.wait(self.every)

    def between(self, start: float, end: float) -> list[tuple[float, int]]:
        return [(at, moved) for at, moved in self.changes if start <= at < end]


def moves_text(changes: list[tuple[float, int]], runs: list[TaskRun] | None = None) -> str:
    """How often the version moved and when (seconds past the minute), with the jobs running at each moment."""
    if not changes:
        return "did not move"
    moments = []
    for at, moved in changes:
        during = sorted({run.short for run in runs or () if run.covers(at)})
        moments.append(
            f":{datetime.fromtimestamp(at, UTC):%S}{f' ×{moved}' if moved > 1 else ''}"
            + (f" ({', '.join(during)})" if during else "")
        )
    shown = ", ".join(moments[:20]) + (f" and {len(moments) - 20} more" if len(moments) > 20 else "")
    return f"moved {sum(moved for _, moved in changes)} times at {len(changes)} moments: {shown}"


# ---------------------------------------------------------------------------------------------------------
# What the processes cost


def read_proc(pid: int) -> tuple[int, float, float] | None:
    """CPU ticks (user + system), resident and peak resident megabytes of a process, or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime and stime, the 14th and 15th fields
    memory = {line.split(":")[0]: int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("Vm")}
    return ticks, memory.get("VmRSS", 0.0), memory.get("VmHWM", 0.0)


def process_table() -> dict[int, tuple[int, str]]:
    """Every process: its parent and its command line."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        table[int(entry.name)] = (parent, command.strip())
    return table


class Backends:
    """Which PostgreSQL backends of the run's database serve which process, as pg_stat_activity says (each
    process names itself with PGAPPNAME), through a connection of this object's own."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.connection = psycopg.connect(url, autocommit=True)
        self.lock = threading.Lock()

    def by_role(self) -> dict[str, list[int]]:
        with self.lock:
            rows = self.connection.execute(
                "SELECT pid, application_name FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            ).fetchall()
        roles: dict[str, list[int]] = {"web": [], "jobs": [], "other": []}
        names = {name: role for role, name in APPLICATIONS.items()}
        for pid, application in rows:
            roles[names.get(application, "other")].append(pid)
        return roles

    def close(self) -> None:
        with self.lock:
            self.connection.close()


def site_processes(stack: Stack, redis_pid: int | None, backends: Backends) -> dict[str, list[int]]:
    """The processes of the site by role."""
    table = process_table()
    serving = backends.by_role()

    def children(pid: int) -> list[int]:
        return sorted(child for child, (parent, _) in table.items() if parent == pid)

    me = os.getpid()
    roles = {
        "gunicorn master": [stack.server.process.pid],
        "gunicorn workers": children(stack.server.process.pid),
        "Celery worker (main)": [stack.worker.pid],
        "Celery worker (pool)": children(stack.worker.pid),
        "Celery beat": [stack.beat.pid],
        "Redis server": [redis_pid] if redis_pid else [],
        "PostgreSQL for gunicorn": serving["web"],
        "PostgreSQL for the jobs": serving["jobs"],
        # This process's reads, autovacuum: the rest of the database's backends.
        "PostgreSQL, other": serving["other"],
        "wrk": [pid for pid in children(me) if "wrk" in table[pid][1].split(" ")[0]],
        "this process": [me],
    }
    return roles


class ServerCpu:
    """The CPU seconds gunicorn (master and workers) and the PostgreSQL backends serving it have used since the
    first call: what serving the requests cost, whatever else the machine runs meanwhile (the jobs' own
    queries, a statistics worked out again each minute, are not counted). A backend that ends between two
    calls loses its last increment; one that starts counts whole."""

    def __init__(self, stack: Stack, backends: Backends) -> None:
        self.stack = stack
        self.backends = backends
        self.last: dict[int, int] = {}
        self.total = 0
        self.started = False

    def __call__(self) -> float:
        roles = site_processes(self.stack, None, self.backends)
        for pid in [*roles["gunicorn master"], *roles["gunicorn workers"], *roles["PostgreSQL for gunicorn"]]:
            found = read_proc(pid)
            if found is None:
                continue
            ticks = found[0]
            before = self.last.get(pid, 0 if self.started else ticks)
            self.total += ticks - before
            self.last[pid] = ticks
        self.started = True
        return self.total / CLOCK_TICKS


class ProcessWatch(threading.Thread):
    """Samples the CPU time and memory of the site's processes every second, by role."""

    def __init__(self, roles: Callable[[], dict[str, list[int]]], every: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.roles = roles
        self.every = every
        self.latest: dict[int, tuple[str, int, float]] = {}  # pid: role, CPU ticks, resident MB
        self.peak: dict[int, float] = {}
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def sample(self) -> None:
        for role, pids in self.roles().items():
            for pid in pids:
                found = read_proc(pid)
                if found is None:
                    continue
                ticks, rss, _ = found
                with self.lock:
                    self.latest[pid] = (role, ticks, rss)
                    self.peak[pid] = max(self.peak.get(pid, 0.0), rss)

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                self.sample()
            except Exception:  # noqa: BLE001 - a process that ended mid-read is sampled next time
                pass  # the next sample catches up
            self.stopped.wait(self.every)

    def mark(self) -> dict[int, tuple[str, int, float]]:
        """The figures now (sampled at once, so a phase starts and ends on a fresh reading)."""
        self.sample()
        with self.lock:
            return dict(self.latest)

    def usage(self, start: dict, end: dict, seconds: float) -> list[dict]:
        """Per role over a phase: CPU seconds and share of one CPU, resident memory at its end and its peak."""
        rows: dict[str, dict] = {}
        for pid, (role, ticks, rss) in end.items():
            before = start.get(pid, (role, 0, 0.0))[1]  # a process started during the phase counts whole
            row = rows.setdefault(role, {"role": role, "cpu": 0.0, "rss": [], "peak": [], "pids": 0})
            row["cpu"] += max(0, ticks - before) / CLOCK_TICKS
            if read_proc(pid) is not None:  # still running at the end
                row["rss"].append(rss)
                row["peak"].append(self.peak.get(pid, rss))
                row["pids"] += 1
        for row in rows.values():
            row["share"] = row["cpu"] / seconds if seconds else 0.0
        return list(rows.values())


def print_usage(title: str, rows: list[dict], seconds: float) -> None:
    print(f"\n{title} ({seconds:.0f} s): CPU time and memory by process")
    header = f"{'process':<24} {'running':>8} {'CPU s':>8} {'of a CPU':>9} {'RSS MB (each)':>28} {'peak MB':>8}"
    print(header)
    print("-" * len(header))
    for row in rows:
        each = "/".join(f"{value:.0f}" for value in sorted(row["rss"])) or "—"
        if len(each) > 28:
            each = f"{min(row['rss']):.0f}–{max(row['rss']):.0f} × {len(row['rss'])}"
        peak = f"{max(row['peak']):.0f}" if row["peak"] else "—"
        print(f"{row['role']:<24} {row['pids']:>8} {row['cpu']:>8.1f} {100 * row['share']:>8.0f}% {each:>28} {peak:>8}")


# ---------------------------------------------------------------------------------------------------------
# The writer


@dataclass
class Write:
    kind: str  # "vote" or "comment"
    ms: float
    status: int
    load1: float


@dataclass
class Writer:
    """Players posting through HTTP every ``every`` seconds, in a thread: each post by the next of them (their
    session cookies), a vote or a comment in turn."""

    port: int
    slug: str
    session_cookies: list[str]
    every: float = 2.0
    writes: list[Write] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None
        self.count = 0

    def post_once(self) -> Write:
        icon = WRITES[self.count % len(WRITES)]
        session_cookie = self.session_cookies[self.count % len(self.session_cookies)]
        self.count += 1
        body = urlencode({"text": f"Write {self.count} at {datetime.now(UTC):%H:%M:%S}", "icon": icon})
        headers = {
            "Cookie": session_cookie,
            # The CSRF cookie's secret is also a valid token (unmasked).
            "X-CSRFToken": SimpleCookie(session_cookie)["csrftoken"].value,
            "HX-Request": "true",
            "HX-Target": "matter",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        load1 = os.getloadavg()[0]
        connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
        began = time.perf_counter()
        try:
            connection.request("POST", f"/posts/{self.slug}/comment/", body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            connection.close()
        return Write("vote" if icon else "comment", (time.perf_counter() - began) * 1000, status, load1)

    def _run(self) -> None:
        next_at = time.monotonic()
        while not self.stopped.is_set():
            self.writes.append(self.post_once())
            next_at += self.every
            # A post slower than the period is followed at once by the next, not by a burst to catch up.
            next_at = max(next_at, time.monotonic())
            self.stopped.wait(next_at - time.monotonic())

    def start(self) -> None:
        self.writes = []
        self.stopped.clear()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def stop(self) -> list[Write]:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=90)
        return list(self.writes)


def percentile(values: list[float], share: int) -> float:
    """The nearest-rank percentile, as bench_pages' Python client takes it."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-share * len(ordered) // 100) - 1))]


def print_writes(title: str, writes: list[Write]) -> None:
    print(f"\n{title}:")
    for kind in ("vote", "comment"):
        chosen = [write for write in writes if write.kind == kind]
        if not chosen:
            continue
        times = [write.ms for write in chosen]
        failed = Counter(write.status for write in chosen if write.status != 200)
        load = statistics.median(write.load1 for write in chosen)
        print(
            f"  {kind} POSTs: {len(chosen)}, median {statistics.median(times):.0f} ms, "
            f"p95 {percentile(times, 95):.0f} ms, max {max(times):.0f} ms; load {load:.2f}"
            + (f"; not 200: {dict(failed)}" if failed else "")
        )


def writer_target(player: str) -> str:
    """A new pending proposal for the writer's player to vote on, so every run's writer starts on an empty one.

    An earlier run's (in a kept database) is deleted first: the benchmark's own, not the game's. Made as each
    active player in turn (the player first), since one may be at the proposal limit."""
    from django.utils import timezone

    from dynasties.models import User
    from votes.models import Kind, Post
    from votes.posting import PostError, post_create
    from votes.state import game_state

    Post.objects.filter(title=WRITER_TITLE).delete()
    now = timezone.now()
    names = sorted(game_state(now).roster.active_names, key=lambda name: (name != player, name))
    for name in names:
        try:
            post = post_create(
                author=User.objects.get(username=name),
                kind=Kind.PROPOSAL,
                title=WRITER_TITLE,
                body="Players vote on this one all evening: the benchmark's writer.",
                now=now,
            )
        except PostError:
            continue
        return post.slug
    raise SystemExit("no active player may make a proposal for the writer to vote on")


def writes_recorded(slug: str, players: list[str], since: datetime) -> int:
    from votes.models import Comment

    return Comment.objects.filter(post__slug=slug, author__username__in=players, at__gte=since).count()


def writer_players(player: str, count: int = 3) -> list[str]:
    """Who writes: the measured player, then other active players who are neither admin nor Emperor, in turn.

    More than one, since Fair Play flags more than ten comments in a row by one player (a notice to every
    admin, and a check for it on each comment after); few, so that their votes never decide the proposal."""
    from django.utils import timezone

    from dynasties.models import User
    from votes.state import game_state

    state = game_state(timezone.now())
    others = (
        User.objects.filter(username__in=state.roster.active_names, is_admin=False)
        .exclude(username=player)
        .exclude(pk=state.emperor.pk if state.emperor else None)
        .order_by("username")
        .values_list("username", flat=True)
    )
    return [player, *list(others)[: count - 1]]


# ---------------------------------------------------------------------------------------------------------
# The jobs


def table_writes() -> dict[str, int]:
    """Rows inserted, updated and deleted so far, by table, as PostgreSQL counts them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_user_tables")
        return dict(cursor.fetchall())


def written_since(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {table: n - before.get(table, 0) for table, n in sorted(after.items()) if n != before.get(table, 0)}


@dataclass(frozen=True)
class TaskRun:
    """One task the worker finished: when, how long it took, whether it failed."""

    name: str
    finished: float
    seconds: float
    failed: bool = False

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    def covers(self, at: float) -> bool:
        """Whether a move seen at ``at`` (read every 0.2 s, the log's time to the millisecond) fell in it."""
        return self.finished - self.seconds - 0.3 <= at <= self.finished + 0.5


def tasks_in(log: str) -> list[TaskRun]:
    """The tasks a stretch of the worker's log shows finishing (its times are the machine's local time)."""
    runs = []
    for match in TASK_LINE.finditer(log):
        finished = datetime.strptime(match["at"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        runs.append(TaskRun(match["name"], finished, float(match["s"] or 0), bool(match["failed"])))
    return runs


def tasks_text(runs: list[TaskRun]) -> str:
    by_name: dict[str, list[TaskRun]] = {}
    for run in runs:
        by_name.setdefault(run.short, []).append(run)
    shown = []
    for name, each in sorted(by_name.items()):
        longest = max(run.seconds for run in each) * 1000
        failed = sum(run.failed for run in each)
        shown.append(
            f"{name} ×{len(each)} ({longest:.0f} ms{' at most' if len(each) > 1 else ''}"
            + (f", {failed} FAILED" if failed else "")
            + ")"
        )
    return ", ".join(shown) or "none"


def new_entries(before: set[bytes], after: set[bytes]) -> tuple[Counter, Counter]:
    """Cache entries added between two readings of the keys, by kind: the site's and Celery's own."""
    added = Counter(key_family(key) for key in after - before)
    celery = Counter({family: n for family, n in added.items() if is_celery_key(family)})
    return Counter({family: n for family, n in added.items() if not is_celery_key(family)}), celery


def entries_text(added: Counter) -> str:
    return ", ".join(f"{family} {n}" for family, n in added.most_common()) or "none"


def catch_up(stack: Stack, watch: VersionWatch) -> None:
    """Every scheduled job once through the worker, each waited for; then until the version is still.

    A task's end is read from the worker's log, since the site stores no task results."""
    from django.conf import settings

    from blognomic.celery import app

    started = time.time()
    print("catching up: every scheduled job once through the worker (the daily backup left out)")
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        if entry["task"] in CATCH_UP_LEFT_OUT:
            continue
        before = time.time()
        offset = stack.worker.log_offset()
        task_id = app.send_task(entry["task"]).id
        lines = task_outcome(stack.worker, offset, task_id, timeout=900).split("\\n")  # as the log writes it
        shown = lines[0] if len(lines[0]) <= 60 else lines[0][:57] + "..."
        shown += f" (and {len(lines) - 1} lines more)" if len(lines) > 1 else ""
        moved = sum(moved for _, moved in watch.between(before, time.time() + 0.5))
        print(f"  {name:<26} {time.time() - before:>6.2f} s, the version moved {moved:>3} times: {shown}")
    settle_version(watch)
    print(f"caught up in {time.time() - started:.0f} s; {moves_text(watch.between(started, time.time()))}")


def task_outcome(worker: CeleryProcess, offset: int, task_id: str, timeout: float) -> str:
    """What the worker logged a task returned (or that it failed), once it has; "no answer" after ``timeout``."""
    finished = re.compile(
        rf"Task [\w.]+\[{re.escape(task_id)}\] (?:succeeded in [0-9.]+s: (?P<value>.*)|(?P<failed>raised.*))$",
        re.MULTILINE,
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = finished.search(worker.log_since(offset))
        if found:
            return found["value"] if found["value"] is not None else f"FAILED: {found['failed']}"
        time.sleep(0.1)
    return f"no answer within {timeout:.0f} s"


def settle_version(watch: VersionWatch, quiet: float = 5.0, longest: float = 120.0) -> None:
    """Wait until the version has not moved for ``quiet`` seconds (tasks the jobs queued have run)."""
    deadline = time.time() + longest
    while time.time() < deadline:
        last = watch.changes[-1][0] if watch.changes else 0.0
        if time.time() - last >= quiet:
            return
        time.sleep(0.5)


def idle_minute(stack: Stack, watch: VersionWatch, redis_db: RedisDatabase, seconds: float) -> dict:
    """No requests for ``seconds``: what beat and the worker did to the content, the cache and the tables."""
    rows_before = table_writes()
    keys_before = redis_db.keys()
    offset = stack.worker.log_offset()
    start = time.time()
    time.sleep(seconds)
    end = time.time()
    keys_after = redis_db.keys()
    log = stack.worker.log_since(offset)
    time.sleep(PG_STATS_LAG)
    rows = written_since(rows_before, table_writes())
    added, celery = new_entries(keys_before, keys_after)
    return {
        "start": start,
        "end": end,
        "moves": watch.between(start, end),
        "tasks": tasks_in(log),
        "added": added,
        "celery": celery,
        "rows": rows,
    }


def print_idle(idle: dict, load_before: str, load_after: str) -> None:
    seconds = idle["end"] - idle["start"]
    began, ended = (datetime.fromtimestamp(idle[end], UTC) for end in ("start", "end"))
    print(
        f"\nidle minute: {seconds:.0f} s with no requests, beat and the worker running "
        f"({began:%H:%M:%S}–{ended:%H:%M:%S} UTC; load {load_before} → {load_after})"
    )
    print(f"  the content version {moves_text(idle['moves'], idle['tasks'])}")
    print(f"  jobs that ran: {tasks_text(idle['tasks'])}")
    print(f"  cache entries added (work done again, a statistics or a kept result): {entries_text(idle['added'])}")
    print(f"  Celery's own entries added: {entries_text(idle['celery'])}")
    rows = ", ".join(f"{table} {n}" for table, n in idle["rows"].items()) or "none"
    print(f"  rows written by table (the minute and the {PG_STATS_LAG} s after it): {rows}")


# ---------------------------------------------------------------------------------------------------------
# A phase under load


@dataclass
class Phase:
    """One stretch of the run: its figures, and what the processes, the version and the cache did meanwhile."""

    name: str
    start: float = 0.0
    end: float = 0.0
    procs_start: dict = field(default_factory=dict)
    procs_end: dict = field(default_factory=dict)
    keys_start: set = field(default_factory=set)
    keys_end: set = field(default_factory=set)
    rows_start: dict = field(default_factory=dict)
    rows_end: dict = field(default_factory=dict)
    log_offset: int = 0
    log: str = ""
    load_start: str = ""
    load_end: str = ""

    def begin(self, stack: Stack, procs: ProcessWatch, redis_db: RedisDatabase) -> None:
        self.load_start = load_text()
        self.rows_start = table_writes()
        self.keys_start = redis_db.keys()
        self.log_offset = stack.worker.log_offset()
        self.procs_start = procs.mark()
        self.start = time.time()

    def finish(self, stack: Stack, procs: ProcessWatch, redis_db: RedisDatabase) -> None:
        self.end = time.time()
        self.procs_end = procs.mark()
        self.keys_end = redis_db.keys()
        self.log = stack.worker.log_since(self.log_offset)
        self.rows_end = table_writes()
        self.load_end = load_text()

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def print_summary(self, watch: VersionWatch, procs: ProcessWatch) -> None:
        added, _ = new_entries(self.keys_start, self.keys_end)
        print(
            f"\nduring {self.name} ({self.seconds / 60:.1f} min, load {self.load_start} → {self.load_end}): "
            f"the content version {moves_text(watch.between(self.start, self.end), tasks_in(self.log))}"
        )
        print(f"  jobs that ran: {tasks_text(tasks_in(self.log))}")
        print(f"  cache entries added: {entries_text(added)} (blognomic:page: pages rendered and stored)")
        rows = ", ".join(f"{table} {n}" for table, n in written_since(self.rows_start, self.rows_end).items())
        print(f"  rows written by table: {rows or 'none'}")
        print_usage(self.name, procs.usage(self.procs_start, self.procs_end, self.seconds), self.seconds)


def measure_pages(
    stack: Stack, pages: list[Page], cookies: dict[str, str], args, wrk: str | None, cpu: ServerCpu
) -> dict:
    rounds, first, too_slow = measure_rounds(
        stack.server.port,
        pages,
        cookies,
        rounds=args.rounds,
        seconds=args.seconds,
        concurrency=args.concurrency,
        wrk=wrk,
        cpu_seconds=cpu,
    )
    measured = [page for page in pages if page not in too_slow]
    return {
        "pages": measured,
        "figures": combine_rounds(measured, rounds),
        # The same rounds against the health check, the bare view of the earlier page benchmarks.
        "against_health": combine_rounds(measured[1:], rounds),
        "first": first,
    }


def print_pages(title: str, result: dict, queries: dict[str, int], rounds: int, targets: str) -> None:
    print(f"\n{title} (targets: {targets})")
    print_table(result["pages"], result["figures"], queries, rounds, result["first"])
    # A page whose every request outlasted its rounds has no figures but its first request's time.
    pages = [page for page in result["pages"][2:] if result["figures"][page.ident]["ratio"]]
    unanswered = [page.label for page in result["pages"][2:] if page not in pages]
    if unanswered:
        print(f"answered no request within a round: {', '.join(unanswered)}")
    if not pages:
        return
    bare, health = (result["figures"][page.ident] for page in result["pages"][:2])
    ratios = [result["figures"][page.ident]["ratio"] for page in pages]
    to_health = [result["against_health"][page.ident]["ratio"] for page in pages]
    p95s = [result["figures"][page.ident]["p95_ms"] for page in pages]
    print(
        f"every page {min(ratios):.1f}–{max(ratios):.1f}× the static file ({bare['rps']:.0f} req/s), "
        f"{min(to_health):.1f}–{max(to_health):.1f}× /healthz/ ({health['rps']:.0f} req/s); "
        f"p95 {min(p95s):.0f}–{max(p95s):.0f} ms"
    )
    costs = [result["figures"][page.ident]["cpu_ms"] for page in pages]
    if bare.get("cpu_ms") and None not in costs:
        print(
            f"the server's CPU per request (gunicorn and its PostgreSQL backends): "
            f"{min(costs):.2f}–{max(costs):.2f} ms, "
            f"{min(costs) / bare['cpu_ms']:.1f}–{max(costs) / bare['cpu_ms']:.1f}× the static file's "
            f"{bare['cpu_ms']:.2f} ms"
        )


def print_fresh(pages: list[Page], renderings: dict[str, dict]) -> None:
    print(
        "\nfresh renderings (a cache miss), in this process, page cache off, after one warm-up "
        f"(target ≤ {FRESH_TARGET_MS} ms at 10×); CPU ms: this process's median, without PostgreSQL's"
    )
    header = f"{'page':<30} {'median ms':>10} {'min':>7} {'max':>7} {'CPU ms':>7} {'queries':>8}"
    print(header)
    print("-" * len(header))
    for page in pages:
        rendering = renderings[page.ident]
        times = rendering["ms"]
        print(
            f"{page.label:<30} {statistics.median(times):>10.1f} {min(times):>7.1f} {max(times):>7.1f} "
            f"{statistics.median(rendering['cpu_ms']):>7.1f} {rendering['queries']:>8}"
        )


@contextmanager
def template_times():
    """Milliseconds spent in each template rendered (inclusive of what it includes), by name."""
    from django.template import base

    times: dict[str, list[float]] = {}
    original = base.Template.render

    def timed(self, context):
        began = time.perf_counter()
        try:
            return original(self, context)
        finally:
            times.setdefault(self.name or "(a template from a string)", []).append((time.perf_counter() - began) * 1000)

    base.Template.render = timed
    try:
        yield times
    finally:
        base.Template.render = original


def profile_request(send: Callable[[], object]) -> dict:
    """One request in this process: its milliseconds, its queries with theirs, and its templates'."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with template_times() as templates, CaptureQueriesContext(connection) as queries:
        began, cpu = time.perf_counter(), time.process_time()
        send()
        total, cpu = (time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000
    return {
        "ms": total,
        # On a shared machine the wall time holds the waits for a CPU, and the templates' and queries' times
        # the preemptions that fell in them; this process's CPU time does not.
        "cpu_ms": cpu,
        "queries": [(float(query["time"]) * 1000, query["sql"]) for query in queries.captured_queries],
        "templates": {name: (sum(times), len(times)) for name, times in templates.items()},
    }


def sql_summary(sql: str, width: int = 110) -> str:
    """A query in a line: its verb and what follows FROM (or the statement's start)."""
    verb = sql.split(None, 1)[0] if sql.strip() else ""
    start = sql.find(" FROM ")
    shown = f"{verb} …{sql[start:]}" if verb == "SELECT" and start > 0 else sql
    shown = " ".join(shown.split())
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def print_profile(title: str, profile: dict, top: int = 6) -> None:
    sql_ms = sum(ms for ms, _ in profile["queries"])
    print(
        f"\nwhere {title}'s {profile['ms']:.0f} ms went ({profile['cpu_ms']:.0f} ms of them this process's CPU): "
        f"{len(profile['queries'])} queries, {sql_ms:.0f} ms of SQL as Django timed it; the rest Python and templates"
    )
    for ms, sql in sorted(profile["queries"], key=lambda item: -item[0])[:top]:
        print(f"  {ms:7.1f} ms  {sql_summary(sql)}")
    templates = sorted(profile["templates"].items(), key=lambda item: -item[1][0])[:top]
    if templates:
        print("  templates (each with what it includes):")
        for name, (ms, count) in templates:
            print(f"  {ms:7.1f} ms  {name}{f' ×{count}' if count > 1 else ''}")


def measure_fresh(pages: list[Page], slug: str, player: str, repeat: int) -> None:
    """Each page's fresh rendering in this process, a profile of those over the target, and a vote's."""
    from bench_pages import fresh_renderings

    print(f"\nload average before the fresh renderings: {load_text()}")
    renderings = fresh_renderings(pages, repeat=repeat)
    print_fresh(pages, renderings)
    profile_slow_renderings(pages, renderings, FRESH_TARGET_MS)
    profile_vote(slug, player)


def profile_slow_renderings(pages: list[Page], renderings: dict[str, dict], target_ms: float) -> None:
    """A profile of each page whose fresh rendering's median is over ``target_ms``: which queries, which
    templates."""
    from django.test import Client
    from django.test.utils import override_settings

    from dynasties.models import User

    for page in pages:
        if statistics.median(renderings[page.ident]["ms"]) <= target_ms:
            continue
        client = Client(HTTP_HOST=HOST)
        if page.as_user:
            client.force_login(User.objects.get(username=page.as_user))
        with override_settings(PAGE_CACHE=False):
            print_profile(f"{page.label} (fresh)", profile_request(partial(client.get, page.path)))


def profile_vote(slug: str, player: str) -> None:
    """One vote through the view in this process, as the writer sends it (htmx): its queries and templates."""
    from django.test import Client

    from dynasties.models import User

    client = Client(HTTP_HOST=HOST)
    client.force_login(User.objects.get(username=player))
    path = f"/posts/{slug}/comment/"
    client.post(path, {"text": "A vote to warm up", "icon": "against"}, HTTP_HX_REQUEST="true")
    profile = profile_request(
        lambda: client.post(path, {"text": "A vote, profiled", "icon": "for"}, HTTP_HX_REQUEST="true")
    )
    print_profile("a vote's POST (in this process, the site's processes stopped)", profile)


# ---------------------------------------------------------------------------------------------------------
# The game


def pages_in_game(pages: list[Page]) -> tuple[list[Page], list[Page]]:
    """The pages this game has, and those it lacks (a 404: the real history as ``import_history`` loads it
    has no wiki, so no Ruleset). Any other answer but a 200 stops the run."""
    from django.test import Client
    from django.test.utils import override_settings

    from dynasties.models import User

    present, absent = [], []
    quiet = logging.getLogger("django.request")  # which warns of each 404: here they are the question
    level, quiet.level = quiet.level, logging.ERROR
    for page in pages:
        client = Client(HTTP_HOST=HOST)
        if page.as_user:
            client.force_login(User.objects.get(username=page.as_user))
        with override_settings(PAGE_CACHE=False):  # the page cache stays cold for the first requests
            status = client.get(page.path).status_code
        if status == 404:
            absent.append(page)
        elif status == 200:
            present.append(page)
        else:
            raise SystemExit(f"{page.ident} answered {status} in-process")
    quiet.level = level
    return present, absent


def database_is_loaded() -> bool:
    from django.db import connection

    from votes.models import Post

    return Post._meta.db_table in connection.introspection.table_names() and Post.objects.exists()


def load_history(directory: Path) -> str:
    """The real history through ``manage.py import_history``; returns its report's first line."""
    from io import StringIO

    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    out = StringIO()
    call_command("import_history", str(directory), stdout=out)
    call_command("collectstatic", interactive=False, verbosity=0)
    return out.getvalue().splitlines()[0]


def load_scaled(csv: Path, scale: float, seed: int, gndt_updates: int) -> str:
    """``bench_pages``' game at ``scale`` times the history, bulk-loaded; returns what was built and how long."""
    started = time.perf_counter()
    archive = build_archive(scaled_rows(read_history(csv), scale), seed)
    add_gndt(archive, seed, gndt_updates)
    built = time.perf_counter() - started
    loading = time.perf_counter()
    load_game(archive, "bulk")
    return f"built in {built:.0f} s, bulk-loaded in {time.perf_counter() - loading:.0f} s"


def game_summary() -> str:
    from django.db.models import Count

    from dynasties.models import User
    from ruleset.models import Revision
    from votes.models import Comment, Post

    posts = Post.objects.aggregate(n=Count("pk"))["n"]
    return (
        f"{posts} posts, {Comment.objects.count()} comments, {User.objects.count()} accounts, "
        f"{Revision.objects.count()} wiki revisions"
    )


# ---------------------------------------------------------------------------------------------------------


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        required=True,
        help="postgres://user:password@host:port/db: the run's database is made beside this one (unless --keep).",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="Run in the database --database-url names and keep it: loaded when empty, used as found otherwise.",
    )
    parser.add_argument("--redis-url", default=DEFAULT_REDIS, help="A Redis database number of the run's own.")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="1: the real history (import_history); N: bench_pages' game N×."
    )
    parser.add_argument("--history", type=Path, default=HISTORY_DIR, help="The history's directory.")
    parser.add_argument("--seconds", type=float, default=5.0, help="wrk on each page for this long, per round.")
    parser.add_argument("--rounds", type=int, default=2, help="Rounds over every page, in each phase.")
    parser.add_argument("--concurrency", type=int, default=10, help="wrk's connections.")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's sync workers.")
    parser.add_argument("--idle-seconds", type=float, default=60.0, help="The idle minute's length.")
    parser.add_argument("--writer-every", type=float, default=2.0, help="Seconds between the writer's posts.")
    parser.add_argument("--writer-alone", type=float, default=30.0, help="Seconds the writer writes with no load.")
    parser.add_argument("--fresh-repeat", type=int, default=5, help="Fresh renderings of each page, in-process.")
    parser.add_argument("--gndt-updates", type=int, default=2000, help="GNDT log entries (scaled games).")
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument(
        "--only", nargs="+", metavar="KEY", help="Only these pages (and the bare view): " + ", ".join(PAGE_KEYS)
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="A shorter run: 2 s per page, one round, the writer alone 10 s, 3 fresh renderings.",
    )
    parser.add_argument("--no-install", action="store_true", help="Do not try to install wrk when it is missing.")
    parser.add_argument(
        "--fresh-only",
        action="store_true",
        help="Only the fresh renderings in this process and their profiles: no processes, no load (step 7).",
    )
    parser.add_argument("--logs", type=Path, help="Copy the logs of gunicorn, the worker and beat into this directory.")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.rounds, args.writer_alone, args.fresh_repeat = 2.0, 1, 10.0, 3
    if args.idle_seconds < 60:
        sys.exit("--idle-seconds must be at least 60: every job of the schedule runs once a minute at most often.")
    if min(args.seconds, args.rounds, args.concurrency, args.workers, args.writer_every, args.fresh_repeat) <= 0:
        sys.exit("--seconds, --rounds, --concurrency, --workers, --writer-every and --fresh-repeat must be positive.")
    unknown = sorted(set(args.only or ()) - set(PAGE_KEYS))
    if unknown:
        sys.exit(f"unknown page(s) for --only: {', '.join(unknown)}; choose from {', '.join(PAGE_KEYS)}")
    if not args.history.is_dir():
        sys.exit(f"{args.history} is missing: the benchmark reads the real history from ../shared at run time.")
    return args


class KeptDatabase:
    """The database --database-url names, used in place and kept (``--keep``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = urlsplit(url).path.strip("/")
        self.label = f"PostgreSQL (database {self.name}, kept)"

    def create(self) -> None:
        import psycopg
        from psycopg import sql

        server = urlsplit(self.url)._replace(path="/postgres").geturl()
        with psycopg.connect(server, autocommit=True) as connection:
            if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [self.name]).fetchone():
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        pass  # kept for the next run

    def server_version(self) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            return "PostgreSQL " + connection.execute("SHOW server_version").fetchone()[0]


def main() -> None:
    args = parse_arguments()
    sys.stdout.reconfigure(line_buffering=True)  # each line as it comes, when written to a file
    wrk = find_wrk(install=not args.no_install)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run_started = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-deployed-"))
    database = KeptDatabase(args.database_url) if args.keep else TemporaryDatabase(workdir, args.database_url)
    redis_db = RedisDatabase(args.redis_url)
    stack: Stack | None = None
    watch: VersionWatch | None = None
    procs: ProcessWatch | None = None
    backends: Backends | None = None
    created = False
    try:
        redis_db.flush()
        database.create()
        created = True
        setup_django(server_environment(database.url, args.redis_url))
        from django.core.cache import cache
        from django.core.management import call_command

        from blognomic.web.freshness import CACHE_KEY

        loading = time.perf_counter()
        if args.keep and database_is_loaded():
            call_command("migrate", verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            loaded = "found loaded (--keep)"
        elif args.scale == 1:
            loaded = f"import_history: {load_history(args.history)}"
        else:
            loaded = load_scaled(args.history / "fullprophistory.csv", args.scale, args.seed, args.gndt_updates)
        print(f"game: {'the real history' if args.scale == 1 else f'{args.scale:g}× the history'}: {game_summary()}")
        print(f"loading: {loaded} ({time.perf_counter() - loading:.0f} s in all)")
        settled = settle_database()
        print(f"VACUUM (ANALYZE): {settled:.1f} s")
        print(f"database: {database.label}, {database.server_version()}")
        print(
            f"Redis: {args.redis_url} (database {redis_db.number} of the server, emptied), {redis_db.server_version()}"
        )
        print(f"machine: {machine_description()}")
        print(f"load average (1, 5, 15 min): {load_text()}")

        users = pick_users()
        # Made before the pages are chosen (an earlier run's, with its comments, would be the busiest post)
        # and before the catch-up, so that its notices and the statistics it changes are caught up too.
        slug = writer_target(users["player"])
        health, *main_pages = pick_pages(users)
        if args.only:
            main_pages = [page for page in main_pages if page.key in args.only]
        main_pages, absent = pages_in_game(main_pages)
        if absent:
            print(f"pages this game does not have (404), left out: {', '.join(page.label for page in absent)}")
        # The bare view: since /healthz/ checks the database, Redis and beat (two queries and a PING), the
        # lightest answer through gunicorn and Django is a static file; the health check is measured beside it.
        pages = [BARE, replace(health, label="health check"), *main_pages]
        writers = writer_players(users["player"])
        # The writers among them, whichever pages are measured.
        cookies = session_cookies([*pages, *(Page("the writer", "/", name) for name in writers)])
        if args.fresh_only:
            measure_fresh(main_pages, slug, users["player"], args.fresh_repeat)
            return
        from django.db import connections

        connections.close_all()

        watch = VersionWatch(redis_db, cache.make_key(CACHE_KEY))
        watch.start()
        stack = start_stack(database.url, args.redis_url, args.workers, workdir)
        redis_pid = redis_db.server_pid()
        backends = Backends(database.url)
        procs = ProcessWatch(lambda: site_processes(stack, redis_pid, backends))
        procs.start()
        if wrk:
            version = subprocess.run([wrk, "--version"], capture_output=True, text=True).stdout
            generator = f"wrk ({version.split(' Copyright')[0].strip()}), 1 thread × {args.concurrency} connections"
        else:
            generator = f"Python client ({args.concurrency} threads)"
        print(
            f"processes: gunicorn {args.workers} sync workers on {HOST}:{stack.server.port}, the Celery worker "
            f"(concurrency 2) and beat (the production schedule), Redis, PostgreSQL; {os.cpu_count()} CPUs shared by "
            "all of them and the load generator"
        )
        print(f"load generator: {generator}; {args.seconds:g} s per page per round, {args.rounds} round(s)")
        if wrk:
            print(
                "wrk command (the cookie header only for logged-in pages): "
                + " ".join(
                    wrk_command(
                        "wrk",
                        stack.server.port,
                        "/PAGE/",
                        args.seconds,
                        args.concurrency,
                        "sessionid=…; csrftoken=…",
                        WRK_SCRIPT.relative_to(ROOT),
                    )
                )
            )

        print(f"the writer: {', '.join(writers)} in turn on /posts/{slug}/, every {args.writer_every:g} s")
        catch_up(stack, watch)

        load_before = load_text()
        idle = idle_minute(stack, watch, redis_db, args.idle_seconds)
        print_idle(idle, load_before, load_text())

        # Counted in this process now, before the writer adds to the busy post: what one rendering queries.
        from bench_pages import count_queries

        queries = count_queries(pages)
        connections.close_all()

        beat_phase = Phase("the pages with beat running")
        beat_phase.begin(stack, procs, redis_db)
        server_cpu = ServerCpu(stack, backends)
        with_beat = measure_pages(stack, pages, cookies, args, wrk, server_cpu)
        beat_phase.finish(stack, procs, redis_db)
        print_pages(
            f"the pages with beat running for {(beat_phase.end - idle['start']) / 60:.1f} minutes by their end",
            with_beat,
            queries,
            args.rounds,
            "≤ 3× the bare view, p95 ≤ 50 ms",
        )
        beat_phase.print_summary(watch, procs)

        writer = Writer(stack.server.port, slug, [cookies[name] for name in writers], args.writer_every)
        since = datetime.now(UTC)
        writer.start()
        time.sleep(args.writer_alone)
        alone = writer.stop()
        print_writes(f"the writer alone ({args.writer_alone:g} s, no other load)", alone)

        writer_phase = Phase("the pages with the writer")
        writer_phase.begin(stack, procs, redis_db)
        writer.start()
        with_writer = measure_pages(stack, pages, cookies, args, wrk, server_cpu)
        loaded_writes = writer.stop()
        writer_phase.finish(stack, procs, redis_db)
        print_pages(
            f"the pages while players vote or comment every {args.writer_every:g} s",
            with_writer,
            queries,
            args.rounds,
            "≤ 4× the bare view, p95 ≤ 100 ms",
        )
        print_writes("the writer under that load (target: a vote's p95 ≤ 200 ms)", loaded_writes)
        recorded = writes_recorded(slug, writers, since)
        answered = sum(write.status == 200 for write in [*alone, *loaded_writes])
        print(f"  writes answered 200: {answered}; comments and votes recorded: {recorded}")
        writer_phase.print_summary(watch, procs)

        stack.stop()
        watch.stopped.set()
        procs.stopped.set()
        measure_fresh(main_pages, slug, users["player"], args.fresh_repeat)
        print(f"\nthe whole run: {(time.perf_counter() - run_started) / 60:.1f} min")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        for thread in (watch, procs):
            if thread is not None:
                thread.stopped.set()
        if stack is not None:
            stack.stop()
        if procs is not None:
            procs.join(timeout=5)  # it asks PostgreSQL through ``backends``
        if backends is not None:
            backends.close()
        try:
            redis_db.flush()
        except Exception:  # noqa: BLE001 - Redis gone: nothing of the run's left to empty
            pass  # nothing to clean
        if created:
            try:
                from django.db import connections

                connections.close_all()
            except Exception:  # noqa: BLE001 - Django may not be set up yet
                pass  # nothing was opened
            database.drop()
        if args.logs:
            args.logs.mkdir(parents=True, exist_ok=True)
            for log in workdir.glob("*.log"):
                shutil.copy(log, args.logs / log.name)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
