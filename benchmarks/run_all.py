"""Run every benchmark in turn, each in its own process with the project's Python, and summarise.

Run from anywhere: ``.venv/bin/python benchmarks/run_all.py [NAME ...]`` (``make bench`` does this). With
names (``bench_pages`` or ``bench_pages.py``) only those run. Each script prints its own figures under a
header; the summary at the end gives each one's exit status and time. Exits non-zero if any failed.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
SCRIPTS = (
    "bench_diff.py",
    "bench_wiki.py",
    "bench_gndt.py",
    "bench_votes.py",
    "bench_archive.py",
    "bench_pages.py",
    "bench_amendments.py",
    "bench_stats.py",
    "bench_stampede.py",
    "bench_live.py",
)


def project_python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def run(script: str, python: str) -> tuple[int, float]:
    print(f"\n{'=' * 100}\n== {script}\n{'=' * 100}", flush=True)
    started = time.perf_counter()
    process = subprocess.Popen([python, str(BENCH_DIR / script)], cwd=ROOT)
    try:
        code = process.wait()
    except BaseException:
        # Let the benchmark clean up after itself (servers, temporary databases) before giving up on it.
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        raise
    return code, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="Run only these benchmarks.")
    args = parser.parse_args()
    wanted = [name if name.endswith(".py") else f"{name}.py" for name in args.names]
    unknown = [name for name in wanted if name not in SCRIPTS]
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(SCRIPTS)}")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    python = project_python()
    results = []
    for script in wanted or SCRIPTS:
        if not (BENCH_DIR / script).exists():
            print(f"\n== {script}: missing", flush=True)
            results.append((script, "missing", 0.0))
            continue
        code, seconds = run(script, python)
        results.append((script, "ok" if code == 0 else f"FAILED (exit {code})", seconds))

    print(f"\n{'=' * 100}\n== summary\n{'=' * 100}")
    for script, status, seconds in results:
        print(f"{script:<20} {status:<20} {seconds:>7.1f} s")
    failed = [script for script, status, _ in results if status != "ok"]
    print(
        f"{len(results) - len(failed)} of {len(results)} benchmarks passed"
        + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
