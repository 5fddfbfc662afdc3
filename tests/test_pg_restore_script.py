"""``deploy/pg-restore.sh``: the whole-database restore the backups page gives is all or nothing.

On PostgreSQL only (``make test`` runs the suite there too). Scratch databases beside the test database hold
a table; a dump of another state, cut short in its data as a copy interrupted mid-way would be, must leave
the target exactly as it was, where ``pg_restore --clean`` alone drops and half-loads it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "pg-restore.sh"

pytestmark = pytest.mark.django_db


@pytest.fixture
def postgres():
    """A function running a PostgreSQL tool with the test database's credentials, and scratch database names."""
    if connection.vendor != "postgresql":
        pytest.skip("pg_restore needs PostgreSQL")
    db = connection.settings_dict
    env = {
        **os.environ,
        "PGHOST": db["HOST"] or "127.0.0.1",
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"],
        "PGPASSWORD": db["PASSWORD"] or "",
    }
    names = [f"{db['NAME']}_{suffix}" for suffix in ("restore_from", "restore_into")]

    def run(*command: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=check)

    for name in names:
        run("dropdb", "--if-exists", name)
        run("createdb", name)
    yield run, names
    for name in names:
        run("dropdb", "--if-exists", name)


def fill(run, database: str, rows: int, note: str) -> None:
    run(
        "psql", "-v", "ON_ERROR_STOP=1", "-q", "-d", database, "-c",
        "DROP TABLE IF EXISTS ledger; CREATE TABLE ledger (id integer PRIMARY KEY, note text);"
        f"INSERT INTO ledger SELECT i, '{note} ' || md5(i::text) FROM generate_series(1, {rows}) AS i;",
    )  # fmt: skip


def ledger(run, database: str) -> str:
    result = run("psql", "-tA", "-d", database, "-c", "SELECT count(*), min(note) FROM ledger", check=False)
    return result.stdout.strip() or result.stderr.strip()


def test_a_dump_cut_short_leaves_the_database_as_it_was(postgres, tmp_path):
    run, (source, target) = postgres
    fill(run, source, 30_000, "new")
    dump = tmp_path / "blognomic-2026-03-01.dump"
    run("pg_dump", "--format=custom", "--file", str(dump), source)
    cut = tmp_path / "cut.dump"
    cut.write_bytes(dump.read_bytes()[: dump.stat().st_size * 6 // 10])

    fill(run, target, 1_000, "old")
    before = ledger(run, target)
    refused = run(str(SCRIPT), str(cut), target, check=False)  # as the test database's own role
    assert refused.returncode == 1
    assert "nothing was restored" in refused.stderr or "rolled back" in refused.stderr
    assert before.startswith("1000|old ")
    assert ledger(run, target) == before

    # The recipe without the script's flags drops the table and loads part of the dump.
    run("pg_restore", "--clean", "--if-exists", "--no-owner", "-d", target, str(cut), check=False)
    assert ledger(run, target) != before

    restored = run(str(SCRIPT), str(dump), target, check=False)
    assert restored.returncode == 0, restored.stderr
    assert ledger(run, target) == ledger(run, source)
    assert ledger(run, target).startswith("30000|new ")


def test_a_file_that_is_not_a_dump_is_refused_before_anything_is_touched(postgres, tmp_path):
    run, (_, target) = postgres
    fill(run, target, 10, "kept")
    before = ledger(run, target)
    bogus = tmp_path / "blognomic-2026-03-01.json.gz"
    bogus.write_bytes(b"\x1f\x8b not a dump at all")
    result = run(str(SCRIPT), str(bogus), target, check=False)
    assert result.returncode == 1
    assert "is not a readable pg_dump archive" in result.stderr
    assert ledger(run, target) == before
