"""Backups as deployed: a daily beat job writes the archive (and on PostgreSQL a pg_dump) into BACKUP_DIR and
keeps the newest BACKUP_KEEP days; ``restore FILE`` into an empty database gives back every page and
permalink byte for byte, and refuses a database that holds a game."""

from __future__ import annotations

import gzip
import io
import json
import os
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from celery.schedules import crontab
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from blognomic.moving.archive import export_archive
from blognomic.running import backups
from blognomic.running.backups import BackupError, backup_write
from blognomic.tasks import write_backup
from tests.factories import make_table

DAY = datetime(2026, 3, 1, 3, 30, tzinfo=UTC)


def names(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


@pytest.fixture
def archive_only(monkeypatch):
    """The archive alone, as on SQLite, whatever database the suite runs on."""
    monkeypatch.setattr(backups, "pg_dump_wanted", lambda: False)


def fake_pg_dump(tmp_path: Path, monkeypatch, *, script: str) -> None:
    """A ``pg_dump`` on PATH that runs ``script`` (a shell body), and a database that wants one."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "pg_dump"
    tool.write_text(f"#!/bin/sh\n{script}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(backups, "pg_dump_wanted", lambda: True)


@pytest.mark.django_db
def test_a_backup_is_the_gzipped_archive_written_once_per_day(tmp_path, t0, archive_only):
    """The slot is a UTC day: a second run that day, or a late one, writes nothing more."""
    make_table(3, start=t0)
    report = backup_write(now=DAY, directory=tmp_path / "b", keep=3)
    assert report.done == ["Wrote blognomic-2026-03-01.json.gz."]
    with gzip.open(tmp_path / "b" / "blognomic-2026-03-01.json.gz", "rt", encoding="utf-8") as handle:
        assert json.load(handle) == export_archive()
    assert backup_write(now=DAY + timedelta(hours=20), directory=tmp_path / "b", keep=3).done == []
    assert names(tmp_path / "b") == ["blognomic-2026-03-01.json.gz"]


@pytest.mark.django_db
def test_rotation_keeps_the_newest_days_and_nothing_else_is_touched(tmp_path, archive_only):
    """BACKUP_KEEP=2 over four days: the two newest days are kept, with their dumps; other files stay."""
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "blognomic-2026-02-27.dump").write_bytes(b"old dump")
    for day in range(4):
        backup_write(now=DAY + timedelta(days=day), directory=tmp_path, keep=2)
    (tmp_path / "blognomic-2026-03-03.dump").write_bytes(b"dump")
    report = backup_write(now=DAY + timedelta(days=4), directory=tmp_path, keep=2)
    assert report.done == [
        "Wrote blognomic-2026-03-05.json.gz.",
        "Removed blognomic-2026-03-03.dump.",
        "Removed blognomic-2026-03-03.json.gz.",
    ]
    assert names(tmp_path) == ["blognomic-2026-03-04.json.gz", "blognomic-2026-03-05.json.gz", "notes.txt"]


@pytest.mark.django_db
def test_a_dry_run_writes_and_removes_nothing(tmp_path, archive_only):
    backup_write(now=DAY, directory=tmp_path, keep=1)
    report = backup_write(now=DAY + timedelta(days=1), directory=tmp_path, keep=1, dry_run=True)
    assert report.done == ["Wrote blognomic-2026-03-02.json.gz.", "Removed blognomic-2026-03-01.json.gz."]
    assert names(tmp_path) == ["blognomic-2026-03-01.json.gz"]


@pytest.mark.django_db
def test_on_postgresql_the_day_also_gets_a_pg_dump(tmp_path, monkeypatch):
    """pg_dump's output goes to the day's .dump, written beside it and renamed."""
    fake_pg_dump(tmp_path, monkeypatch, script='echo "custom format for $*"')
    backup_write(now=DAY, directory=tmp_path / "b", keep=3)
    assert names(tmp_path / "b") == ["blognomic-2026-03-01.dump", "blognomic-2026-03-01.json.gz"]
    assert "--format=custom" in (tmp_path / "b" / "blognomic-2026-03-01.dump").read_text()


@pytest.mark.django_db
def test_a_failed_pg_dump_raises_with_what_it_said_and_leaves_no_dump(tmp_path, monkeypatch):
    """Its exit status is checked and its stderr recorded; the archive is still written, and the next run
    tries the dump again."""
    fake_pg_dump(tmp_path, monkeypatch, script='echo partial; echo "connection refused" >&2; exit 1')
    with pytest.raises(BackupError, match=r"exit status 1 and said: connection refused"):
        backup_write(now=DAY, directory=tmp_path / "b", keep=3)
    assert names(tmp_path / "b") == ["blognomic-2026-03-01.json.gz"]
    (tmp_path / "bin" / "pg_dump").write_text("#!/bin/sh\necho fine\n")
    assert backup_write(now=DAY, directory=tmp_path / "b", keep=3).done == ["Wrote blognomic-2026-03-01.dump."]


@pytest.mark.django_db
def test_a_real_pg_dump_restores_with_pg_restore(tmp_path):
    """On PostgreSQL (``make test`` runs the suite there too) the dump is one pg_restore reads."""
    if connection.vendor != "postgresql" or not backups.pg_dump_wanted():
        pytest.skip("a pg_dump needs PostgreSQL and pg_dump")
    import subprocess

    backup_write(now=DAY, directory=tmp_path, keep=1)
    listed = subprocess.run(
        ["pg_restore", "--list", str(tmp_path / "blognomic-2026-03-01.dump")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "dynasties_user" in listed.stdout


def test_the_beat_schedule_backs_up_daily_and_is_off_without_a_directory(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["write-backup"]
    assert entry["task"] == "blognomic.tasks.write_backup"
    if not os.environ.get("BEAT_EVERY_SECONDS"):
        assert entry["schedule"] == crontab(hour=3, minute=30)
    settings.BACKUP_DIR = ""
    assert write_backup.apply().get() == "Backups are off (BACKUP_DIR is empty)."


@pytest.mark.django_db
def test_the_backup_command_needs_a_directory(settings, tmp_path, capsys, archive_only):
    settings.BACKUP_DIR = ""
    with pytest.raises(CommandError, match="BACKUP_DIR is not set"):
        call_command("backup")
    settings.BACKUP_DIR = str(tmp_path)
    call_command("backup", "--keep", "1")
    assert "Wrote blognomic-" in capsys.readouterr().out


@pytest.mark.django_db
def test_restore_refuses_a_database_that_holds_a_game_and_says_what_it_holds(tmp_path, t0):
    make_table(3, start=t0)
    backup_write(now=DAY, directory=tmp_path, keep=1)
    with pytest.raises(CommandError, match=r"already holds a game \(3 accounts, 1 dynasty\).*Nothing was restored"):
        call_command("restore", str(tmp_path / "blognomic-2026-03-01.json.gz"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("b.json.gz", b"not gzip", "Cannot read"),
        # A fixed time in the gzip header: the bytes name the case, and every worker must collect the same cases.
        ("b.json.gz", gzip.compress(b'{"version": 2, "pla', mtime=0), "not a complete JSON archive"),
        ("b.json", b"\xff\xfe", "not UTF-8"),
        ("b.txt", b"{}", "neither an archive"),
        ("b.json", b'{"version": "x"}', "Nothing was restored."),
    ],
)
def test_restore_refuses_a_file_that_is_not_an_archive_with_a_clear_message(tmp_path, name, content, message):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("restore", str(tmp_path / name))


def test_backup_settings_default_to_off_keeping_fourteen_days():
    assert settings.BACKUP_KEEP == 14
    assert isinstance(settings.BACKUP_DIR, str)


@pytest.mark.django_db(transaction=True)
def test_the_restore_drill_gives_back_every_page_and_permalink_byte_for_byte(tmp_path, t0, settings):
    """The scheduled job's backup, restored with ``restore FILE`` into an emptied database: every page, as a
    visitor and as an admin, renders byte for byte as before, at the same addresses."""
    from django.core.cache import cache

    from blognomic.web.freshness import bump_version
    from tests.test_archive_round_trip import build_rich_game, render_pages, run_every_beat_job

    now = build_rich_game(t0)
    run_every_beat_job(now)
    before = render_pages(now)
    settings.BACKUP_DIR = str(tmp_path)
    write_backup.apply().get()
    (backup,) = tmp_path.glob("blognomic-*.json.gz")

    call_command("flush", "--no-input", verbosity=0)
    cache.clear()
    bump_version()
    call_command("restore", str(backup), stdout=io.StringIO())

    after = render_pages(now)
    assert after.keys() == before.keys()
    for key, (status, html) in before.items():
        assert after[key] == (status, html), f"{key} renders differently after the restore"


@pytest.mark.django_db
def test_a_backup_taken_by_hand_always_writes_beside_the_nights(tmp_path, t0, settings, capsys, archive_only):
    """Before an upgrade the operator's backup must hold the game as it is now: on a day that already has its
    nightly backup, ``backup`` still writes, under a name with the time, and the night's stays."""
    make_table(3, start=t0)
    settings.BACKUP_DIR = str(tmp_path)
    backup_write(now=DAY, directory=tmp_path, keep=2)
    for later in (timedelta(hours=5), timedelta(hours=5, seconds=1)):
        with time_machine.travel(DAY + later, tick=False):
            call_command("backup")
    printed = capsys.readouterr().out
    assert "Nothing to do" not in printed
    assert "Wrote blognomic-2026-03-01T083000.json.gz." in printed
    assert names(tmp_path) == [
        "blognomic-2026-03-01.json.gz",
        "blognomic-2026-03-01T083000.json.gz",
        "blognomic-2026-03-01T083001.json.gz",
    ]
    # Rotated with its day: two more days with keep=2 leave that day out.
    for day in (1, 2):
        backup_write(now=DAY + timedelta(days=day), directory=tmp_path, keep=2)
    assert names(tmp_path) == ["blognomic-2026-03-02.json.gz", "blognomic-2026-03-03.json.gz"]


def archive_restore_refuses(monkeypatch) -> None:
    """An exporter that writes what the importer refuses: a player joined at no time at all."""
    real = backups.export_archive

    def refused() -> dict:
        data = real()
        data["players"][0]["joined_at"] = "the day before yesterday"
        return data

    monkeypatch.setattr(backups, "export_archive", refused)


@pytest.mark.django_db(transaction=True)  # flush truncates: PostgreSQL refuses it with deferred checks pending
def test_an_archive_restore_would_refuse_is_kept_under_a_name_saying_so_and_the_run_fails(
    tmp_path, t0, settings, monkeypatch, archive_only
):
    """Every archive is read back as ``restore`` reads it: one it would refuse is not called a backup. The
    job fails with the reason (so the admin panel shows it), the command exits non-zero, and the file stays
    under a name that says so; the night's backup from before is not rotated out by it."""
    make_table(3, start=t0)
    backup_write(now=DAY, directory=tmp_path, keep=1)
    archive_restore_refuses(monkeypatch)
    with pytest.raises(BackupError, match=r"would be refused by restore \(players\[0\]\.joined_at: .*ISO 8601"):
        backup_write(now=DAY + timedelta(days=1), directory=tmp_path, keep=1)
    assert names(tmp_path) == ["blognomic-2026-03-01.json.gz", "blognomic-2026-03-02.unrestorable.json.gz"]
    settings.BACKUP_DIR = str(tmp_path)
    with pytest.raises(CommandError, match="kept as blognomic-.*unrestorable.json.gz"):
        call_command("backup")
    with pytest.raises(BackupError, match="would be refused by restore"):
        write_backup.apply().get()
    call_command("flush", "--no-input", verbosity=0)
    with pytest.raises(CommandError, match=r"Nothing was restored. players\[0\]\.joined_at"):
        call_command("restore", str(tmp_path / "blognomic-2026-03-02.unrestorable.json.gz"))


def test_restore_into_an_unmigrated_database_says_to_migrate_first(tmp_path, t0):
    """An operator who forgets ``migrate`` is told so, without a traceback, and nothing is written."""
    archive = tmp_path / "game.json"
    archive.write_text(json.dumps({"format": "blognomic-archive", "version": 2, "players": []}))
    database = tmp_path / "fresh.sqlite3"
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(archive)],
        env={**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"},
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "This database is not migrated" in result.stderr
    assert "Run `python manage.py migrate`, then restore." in result.stderr
