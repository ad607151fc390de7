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
"""

from __future__ import annotations

import math

import numba
import numpy as np

METRIC_MAX = 0
METRIC_EXPECTATION = 1
METRIC_NEG_ENTROPY = 2
METRIC_ENTROPY = 3
#: A random consistent guess; not a metric, handled by the tree builder.
METRIC_RANDOM = 4

METRICS: dict[str, int] = {
    "max": METRIC_MAX,
    "expectation": METRIC_EXPECTATION,
    "neg_entropy": METRIC_NEG_ENTROPY,
    "entropy": METRIC_ENTROPY,
    "random": METRIC_RANDOM,
}

SEED_2022 = 0
SEED_2020 = 1
ARITHMETIC: dict[str, int] = {"2022": SEED_2022, "2020": SEED_2020}


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


@numba.njit(cache=True)
def metric_values(
    matrix: np.ndarray,
    candidates: np.ndarray,
    targets: np.ndarray,
    metric: int,
    arithmetic: int,
    reply_space: int,
) -> np.ndarray:
    """Return ``metric(partition_counts(guess, targets))`` for each candidate."""
    counts = np.zeros(reply_space, np.int64)
    order = np.empty(reply_space, np.int64)
    sizes = np.empty(reply_space, np.int64)
    terms = np.empty(targets.shape[0] + 1, np.float64)
    fill_terms(targets.shape[0], metric, arithmetic, terms)
    values = np.empty(candidates.shape[0], np.float64)
    for c in range(candidates.shape[0]):
        n_codes = count_replies(matrix, candidates[c], targets, counts, order)
        values[c] = metric_of_counts(counts, order, n_codes, metric, arithmetic, terms, sizes)
        for i in range(n_codes):
            counts[order[i]] = 0
    return values


def partition_counts(matrix: np.ndarray, guess: int, targets: np.ndarray) -> list[int]:
    """Return the sorted branch sizes of ``targets`` (indices) partitioned by ``guess``."""
    codes = np.asarray(matrix[guess])[np.asarray(targets)]
    return sorted(np.unique(codes, return_counts=True)[1].tolist())
