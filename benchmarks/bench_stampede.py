"""Time ten readers missing one page at once, right after a write: how many renderings, how long they wait.

Run from the project root: ``.venv/bin/python benchmarks/bench_stampede.py [--readers 10] [--rounds 20]
[--redis-url redis://127.0.0.1:6379/14] [--database-url postgres://…]``.

The demo game (``manage.py demo``) in a fresh database (a SQLite file, or with ``--database-url`` a PostgreSQL
database made for the run and dropped after). Each round moves the content version on, as a vote does, then
releases ``--readers`` threads at one instant, each asking for the same page through the whole middleware
stack (Django's test client), and counts the page cache's renderings. Three ways, each in this process's
memory and, with ``--redis-url``, in Redis (under a prefix of the run's own):

- **every reader renders**: the rendering lock taken away, as the page cache was before it had one;
- **one renders, visitors take the previous rendering**: as shipped, for a visitor;
- **one renders, players wait for it**: as shipped, for a logged-in player (one account, all threads).

Threads share one interpreter, so renderings that run at once take turns on one core, much as ten requests
take turns on the two cores of a small server.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_votes import setup_django  # noqa: E402 - found through the path set above
from benchdb import TemporaryDatabase  # noqa: E402


def round_of_misses(clients, path: str) -> list[float]:
    """Each client asks for ``path`` at one instant; each one's time to its answer, in milliseconds."""
    barrier = threading.Barrier(len(clients))
    took = [0.0] * len(clients)

    def read(i: int) -> None:
        barrier.wait(timeout=30)
        started = time.perf_counter()
        response = clients[i].get(path)
        took[i] = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, response.status_code

    threads = [threading.Thread(target=read, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return took


def measure(*, way: str, clients, path: str, rounds: int) -> dict:
    from blognomic.web import page_cache
    from blognomic.web.freshness import bump_version

    renderings = 0
    original_render = page_cache.PageCacheMiddleware._render
    original_rendering_key = page_cache.rendering_key
    lock = threading.Lock()

    def counting_render(self, request, key):
        nonlocal renderings
        with lock:
            renderings += 1
        return original_render(self, request, key)

    page_cache.PageCacheMiddleware._render = counting_render
    if way == "every reader renders":
        page_cache.rendering_key = lambda key: f"{key}:{uuid.uuid4().hex}"  # a lock no one else asks for
    times: list[float] = []
    try:
        clients[0].get(path)  # the previous rendering, as a busy page has one
        renderings = 0
        for _ in range(rounds):
            bump_version()
            times += round_of_misses(clients, path)
            time.sleep(0.05)
    finally:
        page_cache.PageCacheMiddleware._render = original_render
        page_cache.rendering_key = original_rendering_key
    times.sort()
    return {
        "renderings": renderings / rounds,
        "p50": statistics.median(times),
        "p95": times[int(0.95 * (len(times) - 1))],
        "max": times[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readers", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--path", default="/", help="The page every reader asks for (default: the front page).")
    parser.add_argument("--redis-url", help="redis://…: measure in Redis too, under a prefix of the run's own.")
    parser.add_argument("--database-url", help="postgres://…: measure on a temporary PostgreSQL database.")
    args = parser.parse_args()
    if min(args.readers, args.rounds) < 1:
        sys.exit("--readers and --rounds must be positive.")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-stampede-"))
    database = TemporaryDatabase(workdir, args.database_url)
    database.create()
    try:
        os.environ.update({"ALLOWED_HOSTS": "testserver", "SECURE_SSL_REDIRECT": "0"})  # Django's test client
        setup_django(database.url)
        from django.core.management import call_command
        from django.test import Client
        from django.test.utils import override_settings

        from blognomic.moving.demo import DEMO_PASSWORD
        from dynasties.models import User

        call_command("migrate", verbosity=0)
        call_command("demo", stdout=io.StringIO())
        player = User.objects.filter(is_admin=False, joined_at__isnull=False).order_by("pk").first()
        print(f"database: {database.label}; {args.readers} readers at once, {args.rounds} rounds, page {args.path}")
        stores = {"memory": ({"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}, "memory")}
        if args.redis_url:
            backend = {"BACKEND": "blognomic.web.sturdy_cache.SturdyRedisCache", "LOCATION": args.redis_url}
            stores["Redis"] = ({"default": {**backend, "KEY_PREFIX": f"bench-{uuid.uuid4().hex}"}}, "cache")
        for store, (caches, version_store) in stores.items():
            with override_settings(CACHES=caches, CONTENT_VERSION_STORE=version_store, PAGE_CACHE=True):
                visitors = [Client() for _ in range(args.readers)]
                players = [Client() for _ in range(args.readers)]
                for client in players:
                    assert client.login(username=player.username, password=DEMO_PASSWORD)
                for way, clients in (
                    ("every reader renders", visitors),
                    ("one renders, visitors take the previous", visitors),
                    ("one renders, players wait for it", players),
                ):
                    figures = measure(way=way, clients=clients, path=args.path, rounds=args.rounds)
                    print(
                        f"  {store:6} {way:42} renderings per round {figures['renderings']:5.1f}   "
                        f"p50 {figures['p50']:7.1f} ms   p95 {figures['p95']:7.1f} ms   max {figures['max']:7.1f} ms"
                    )
            if store == "Redis":
                import redis

                client = redis.Redis.from_url(args.redis_url)
                for key in client.scan_iter(f"{caches['default']['KEY_PREFIX']}:*"):
                    client.delete(key)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
