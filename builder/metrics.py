"""The greedy metrics, arithmetics and window by name, and the ranking helper they share.

Names only, no compiled code: the command line, the optimal search and the
service read these without loading the kernels that compute the metrics
(:mod:`.partitions`).
"""

from __future__ import annotations

import numpy as np

# The Wordle-player seed's ``a``: approx_entropy's default share (percent) of
# the candidates, best by estimate, whose exact entropy is computed.
from ..client.strategy import DEFAULT_RETRY_PERCENT as DEFAULT_RETRY_PERCENT

METRIC_MAX = 0
METRIC_EXPECTATION = 1
METRIC_NEG_ENTROPY = 2
METRIC_ENTROPY = 3
#: A random consistent guess; not a metric, handled by the tree builder.
METRIC_RANDOM = 4
#: The Wordle-player seed's step: ``neg_entropy`` computed only for the guesses
#: whose per-position letter entropy estimate is in the top few percent
#: (:func:`.partitions.retried_candidates`); Wordle-like games only.
METRIC_APPROX_ENTROPY = 5

METRICS: dict[str, int] = {
    "max": METRIC_MAX,
    "expectation": METRIC_EXPECTATION,
    "neg_entropy": METRIC_NEG_ENTROPY,
    "entropy": METRIC_ENTROPY,
    "random": METRIC_RANDOM,
    "approx_entropy": METRIC_APPROX_ENTROPY,
}

#: The 2022 notebook's window: inconsistent guesses when 3 < n <= 125.
DEFAULT_WINDOW = (4, 125)

SEED_2022 = 0
SEED_2020 = 1
ARITHMETIC: dict[str, int] = {"2022": SEED_2022, "2020": SEED_2020}


def smallest(values: np.ndarray, count: int) -> np.ndarray:
    """Return the indices of the ``count`` smallest ``values``, smallest first, ties in
    index order: ``np.argsort(values, kind="stable")[:count]`` without sorting all of
    them (a partition finds the cut, and only the values up to it are sorted)."""
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    if count >= len(values):
        return np.argsort(values, kind="stable")
    cut = np.partition(values, count - 1)[count - 1]
    pool = np.flatnonzero(values <= cut)
    return pool[np.argsort(values[pool], kind="stable")][:count]
