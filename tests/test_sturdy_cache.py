"""The Redis cache as the site uses it (``blognomic.web.sturdy_cache``), against a Redis of the test's own that it
stops and starts again: while Redis is away the cache answers as an empty one and nothing fails; when Redis
returns with what it held before, nothing written or retired during the outage is read from it stale."""

from __future__ import annotations

import shutil

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from blognomic.web import sturdy_cache
from blognomic.web.freshness import CACHE_KEY, VersionUnavailable, bump_version, current_version
from tests.processes import RedisServer

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize(("url", "kind"), [("redis://h:6379/0", "Connection"), ("rediss://h:6380/0", "SSLConnection")])
def test_a_connection_over_tls_stays_over_tls(url, kind):
    """The connections that notice a restarted server are of the kind the URL asks for."""
    import redis

    backend = sturdy_cache.SturdyRedisCache(url, {})
    connection_class = backend._cache._pool_options["connection_class"]
    assert issubclass(connection_class, getattr(redis, kind))
    assert issubclass(connection_class, redis.SSLConnection) == (kind == "SSLConnection")


def test_one_client_per_connection_pool_serves_every_operation():
    """Django's client makes a new ``redis.Redis`` for each operation (about 60 µs of a cached page's CPU); this
    one keeps a client per pool, reads and writes alike going to the one server."""
    backend = sturdy_cache.SturdyRedisCache("redis://h:6379/0", {})
    reader, writer = backend._cache.get_client(), backend._cache.get_client(write=True)
    assert reader is writer is backend._cache.get_client()
    assert reader.connection_pool is backend._cache._get_connection_pool(write=False)


def test_with_replicas_each_pool_has_its_own_client():
    """Writes go to the first server, reads to the others: a client never crosses from one pool to another."""
    backend = sturdy_cache.SturdyRedisCache("redis://primary:6379/0;redis://replica:6379/0", {})
    writer, reader = backend._cache.get_client(write=True), backend._cache.get_client()
    assert writer is not reader
    assert writer.connection_pool.connection_kwargs["host"] == "primary"
    assert reader.connection_pool.connection_kwargs["host"] == "replica"
    assert backend._cache.get_client() is reader and backend._cache.get_client(write=True) is writer


@pytest.fixture
def redis_server(tmp_path, settings, monkeypatch):
    """A Redis of this test's own as the site's cache and the content version's store; this process has seen
    no outage yet."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (`make test` installs it)")
    monkeypatch.setattr(sturdy_cache, "_outage", sturdy_cache._Outage())
    monkeypatch.setattr(sturdy_cache, "RETRY_SECONDS", 0)
    with RedisServer(tmp_path) as server:
        backend = "blognomic.web.sturdy_cache.SturdyRedisCache"
        settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": server.url}}
        settings.CONTENT_VERSION_STORE = "cache"
        yield server


@pytest.mark.redis
def test_while_redis_is_away_the_cache_answers_as_an_empty_one(redis_server):
    """Reads miss, writes keep nothing, ``add`` adds nothing, and none of them raises."""
    cache.set("kept", "before")
    redis_server.stop()
    assert cache.get("kept") is None and cache.get("kept", "default") == "default"
    assert cache.get_many(["kept", "other"]) == {}
    cache.set("kept", "during")
    cache.set_many({"one": 1, "two": 2})
    assert cache.add("new", 1) is False
    assert cache.incr(CACHE_KEY) is None
    cache.delete("kept")
    cache.delete_many(["one", "two"])


@pytest.mark.redis
def test_while_redis_is_away_there_is_no_content_version_and_pages_are_rendered_and_kept_nowhere(redis_server):
    """The page cache cannot tell a page from before a write from one after it, so it neither serves nor
    stores: each request is rendered from the database."""
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.signed_cookies import SessionStore
    from django.http import HttpResponse

    from blognomic.web.page_cache import PageCacheMiddleware

    renderings = []

    def view(request):
        renderings.append(request)
        return HttpResponse(b"<p>page</p>")

    current_version()
    redis_server.stop()
    with pytest.raises(VersionUnavailable):
        current_version()
    middleware = PageCacheMiddleware(view)
    for _ in range(2):
        request = RequestFactory().get("/")
        request.session, request.user = SessionStore(), AnonymousUser()
        assert middleware(request).status_code == 200
    assert len(renderings) == 2


@pytest.mark.redis
def test_a_key_written_or_deleted_during_the_outage_is_not_read_stale_when_redis_returns(redis_server):
    """Redis returns holding what it saved before: a session changed during the outage, or one that ended,
    must not be read as it was. The first operation that finds Redis back answers as a miss and deletes
    every key this process failed to write or delete."""
    cache.set("session:changed", "before")
    cache.set("session:ended", "logged in")
    redis_server.stop()
    cache.set("session:changed", "after")
    cache.delete("session:ended")
    redis_server.start()
    assert redis_server.client().get(":1:session:ended") is not None, "Redis loaded what it saved"
    assert cache.get("session:changed") is None
    assert cache.get("session:changed") is None and cache.get("session:ended") is None
    assert redis_server.client().keys(":1:session:*") == []


@pytest.mark.redis
def test_a_write_during_the_outage_moves_the_content_version_when_redis_returns(redis_server):
    """A write to the database while Redis is away cannot move the version Redis holds; when Redis returns
    the version moves on, so no page stored before the outage is served."""
    before = current_version()
    redis_server.stop()
    bump_version()  # a write during the outage: nothing counted
    redis_server.start()
    assert current_version() != before


@pytest.mark.redis
def test_a_restart_no_operation_saw_moves_the_content_version(redis_server):
    """Redis restarts between two requests, loading what it saved: the client reconnects without a word, but
    the new connection meets a different server, and the version moves on."""
    before = current_version()
    redis_server.stop()
    redis_server.start()
    assert int(redis_server.client().get(f":1:{CACHE_KEY}")) == before, "Redis loaded what it saved"
    assert current_version() != before
