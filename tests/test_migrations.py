"""Migrations keep an existing game: a database made before the apps were layered (posts and comments in the
blog app, the demo loaded) migrates to today's models and shows the same rows, tallies and pages.

The dump and the facts were recorded with the code of that time: ``migration_facts.py`` printed the facts
from the old database before any migration of today existed.
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def _run(args: list[str], database: Path) -> str:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_database_from_before_the_layers_migrates_without_losing_anything(tmp_path):
    """Every row, every tally and every public page survive moving posts and comments to the votes app."""
    database = tmp_path / "before-layers.sqlite3"
    with sqlite3.connect(database) as connection:
        connection.executescript(gzip.decompress((DATA / "demo-before-layers.sql.gz").read_bytes()).decode())
    _run(["manage.py", "migrate", "--noinput"], database)
    after = json.loads(_run([str(DATA / "migration_facts.py")], database))
    before = json.loads((DATA / "demo-before-layers.facts.json").read_text())
    assert after["tables"] == before["tables"]
    assert after["tallies"] == before["tallies"]
    assert after["pages"] == before["pages"]
    assert all(page["status"] == 200 for page in after["pages"].values())
