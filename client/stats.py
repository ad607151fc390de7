"""A policy's stored statistics, defined once: what the builder stores and readers recheck.

A *score* is the number of guesses a target takes when the tree plays it:
the depth (root = 1) of the node whose guess wins it, or for a deduced leaf
(Guess My Word's ``deduce`` variant, see client.policy_format) the depth of
its parent, since naming the known word costs no guess. The stored map is::

    count      the number of targets
    mean       the mean score (unweighted: sum / count; weighted: sum of
               weight x score / sum of weights), the nearest float64 to the
               exact quotient of the two integer sums
    stdev      unweighted: the *sample* standard deviation (divisor count - 1,
               0.0 for one target), as ``statistics.stdev``; weighted (Guess
               My Word): the *population* one, sqrt(W*S2 - S1*S1) / W with W,
               S1, S2 the integer sums of weight, weight x score and
               weight x score**2 (the integer difference converted to float64,
               then square root, then division)
    median     unweighted: the middle score of the sorted scores, or the mean
               of the two middle ones for an even count (so it may end in .5);
               weighted: the smallest score s whose targets scoring at most s
               weigh at least half the total (2 * weight(<= s) >= W)
    worst, best   the largest and smallest score
    histogram  [[score, targets], ...] for every score that occurs, in
               increasing score order (targets counted, not weighted)
    entropy    weighted only: -sum(p * log2(p)) in bits over p = weight / W
    uniform_mean   prior-weighted only: the unweighted mean (sum / count)
    probabilities  prior-weighted only: [[score, weight(score) / W], ...], the
               chance a secret drawn by the weights takes that many guesses

Readers compare ``count``, ``worst``, ``best``, ``histogram``, ``median`` and
``mean`` exactly, and ``stdev`` and ``entropy`` (a square root and a sum of
logarithms, whose last bit depends on the arithmetic library) within a
relative :data:`TOLERANCE`: :func:`stats_faults`.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

#: Relative tolerance for the stored ``stdev`` and ``entropy`` (the rest is exact).
TOLERANCE = 1e-9
#: Keys compared within TOLERANCE; every other recomputed key must be equal.
APPROXIMATE = ("stdev", "entropy")


def score_summary(values: Sequence[int]) -> dict[str, Any]:
    """Return the unweighted statistics of ``values`` (at least one score), with the
    median as ``statistics.median`` gives it (an int, or a float for an even count).

    Raises:
        ValueError: there are no scores.
    """
    if not values:
        raise ValueError("no scores to summarise")
    counts = Counter(values)
    return {
        "count": len(values),
        "mean": statistics.fmean(values),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "median": statistics.median(values),
        "worst": max(values),
        "best": min(values),
        "histogram": [[score, counts[score]] for score in sorted(counts)],
    }


def weighted_entropy(weights: np.ndarray) -> float:
    """Return the entropy in bits of the distribution proportional to ``weights``."""
    counts = np.asarray(weights, dtype=np.int64)
    p = np.asarray(counts / counts.sum(), dtype=np.float64)
    return float(-(p * np.log2(p)).sum())


def weighted_stats(scores: Sequence[int], weights: Sequence[int]) -> dict[str, Any]:
    """Return the statistics of ``scores`` with each target weighted by ``weights``
    (Guess My Word): exact integer sums, one division for the mean.

    Raises:
        ValueError: no scores, or not one positive weight per score.
    """
    if not scores or len(scores) != len(weights) or min(weights) < 1:
        raise ValueError("weighted statistics need one positive weight per score")
    pairs = list(zip(weights, scores, strict=True))
    total = sum(weights)
    first = sum(c * g for c, g in pairs)
    second = sum(c * g * g for c, g in pairs)
    by_score = Counter[int]()
    for c, g in pairs:
        by_score[g] += c
    median, passed = scores[0], 0
    for score in sorted(by_score):
        passed += by_score[score]
        if 2 * passed >= total:
            median = score
            break
    histogram = Counter(scores)
    return {
        "count": len(scores),
        "mean": first / total,
        "stdev": math.sqrt(total * second - first * first) / total,
        "median": float(median),
        "worst": max(scores),
        "best": min(scores),
        "histogram": [[score, histogram[score]] for score in sorted(histogram)],
        "entropy": weighted_entropy(np.asarray(weights, dtype=np.int64)),
    }


def prior_stats(scores: Sequence[int], weights: Sequence[int]) -> dict[str, Any]:
    """Return the statistics of a policy whose targets are weighted by a prior: the
    weighted ones (:func:`weighted_stats`), then ``uniform_mean`` (every target
    alike, as an unweighted policy's mean) and ``probabilities``: for each score,
    the probability that a secret drawn by the weights takes that many guesses
    (``[[score, probability], ...]``, ascending).

    Raises:
        ValueError: as :func:`weighted_stats`.
    """
    stats = weighted_stats(scores, weights)
    total = sum(weights)
    by_score = Counter[int]()
    for weight, score in zip(weights, scores, strict=True):
        by_score[score] += weight
    stats["uniform_mean"] = sum(scores) / len(scores)
    stats["probabilities"] = [[score, by_score[score] / total] for score in sorted(by_score)]
    return stats


def policy_stats(
    scores: Sequence[int], weights: Sequence[int] | None = None, prior: bool = False
) -> dict[str, Any]:
    """Return the statistics a policy stores for its targets' ``scores`` (in target
    order), weighted by ``weights`` when given (Guess My Word's counts; with
    ``prior``, a prior's likelihoods: :func:`prior_stats`).

    Raises:
        ValueError: no scores, or weights that do not pair up with them.
    """
    if weights is not None:
        return prior_stats(scores, weights) if prior else weighted_stats(scores, weights)
    summary = score_summary(scores)
    return {**summary, "median": float(summary["median"])}


def stats_faults(stored: dict[str, Any], recomputed: dict[str, Any]) -> list[str]:
    """Return how ``stored`` statistics differ from ``recomputed`` ones (empty if they agree).

    Every recomputed key must be stored; ``stdev`` and ``entropy`` may differ by
    :data:`TOLERANCE` (relative), the rest must be equal. Stored keys beyond
    the recomputed ones are ignored.
    """
    faults = []
    for key, value in recomputed.items():
        held = stored.get(key)
        if key in APPROXIMATE:
            same = (
                isinstance(held, int | float)
                and not isinstance(held, bool)
                and math.isclose(held, value, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
            )
        else:
            same = type(held) is type(value) and held == value
        if not same:
            faults.append(f"stored {key} {held!r} differs from the replay's {value!r}")
    return faults
