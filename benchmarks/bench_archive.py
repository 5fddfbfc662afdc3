"""Time loading and exporting an archive shaped like the real BlogNomic history, at its size or a multiple.

Run from the project root: ``.venv/bin/python benchmarks/bench_archive.py [--proposals 2000 | --scale 10]
[--loader importer|bulk] [--database-url postgres://blognomic:blognomic@127.0.0.1:5432/blognomic]
[--no-export] [--no-memory]``.

The archive is built at run time from the real figures in ``../shared/data/blognomic-history/
fullprophistory.csv`` (read from there, never copied into the project): the proposals of the last dynasties,
enough for ``--proposals``, each with its real proposer, dates, status, admin and comment count; or with
``--scale`` the whole history that many times (1: all of it; 10: 158,000 proposals and 1.4 million
comments, the history repeated into the past, see ``scaled_rows``; 0.1: the last dynasties holding a tenth
of it). Everything else is synthetic: comment text, who commented and which icon (in proportions that fit
each outcome), an Emperor per dynasty (its busiest admin), one Ruleset revision per enacted proposal (the
Ruleset in the wiki's markup, about 7 KB, with the rule the proposal changed), a few spectators, and which
players are idle (those not seen in the last month).

It loads it into a fresh, migrated database, a SQLite file in a temporary directory or, with
``--database-url``, a PostgreSQL database created for the run beside the one named and dropped after (no
other database is touched), with ``import_archive`` (the default: every field checked) or ``bulk_load``
(the same rows, bulk inserts). It exports it again, and prints the rows loaded, the build, load and export
seconds, their query counts and, from a second run under tracemalloc, their peak Python memory.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import resource
import secrets
import shutil
import signal
import sys
import tempfile
import time
import tracemalloc
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_CSV = ROOT.parent / "shared" / "data" / "blognomic-history" / "fullprophistory.csv"

# The CSV's statuses as the archive's status and resolution outcome.
OUTCOMES = {
    "Enacted": ("enacted", "enacted"),
    "Failed": ("failed", "failed"),
    "Vetoed": ("failed", "vetoed"),
    "Illegal": ("failed", "self-killed"),
    "Open": ("pending", None),
}
# Chance of FOR, AGAINST and no icon among other players' comments, by outcome.
ICON_WEIGHTS = {
    "enacted": (0.72, 0.14, 0.14),
    "failed": (0.25, 0.60, 0.15),
    "vetoed": (0.45, 0.35, 0.20),
    "self-killed": (0.20, 0.55, 0.25),
    None: (0.50, 0.30, 0.20),
}
PHRASES = (
    "For, this reads well.",
    "Against: the second clause breaks the daily action.",
    "Seems fine to me.",
    "Is the wording of the last bullet intended?",
    "Reluctantly for.",
    "This would let anyone win tomorrow.",
    "Note: I have fixed the typo in the title.",
    "Against, too many moving parts.",
    "Nice idea.",
    "CoV: persuaded by the comments above.",
    "For, but see my comment on the tracker.",
)
SPECTATORS = ("A Passing Reader", "Lurker from the Wiki", "Former Player (retired)")
RULE_WORDS = "player emperor proposal vote quorum enact fail pending hour day dynasty token chest".split()


def parse_csv_time(text: str) -> datetime | None:
    """``03 Aug  2005 05:42:56`` (spaces vary) as UTC, or None when the field is empty or malformed."""
    try:
        return datetime.strptime(" ".join(text.split()), "%d %b %Y %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def clean_name(text: str, fallback: str) -> str:
    """A name the archive accepts: trimmed, no '/' and no control characters."""
    name = "".join(ch for ch in text.replace("/", "-") if ord(ch) >= 32 and ord(ch) != 127).strip()
    return name[:150] or fallback


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def read_history(path: Path) -> list[dict]:
    """Every proposal of the CSV that names its dynasty, in file order (oldest first)."""
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        return [row for row in csv.DictReader(handle) if (row.get("dynasty") or "").strip().isdigit()]


def last_dynasties(rows: list[dict], wanted: int, dynasties: int | None = None) -> list[dict]:
    """The proposals of the last dynasties: ``dynasties`` of them, or as many as make ``wanted`` proposals."""
    by_dynasty: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_dynasty[int(row["dynasty"])].append(row)
    chosen: list[int] = []
    for number in sorted(by_dynasty, reverse=True):
        if (dynasties is not None and len(chosen) >= dynasties) or (
            dynasties is None and sum(len(by_dynasty[n]) for n in chosen) >= wanted
        ):
            break
        chosen.append(number)
    return [row for number in sorted(chosen) for row in by_dynasty[number]]


def read_proposals(path: Path, wanted: int, dynasties: int | None) -> list[dict]:
    """The proposals of the last dynasties: ``dynasties`` of them, or as many as make ``wanted`` proposals."""
    return last_dynasties(read_history(path), wanted, dynasties)


def _csv_time(moment: datetime) -> str:
    return moment.strftime("%d %b %Y %H:%M:%S")


def scaled_rows(rows: list[dict], scale: float) -> list[dict]:
    """The real history at ``scale`` times its size, as CSV rows ``build_archive`` reads.

    Below 1: the last dynasties, as many as make ``scale`` of the proposals. Above 1: the history grows
    into the past, the way a longer-running game would: earlier "eras" repeat the real dynasties (each with
    its real proposal and comment counts, dates and outcomes) shifted back by the history's span, their
    dynasties numbered before the real ones and their players named apart ("Kevan (era 3)"), so each
    era has its own players, as new generations of a long game would. The oldest era is partial when
    ``scale`` is not whole. Only the real (newest) era keeps proposals still open.
    """
    if scale <= 0:
        raise ValueError("scale must be positive")
    wanted = max(1, round(scale * len(rows)))
    if wanted <= len(rows):
        return last_dynasties(rows, wanted)
    times = [t for row in rows for t in (parse_csv_time(row.get("postedDate", "")),) if t]
    span = max(times) - min(times) + timedelta(days=28)
    top = max(int(row["dynasty"]) for row in rows)
    eras = -(-wanted // len(rows))
    result: list[dict] = []
    for era in range(eras):
        back = eras - 1 - era  # how many spans before the real history this era lies
        source = rows if era else last_dynasties(rows, wanted - (eras - 1) * len(rows))
        for row in source:
            if back == 0:
                result.append({**row, "dynasty": str(int(row["dynasty"]) + era * top)})
                continue
            shifted = dict(row)
            shifted["dynasty"] = str(int(row["dynasty"]) + era * top)
            label = f" (era {era + 1})"
            for key in ("proposer", "admin"):
                name = (row.get(key) or "").strip()
                if name and name not in ("?", "-"):
                    shifted[key] = name[:140] + label
            posted = parse_csv_time(row.get("postedDate", ""))
            closed = parse_csv_time(row.get("closedDate", ""))
            if posted:
                shifted["postedDate"] = _csv_time(posted - span * back)
            if (row.get("status") or "").strip() == "Open":
                # An old era's open proposal was resolved long ago.
                shifted["status"] = "Failed"
                closed = (posted or min(times)) + timedelta(hours=48)
            shifted["closedDate"] = _csv_time(closed - span * back) if closed else ""
            result.append(shifted)
    return result


CORE_TITLES = (
    "Ruleset and Gamestate",
    "Players",
    "Proposals",
    "Votes",
    "Enactment",
    "Calls for Judgement",
    "Victory and Ascension",
    "Hiatus",
    "Fair Play",
    "Gamestate Tracking",
    "Time",
    "Idling",
)


def synthetic_sentence(rng: random.Random) -> str:
    words = " ".join(rng.choice(RULE_WORDS) for _ in range(rng.randint(10, 18)))
    return f"{words.capitalize()}."


def synthetic_body(rng: random.Random) -> str:
    return " ".join(synthetic_sentence(rng) for _ in range(rng.randint(1, 3)))


def synthetic_ruleset(rng: random.Random, dynastic: int = 14) -> list[list[str]]:
    """[section, title, body] for each rule: the fixed core rules, then ``dynastic`` dynastic ones."""
    rules = [["Core Rules", title, synthetic_body(rng)] for title in CORE_TITLES]
    rules += [["Dynastic Rules", dynastic_title(rng), synthetic_body(rng)] for _ in range(dynastic)]
    return rules


def dynastic_title(rng: random.Random) -> str:
    return f"{rng.choice(RULE_WORDS).capitalize()} {rng.choice(RULE_WORDS).capitalize()}"


def ruleset_text(rules: list[list[str]]) -> str:
    """The Ruleset in the wiki's stored markup (``== Section ==``, ``=== Rule ===``)."""
    lines: list[str] = []
    section = None
    for rule_section, title, body in rules:
        if rule_section != section:
            section = rule_section
            lines.append(f"== {section} ==")
        lines += [f"=== {title} ===", body, ""]
    return "\n".join(lines)


def enact_into(rng: random.Random, rules: list[list[str]]) -> tuple[str, str]:
    """Change the Ruleset as an enacted proposal might: mostly amend a rule, sometimes add or repeal one.

    Returns the proposal's body and the rule's title, so the post and the revision agree.
    """
    dynastic = [i for i, rule in enumerate(rules) if rule[0] == "Dynastic Rules"]
    roll = rng.random()
    if roll < 0.15 and len(dynastic) < 24:
        rule = ["Dynastic Rules", dynastic_title(rng), synthetic_body(rng)]
        rules.append(rule)
        return f"Add a new rule to the Ruleset, called “{rule[1]}”:\n\n> {rule[2]}\n", rule[1]
    if roll < 0.25 and len(dynastic) > 6:
        rule = rules.pop(rng.choice(dynastic))
        return f"Repeal the rule “{rule[1]}”.\n", rule[1]
    rule = rules[rng.randrange(len(rules))]
    rule[2] = synthetic_body(rng)
    return f"Replace the text of the rule “{rule[1]}” with:\n\n> {rule[2]}\n", rule[1]


def build_archive(rows: list[dict], seed: int) -> dict:
    rng = random.Random(seed)
    last_time = datetime(2005, 1, 1, tzinfo=UTC)
    proposals = []
    for index, row in enumerate(rows):
        posted = parse_csv_time(row.get("postedDate", "")) or last_time
        last_time = posted
        status, outcome = OUTCOMES.get((row.get("status") or "").strip(), ("failed", "failed"))
        closed = parse_csv_time(row.get("closedDate", "")) if status != "pending" else None
        if status != "pending":
            closed = max(closed or posted + timedelta(hours=48), posted + timedelta(minutes=1))
        admin = (row.get("admin") or "").strip()
        proposals.append(
            {
                "index": index,
                "title": row.get("title") or "(untitled)",
                "posted": posted,
                "closed": closed,
                "proposer": clean_name(row.get("proposer") or "", "Unknown Proposer"),
                "admin": clean_name(admin, "") if admin not in ("", "?", "-") else None,
                "status": status,
                "outcome": outcome,
                "dynasty": int(row["dynasty"]),
                "comments": int(row["comments"]) if (row.get("comments") or "").strip().isdigit() else 0,
            }
        )

    # Players of a dynasty are those who proposed or adminned in it; each joined before their first one.
    pool: dict[int, list[str]] = defaultdict(list)
    first_seen: dict[str, datetime] = {}
    admins: Counter[str] = Counter()
    dynasty_admins: dict[int, Counter[str]] = defaultdict(Counter)
    dynasty_span: dict[int, list[datetime]] = {}
    for p in proposals:
        span = dynasty_span.setdefault(p["dynasty"], [p["posted"], p["posted"]])
        span[0], span[1] = min(span[0], p["posted"]), max(span[1], p["closed"] or p["posted"])
        for name in filter(None, (p["proposer"], p["admin"])):
            if name not in pool[p["dynasty"]]:
                pool[p["dynasty"]].append(name)
        if p["admin"]:
            admins[p["admin"]] += 1
            dynasty_admins[p["dynasty"]][p["admin"]] += 1
    numbers = sorted(dynasty_span)
    starts = {n: dynasty_span[n][0] - timedelta(days=1) for n in numbers}
    for number in numbers:
        for name in pool[number]:
            first_seen[name] = min(first_seen.get(name, starts[number]), starts[number])
    last_moment = max(span[1] for span in dynasty_span.values())
    emperors = {n: (dynasty_admins[n].most_common(1) or [(None, 0)])[0][0] for n in numbers}
    dynasties = [
        {
            "number": n,
            "emperor": emperors[n],
            "player_term": "Player",
            "emperor_term": "Emperor",
            "theme": f"Dynasty {n}",
            "started_at": stamp(starts[n]),
            "ended_at": stamp(starts[numbers[i + 1]]) if i + 1 < len(numbers) else None,
        }
        for i, n in enumerate(numbers)
    ]

    posts, revisions = [], []
    last_seen: dict[str, datetime] = {}
    ruleset = synthetic_ruleset(rng)
    for p in proposals:
        end = p["closed"] or min(p["posted"] + timedelta(hours=48), last_moment + timedelta(hours=1))
        voters = pool[p["dynasty"]]
        moments = sorted(p["posted"] + (end - p["posted"]) * rng.random() for _ in range(p["comments"]))
        comments = []
        for n, at in enumerate(moments):
            if n == 0 and p["outcome"] == "self-killed":
                author, icon = p["proposer"], "against"
            elif rng.random() < 0.04:
                author, icon = rng.choice(SPECTATORS), None
            else:
                author = rng.choice(voters)
                icon = rng.choices(("for", "against", None), ICON_WEIGHTS[p["outcome"]])[0]
            if author in first_seen:
                last_seen[author] = at
            comments.append(
                {
                    "author": author,
                    "at": stamp(at),
                    "icon": icon,
                    "text": f"{rng.choice(PHRASES)} (On “{p['title'][:40]}”.)",
                }
            )
        emperor = emperors[p["dynasty"]]
        if p["outcome"] == "vetoed" and emperor:
            comments.append(
                {"author": emperor, "at": stamp(end - timedelta(seconds=30)), "icon": "veto", "text": "Vetoed."}
            )
        last_seen[p["proposer"]] = max(last_seen.get(p["proposer"], p["posted"]), p["posted"])
        if p["admin"] and p["closed"]:
            last_seen[p["admin"]] = max(last_seen.get(p["admin"], p["closed"]), p["closed"])
        resolution = None
        if p["status"] != "pending":
            resolution = {
                "by": p["admin"],
                "at": stamp(p["closed"]),
                "outcome": p["outcome"],
                "note": f"{p['outcome'].capitalize()} by {p['admin'] or 'an admin'}.",
            }
        post_id = f"p{p['index']:06d}-{p['dynasty']}"
        if p["outcome"] == "enacted":
            body, _ = enact_into(rng, ruleset)
            revisions.append(
                {
                    "at": stamp(p["closed"]),
                    "author": p["admin"],
                    "post": post_id,
                    "summary": f"Enacting {post_id}",
                    "text": ruleset_text(ruleset),
                }
            )
        else:
            body = f"Replace the text of the rule “{rng.choice(ruleset)[1]}” with:\n\n> {synthetic_body(rng)}\n"
        posts.append(
            {
                "id": post_id,
                "kind": "proposal",
                "title": f"Proposal: {p['title']}",
                "author": p["proposer"],
                "posted_at": stamp(p["posted"]),
                "dynasty": p["dynasty"],
                "body": body,
                "flavour": "",
                "status": p["status"],
                "resolution": resolution,
                "comments": comments,
            }
        )

    # As in the real game, only the players of the last weeks are active: the others went idle a week
    # after they were last seen (Rulesets 50 onward idle a player after seven days without a post).
    cutoff = min(starts[numbers[-1]], last_moment - timedelta(days=30))
    players = []
    for name, joined in sorted(first_seen.items(), key=lambda item: (item[1], item[0])):
        seen = last_seen.get(name, joined)
        player = {
            "name": name,
            "admin": name in admins,
            "idle": seen < cutoff,
            "joined_at": stamp(joined - timedelta(days=7)),
        }
        if player["idle"]:
            player["idle_since"] = stamp(min(seen + timedelta(days=7), cutoff))
        players.append(player)
    pages = []
    if revisions:
        pages.append({"title": "Ruleset", "kind": "ruleset", "protected": True, "revisions": revisions})
    return {
        "format": "blognomic-archive",
        "version": 1,
        "profile": "2016",
        "players": players,
        "dynasties": dynasties,
        "posts": posts,
        "wiki": {"pages": pages},
    }


def setup_django(database_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "blognomic.settings"
    os.environ["DATABASE_URL"] = database_url
    # Production-like settings: with DEBUG on Django would keep every query in memory.
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


class QueryCounter:
    """Counts the SQL statements run through Django's connection, without keeping them (bulk inserts are big)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _load(archive: dict, loader: str) -> dict[str, float]:
    """Load with the chosen loader; returns bulk_load's seconds per step (nothing for the importer)."""
    if loader == "bulk":
        from bulk_load import bulk_load

        return bulk_load(archive)["seconds"]
    from blognomic.moving.archive import import_archive

    import_archive(archive)
    return {}


def run(archive: dict, *, loader: str = "importer", export: bool = True, memory: bool = True) -> dict:
    from django.core.management import call_command
    from django.db import connection

    from blognomic.moving.archive import export_archive
    from dynasties.models import Absence, Dynasty, User
    from ruleset.models import Revision, RuleChange
    from votes.models import Comment, Post, Resolution

    call_command("migrate", verbosity=0)
    figures: dict = {}
    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        started, cpu = time.perf_counter(), time.process_time()
        figures["steps"] = _load(archive, loader)
        figures["import_seconds"] = time.perf_counter() - started
        figures["import_cpu_seconds"] = time.process_time() - cpu
    figures["import_queries"] = counter.count
    figures["rows"] = {
        model.__name__: model.objects.count()
        for model in (User, Dynasty, Absence, Post, Comment, Resolution, Revision, RuleChange)
    }
    if export:
        counter = QueryCounter()
        with connection.execute_wrapper(counter):
            started = time.perf_counter()
            exported = export_archive()
            figures["export_seconds"] = time.perf_counter() - started
        figures["export_queries"] = counter.count
        assert len(exported["posts"]) == len(archive["posts"]), "the export lost posts"
        del exported
    if memory:
        # The memory run repeats both on an emptied database: tracemalloc slows Python, so it is not timed.
        call_command("flush", interactive=False, verbosity=0)
        tracemalloc.start()
        _load(archive, loader)
        figures["import_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        if export:
            tracemalloc.reset_peak()
            export_archive()
            figures["export_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--proposals", type=int, default=2000, help="Take the last dynasties until they hold this many proposals."
    )
    parser.add_argument("--dynasties", type=int, help="Take exactly this many of the last dynasties instead.")
    parser.add_argument("--scale", type=float, help="Instead: the real history this many times (see scaled_rows).")
    parser.add_argument(
        "--loader", choices=("importer", "bulk"), default="importer", help="import_archive (default) or bulk_load."
    )
    parser.add_argument("--database-url", help="postgres://…: load into a temporary PostgreSQL database.")
    parser.add_argument("--no-export", action="store_true", help="Do not time export_archive.")
    parser.add_argument("--no-memory", action="store_true", help="Skip the second run under tracemalloc.")
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV, help="Path of fullprophistory.csv.")
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument(
        "--keep", action="store_true", help="Keep the temporary SQLite database and print its path (SQLite only)."
    )
    args = parser.parse_args()
    if not args.csv.exists():
        sys.exit(f"{args.csv} is missing: the benchmark reads the real figures from ../shared at run time.")
    if args.scale is not None and args.scale <= 0:
        sys.exit("--scale must be positive.")

    from benchdb import TemporaryDatabase

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = Path(tempfile.mkdtemp(prefix="blognomic-bench-archive-"))
    database = TemporaryDatabase(workdir, args.database_url)
    created = False
    try:
        started = time.perf_counter()
        history = read_history(args.csv)
        if args.scale:
            rows = scaled_rows(history, args.scale)
        else:
            rows = last_dynasties(history, args.proposals, args.dynasties)
        archive = build_archive(rows, args.seed)
        build_seconds = time.perf_counter() - started
        numbers = [d["number"] for d in archive["dynasties"]]
        comments = sum(len(p["comments"]) for p in archive["posts"])
        print(
            f"archive{f' at scale {args.scale:g}' if args.scale else ''}: dynasties {numbers[0]}–{numbers[-1]} "
            f"({len(numbers)}), {len(archive['posts'])} proposals, {comments} comments, "
            f"{len(archive['players'])} players, "
            f"{sum(len(p['revisions']) for p in archive['wiki']['pages'])} ruleset revisions "
            f"(built in {build_seconds:.2f} s)"
        )
        database.create()
        created = True
        setup_django(database.url)
        print(f"database: {database.label}, {database.server_version()}")
        figures = run(archive, loader=args.loader, export=not args.no_export, memory=not args.no_memory)
        loader = "import_archive" if args.loader == "importer" else "bulk_load"
        print("rows loaded: " + ", ".join(f"{name} {count}" for name, count in figures["rows"].items()))
        peak = f", peak {figures['import_peak_mb']:.1f} MB (tracemalloc)" if "import_peak_mb" in figures else ""
        print(
            f"load ({loader}): {figures['import_seconds']:.2f} s ({figures['import_cpu_seconds']:.2f} s of this "
            f"process's CPU; the rest is the database and waiting for a CPU), {figures['import_queries']} "
            f"queries{peak}; load average {', '.join(f'{v:.2f}' for v in os.getloadavg())}"
        )
        if figures["steps"]:
            print("  " + "; ".join(f"{name} {seconds:.1f} s" for name, seconds in figures["steps"].items()))
        print(
            f"build and load: {build_seconds + figures['import_seconds']:.2f} s; peak RSS of this process "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        )
        if "export_seconds" in figures:
            peak = f", peak {figures['export_peak_mb']:.1f} MB (tracemalloc)" if "export_peak_mb" in figures else ""
            print(f"export: {figures['export_seconds']:.2f} s, {figures['export_queries']} queries{peak}")
    finally:
        if created:
            from django.db import connections

            connections.close_all()
            database.drop()
        if args.keep and database.name is None:
            print(f"database kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
