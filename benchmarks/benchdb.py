"""A throwaway database for one benchmark run: a SQLite file, or a PostgreSQL database made for the run.

With a ``postgres://`` URL, a database with a fresh name is created on that server (the one the URL names is
only connected to, never written) and dropped at the end, so a run never touches anyone's data.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


class TemporaryDatabase:
    """A fresh database for the run: a SQLite file in ``workdir``, or a PostgreSQL database beside ``url``."""

    def __init__(self, workdir: Path, url: str | None) -> None:
        self.admin_url = url
        self.name = None
        if not url:
            self.url = f"sqlite:///{workdir / 'bench.sqlite3'}"
            return
        parts = urlsplit(url)
        if parts.scheme not in {"postgres", "postgresql"}:
            sys.exit("--database-url must be a postgres:// URL (SQLite is the default).")
        self.name = f"blognomic_bench_{os.getpid()}_{secrets.token_hex(3)}"
        self.url = urlunsplit(parts._replace(path=f"/{self.name}"))

    @property
    def label(self) -> str:
        return "SQLite (temporary file)" if self.name is None else f"PostgreSQL (temporary database {self.name})"

    def _admin(self, statement: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(sql.SQL(statement).format(sql.Identifier(self.name)))

    def create(self) -> None:
        if self.name is not None:
            self._admin("CREATE DATABASE {}")

    def drop(self) -> None:
        if self.name is not None:
            self._admin("DROP DATABASE IF EXISTS {} WITH (FORCE)")

    def server_version(self) -> str:
        """The server's version, for the report (SQLite's library version on SQLite)."""
        if self.name is None:
            import sqlite3

            return f"SQLite {sqlite3.sqlite_version}"
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            return "PostgreSQL " + connection.execute("SHOW server_version").fetchone()[0]
