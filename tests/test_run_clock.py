"""`make run` alone runs the beat schedule: no Redis, no worker, no other service.

The site is started exactly as `make run` starts it (migrate, demo, serve) on a free port with its own
SQLite file, and a short ``BEAT_EVERY_SECONDS``.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from unittest import mock

import pytest
from django.test import Client

from blognomic.management.commands.run import Command

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the site's own environment: moves the demo's youngest proposal three days into the past,
# comments included, as if the clock had run on.
MOVE_LOGBOOK_BACK = """
from datetime import timedelta
from votes.models import Comment, Post
post = Post.objects.get(title="Proposal: The Keeper's Logbook")
shift = timedelta(days=3)
Post.objects.filter(pk=post.pk).update(posted_at=post.posted_at - shift)
for comment in Comment.objects.filter(post=post):
    Comment.objects.filter(pk=comment.pk).update(at=comment.at - shift)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """Just enough of a browser for Django's login form: cookies and the CSRF token."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as response:
            return response.read().decode()

    def notices(self) -> str:
        """The text of the notices list alone (the sidebar also names pending matters)."""
        page = self.get("/notices/")
        return re.search(r'<ul class="notices">(.*?)</ul>', page, re.S).group(1)

    def login(self, name: str, password: str) -> None:
        page = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode(
            {"username": name, "password": password, "csrfmiddlewaretoken": token, "next": "/notices/"}
        ).encode()
        request = urllib.request.Request(
            self.base + "/accounts/login/", data=data, headers={"Referer": self.base + "/accounts/login/"}
        )
        with self.opener.open(request, timeout=10) as response:
            assert "Log out" in response.read().decode(), "logging in failed"


def test_make_run_runs_the_beat_schedule_and_the_admins_hear_of_an_enactable_matter(tmp_path):
    """With nothing else running, a proposal that becomes enactable is flagged by the schedule and the
    admin's notices list it within a few beats."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", BEAT_EVERY_SECONDS="1", PYTHONUNBUFFERED="1")
    # The environment already installed; `-o install` keeps make from reinstalling it.
    site = subprocess.Popen(
        ["make", "--no-print-directory", "-o", "install", "run", f"HOST=127.0.0.1:{port}", f"VENV={sys.prefix}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(lambda: _answers(base + "/healthz/"), site, seconds=120, what="the site to answer")
        admin = Browser(base)
        admin.login("Ada", "lighthouse")
        # The demo's Storm Warnings is enactable from the start: its notice shows the schedule is running.
        _wait_for(lambda: "Storm Warnings" in admin.notices(), site, seconds=30, what="the first notice")
        enactable = "Logbook” may now be enacted"
        assert enactable not in admin.notices()

        moved = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MOVE_LOGBOOK_BACK],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert moved.returncode == 0, moved.stderr
        started = time.monotonic()
        _wait_for(lambda: enactable in admin.notices(), site, seconds=20, what="the Logbook's notice")
        assert time.monotonic() - started < 20
        assert re.search(r"Logbook.{0,20} may now be enacted", admin.notices())

        # A newcomer is a user too: a wrong address gets the site's own 404 page, with its stylesheet served,
        # never Django's debug page listing the URL configuration.
        status, page = _fetch(base + "/no-such-page/")
        assert status == 404
        assert "<title>Not found" in page and "urlpatterns" not in page and "URLconf" not in page
        stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)"', page).group(1)
        assert _fetch(base + stylesheet)[0] == 200
    finally:
        if site.poll() is None:
            os.killpg(site.pid, signal.SIGTERM)
            try:
                site.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(site.pid, signal.SIGKILL)
                site.wait()


def _fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def _wait_for(condition, site: subprocess.Popen, *, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if site.poll() is not None:
            pytest.fail(f"the site stopped while waiting for {what}:\n{site.stdout.read()[-4000:]}")
        if condition():
            return
        time.sleep(0.5)
    os.killpg(site.pid, signal.SIGTERM)
    pytest.fail(f"waited {seconds:.0f} s for {what}; the site's output:\n{site.communicate(timeout=20)[0][-4000:]}")


@pytest.mark.django_db
@pytest.mark.parametrize("debug_pages", [False, True])
def test_under_make_run_an_error_gets_the_sites_own_500_page_unless_debug_pages_are_asked_for(settings, debug_pages):
    """The demo is a newcomer's first look: an error answers with the site's 500 page (the traceback goes to the
    console), as a wrong address does with its 404; ``--debug-pages`` keeps Django's pages for development."""
    settings.DEBUG = True
    Command().get_handler(use_static_handler=True, insecure_serving=False, debug_pages=debug_pages)
    assert settings.DEBUG is debug_pages
    client = Client(raise_request_exception=False)
    with mock.patch("blognomic.blog.views.game_state", side_effect=RuntimeError("a bug in the demo")):
        response = client.get("/")
    assert response.status_code == 500
    page = response.content.decode()
    if debug_pages:
        assert "a bug in the demo" in page and "Traceback" in page
    else:
        assert 'class="site-header"' in page and "went wrong" in page and "a bug in the demo" not in page
