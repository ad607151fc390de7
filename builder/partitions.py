"""Partition counts and the greedy metrics, compiled, with the seeds' arithmetic.

A guess *partitions* a set of targets by reply; the greedy metrics score the
branch sizes (``partition_counts``). To reproduce the seeds' trees exactly,
values are computed with the same floating-point operations in the same order
as the seed notebooks, because ``min`` there breaks near-ties by those exact
floats and then by list order:

* ``SEED_2022`` (Wordle/Antiwordle/Jotto notebook, 2022): counts sorted
  ascending, ``P = x / N``, ``sum(P * x)`` or ``sum(P * log2(P))``.
* ``SEED_2020`` (Jotto/Wordle notebook, 2020): counts in order of first
  appearance (a ``Counter``), ``P = (1 / N) * x``, ``log(P) / log(2)``.

``max`` is an integer and needs no such care.

Weighted targets (a prior: each target's likelihood of being the secret) score
a guess by the probability of each reply, ``p = W_r / W`` (the weight of the
targets giving reply ``r`` over the node's): ``max`` the largest ``p``,
``expectation`` the expected remaining probability ``sum p * p``,
``neg_entropy`` ``sum p * log2(p)`` and ``entropy`` its negation, summed in
first-appearance order (:func:`metric_of_masses`), less :data:`WIN_TIE` times
the chance that the guess wins at once: of two guesses that split the
targets alike, the likelier secret is guessed (TACOS before TABOS). With equal weights these
rank guesses as the unweighted metrics do (up to rounding), but the tree
builders call the unweighted kernels then, which reproduce the seeds exactly.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .metrics import (
    METRIC_ENTROPY,
    METRIC_EXPECTATION,
    METRIC_MAX,
    SEED_2020,
    SEED_2022,
)


@numba.njit(cache=True)
def fill_terms(total: int, metric: int, arithmetic: int, terms: np.ndarray) -> None:
    """Fill ``terms[x]`` (x = 1..total) with one branch's share of the metric.

    A branch of ``x`` of ``total`` targets adds ``P * x`` (expectation) or
    ``P * log2(P)`` (entropies) with ``P`` computed exactly as the seed did, so
    summing the terms in the seed's order reproduces the seed's floats.
    """
    scale = 1.0 / total
    for x in range(1, total + 1):
        p = x / total if arithmetic == SEED_2022 else scale * x
        if metric == METRIC_EXPECTATION:
            terms[x] = p * x
        elif arithmetic == SEED_2022:
            terms[x] = p * math.log2(p)
        else:
            terms[x] = p * (math.log(p) / math.log(2.0))


@numba.njit(cache=True)
def metric_of_counts(
    counts: np.ndarray,
    order: np.ndarray,
    n_codes: int,
    metric: int,
    arithmetic: int,
    terms: np.ndarray,
    sizes: np.ndarray,
    bound: float = np.inf,
) -> float:
    """Return the metric of the branch sizes ``counts[order[:n_codes]]``.

    ``order`` lists the codes present in order of first appearance; ``terms``
    comes from :func:`fill_terms` for this partition's total; ``sizes`` is
    scratch space of at least ``n_codes`` integers. A value that is clearly
    above ``bound`` may be returned approximately (it cannot win a ``min``).
    """
    if metric == METRIC_MAX:
        biggest = 0
        for i in range(n_codes):
            biggest = max(biggest, counts[order[i]])
        return float(biggest)
    sign = -1.0 if metric == METRIC_ENTROPY else 1.0
    # Summing in first-appearance order is exactly the 2020 seed's arithmetic.
    value = 0.0
    for i in range(n_codes):
        value += terms[counts[order[i]]]
    if arithmetic == SEED_2020:
        return sign * value
    # The 2022 seed sums over sorted sizes. Another order differs by a few
    # ulps at most, so only a candidate close to the bound needs the sort.
    if sign * value > bound + 1e-9 * abs(bound) + 1e-12:
        return sign * value
    for i in range(n_codes):
        sizes[i] = counts[order[i]]
    _insertion_sort(sizes, n_codes)
    value = 0.0
    for i in range(n_codes):
        value += terms[sizes[i]]
    return sign * value


@numba.njit(cache=True)
def _insertion_sort(values: np.ndarray, n: int) -> None:
    """Sort ``values[:n]`` in place (fast for the few dozen sizes typical here)."""
    if n > 64:
        # Long words give thousands of replies at a large node, where insertion
        # sort's n^2 dominated ranking (the same integers come out either way).
        values[:n].sort()
        return
    for i in range(1, n):
        item = values[i]
        j = i - 1
        while j >= 0 and values[j] > item:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = item


@numba.njit(cache=True)
def count_replies(
    matrix: np.ndarray, guess: int, targets: np.ndarray, counts: np.ndarray, order: np.ndarray
) -> int:
    """Count the replies to ``guess`` over ``targets`` into ``counts``.

    Returns the number of distinct codes, listed in ``order`` by first
    appearance. The caller must zero ``counts[order[:n]]`` afterwards.
    """
    n_codes = 0
    row = matrix[guess]
    for i in range(targets.shape[0]):
        code = row[targets[i]]
        if counts[code] == 0:
            order[n_codes] = code
            n_codes += 1
        counts[code] += 1
    return n_codes


#: The weighted metrics' tie-break: this times the chance of winning at once is taken
#: off a guess's value, far below any real difference of two values.
WIN_TIE = 1e-9


@numba.njit(cache=True)
def metric_of_masses(
    mass: np.ndarray, order: np.ndarray, n_codes: int, metric: int, total: float, win: int
) -> float:
    """Return the weighted metric of the reply classes ``order[:n_codes]`` whose
    weights are ``mass[code]``, out of the node's ``total`` weight, less
    :data:`WIN_TIE` times the winning reply ``win``'s share (see the module
    docstring)."""
    value = 0.0
    won = 0.0
    for i in range(n_codes):
        code = order[i]
        p = mass[code] / total
        if code == win:
            won = p
        if metric == METRIC_MAX:
            value = max(value, p)
        else:
            value += p * p if metric == METRIC_EXPECTATION else p * math.log2(p)
    if metric == METRIC_ENTROPY:
        value = -value
    return value - WIN_TIE * won


@numba.njit(cache=True)
def weigh_replies(
    matrix: np.ndarray,
    target_major: bool,
    guess: int,
    targets: np.ndarray,
    weights: np.ndarray,
    counts: np.ndarray,
    order: np.ndarray,
    mass: np.ndarray,
) -> int:
    """:func:`count_replies` that also adds up each reply's weight in ``mass``
    (``weights[j]`` is ``targets[j]``'s). The caller zeroes ``counts`` and ``mass``
    at ``order[:n]`` afterwards."""
    n_codes = 0
    for j in range(targets.shape[0]):
        code = matrix[targets[j], guess] if target_major else matrix[guess, targets[j]]
        if counts[code] == 0:
            order[n_codes] = code
            n_codes += 1
        counts[code] += 1
        mass[code] += weights[j]
    return n_codes


@numba.njit(cache=True, nogil=True)
def _weighted_metric_values(
    matrix: np.ndarray,
    target_major: bool,
    candidates: np.ndarray,
    targets: np.ndarray,
    weights: np.ndarray,
    metric: int,
    reply_space: int,
    win: int,
) -> np.ndarray:
    """Return each candidate's weighted metric (see :func:`metric_of_masses`)."""
    counts = np.zeros(reply_space, np.int64)
    order = np.empty(reply_space, np.int64)
    mass = np.zeros(reply_space, np.float64)
    total = 0.0
    for j in range(weights.shape[0]):
        total += weights[j]
    values = np.empty(candidates.shape[0], np.float64)
    for c in range(candidates.shape[0]):
        n_codes = weigh_replies(
            matrix, target_major, candidates[c], targets, weights, counts, order, mass
        )
        values[c] = metric_of_masses(mass, order, n_codes, metric, total, win)
        for i in range(n_codes):
            counts[order[i]] = 0
            mass[order[i]] = 0.0
    return values


@numba.njit(cache=True, nogil=True)
def _metric_values(
    matrix: np.ndarray,
    target_major: bool,
    candidates: np.ndarray,
    targets: np.ndarray,
    metric: int,
    arithmetic: int,
    reply_space: int,
) -> np.ndarray:
    """Return each candidate's metric; ``matrix`` is read ``[guess, target]``, or
    ``[target, guess]`` when ``target_major`` (the codes are counted in the same
    order either way, so the values are the same bit for bit)."""
    counts = np.zeros(reply_space, np.int64)
    order = np.empty(reply_space, np.int64)
    sizes = np.empty(reply_space, np.int64)
    terms = np.empty(targets.shape[0] + 1, np.float64)
    fill_terms(targets.shape[0], metric, arithmetic, terms)
    values = np.empty(candidates.shape[0], np.float64)
    for c in range(candidates.shape[0]):
        guess = candidates[c]
        n_codes = 0
        for i in range(targets.shape[0]):
            code = matrix[targets[i], guess] if target_major else matrix[guess, targets[i]]
            if counts[code] == 0:
                order[n_codes] = code
                n_codes += 1
            counts[code] += 1
        values[c] = metric_of_counts(counts, order, n_codes, metric, arithmetic, terms, sizes)
        for i in range(n_codes):
            counts[order[i]] = 0
    return values


def metric_values(
    matrix: np.ndarray,
    candidates: np.ndarray,
    targets: np.ndarray,
    metric: int,
    arithmetic: int,
    reply_space: int,
    weights: np.ndarray | None = None,
    win: int = -1,
) -> np.ndarray:
    """Return ``metric(partition_counts(guess, targets))`` for each candidate, reading
    the guess-major reply matrix (``matrix[g, t]``); with ``weights`` (one per
    entry of ``targets``), the weighted metric (:func:`metric_of_masses`, ``win``
    the winning reply code)."""
    if weights is not None:
        return _weighted_metric_values(
            matrix,
            False,
            candidates,
            targets,
            np.asarray(weights, np.float64),
            metric,
            reply_space,
            win,
        )
    return _metric_values(matrix, False, candidates, targets, metric, arithmetic, reply_space)


def metric_values_by_target(
    by_target: np.ndarray,
    candidates: np.ndarray,
    targets: np.ndarray,
    metric: int,
    arithmetic: int,
    reply_space: int,
    weights: np.ndarray | None = None,
    win: int = -1,
) -> np.ndarray:
    """Return :func:`metric_values` read through the target-major matrix
    (``by_target[t, g]``, the reply matrix transposed): the same values, bit for
    bit, several times faster for a few dozen targets, whose rows are read
    sequentially instead of fetching a cache line per (guess, target) pair."""
    if weights is not None:
        return _weighted_metric_values(
            by_target,
            True,
            candidates,
            targets,
            np.asarray(weights, np.float64),
            metric,
            reply_space,
            win,
        )
    return _metric_values(by_target, True, candidates, targets, metric, arithmetic, reply_space)


@numba.njit(cache=True)
def _share_entropy(part: int, total: int) -> float:
    """Return one outcome's term ``-P * log2(P)`` of an entropy, ``P = part / total``."""
    if part == 0:
        return 0.0
    p = part / total
    return -p * math.log2(p)


@numba.njit(cache=True, nogil=True)
def position_entropies(letters: np.ndarray, consistent: np.ndarray) -> np.ndarray:
    """Return the Wordle-player seed's ``H(Y_ci)`` table, shape (word length, L):
    ``L`` letter codes, 26 for A-Z words (more for a larger alphabet).

    ``Y_ci`` is the reply to the letter ``c`` (A=0) played alone at position
    ``i`` against a word drawn evenly from ``consistent`` (vocabulary indices,
    rows of ``letters``): green if the word has ``c`` at ``i``, yellow if it
    has ``c`` only elsewhere, grey if it lacks ``c``.
    """
    length = letters.shape[1]
    total = consistent.shape[0]
    n_letters = 26
    if letters.size:
        n_letters = max(n_letters, int(letters.max()) + 1)
    at = np.zeros((length, n_letters), np.int64)
    holding = np.zeros(n_letters, np.int64)
    last_word = np.full(n_letters, -1, np.int64)
    for j in range(total):
        word = letters[consistent[j]]
        for i in range(length):
            letter = word[i]
            at[i, letter] += 1
            if last_word[letter] != j:  # count each word once per letter
                last_word[letter] = j
                holding[letter] += 1
    table = np.zeros((length, n_letters), np.float64)
    for i in range(length):
        for letter in range(n_letters):
            green = at[i, letter]
            table[i, letter] = (
                _share_entropy(green, total)
                + _share_entropy(holding[letter] - green, total)
                + _share_entropy(total - holding[letter], total)
            )
    return table


@numba.njit(cache=True)
def retry_count(n_candidates: int, retry_percent: float) -> int:
    """Return how many of ``n_candidates`` approx_entropy retries: ``retry_percent``
    percent of them rounded up, at least one."""
    # The small slack keeps e.g. 3% of 100 at 3 despite binary fractions.
    wanted = math.ceil(n_candidates * retry_percent / 100.0 - 1e-9)
    return max(1, min(n_candidates, wanted))


@numba.njit(cache=True, nogil=True)
def retried_candidates(
    letters: np.ndarray, candidates: np.ndarray, consistent: np.ndarray, retry_percent: float
) -> np.ndarray:
    """Return the positions in ``candidates`` (ascending) that approx_entropy retries exactly.

    A candidate's estimate is the sum over its positions ``i`` of
    ``position_entropies(letters, consistent)[i, word[i]]`` (the seed's
    ``EHX``, which would be the entropy if the letters' replies were
    independent); the :func:`retry_count` best estimates are kept, ties at
    the cut going to earlier candidates. Linear time: one partial sort.
    """
    table = position_entropies(letters, consistent)
    n = candidates.shape[0]
    length = letters.shape[1]
    estimates = np.empty(n, np.float64)
    for c in range(n):
        word = letters[candidates[c]]
        estimate = 0.0
        for i in range(length):
            estimate += table[i, word[i]]
        estimates[c] = estimate
    keep = retry_count(n, retry_percent)
    if keep >= n:
        return np.arange(n)
    cut = np.partition(estimates, n - keep)[n - keep]  # the keep-th largest estimate
    ties = keep
    for c in range(n):
        if estimates[c] > cut:
            ties -= 1
    chosen = np.empty(keep, np.int64)
    kept = 0
    for c in range(n):
        if estimates[c] > cut or (estimates[c] == cut and ties > 0):
            if estimates[c] == cut:
                ties -= 1
            chosen[kept] = c
            kept += 1
    return chosen


def partition_counts(matrix: np.ndarray, guess: int, targets: np.ndarray) -> list[int]:
    """Return the sorted branch sizes of ``targets`` (indices) partitioned by ``guess``."""
    codes = np.asarray(matrix[guess])[np.asarray(targets)]
    return sorted(np.unique(codes, return_counts=True)[1].tolist())
