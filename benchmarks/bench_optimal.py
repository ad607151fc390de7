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
minimax (5 published) proofs.

Times are wall clock on one process (``--workers`` to change), kernels warm,
reply matrices cached; "search" excludes building the flat tree and its
certificate, "total time" includes them. Targets (issue #6, 2-core machine):
exact fixed-first-guess optimum under 10 s, K=8 lookahead under 2 s,
Mastermind proof under 60 s.

Finally the exact hard-mode optimum over every first guess for each list
(about 80 s each), which picked the catalog's hard-mode opener.

Usage: python benchmarks/bench_optimal.py [--lists 2315,2309] [--beams 1,2,4,8,16]
       [--skip-free] [--skip-mastermind] [--skip-hard] [--workers N]
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

from guesswork.builder.policies import OptimalSpec, PolicySpec, build_optimal_policy, build_policy


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
    row("greedy neg_entropy (baseline)", base_total, count, greedy_seconds, greedy.seconds,
        f"first guess {greedy.tree.first_guess}, worst {int(scores.max())}")  # fmt: skip

    def run(label: str, spec: OptimalSpec) -> None:
        started = time.perf_counter()
        built, result = build_optimal_policy(spec, workers=workers)
        seconds = time.perf_counter() - started
        cert = result.certificate
        total = int(built.tree.target_scores.sum())
        gap = cert.value - cert.lower_bound
        proof = "proven" if cert.proven else f"bound {cert.lower_bound} (gap {gap})"
        worst = int(built.tree.target_scores.max())
        row(label, total, count, seconds, result.outcome.seconds,
            f"{total - base_total:+d} vs greedy, {seconds / greedy_seconds:6.1f}x its time; "
            f"first {built.tree.first_guess}, worst {worst}, {proof}")  # fmt: skip

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
    """Print the Mastermind 6x4 proofs."""
    print("\nMastermind, 6 colours x 4 pegs (1296 codes), first guess searched")
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
            f"{seconds:.2f} s (search {result.outcome.seconds:.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", default="2315,2309")
    parser.add_argument("--beams", default="1,2,4,8,16")
    parser.add_argument("--skip-free", action="store_true", help="no searched-first-guess rows")
    parser.add_argument("--skip-mastermind", action="store_true")
    parser.add_argument("--skip-hard", action="store_true", help="no hard-mode exact searches")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, workers: {args.workers}")
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
