"""Helpers for the PostgreSQL concurrency tests: start functions at one instant, each on its own connection."""

from __future__ import annotations

import threading

from django.db import connection


def run_together(functions):
    """Start every function at the same instant, each in its own thread (and so its own connection).

    Returns each function's result, or the exception it raised, in order.
    """
    barrier = threading.Barrier(len(functions))
    results: list = [None] * len(functions)

    def runner(i, fn):
        try:
            barrier.wait()
            results[i] = fn()
        except Exception as error:  # noqa: BLE001 - reported back to the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i, fn)) for i, fn in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
