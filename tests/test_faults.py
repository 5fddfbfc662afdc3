"""Faults survived, nothing lost (the issue "As deployed"): the production processes on loopback — gunicorn,
the Celery worker with beat, Redis, PostgreSQL — while a worker is killed, Redis stops, PostgreSQL goes away
and comes back, and two web nodes serve one game.

Each test starts what it needs (``tests.processes``): a Redis of its own, never the machine's shared one, and
gunicorn and the worker against the test database. They run on PostgreSQL, the suite's second run, as the
site is deployed; they need ``redis-server`` on the path, which ``make test`` installs.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import shutil
import threading
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.running.models import Heartbeat
from dynasties.models import Game, Notification, OutgoingMail
from ruleset.models import Page, Revision
from ruleset.services import page_create
from tests.factories import make_proposal, vote
from tests.gndt.builders import make_gndt
from tests.live_server import Gunicorn, Session
from tests.processes import Celery, DatabaseProxy, RedisServer, database_url, wait_until
from tests.test_amendments import FOG_PASSAGE, RULESET, pass_votes, propose
from votes.models import Comment, Post, Resolution

# How long Redis stays away: beat tries to send every job, the worker loses its broker, several times over.
OUTAGE_SECONDS = 4
# How long PostgreSQL stays away.
DATABASE_AWAY_SECONDS = 3

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("postgres_only", "redis_server_installed"),
]


@pytest.fixture
def redis_server_installed():
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (`make test` installs it)")


def blocked_by_this_connection() -> int:
    """How many other sessions of the test database are waiting for a lock this connection holds."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        )
        return cursor.fetchone()[0]


def end_blocked_sessions() -> None:
    """End the database sessions of a killed worker that wait for this connection's lock. Left alone, a
    statement the worker had sent would still finish once the lock is let go (PostgreSQL notices the lost
    client only when it answers): ended, it is as if the kill had come a moment before the statement was
    sent, which a SIGKILL may as well."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        )


def beats() -> int:
    """How many times beat's heartbeat has run."""
    heartbeat = Heartbeat.objects.filter(name="beat").first()
    return heartbeat.runs if heartbeat else 0


@pytest.fixture
def enactable(t0):
    """A Proposal with an amendment, passed and open 13 hours, in a game that resolves matters itself; its
    author wants notices by mail."""
    now = timezone.now()
    game = make_gndt(now - timedelta(days=2))
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        slug="ruleset",
        author=None,
        text=RULESET,
        now=now - timedelta(days=20),
        check_permission=False,
    )
    Game.objects.filter(pk=1).update(auto_resolve=True)
    author = game.players[2]
    author.email = "p03@example.org"
    author.save()
    post = propose(game, author, "Proposal: Fog Horn", [FOG_PASSAGE], at=now - timedelta(hours=13))
    pass_votes(game, post, at=now - timedelta(hours=12, minutes=30))
    return post


def test_a_worker_killed_while_enacting_and_while_telling_leaves_each_done_exactly_once(enactable, tmp_path):
    """The worker is killed with SIGKILL twice: inside the transaction that enacts a Proposal and applies its
    amendment (held there by a lock the test takes on the Ruleset), then between telling a player of a notice
    and putting its mail in the outbox (held by a lock on the outbox). After each restart the next run of the
    schedule finishes the work: the matter is resolved once, its amendment applied once, and every notice is
    told once with its one mail, sent."""
    post, author = enactable, enactable.author
    with RedisServer(tmp_path) as redis, Celery("beat", redis_url=redis.url, directory=tmp_path):
        worker = Celery("worker", redis_url=redis.url, directory=tmp_path)
        # 1. Killed inside the enactment: it has locked the matter and recorded the resolution, and waits for
        # the Ruleset to apply the amendment.
        with transaction.atomic():
            Page.objects.select_for_update().get(slug="ruleset")
            with worker:
                wait_until(blocked_by_this_connection, timeout=45, what="the enactment reaching the Ruleset")
                worker.kill()
            end_blocked_sessions()
        assert not Resolution.objects.filter(post=post).exists()
        assert Post.objects.get(pk=post.pk).status == "pending"
        # 2. Killed while telling: a notice is written and its mail waits for the outbox.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {OutgoingMail._meta.db_table} IN SHARE MODE")
            with worker:
                wait_until(blocked_by_this_connection, timeout=45, what="a mail reaching the outbox")
                worker.kill()
            end_blocked_sessions()
        # 3. Restarted: the schedule's next runs finish what was left, and a few more runs do nothing more.
        with worker:

            def told_and_nothing_left_to_send():
                told = Notification.objects.filter(user=author, text__startswith="Your “Proposal: Fog Horn” was")
                return told.exists() and not OutgoingMail.objects.exclude(status=OutgoingMail.SENT).exists()

            wait_until(told_and_nothing_left_to_send, timeout=45, what=f"the notice of it\n{worker.log_tail()}")
            runs = beats()
            wait_until(lambda: beats() >= runs + 3, timeout=30, what=f"three beats\n{worker.log_tail()}")

    assert Resolution.objects.filter(post=post).count() == 1
    assert Post.objects.get(pk=post.pk).status == "enacted"
    assert AmendmentApplication.objects.filter(post=post, applied=True).count() == 1
    ruleset = Page.objects.get(slug="ruleset")
    assert Revision.objects.filter(page=ruleset).count() == 2
    assert ruleset.current.text.count("the horn sounds") == 1
    notices = list(Notification.objects.filter(user=author).values_list("text", flat=True))
    mails = list(OutgoingMail.objects.filter(to=author.email).values_list("subject", "status"))
    assert len(notices) == len(set(notices)) >= 1, notices
    assert sorted(subject for subject, _ in mails) == sorted(text[:120] for text in notices), (notices, mails)
    assert {status for _, status in mails} == {OutgoingMail.SENT}


def for_votes_shown(body: str) -> int | None:
    """The FOR count a post page's tally box shows ("For (3)"), None if it shows none."""
    found = re.search(r"For \((\d+)\)", re.sub(r"<[^>]+>|\s+", " ", body))
    return int(found.group(1)) if found else None


@pytest.fixture
def pending(t0):
    """A pending Proposal with two FOR votes (its author's and one more) and five players."""
    now = timezone.now()
    game = make_gndt(now - timedelta(days=2))
    post = make_proposal(game.players[2], at=now - timedelta(hours=1), title="Proposal: Brighter Lamps")
    vote(post, game.players[3], "for", at=now - timedelta(minutes=50))
    return game, post


def test_with_redis_stopped_pages_answer_and_votes_count_and_all_resumes_when_it_returns(pending, tmp_path):
    """Redis stops (as a restart does, saving its data): every page still answers from the database and a
    vote is counted and shown at once; no 500. When Redis returns with what it held before, no page from
    before the outage is served, a vote is shown at once, and beat runs again."""
    game, post = pending
    url = post.get_absolute_url()
    player, voters = Session(game.players[4]), [Session(game.players[0]), Session(game.players[1])]
    with (
        RedisServer(tmp_path) as redis,
        Gunicorn(workers=2, threads=2, logfile=tmp_path / "gunicorn.log", environment={"REDIS_URL": redis.url}) as web,
        Celery("worker", redis_url=redis.url, directory=tmp_path) as worker,
        Celery("beat", redis_url=redis.url, directory=tmp_path),
    ):

        def reads(expected: int) -> list[str]:
            """Every reader's view of the post and the front page; what is wrong with them."""
            wrong = []
            for session in (None, player):
                for path in (url, "/", f"{url}tally/"):
                    status, body = web.request("GET", path, session=session)
                    if status != 200:
                        wrong.append(f"{path} as {session and 'player'}: {status}")
                    elif path != "/" and for_votes_shown(body) != expected:
                        wrong.append(f"{path} as {session and 'player'}: FOR {for_votes_shown(body)}")
            return wrong

        # Once beat's first runs have told what they had to tell, nothing writes: the pages stay in Redis.
        wait_until(lambda: beats() >= 3, timeout=30, what=f"beat's first runs\n{worker.log_tail()}")
        assert reads(2) == []
        version = redis.client().get(":1:blognomic:content-version")
        assert reads(2) == [] and redis.client().get(":1:blognomic:content-version") == version
        assert redis.client().keys(":1:blognomic:page:*"), "the pages are kept in Redis"

        redis.stop()
        out_until = time.monotonic() + OUTAGE_SECONDS
        assert web.request("POST", f"{url}comment/", session=voters[0], data={"icon": "for"})[0] == 302
        while time.monotonic() < out_until:
            assert reads(3) == [], web.log_tail()
        assert web.request("GET", "/healthz/") == (503, "database ok\nredis not ok\nbeat ok\npages ok\n")

        redis.start()
        assert reads(3) == [], "a page from before the outage was served"
        assert web.request("GET", "/healthz/")[0] == 200
        assert web.request("POST", f"{url}comment/", session=voters[1], data={"icon": "for"})[0] == 302
        assert reads(4) == []
        runs = beats()
        wait_until(lambda: beats() > runs, timeout=45, what=f"beat running again\n{worker.log_tail()}")
        assert worker.running(), worker.log_tail()
    assert Comment.objects.filter(post=post, icon="for").count() == 3


ERROR_PAGE = "Something went wrong on the server and nothing was changed by this request."


class Load:
    """Players voting and reading, and a visitor reading, each in a loop on a thread of its own, every request
    recorded as (when it was sent, what, its status); a context manager that stops them on leaving."""

    def __init__(self, web, post, players) -> None:
        self.web, self.post = web, post
        self.sessions = [Session(player) for player in players]
        self.sent: list[tuple[float, float, str, int]] = []  # when sent and answered, what, the status
        self.votes: dict[str, int] = {}  # each vote's text, its answer's status
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._player, args=(s,), daemon=True) for s in self.sessions]
        self._threads.append(threading.Thread(target=self._visitor, daemon=True))

    def _request(self, what: str, method: str, path: str, **kwargs) -> int:
        sent = time.monotonic()
        try:
            status, body = self.web.request(method, path, timeout=15, **kwargs)
        except OSError:
            status, body = 0, ""
        if status == 500 and ERROR_PAGE not in body:
            status = -500  # an error, but not the site's error page
        with self._lock:
            self.sent.append((sent, time.monotonic(), what, status))
        return status

    def _player(self, session: Session) -> None:
        url = self.post.get_absolute_url()
        for n in itertools.count():
            if self._stop.is_set():
                return
            text = f"Vote {n} of {session.sessionid[:8]}"
            icon = ("for", "against")[n % 2]
            status = self._request("vote", "POST", f"{url}comment/", session=session, data={"icon": icon, "text": text})
            with self._lock:
                self.votes[text] = status
            self._request("post page", "GET", url, session=session)

    def _visitor(self) -> None:
        while not self._stop.is_set():
            self._request("front page", "GET", "/")
            self._request("post page", "GET", self.post.get_absolute_url())

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)

    def answered_before(self, moment: float) -> Counter:
        return Counter((what, status) for _, answered, what, status in self.sent if answered < moment)

    def sent_after(self, moment: float) -> Counter:
        return Counter((what, status) for sent, _, what, status in self.sent if sent >= moment)

    def between(self, start: float, end: float) -> Counter:
        """Requests in flight or sent between ``start`` and ``end``."""
        return Counter((what, status) for sent, answered, what, status in self.sent if answered >= start and sent < end)


def test_with_postgresql_gone_and_back_requests_fail_cleanly_and_the_site_recovers_without_a_restart(pending, tmp_path):
    """PostgreSQL goes away under load (every connection dropped, new ones refused, as while it restarts) and
    comes back: requests in flight are answered, with the error page at worst and never left hanging; once it
    is back every request succeeds again without restarting anything; every vote answered "posted" is stored,
    and none is stored in part or twice."""
    game, post = pending
    with (
        DatabaseProxy() as proxy,
        RedisServer(tmp_path) as redis,
        Gunicorn(
            workers=2,
            threads=4,
            logfile=tmp_path / "gunicorn.log",
            environment={"DATABASE_URL": database_url(port=proxy.port), "REDIS_URL": redis.url},
        ) as web,
        Load(web, post, [game.players[i] for i in (0, 1, 3, 4)]) as load,
    ):
        time.sleep(2)
        cut_at = time.monotonic()
        proxy.cut()
        time.sleep(DATABASE_AWAY_SECONDS)
        proxy.restore()
        back_at = time.monotonic()
        time.sleep(4)
    before, away = load.answered_before(cut_at), load.between(cut_at, back_at + 1)
    settled = load.sent_after(back_at + 1)
    print(f"\nbefore: {dict(before)}\naway: {dict(away)}\nback: {dict(settled)}")
    assert {status for _, status in before} <= {200, 302}, before
    assert {status for _, status in away} <= {200, 302, 500}, "answered, with the site's error page at worst"
    assert away[("vote", 500)], "the cut was felt"
    assert settled[("vote", 302)] and {status for _, status in settled} == {200, 302}, settled
    stored = Counter(Comment.objects.filter(post=post, text__startswith="Vote ").values_list("text", flat=True))
    posted = {text for text, status in load.votes.items() if status == 302}
    assert posted <= set(stored), "a vote answered posted was lost"
    assert set(stored) <= set(load.votes) and max(stored.values()) == 1
    assert all(
        comment.icon in ("for", "against") and comment.author_id
        for comment in Comment.objects.filter(post=post, text__startswith="Vote ")
    )


@pytest.mark.parametrize("store", ["redis", "database"])
def test_a_vote_on_one_web_node_is_seen_at_once_on_the_other(pending, tmp_path, store):
    """Two gunicorns on two ports share one database (and one Redis, or, without it, keep pages each in its
    own memory under the version the database holds): a vote sent to either is shown at once by both, to a
    visitor, to another player and to the voter, and neither serves a page it stored before the vote."""
    game, post = pending
    url = post.get_absolute_url()
    readers = {"visitor": None, "player": Session(game.players[4])}
    voters = [Session(game.players[0]), Session(game.players[1])]
    with contextlib.ExitStack() as stack:
        environment = {}
        if store == "redis":
            environment["REDIS_URL"] = stack.enter_context(RedisServer(tmp_path)).url
        nodes = [
            Gunicorn(workers=1, threads=2, logfile=tmp_path / f"node{n}.log", environment=environment) for n in (1, 2)
        ]
        for node in nodes:
            node.start()
            stack.push(node)
        for node in nodes:
            node.wait_ready()

        def shown() -> set[tuple[str, str, int | None]]:
            """What each node shows each reader (and the voters) of the post's FOR votes."""
            seen = set()
            for n, node in enumerate(nodes, start=1):
                for name, session in [*readers.items(), ("voter 1", voters[0]), ("voter 2", voters[1])]:
                    for path in (url, f"{url}tally/"):
                        status, body = node.request("GET", path, session=session)
                        seen.add((f"node {n}", name, for_votes_shown(body) if status == 200 else status))
            return seen

        def everyone_sees(count: int) -> set:
            return {(f"node {n}", name, count) for n in (1, 2) for name in (*readers, "voter 1", "voter 2")}

        assert shown() == everyone_sees(2)
        assert shown() == everyone_sees(2)  # now from each node's cache
        assert nodes[0].request("POST", f"{url}comment/", session=voters[0], data={"icon": "for"})[0] == 302
        assert shown() == everyone_sees(3)
        assert nodes[1].request("POST", f"{url}comment/", session=voters[1], data={"icon": "for"})[0] == 302
        assert shown() == everyone_sees(4)
