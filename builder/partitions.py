"""Partition counts and the greedy metrics, compiled, with the seeds' arithmetic.

The loops are C (``builder/_partitions.c``, built with the package): ranking
and tree building load no JIT. This module converts the arguments (the C
checks them) and documents what each kernel computes.

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

import numpy as np

from . import _partitions


def _indices(values: np.ndarray) -> np.ndarray:
    """Return ``values`` as a contiguous int64 array (itself if it is one already)."""
    return np.ascontiguousarray(values, dtype=np.int64)


def fill_terms(total: int, metric: int, arithmetic: int, terms: np.ndarray) -> None:
    """Fill ``terms[x]`` (x = 1..total) with one branch's share of the metric.

    A branch of ``x`` of ``total`` targets adds ``P * x`` (expectation) or
    ``P * log2(P)`` (entropies) with ``P`` computed exactly as the seed did
    (``x / total`` in 2022, ``(1 / total) * x`` in 2020, whose log is
    ``log(P) / log(2)``), so summing the terms in the seed's order reproduces
    the seed's floats. ``terms``: float64, at least ``total + 1`` entries.

    Raises:
        TypeError: ``terms`` is not a writable contiguous float64 array.
        ValueError: it is too short.
    """
    _partitions.fill_terms(total, metric, arithmetic, terms)


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
    scratch space of at least ``n_codes`` integers. ``max`` is the largest
    size; the others sum the terms in first-appearance order (the 2020 seed)
    or over the sizes sorted ascending (the 2022 seed). A value that is clearly
    above ``bound`` may be returned approximately (it cannot win a ``min``).

    Raises:
        TypeError: ``counts``, ``order`` or ``sizes`` are not contiguous int64
            arrays (``sizes`` writable), or ``terms`` not float64.
        ValueError: a code, a count or ``n_codes`` does not fit the arrays.
    """
    value: float = _partitions.metric_of_counts(
        counts, order, n_codes, metric, arithmetic, terms, sizes, bound
    )
    return value


def count_replies(
    matrix: np.ndarray, guess: int, targets: np.ndarray, counts: np.ndarray, order: np.ndarray
) -> int:
    """Count the replies to ``guess`` (``matrix[guess, t]``) over ``targets`` into ``counts``.

    Returns the number of distinct codes, listed in ``order`` by first
    appearance. The caller must zero ``counts[order[:n]]`` afterwards.

    Raises:
        TypeError: ``counts`` or ``order`` are not writable contiguous int64 arrays.
        ValueError: the guess or a target is outside the matrix, or a code
            outside ``counts``.
    """
    n_codes: int = _partitions.count_replies(
        np.ascontiguousarray(matrix), guess, _indices(targets), counts, order
    )
    return n_codes


#: The weighted metrics' tie-break: this times the chance of winning at once is taken
#: off a guess's value, far below any real difference of two values (the C
#: kernels' WIN_TIE, builder/_partitions.h).
WIN_TIE = 1e-9


def metric_of_masses(
    mass: np.ndarray, order: np.ndarray, n_codes: int, metric: int, total: float, win: int
) -> float:
    """Return the weighted metric of the reply classes ``order[:n_codes]`` whose
    weights are ``mass[code]``, out of the node's ``total`` weight, less
    :data:`WIN_TIE` times the winning reply ``win``'s share (see the module
    docstring).

    Raises:
        TypeError: ``mass`` is not a contiguous float64 array, or ``order`` int64.
        ValueError: a code is outside ``mass``.
    """
    value: float = _partitions.metric_of_masses(mass, order, n_codes, metric, total, win)
    return value


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
    (``weights[j]`` is ``targets[j]``'s), reading ``matrix[t, guess]`` when
    ``target_major``. The caller zeroes ``counts`` and ``mass`` at ``order[:n]``
    afterwards.

    Raises:
        TypeError: ``counts``/``order`` are not writable contiguous int64 arrays,
            or ``mass`` float64.
        ValueError: as :func:`count_replies`, or fewer weights than targets.
    """
    n_codes: int = _partitions.weigh_replies(
        np.ascontiguousarray(matrix),
        target_major,
        guess,
        _indices(targets),
        np.ascontiguousarray(weights, dtype=np.float64),
        counts,
        order,
        mass,
    )
    return n_codes


def _values(
    matrix: np.ndarray,
    target_major: bool,
    candidates: np.ndarray,
    targets: np.ndarray,
    metric: int,
    arithmetic: int,
    reply_space: int,
    weights: np.ndarray | None,
    win: int,
) -> np.ndarray:
    """Return each candidate's metric, read ``[guess, target]`` or ``[target, guess]``
    (``target_major``): the codes are counted in the same order either way, so the
    values are the same bit for bit. The kernel runs without the GIL."""
    candidates = _indices(candidates)
    values = np.empty(len(candidates), np.float64)
    _partitions.metric_values(
        np.ascontiguousarray(matrix),
        target_major,
        candidates,
        _indices(targets),
        metric,
        arithmetic,
        reply_space,
        np.zeros(0) if weights is None else np.ascontiguousarray(weights, dtype=np.float64),
        win,
        values,
    )
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
    the winning reply code).

    Raises:
        ValueError: a candidate or target is outside the matrix, a code past
            ``reply_space``, or not one weight per target.
    """
    return _values(
        matrix, False, candidates, targets, metric, arithmetic, reply_space, weights, win
    )


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
    sequentially instead of fetching a cache line per (guess, target) pair.

    Raises:
        ValueError: as :func:`metric_values`.
    """
    return _values(
        by_target, True, candidates, targets, metric, arithmetic, reply_space, weights, win
    )


def position_entropies(letters: np.ndarray, consistent: np.ndarray) -> np.ndarray:
    """Return the Wordle-player seed's ``H(Y_ci)`` table, shape (word length, L):
    ``L`` letter codes, 26 for A-Z words (more for a larger alphabet).

    ``Y_ci`` is the reply to the letter ``c`` (A=0) played alone at position
    ``i`` against a word drawn evenly from ``consistent`` (vocabulary indices,
    rows of ``letters``): green if the word has ``c`` at ``i``, yellow if it
    has ``c`` only elsewhere, grey if it lacks ``c``. Each entry is the sum, in
    that order, of ``-P * log2(P)`` over green, yellow and grey.

    Raises:
        ValueError: a word of ``consistent`` is outside ``letters``.
    """
    letters = np.ascontiguousarray(letters, dtype=np.uint8)
    n_letters = max(26, int(letters.max()) + 1) if letters.size else 26
    table = np.zeros((letters.shape[1], n_letters), np.float64)
    _partitions.position_entropies(letters, _indices(consistent), table)
    return table


def retry_count(n_candidates: int, retry_percent: float) -> int:
    """Return how many of ``n_candidates`` approx_entropy retries: ``retry_percent``
    percent of them rounded up (less a hair, so that e.g. 3% of 100 stays 3 despite
    binary fractions), at least one."""
    count: int = _partitions.retry_count(n_candidates, retry_percent)
    return count


def retried_candidates(
    letters: np.ndarray, candidates: np.ndarray, consistent: np.ndarray, retry_percent: float
) -> np.ndarray:
    """Return the positions in ``candidates`` (ascending) that approx_entropy retries exactly.

    A candidate's estimate is the sum over its positions ``i`` of
    ``position_entropies(letters, consistent)[i, word[i]]`` (the seed's
    ``EHX``, which would be the entropy if the letters' replies were
    independent); the :func:`retry_count` best estimates are kept, ties at
    the cut going to earlier candidates. Linear time: one selection.

    Raises:
        ValueError: a candidate or a word of ``consistent`` is outside ``letters``.
    """
    candidates = _indices(candidates)
    chosen = np.empty(len(candidates), np.int64)
    kept = _partitions.retried_candidates(
        np.ascontiguousarray(letters, dtype=np.uint8),
        candidates,
        _indices(consistent),
        retry_percent,
        chosen,
    )
    return chosen[:kept]


def partition_counts(matrix: np.ndarray, guess: int, targets: np.ndarray) -> list[int]:
    """Return the sorted branch sizes of ``targets`` (indices) partitioned by ``guess``."""
    codes = np.asarray(matrix[guess])[np.asarray(targets)]
    return sorted(np.unique(codes, return_counts=True)[1].tolist())
