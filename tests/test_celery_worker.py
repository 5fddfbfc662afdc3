"""A real Celery worker with embedded beat, against Redis, runs the periodic tasks defined in code.

The Redis is the test's own, on a free port (``tests.processes.RedisServer``): the suite runs on both
databases at once, each in several processes, and a shared Redis would let one run's beat feed another
run's worker.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from blognomic.running.models import Heartbeat
from tests.processes import RedisServer

ROOT = Path(__file__).resolve().parent.parent


def database_url_of_test_db() -> str:
    """The URL of the database this test run created, so the worker writes where the test reads."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(s['NAME']).resolve()}"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: `make test` installs it.")
    with RedisServer(tmp_path) as server:
        yield server


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_worker_with_beat_runs_the_heartbeat_and_flags_an_enactable_matter(redis, tmp_path):
    """Beat sends the periodic tasks, a worker runs them through Redis: the heartbeat is recorded and a
    matter that has become enactable is flagged, with a notice for the admins."""
    from datetime import timedelta

    from django.utils import timezone

    from dynasties.models import Notification
    from tests.factories import make_proposal, make_table, vote
    from votes.models import Post

    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=1))
    proposal = make_proposal(players[2], at=now - timedelta(hours=13), title="Proposal: Ripe")
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=now - timedelta(hours=12))
    env = {
        **os.environ,
        "REDIS_URL": redis.url,
        "DATABASE_URL": database_url_of_test_db(),
        "BEAT_EVERY_SECONDS": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "blognomic",
            "worker",
            "-B",
            "--concurrency",
            "1",
            "--loglevel",
            "warning",
            "--schedule",
            str(tmp_path / "beat-schedule"),
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 45
        runs, flagged = 0, None
        while time.monotonic() < deadline and (runs < 2 or flagged is None):
            time.sleep(0.5)
            beat = Heartbeat.objects.filter(name="beat").first()
            runs = beat.runs if beat else 0
            flagged = Post.objects.get(pk=proposal.pk).enactable_since
            if worker.poll() is not None:
                break
        assert runs >= 2, f"the heartbeat ran {runs} times; worker output:\n{_output(worker)}"
        assert flagged is not None, f"the matter was not flagged; worker output:\n{_output(worker)}"
        assert Notification.objects.filter(user=players[1], key=f"enactable_since:{proposal.pk}").exists()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()


def _output(process: subprocess.Popen) -> str:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    try:
        return process.communicate(timeout=20)[0][-4000:]
    except subprocess.TimeoutExpired:
        return "(no output)"
