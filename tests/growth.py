"""Timing work so that a test can tell linear from quadratic on a busy machine.

A test of how work grows times it on an input and on one ``GROWTH`` times as large, instead of comparing
seconds with a limit: a busy machine was seen to spend eight times the CPU on the same work, and it slows
the two sizes much alike (not exactly: see the limit's room below).
"""

from __future__ import annotations

import gc
import math
import time

# Linear work on an input eight times as large costs about eight times as much, quadratic work sixty-four
# times, cubic five hundred; a growth under twenty-four is linear with room for noise. The room is wide
# because one size can still be slowed against the other: a growth of four, measured alone, was once
# measured at 9.8 late in the suite on a busy machine.
GROWTH = 8
LINEAR_GROWTH_LIMIT = 3 * GROWTH


def growth(prepare, small: int, rounds: int = 5) -> float:
    """How many times the CPU seconds of the work for ``small`` the work for ``GROWTH`` times ``small`` takes.

    ``prepare(size)`` builds the input and returns the work to time, so building is not counted. The sizes
    are tried in turn, ``rounds`` times, and the fewest seconds of each kept: a busy moment slows one try,
    not the best of several.
    """
    works = {size: prepare(size) for size in (small, small * GROWTH)}
    best = dict.fromkeys(works, math.inf)
    for _ in range(rounds):
        for size, work in works.items():
            best[size] = min(best[size], cpu_seconds(work))
    return best[small * GROWTH] / max(best[small], 1e-6)


def cpu_seconds(work) -> float:
    """The CPU seconds ``work`` takes, with the garbage collector held off as ``timeit`` does: a collection
    costs in proportion to everything the process holds, which late in the suite is far more than the work's
    own objects, and may fall in one size's timing and not the other's. For the same reason nothing is
    collected beforehand: a full collection late in the suite took a third of a second, and the growth tests
    asked for dozens (28 CPU-seconds in the whole suite with them, 5 without)."""
    gc.disable()
    try:
        start = time.process_time()
        work()
        return time.process_time() - start
    finally:
        gc.enable()
