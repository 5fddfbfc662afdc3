"""Scheduled backups into a directory with rotation, and the restore of one into an empty database.

Each scheduled slot (a UTC day) gets the whole-game archive, gzipped, and on PostgreSQL a ``pg_dump`` in its
custom format when ``pg_dump`` is installed. The archive is what ``restore`` reads back (it is the format the
round-trip tests prove); the dump keeps what the archive does not carry (sessions, caches, Django's own
tables) for an operator who wants the database as it was.

A file is written beside its final name and renamed, so a backup cut short never looks complete; a slot whose
files are all there is left alone, so a second run, or a late one, writes nothing more. A backup taken by hand
(``by_hand``, as before an upgrade) always writes, under a name with the time of day, so it holds the game as
it is now and keeps the night's backup beside it; it is rotated with its day.

Every archive is read back from the disk and checked as ``restore`` checks it before it is called a backup.
One that would be refused is kept under a name saying so (``….unrestorable.json.gz``, never rotated) and
the run fails with the reason, so the job shows as failed and the command exits non-zero.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from blognomic.moving.archive import ArchiveError, export_archive, import_archive
from blognomic.moving.archive.reading import parse_archive
from dynasties.beat import JobReport
from dynasties.models import Dynasty, User
from ruleset.models import Page
from votes.models import Post

PREFIX = "blognomic-"
ARCHIVE_SUFFIX = ".json.gz"
DUMP_SUFFIX = ".dump"
UNRESTORABLE_SUFFIX = ".unrestorable.json.gz"
# The day, then the time of day for a backup taken by hand.
BACKUP_NAME = re.compile(r"^blognomic-(\d{4}-\d{2}-\d{2})(?:T\d{6})?(\.json\.gz|\.dump)$")
PG_DUMP_TIMEOUT_SECONDS = 3600

NOT_EMPTY = (
    "This database already holds a game ({what}); a backup is restored only into an empty database. "
    "Nothing was restored. Create a new database, run `migrate`, and restore into that."
)
NOT_AN_ARCHIVE = "{file} is neither an archive (.json) nor a gzipped archive (.json.gz)."
UNRESTORABLE = (
    "The archive just written would be refused by restore ({reason}); it is kept as {name} for a look, and this "
    "backup did not succeed."
)
NOT_MIGRATED = (
    "This database is not migrated ({count} migrations not applied, the first {first}); nothing was restored. "
    "Run `python manage.py migrate`, then restore."
)


class BackupError(Exception):
    """A backup or restore that could not be done; the message says why, for the operator."""


def backup_slot(now: datetime, *, by_hand: bool = False) -> str:
    """The slot ``now`` falls in: one scheduled backup a UTC day; one taken by hand is its own slot."""
    return f"{now:%Y-%m-%dT%H%M%S}" if by_hand else f"{now:%Y-%m-%d}"


def pg_dump_wanted() -> bool:
    return connection.vendor == "postgresql" and shutil.which("pg_dump") is not None


def backup_write(
    *, now: datetime, directory: Path, keep: int, dry_run: bool = False, by_hand: bool = False
) -> JobReport:
    """Write this slot's archive (and dump), then keep only the newest ``keep`` days.

    Raises ``BackupError`` when the archive would not restore (nothing else is done then), or when ``pg_dump``
    fails, with its exit status and what it printed, after the archive is written and old days rotated: the
    archive still restores the game.
    """
    if keep < 1:
        raise BackupError(f"BACKUP_KEEP must be at least 1; got {keep}.")
    report = JobReport()
    slot = backup_slot(now, by_hand=by_hand)
    archive = directory / f"{PREFIX}{slot}{ARCHIVE_SUFFIX}"
    dump = directory / f"{PREFIX}{slot}{DUMP_SUFFIX}"
    if not dry_run:
        directory.mkdir(parents=True, exist_ok=True)
    if not archive.exists():
        if not dry_run:
            _write_atomically(archive, _write_archive)
            _check_restorable(archive)
        report.done.append(f"Wrote {archive.name}.")
    failure = None
    if pg_dump_wanted() and not dump.exists():
        if not dry_run:
            failure = _try(lambda: _write_atomically(dump, _write_pg_dump))
        if failure is None:
            report.done.append(f"Wrote {dump.name}.")
    for old in backups_beyond(directory, keep=keep, current=backup_slot(now)):
        if not dry_run:
            old.unlink(missing_ok=True)
        report.done.append(f"Removed {old.name}.")
    if failure is not None:
        raise BackupError(f"{'; '.join(report.done) or 'Archive already written.'} But {failure}")
    return report


def backups_beyond(directory: Path, *, keep: int, current: str) -> list[Path]:
    """The backup files of every day older than the newest ``keep`` (the current day counts as one)."""
    if not directory.is_dir():
        return []
    by_day: dict[str, list[Path]] = {current: []}
    for path in directory.iterdir():
        match = BACKUP_NAME.match(path.name)
        if match and path.is_file():
            by_day.setdefault(match[1], []).append(path)
    # ISO dates sort as text; a slot named after the current one (a clock set back) is kept, not current.
    newest = sorted(by_day, reverse=True)[:keep]
    return sorted(path for slot, paths in by_day.items() if slot not in newest for path in paths)


def _check_restorable(archive: Path) -> None:
    """Read ``archive`` back from the disk and check it as ``restore`` does before writing anything; one that
    fails is renamed to say so, and ``BackupError`` says why."""
    try:
        parse_archive(read_backup(archive))
    except (BackupError, ArchiveError) as error:
        kept = archive.with_name(archive.name.removesuffix(ARCHIVE_SUFFIX) + UNRESTORABLE_SUFFIX)
        os.replace(archive, kept)
        raise BackupError(UNRESTORABLE.format(reason=error, name=kept.name)) from None


def _try(action: Callable[[], None]) -> str | None:
    try:
        action()
    except BackupError as error:
        return str(error)
    return None


def _write_archive(handle) -> None:
    text = json.dumps(export_archive(), ensure_ascii=False, indent=1)
    with gzip.GzipFile(fileobj=handle, mode="wb", mtime=0) as gz:
        gz.write(text.encode("utf-8"))


def _write_pg_dump(handle) -> None:
    database = settings.DATABASES["default"]
    command = ["pg_dump", "--format=custom", "--no-password", "--dbname", str(database["NAME"])]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if database.get(key):
            command += [flag, str(database[key])]
    env = {**os.environ, "PGPASSWORD": str(database.get("PASSWORD") or "")}
    try:
        result = subprocess.run(
            command, stdout=handle, stderr=subprocess.PIPE, env=env, timeout=PG_DUMP_TIMEOUT_SECONDS, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BackupError(f"pg_dump could not run: {error}.") from None
    if result.returncode != 0:
        said = result.stderr.decode("utf-8", "replace").strip()[-500:] or "nothing"
        raise BackupError(f"pg_dump failed with exit status {result.returncode} and said: {said}")


def _write_atomically(path: Path, write: Callable) -> None:
    """Write beside ``path`` and rename, so a failed write never leaves a file that looks complete."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".backup-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def what_the_database_holds() -> str | None:
    """A short description of the game already in the database, or None when it is empty."""
    counts = [
        (User.objects.count(), "account", "accounts"),
        (Dynasty.objects.count(), "dynasty", "dynasties"),
        (Post.objects.count(), "post", "posts"),
        (Page.objects.count(), "wiki page", "wiki pages"),
    ]
    held = [f"{n} {one if n == 1 else many}" for n, one, many in counts if n]
    return ", ".join(held) or None


def read_backup(file: Path):
    """The archive in ``file``, plain (.json) or gzipped (.json.gz)."""
    name = file.name.lower()
    try:
        if name.endswith(".json.gz"):
            with gzip.open(file, "rt", encoding="utf-8-sig") as handle:
                return json.load(handle)
        if name.endswith(".json"):
            with open(file, encoding="utf-8-sig") as handle:
                return json.load(handle)
    except OSError as error:  # gzip.BadGzipFile is an OSError
        raise BackupError(f"Cannot read {file}: {error.strerror or error}.") from None
    except UnicodeDecodeError as error:
        raise BackupError(f"{file} is not UTF-8 text (byte {error.start}); archives are UTF-8 JSON.") from None
    except (json.JSONDecodeError, EOFError) as error:
        raise BackupError(f"{file} is not a complete JSON archive: {error}.") from None
    except RecursionError:
        raise BackupError(f"{file} is nested too deeply to be an archive.") from None
    raise BackupError(NOT_AN_ARCHIVE.format(file=file))


def unapplied_migrations() -> list[str]:
    """The migrations the database lacks, as ``app.name``, in the order ``migrate`` would apply them."""
    plan = MigrationExecutor(connection).migration_plan(MigrationLoader(connection).graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def backup_restore(*, file: Path) -> dict[str, int]:
    """Load the archive in ``file`` into an empty database; refused, with what it holds, otherwise.

    The archive's own import checks every field and writes all or nothing (``ArchiveError``).
    """
    unapplied = unapplied_migrations()
    if unapplied:
        raise BackupError(NOT_MIGRATED.format(count=len(unapplied), first=unapplied[0]))
    what = what_the_database_holds()
    if what is not None:
        raise BackupError(NOT_EMPTY.format(what=what))
    return import_archive(read_backup(file))
