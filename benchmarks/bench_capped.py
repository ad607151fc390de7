"""Benchmark: the tie-break's capped search (issue #25).

A shipped global optimum's worst case is proven least for its total by a
search capped at one guess fewer, below the total + 1, that must refute every
opener (builder/optimal/tie_break.py). Two things make that quick:

* each opener is first searched without the cap (``RootSearch._uncapped_refutation``):
  a tree within the cap is a tree, and nearly every opener's uncapped tree
  reaches the total + 1, which the uncapped search proves far faster;
* within the cap, a set with one guess left after the current one (every class
  a single target: its least bound is ``2n - 1``, ``2n`` or infeasible) is bounded
  from each guess's count of distinct replies (``Search.singletons_bound``)
  instead of a scan of every guess's classes.

For each opener below, this refutes it within five guesses below the shipped
optimum + 1, each in a fresh search (the core-seconds a proof spends on it):
as shipped; without the uncapped refutation (the capped search with the count);
and, the same-run baseline, with neither (the search before both). Prints each
time, sets expanded and each as a multiple of the baseline. A baseline run past
``--limit`` seconds is stopped and shown as more than that.

Usage: python benchmarks/bench_capped.py [--openers PRASE,SLICE] [--hard-openers REACT]
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
    """Without the count: every guess's classes scanned (as before it)."""
    return -1


def _no_refutation(self: RootSearch, guess: int, everything: np.ndarray, best: int) -> None:
    """Without the uncapped refutation: every opener searched within the cap."""
    return None


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
        value, exact = root.evaluate_root(
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
    counted, uncapped = Search.singletons_bound, RootSearch._uncapped_refutation
    for word in openers:
        shipped = refute(problem, options, words, word, limit)
        RootSearch._uncapped_refutation = _no_refutation  # type: ignore[method-assign]
        try:
            capped = refute(problem, options, words, word, limit)
            Search.singletons_bound = _scan_always  # type: ignore[method-assign]
            before = refute(problem, options, words, word, limit)
        finally:
            Search.singletons_bound = counted  # type: ignore[method-assign]
            RootSearch._uncapped_refutation = uncapped  # type: ignore[method-assign]
        more = ">" if before[2].startswith("stopped") else ""
        print(
            f"  {word}: baseline (neither) {more}{before[0]:.1f} s, {before[1]} sets, {before[2]}"
        )
        for label, (seconds, expanded, outcome) in (
            ("as shipped", shipped),
            ("without the uncapped refutation", capped),
        ):
            print(
                f"    {label:<32} {seconds:7.1f} s {expanded:>7} sets  {outcome:<24}"
                f" {more}{before[0] / seconds:.1f}x faster"
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
