"""Benchmark: optimal and lookahead search against the greedy tree (issue #6).

For the 2315 and 2309 answer lists with the 12972-word guess list (normal
mode), prints the total guesses (sum over answers; mean = total / n) and wall
time of:

* the greedy ``neg_entropy`` tree (the catalog's, the same-run baseline);
* the lookahead with K = 1, 2, 4, 8, 16, with the first guess fixed to SALET
  and with the first guess chosen by the search (the K best by the greedy
  ranking, each searched);
* the exact optimum with the first guess fixed to SALET (a proof).

Each optimised row shows its total against the greedy tree's and its time
as a multiple of the greedy build's. Then Mastermind 6x4: the exact minimum
total (5625 published), the same with at most five guesses (5626) and the
minimax (5 published) proofs, each as a multiple of the seed's greedy
algorithm's time on Mastermind in the same run (benchmarks/seed_baseline.py).

Times are wall clock on one process (``--workers`` to change), kernels warm,
reply matrices cached; "search" excludes building the flat tree and its
certificate, "total time" includes them. Targets (issue #6, 2-core machine):
exact fixed-first-guess optimum under 10 s, K=8 lookahead under 2 s,
Mastermind proof under 60 s.

Finally the exact hard-mode optimum over every first guess for each list
(about 80 s each), which picked the catalog's hard-mode opener.

First, the search-speed table (issue "Search speed"): the exact SALET
proof, the Mastermind total proof, the hard-mode proof over every opener,
the K=8 lookahead, the cold reply matrix, and strong openers refuted against
7920 (the core-seconds a global proof spends on each), each with its sets
expanded and its time as a multiple of the greedy tree's in the same run.

Usage: python benchmarks/bench_optimal.py [--lists 2315,2309] [--beams 1,2,4,8,16]
       [--skip-free] [--skip-mastermind] [--skip-hard] [--workers N] [--table-only]
       [--mastermind-only]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-bench-"))

import itertools
from collections.abc import Callable

import numpy as np
import seed_baseline

from guesswork.builder.matrices import compute_reply_matrix
from guesswork.builder.optimal.problem import NO_CAP, SearchOptions, make_problem
from guesswork.builder.optimal.search import Search
from guesswork.builder.policies import (
    OptimalSpec,
    PolicySpec,
    build_optimal_policy,
    build_policy,
)
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle


def row(label: str, total: int, count: int, seconds: float, search: float, extra: str) -> None:
    print(
        f"  {label:<34} total {total:>5} (mean {total / count:.4f})  "
        f"{seconds:7.2f} s  (search {search:6.2f} s)  {extra}"
    )


def bench_list(answers: str, beams: list[int], free: bool, workers: int) -> None:
    """Print the rows for one answer list."""
    greedy_spec = PolicySpec(
        "wordle", targets=f"wordle-answers-{answers}", guesses="wordle-guesses-12972"
    )
    build_policy(greedy_spec)  # warm: reply matrix and kernels
    started = time.perf_counter()
    greedy = build_policy(greedy_spec)
    greedy_seconds = time.perf_counter() - started
    scores = greedy.tree.target_scores
    base_total, count = int(scores.sum()), len(scores)
    print(f"\nWordle, {answers} answers, 12972 guesses, normal mode")
    row(
        "greedy neg_entropy (baseline)",
        base_total,
        count,
        greedy_seconds,
        greedy.seconds,
        f"first guess {greedy.tree.first_guess}, worst {int(scores.max())}",
    )

    def run(label: str, spec: OptimalSpec) -> None:
        started = time.perf_counter()
        built, result = build_optimal_policy(spec, workers=workers)
        seconds = time.perf_counter() - started
        cert = result.certificate
        total = int(built.tree.target_scores.sum())
        gap = cert.value - cert.lower_bound
        proof = "proven" if cert.proven else f"bound {cert.lower_bound} (gap {gap})"
        worst = int(built.tree.target_scores.max())
        row(
            label,
            total,
            count,
            seconds,
            result.outcome.seconds,
            f"{total - base_total:+d} vs greedy, {seconds / greedy_seconds:6.1f}x its time; "
            f"first {built.tree.first_guess}, worst {worst}, {proof}",
        )

    common = {"targets": f"wordle-answers-{answers}", "guesses": "wordle-guesses-12972"}
    for beam in beams:
        spec = OptimalSpec(first_guess="SALET", beam=beam, **common)
        run(f"lookahead K={beam}, first SALET", spec)
    if free:
        for beam in beams:
            run(f"lookahead K={beam}, first searched", OptimalSpec(beam=beam, **common))
    run("exact, first SALET", OptimalSpec(first_guess="SALET", **common))


def bench_hard(answers: str, workers: int) -> None:
    """Print the exact hard-mode optimum over every first guess (the catalog's opener)."""
    spec = OptimalSpec("wordle", targets=f"wordle-answers-{answers}", mode="hard")
    greedy = build_policy(PolicySpec("wordle", targets=f"wordle-answers-{answers}", mode="hard"))
    base = int(greedy.tree.target_scores.sum())
    started = time.perf_counter()
    built, result = build_optimal_policy(spec, workers=workers)
    seconds = time.perf_counter() - started
    scores = built.tree.target_scores
    print(
        f"\nWordle, {answers} answers, hard mode, exact over every first guess: "
        f"{built.tree.first_guess} total {int(scores.sum())} (mean {scores.mean():.4f}), "
        f"worst {int(scores.max())}, proven {result.certificate.proven}; {seconds:.1f} s "
        f"(greedy neg_entropy: {greedy.tree.first_guess} {base}, {greedy.seconds:.2f} s)"
    )


def bench_mastermind(workers: int) -> None:
    """Print the Mastermind 6x4 proofs, against the seed's greedy algorithm's tree."""
    codes = ["".join(code) for code in itertools.product("ABCDEF", repeat=4)]
    started = time.perf_counter()
    seed_tree = seed_baseline.minimizing_tree(
        seed_baseline.mastermind_reply_for,
        seed_baseline.SEED_METRICS["neg_entropy"],
        codes,
        codes,
        inconsistent=True,
    )
    seed = time.perf_counter() - started
    seed_total = sum(seed_baseline.tree_scores(seed_tree))
    print(
        "\nMastermind, 6 colours x 4 pegs (1296 codes), first guess searched; baseline: "
        f"the seed's greedy algorithm (neg_entropy, pure Python), total {seed_total}, "
        f"{seed:.2f} s in this run"
    )
    published_values = {
        ("minimax", None): "5 (Knuth 1976)",
        ("total", None): "5625 (Koyama and Lai 1993)",
        ("total", 5): "5626 with at most 5 guesses (Koyama and Lai 1993)",
    }
    for (objective, cap), published in published_values.items():
        spec = OptimalSpec("mastermind", length=4, colours=6, objective=objective, max_guesses=cap)
        started = time.perf_counter()
        built, result = build_optimal_policy(spec, workers=workers)
        seconds = time.perf_counter() - started
        scores = built.tree.target_scores
        label = objective if cap is None else f"{objective}, at most {cap}"
        print(
            f"  {label:<18} value {result.certificate.value:>5} (published {published}); "
            f"proven {result.certificate.proven}; total {int(scores.sum())}, "
            f"worst {int(scores.max())}; first {built.tree.first_guess}; "
            f"{seconds:.2f} s (search {result.outcome.seconds:.2f} s), "
            f"{seed / seconds:.1f}x the seed's greedy"
        )


STRONG_OPENERS = ("REAST", "CRATE", "TRACE", "SLATE")


def bench_table(workers: int) -> None:
    """Print the rows of the search-speed table (issue "Search speed"): each with its
    time, sets expanded, and the greedy tree's time in the same run as the baseline."""
    common = {"targets": "wordle-answers-2315", "guesses": "wordle-guesses-12972"}
    greedy_spec = PolicySpec("wordle", **common)
    build_policy(greedy_spec)  # warm: reply matrix and kernels
    started = time.perf_counter()
    build_policy(greedy_spec)
    greedy = time.perf_counter() - started
    print(
        f"\nSearch-speed table (2 cores here; workers {workers}); baseline: the greedy "
        f"neg_entropy tree for 2315/12972, {greedy:.2f} s in this run"
    )

    def line(label: str, seconds: float, expanded: int | str, extra: str = "") -> None:
        print(
            f"  {label:<44} {seconds:8.2f} s  {expanded!s:>8} sets  "
            f"{seconds / greedy:6.1f}x greedy  {extra}"
        )

    def optimal(label: str, spec: OptimalSpec) -> None:
        started = time.perf_counter()
        _, result = build_optimal_policy(spec, workers=workers)
        seconds = time.perf_counter() - started
        value = result.certificate.value
        line(
            label,
            seconds,
            result.outcome.stats.expanded,
            f"value {value}, proven {result.certificate.proven}, "
            f"search {result.outcome.seconds:.2f} s",
        )

    optimal("exact, opener SALET fixed, 2315/12972", OptimalSpec(first_guess="SALET", **common))
    optimal("Mastermind 6x4 total proof", OptimalSpec("mastermind", length=4, colours=6))
    optimal(
        "hard mode (seed rule), every opener, 2315",
        OptimalSpec("wordle", targets="wordle-answers-2315", mode="hard"),
    )
    optimal("lookahead K=8, opener SALET fixed", OptimalSpec(first_guess="SALET", beam=8, **common))
    game = Wordle()
    guesses = load_wordlist("wordle-guesses-12972", game)
    answers = load_wordlist("wordle-answers-2315", game)
    compute_reply_matrix(game, WordList.from_words("w", guesses.words[:10]), answers)  # compile
    cold = min(_timed(lambda: compute_reply_matrix(game, guesses, answers)) for _ in range(3))
    line("reply matrix 12972 x 2315, cold (best of 3)", cold, "-")
    problem, vocabulary = make_problem(game, answers, guesses)
    search = Search(problem, SearchOptions())
    everything = np.arange(problem.n_targets, dtype=np.int64)
    for word in STRONG_OPENERS:
        guess = vocabulary.words.index(word)
        before = search.stats.expanded
        started = time.perf_counter()
        value = search._evaluate(guess, everything, 7920, NO_CAP, ())
        seconds = time.perf_counter() - started
        outcome = f"refuted, bound {value}" if value >= 7920 else f"value {value}"
        line(
            f"strong opener {word} against budget 7920 (core-s)",
            seconds,
            search.stats.expanded - before,
            outcome,
        )


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", default="2315,2309")
    parser.add_argument("--beams", default="1,2,4,8,16")
    parser.add_argument("--skip-free", action="store_true", help="no searched-first-guess rows")
    parser.add_argument("--skip-mastermind", action="store_true")
    parser.add_argument("--skip-hard", action="store_true", help="no hard-mode exact searches")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--table-only", action="store_true", help="only the search-speed table")
    parser.add_argument("--mastermind-only", action="store_true", help="only the Mastermind proofs")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, workers: {args.workers}")
    if args.mastermind_only:
        bench_mastermind(args.workers)
        return
    bench_table(args.workers)
    if args.table_only:
        return
    beams = [int(b) for b in args.beams.split(",") if b]
    for answers in args.lists.split(","):
        bench_list(answers, beams, not args.skip_free, args.workers)
    if not args.skip_mastermind:
        bench_mastermind(args.workers)
    if not args.skip_hard:
        for answers in args.lists.split(","):
            bench_hard(answers, args.workers)


if __name__ == "__main__":
    main()
