"""`python manage.py export_mediawiki FILE.xml` writes a 0.11 export that a real MediaWiki imports: the test
loads it into Debian's MediaWiki (on SQLite) with its own importDump.php, dumps it back with
dumpBackup.php --full, and compares every revision's author, time, summary and text."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from datetime import timedelta

import pytest
from django.core.management import call_command

from blognomic.moving.mediawiki.importing import import_mediawiki
from blognomic.moving.mediawiki.reading import PageRevision, read_export
from blognomic.moving.mediawiki.writing import sha1_base36
from ruleset.models import Page
from ruleset.services import page_create, revision_add
from tests.factories import make_player
from tests.mediawiki.exports import blognomic_wiki

pytestmark = pytest.mark.django_db

MEDIAWIKI = "/usr/share/mediawiki"
MAINTENANCE = f"{MEDIAWIKI}/maintenance"
# MediaWiki credits an imported edit by a user it does not know to "imported>Name", and one whose
# contributor was deleted to "imported>Unknown user".
PREFIX = "imported>"
NOBODY = "Unknown user"


@pytest.fixture
def mediawiki(tmp_path):
    """A throwaway MediaWiki on SQLite; fails (never skips) when Debian's packages are missing."""
    php = shutil.which("php")
    if php is None or not os.path.exists(f"{MAINTENANCE}/importDump.php"):
        pytest.fail("php or MediaWiki is missing: `make test` installs Debian's mediawiki and php-sqlite3 packages.")
    data = tmp_path / "data"
    data.mkdir()
    install = [
        php,
        f"{MAINTENANCE}/install.php",
        "--dbtype",
        "sqlite",
        "--dbpath",
        str(data),
        "--dbname",
        "wiki",
        "--server",
        "http://localhost",
        "--scriptpath",
        "",
        "--pass",
        "Round-trip-password-1",
        "--confpath",
        str(tmp_path),
        "Round Trip",
        "Admin",
    ]
    _run(install)
    conf = str(tmp_path / "LocalSettings.php")

    def run(script: str, *args: str) -> str:
        return _run([php, f"{MAINTENANCE}/{script}", "--conf", conf, *args])

    return run


def _run(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        pytest.fail(f"{os.path.basename(command[1])} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


def _ours() -> dict[str, list[tuple]]:
    pages = {}
    for page in Page.objects.order_by("pk"):
        title = page.title[:1].upper() + page.title[1:]
        pages[title] = [
            (r.at.replace(microsecond=0), r.author.username if r.author else NOBODY, r.summary, r.text)
            for r in page.revisions.order_by("number").select_related("author")
        ]
    return pages


def _theirs(dump: bytes) -> dict[str, list[tuple]]:
    pages: dict[str, list[tuple]] = {}
    for record in read_export(io.BytesIO(dump)):
        if isinstance(record, PageRevision) and record.title != "Main Page":
            name = (record.contributor.name or "").removeprefix(PREFIX)
            pages.setdefault(record.title, []).append((record.timestamp, name, record.comment, record.text))
    return pages


def test_our_export_goes_through_mediawiki_and_comes_back_the_same(mediawiki, tmp_path, t0):
    import_mediawiki(io.BytesIO(blognomic_wiki(newer=True)))
    ada = make_player("Ada", joined_at=t0)
    board = page_create(
        title="lamp board", author=ada, text="{{pill|Round|2|red}} ''lit''", now=t0, summary="Lamps & <things>"
    )
    revision_add(page=board, author=ada, text="Dark now.\n\n* one\n* two", now=t0 + timedelta(seconds=1.5))
    export = tmp_path / "export.xml"
    call_command("export_mediawiki", str(export), stdout=io.StringIO())

    mediawiki("importDump.php", str(export))
    dump = mediawiki("dumpBackup.php", "--full", "--quiet").encode("utf-8")

    ours, theirs = _ours(), _theirs(dump)
    assert theirs == ours
    assert sum(len(revisions) for revisions in theirs.values()) == 8
    assert f"<sha1>{sha1_base36(board.current.text)}</sha1>".encode() in dump, "MediaWiki agrees on the checksum"
