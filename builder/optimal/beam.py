"""The lookahead's beam: which of a node's guesses a beam search tries.

With ``beam=K`` a node searches only its ``K`` best guesses by the greedy
``neg_entropy`` ranking (the scan's ``plogp``: least first, then list order),
guesses that split the targets identically counting once (see
:meth:`.search.Search.scan`, and its widening where the beam cannot finish
within a cap).
"""

from __future__ import annotations

import numpy as np

from ..metrics import smallest
from .bounds import INFEASIBLE
from .problem import Problem


def beam_of(
    problem: Problem,
    targets: np.ndarray,
    guesses: np.ndarray,
    plogp: np.ndarray,
    bound: np.ndarray,
    beam: int,
) -> tuple[np.ndarray, int]:
    """Return the positions (into ``guesses``, sorted) of the beam's guesses for
    ``targets``, and the least ``bound`` among the guesses it left out
    (INFEASIBLE if none).

    ``guesses`` are the scan's kept guesses, ``plogp`` and ``bound`` their greedy
    scores and static bounds, position for position.
    """
    kept = len(guesses)
    # The greedy ranking (then list order: the positions increase), read only as
    # far as the beam needs: a partial sort of a growing prefix.
    chosen: list[int] = []
    seen: set[bytes] = set()
    done, limit = 0, 4 * beam
    while len(chosen) < beam and done < kept:
        rank = smallest(plogp, min(limit, kept))
        for position in rank[done:].tolist():
            if len(chosen) == beam:
                break
            # Guesses that split the set identically count once: their canonical
            # partitions (computed only for the few guesses the beam looks at).
            signature = problem.signature(int(guesses[position]), targets)
            if signature not in seen:
                seen.add(signature)
                chosen.append(position)
        done, limit = len(rank), limit * 4
    picked = np.array(sorted(chosen), dtype=np.int64)
    left_out = INFEASIBLE
    if len(chosen) == beam and kept > beam:
        rest = np.ones(kept, dtype=bool)  # a mask: setdiff1d sorts all of them
        rest[picked] = False
        left_out = int(bound[rest].min()) if rest.any() else INFEASIBLE
    return picked, left_out
