"""Benchmark: greedy tree building against the seeds' pure-Python algorithm.

Prints, for each of the six 2309-word Wordle trees and the six 1391-word Jotto
trees, our build time, the time of a straightforward pure-Python version of
the seed's algorithm measured in the same run (benchmarks/seed_baseline.py),
and the ratio. The baseline is given its best case: each tree is built twice
and the second, with every reply it needs already memoised, is timed. Ours is
timed warm too (kernels compiled, reply matrix cached in memory), and the
one-off reply-matrix computation is reported on its own line.

Then the 5756-word sgb Wordle tree (the seed needed 10 minutes; too slow to
rerun here, so that figure is quoted, not measured) and the 12972 x 2315
reply matrix (the pure-Python rate is measured on a sample of rows).

With ``--long-words``, also the two reply-matrix steps of the 8-letter enable1
build (28,420 x 28,420 words, a 1.6 GB matrix; one to two minutes, 3.5 GB of
memory at most) against the numpy copies they replaced, in the same run: the
target-major copy the alternatives read (tiled, against
``np.ascontiguousarray(matrix.T)``), and a cached matrix read back and
checked (mapped, against read into a copy). The whole 8-letter build (about a
minute more) has no same-run baseline here: the seed's pure Python would take
hours; ``guesswork-build build --targets enable1 --length 8`` times it.

Usage: python benchmarks/bench_greedy.py [--skip-baseline] [--long-words]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-bench-"))

import seed_baseline

from guesswork.builder.greedy import GreedyOptions
from guesswork.builder.greedy_tree import build_greedy_tree
from guesswork.builder.matrices import compute_reply_matrix, reply_matrix
from guesswork.builder.metrics import SEED_2020
from guesswork.builder.wordlists import WordList, guess_vocabulary, jotto_allowable, load_wordlist
from guesswork.client.games import Game, Jotto, Wordle

METRICS = ("max", "expectation", "neg_entropy")


def best_of(repeats: int, action: Callable[[], object]) -> tuple[float, object]:
    """Return the fastest of ``repeats`` timings of ``action`` and its last result."""
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return min(times), result


def bench_table(
    label: str, game: Game, words: WordList, reply_for: Callable, skip_baseline: bool
) -> list[float]:
    """Time the six trees of one seed table; return the speed-up ratios."""
    matrix_seconds, _ = best_of(3, lambda: compute_reply_matrix(game, words, words))
    reply_matrix(game, words, words)
    print(f"\n{label}: {len(words)} words; reply matrix computed once in {matrix_seconds:.3f} s")
    print(f"{'tree':<24}{'ours':>10}{'seed (pure Python)':>20}{'ratio':>9}  mean / first guess")
    ratios = []
    for hard in (True, False):
        for metric in METRICS:
            options = GreedyOptions(metric=metric, hard=hard)
            build_greedy_tree(game, words, words, options)  # compile / warm up
            ours, tree = best_of(3, lambda o=options: build_greedy_tree(game, words, words, o))
            mean = float(tree.target_scores.mean())
            name = f"{'hard' if hard else 'normal'} {metric}"
            if skip_baseline:
                row = f"{name:<24}{ours * 1e3:>8.1f}ms{'-':>20}{'-':>9}"
                print(f"{row}  {mean:.2f} {tree.first_guess}")
                continue

            def baseline(m: str = metric, h: bool = hard) -> object:
                return seed_baseline.minimizing_tree(
                    reply_for,
                    seed_baseline.SEED_METRICS[m],
                    list(words.words),
                    list(words.words),
                    inconsistent=not h,
                )

            baseline()  # fill the memo: the baseline's best case
            seed_seconds, seed_tree = best_of(1, baseline)
            seed_mean = statistics.fmean(seed_baseline.tree_scores(seed_tree))
            same = seed_tree.guess == tree.first_guess and abs(seed_mean - mean) < 1e-12
            ratio = seed_seconds / ours
            ratios.append(ratio)
            print(
                f"{name:<24}{ours * 1e3:>8.1f}ms{seed_seconds:>19.2f}s{ratio:>8.0f}x  "
                f"{mean:.2f} {tree.first_guess}{'' if same else '  (TREES DIFFER!)'}"
            )
    return ratios


def bench_sgb() -> None:
    """Time the 5756-word sgb Wordle tree from cold (matrix included)."""
    game = Wordle()
    sgb = load_wordlist("sgb-words", game)
    options = GreedyOptions(metric="neg_entropy", window=(4, None), arithmetic=SEED_2020)
    build_greedy_tree(game, WordList.from_words("w", sgb.words[:50]), sgb, options)  # compile
    started = time.perf_counter()
    tree = build_greedy_tree(game, sgb, sgb, options)
    seconds = time.perf_counter() - started
    scores = tree.target_scores
    print(
        f"\nsgb Wordle, 5756 words, normal neg_entropy, window 4: — {seconds:.2f} s from cold "
        f"(reply matrix included); mean {scores.mean():.2f}, worst {scores.max()}. "
        f"Seed notebook: 10 min (quoted, not rerun) = {600 / seconds:.0f}x"
    )


def bench_full_matrix() -> None:
    """Time the 12972 x 2315 Wordle matrix against the pure-Python rule's rate."""
    game = Wordle()
    guesses = load_wordlist("wordle-guesses-12972", game)
    answers = load_wordlist("wordle-answers-2315", game)
    compute_reply_matrix(game, WordList.from_words("w", guesses.words[:10]), answers)  # warm-up
    ours, _ = best_of(3, lambda: compute_reply_matrix(game, guesses, answers))
    sample = guesses.words[::130]
    started = time.perf_counter()
    for guess in sample:
        for target in answers.words:
            seed_baseline.wordle_reply_for.__wrapped__(guess, target)
    per_pair = (time.perf_counter() - started) / (len(sample) * len(answers))
    python_total = per_pair * len(guesses) * len(answers)
    print(
        f"\nreply matrix 12972 x 2315: {ours:.3f} s; pure-Python seed reply_for "
        f"{per_pair * 1e6:.2f} us/pair, {python_total:.0f} s for all "
        f"(measured on {len(sample)} rows) = {python_total / ours:.0f}x"
    )


def bench_long_words() -> None:
    """Time the 8-letter enable1 build's matrix steps against their old numpy copies."""
    import numpy as np

    from guesswork.builder import matrices, matrix_cache
    from guesswork.builder.policies import PolicySpec

    spec = PolicySpec(targets="enable1", length=8)
    game = spec.check()
    targets, guesses = spec.lists(game)
    words, _ = guess_vocabulary(targets, guesses)
    started = time.perf_counter()
    matrix = reply_matrix(game, words, targets)  # computed and cached: a first build's step
    gib = matrix.nbytes / 2**30
    print(f"\nenable1, 8 letters: {len(targets):,} words; reply matrix {gib:.2f} GiB")
    print(f"  computed and cached in {time.perf_counter() - started:.1f} s")
    # One 1.6 GB copy at a time: each is compared with the other by its CRC.
    tiled, flipped = best_of(1, lambda m=matrix: matrices.transposed(m))
    crc = zlib.crc32(flipped.data)
    del flipped
    naive, copied = best_of(1, lambda m=matrix: np.ascontiguousarray(m.T))
    same = zlib.crc32(copied.data) == crc
    del copied
    print(
        f"  target-major copy: tiled {tiled:.1f} s, np.ascontiguousarray(m.T) {naive:.1f} s "
        f"= {naive / tiled:.1f}x{'' if same else '  (COPIES DIFFER!)'}"
    )
    key = matrices._cache_key(game, words, targets, False)
    (path,) = matrix_cache.cache_dir().glob(f"{key}-*")
    mapped, hit = best_of(1, lambda s=matrix.shape: matrix_cache._read_checked(path, s, np.uint16))
    del hit
    read, _ = best_of(1, lambda: _read_copy(path))
    print(
        f"  cached read, CRC checked: mapped {mapped:.1f} s, copied {read:.1f} s "
        f"= {read / mapped:.1f}x"
    )


def _read_copy(path: Path) -> object:
    """Read a cached matrix file into memory and check its CRC, as reads did before mapping."""
    import numpy as np

    matrix = np.load(path, allow_pickle=False)
    return zlib.crc32(matrix.data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-baseline", action="store_true", help="time only our builder")
    parser.add_argument(
        "--long-words", action="store_true", help="also the 8-letter enable1 matrix steps (1-2 min)"
    )
    args = parser.parse_args()
    wordle = Wordle()
    answers = load_wordlist("wordle-answers-2309", wordle)
    jotto_words = WordList.from_words("jotto-1391", jotto_allowable(answers.words))
    ratios = bench_table(
        "Wordle", wordle, answers, seed_baseline.wordle_reply_for, args.skip_baseline
    )
    ratios += bench_table(
        "Jotto", Jotto(), jotto_words, seed_baseline.jotto_reply_for, args.skip_baseline
    )
    if ratios:
        print(f"\nspeed-up over the seed algorithm: min {min(ratios):.0f}x, max {max(ratios):.0f}x")
    bench_sgb()
    bench_full_matrix()
    if args.long_words:
        bench_long_words()


if __name__ == "__main__":
    main()
