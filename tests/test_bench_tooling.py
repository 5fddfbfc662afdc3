"""The benchmarks' own tooling: the archive builder, its scaling, the bulk loader and the page list.

Benchmarks are not part of the suite, so nothing else would notice them breaking when the models or the
archive format change. These tests build a small game the way ``bench_pages.py`` does, from a CSV in the
shape of the real history, and check that the importer accepts it, that the bulk loader writes the same
game, and that every page the benchmark measures answers.
"""

from __future__ import annotations

import csv
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import transaction

BENCH_DIR = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH_DIR))

import bench_archive  # noqa: E402 - found through the path set above
import bench_pages  # noqa: E402
import bench_votes  # noqa: E402
from bulk_load import bulk_load  # noqa: E402

COLUMNS = ["title", "proposer", "postedDate", "status", "admin", "closedDate", "lifespan", "comments", "dynasty"]
STATUSES = ["Enacted", "Enacted", "Failed", "Enacted", "Vetoed", "Enacted", "Illegal", "Failed"]
PLAYERS = ["Kevan", "Seventy-Fifth Trombone", "ais523", "Josh", "Brendan", "Clucky"]


def write_history(path: Path, dynasties: int = 6, per_dynasty: int = 12) -> Path:
    """A CSV shaped like fullprophistory.csv: its columns, date format, '?' admins, mojibake, open proposals."""
    moment = datetime(2016, 1, 4, 9, 30, tzinfo=UTC)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(COLUMNS)
        for d in range(dynasties):
            for n in range(per_dynasty):
                last = d == dynasties - 1 and n >= per_dynasty - 2
                status = "Open" if last else STATUSES[(d + n) % len(STATUSES)]
                closed = moment + timedelta(hours=30 + n)
                writer.writerow([
                    f"Itâ€™s proposal {d}.{n}" if n == 3 else f"Proposal {d}.{n}",
                    PLAYERS[(d + n) % len(PLAYERS)],
                    moment.strftime("%d %b  %Y %H:%M:%S"),
                    status,
                    "-" if last else ("?" if n == 5 else PLAYERS[d % 3]),
                    "" if last else closed.strftime("%d %b %Y  %H:%M:%S"),
                    -1 if last else 30 + n,
                    (n * 7 + d) % 25,
                    140 + d,
                ])
                moment += timedelta(hours=20)
    return path


@pytest.fixture
def history(tmp_path) -> list[dict]:
    return bench_archive.read_history(write_history(tmp_path / "history.csv"))


def small_game(history: list[dict], scale: float) -> dict:
    archive = bench_archive.build_archive(bench_archive.scaled_rows(history, scale), seed=7)
    bench_pages.add_gndt(archive, seed=7, updates=40)
    return archive


def test_scale_below_one_takes_the_last_whole_dynasties(history):
    """Scale 0.3 of 72 proposals: the last dynasties, whole, until they hold at least 22 proposals."""
    rows = bench_archive.scaled_rows(history, 0.3)
    assert [row["dynasty"] for row in rows] == ["144"] * 12 + ["145"] * 12
    assert rows == history[-24:]


def test_scale_above_one_grows_the_history_into_the_past(history):
    """Scale 2.5: the real history last and unchanged; two earlier eras before it, the oldest partial."""
    rows = bench_archive.scaled_rows(history, 2.5)
    assert len(rows) == 180
    assert rows[-72:] == [{**row, "dynasty": str(int(row["dynasty"]) + 2 * 145)} for row in history]
    numbers = [int(row["dynasty"]) for row in rows]
    assert numbers == sorted(numbers) and len(set(numbers)) == 15
    posted = [bench_archive.parse_csv_time(row["postedDate"]) for row in rows]
    assert posted == sorted(posted)
    older = rows[:-72]
    assert {row["proposer"] for row in older} == {f"{name} (era {era})" for name in PLAYERS for era in (1, 2)}
    assert "Open" not in {row["status"] for row in older}
    assert all(row["closedDate"] for row in older)


def test_the_importer_accepts_a_small_built_archive(history, db):
    """What the builder makes at a small scale is a valid archive: the importer loads all of it."""
    from blognomic.archive import import_archive
    from dynasties.models import User
    from ruleset.models import Revision
    from votes.models import Comment, Post
    from votes.state import game_state

    archive = small_game(history, 0.5)
    counts = import_archive(archive)
    assert counts["posts"] == Post.objects.count() == 36
    assert counts["comments"] == Comment.objects.count() == sum(len(p["comments"]) for p in archive["posts"])
    assert Revision.objects.filter(page__slug="ruleset").count() == sum(
        1 for p in archive["posts"] if p["resolution"] and p["resolution"]["outcome"] == "enacted")
    assert User.objects.filter(username="Kevan").exists()
    active = game_state(datetime(2016, 5, 1, tzinfo=UTC)).roster.active_names
    assert active == {p["name"] for p in archive["players"] if not p["idle"]}


def _game_snapshot() -> tuple[dict, Counter]:
    from blognomic.archive import export_archive
    from ruleset.models import RuleChange

    rule_changes = Counter(RuleChange.objects.values_list("revision__number", "anchor", "kind", "number", "title"))
    exported = export_archive()
    # An archive without passwords gives each account a random unusable one, and the moment it was loaded.
    for account in exported.get("accounts", []):
        account.pop("password", None)
        account.pop("date_joined", None)
    return _without_keys(exported), rule_changes


def _without_keys(value):
    """The export without primary keys: an archive that carries none is numbered by the database, and
    PostgreSQL's counters do not go back when a transaction is rolled back."""
    if isinstance(value, dict):
        return {key: _without_keys(item) for key, item in value.items() if key != "pk"}
    if isinstance(value, list):
        return [_without_keys(item) for item in value]
    return value


def test_bulk_load_writes_the_same_game_as_the_importer(history, db):
    """bulk_load and import_archive give the same export and the same index of rule changes."""
    archive = small_game(history, 1.5)
    with transaction.atomic():
        from blognomic.archive import import_archive

        import_archive(archive)
        imported = _game_snapshot()
        transaction.set_rollback(True)
    with transaction.atomic():
        counts = bulk_load(archive)
        loaded = _game_snapshot()
        transaction.set_rollback(True)
    assert counts["posts"] == len(archive["posts"]) == 108
    # Only the players seen lately are active, as in the real game: an earlier era's have all gone idle.
    idle = {p["name"] for p in archive["players"] if p["idle"]}
    assert {f"{name} (era 1)" for name in PLAYERS} <= idle
    assert not idle & set(PLAYERS)
    assert counts["comments"] == sum(len(p["comments"]) for p in archive["posts"])
    assert loaded[0] == imported[0]
    assert loaded[1] == imported[1]
    assert sum(imported[1].values()) > 0


def test_every_page_the_benchmark_measures_answers(history, db):
    """Each page in bench_pages' list answers 200 in-process, as its visitor, player or admin."""
    bulk_load(small_game(history, 1))
    users = bench_pages.pick_users()
    pages = bench_pages.pick_pages(users)
    assert [page.key for page in pages] == ["bare", *bench_pages.PAGE_KEYS]
    assert {page.as_user for page in pages} == {None, users["player"], users["admin"]}
    queries = bench_pages.count_queries(pages)  # exits on any answer but 200
    assert all(queries[page.ident] >= 1 for page in pages)
    assert set(bench_pages.session_cookies(pages)) == {users["player"], users["admin"]}


def test_the_micro_benchmarks_run_at_a_tiny_size(db):
    """The tally and beat-sweep measurements build their matters and time them without failing."""
    tally = bench_votes.measure_tally(voters=6, comments=20, repeat=2)
    assert tally["engine_ms"] > 0 and tally["page_ms"] > 0
    assert tally["voters_counted"] == 6
    sweep = bench_votes.measure_sweep(pending=5, voters=4, votes_per_matter=3, repeat=1)
    assert sweep["flagged"] > 0 and sweep["seconds"] > 0
