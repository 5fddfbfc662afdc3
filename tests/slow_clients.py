"""The web stack as deployed, on loopback, and clients that trickle their requests at it.

``Stack`` runs gunicorn (with the arguments given: ``-c deploy/gunicorn.conf.py``, or the plain sync workers
of an older setup) and, when a Caddyfile's text is given, Caddy in front of it with that file, the upstream
``web:8000`` replaced by gunicorn's loopback address and the site served over plain HTTP. ``slow_clients``
starts clients that send a request a byte at a time: headers that never end, or a body that never arrives
whole. ``served_meanwhile`` times a normal visitor's requests meanwhile.

Used by ``tests/test_slow_clients.py`` and ``benchmarks/bench_slow_clients.py``; it needs no Django settings
of its own, only the environment the site runs under.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
DEPLOYED_GUNICORN = ["-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
DEPLOYED_CADDYFILE = ROOT / "deploy" / "Caddyfile"
# What the production documentation had gunicorn run before deploy/gunicorn.conf.py: two sync workers.
SYNC_GUNICORN = ["--workers", "2"]
# Seconds between two bytes of a slow client.
TRICKLE_EVERY = 0.5


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def site_environment(database_url: str, secret_key: str) -> dict[str, str]:
    """Production settings (``DEBUG=0``, WhiteNoise's manifest), minus HTTPS, on loopback."""
    env = {key: value for key, value in os.environ.items() if key not in {"REDIS_URL", "WEB_CONCURRENCY"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "blognomic.settings",
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "SECRET_KEY": secret_key,
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "BEHIND_TLS_PROXY": "0",
            "HEALTH_CHECKS_BEAT": "0",
        }
    )
    return env


def caddy_for_loopback(caddyfile: str, *, upstream: str) -> str:
    """The Caddyfile with gunicorn's loopback address for ``web:8000`` and without the admin endpoint (which
    listens on a fixed port). Debian's Caddy (2.6.2) predates ``request_buffers`` (2.6.4): it is given
    ``buffer_requests``, its older form."""
    text = caddyfile.replace("reverse_proxy web:8000", f"reverse_proxy {upstream}")
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if lines and lines[0].strip() == "{":  # the global options block comes first when there is one
        text = text.replace("\n{\n", "\n{\n\tadmin off\n", 1)
    else:
        text = "{\n\tadmin off\n}\n" + text
    if _caddy_version() < (2, 6, 4):
        text = text.replace("request_buffers 4MiB", "buffer_requests")
    return text


def _caddy_version() -> tuple[int, ...]:
    out = subprocess.run(["caddy", "version"], capture_output=True, text=True, check=True).stdout
    return tuple(int(part) for part in out.split()[0].lstrip("v").split("-")[0].split("."))


class Stack:
    """gunicorn, and Caddy in front when ``caddyfile`` is given; ``port`` is where clients connect."""

    def __init__(self, *, env: dict[str, str], workdir: Path, gunicorn: list[str], caddyfile: str | None) -> None:
        self.env = env
        self.workdir = workdir
        self.gunicorn_args = gunicorn
        self.caddyfile = caddyfile
        self.gunicorn_port = free_port()
        self.port = free_port() if caddyfile is not None else self.gunicorn_port
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> Stack:
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=180,
        )
        gunicorn = str(Path(sys.executable).parent / "gunicorn")
        bind = ["--bind", f"{HOST}:{self.gunicorn_port}"]
        self._start("gunicorn", [gunicorn, *self.gunicorn_args, *bind, "blognomic.wsgi"], self.env)
        if self.caddyfile is not None:
            config = self.workdir / "Caddyfile"
            config.write_text(caddy_for_loopback(self.caddyfile, upstream=f"{HOST}:{self.gunicorn_port}"))
            caddy_env = {
                **os.environ,
                "SITE_ADDRESS": f"http://{HOST}:{self.port}",
                "XDG_DATA_HOME": str(self.workdir / "caddy-data"),
                "XDG_CONFIG_HOME": str(self.workdir / "caddy-config"),
            }
            command = [shutil.which("caddy") or "caddy", "run", "--adapter", "caddyfile", "--config", str(config)]
            self._start("caddy", command, caddy_env)
        self._wait_ready()
        return self

    def _start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        with (self.workdir / f"{name}.log").open("wb") as log:
            self.processes.append(
                subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            )

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"{process.args[0]} exited with {process.returncode}:\n{self.logs()}")
            try:
                if get(self.port, "/healthz/", timeout=2)[0] == 200:
                    return
            except OSError:
                pass  # not listening yet
            time.sleep(0.2)
        raise RuntimeError(f"the stack did not answer /healthz/ within {timeout:.0f} s:\n{self.logs()}")

    def logs(self) -> str:
        return "\n".join(path.read_text(errors="replace")[-3000:] for path in sorted(self.workdir.glob("*.log")))

    def __exit__(self, *exc) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=5)


def get(port: int, path: str, *, timeout: float = 60) -> tuple[int, float]:
    """One GET on a connection of its own: the status and the seconds it took."""
    started = time.monotonic()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": HOST})
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        conn.close()


@dataclass
class SlowClient:
    """A client sending ``head`` and then one byte every ``TRICKLE_EVERY`` seconds; ``cut_after`` is how long
    it lasted before the server closed its connection (None while it is open)."""

    kind: str
    head: bytes
    started: float = 0.0
    cut_after: float | None = None
    thread: threading.Thread | None = field(default=None, repr=False)


def _slow_request(kind: str) -> bytes:
    if kind == "headers":
        # The header line never ends.
        return f"GET / HTTP/1.1\r\nHost: {HOST}\r\nX-Trickle: ".encode()
    return (
        f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nusername="
    ).encode()


def _trickle(port: int, client: SlowClient, stop: threading.Event) -> None:
    client.started = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=5) as sock:
            sock.sendall(client.head)
            while not stop.wait(TRICKLE_EVERY):
                sock.sendall(b"a")
    except OSError:
        client.cut_after = time.monotonic() - client.started


def slow_clients(port: int, *, headers: int, bodies: int, stop: threading.Event) -> list[SlowClient]:
    """Start ``headers`` clients with endless headers and ``bodies`` with endless bodies; they trickle until
    ``stop`` is set or the server closes on them."""
    clients = [SlowClient(kind, _slow_request(kind)) for kind in ["headers"] * headers + ["body"] * bodies]
    for client in clients:
        client.thread = threading.Thread(target=_trickle, args=(port, client, stop), daemon=True)
        client.thread.start()
    return clients


def served_meanwhile(port: int, *, seconds: float, path: str = "/", every: float = 0.25) -> list[tuple[int, float]]:
    """A normal visitor asking for ``path`` again and again for ``seconds``: each answer's status and time."""
    answers = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            answers.append(get(port, path, timeout=seconds + 60))
        except OSError:
            answers.append((0, seconds))
        time.sleep(every)
    return answers
