"""What a suggestion tells about the position besides the guess: the words still
possible, listed for a player (:func:`candidate_list`), and the worst case and the
guesses summed over the targets of the stored tree from a node
(:func:`subtree_worst`, :func:`subtree_totals`), from which a suggestion says
within how many guesses the game is certain to end and how many it takes on average.

Both are computed from what the lookup already has: the targets still possible
(the node's slice of ``target_order`` on the tree, the consistent targets or
open words off it) and the tree's edge arrays. Pure Python over sequences, so a
stored answer still needs no numpy.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import accumulate
from typing import TypeAlias

from .errors import BadRequestError
from .suggestion import Suggestion
from .tree_arrays import TreeArray

#: Integers as the tree stores them or numpy computes them.
Ints: TypeAlias = "Sequence[int] | TreeArray"

#: The most candidates a suggestion lists (SuggestGuessRequest.max_candidates): a
#: page's list, not a word list's download (14,855 words would be about 200 KB).
MAX_CANDIDATES = 500


def check_candidates(count: int) -> None:
    """Raise BadRequestError unless 0 <= ``count`` <= MAX_CANDIDATES."""
    if not 0 <= count <= MAX_CANDIDATES:
        raise BadRequestError(
            f"candidates must be between 0 and {MAX_CANDIDATES}, not {count}",
            metadata={"field": "max_candidates", "limit": MAX_CANDIDATES, "value": count},
        )


def candidate_list(
    words: Sequence[str],
    indices: Ints,
    weights: Ints | None,
    count: int,
) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Return up to ``count`` of the words still possible, with their probabilities.

    ``indices`` index ``words`` (the possible secrets); ``weights`` index them too
    (a prior's likelihoods, or Guess My Word's counts) or are None. Weighted, the
    most likely come first (ties alphabetical) with each one's probability among
    every word still possible (not only those listed); unweighted, the words are
    alphabetical and the probabilities empty. ``count`` 0 lists none (and costs
    nothing).
    """
    if count <= 0 or not len(indices):
        return (), ()
    if weights is None:
        return tuple(heapq.nsmallest(count, (words[int(i)] for i in indices))), ()
    pairs = [(int(weights[int(i)]), words[int(i)]) for i in indices]
    total = float(sum(weight for weight, _ in pairs))
    chosen = heapq.nsmallest(count, pairs, key=lambda pair: (-pair[0], pair[1]))
    return tuple(word for _, word in chosen), tuple(weight / total for weight, _ in chosen)


def solved(
    word: str,
    source: str,
    turns: int,
    count: int,
    weighted: bool,
    within: int | None = None,
    expected: float | None = None,
) -> Suggestion:
    """Return the answer once ``word`` is the secret (it is the one candidate listed when
    ``count`` asks for any, of probability 1 where the secrets are ``weighted``), with
    the stored tree's ``within`` and ``expected`` (None when answered live)."""
    return Suggestion(
        word,
        1,
        True,
        (),
        source,
        turns,
        candidates=(word,) if count else (),
        candidate_weights=(1.0,) if weighted and count else (),
        guaranteed_within=within,
        expected_guesses=expected,
    )


def subtree_worst(offsets: Ints, children: Ints, deduces: bool) -> list[int]:
    """Return, for each node of a stored tree, the most guesses its subtree takes: the
    node's own guess counted, down to the deepest target (the tree's ``worst`` at the
    root).

    ``offsets`` and ``children`` are the tree's ``edge_offsets`` and ``edge_child``
    (client.policy_format): a child always has a larger index than its parent, so
    one pass from the last node back sees every child first. A node without edges
    is a last guess (1), or in a game that deduces a known target (0: naming it
    costs no guess). Linear in the nodes and edges (about 10 ms for 10,000 nodes).
    """
    starts = [int(offset) for offset in offsets]
    targets = [int(child) for child in children]
    worst = [0] * (len(starts) - 1)
    for node in range(len(worst) - 1, -1, -1):
        start, end = starts[node], starts[node + 1]
        if start == end:
            worst[node] = 0 if deduces else 1
        else:
            worst[node] = 1 + max(worst[child] for child in targets[start:end])
    return worst


def subtree_totals(
    offsets: Ints,
    children: Ints,
    sizes: Ints,
    firsts: Ints,
    order: Ints,
    weights: Ints | None,
    deduces: bool,
) -> tuple[list[int], list[int]]:
    """Return, for each node of a stored tree, the guesses its subtree takes summed over
    the targets under it (the node's own guess counted), and those targets' total weight:
    each target counted by its weight where the policy weighs them (``weights`` indexes
    the target list), else once. Their quotient at the root is the policy's ``mean``
    (client.stats: the weighted sum of scores over the sum of weights).

    ``offsets``, ``children``, ``sizes``, ``firsts`` and ``order`` are the tree's
    ``edge_offsets``, ``edge_child``, ``node_size``, ``node_first`` and
    ``target_order`` (client.policy_format). Every target under a node pays its guess,
    except at a deduced leaf (``deduces``: naming the known word costs none); the one
    it wins stops there, the others go on to the children, which have larger indices,
    so one pass from the last node back sees every child first. Integer sums, exact;
    linear in the nodes, edges and targets.
    """
    if weights is None:
        masses = [int(size) for size in sizes]
    else:
        # prefix[k]: the weight of the first k targets in the tree's order; a node's
        # targets are one slice of that order.
        prefix = [0, *accumulate(int(weights[int(target)]) for target in order)]
        masses = [
            prefix[int(first) + int(size)] - prefix[int(first)]
            for first, size in zip(firsts, sizes, strict=True)
        ]
    starts = [int(offset) for offset in offsets]
    targets = [int(child) for child in children]
    totals = [0] * len(masses)
    for node in range(len(totals) - 1, -1, -1):
        start, end = starts[node], starts[node + 1]
        own = 0 if deduces and start == end else masses[node]
        totals[node] = own + sum(totals[child] for child in targets[start:end])
    return totals, masses
