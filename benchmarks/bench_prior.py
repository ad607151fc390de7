"""Benchmark: trees built for a prior against trees that take every target alike,
on secrets drawn by the prior.

Each row draws ``DRAWS`` secrets (a fixed seed) from a target list with
probabilities proportional to the shipped prior ``wordfreq`` (builder.priors)
and plays every draw through two trees over the same lists: the weighted one
and the uniform one (the same strategy without weights), both built in this
run. It prints each tree's mean guesses over the draws, their exact expected
guesses under the prior, and the weighted tree's gain; the uniform tree is the
same-run baseline. The draw's mean estimates the exact expectation (its
standard error is printed too).

Usage: python benchmarks/bench_prior.py [--draws N] [--optimal]
(``--optimal`` adds the exact searches given SALET over today's answers:
about a minute each on one core).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from guesswork.builder.any_spec import build_any
from guesswork.builder.policies import BuiltPolicy, OptimalSpec, PolicySpec
from guesswork.builder.priors import shipped_prior, weights_for

DRAWS = 200_000
SEED = 2026


def _built(spec: PolicySpec | OptimalSpec) -> tuple[BuiltPolicy, float]:
    started = time.perf_counter()
    built = build_any(spec)
    return built, time.perf_counter() - started


def compare(
    label: str, weighted: PolicySpec | OptimalSpec, uniform: PolicySpec | OptimalSpec, draws: int
) -> None:
    """Build both trees, draw secrets by the prior and print the figures."""
    (with_prior, seconds_weighted), (plain, seconds_plain) = _built(weighted), _built(uniform)
    targets = with_prior.tree.targets.words
    assert targets == plain.tree.targets.words
    weights = weights_for(shipped_prior("wordfreq"), targets, with_prior.tree.targets.name)
    chances = weights / weights.sum()
    drawn = np.random.default_rng(SEED).choice(len(targets), size=draws, p=chances)
    rows = []
    for name, built in (("weighted", with_prior), ("uniform", plain)):
        scores = built.tree.target_scores.astype(np.float64)
        played = scores[drawn]
        rows.append(
            (
                name,
                built.data.name,
                played.mean(),
                played.std(ddof=1) / np.sqrt(draws),
                float(scores @ chances),
                float(scores.mean()),
                int(scores.max()),
            )
        )
    print(f"{label}: {len(targets):,} targets, {draws:,} secrets drawn by the prior (seed {SEED})")
    for name, policy, drawn_mean, error, expected, flat, worst in rows:
        print(
            f"  {name:<9} {policy:<58} drawn mean {drawn_mean:.4f} ± {error:.4f}  "
            f"expected {expected:.4f}  uniform mean {flat:.4f}  worst {worst}"
        )
    gain = rows[1][2] - rows[0][2]
    print(
        f"  weighted beats uniform on the draw by {gain:.4f} guesses per game "
        f"({rows[0][2] / rows[1][2]:.4f}x the baseline's mean); expected gain "
        f"{rows[1][4] - rows[0][4]:.4f}; built in {seconds_weighted:.1f} s and "
        f"{seconds_plain:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=DRAWS)
    parser.add_argument("--optimal", action="store_true")
    args = parser.parse_args()
    today = {"targets": "wordle-answers-3158", "guesses": "wordle-guesses-14855"}
    compare(
        "today's answers, greedy neg_entropy",
        PolicySpec("wordle", weights="wordfreq", **today),
        PolicySpec("wordle", **today),
        args.draws,
    )
    compare(
        "every allowed word a secret, greedy neg_entropy",
        PolicySpec("wordle", targets="wordle-guesses-14855", weights="wordfreq"),
        PolicySpec("wordle", targets="wordle-guesses-14855"),
        args.draws,
    )
    if args.optimal:
        compare(
            "today's answers, exact search given SALET",
            OptimalSpec("wordle", first_guess="SALET", weights="wordfreq", **today),
            OptimalSpec("wordle", first_guess="SALET", **today),
            args.draws,
        )


if __name__ == "__main__":
    main()
