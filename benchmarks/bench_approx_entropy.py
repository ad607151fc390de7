"""Benchmark: the Wordle-player seed's approx_entropy against exact neg_entropy.

For enable1 words of each length (default 5, 8 and 11; normal mode, the
guesses being the targets, the default window 4:125), builds the greedy tree
with ``neg_entropy`` and with ``approx_entropy`` (exact entropy only for the
best 3% of the candidates by the per-position letter-entropy estimate) in the
same run, on the same reply matrix, and prints the tree search time, the time
to rank every node's stored alternatives (the rest of a policy build), the
mean and worst guesses, and the ratios. Both are timed warm (kernels
compiled, matrix in memory); the one-off reply-matrix computation, shared by
both, is reported on its own line.

Usage: python benchmarks/bench_approx_entropy.py [--retry-percent A] [LENGTH ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-bench-"))

from guesswork.builder.alternatives import node_alternatives
from guesswork.builder.evaluate import score_stats
from guesswork.builder.greedy import step_of
from guesswork.builder.greedy_tree import (
    build_greedy_tree,
    warm_up,
)
from guesswork.builder.matrices import reply_matrix
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.lookup import MAX_ALTERNATIVES
from guesswork.client.strategy import GreedyStrategy


@dataclass(frozen=True)
class Row:
    """One tree's figures: seconds to grow it and to rank its alternatives, its scores."""

    tree: float
    alternatives: float
    mean: float
    worst: int
    first: str

    @property
    def total(self) -> float:
        """Return the seconds a policy build spends on search: tree and alternatives."""
        return self.tree + self.alternatives


def measure(length: int, metric: str, retry_percent: float) -> Row:
    """Build one tree and its alternatives; return the figures of one table row."""
    game = Wordle(length)
    words = load_wordlist("enable1", game)
    strategy = GreedyStrategy(
        metric=metric, retry_percent=retry_percent if metric == "approx_entropy" else None
    )
    step = step_of(strategy, len(words), game)
    started = time.perf_counter()
    tree = build_greedy_tree(game, words, words, step.options)
    grown = time.perf_counter()
    node_alternatives(tree, step, MAX_ALTERNATIVES)
    ranked = time.perf_counter()
    stats = score_stats(tree.target_scores)
    return Row(grown - started, ranked - grown, stats.mean, stats.worst, tree.first_guess)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lengths", nargs="*", type=int, default=[5, 8, 11])
    parser.add_argument("--retry-percent", type=float, default=3.0)
    args = parser.parse_args()
    print(
        f"approx_entropy retries {args.retry_percent:g}% of the candidates; "
        f"enable1, normal mode, guesses = targets, window 4:125"
    )
    header = (
        f"{'k':>3} {'words':>6}  {'metric':<15} {'tree s':>8} {'alts s':>8} {'total s':>8} "
        f"{'mean':>7} {'worst':>5}  first"
    )
    ratios = []
    for length in args.lengths:
        game = Wordle(length)
        words = load_wordlist("enable1", game)
        warm_up(game)
        started = time.perf_counter()
        reply_matrix(game, words, words)
        print(
            f"\nk={length}: {len(words):,} words; reply matrix "
            f"{time.perf_counter() - started:.1f} s (shared, not counted below)"
        )
        print(header)
        rows = {}
        for metric in ("neg_entropy", "approx_entropy"):
            row = rows[metric] = measure(length, metric, args.retry_percent)
            print(
                f"{length:>3} {len(words):>6}  {metric:<15} {row.tree:>8.2f} "
                f"{row.alternatives:>8.2f} {row.total:>8.2f} {row.mean:>7.4f} "
                f"{row.worst:>5}  {row.first}"
            )
        exact, approx = rows["neg_entropy"], rows["approx_entropy"]
        ratio = (
            length,
            exact.tree / approx.tree,
            exact.total / approx.total,
            approx.mean - exact.mean,
        )
        ratios.append(ratio)
        print(
            f"    neg_entropy / approx_entropy time: tree {ratio[1]:.2f}x, "
            f"policy {ratio[2]:.2f}x; mean guesses {ratio[3]:+.4f}"
        )
    print("\nsummary (neg_entropy time / approx_entropy time, approx mean - exact mean):")
    for length, tree_ratio, total_ratio, extra in ratios:
        print(
            f"  k={length:<3} tree {tree_ratio:6.2f}x  policy {total_ratio:6.2f}x  "
            f"mean {extra:+.4f}"
        )


if __name__ == "__main__":
    main()
