"""The once-per-suite tests are shared out between the suite's two runs (``tests/once_per_suite.py``): each is
run by exactly one, and both keep them for last."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.once_per_suite import put_last, take

NODEIDS = [f"tests/e2e/test_accessibility.py::test_{number}[admin]" for number in range(300)]
# Two runs taking the same tests at the same moment, as the suite's two do at its end.
TAKER = """
import sys
from pathlib import Path
from tests.once_per_suite import take
folder, run = Path(sys.argv[1]), sys.argv[2]
for number in range(300):
    if take(folder, f"tests/e2e/test_accessibility.py::test_{number}[admin]", run) == run:
        print(number)
"""


def test_a_test_taken_by_one_run_is_the_other_runs_to_skip(tmp_path):
    assert take(tmp_path, NODEIDS[0], "SQLite") == "SQLite"
    assert take(tmp_path, NODEIDS[0], "PostgreSQL") == "SQLite"
    assert take(tmp_path, NODEIDS[1], "PostgreSQL") == "PostgreSQL"
    assert take(tmp_path, NODEIDS[1], "SQLite") == "PostgreSQL"


def test_two_runs_taking_at_once_run_each_test_exactly_once(tmp_path):
    root = Path(__file__).resolve().parent.parent
    runs = [
        subprocess.Popen([sys.executable, "-c", TAKER, str(tmp_path), run], cwd=root, stdout=subprocess.PIPE, text=True)
        for run in ("SQLite", "PostgreSQL")
    ]
    taken = [[int(line) for line in run.communicate(timeout=60)[0].split()] for run in runs]
    assert sorted(taken[0] + taken[1]) == list(range(300))


class Item:
    def __init__(self, name: str, once: bool) -> None:
        self.name, self.once = name, once

    def get_closest_marker(self, name: str):
        return pytest.mark.once_per_suite if self.once and name == "once_per_suite" else None


def test_once_per_suite_tests_go_last_and_each_kind_keeps_its_order():
    items = [Item("a", True), Item("b", False), Item("c", True), Item("d", False)]
    put_last(items)
    assert [item.name for item in items] == ["b", "d", "a", "c"]
