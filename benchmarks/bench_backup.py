"""The restore drill on the real history, timed: what the daily backup writes, how long restoring it takes, and
whether the restored site serves the same pages at the same addresses.

Run from the project root: ``.venv/bin/python benchmarks/bench_backup.py --database-url PG [--every 10]``.

Every step is the command an admin would run, in a process of its own, against a temporary PostgreSQL database
created beside the one ``--database-url`` names (and dropped at the end):

1. ``migrate`` and ``import_history``: the real history from ``../shared/data/blognomic-history/``.
2. ``backup --dir TMP``: the day's archive (gzipped) and ``pg_dump``, as the beat job writes them.
3. A second database: ``migrate``, then ``restore FILE`` from the archive.
4. A third database: ``pg_restore`` of the dump, the other way back docs/running/backups.md gives.
5. The pages of the three databases, each rendered in a process of its own at one frozen
   moment, the page cache off: the site's main pages (as a visitor, and the admin panel as an admin), every
   player's page, every month of the archive, and every ``--every``-th post and Ruleset revision by their
   permalinks. Each restored database's list of addresses must be the original's, and so must each page's
   status and bytes (the per-request tokens masked).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
HISTORY = ROOT.parent / "shared" / "data" / "blognomic-history"
sys.path.insert(0, str(BENCH_DIR))

from benchdb import TemporaryDatabase  # noqa: E402

# What differs between two requests for the same page: the CSRF token and the CSP nonce.
TOKENS = re.compile(rb'(csrfmiddlewaretoken" value="|csrf-token" content="|nonce="|"X-CSRFToken": ")[A-Za-z0-9+/=_-]+')


def environment(database_url: str) -> dict[str, str]:
    """The site's settings for one database: no Redis (the page cache and sessions in-process), quiet logs."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "blognomic.settings",
            "DATABASE_URL": database_url,
            "SECRET_KEY": env.get("SECRET_KEY") or "bench-backup-not-secret",
            "LOG_LEVEL": "WARNING",
        }
    )
    return env


def timed(label: str, command: list[str], database_url: str) -> None:
    """Run ``command`` against ``database_url`` and print its seconds. A failure ends the run."""
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=environment(database_url), capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode:
        sys.exit(f"{label} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    said = (done.stdout.strip().splitlines() or [""])[-1]
    print(f"  {label:<34} {seconds:7.1f} s   {said[:110]}")


def manage(*arguments: str) -> list[str]:
    return [sys.executable, "manage.py", *arguments]


def libpq_url(url: str) -> str:
    """The URL as PostgreSQL's own tools take it (``postgresql://``)."""
    return urlunsplit(urlsplit(url)._replace(scheme="postgresql"))


# ---------------------------------------------------------------------------------------------------------
# Rendering, in a process of its own for each database (``--render URL OUT``)


def addresses(every: int) -> list[tuple[str | None, str]]:
    """(who, path) for each page compared: ``who`` is a username to log in as, or None for a visitor."""
    from django.db.models.functions import TruncMonth
    from django.urls import reverse

    from dynasties.models import User
    from ruleset.models import Revision
    from votes.models import KIND_SLUGS, Post

    admin = User.objects.filter(is_admin=True).order_by("username").values_list("username", flat=True).first()
    pages: list[tuple[str | None, str]] = [
        (None, reverse(name))
        for name in ("front_page", "feed", "player_list", "stats", "wiki_index", "gndt_table", "gndt_log")
    ]
    pages += [(None, reverse("category", args=[slug])) for slug in KIND_SLUGS]
    pages += [(None, reverse(name, args=["ruleset"])) for name in ("wiki_page", "wiki_history")]
    pages += [(None, "/search/?q=quorum"), (None, "/api/posts")]
    if admin:
        pages.append((admin, reverse("admin_panel")))
    months = Post.objects.filter(posted_at__year__gte=2000).annotate(month=TruncMonth("posted_at"))
    for month in sorted(set(months.values_list("month", flat=True))):
        pages.append((None, reverse("month_archive", args=[month.year, month.month])))
    for name in User.objects.order_by("username").values_list("username", flat=True):
        pages.append((None, reverse("player_detail", args=[name])))
    for slug in Post.objects.order_by("slug").values_list("slug", flat=True)[::every]:
        pages.append((None, reverse("post_detail", args=[slug])))
    revisions = Revision.objects.order_by("page__slug", "number").values_list("page__slug", "number")
    for slug, number in revisions[::every]:
        pages.append((None, reverse("wiki_revision", args=[slug, number])))
    return pages


def render(database_url: str, out: Path, moment: datetime, every: int) -> None:
    """Each address's status and digest in the database ``database_url`` names, written to ``out`` as JSON."""
    os.environ.update(environment(database_url))
    import django

    django.setup()
    out.write_text(json.dumps(digests(moment, every)))


def digests(moment: datetime, every: int) -> dict[str, list]:
    """``"who path"``: [status, SHA-256 of the body] for each address, rendered at ``moment``, page cache off."""
    import time_machine
    from django.test import Client
    from django.test.utils import override_settings

    from dynasties.models import User

    results = {}
    with time_machine.travel(moment, tick=False), override_settings(PAGE_CACHE=False, ALLOWED_HOSTS=["*"]):
        clients: dict[str | None, Client] = {}
        for who, path in addresses(every):
            if who not in clients:
                clients[who] = Client()
                if who:
                    clients[who].force_login(User.objects.get(username=who))
            response = clients[who].get(path)
            body = TOKENS.sub(rb"\1-", response.content)
            results[f"{who or 'visitor'} {path}"] = [response.status_code, hashlib.sha256(body).hexdigest()]
    return results


def compare(before: dict, after: dict) -> tuple[int, list[str]]:
    """The pages that are the same, and a line for each difference (an address missing, a status, the bytes)."""
    problems = [f"only before the restore: {key}" for key in before.keys() - after.keys()]
    problems += [f"only after the restore: {key}" for key in after.keys() - before.keys()]
    same = 0
    for key in sorted(before.keys() & after.keys()):
        if before[key] == after[key]:
            same += 1
        elif before[key][0] != after[key][0]:
            problems.append(f"{key}: status {before[key][0]} before, {after[key][0]} after")
        else:
            problems.append(f"{key}: different bytes")
    return same, problems


# ---------------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=False, help="A postgres:// URL; temporary databases go beside it.")
    parser.add_argument("--every", type=int, default=10, help="Compare every Nth post and Ruleset revision.")
    parser.add_argument("--render", nargs=2, metavar=("URL", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--moment", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every must be 1 or more")
    if args.render:
        render(args.render[0], Path(args.render[1]), datetime.fromisoformat(args.moment), args.every)
        return
    if not args.database_url:
        parser.error("--database-url is required (a postgres:// URL): the drill includes pg_dump and pg_restore")
    if not HISTORY.is_dir():
        sys.exit(f"the real history is missing: {HISTORY}")

    with tempfile.TemporaryDirectory(prefix="bench-backup-") as tmp:
        workdir = Path(tmp)
        databases = [TemporaryDatabase(workdir, args.database_url) for _ in range(3)]
        original, restored, from_dump = databases
        print(f"the real history, backed up and restored on {original.server_version()}")
        try:
            for database in databases:
                database.create()
            drill(workdir, original, restored, from_dump)
            moment = datetime.now(UTC).replace(microsecond=0)
            print(f"\npages compared at {moment:%Y-%m-%d %H:%M} UTC, every {args.every}th post and revision:")
            rendered = {}
            for name, database in (("original", original), ("restore FILE", restored), ("pg_restore", from_dump)):
                out = workdir / f"{len(rendered)}.json"
                timed(
                    f"rendered: {name}",
                    [sys.executable, __file__, "--render", database.url, str(out), "--moment", moment.isoformat()]
                    + ["--every", str(args.every)],
                    database.url,
                )
                rendered[name] = json.loads(out.read_text())
            differences = 0
            for name in ("restore FILE", "pg_restore"):
                same, problems = compare(rendered["original"], rendered[name])
                total = len(rendered["original"])
                print(f"  {name}: {same} of {total} pages the same as the original's, byte for byte")
                for line in problems[:20]:
                    print(f"    {line}")
                differences += len(problems)
            if differences:
                sys.exit(f"{differences} differences")
        finally:
            for database in databases:
                database.drop()


def drill(workdir: Path, original, restored, from_dump) -> None:
    """Load, back up, restore both ways; print each step's time and the backup's sizes."""
    backups = workdir / "backups"
    print("\nsteps (each a process of its own):")
    timed("migrate", manage("migrate", "--noinput"), original.url)
    timed("import_history", manage("import_history", str(HISTORY)), original.url)
    timed("backup (archive and pg_dump)", manage("backup", "--dir", str(backups)), original.url)
    archive = next(backups.glob("blognomic-*.json.gz"))
    dump = next(backups.glob("blognomic-*.dump"))
    for path in (archive, dump):
        print(f"    {path.name}: {path.stat().st_size / 2**20:.1f} MiB")
    timed("migrate (second database)", manage("migrate", "--noinput"), restored.url)
    timed("restore FILE", manage("restore", str(archive)), restored.url)
    command = ["pg_restore", "--no-owner", "--exit-on-error", "-d", libpq_url(from_dump.url), str(dump)]
    timed("pg_restore (third database)", command, from_dump.url)


if __name__ == "__main__":
    main()
