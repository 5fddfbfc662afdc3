"""A visitor's wait for the front page while N clients trickle their requests, before and after the deployed
settings for slow clients.

Run from the project root: ``.venv/bin/python benchmarks/bench_slow_clients.py [--slow 0 2 4 8]
[--seconds 35] [--database-url postgres://…]``.

Four stacks, each on loopback (``tests/slow_clients.py`` starts them):

- **before, alone**: gunicorn with two sync workers, as the production page once had it run;
- **before, behind Caddy**: the same behind the Caddyfile of then (``reverse_proxy`` alone: no timeouts, the
  body streamed to gunicorn as it came);
- **after, alone**: gunicorn with ``deploy/gunicorn.conf.py`` (threaded workers), two workers;
- **after, behind Caddy**: the same behind ``deploy/Caddyfile`` (10 s for headers, 30 s for a body, bodies
  read whole before gunicorn is asked).

For each N of ``--slow``, half the slow clients send headers that never end and half a body that never ends,
a byte every half second; meanwhile a visitor asks for the front page every quarter second for ``--seconds``
(35 by default: longer than the 30 s after which gunicorn restarts a stuck sync worker). Printed per stack and
N: the visitor's requests answered, the median and the longest wait, and those that failed. The game is an
empty migrated database (a SQLite file, or a PostgreSQL database made beside ``--database-url`` and dropped).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from benchdb import TemporaryDatabase  # noqa: E402 - found through the path set above

from tests.slow_clients import (  # noqa: E402
    DEPLOYED_CADDYFILE,
    DEPLOYED_GUNICORN,
    SYNC_GUNICORN,
    Stack,
    served_meanwhile,
    site_environment,
    slow_clients,
)

# The Caddyfile before this benchmark's change: the proxy passed every request on as it arrived.
CADDYFILE_BEFORE = "{$SITE_ADDRESS:localhost} {\n\tencode gzip\n\treverse_proxy web:8000\n}\n"

STACKS = (
    ("before, alone", SYNC_GUNICORN, None),
    ("before, behind Caddy", SYNC_GUNICORN, CADDYFILE_BEFORE),
    ("after, alone", DEPLOYED_GUNICORN, None),
    ("after, behind Caddy", DEPLOYED_GUNICORN, DEPLOYED_CADDYFILE.read_text()),
)


def measure(env: dict[str, str], gunicorn: list[str], caddyfile: str | None, slow: int, seconds: float) -> str:
    stop = threading.Event()
    with (
        tempfile.TemporaryDirectory() as workdir,
        Stack(env=env, workdir=Path(workdir), gunicorn=gunicorn, caddyfile=caddyfile) as stack,
    ):
        slow_clients(stack.port, headers=slow // 2, bodies=slow - slow // 2, stop=stop)
        try:
            answers = served_meanwhile(stack.port, seconds=seconds)
        finally:
            stop.set()
    waits = [wait for status, wait in answers if status == 200]
    failed = len(answers) - len(waits)
    if not waits:
        return f"{len(answers):>9}  {'-':>10}  {'-':>10}  {failed:>6}"
    return f"{len(answers):>9}  {statistics.median(waits):>9.3f}s  {max(waits):>9.2f}s  {failed:>6}"


def migrated_environment(database_url: str) -> dict[str, str]:
    env = site_environment(database_url, secrets.token_urlsafe(40))
    env["WEB_CONCURRENCY"] = "2"
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=600)
    return env


def run(args: argparse.Namespace, database: TemporaryDatabase) -> None:
    env = migrated_environment(database.url)
    print(f"{database.label}, {database.server_version()}.")
    print(f"A visitor asking for / every 0.25 s for {args.seconds:.0f} s while N clients trickle (half headers,")
    print("half bodies, a byte every 0.5 s); two gunicorn workers in every stack.\n")
    print(f"{'stack':<22} {'N':>3}  {'requests':>9}  {'median':>10}  {'longest':>10}  {'failed':>6}")
    for name, gunicorn, caddyfile in STACKS:
        for slow in args.slow:
            print(f"{name:<22} {slow:>3}  {measure(env, gunicorn, caddyfile, slow, args.seconds)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, nargs="+", default=[0, 2, 4, 8], help="numbers of slow clients")
    parser.add_argument("--seconds", type=float, default=35.0, help="how long the visitor asks, per run")
    parser.add_argument("--database-url", help="PostgreSQL to make a database beside; a SQLite file otherwise")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        database = TemporaryDatabase(Path(directory), args.database_url)
        database.create()
        try:
            run(args, database)
        finally:
            database.drop()


if __name__ == "__main__":
    main()
