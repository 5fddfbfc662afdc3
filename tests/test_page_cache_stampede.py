"""Concurrent misses of one page render it once (the issue "As deployed": "nothing stops ten requests rendering
the same missed page"), in this process's memory and in Redis: the others wait for what the first stores, or,
for a visitor, are given the page's previous rendering while it is made; a logged-in player always waits.

Each test sends the requests from threads of their own, released together, through the page cache's own
middleware in front of a view that counts its renderings and takes a while, as a busy page does.
"""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory

from blognomic.web import page_cache
from blognomic.web.freshness import bump_version
from blognomic.web.page_cache import PageCacheMiddleware

pytestmark = pytest.mark.django_db

# The machine's Redis that `make test` starts; each test's keys are under a prefix of its own.
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

READERS = 10
RENDERING_SECONDS = 0.3


class CountingPage:
    """A view that counts its renderings, each taking ``seconds``, and says which one it is."""

    def __init__(self, seconds: float = RENDERING_SECONDS, **headers: str) -> None:
        self.seconds = seconds
        self.headers = headers
        self.renderings = 0
        self._lock = threading.Lock()

    def __call__(self, request) -> HttpResponse:
        with self._lock:
            self.renderings += 1
            number = self.renderings
        time.sleep(self.seconds)
        response = HttpResponse(f"<p>rendering {number}</p>".encode())
        for name, value in self.headers.items():
            response[name.replace("_", "-")] = value
        return response


class Player:
    is_authenticated = True


def redis_is_up() -> bool:
    import redis

    try:
        return redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError:
        return False


def front_page_request(account: int | None = None):
    request = RequestFactory().get("/")
    request.session = SessionStore()
    request.user = AnonymousUser()
    if account is not None:
        request.session["_auth_user_id"] = str(account)
        request.session.modified = False
        request.user = Player()
    return request


def read_together(view, *, account: int | None = None, readers: int = READERS) -> list[HttpResponse]:
    """``readers`` requests for the front page at one instant, each from its own thread."""
    middleware = PageCacheMiddleware(view)
    barrier = threading.Barrier(readers)
    responses: list = [None] * readers

    def read(i: int) -> None:
        request = front_page_request(account)
        barrier.wait(timeout=10)
        responses[i] = middleware(request)

    threads = [threading.Thread(target=read, args=(i,)) for i in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return responses


@pytest.fixture(params=["memory", "redis"])
def store(request, settings):
    """The page cache in this process's memory (the version too), or in Redis as deployed."""
    if request.param == "redis":
        if not redis_is_up():
            pytest.fail(f"Redis is not answering at {TEST_REDIS_URL}: `make test` starts it.")
        prefix = f"stampede-{uuid.uuid4().hex}"
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": TEST_REDIS_URL,
                "KEY_PREFIX": prefix,
            }
        }
        settings.CONTENT_VERSION_STORE = "cache"
        yield request.param
        import redis

        client = redis.Redis.from_url(TEST_REDIS_URL)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
    else:
        yield request.param


def bodies(responses) -> list[str]:
    return [response.content.decode() for response in responses]


@pytest.mark.redis
def test_ten_readers_missing_one_page_render_it_once(store):
    """Ten visitors ask at one instant for a page no one has rendered: it is rendered once and all ten are
    given that rendering."""
    view = CountingPage()
    responses = read_together(view)
    print(f"\n{store}: {READERS} simultaneous misses, {view.renderings} rendering(s)")
    assert view.renderings == 1
    assert bodies(responses) == ["<p>rendering 1</p>"] * READERS


@pytest.mark.redis
def test_visitors_are_given_the_previous_rendering_while_the_page_is_rendered_afresh(store):
    """After a write, ten visitors at once: one renders the page afresh, and those who arrive while it does
    are given the rendering from before the write, marked stale, rather than each render it again."""
    view = CountingPage()
    read_together(view, readers=1)
    bump_version()
    responses = read_together(view)
    assert view.renderings == 2
    stale = [response for response in responses if response.get("X-Page-Cache") == "stale"]
    fresh = [response for response in responses if response.get("X-Page-Cache") != "stale"]
    assert stale and all(response.content == b"<p>rendering 1</p>" for response in stale)
    assert fresh and all(response.content == b"<p>rendering 2</p>" for response in fresh)


@pytest.mark.redis
def test_a_player_after_a_write_always_waits_for_the_fresh_page(store):
    """A logged-in player's pages are never given from before a write (they may have just voted): the
    requests that arrive while the page is rendered afresh wait for it."""
    view = CountingPage()
    read_together(view, account=7, readers=1)
    bump_version()
    responses = read_together(view, account=7)
    assert view.renderings == 2
    assert bodies(responses) == ["<p>rendering 2</p>"] * READERS
    assert not any(response.get("X-Page-Cache") for response in responses)


def test_a_previous_rendering_older_than_the_bound_is_not_given(monkeypatch):
    """A visitor is given a previous rendering only if it is recent (``STALE_SECONDS``): an older one may be
    far behind the data, so they wait for the fresh page instead."""
    monkeypatch.setattr(page_cache, "STALE_SECONDS", 0)
    view = CountingPage()
    read_together(view, readers=1)
    bump_version()
    responses = read_together(view)
    assert view.renderings == 2
    assert bodies(responses) == ["<p>rendering 2</p>"] * READERS


def test_a_page_that_may_not_be_kept_is_rendered_for_each_reader_without_waiting_out_the_lock():
    """A rendering that may not be stored (here ``Cache-Control: private``) lets go of the page at once: the
    others render it in turn, and none waits the lock's whole life."""
    view = CountingPage(seconds=0.05, Cache_Control="private")
    started = time.monotonic()
    responses = read_together(view, readers=4)
    assert view.renderings == 4
    assert all(response.status_code == 200 for response in responses)
    assert time.monotonic() - started < page_cache.RENDER_LOCK_SECONDS / 2
