"""Benchmark: the calendar backtest (issue #41).

Plays every day of a span (default: 2025) with the policy that day would have had
(``guesswork-build backtest``: the calendar prior of the answers before it,
lookahead 30, every answer within six, TARSE first) and, in the same run, with
the uniform optimum of the same lists and mode: the baseline. Prints, per mode,
both means, the gain and its ratio, the lost days, the wall time and the peak
memory of the run (one process, one core).

The acceptance for issue #41: in both modes the calendar policy's mean is at
least 0.10 guesses below the uniform optimum's, with no day lost.

Usage: python benchmarks/bench_backtest.py [--from 2025-01-01] [--to 2025-12-31]
       [--mode normal --mode nyt-hard]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(first: str, last: str, mode: str) -> tuple[dict[str, object], float, float]:
    """Return the backtest's JSON, its wall seconds and the peak RSS (MB) of the run."""
    env = {**os.environ, "XDG_DATA_HOME": tempfile.mkdtemp(prefix="guesswork-bench-")}
    env.pop("GUESSWORK_CALENDAR", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", "backtest", "--from", first, "--to", last,
         "--mode", mode, "--json", "--quiet"],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"backtest {mode} failed: {done.stderr.strip()}")
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    result = json.loads(done.stdout)
    assert isinstance(result, dict)
    return result, seconds, peak


def main() -> None:
    """Run the backtests asked for and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", default="2025-01-01")
    parser.add_argument("--to", dest="last", default="2025-12-31")
    parser.add_argument("--mode", action="append", choices=("normal", "nyt-hard"))
    args = parser.parse_args()
    print(f"backtest {args.first} to {args.last}: calendar policy against the uniform optimum")
    print(f"{'mode':<9} {'days':>5} {'calendar':>9} {'uniform':>8} {'gain':>6} {'ratio':>6} "
          f"{'lost':>5} {'u.lost':>6} {'wall':>7} {'peak':>8}")  # fmt: skip
    for mode in args.mode or ["normal", "nyt-hard"]:
        result, seconds, peak = run(args.first, args.last, mode)
        mean, uniform = float(result["mean"]), float(result["uniform_mean"])  # type: ignore[arg-type]
        days = result["days"]
        assert isinstance(days, list)
        print(
            f"{mode:<9} {len(days):>5} {mean:>9.4f} {uniform:>8.4f} {uniform - mean:>6.3f} "
            f"{mean / uniform:>5.3f}x {result['lost']:>5} {result['uniform_lost']:>6} "
            f"{seconds:>6.0f}s {peak:>6.0f}MB"
        )


if __name__ == "__main__":
    main()
