"""Benchmark: the tie-break's capped search, one guess from the cap (issue #25).

A shipped global optimum's worst case is proven least for its total by a
search capped at one guess fewer, below the total + 1, that must refute every
opener (builder/optimal/tie_break.py). Most of its time goes to sets with one
guess left after the current one, where every class must be a single target:
each such set's least bound is ``2n - 1``, ``2n`` or infeasible. The search
reads that from each guess's count of distinct replies (``SetValues.singletons_bound``)
instead of scanning every guess's classes.

For each opener below, this refutes it within five guesses below the shipped
optimum + 1 (each in a fresh search: the core-seconds a proof spends on it),
with the count and, as the same-run baseline, with every such set scanned
(the search before the count, ``SetValues.singletons_bound`` answering "scan"). Prints
each time, sets expanded and the ratio. A baseline run past ``--limit``
seconds is stopped and shown as more than that.

Usage: python benchmarks/bench_capped.py [--openers SLICE,PRASE] [--hard-openers REACT]
       [--limit 600]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-bench-"))

import numpy as np

from guesswork.builder.catalog_specs import GLOBAL_OPTIMAL_SPECS
from guesswork.builder.optimal import search as search_module
from guesswork.builder.optimal.problem import Problem, SearchOptions, make_problem
from guesswork.builder.optimal.root import RootSearch
from guesswork.builder.optimal.search import Search
from guesswork.client.catalog import open_catalog


class _OverLimitError(Exception):
    """Raised from the search's poll once a run has taken ``--limit`` seconds."""


def _scan_always(self: Search, guesses: np.ndarray, targets: np.ndarray, parent: object) -> int:
    """The baseline: no count, every guess's classes scanned (as before it)."""
    return -1


def refute(
    problem: Problem, options: SearchOptions, words: list[str], word: str, limit: float
) -> tuple[float, int, str]:
    """Return (seconds, sets expanded, outcome) of opener ``word`` in a fresh search."""
    search = Search(problem, options)
    root = RootSearch(problem, options, search=search, words=words)
    everything = np.arange(problem.n_targets, dtype=np.int64)
    started = time.perf_counter()

    def poll() -> None:
        if time.perf_counter() - started > limit:
            raise _OverLimitError

    search.poll = poll
    assert options.ceiling is not None
    try:
        value, exact = root._evaluate_root(
            words.index(word), everything, options.ceiling, options.root_depth
        )
    except _OverLimitError:
        return time.perf_counter() - started, search.stats.expanded, f"stopped at {limit:.0f} s"
    seconds = time.perf_counter() - started
    outcome = f"found {value}" if exact else f"refuted (bound {value})"
    return seconds, search.stats.expanded, outcome


def bench(name: str, openers: list[str], cap: int, limit: float) -> None:
    """Print each opener's rows for the shipped global optimum ``name``."""
    spec = next(s for s in GLOBAL_OPTIMAL_SPECS if s.name() == name)
    game = spec.check()
    targets, guesses = spec.lists(game)
    value = int(open_catalog().policy(name).data.certificate["value"])
    options = dataclasses.replace(
        spec.options(1), objective="total", max_guesses=cap, ceiling=value + 1
    )
    problem, vocabulary = make_problem(game, targets, guesses)
    words = list(vocabulary.words)
    print(f"\n{name}: within {cap} guesses, below {value + 1}")
    counted = Search.singletons_bound
    for word in openers:
        fast = refute(problem, options, words, word, limit)
        Search.singletons_bound = _scan_always  # type: ignore[method-assign]
        try:
            slow = refute(problem, options, words, word, limit)
        finally:
            Search.singletons_bound = counted  # type: ignore[method-assign]
        more = ">" if slow[2].startswith("stopped") else ""
        print(
            f"  {word:<6} count {fast[0]:7.1f} s {fast[1]:>7} sets {fast[2]:<22}"
            f" scan (baseline) {more}{slow[0]:7.1f} s {slow[1]:>7} sets {slow[2]:<22}"
            f" {more}{slow[0] / fast[0]:.1f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openers", default="PRASE,SLICE")
    parser.add_argument("--hard-openers", default="REACT")
    parser.add_argument("--limit", type=float, default=600.0)
    args = parser.parse_args()
    assert search_module.Search is Search
    bench("wordle-3158-g14855-normal-optimal", args.openers.split(","), 5, args.limit)
    if args.hard_openers:
        bench(
            "wordle-2315-g12972-nyt-hard-optimal-cap6",
            args.hard_openers.split(","),
            5,
            args.limit,
        )


if __name__ == "__main__":
    main()
