"""Time importing a large generated WordPress export and measure its peak memory.

Run from the project root: ``.venv/bin/python benchmarks/bench_wordpress.py [--posts 20000]
[--comments 150000] [--players 120]``.

It writes a WXR 1.2 export by the format's rules into a temporary directory (made-up titles, bodies and
comments; every post a Proposal, a Call for Judgement, a Story Post or a plain post, matters in BlogNomic's
own statuses (open, enacted, failed) with an admin's note in free words ("Reached quorum, 5 votes to 1.
Enacted by ...") and the resolving admin's user id, votes in comment meta, a few replies and guest comments),
imports it into a fresh, migrated SQLite database there with ``import_wordpress`` as the command does,
imports it a second time (which must add nothing), and prints the file's size, the seconds each import took
and the process's peak resident memory. The figures are recorded in ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import secrets
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.wordpress.wxr import CATEGORIES, HEAD, C, P, author  # noqa: E402

KINDS = [("Proposal", 0.7), ("Call for Judgement", 0.08), ("Story Post", 0.12), ("Uncategorized", 0.1)]


def write_export(path: Path, *, posts: int, comments: int, players: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    names = [f"Player {n}" for n in range(players)]
    start = datetime(2010, 1, 1, tzinfo=UTC)
    per_post = comments / posts
    comment_id = 1
    with path.open("w", encoding="utf-8") as out:
        out.write(HEAD.format(version="1.2"))
        for n, name in enumerate(names, start=1):
            out.write(author(n, name, player=n % 10 != 0))
        out.write(CATEGORIES)
        for number in range(1, posts + 1):
            posted = start + timedelta(hours=6 * number)
            category = rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
            count = int(per_post) + (1 if rng.random() < per_post - int(per_post) else 0)
            votable = category in ("Proposal", "Call for Judgement")
            items = []
            fors = againsts = 0
            for i in range(count):
                who = rng.randrange(players)
                vote = None
                if votable:
                    vote = rng.choice(["for", "for", "against", "no-vote"])
                    fors += vote == "for"
                    againsts += vote == "against"
                at = posted + timedelta(minutes=20 * (i + 1))
                if rng.random() < 0.02:
                    items.append(C(comment_id, "A Passer-by", at.strftime("%Y-%m-%d %H:%M:%S"), text="Nice."))
                else:
                    items.append(
                        C(
                            comment_id,
                            names[who],
                            at.strftime("%Y-%m-%d %H:%M:%S"),
                            text=f"Comment {comment_id}. " * 8,
                            vote=vote,
                            user_id=who + 1,
                            parent=comment_id - 1 if i and rng.random() < 0.05 else 0,
                        )
                    )
                comment_id += 1
            meta, status = {}, "publish"
            if votable:
                status = "open"
                if number < posts - 20:
                    status = "enacted" if fors > againsts else "failed"
                    note = (
                        f"Reached quorum, {fors} votes to {againsts}. Enacted by {names[0]}."
                        if status == "enacted"
                        else f"Timed out {fors}-{againsts}. -{names[0]}"
                    )
                    meta = {"admin": note, "admin_user": "1"}
            title = f"Proposal: Number {number}" if category == "Proposal" else f"Post number {number}"
            out.write(
                P(
                    number,
                    title,
                    names[rng.randrange(players)],
                    posted.strftime("%Y-%m-%d %H:%M:%S"),
                    category=category,
                    body=f"<p>Paragraph {number}.</p>\n\n" * 20,
                    name=f"number-{number}",
                    meta=meta,
                    status=status,
                    comments=items,
                    modified=(posted + timedelta(hours=48)).strftime("%Y-%m-%d %H:%M:%S"),
                ).xml()
            )
        out.write("</channel>\n</rss>\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=20_000)
    parser.add_argument("--comments", type=int, default=150_000)
    parser.add_argument("--players", type=int, default=120)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-wordpress-"))
    try:
        export = folder / "export.xml"
        started = time.perf_counter()
        write_export(export, posts=options.posts, comments=options.comments, players=options.players)
        print(
            f"export: {options.posts} posts, {options.comments} comments, "
            f"{export.stat().st_size / 2**20:.1f} MiB, written in {time.perf_counter() - started:.1f} s"
        )
        os.environ.update(
            DJANGO_SETTINGS_MODULE="blognomic.settings", DATABASE_URL=f"sqlite:///{folder}/db.sqlite3", DEBUG="0"
        )
        os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.core.management import call_command

        from blognomic.moving.wordpress.importing import import_wordpress

        call_command("migrate", verbosity=0)
        base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        for attempt in ("first import", "second import"):
            started = time.perf_counter()
            report = import_wordpress(lambda: export.open("rb"))
            seconds = time.perf_counter() - started
            added = ", ".join(f"{n} {what}" for what, n in sorted(report.added.items()) if n) or "nothing"
            print(
                f"{attempt}: {seconds:.1f} s ({options.posts / seconds:.0f} posts/s), added {added}; "
                f"{len(report.skipped)} skipped, {len(report.disagreements)} tally disagreements"
            )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS: {peak:.0f} MiB (after Django and migrations: {base_rss:.0f} MiB)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
