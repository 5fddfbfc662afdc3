"""Time the post form's Ruleset editor on an edit that adds many rules: how long until the form answers.

Run from the project root: ``.venv/bin/python benchmarks/bench_ruleset_editor.py [--added 2000 4000]
[--runs 3] [--timeout 60]``. The base is the demo's Ruleset; the edit appends ``--added`` short rules to its
last section, as a player pasting a long list into the editor would. Each run fills the amendment form,
works out its operations and checks their shape, as ``/new/`` does before its preview: the answer is a
refusal (more than 100 operations) either way, so the figure is the time to refuse. Prints the median
milliseconds per size, the POST body's size, and the growth from one size to the next (2.0 per doubling
is linear, 4.0 quadratic). A run over ``--timeout`` seconds is stopped and reported as such.

Pure computation: no database, no server.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blognomic.settings")

import django  # noqa: E402

django.setup()

from blognomic.flows.amendments.forms import AmendmentForm  # noqa: E402
from blognomic.flows.amendments.shape import AmendmentRefused, check_shape  # noqa: E402
from blognomic.moving.demo import RULESET_TEXT  # noqa: E402


class TimedOut(Exception):
    pass


def edited_text(base: str, added: int) -> str:
    rules = "".join(f"\n=== Beacon {n} ===\nKeeper {n} tends beacon {n}.\n" for n in range(1, added + 1))
    return base.rstrip("\n") + "\n" + rules


def answer_once(base: str, edited: str) -> str:
    form = AmendmentForm({"ruleset_text": edited, "ruleset_base": "1"}, base_text=base)
    if not form.is_valid():
        return " ".join(error for errors in form.errors.values() for error in errors)
    try:
        check_shape(form.operations())
    except AmendmentRefused as refusal:
        return str(refusal)
    return "accepted"


def _alarm(signum, frame):
    raise TimedOut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--added", type=int, nargs="+", default=[500, 1000, 2000, 4000, 16000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=int, default=60, help="seconds before one run is given up")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    print(f"Ruleset editor: base = the demo Ruleset ({len(RULESET_TEXT):,} bytes), median of {args.runs} runs")
    print(f"{'added rules':>12} {'POST body':>12} {'ms':>10} {'growth':>8}  answer")
    previous = None
    for added in args.added:
        edited = edited_text(RULESET_TEXT, added)
        body = len(urlencode({"ruleset_text": edited}))
        timings, answer = [], ""
        try:
            for _ in range(args.runs):
                signal.alarm(args.timeout)
                start = time.perf_counter()
                answer = answer_once(RULESET_TEXT, edited)
                timings.append((time.perf_counter() - start) * 1000)
                signal.alarm(0)
        except TimedOut:
            print(f"{added:>12,} {body:>12,} {'>' + str(args.timeout * 1000):>10} {'':>8}  gave up")
            previous = None
            continue
        median = statistics.median(timings)
        growth = f"{median / previous:.1f}" if previous else ""
        print(f"{added:>12,} {body:>12,} {median:>10.1f} {growth:>8}  {answer[:70]}")
        previous = median


if __name__ == "__main__":
    main()
