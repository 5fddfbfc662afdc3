"""Import a generated MediaWiki export of 100,000 revisions: time, peak memory, and that memory is bounded.

Run from the project root: ``.venv/bin/python benchmarks/bench_mediawiki.py [--revisions N]``. It writes a
generated export (made-up text, no real page) to a temporary directory: a Ruleset with level-one sections
whose rules change revision by revision, and ordinary pages, 40 contributors. It migrates a fresh SQLite
database there, imports the file with ``import_mediawiki`` (one transaction), imports it again (nothing
new), and prints the file's size, each run's time and rate, and the process's peak resident memory before
and after the import. The import reads the file as a stream, so its peak should not follow the file's size.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import secrets
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WORKDIR = Path(tempfile.mkdtemp(prefix="bench-mediawiki-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blognomic.settings")
# Production-like settings: with DEBUG on Django would keep every query, texts included, in memory.
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from blognomic.moving.mediawiki.importing import import_mediawiki  # noqa: E402
from blognomic.moving.mediawiki.reading import Contributor  # noqa: E402
from blognomic.moving.mediawiki.writing import OutPage, OutRevision, write_export  # noqa: E402

WORDS = "lamp keeper harbour fog signal tide beacon vote quorum rule dynasty proposal gamestate ship".split()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."


def ruleset_text(rng: random.Random, rules: list[str]) -> str:
    out = ['<div style="padding:8px;background:#ddd;">', "{{TOCRight}}", "= Core Rules ="]
    for index, body in enumerate(rules):
        if index == len(rules) // 2:
            out.append("= Dynastic Rules =")
        out += [f"== Rule {index} ==", body]
    out.append("</div>")
    return "\n".join(out)


def pages(total: int, rng: random.Random):
    per_page = 1000
    start = datetime(2004, 1, 1, tzinfo=UTC)
    people = [Contributor(username=f"Keeper {n}", user_id=n) for n in range(1, 41)]
    count, page_id, revision_id = 0, 0, 0
    while count < total:
        page_id += 1
        n = min(per_page, total - count)
        count += n
        title = "Ruleset" if page_id == 1 else f"Gamestate page {page_id}"

        def revisions(page_id=page_id, n=n, title=title):
            nonlocal revision_id
            rules = [sentence(rng) for _ in range(12)]
            text = ""
            for k in range(n):
                revision_id += 1
                if title == "Ruleset":
                    rules[rng.randrange(len(rules))] = sentence(rng) + " " + sentence(rng)
                    text = ruleset_text(rng, rules)
                else:
                    text = (text + "\n* " + sentence(rng))[-1500:]
                yield OutRevision(
                    revision_id=revision_id,
                    timestamp=start + timedelta(minutes=page_id * 10**6 + k),
                    contributor=people[rng.randrange(len(people))],
                    comment=sentence(rng)[:60],
                    text=text,
                )

        yield OutPage(title=title, namespace=0, page_id=page_id, revisions=revisions())


def large_pages(total: int, size: int, rng: random.Random):
    """The Ruleset, every revision ``size`` bytes of new text: memory must follow bytes, not revisions."""
    start = datetime(2004, 1, 1, tzinfo=UTC)
    people = [Contributor(username=f"Keeper {n}", user_id=n) for n in range(1, 6)]

    def revisions():
        for k in range(total):
            text = ""
            while len(text) < size:
                text += sentence(rng) + "\n"
            yield OutRevision(
                revision_id=k + 1,
                timestamp=start + timedelta(hours=k),
                contributor=people[k % len(people)],
                comment=f"Long revision {k}",
                text=text[:size],
            )

    yield OutPage(title="Ruleset", namespace=0, page_id=1, revisions=revisions())


def deep_export(depth: int) -> bytes:
    """An export whose one revision's summary holds ``depth`` nested elements: reading must stay linear."""
    head = (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11"><page><title>Deep</title>'
        "<ns>0</ns><id>1</id><revision><id>1</id><timestamp>2006-01-01T00:00:00Z</timestamp><comment>"
    )
    tail = "</comment><text>Deep.</text></revision></page></mediawiki>"
    return (head + "<deep>\n" * depth + "</deep>\n" * depth + tail).encode()


def bench_deep(depth: int) -> None:
    path = WORKDIR / "deep.xml"
    path.write_bytes(deep_export(depth))
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    with open(path, "rb") as stream:
        report = import_mediawiki(stream)
    seconds = time.perf_counter() - started
    print(
        f"deep: {depth:,} nested elements, {path.stat().st_size / 1e3:,.0f} KB; import {seconds:,.2f} s; "
        f"added {report.counts['revisions added']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--revisions", type=int, default=100_000)
    parser.add_argument("--revision-bytes", type=int, default=0, help="one page of revisions this large each")
    parser.add_argument("--depth", type=int, default=0, help="only time one revision this deeply nested")
    args = parser.parse_args()
    if args.depth:
        bench_deep(args.depth)
        return
    path = WORKDIR / "export.xml"
    rng = random.Random(7)
    generated = large_pages(args.revisions, args.revision_bytes, rng) if args.revision_bytes else None
    with open(path, "w", encoding="utf-8") as out:
        write_export(out, generated or pages(args.revisions, rng))
    size = path.stat().st_size
    call_command("migrate", verbosity=0)
    before = peak_rss_mb()
    print(f"export: {args.revisions:,} revisions, {size / 1e6:,.1f} MB; peak RSS before import {before:,.0f} MB")
    for run in ("first import", "same file again"):
        started = time.perf_counter()
        with open(path, "rb") as stream:
            report = import_mediawiki(stream)
        seconds = time.perf_counter() - started
        print(
            f"{run}: {seconds:,.1f} s ({args.revisions / seconds:,.0f} revisions/s); "
            f"added {report.counts['revisions added']:,}, already here {report.counts['revisions already here']:,}; "
            f"peak RSS {peak_rss_mb():,.0f} MB"
        )


if __name__ == "__main__":
    main()
