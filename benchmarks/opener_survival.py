"""How big is the global normal-mode Wordle proof? Openers that survive the cheap bounds.

For the 2315 answers and 12972 guesses (normal mode, least total guesses),
every opener gets two cheap lower bounds before any search: its *static*
bound (from its partition alone) and its *one-level* bound (each class's
least static bound over every second guess, largest class first, stopped as
soon as the sum reaches the budget). An opener *survives* when its bound is
below 7920, SALET's proven total (the published optimum): only survivors need
a real search to prove SALET best. The script prints how many survive each
bound, then times the exact search of a sample of survivors against that
budget (refutation or value, one process) and projects the whole proof's time
on one core and on 16 (ideal division; the survivors are independent units).

Usage: python benchmarks/opener_survival.py [--sample N] [--limit OPENERS]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-bench-"))

import numpy as np

from guesswork.builder.optimal.problem import NO_CAP, SearchOptions, make_problem
from guesswork.builder.optimal.search import Search
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import Wordle

BUDGET = 7920


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=5, help="survivors to search exactly")
    parser.add_argument("--limit", type=int, default=0, help="only the first N openers (0: all)")
    args = parser.parse_args()
    game = Wordle()
    answers = load_wordlist("wordle-answers-2315", game)
    problem, vocabulary = make_problem(game, answers, load_wordlist("wordle-guesses-12972", game))
    search = Search(problem, SearchOptions())
    everything = np.arange(problem.n_targets, dtype=np.int64)
    started = time.perf_counter()
    root = search.scan(everything, NO_CAP, ())
    openers = root.guesses[: args.limit or None]
    static = root.bounds[: len(openers)]
    scanned = time.perf_counter() - started
    print(f"{len(root.guesses)} openers split the 2315 answers; root scan {scanned:.2f} s")
    print(f"static bound below {BUDGET}: {int((static < BUDGET).sum())} of {len(openers)}")
    survivors: list[tuple[int, int]] = []
    started = time.perf_counter()
    for done, (guess, bound) in enumerate(zip(openers.tolist(), static.tolist(), strict=True), 1):
        if bound < BUDGET:
            _, _, bounds = search.class_bounds(guess, everything, BUDGET, NO_CAP - 1, (guess,))
            level = search.values.combine(everything, bounds)
            if level < BUDGET:
                survivors.append((level, guess))
        if done % 1000 == 0:
            print(
                f"  {done} openers bounded, {len(survivors)} survive, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    bounding = time.perf_counter() - started
    survivors.sort()
    print(
        f"one-level bound below {BUDGET}: {len(survivors)} of {len(openers)} survive "
        f"({bounding:.0f} s on one core)"
    )
    print(
        "best one-level bounds:", ", ".join(f"{vocabulary.words[g]} {b}" for b, g in survivors[:10])
    )
    if not survivors or not args.sample:
        return
    rng = np.random.default_rng(0)
    picked = sorted(rng.choice(len(survivors), min(args.sample, len(survivors)), replace=False))
    times = []
    for index in picked:
        bound, guess = survivors[int(index)]
        before = search.stats.expanded
        started = time.perf_counter()
        value = search._evaluate(guess, everything, BUDGET, NO_CAP, ())
        seconds = time.perf_counter() - started
        times.append(seconds)
        outcome = f"value {value}" if value < BUDGET else f"refuted (bound {value})"
        print(
            f"  {vocabulary.words[guess]}: one-level {bound}, {outcome}, {seconds:.1f} s, "
            f"{search.stats.expanded - before} sets expanded"
        )
    mean = float(np.mean(times))
    total = mean * len(survivors) + bounding
    print(
        f"projected global proof: {len(survivors)} survivors x {mean:.1f} s + bounding "
        f"{bounding:.0f} s = {total / 3600:.1f} h on one core, {total / 16 / 3600:.2f} h on 16 "
        "(ideal division; ignores the memo one process shares between openers)"
    )


if __name__ == "__main__":
    main()
