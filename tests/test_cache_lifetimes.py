"""How long a cached page lives with no write: a page lasts until the content changes or until what it shows
changes with time alone, and no sooner (the issue "As deployed: fast with the clock running and players
writing")."""

from __future__ import annotations

import pickle
from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from blognomic.web.page_cache import CachedPage
from tests.factories import make_proposal, vote
from tests.gndt.builders import make_gndt
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(t0):
    return make_gndt(t0)


@pytest.fixture
def enacted(game, t0):
    post = make_proposal(game.players[2], at=t0, title="Proposal: Brighter Lamps")
    for voter in game.players[:4]:
        vote(post, voter, "for", at=t0 + timedelta(minutes=5))
    matter_resolve(post=post, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    return post


def stored_pages() -> list[CachedPage]:
    """Every page in the test's cache (this process's memory, which keeps its values pickled)."""
    from django.core.cache import cache

    values = (pickle.loads(value) for value in list(cache._cache.values()))
    return [value for value in values if isinstance(value, CachedPage)]


def test_a_resolved_matters_page_is_served_from_the_cache(enacted, t0, django_assert_num_queries):
    """Finding: "The page of any resolved matter is never served from the cache": it was judged at its
    resolution time and stored as valid only until a moment after that, long past."""
    client = Client()
    with time_machine.travel(t0 + timedelta(days=30), tick=False):
        first = client.get(enacted.get_absolute_url())
        assert first.status_code == 200 and "Enacted" in first.content.decode()
        with django_assert_num_queries(0):
            again = client.get(enacted.get_absolute_url())
        assert again.status_code == 200 and "Enacted" in again.content.decode()


def test_a_resolved_matters_page_holds_no_moment_in_the_past(enacted, t0):
    """Nothing a resolved matter shows changes with time, so its stored page has no moment to expire at."""
    client = Client()
    with time_machine.travel(t0 + timedelta(days=30), tick=False):
        client.get(enacted.get_absolute_url())
    pages = [page for page in stored_pages() if b"Brighter Lamps" in page.content]
    assert pages and all(page.valid_until is None or page.valid_until > t0 + timedelta(days=30) for page in pages)


def test_the_content_version_in_the_cache_never_expires(settings, t0):
    """Finding: "The Redis key holding the version is created with Django's default 300 s timeout, so it also
    expires every 5 minutes and is re-seeded", emptying every cached page with no write."""
    from django.core.cache import cache

    from blognomic.web.freshness import CACHE_KEY, bump_version, current_version

    settings.CONTENT_VERSION_STORE = "cache"
    cache.delete(CACHE_KEY)
    with time_machine.travel(t0, tick=False):
        seeded = current_version()
    with time_machine.travel(t0 + timedelta(minutes=10), tick=False):
        assert current_version() == seeded
        cache.delete(CACHE_KEY)
        bump_version()  # a cache that lost the key is seeded by the first write as well
        moved = current_version()
    with time_machine.travel(t0 + timedelta(days=2), tick=False):
        assert current_version() == moved


def test_a_page_that_shows_nothing_changing_with_time_is_not_rendered_each_minute(
    enacted, t0, django_assert_num_queries
):
    """Finding: pages were keyed by the minute, so every page rendered afresh each minute (twice, with the
    heartbeat). A resolved matter's page, with nothing pending, is the same page five minutes later."""
    client = Client()
    with time_machine.travel(t0 + timedelta(days=30), tick=False):
        client.get(enacted.get_absolute_url())
    with time_machine.travel(t0 + timedelta(days=30, minutes=5), tick=False):
        with django_assert_num_queries(0):
            page = client.get(enacted.get_absolute_url()).content.decode()
    # The header's clock still says when the page was served, not when it was rendered.
    assert 'datetime="2016-08-24T12:05:00Z"' in page and "Wed 24 Aug 2016 12:05:00 UTC" in page


def test_the_tally_box_shows_its_hours_open_to_the_tenth_with_no_write(game, t0, settings):
    """Pages that change with time say so: a pending matter's tally box is kept only until its hours open, shown
    to a tenth, change."""
    settings.PAGE_CACHE_SECONDS = 24 * 3600
    post = make_proposal(game.players[2], at=t0, title="Proposal: Slow Lamps")
    client, url = Client(), f"{post.get_absolute_url()}tally/"
    with time_machine.travel(t0 + timedelta(hours=2, minutes=1), tick=False):
        assert "2 hours" in client.get(url).content.decode()  # "2.0" shown as floatformat gives it
    with time_machine.travel(t0 + timedelta(hours=2, minutes=2), tick=False):
        assert "2 hours" in client.get(url).content.decode()
    with time_machine.travel(t0 + timedelta(hours=2, minutes=4), tick=False):
        assert "2.1 hours" in client.get(url).content.decode()


def test_the_front_page_shows_a_matters_age_in_hours_as_it_changes(game, t0, settings):
    settings.PAGE_CACHE_SECONDS = 24 * 3600
    post = make_proposal(game.players[2], at=t0, title="Proposal: Older Lamps")
    client = Client()
    with time_machine.travel(t0 + timedelta(hours=4, minutes=50), tick=False):
        page = client.get("/").content.decode()
        assert "4 hours old" in page and f'{post.title}</a> <span class="age">5h</span>' in page
    with time_machine.travel(t0 + timedelta(hours=5, minutes=1), tick=False):
        assert "5 hours old" in client.get("/").content.decode()
    with time_machine.travel(t0 + timedelta(hours=5, minutes=31), tick=False):
        assert f'{post.title}</a> <span class="age">6h</span>' in client.get("/").content.decode()


def test_a_page_lives_no_longer_than_page_cache_seconds(enacted, t0, settings):
    """The bound for anything that changes with time and that no selector notes."""
    settings.PAGE_CACHE_SECONDS = 600
    client = Client()
    with time_machine.travel(t0 + timedelta(days=30), tick=False):
        client.get(enacted.get_absolute_url())
    pages = [page for page in stored_pages() if b"Brighter Lamps" in page.content]
    assert pages and {page.valid_until for page in pages} == {t0 + timedelta(days=30, minutes=10)}
