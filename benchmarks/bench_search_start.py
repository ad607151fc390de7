"""Benchmark: how soon ``guesswork-build optimize`` reaches its search (issue #27, point 1).

For the SALET-fixed proof (2315 answers x 12972 guesses, normal mode, one
process, reply matrix cached), each run is a fresh interpreter running the
command line exactly as the console script does, with one addition: a hook
that notes the moment the search expands its first target set. The figure is
the time from the parent starting the child (``time.monotonic``, a clock all
processes share) to that moment, and to the process's exit; the child's peak
memory comes from ``wait4``. Baselines measured in the same run, the same
way: ``python -c pass`` and ``python -c "import numpy"`` (the floor of any
program that reads a numpy matrix).

``--python`` runs another checkout's interpreter (e.g. a clone at an older
commit, for a before/after figure); it must import ``guesswork``.

Usage: python benchmarks/bench_search_start.py [--runs N] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

ARGUMENTS = (
    "optimize", "--targets", "wordle-answers-2315", "--guesses", "wordle-guesses-12972",
    "--first-guess", "SALET", "--workers", "1", "--quiet", "--json",
)  # fmt: skip

# The child: the console script's entry, with a note at the first expanded set.
CHILD = """
import sys, time
from guesswork.builder.optimal import search

def noted(self, *args, **kwargs):
    if not getattr(search, "_first_noted", False):
        search._first_noted = True
        print(f"first-set {time.monotonic()!r}", file=sys.stderr, flush=True)
    return solve(self, *args, **kwargs)

solve = search.Search.solve
search.Search.solve = noted
from guesswork.builder.cli import run
sys.exit(run(sys.argv[1:]))
"""


def timed(command: list[str]) -> tuple[float, float | None, float]:
    """Run ``command``; return (seconds to exit, seconds to the first set or None, peak MB)."""
    started = time.monotonic()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    ended = time.monotonic()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command[:4])} ... failed:\n{errors[-1500:]}")
    first = None
    for line in errors.splitlines():
        if line.startswith("first-set "):
            first = float(line.split()[1]) - started
    return ended - started, first, usage.ru_maxrss / 1024


def spread(values: list[float]) -> str:
    """Return min / median / max in milliseconds."""
    marks = (min(values), statistics.median(values), max(values))
    return " / ".join(f"{v * 1000:6.0f}" for v in marks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run")
    args = parser.parse_args()
    python = args.python
    ours = [python, "-c", CHILD, *ARGUMENTS]
    subprocess.run(ours, check=True, capture_output=True)  # warm: matrix cache, bytecode
    rows: dict[str, list[tuple[float, float | None, float]]] = {
        "python -c pass": [],
        "python -c 'import numpy'": [],
        "optimize, SALET fixed": [],
    }
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import numpy'": [python, "-c", "import numpy"],
        "optimize, SALET fixed": ours,
    }
    for _ in range(args.runs):  # alternately, so that drift affects every row alike
        for label, command in commands.items():
            rows[label].append(timed(command))
    print(f"{args.runs} runs each, alternately; {python}; milliseconds as min / median / max")
    numpy_floor = statistics.median(run[0] for run in rows["python -c 'import numpy'"])
    for label, runs in rows.items():
        peak = max(run[2] for run in runs)
        print(f"  {label:<26} exit {spread([r[0] for r in runs])}   peak {peak:4.0f} MB")
    firsts = [r[1] for r in rows["optimize, SALET fixed"] if r[1] is not None]
    if firsts:
        first = statistics.median(firsts)
        print(f"  {'to the first expanded set':<26}      {spread(firsts)}")
        print(
            f"  first set after {first * 1000:.0f} ms: {first / numpy_floor:.1f}x a bare "
            f"'import numpy' ({numpy_floor * 1000:.0f} ms) in this run"
        )


if __name__ == "__main__":
    main()
