"""The site served by gunicorn on a free loopback port, against the test database, for races through HTTP.

The server runs with the production settings the documentation gives (``DEBUG=0``, WhiteNoise's manifest after
``collectstatic``), minus HTTPS, with the test run's ``SECRET_KEY`` so that sessions made by the tests'
``force_login`` are valid on it. It listens on 127.0.0.1 only. Requests are made with the standard
library's ``http.client``, one connection each, with a timeout, so a race is bounded in time.
"""

from __future__ import annotations

import fcntl
import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.db import connection
from django.test import Client

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
REQUEST_TIMEOUT = 30.0


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or HOST}:{db['PORT'] or 5432}/{db['NAME']}"


def server_environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "blognomic.settings",
            "DATABASE_URL": _database_url(),
            "DEBUG": "0",
            "SECRET_KEY": settings.SECRET_KEY,
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "BEHIND_TLS_PROXY": "0",
        }
    )
    return env


def _static_collected() -> bool:
    """Whether the manifest is newer than every file of the site's own static files."""
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if not manifest.exists():
        return False
    sources = [path for folder in settings.STATICFILES_DIRS for path in Path(folder).rglob("*") if path.is_file()]
    return all(path.stat().st_mtime <= manifest.stat().st_mtime for path in sources)


def collect_static_once(env: dict[str, str]) -> None:
    """Run collectstatic unless the manifest is up to date. WhiteNoise's manifest storage needs it; STATIC_ROOT
    is ignored by git. The suite's processes (both databases' runs, each with its workers) share STATIC_ROOT,
    so they take turns under a lock: one collects, the others find the manifest fresh."""
    lock_path = ROOT / ".run" / "collectstatic.lock"
    lock_path.parent.mkdir(exist_ok=True)
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _static_collected():
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
                timeout=120,
            )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Gunicorn:
    """gunicorn with threaded workers, so that requests really run at once; a context manager."""

    def __init__(self, *, workers: int = 4, threads: int = 4, logfile: Path, environment: dict | None = None) -> None:
        self.port = _free_port()
        self.logfile = logfile
        self.env = {**server_environment(), **(environment or {})}
        self.command = [
            str(Path(sys.executable).parent / "gunicorn"),
            "blognomic.wsgi",
            "--bind",
            f"{HOST}:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
        ]
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        self.start()
        self.wait_ready()
        return self

    def start(self) -> None:
        """Start gunicorn without waiting for it to answer (``wait_ready``), so several may start at once."""
        collect_static_once(self.env)
        with self.logfile.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def __exit__(self, *exc) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # the master stops its workers
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                status, _ = self.request("GET", "/healthz/", timeout=2)
                if status == 200:
                    return
            except OSError:
                pass  # not listening yet
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz/ within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def request(
        self,
        method: str,
        path: str,
        *,
        session: Session | None = None,
        data: dict | None = None,
        timeout: float = REQUEST_TIMEOUT,
    ) -> tuple[int, str]:
        """One request on a connection of its own: the status and the body as text."""
        headers = {"Host": HOST}
        body = None
        if session is not None:
            headers.update(session.headers())
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            conn.close()


class Session:
    """A logged-in player's cookies for the live server: a session made in the test's process, and a CSRF
    secret sent both as the cookie and as the header, as a browser's htmx request would."""

    def __init__(self, user) -> None:
        client = Client()
        client.force_login(user)
        self.sessionid = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.csrf = secrets.token_hex(16)  # 32 characters from Django's allowed alphabet

    def headers(self) -> dict[str, str]:
        return {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.sessionid}; {settings.CSRF_COOKIE_NAME}={self.csrf}",
            "X-CSRFToken": self.csrf,
        }


def fire_together(
    server: Gunicorn, requests: list[tuple[str, str, Session, dict]], *, deadline: float = 90.0
) -> list[tuple[int, str]]:
    """Send every request at one instant, each from its own thread and connection; (status, body) each.

    A request that fails or is still unanswered after ``deadline`` seconds counts as status 0.
    """
    barrier = threading.Barrier(len(requests))
    results: list[tuple[int, str]] = [(0, "not answered")] * len(requests)

    def send(i: int, method: str, path: str, session: Session, data: dict) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = server.request(method, path, session=session, data=data)
        except Exception as error:  # noqa: BLE001 - reported back to the test
            results[i] = (0, repr(error))

    threads = [threading.Thread(target=send, args=(i, *request), daemon=True) for i, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    ends = time.monotonic() + deadline
    for thread in threads:
        thread.join(timeout=max(0.0, ends - time.monotonic()))
    return results
