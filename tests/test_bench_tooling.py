"""The benchmarks' own tooling: the archive builder, its scaling, the bulk loader and the page list.

Benchmarks are not part of the suite, so nothing else would notice them breaking when the models or the
archive format change. These tests build a small game the way ``bench_pages.py`` does, from a CSV in the
shape of the real history, and check that the importer accepts it, that the bulk loader writes the same
game, and that every page the benchmark measures answers.
"""

from __future__ import annotations

import csv
import logging
import os
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from functools import partial
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from django.db import transaction

BENCH_DIR = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH_DIR))

import bench_archive  # noqa: E402 - found through the path set above
import bench_backup  # noqa: E402
import bench_deployed  # noqa: E402
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
                writer.writerow(
                    [
                        f"Itâ€™s proposal {d}.{n}" if n == 3 else f"Proposal {d}.{n}",
                        PLAYERS[(d + n) % len(PLAYERS)],
                        moment.strftime("%d %b  %Y %H:%M:%S"),
                        status,
                        "-" if last else ("?" if n == 5 else PLAYERS[d % 3]),
                        "" if last else closed.strftime("%d %b %Y  %H:%M:%S"),
                        -1 if last else 30 + n,
                        (n * 7 + d) % 25,
                        140 + d,
                    ]
                )
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
    from blognomic.moving.archive import import_archive
    from dynasties.models import User
    from ruleset.models import Revision
    from votes.models import Comment, Post
    from votes.state import game_state

    archive = small_game(history, 0.5)
    counts = import_archive(archive)
    assert counts["posts"] == Post.objects.count() == 36
    assert counts["comments"] == Comment.objects.count() == sum(len(p["comments"]) for p in archive["posts"])
    assert Revision.objects.filter(page__slug="ruleset").count() == sum(
        1 for p in archive["posts"] if p["resolution"] and p["resolution"]["outcome"] == "enacted"
    )
    assert User.objects.filter(username="Kevan").exists()
    active = game_state(datetime(2016, 5, 1, tzinfo=UTC)).roster.active_names
    assert active == {p["name"] for p in archive["players"] if not p["idle"]}


def _game_snapshot() -> tuple[dict, Counter]:
    from blognomic.moving.archive import export_archive
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
        from blognomic.moving.archive import import_archive

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
    cookies = bench_pages.session_cookies(pages)
    assert set(cookies) == {users["player"], users["admin"]}
    # As a browser sends them after its first page: the session, and a CSRF cookie Django takes as it is.
    for cookie in cookies.values():
        sent = SimpleCookie(cookie)
        assert set(sent) == {"sessionid", "csrftoken"} and len(sent["csrftoken"].value) == 32


def test_the_restore_drill_sees_an_address_missing_a_status_changed_and_a_byte_changed():
    """``bench_backup`` compares two renderings of a game: the same pages count as the same, and each kind of
    difference is named."""
    before = {"visitor /": [200, "a"], "visitor /players/Bo/": [200, "b"], "visitor /2009/10/": [200, "c"]}
    assert bench_backup.compare(before, dict(before)) == (3, [])
    after = {"visitor /": [200, "a"], "visitor /players/Bo/": [404, "x"], "visitor /2009/11/": [200, "c"]}
    assert bench_backup.compare(before, after) == (
        1,
        [
            "only before the restore: visitor /2009/10/",
            "only after the restore: visitor /2009/11/",
            "visitor /players/Bo/: status 200 before, 404 after",
        ],
    )
    assert bench_backup.compare(before, {**before, "visitor /": [200, "z"]})[1] == ["visitor /: different bytes"]


def test_the_restore_drill_renders_the_same_game_alike_and_sees_a_post_changed(history, db):
    """Rendered twice at one moment, a game gives the same digests (the per-request tokens masked); a post
    whose title changed, and the pages that list it, do not."""
    from votes.models import Post

    bulk_load(small_game(history, 0.3))
    moment = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    first = bench_backup.digests(moment, every=2)
    whos = {key.split(" ", 1)[0] for key in first}
    assert len(whos) == 2 and "visitor" in whos  # the admin panel is read as an admin
    assert all(status == 200 for status, _ in first.values())
    posts = Post.objects.order_by("slug")
    assert sum(" /posts/" in key for key in first) == (posts.count() + 1) // 2
    assert bench_backup.digests(moment, every=2) == first

    post = posts.first()  # the first of every second post
    Post.objects.filter(pk=post.pk).update(title="A title no one wrote")
    changed = bench_backup.digests(moment, every=2)
    differing = {key for key in first if first[key] != changed[key]}
    assert f"visitor /posts/{post.slug}/" in differing
    assert len(differing) < len(first) / 2


def test_the_micro_benchmarks_run_at_a_tiny_size(db):
    """The tally and beat-sweep measurements build their matters and time them without failing."""
    tally = bench_votes.measure_tally(voters=6, comments=20, repeat=2)
    assert tally["engine_ms"] > 0 and tally["page_ms"] > 0
    assert tally["voters_counted"] == 6
    sweep = bench_votes.measure_sweep(pending=5, voters=4, votes_per_matter=3, repeat=1)
    assert sweep["flagged"] > 0 and sweep["seconds"] > 0


def _worker_log_line(message: str, values: dict, at: float) -> str:
    """A line as the worker writes it: Celery's trace message through the site's one-line formatter."""
    from blognomic.running.logs import OneLineFormatter

    record = logging.LogRecord("celery.app.trace", logging.INFO, __file__, 1, message, (values,), None)
    record.created, record.msecs = at, (at % 1) * 1000
    return OneLineFormatter().format(record)


def test_the_deployed_benchmark_reads_the_jobs_from_the_workers_log():
    """A task the worker logs as finished is read back with its time and what it returned, a failed one as
    failed, and a move of the content version while a task ran is put to that task's name."""
    from celery.app.trace import LOG_FAILURE, LOG_SUCCESS

    finished = time.time()
    log = "\n".join(
        [
            "celery@host ready.",
            _worker_log_line(
                LOG_SUCCESS,
                {"name": "blognomic.tasks.heartbeat", "id": "0c9a-11", "runtime": 0.25, "return_value": 3},
                finished,
            ),
            _worker_log_line(
                LOG_FAILURE,
                {"name": "votes.tasks.send_notices", "id": "77ab-2", "description": "raised unexpected", "exc": "E"},
                finished + 5,
            ),
        ]
    )
    runs = bench_deployed.tasks_in(log)
    assert [(run.short, run.failed) for run in runs] == [("heartbeat", False), ("send_notices", True)]
    assert runs[0].seconds == 0.25
    assert abs(runs[0].finished - finished) < 0.01
    assert "heartbeat ×1 (250 ms)" in bench_deployed.tasks_text(runs)
    assert "1 FAILED" in bench_deployed.tasks_text(runs)
    moved = bench_deployed.moves_text([(finished - 0.1, 2), (finished + 30, 1)], runs)
    assert moved.startswith("moved 3 times at 2 moments")
    assert "×2 (heartbeat)" in moved
    assert bench_deployed.moves_text([], runs) == "did not move"

    class Worker:
        def log_since(self, offset: int) -> str:
            return log[offset:]

    assert bench_deployed.task_outcome(Worker(), 0, "0c9a-11", timeout=1) == "3"
    assert bench_deployed.task_outcome(Worker(), 0, "77ab-2", timeout=1) == "FAILED: raised unexpected: E"
    assert bench_deployed.task_outcome(Worker(), len(log), "0c9a-11", timeout=0.2) == "no answer within 0 s"


def test_the_deployed_benchmark_sorts_cache_entries_from_celerys_own():
    """Entries the site keeps are counted by kind; Celery's results and bindings apart."""
    before = {b":1:blognomic:content-version"}
    after = before | {
        b":1:stats:data:20261126-1-1-1-1",
        b":1:kept:search:41:ab12",
        b":1:kept:search:41:cd34",
        b":1:blognomic:page:99ff",
        b"celery-task-meta-5e1d",
        b"_kombu.binding.celery",
    }
    site, celery = bench_deployed.new_entries(before, after)
    assert site == {"stats:data": 1, "kept:search": 2, "blognomic:page": 1}
    assert sum(celery.values()) == 2


def test_the_process_watch_counts_the_cpu_and_memory_of_a_process():
    """This process, watched while it works for a moment: its CPU time and its resident memory."""
    watch = bench_deployed.ProcessWatch(lambda: {"this process": [os.getpid()]})
    start = watch.mark()
    began = time.process_time()
    while time.process_time() - began < 0.3:
        sum(range(10_000))
    end = watch.mark()
    (row,) = watch.usage(start, end, seconds=1.0)
    assert row["role"] == "this process" and row["pids"] == 1
    assert 0.2 <= row["cpu"] <= 1.0
    assert row["rss"][0] > 10 and row["peak"][0] >= row["rss"][0]


def test_the_writer_votes_on_a_pending_proposal_of_its_own(history, db):
    """The writer's players are the measured player and other active players who are not admins; its
    proposal is pending and its player may vote on it; the next run starts on a new one."""
    from django.utils import timezone

    from dynasties.models import User
    from votes.models import Comment, Post
    from votes.services import comment_add

    bulk_load(small_game(history, 1))
    player = bench_pages.pick_users()["player"]
    writers = bench_deployed.writer_players(player)
    assert writers[0] == player and len(set(writers)) == len(writers) > 1
    assert not User.objects.filter(username__in=writers, is_admin=True).exists()
    slug = bench_deployed.writer_target(player)
    post = Post.objects.get(slug=slug)
    assert post.status == "pending" and post.title == bench_deployed.WRITER_TITLE
    comment_add(post=post, author=User.objects.get(username=player), icon="for", now=timezone.now())
    assert Comment.objects.filter(post=post, author__username=player, icon="for").count() == 1
    again = Post.objects.get(slug=bench_deployed.writer_target(player))
    assert not Post.objects.filter(pk=post.pk).exists()
    assert again.status == "pending" and again.comments.count() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_writer_posts_votes_and_comments_through_gunicorn(postgres_only, tmp_path):
    """Through HTTP as htmx sends the comment form: a FOR vote, then a comment by the next player, each
    answered 200 and stored."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.factories import make_proposal, make_table
    from tests.live_server import Gunicorn, Session
    from votes.models import Comment

    now = timezone.now()
    players = make_table(4, start=now - timedelta(days=2))
    proposal = make_proposal(players[1], at=now - timedelta(hours=1), title="Proposal: Busy")
    cookies = [
        f"sessionid={Session(player).sessionid}; csrftoken={bench_pages.csrf_secret(player.username)}"
        for player in players[2:4]
    ]
    with Gunicorn(workers=1, threads=1, logfile=tmp_path / "gunicorn.log") as server:
        writer = bench_deployed.Writer(server.port, proposal.slug, cookies)
        writes = [writer.post_once(), writer.post_once()]
    assert [(write.kind, write.status) for write in writes] == [("vote", 200), ("comment", 200)], server.log_tail()
    stored = Comment.objects.filter(post=proposal).order_by("pk")
    assert [(comment.author, comment.icon) for comment in stored] == [(players[2], "for"), (players[3], None)]


def test_the_deployed_benchmark_leaves_out_the_pages_a_game_lacks(history, db):
    """A game without a wiki page lacks it (404) and it is left out; every page of the built game is kept."""
    bulk_load(small_game(history, 1))
    pages = bench_pages.pick_pages()
    missing = bench_pages.Page("a wiki page that is not there", "/wiki/no-such-page/", key="missing")
    present, absent = bench_deployed.pages_in_game([*pages, missing])
    assert present == pages
    assert absent == [missing]


def test_the_deployed_benchmark_profiles_a_rendering(history, db):
    """A page rendered under the profile gives its time, its queries with theirs, and its templates by name;
    its fresh renderings their wall and CPU times."""
    from django.test import Client

    bulk_load(small_game(history, 1))
    profile = bench_deployed.profile_request(partial(Client(HTTP_HOST=bench_pages.HOST).get, "/"))
    assert profile["ms"] > 0 and profile["cpu_ms"] > 0
    assert profile["queries"] and all(ms >= 0 for ms, _ in profile["queries"])
    assert "blog/front_page.html" in profile["templates"]
    total, count = profile["templates"]["blog/_post_summary.html"]
    assert count > 1 and total > 0
    front = bench_pages.Page("front page", "/")
    (rendering,) = bench_pages.fresh_renderings([front], repeat=2).values()
    assert len(rendering["ms"]) == len(rendering["cpu_ms"]) == 2 and min(rendering["cpu_ms"]) > 0
    select = 'SELECT "a"."id", "a"."title" FROM "blognomic_post" "a" WHERE "a"."id" = 1'
    assert bench_deployed.sql_summary(select) == 'SELECT … FROM "blognomic_post" "a" WHERE "a"."id" = 1'
    assert len(bench_deployed.sql_summary("UPDATE x SET y = 1 " * 20)) == 110


def _figure(rps: float, cpu_ms: float | None, load1: float = 1.5) -> dict:
    figure = {"requests": int(rps * 5), "rps": rps, "median_ms": 4.0, "p95_ms": 9.0, "errors": 0}
    figure.update({"error_kinds": Counter(), "load1": load1})
    if cpu_ms is not None:
        figure["cpu_ms"] = cpu_ms
    return figure


def test_the_page_table_gives_the_load_and_the_servers_cpu_per_request(capsys):
    """Each page's median CPU per request over the rounds, and its ratio to the bare view's, beside the load;
    a page that answered nothing shows a dash."""
    pages = [bench_pages.Page("bare", "/b/"), bench_pages.Page("page", "/p/"), bench_pages.Page("slow", "/s/")]
    rounds = [
        {"/b/": _figure(500, 0.5), "/p/": _figure(200, 1.5), "/s/": _figure(0, None)},
        {"/b/": _figure(400, 0.5), "/p/": _figure(100, 2.5), "/s/": _figure(0, None)},
    ]
    combined = bench_pages.combine_rounds(pages, rounds)
    assert combined["/p/"]["cpu_ms"] == 2.0 and combined["/s/"]["cpu_ms"] is None
    bench_pages.print_table(pages, combined, {"/b/": 0, "/p/": 3, "/s/": 9}, rounds=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-5:] == ["load", "CPU", "ms", "CPU", "×"]
    assert lines[3].split()[-3:] == ["1.50", "2.00", "4.0"]
    assert lines[4].split()[-2:] == ["—", "—"]
