"""The compiled partition kernels (builder/_partitions.c) against plain Python.

Every float must be the plain-Python value bit for bit (the shipped trees break
near-ties by them), for every reply-code width (uint8, uint16, uint32
matrices), both readings of the matrix, weighted or not. References sum with
explicit loops, in the order builder.partitions documents, so they do not
depend on how a Python version implements ``sum``. Bad arguments raise; they
are never read out of bounds.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import threading
from collections import Counter
from typing import Any

import numpy as np
import pytest

from guesswork.builder import _partitions
from guesswork.builder.greedy import considers_every_guess
from guesswork.builder.matrices import letter_array, reply_matrix
from guesswork.builder.metrics import (
    METRIC_ENTROPY,
    METRIC_EXPECTATION,
    METRIC_MAX,
    METRIC_NEG_ENTROPY,
    SEED_2020,
    SEED_2022,
)
from guesswork.builder.partitions import (
    WIN_TIE,
    count_replies,
    fill_terms,
    metric_of_counts,
    metric_of_masses,
    metric_values,
    metric_values_by_target,
    position_entropies,
    retried_candidates,
    retry_count,
    weigh_replies,
)
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle

METRIC_CODES = (METRIC_MAX, METRIC_EXPECTATION, METRIC_NEG_ENTROPY, METRIC_ENTROPY)


def plain_metric(counts: list[int], metric: int, arithmetic: int) -> float:
    """The metric of branch sizes in first-appearance order, as the seeds compute it."""
    if metric == METRIC_MAX:
        return float(max(counts))
    total = 0
    for x in counts:
        total += x
    value = 0.0
    if arithmetic == SEED_2022:
        for x in sorted(counts):
            p = x / total
            value += p * x if metric == METRIC_EXPECTATION else p * math.log2(p)
    else:
        scale = 1.0 / total
        for x in counts:
            p = scale * x
            value += p * x if metric == METRIC_EXPECTATION else p * (math.log(p) / math.log(2.0))
    return -value if metric == METRIC_ENTROPY else value


def plain_weighted(codes: list[int], weights: list[float], metric: int, win: int) -> float:
    """The weighted metric: reply classes' masses in first-appearance order."""
    mass: dict[int, float] = {}
    total = 0.0
    for code, weight in zip(codes, weights, strict=True):
        mass[code] = mass.get(code, 0.0) + weight
        total += weight
    value = won = 0.0
    for code, m in mass.items():
        p = m / total
        if code == win:
            won = p
        if metric == METRIC_MAX:
            value = max(value, p)
        else:
            value += p * p if metric == METRIC_EXPECTATION else p * math.log2(p)
    if metric == METRIC_ENTROPY:
        value = -value
    return value - WIN_TIE * won


def words_of(length: int, count: int, step: int = 7) -> tuple[Wordle, WordList]:
    game = Wordle(length)
    words = load_wordlist("enable1", game).words[::step][:count]
    return game, WordList.from_words(f"e{length}", words)


@pytest.mark.parametrize(("length", "dtype"), [(5, np.uint8), (8, np.uint16), (11, np.uint32)])
def test_metric_values_are_plain_pythons_bit_for_bit(length: int, dtype: type) -> None:
    game, words = words_of(length, 300)
    matrix = reply_matrix(game, words, words)
    assert matrix.dtype == dtype
    by_target = np.ascontiguousarray(matrix.T)
    rng = np.random.default_rng(length)
    candidates = rng.choice(len(words), 40, replace=False).astype(np.int64)
    # All targets (hundreds of distinct replies for long words: the long sort),
    # and a small node.
    for targets in (np.arange(len(words)), np.sort(rng.choice(len(words), 9, replace=False))):
        weights = rng.random(len(targets)) + 0.1
        rows = [[int(matrix[g, t]) for t in targets] for g in candidates]
        for metric in METRIC_CODES:
            for arithmetic in (SEED_2022, SEED_2020):
                args = (candidates, targets, metric, arithmetic, game.reply_space)
                expected = [
                    plain_metric(list(Counter(r).values()), metric, arithmetic) for r in rows
                ]
                assert metric_values(matrix, *args).tolist() == expected
                assert metric_values_by_target(by_target, *args).tolist() == expected
            weighted = [plain_weighted(r, weights.tolist(), metric, game.win_reply) for r in rows]
            args = (candidates, targets, metric, SEED_2022, game.reply_space, weights)
            assert metric_values(matrix, *args, game.win_reply).tolist() == weighted
            assert metric_values_by_target(by_target, *args, game.win_reply).tolist() == weighted


def test_the_kernels_one_at_a_time() -> None:
    matrix = np.array([[0, 1, 1, 2, 1], [3, 3, 3, 3, 0]], dtype=np.uint8)
    targets = np.array([4, 1, 0, 2, 3], dtype=np.int64)
    counts, order = np.zeros(4, np.int64), np.zeros(4, np.int64)
    assert count_replies(matrix, 0, targets, counts, order) == 3
    assert order[:3].tolist() == [1, 0, 2] and counts.tolist() == [1, 3, 1, 0]
    terms = np.zeros(6)
    fill_terms(5, METRIC_NEG_ENTROPY, SEED_2022, terms)
    assert terms[1:].tolist() == [x / 5 * math.log2(x / 5) for x in range(1, 6)]
    sizes = np.zeros(4, np.int64)
    value = metric_of_counts(counts, order, 3, METRIC_NEG_ENTROPY, SEED_2022, terms, sizes)
    assert value == plain_metric([3, 1, 1], METRIC_NEG_ENTROPY, SEED_2022)
    # Far above a bound, the value may skip the seed's sort; near it, never.
    assert metric_of_counts(counts, order, 3, METRIC_MAX, SEED_2022, terms, sizes, 0.0) == 3.0
    counts[:], mass = 0, np.zeros(4)
    weights = np.array([0.5, 1.0, 2.0, 0.25, 4.0])
    n = weigh_replies(matrix, False, 1, targets, weights, counts, order, mass)
    assert (n, order[:2].tolist(), mass.tolist()) == (2, [0, 3], [0.5, 0.0, 0.0, 7.25])
    expected = plain_weighted([0, 3, 3, 3, 3], weights.tolist(), METRIC_EXPECTATION, 0)
    assert metric_of_masses(mass, order, 2, METRIC_EXPECTATION, 7.75, 0) == expected
    counts[:], mass[:] = 0, 0.0
    assert weigh_replies(matrix.T.copy(), True, 1, targets, weights, counts, order, mass) == 2
    assert mass.tolist() == [0.5, 0.0, 0.0, 7.25]


def plain_position_entropies(words: list[str], consistent: list[int]) -> list[list[float]]:
    """H(Y_ci) by letter and place: green, yellow, grey terms summed in that order."""

    def share(part: int, total: int) -> float:
        return 0.0 if part == 0 else -(part / total) * math.log2(part / total)

    left = [words[i] for i in consistent]
    table = []
    for place in range(len(words[0])):
        row = []
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            green = sum(1 for w in left if w[place] == letter)
            holding = sum(1 for w in left if letter in w)
            n = len(left)
            row.append(share(green, n) + share(holding - green, n) + share(n - holding, n))
        table.append(row)
    return table


@pytest.mark.parametrize("percent", [3.0, 0.5, 20.0, 100.0])
def test_approx_entropy_estimates_are_plain_pythons(percent: float) -> None:
    words = list(load_wordlist("wordle-answers-2309", Wordle()).words[::5])
    letters = letter_array(words, 5)
    consistent = list(range(0, len(words), 3))
    table = position_entropies(letters, np.array(consistent))
    expected = plain_position_entropies(words, consistent)
    assert table.tolist() == expected
    candidates = np.arange(len(words))[::-2].copy()
    estimates = []
    for c in candidates:
        estimate = 0.0
        for place, letter in enumerate(words[c]):
            estimate += expected[place][ord(letter) - ord("A")]
        estimates.append(estimate)
    keep = math.ceil(len(candidates) * percent / 100 - 1e-9)
    assert retry_count(len(candidates), percent) == keep
    best = sorted(range(len(candidates)), key=lambda c: (-estimates[c], c))[:keep]
    retried = retried_candidates(letters, candidates, np.array(consistent), percent)
    assert retried.tolist() == sorted(best)


def test_the_small_rules() -> None:
    assert [retry_count(n, 3.0) for n in (0, 1, 33, 34, 100, 101)] == [1, 1, 1, 2, 3, 4]
    assert retry_count(7, 100.0) == 7
    assert [considers_every_guess(n, False, 4, 125) for n in (3, 4, 125, 126)] == [
        False,
        True,
        True,
        False,
    ]
    assert considers_every_guess(9999, False, 4, -1)
    assert not considers_every_guess(10, True, 4, 125)


def test_bad_arguments_raise_rather_than_read_out_of_bounds() -> None:
    matrix = np.array([[0, 1, 2], [2, 2, 1]], dtype=np.uint8)
    everything = np.arange(3)
    with pytest.raises(ValueError, match="candidate is outside"):
        metric_values(matrix, np.array([2]), everything, METRIC_MAX, SEED_2022, 3)
    with pytest.raises(ValueError, match="target is outside"):
        metric_values(matrix, np.array([0]), np.array([-1]), METRIC_MAX, SEED_2022, 3)
    with pytest.raises(ValueError, match="past the reply space"):
        metric_values(matrix, np.array([0, 1]), everything, METRIC_MAX, SEED_2022, 2)
    with pytest.raises(ValueError, match="one entry per target"):
        metric_values(matrix, np.array([0]), everything, METRIC_MAX, SEED_2022, 3, np.ones(2))
    with pytest.raises(TypeError, match="counts"):
        count_replies(matrix, 0, everything, np.zeros(3, np.int32), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="past the reply space"):
        count_replies(matrix, 0, everything, np.zeros(2, np.int64), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="do not fit"):
        metric_of_counts(
            np.zeros(3, np.int64),
            np.array([5]),
            1,
            METRIC_MAX,
            0,
            np.zeros(2),
            np.zeros(1, np.int64),
        )
    with pytest.raises(ValueError, match="outside the letters"):
        retried_candidates(letter_array(["CRANE"], 5), np.array([1]), np.array([0]), 3.0)


def grow_arguments(matrix: np.ndarray, capacity: int) -> list[Any]:
    """builder.greedy_tree's arguments for the kernel: max metric, normal mode,
    every guess considered, ``capacity`` node slots."""
    n = matrix.shape[1]
    space = int(matrix.max()) + 1
    nodes = [np.zeros(capacity, np.int64) for _ in range(7)]
    nodes[1][0], nodes[2][0] = n, 1  # the root: every target, depth 1
    return [
        matrix, np.arange(n), METRIC_MAX, SEED_2022, False, 1, -1, np.zeros(capacity),
        space - 1, matrix.shape[0], np.arange(n), np.zeros(n, np.int64),
        *[np.zeros(space, np.int64) for _ in range(4)], np.zeros(n + 1), *nodes,
        np.zeros(n, np.int64), np.array([0, 1, 0, 0, 0, -1]), 10**9, False,
        np.zeros((1, 1), np.uint8), np.zeros((1, 1), np.int8), np.zeros((1, 1), np.uint8),
        3.0, np.zeros(0), np.zeros(space),
    ]  # fmt: skip


def test_the_tree_grower_checks_its_arrays() -> None:
    matrix = np.array([[2, 0, 1], [0, 2, 0], [1, 1, 2]], dtype=np.uint8)
    arguments = grow_arguments(matrix, 7)
    _partitions.grow(*arguments)
    state, node_guess, scores = arguments[25], arguments[17], arguments[24]
    assert state.tolist()[:5] == [3, 3, 2, 3, 0]  # three nodes, two edges, all scored
    assert node_guess[:3].tolist() == [0, 1, 2]
    assert scores.tolist() == [1, 2, 2]  # the guess wins at once, the others next
    wrong = grow_arguments(matrix, 2)  # room for the root alone
    wrong[8] = 1  # another "win" code: the root's two other replies need children
    with pytest.raises(ValueError, match="more nodes than the node arrays hold"):
        _partitions.grow(*wrong)
    too_few_codes = grow_arguments(matrix, 7)
    too_few_codes[12:16] = [np.zeros(2, np.int64) for _ in range(4)]
    too_few_codes[33] = np.zeros(2)
    with pytest.raises(ValueError, match="past the reply space"):
        _partitions.grow(*too_few_codes)
    bad_target = grow_arguments(matrix, 7)
    bad_target[10] = np.array([0, 1, 3])
    with pytest.raises(ValueError, match="target index is out of range"):
        _partitions.grow(*bad_target)


def test_ranking_on_threads_gives_the_same_values() -> None:
    """The kernels release the GIL: callers rank on threads at once."""
    game, words = words_of(5, 600, step=3)
    matrix = reply_matrix(game, words, words)
    everything = np.arange(len(words))
    expected = metric_values(matrix, everything, everything, METRIC_NEG_ENTROPY, 0, 243)
    results: list[np.ndarray] = []

    def rank() -> None:
        for _ in range(3):
            results.append(
                metric_values(matrix, everything, everything, METRIC_NEG_ENTROPY, 0, 243)
            )

    threads = [threading.Thread(target=rank) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 12
    assert all(result.tobytes() == expected.tobytes() for result in results)


PROBE = """
import json, sys
import numpy as np
from guesswork.builder import greedy, greedy_tree, nyt_hard, partitions
matrix = np.array([[0, 1], [1, 0]], dtype=np.uint8)
values = partitions.metric_values(matrix, np.arange(2), np.arange(2), 2, 0, 2)
print(json.dumps({"values": values.tolist(), "numba": "numba" in sys.modules}))
"""


def test_the_greedy_kernels_load_no_jit() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"values": [-1.0, -1.0], "numba": False}
