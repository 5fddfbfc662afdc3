"""What a matter's page watched by many readers costs the site: while nothing changes, and when one vote lands.

Run from the project root: ``.venv/bin/python benchmarks/bench_live.py [--watchers 200] [--seconds 10]
[--database-url postgres://…] [--redis-url redis://127.0.0.1:6379/N]``.

The demo game (``manage.py demo``) in a fresh database (a SQLite file, or a temporary PostgreSQL database made
beside ``--database-url`` and dropped after), served by gunicorn as ``deploy/gunicorn.conf.py`` runs it
(threaded workers: two workers of eight threads), with production settings as ``bench_pages`` gives them. The
content version lives where the deployment keeps it: in the database, or in Redis with ``--redis-url`` (a
database number of its own, emptied at the start and the end). Several workers share it as several web nodes
would: the vote is written by this process, and every worker sees it.

Each watcher's page polls ``/posts/<slug>/live/`` every ``blognomic.web.live.POLL_SECONDS``, so ``--watchers``
pages ask that many over five seconds. It prints:

1. **Nothing changes**: the poll (204 after reading the version) driven as fast as the site answers it, beside
   the bare view (a static file) and the matter's whole page from the page cache (what a reload would cost), each
   its requests per second, median and p95, the workers' CPU time per request, and the ratio to the bare view;
   then the share of one CPU the watchers' polls take at their real rate.
2. **One vote lands**: a vote is cast through ``votes.services``; every watcher's next poll finds the version
   moved and takes the changed parts (``--watchers`` requests, as at once as eight connections allow), the time
   until all have them, the CPU per answer, and that the poll after it is a 204 again.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from html import unescape
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_pages import HOST, free_port, load_text, run_load, server_environment, setup_django  # noqa: E402
from benchdb import TemporaryDatabase  # noqa: E402

WORKERS = 2
THREADS = 8
CONCURRENCY = 8
POLLER = re.compile(r'<div id="live-poller" hidden data-hx-get="([^"]+)"')


class ThreadedGunicorn:
    """gunicorn with the deployment's own settings file, on a free loopback port."""

    def __init__(self, env: dict[str, str], logfile: Path) -> None:
        self.port = free_port()
        env = {**env, "GUNICORN_BIND": f"{HOST}:{self.port}", "WEB_CONCURRENCY": str(WORKERS)}
        env["GUNICORN_THREADS"] = str(THREADS)
        command = [str(Path(sys.executable).parent / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "blognomic.wsgi"]
        with logfile.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}")
            try:
                if get(self.port, "/static/favicon.svg")[0] == 200:
                    return
            except OSError:
                pass  # not listening yet: ask again after the pause below
            time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer")

    def cpu_seconds(self) -> float:
        """CPU time of the master and its workers so far (user and system, from /proc)."""
        total = 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(entry.name) == self.process.pid or int(fields[1]) == self.process.pid:
                total += (int(fields[11]) + int(fields[12])) / ticks
        return total

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def measured(server: ThreadedGunicorn, path: str, seconds: float, expect: int) -> dict:
    status, _ = get(server.port, path)
    if status != expect:
        raise RuntimeError(f"{path} answered {status}, not {expect}")
    before = server.cpu_seconds()
    figures = run_load(server.port, path, seconds, CONCURRENCY, 10**9)
    figures["cpu_ms"] = (server.cpu_seconds() - before) * 1000 / max(figures["requests"], 1)
    return figures


def all_at_once(port: int, paths: list[str]) -> tuple[float, dict[int, int]]:
    """Ask every path, ``CONCURRENCY`` at a time; the time until the last answer, and the answers' statuses."""
    pending = list(paths)
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def worker() -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        while True:
            with lock:
                if not pending:
                    break
                path = pending.pop()
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            with lock:
                statuses[response.status] = statuses.get(response.status, 0) + 1
        connection.close()

    began = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0, help="How long each figure of step 1 is driven.")
    parser.add_argument("--database-url", help="postgres://…: a temporary PostgreSQL database beside this one.")
    parser.add_argument("--redis-url", help="redis://…/N: the content version, cache and sessions in Redis.")
    args = parser.parse_args()
    if args.watchers < 1 or args.seconds <= 0:
        sys.exit("--watchers and --seconds must be positive.")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-live-"))
    database = TemporaryDatabase(workdir, args.database_url)
    database.create()
    server = None
    try:
        env = server_environment(database.url, args.redis_url)
        setup_django(env)
        from django.core.cache import cache
        from django.core.management import call_command
        from django.utils import timezone

        from blognomic.moving.demo import build_demo
        from blognomic.web.freshness import store_name
        from blognomic.web.live import POLL_SECONDS
        from dynasties.models import User
        from votes.models import Post
        from votes.services import comment_add

        if args.redis_url:
            cache.clear()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        build_demo(now=timezone.now())
        post = next(post for post in Post.objects.pending() if post.kind == "proposal")
        server = ThreadedGunicorn(env, workdir / "gunicorn.log")
        server.wait_ready()
        status, page = get(server.port, post.get_absolute_url())
        found = POLLER.search(page.decode())
        if status != 200 or found is None:
            sys.exit(f"The matter's page answered {status} without a poller.")
        address = unescape(found.group(1))
        print(
            f"database: {database.label}; content version in the {store_name()}; gunicorn {WORKERS} workers × "
            f"{THREADS} threads; {CONCURRENCY} connections; load average {load_text()}"
        )
        print(f"matter page {post.get_absolute_url()}, polled at {address.split('?')[0]} every {POLL_SECONDS} s")

        print(f"\n1. Nothing changes ({args.seconds:.0f} s each, as fast as the site answers)")
        rows = [
            ("bare view (a static file)", "/static/favicon.svg", 200),
            ("poll, unchanged (204)", address, 204),
            ("the whole matter page (a reload)", post.get_absolute_url(), 200),
        ]
        figures = {name: measured(server, path, args.seconds, expect) for name, path, expect in rows}
        bare = figures[rows[0][0]]
        print(f"{'':34} {'req/s':>8} {'median ms':>10} {'p95 ms':>8} {'CPU ms/req':>11} {'× bare':>7}")
        for name, _, _ in rows:
            f = figures[name]
            print(
                f"{name:34} {f['rps']:8.0f} {f['median_ms']:10.2f} {f['p95_ms']:8.2f} {f['cpu_ms']:11.2f} "
                f"{bare['rps'] / f['rps'] if f['rps'] else float('nan'):7.2f}"
            )
        poll = figures[rows[1][0]]
        rate = args.watchers / POLL_SECONDS
        print(
            f"{args.watchers} watchers: {rate:.0f} polls/s to answer, {rate * poll['cpu_ms'] / 10:.1f}% of one CPU "
            f"in gunicorn (reloading the page as often instead: "
            f"{rate * figures[rows[2][0]]['cpu_ms'] / 10:.1f}%)"
        )

        print(f"\n2. One vote lands; each of the {args.watchers} watchers' next poll takes the changed parts")
        voter = User.objects.get(username=page_not_voted(page.decode()))
        comment_add(post=post, author=voter, icon="against", text="Benchmark vote.", now=timezone.now())
        before = server.cpu_seconds()
        took, statuses = all_at_once(server.port, [address] * args.watchers)
        cpu_ms = (server.cpu_seconds() - before) * 1000 / args.watchers
        status, answer = get(server.port, address)
        following = unescape(POLLER.search(answer.decode()).group(1))
        after_status, _ = get(server.port, following)
        print(
            f"all {args.watchers} answered in {took:.2f} s ({statuses}), {cpu_ms:.2f} CPU ms each; "
            f"the changed answer is {len(answer)} bytes; the next poll answers {after_status}"
        )
    finally:
        if server is not None:
            server.stop()
        if args.redis_url:
            from django.core.cache import cache

            cache.clear()
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)


def page_not_voted(page: str) -> str:
    """The first player the tally box lists as not having voted."""
    found = re.search(r'class="not-voted-list">Not voted yet \(\d+\): <a href="[^"]*">(?:<bdi>)?([^<]+)', page)
    if found is None:
        sys.exit("Everyone has voted on the benchmark's matter.")
    return unescape(found.group(1))


if __name__ == "__main__":
    main()
