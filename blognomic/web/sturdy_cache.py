"""The Redis cache as the site uses it: Redis going away makes the site slower, never broken or stale.

While Redis does not answer (stopped, restarting, out of reach), every operation is answered as an empty cache
would answer it: a read misses, a write keeps nothing, ``add`` adds nothing. Pages then render from the
database, sessions are read from it (``cached_db``), and the page cache, which cannot read the content
version, neither serves nor stores (``blognomic.web.freshness``). A process that found Redis out tries it again
only after ``RETRY_SECONDS``, so a Redis that times out rather than refuses costs one timeout then, not one
per operation.

When Redis answers again it may hold what it held before: a restart loads what it saved, a network comes back.
What it holds may then be older than the database, so before anything is read from it again:

- every key this process failed to write or delete is deleted (a session changed or ended, the content
  version it could not move on), up to ``OWED_KEPT`` keys;
- ``redis_returned`` is sent, on which the content version is moved on, retiring every page stored before.

A process notices Redis's return when an operation succeeds after one failed, or when a new connection finds a
different server (its ``run_id``): a restart that no operation happened to see, since the client reconnects
without a word. That operation is answered as a miss, since what it read may be older than the database.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.dispatch import Signal

logger = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
OWED_KEPT = 100_000
UNANSWERED = (redis.ConnectionError, redis.TimeoutError)
# Sent (with no arguments) once a process finds Redis answering again after an outage or a restart.
redis_returned = Signal()


class _Outage:
    """This process's view of Redis: whether it is out, and what is owed to it when it returns."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.out = False
        self.retry_at = 0.0
        self.returned = False  # answering again, what is owed not yet done
        self.owed: dict[str, None] = {}  # keys, in the order they were owed
        self.run_id: str | None = None

    def skipping(self) -> bool:
        return self.out and time.monotonic() < self.retry_at

    def failed(self, keys: list[str]) -> None:
        """An operation found Redis out: try it again in a while; ``keys`` are owed a delete."""
        with self._lock:
            if not self.out:
                logger.warning("Redis does not answer: the cache is bypassed until it does.")
            self.out, self.returned = True, False
            self.retry_at = time.monotonic() + RETRY_SECONDS
        self.owe(keys)

    def owe(self, keys: list[str]) -> None:
        with self._lock:
            for key in keys:
                self.owed[key] = None
            while len(self.owed) > OWED_KEPT:
                del self.owed[next(iter(self.owed))]

    def answered(self) -> None:
        with self._lock:
            if self.out:
                self.out, self.returned = False, True

    def met_server(self, run_id: str) -> None:
        with self._lock:
            if self.run_id is not None and run_id != self.run_id:
                self.returned = True
            self.run_id = run_id

    def take_owed(self) -> list[str] | None:
        """What is owed, once: None when Redis has not just returned."""
        with self._lock:
            if not self.returned:
                return None
            owed, self.owed, self.returned = list(self.owed), {}, False
            return owed


_outage = _Outage()


class _WatchesServer:
    """Asks each server the connection connects to who it is, so a restarted Redis is noticed."""

    def on_connect_check_health(self, check_health: bool = True) -> None:
        super().on_connect_check_health(check_health=check_health)
        self.send_command("INFO", "server", check_health=False)
        info = self.read_response()
        text = info.decode(errors="replace") if isinstance(info, bytes) else str(info)
        for line in text.splitlines():
            if line.startswith("run_id:"):
                _outage.met_server(line.partition(":")[2].strip())


class ServerWatchingConnection(_WatchesServer, redis.Connection):
    pass


class ServerWatchingSSLConnection(_WatchesServer, redis.SSLConnection):
    pass


def _connection_class(server) -> type:
    first = server[0] if isinstance(server, list | tuple) else str(server).split(",")[0]
    return ServerWatchingSSLConnection if first.strip().startswith("rediss://") else ServerWatchingConnection


class ReusedClientCacheClient(RedisCacheClient):
    """Django's Redis cache client, keeping one client per connection pool.

    Django's makes a new ``redis.Redis`` for every operation, which was most of a cached page's CPU beyond
    Redis's round trip (a player's page takes three operations; benchmarks/RESULTS.md has the figures). A
    client holds no connection of its own (it borrows one from the pool per command) and may be shared;
    Django's cache handler gives each thread its own cache object, so this one is never shared across threads
    anyway.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, redis.Redis] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)  # kept for the process's life, so its id stays its own
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SturdyRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis is out (see the module)."""

    def __init__(self, server, params) -> None:
        options = {
            "connection_class": _connection_class(server),
            "socket_connect_timeout": 1.0,
            "socket_timeout": 2.0,
            **params.get("OPTIONS", {}),
        }
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = ReusedClientCacheClient

    def _guard(
        self, operation: Callable[[], object], *, miss: object, keys: list[str] = (), invalidates: bool = False
    ) -> object:
        """``operation``'s answer, or ``miss`` when Redis is out or has just returned; ``keys`` (made keys)
        are owed a delete if it failed. An operation that ``invalidates`` is tried even while Redis is taken
        to be out: if Redis has returned, what it owes is done at once, rather than at this process's next
        try, while other processes would read what it failed to retire."""
        if _outage.skipping() and not invalidates:
            _outage.owe(keys)
            return miss
        try:
            answer = operation()
        except UNANSWERED:
            _outage.failed(keys)
            return miss
        _outage.answered()
        owed = _outage.take_owed()
        if owed is None:
            return answer
        self._settle(owed)
        return miss

    def _settle(self, owed: list[str]) -> None:
        client = self._cache.get_client(write=True)
        try:
            for start in range(0, len(owed), 1000):
                client.delete(*owed[start : start + 1000])
        except UNANSWERED:
            _outage.failed(owed)
            return
        logger.warning("Redis answers again: %s keys written during the outage deleted.", len(owed))
        redis_returned.send(sender=type(self))

    def _made(self, key, version=None) -> str:
        return self.make_and_validate_key(key, version=version)

    def get(self, key, default=None, version=None):
        return self._guard(lambda: super(SturdyRedisCache, self).get(key, default, version), miss=default)

    def get_many(self, keys, version=None):
        return self._guard(lambda: super(SturdyRedisCache, self).get_many(keys, version), miss={})

    def has_key(self, key, version=None):
        return self._guard(lambda: super(SturdyRedisCache, self).has_key(key, version), miss=False)

    def set(self, key, value, timeout=..., version=None):
        timeout = self.default_timeout if timeout is ... else timeout
        keys = [self._made(key, version)]
        self._guard(lambda: super(SturdyRedisCache, self).set(key, value, timeout, version), miss=None, keys=keys)

    def set_many(self, data, timeout=..., version=None):
        timeout = self.default_timeout if timeout is ... else timeout
        keys = [self._made(key, version) for key in data]
        operation = lambda: super(SturdyRedisCache, self).set_many(data, timeout, version)  # noqa: E731
        return self._guard(operation, miss=[], keys=keys)

    def add(self, key, value, timeout=..., version=None):
        timeout = self.default_timeout if timeout is ... else timeout
        keys = [self._made(key, version)]
        return self._guard(
            lambda: super(SturdyRedisCache, self).add(key, value, timeout, version), miss=False, keys=keys
        )

    def touch(self, key, timeout=..., version=None):
        timeout = self.default_timeout if timeout is ... else timeout
        return self._guard(lambda: super(SturdyRedisCache, self).touch(key, timeout, version), miss=False)

    def incr(self, key, delta=1, version=None):
        """The new value; None when Redis is out (nothing counted: the key is owed a delete)."""
        keys = [self._made(key, version)]
        operation = lambda: super(SturdyRedisCache, self).incr(key, delta, version)  # noqa: E731
        return self._guard(operation, miss=None, keys=keys, invalidates=True)

    def delete(self, key, version=None):
        keys = [self._made(key, version)]
        operation = lambda: super(SturdyRedisCache, self).delete(key, version)  # noqa: E731
        return self._guard(operation, miss=False, keys=keys, invalidates=True)

    def delete_many(self, keys, version=None):
        made = [self._made(key, version) for key in keys]
        operation = lambda: super(SturdyRedisCache, self).delete_many(keys, version)  # noqa: E731
        return self._guard(operation, miss=None, keys=made, invalidates=True)

    def clear(self):
        return self._guard(lambda: super(SturdyRedisCache, self).clear(), miss=False)
