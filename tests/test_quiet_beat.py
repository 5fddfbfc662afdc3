"""The beat jobs over an idle minute: nothing to do means nothing written and nothing worked out again, so the
page cache keeps every page (the issue "As deployed: fast with the clock running and players writing")."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blognomic.web.freshness import written_table
from dynasties.models import Notification
from tests.factories import make_proposal, make_table, vote
from votes.jobs import proposals_mark_stale
from votes.models import Post

pytestmark = pytest.mark.django_db

# The heartbeat is bookkeeping: it records each run, and which tables move the content version is said in
# one place (``blognomic.web.freshness``).
BOOKKEEPING_TASKS = {"blognomic.tasks.heartbeat"}


def scheduled_tasks():
    from blognomic.celery import app

    app.loader.import_default_modules()  # the apps' tasks modules, as a worker loads them
    names = sorted({spec["task"] for spec in settings.CELERY_BEAT_SCHEDULE.values()} - BOOKKEEPING_TASKS)
    return [app.tasks[name] for name in names]


def writes_of(action) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        action()
    return [query["sql"] for query in queries.captured_queries if written_table(query["sql"])]


def stale_proposals(players, t0, count: int) -> list[Post]:
    """``count`` proposals pending well over seven days, written directly: posting limits would refuse so many."""
    return [
        Post.objects.create(
            slug=f"old-{n}",
            kind="proposal",
            status="pending",
            title=f"Proposal: Old {n}",
            author=players[2],
            posted_at=t0 - timedelta(days=20, minutes=n),
            body="Do a thing.",
            body_html="<p>Do a thing.</p>",
        )
        for n in range(count)
    ]


@pytest.fixture
def busy_game(t0):
    """A game with something for most jobs to do on their first run: stale proposals, an enactable one."""
    players = make_table(5, start=t0 - timedelta(days=30))
    stale_proposals(players, t0, 4)
    fresh = make_proposal(players[3], at=t0 - timedelta(hours=20), title="Proposal: Fresh Oil")
    for voter in players[:4]:
        vote(fresh, voter, "for", at=t0 - timedelta(hours=19))
    return players


def test_every_job_run_again_over_an_idle_minute_writes_nothing(busy_game, t0):
    """Required: "the periodic jobs over an idle minute move no content version and recompute nothing"."""
    tasks = scheduled_tasks()
    assert len(tasks) >= 10
    with time_machine.travel(t0, tick=False):
        for task in tasks:
            task.apply()
    for later in (timedelta(minutes=1), timedelta(minutes=15)):
        with time_machine.travel(t0 + later, tick=False):
            for task in tasks:
                assert writes_of(task.apply) == [], task.name


@pytest.mark.parametrize("count", [3, 30])
def test_marking_many_stale_proposals_writes_them_together(t0, count):
    """Finding: "`mark_stale_proposals` moved it 54 times on its first run": one update of the proposals and
    one insert of notices for the whole run, however many proposals it marks."""
    players = make_table(5, start=t0 - timedelta(days=30))
    posts = stale_proposals(players, t0, count)
    writes = writes_of(lambda: proposals_mark_stale(now=t0))
    assert [written_table(sql) for sql in writes] == ["blognomic_post", "dynasties_notification"], writes
    assert not Post.objects.filter(pk__in=[p.pk for p in posts], stale_since__isnull=True).exists()
    assert Notification.objects.filter(key__startswith="stale:").count() == count  # one admin, P02


@pytest.mark.django_db(transaction=True)
def test_marking_stale_proposals_moves_the_content_version_once(settings, t0, monkeypatch):
    """The run writes in one transaction: the version moves as its first write goes out and once more after the
    commit (see ``blognomic.web.freshness``), not once per proposal."""
    from blognomic.web import freshness

    settings.CONTENT_VERSION_STORE = "cache"
    players = make_table(5, start=t0 - timedelta(days=30))
    stale_proposals(players, t0, 20)
    moves = []
    monkeypatch.setattr(freshness, "bump_version", lambda: moves.append(1))
    proposals_mark_stale(now=t0)
    assert len(moves) <= 2


def test_the_statistics_are_worked_out_again_only_when_their_inputs_change(busy_game, t0, django_assert_num_queries):
    """Finding: "`warm_statistics` recomputes the aggregates each minute because the game 'changed'". Over an
    idle minute, or after a write the statistics do not count (a heartbeat, a flag, a notice), the minute's run
    only reads the statistics' own version; a new post makes it work them out afresh."""
    from blognomic.tasks import warm_statistics
    from blognomic.web.freshness import bump_version

    with time_machine.travel(t0, tick=False):
        first = warm_statistics()
    with time_machine.travel(t0 + timedelta(minutes=1), tick=False):
        Post.objects.filter(slug="old-0").update(stale_since=t0)
        bump_version()
        with django_assert_num_queries(1):
            assert warm_statistics() == first
    with time_machine.travel(t0 + timedelta(minutes=2), tick=False):
        make_proposal(busy_game[4], at=t0 + timedelta(minutes=2), title="Proposal: New Wicks")
        assert warm_statistics() != first
