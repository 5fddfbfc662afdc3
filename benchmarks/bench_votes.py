"""Time the vote counting that every post page and beat run does: one big tally, and the beat's sweep.

Run from the project root: ``.venv/bin/python benchmarks/bench_votes.py [--voters 60] [--comments 500]
[--pending 1000] [--database-url postgres://blognomic:blognomic@127.0.0.1:5432/blognomic]``.

- **Tally**: one pending proposal with ``--voters`` active players (one of them the Emperor) and
  ``--comments`` comments, most of them votes, players changing their minds. Timed three ways: the rules
  engine alone on data already loaded (``engine.judge``); the ``tally`` command's path, database included
  (``votes.judging.tally_report``); and what the post page does for its tally box (``game_state`` plus
  ``matter_view`` on the post loaded with its comments, as ``post_detail`` loads it).
- **Beat sweep**: ``votes.jobs.flag_resolvable_matters`` over ``--pending`` pending proposals, each with a
  few votes, posted over the three days before the sweep so some may be enacted and some not yet. Timed as a
  dry run (judging everything, writing nothing), then the first real run (flagging and notifying the
  admins), then a second run (the steady state of a job that runs every five minutes: nothing new to flag).
- **Auto-resolve**: ``votes.jobs.matters_auto_resolve`` over the same matters, a dry run (finding the first
  to resolve) and a real run, which resolves the queue in turn (up to 100 matters).

The matters are written through ``import_archive`` into a fresh database (a SQLite file in a temporary
directory, or with ``--database-url`` a PostgreSQL database made for the run and dropped after). Each figure
is the median of ``--repeat`` runs (the real sweep runs once), with its SQL query count.
"""

from __future__ import annotations

import argparse
import random
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

NOW = datetime(2016, 7, 28, 12, 0, tzinfo=UTC)
TEXTS = ("For.", "Against, sorry.", "Changing my vote.", "Is this intended?", "CoV: persuaded.", "Deferring.")


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _players(prefix: str, count: int, admins: int) -> list[dict]:
    joined = stamp(NOW - timedelta(days=60))
    return [
        {"name": f"{prefix} {n + 1}", "admin": n < admins, "idle": False, "joined_at": joined} for n in range(count)
    ]


def tally_archive(*, voters: int, comments: int, seed: int = 60) -> dict:
    """One pending proposal with ``voters`` players (the first is Emperor) and ``comments`` comments."""
    rng = random.Random(seed)
    players = _players("Tally Voter", voters, admins=3)
    names = [p["name"] for p in players]
    posted = NOW - timedelta(hours=20)
    # Each player votes once first, so every one of them counts; later comments change votes or just talk.
    authors = names + [rng.choice(names) for _ in range(max(0, comments - voters))]
    moments = sorted(posted + (NOW - posted) * rng.random() for _ in authors)
    thread = []
    for author, at in zip(authors[:comments], moments, strict=False):
        icon = rng.choices(("for", "against", "deferential", None), (0.45, 0.25, 0.1, 0.2))[0]
        if author == names[0] and icon == "deferential":
            icon = "for"  # the Emperor cannot defer
        if len(thread) < voters and icon is None:
            icon = "for"
        thread.append({"author": author, "at": stamp(at), "icon": icon, "text": rng.choice(TEXTS)})
    return {
        "format": "blognomic-archive",
        "version": 1,
        "profile": "2016",
        "players": players,
        "dynasties": [
            {"number": 1, "emperor": names[0], "started_at": stamp(NOW - timedelta(days=30)), "ended_at": None}
        ],
        "posts": [
            {
                "id": "big-tally",
                "kind": "proposal",
                "title": "Proposal: Everyone Has an Opinion",
                "author": names[1],
                "posted_at": stamp(posted),
                "dynasty": 1,
                "body": "Change everything.",
                "status": "pending",
                "resolution": None,
                "comments": thread,
            }
        ],
    }


def sweep_archive(*, pending: int, voters: int, votes_per_matter: int, seed: int = 1000) -> dict:
    """``pending`` pending proposals posted over the three days before NOW, each with a few votes."""
    rng = random.Random(seed)
    players = _players("Sweep Voter", voters, admins=2)
    names = [p["name"] for p in players]
    posts = []
    for n in range(pending):
        posted = NOW - timedelta(hours=72) * rng.random()
        ballot = rng.sample(names, k=min(votes_per_matter, len(names)))
        moments = sorted(posted + (NOW - posted) * rng.random() for _ in ballot)
        posts.append(
            {
                "id": f"sweep-{n:05d}",
                "kind": "proposal",
                "title": f"Proposal: Sweep {n}",
                "author": rng.choice(names),
                "posted_at": stamp(posted),
                "dynasty": 2,
                "body": "A change.",
                "status": "pending",
                "resolution": None,
                "comments": [
                    {
                        "author": name,
                        "at": stamp(at),
                        "text": rng.choice(TEXTS),
                        "icon": rng.choices(("for", "against", "deferential"), (0.7, 0.25, 0.05))[0],
                    }
                    for name, at in zip(ballot, moments, strict=True)
                ],
            }
        )
    return {
        "format": "blognomic-archive",
        "version": 1,
        "profile": "2016",
        "players": players,
        "dynasties": [
            {"number": 2, "emperor": names[0], "started_at": stamp(NOW - timedelta(days=10)), "ended_at": None}
        ],
        "posts": posts,
    }


CPU_SECONDS: list[float] = []  # this process's CPU time of each figure, in the order measured


def _timed(function, repeat: int) -> tuple[float, int, object]:
    """Median seconds over ``repeat`` calls, the queries of the last call, and its result."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seconds, cpu = [], []
    result = None
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            began, began_cpu = time.perf_counter(), time.process_time()
            result = function()
            seconds.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
    # On a shared machine the wall time includes waiting for a CPU; this process's CPU time does not (nor
    # the database's work). Both are printed at the end.
    CPU_SECONDS.append(statistics.median(cpu))
    return statistics.median(seconds), len(queries), result


def measure_tally(*, voters: int = 60, comments: int = 500, repeat: int = 50) -> dict:
    from django.contrib.auth.models import AnonymousUser

    from blognomic.moving.archive import import_archive
    from votes import engine
    from votes.engine_inputs import electorate_of, matter_from
    from votes.judging import tally_report
    from votes.models import Post
    from votes.page_models import matter_view
    from votes.state import game_state

    import_archive(tally_archive(voters=voters, comments=comments))
    post = Post.objects.for_listing().with_comments().get(slug="big-tally")
    loaded = list(post.comments.all())
    state = game_state(NOW)
    profile = state.game.rules_profile()
    electorate = electorate_of(state)

    def judge_only():
        return engine.judge(matter_from(post, loaded), electorate=electorate, profile=profile, now=NOW)

    def tally_command():
        return tally_report(Post.objects.select_related("author").get(slug="big-tally"), now=NOW)

    def post_page():
        fresh = Post.objects.for_listing().with_comments().get(slug="big-tally")
        return matter_view(fresh, state=game_state(NOW), now=NOW, viewer=AnonymousUser())

    engine_s, _, judgement = _timed(judge_only, repeat)
    command_s, command_queries, report = _timed(tally_command, repeat)
    page_s, page_queries, view = _timed(post_page, repeat)
    assert view.judgement.tally.for_count == judgement.tally.for_count == report["for"]
    return {
        "voters": voters,
        "comments": len(loaded),
        "voters_counted": len(judgement.tally.votes),
        "quorum": judgement.tally.quorum,
        "for": judgement.tally.for_count,
        "against": judgement.tally.against_count,
        "engine_ms": engine_s * 1000,
        "command_ms": command_s * 1000,
        "command_queries": command_queries,
        "page_ms": page_s * 1000,
        "page_queries": page_queries,
    }


def measure_sweep(*, pending: int = 1000, voters: int = 15, votes_per_matter: int = 8, repeat: int = 3) -> dict:
    from blognomic.moving.archive import import_archive
    from votes.jobs import flag_resolvable_matters

    import_archive(sweep_archive(pending=pending, voters=voters, votes_per_matter=votes_per_matter))
    dry_s, dry_queries, dry = _timed(lambda: flag_resolvable_matters(now=NOW, dry_run=True), repeat)
    first_s, first_queries, first = _timed(lambda: flag_resolvable_matters(now=NOW), 1)
    again_s, again_queries, again = _timed(lambda: flag_resolvable_matters(now=NOW), 1)
    assert len(first.done) == len(dry.done) and not again.done
    figures = {
        "pending": pending,
        "flagged": len(first.done),
        "seconds": first_s,
        "queries": first_queries,
        "dry_seconds": dry_s,
        "dry_queries": dry_queries,
        "steady_seconds": again_s,
        "steady_queries": again_queries,
    }
    # The other beat jobs that read every pending matter: notices (new matters, closing soon) and, when the
    # game allows it, resolving on its own (a dry run: it judges every matter to find the first to resolve).
    from dynasties.models import Game
    from votes.jobs import matters_auto_resolve
    from votes.notices import notices_send

    figures["notices_dry_seconds"], figures["notices_dry_queries"], _ = _timed(
        lambda: notices_send(now=NOW, dry_run=True), 1
    )
    figures["notices_seconds"], figures["notices_queries"], sent = _timed(lambda: notices_send(now=NOW), 1)
    figures["notices_done"] = len(sent.done)
    Game.objects.update(auto_resolve=True)
    figures["auto_dry_seconds"], figures["auto_dry_queries"], _ = _timed(
        lambda: matters_auto_resolve(now=NOW, dry_run=True), 1
    )
    # The real run resolves the queue in order, oldest first, up to its limit of 100 per run: every
    # proposal old enough to be enacted or failed may be resolved once it is the oldest.
    figures["auto_seconds"], figures["auto_queries"], resolved = _timed(lambda: matters_auto_resolve(now=NOW), 1)
    figures["auto_done"] = len(resolved.done)
    return figures


def setup_django(database_url: str) -> None:
    import os
    import secrets

    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "blognomic.settings",
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "EMAIL_URL": "memory://",
        }
    )
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voters", type=int, default=60)
    parser.add_argument("--comments", type=int, default=500)
    parser.add_argument("--pending", type=int, default=1000)
    parser.add_argument("--sweep-voters", type=int, default=15, help="Players in the sweep's game.")
    parser.add_argument("--votes-per-matter", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=50, help="Runs of each tally measurement (the sweep: 3).")
    parser.add_argument("--database-url", help="postgres://…: measure on a temporary PostgreSQL database.")
    args = parser.parse_args()
    if min(args.voters, args.comments, args.pending, args.repeat) < 1 or args.comments < args.voters:
        sys.exit("--voters, --comments, --pending and --repeat must be positive, and comments at least voters.")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-votes-"))
    database = TemporaryDatabase(workdir, args.database_url)
    database.create()
    try:
        setup_django(database.url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        print(f"database: {database.label}, {database.server_version()}")
        tally = measure_tally(voters=args.voters, comments=args.comments, repeat=args.repeat)
        print(
            f"tally: one pending proposal, {tally['voters']} voters ({tally['voters_counted']} counted, Quorum "
            f"{tally['quorum']}, FOR {tally['for']}, AGAINST {tally['against']}), {tally['comments']} comments; "
            f"median of {args.repeat}"
        )
        print(f"  rules engine alone (engine.judge):          {tally['engine_ms']:8.2f} ms  (target < 5 ms)")
        print(
            f"  tally command (tally_report, with SQL):     {tally['command_ms']:8.2f} ms  "
            f"{tally['command_queries']} queries"
        )
        print(
            f"  post page's tally box (game_state + matter_view, with SQL): {tally['page_ms']:.2f} ms  "
            f"{tally['page_queries']} queries"
        )
        call_command("flush", interactive=False, verbosity=0)
        sweep = measure_sweep(pending=args.pending, voters=args.sweep_voters, votes_per_matter=args.votes_per_matter)
        print(
            f"beat sweep (flag_resolvable_matters): {sweep['pending']} pending proposals, "
            f"{args.votes_per_matter} votes each, {args.sweep_voters} players"
        )
        print(
            f"  dry run (judge all, write nothing), median of 3: {sweep['dry_seconds']:7.3f} s  "
            f"{sweep['dry_queries']} queries  (target < 1 s)"
        )
        print(
            f"  first run (flags {sweep['flagged']} matters, notifies 2 admins): {sweep['seconds']:7.3f} s  "
            f"{sweep['queries']} queries"
        )
        print(
            f"  next run (nothing new):                      {sweep['steady_seconds']:7.3f} s  "
            f"{sweep['steady_queries']} queries"
        )
        print(
            f"notices (notices_send) over the same matters: dry run {sweep['notices_dry_seconds']:7.3f} s  "
            f"{sweep['notices_dry_queries']} queries; real run {sweep['notices_seconds']:7.3f} s  "
            f"{sweep['notices_queries']} queries ({sweep['notices_done']} matters with notices)"
        )
        print(
            f"auto-resolve (matters_auto_resolve), dry run (finds the first to resolve): "
            f"{sweep['auto_dry_seconds']:7.3f} s  {sweep['auto_dry_queries']} queries"
        )
        print(
            f"auto-resolve, real run (resolves {sweep['auto_done']} matters in turn): "
            f"{sweep['auto_seconds']:7.3f} s  {sweep['auto_queries']} queries"
        )
        labels = (
            "engine",
            "tally command",
            "tally box",
            "sweep dry run",
            "sweep first run",
            "sweep next run",
            "notices dry run",
            "notices",
            "auto-resolve dry run",
            "auto-resolve",
        )
        print(
            "this process's CPU time of each, without the wait for a CPU or the database's work: "
            + ", ".join(f"{label} {seconds * 1000:.1f} ms" for label, seconds in zip(labels, CPU_SECONDS, strict=False))
        )
    finally:
        from django.db import connections

        connections.close_all()
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
