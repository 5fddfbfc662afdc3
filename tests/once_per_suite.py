"""The tests marked ``once_per_suite`` run in one of the suite's two runs: in whichever gets to each first.

`make test` runs the suite on SQLite and on PostgreSQL side by side, and the run that ends last sets the
suite's time. The once-per-suite checks (the browser and checker runs over pages the database does not shape)
were all the SQLite run's: about a third of its time, while the PostgreSQL run ended minutes sooner. Both runs
now keep them for last and take them one by one, each the next one the other has not taken, so the two end
close together whichever finishes its own tests first.

A run takes a test by creating the test's file in a folder both share (``ONCE_PER_SUITE_CLAIMS``, made afresh
for each suite by ``scripts/test-both-databases.sh``). Creating a file that must not exist yet is atomic, so
exactly one run, and under xdist one worker, gets each test; the other skips it, naming the run that has it.
Without the folder (one database alone) a SQLite run takes them all and a PostgreSQL run none.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

SHARED_FOLDER = "ONCE_PER_SUITE_CLAIMS"


def is_once(item: pytest.Item) -> bool:
    return item.get_closest_marker("once_per_suite") is not None


def shared_folder() -> Path | None:
    """The folder the suite's two runs take their once-per-suite tests in, when they run side by side."""
    folder = os.environ.get(SHARED_FOLDER)
    return Path(folder) if folder else None


def put_last(items: list[pytest.Item]) -> None:
    """The once-per-suite tests after all the others, each keeping its place among its own kind."""
    items.sort(key=is_once)


def take(folder: Path, nodeid: str, run: str) -> str:
    """Takes the test ``nodeid`` for ``run`` unless another run has it already; returns the run that has it."""
    claim = folder / hashlib.sha256(nodeid.encode()).hexdigest()
    try:
        descriptor = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return claim.read_text() or "other"  # the other run may be between creating and writing it
    with os.fdopen(descriptor, "w") as written:
        written.write(run)
    return run
