"""How much slower this machine runs Python at this moment than when it is quiet.

Limits stated in a quiet machine's seconds ("an answer within a second on this machine") are checked against
CPU time, which other work on a shared machine still inflates: two CPUs shared with other test runs were seen
to spend eight times the CPU on the same work. A measurement over its limit is taken again beside this
reference work, and compared with the limit scaled by how much slower the reference ran than when quiet.
"""

from __future__ import annotations

import time

# The best of three runs of ``reference_work`` on the project's two-CPU machine with nothing else running.
QUIET_SECONDS = 0.035


def reference_work() -> int:
    """Python of the kind a request runs: building strings, dictionaries and sorting them."""
    table: dict[str, int] = {}
    for number in range(60_000):
        key = f"rule-{number % 997}-{number}"
        table[key] = len(key) + table.get(key[:8], 0)
    return sum(value for _key, value in sorted(table.items())[:1000])


def slowdown() -> float:
    """How many times the quiet machine's time the reference work takes now (never less than 1)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        reference_work()
        best = min(best, time.process_time() - start)
    return max(1.0, best / QUIET_SECONDS)
