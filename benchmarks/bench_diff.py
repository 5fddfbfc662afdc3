"""Time the ruleset diff renderers on two generated ~100 KB ruleset-like texts.

Run from the project root: ``.venv/bin/python benchmarks/bench_diff.py [--runs N]``. Prints the median
milliseconds of ``render_inline_diff`` and ``render_side_by_side_diff``; the target is well under 200 ms.
The texts are generated (no seed text): numbered sections and rules, paragraphs, bullet lists and blank
lines in a ruleset's proportions, then scattered word edits, inserted and deleted paragraphs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ruleset.diffing import render_inline_diff, render_side_by_side_diff  # noqa: E402

TARGET_BYTES = 100_000
VOCABULARY = (
    "player emperor proposal vote quorum enact fail pending hour day week action gamestate rule "
    "dynasty hiatus admin comment post tracker value column roll dice token island ship chest piece "
    "may shall must not any each every which that when if unless otherwise the a an of to in by with "
    "for from as at on or and its their this those these more less than least most half number"
).split()


def generated_sentence(rng: random.Random) -> str:
    words = [rng.choice(VOCABULARY) for _ in range(rng.randint(8, 30))]
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def generated_paragraph(rng: random.Random) -> str:
    return " ".join(generated_sentence(rng) for _ in range(rng.randint(1, 5)))


def generated_ruleset(rng: random.Random, target_bytes: int = TARGET_BYTES) -> list[str]:
    lines: list[str] = []
    size, section, rule = 0, 0, 0
    while size < target_bytes:
        if rule % 15 == 0:
            section += 1
            lines += [f"== Section {section} ==", ""]
        rule += 1
        block = [f"=== Rule about {rng.choice(VOCABULARY)} {rule} ==="]
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.25:
                block += [f"* {generated_sentence(rng)}" for _ in range(rng.randint(2, 6))]
            else:
                block.append(generated_paragraph(rng))
            block.append("")
        lines += block
        size += sum(len(line) + 1 for line in block)
    return lines


def edited_copy(rng: random.Random, lines: list[str], edits: int = 60) -> list[str]:
    edited = list(lines)
    for _ in range(edits):
        index = rng.randrange(len(edited))
        choice = rng.random()
        if choice < 0.6 and edited[index]:
            words = edited[index].split(" ")
            position = rng.randrange(len(words))
            words[position] = rng.choice(VOCABULARY)
            edited[index] = " ".join(words)
        elif choice < 0.8:
            edited[index:index] = [generated_paragraph(rng), ""]
        else:
            del edited[index]
    return edited


def median_milliseconds(render: Callable[[str, str], str], old: str, new: str, runs: int) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        render(old, new)
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs per renderer (default 9)")
    parser.add_argument("--seed", type=int, default=142, help="random seed for the generated texts")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    old_lines = generated_ruleset(rng)
    old, new = "\n".join(old_lines), "\n".join(edited_copy(rng, old_lines))
    print(f"old text: {len(old.encode()):,} bytes, {len(old_lines):,} lines")
    print(f"new text: {len(new.encode()):,} bytes, {new.count(chr(10)) + 1:,} lines")
    for name, render in (
        ("render_inline_diff", render_inline_diff),
        ("render_side_by_side_diff", render_side_by_side_diff),
    ):
        milliseconds = median_milliseconds(render, old, new, arguments.runs)
        print(f"{name}: median {milliseconds:.1f} ms over {arguments.runs} runs")


if __name__ == "__main__":
    main()
