"""The production processes on loopback for the fault tests, each one the test can stop, cut or kill.

- ``RedisServer``: a Redis of the test's own on a free port, which it may stop and start again (never the
  machine's shared one), keeping its data across a stop as the deployment's Redis does (``--save``).
- ``DatabaseProxy``: a TCP relay between the site and PostgreSQL that can be cut (every connection dropped,
  new ones refused, as while the server restarts) and restored.
- ``Celery``: the worker or beat, with the settings' schedule run every second, killed with SIGKILL or stopped
  as a deployment would.
- ``Gunicorn`` (from ``tests.live_server``) serves the site itself.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.db import connection

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def wait_until(condition, *, timeout: float, every: float = 0.2, what: str = "the condition"):
    """``condition()``'s first true answer within ``timeout`` seconds; fails the test otherwise."""
    deadline = time.monotonic() + timeout
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:.0f} s")
        time.sleep(every)


def database_url(*, port: int | None = None) -> str:
    """The test database's URL, through ``port`` on loopback instead of the server's own when given."""
    db = connection.settings_dict
    host = HOST if port is not None else db["HOST"] or HOST
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port or db['PORT'] or 5432}/{db['NAME']}"


def stop_group(process: subprocess.Popen, *, timeout: float = 15) -> None:
    """SIGTERM to the process's group, then SIGKILL if it has not ended within ``timeout``."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


class RedisServer:
    """redis-server on a free loopback port, with its data in ``directory``; a context manager."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        log = (self.directory / "redis.log").open("ab")
        self.process = subprocess.Popen(
            ["redis-server", "--bind", HOST, "--port", str(self.port), "--dir", str(self.directory)]
            + ["--save", "", "--appendonly", "no"],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(self.answers, timeout=10, every=0.05, what=f"Redis answering on port {self.port}")

    def stop(self) -> None:
        """Save the data and stop, as a restarting deployment's Redis does; the port then refuses."""
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "save"], capture_output=True, timeout=10)
        if self.process is not None:
            self.process.wait(timeout=10)

    def client(self):
        import redis

        return redis.Redis(host=HOST, port=self.port, socket_connect_timeout=0.5)

    def answers(self) -> bool:
        import redis

        try:
            return self.client().ping()
        except redis.RedisError:
            return False

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            stop_group(self.process, timeout=5)


class DatabaseProxy:
    """Relays loopback connections on ``port`` to PostgreSQL; ``cut()`` drops them all and refuses new ones
    until ``restore()``. A context manager."""

    def __init__(self) -> None:
        db = connection.settings_dict
        self.upstream = (db["HOST"] or HOST, int(db["PORT"] or 5432))
        self.port = free_port()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.cuts = 0

    def __enter__(self) -> DatabaseProxy:
        self.restore()
        return self

    def __exit__(self, *exc) -> None:
        self.cut()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for end in pair:
                _close(end)
        self.cuts += 1

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            server.settimeout(None)
            with self._lock:
                self._pairs.append((client, server))
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        _close(source)
        _close(target)


def _close(end: socket.socket) -> None:
    try:
        end.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    end.close()


class Celery:
    """``celery worker`` (one process in its pool) or ``celery beat`` (every job of the schedule each second),
    as docker-compose runs them; a context manager that stops it on leaving. Its output goes to ``logfile``."""

    def __init__(self, role: str, *, redis_url: str, directory: Path, environment: dict | None = None) -> None:
        self.logfile = directory / f"{role}.log"
        self.env = {
            **{key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"},
            "REDIS_URL": redis_url,
            "DATABASE_URL": database_url(),
            "BEAT_EVERY_SECONDS": "1",
            **(environment or {}),
        }
        self.command = [sys.executable, "-m", "celery", "-A", "blognomic", role, "--loglevel", "warning"]
        if role == "worker":
            self.command += ["--concurrency", "1", "--without-mingle", "--without-gossip"]
        else:
            self.command += ["--schedule", str(directory / "beat-schedule")]
        self.process: subprocess.Popen | None = None

    def start(self) -> Celery:
        with self.logfile.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        return self

    def kill(self) -> None:
        """SIGKILL to the process and its pool at once: nothing of theirs runs another instruction."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self) -> Celery:
        return self.start()

    def __exit__(self, *exc) -> None:
        if self.process is not None:
            stop_group(self.process, timeout=20)
