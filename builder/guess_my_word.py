"""Guess My Word: before/after guess trees over a weighted, alphabetical word list.

A secret target is drawn from a :class:`WeightedList` with probability
proportional to its count. Each guess is answered by where the target lies
alphabetically relative to the guess. Two variants (client.games.GuessMyWord):

``deduce`` (the seed's game)
    A right guess is answered ``"after"``, so a reply only says
    ``target >= guess`` (``"after"``) or ``target < guess`` (``"before"``).
    The player narrows the list down to one word and then *knows* the target.
    As in the seed (``binary_search_game`` and ``huffman_game`` count one guess
    per comparison and not the final ``guess_function`` call), naming the known
    word costs nothing: a target's guess count is its leaf's depth in a binary
    tree whose leaves are the words in order. So the expectation is a weighted
    code length and entropy is a lower bound for it. A player who must also
    type the known word pays exactly one more guess per game.
``live`` (the real game)
    A guess equal to the target is answered ``"correct"`` and the game ends;
    that guess counts. Otherwise the reply is ``"before"`` or ``"after"``.

Weighted lists are in builder.weighted_lists; the game's rules are
client.games.GuessMyWord. Trees (builder.word_trees.WordTree) come in two
shapes. A *split tree* (``deduce``) has internal nodes that guess the first
word of their ``after`` side and leaves that are the deduced words; it can
also be played ``live``, where a guess can hit the target early and a leaf
costs one guess to name. A *key tree* (``live``) guesses one word at every
node and can only be played ``live``.

Strategies: :func:`binary_search` (the seed's midpoint by index),
:func:`adjacent_merge` (the seed's "Huffman" idea), :func:`optimal_alphabetic`
(Garsia-Wachs: minimum expected guesses, ``deduce``) and :func:`optimal_bst`
(Knuth's optimal binary search tree: minimum expected guesses, ``live``).
The catalog stores each tree as an ordinary policy (:func:`word_tree_policy`).

>>> weights = WeightedList.from_counts({"cat": 1, "dog": 2, "eel": 5})
>>> tree = optimal_alphabetic(weights)
>>> tree.first_guess, play(tree, "cat")
('eel', [('eel', 'before'), ('dog', 'before')])
>>> expected_guesses(tree, weights)  # (1*2 + 2*2 + 5*1) / 8
1.375
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np

from ..client.errors import GuessMyWordError
from ..client.policy_format import PolicyData
from ..client.text import plural
from .weighted_lists import WeightedList
from .word_trees import (
    VARIANTS,
    Variant,
    WordTree,
    check_variant,
    play,
    policy_data,
)
from .word_trees import entropy as entropy

_Split = Callable[[int, int], int]


# ---------------------------------------------------------------------- trees


def _tree_from_splits(words: tuple[str, ...], variant: Variant, split: _Split) -> WordTree:
    """Return the tree over ``words`` in which ``split(lo, hi)`` divides words[lo:hi].

    For a split tree ``split`` returns k with lo < k < hi: the node guesses
    words[k], ``before`` covers [lo, k) and ``after`` [k, hi). For a key tree
    it returns r with lo <= r < hi: the node guesses words[r], ``before``
    covers [lo, r) and ``after`` [r + 1, hi).
    """
    node_word: list[int] = []
    node_before: list[int] = []
    node_after: list[int] = []
    node_depth: list[int] = []
    # Breadth-first, iteratively: adjacent-merge trees can be thousands deep.
    pending: list[tuple[int, int, int]] = [(0, len(words), 0)]
    head = 0
    while head < len(pending):
        lo, hi, depth = pending[head]
        head += 1
        children: list[tuple[int, int]]
        if variant == "deduce":
            if hi - lo == 1:
                word, children = lo, []
            else:
                word = split(lo, hi)
                if not lo < word < hi:
                    raise AssertionError(f"split {word} outside ({lo}, {hi})")
                children = [(lo, word), (word, hi)]
        else:
            word = split(lo, hi)
            if not lo <= word < hi:
                raise AssertionError(f"root {word} outside [{lo}, {hi})")
            children = [(lo, word), (word + 1, hi)]
        links = []
        for child_lo, child_hi in children:
            if child_lo < child_hi:
                links.append(len(pending))
                pending.append((child_lo, child_hi, depth + 1))
            else:
                links.append(-1)
        node_word.append(word)
        node_before.append(links[0] if links else -1)
        node_after.append(links[1] if links else -1)
        node_depth.append(depth)
    return WordTree(
        variant,
        words,
        np.array(node_word, dtype=np.int32),
        np.array(node_before, dtype=np.int32),
        np.array(node_after, dtype=np.int32),
        np.array(node_depth, dtype=np.int32),
    )


# ----------------------------------------------------------------- evaluation


def guess_counts(tree: WordTree, variant: Variant | None = None) -> np.ndarray:
    """Return the number of guesses each word takes as the target, in word order.

    ``deduce``: the depth of the word's leaf (comparisons only). ``live``: one
    more than the depth of the first node on the word's path that guesses it
    (for a split tree, the node splitting just before it, or else its leaf).

    Raises:
        GuessMyWordError: see :func:`expected_guesses` for the variant.
    """
    variant = check_variant(tree, variant)
    if variant == "deduce":
        leaves = (tree.node_before < 0) & (tree.node_after < 0)
        counts = np.zeros(len(tree.words), dtype=np.int64)
        counts[tree.node_word[leaves]] = tree.node_depth[leaves]
        return counts
    # A split tree guesses word k (k > 0) once, at the node that separates
    # word k-1 from word k: an ancestor of k's leaf, so the shallowest node
    # holding k is where the game ends.
    first = np.full(len(tree.words), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, tree.node_word, tree.node_depth.astype(np.int64))
    return first + 1


def _check_weights(tree: WordTree, weights: WeightedList) -> None:
    """Raise GuessMyWordError unless ``weights`` is over the tree's words."""
    if weights.words != tree.words:
        raise GuessMyWordError(
            f"the weights' {plural(len(weights), 'word')} "
            f"{'is' if len(weights) == 1 else 'are'} not the tree's "
            f"{plural(len(tree.words), 'word')}"
        )


def expected_guesses(
    tree: WordTree, weights: WeightedList, variant: Variant | None = None
) -> float:
    """Return the exact expected number of guesses when targets are drawn by ``weights``.

    ``variant`` defaults to the tree's own. A split tree (``deduce``) may be
    played ``live``; a key tree (``live``) cannot be played ``deduce``.

    Raises:
        GuessMyWordError: ``weights`` is over other words than the tree, the
            variant is unknown, or a key tree is asked for ``deduce``.
    """
    _check_weights(tree, weights)
    counts = guess_counts(tree, variant)
    # Python integers: the weighted sum is exact before the one division.
    total = sum(c * int(g) for c, g in zip(weights.counts, counts.tolist(), strict=True))
    return total / weights.total


def target_at(weights: WeightedList, index: int) -> str:
    """Return the word whose cumulative count first exceeds ``index`` (0 <= index < total).

    The seed's ``binary_search_word_generation``: a uniform ``index`` gives a
    target drawn by count.

    Raises:
        GuessMyWordError: ``index`` is outside [0, total).

    >>> target_at(WeightedList.from_counts({"ant": 2, "bee": 3}), 2)
    'bee'
    """
    if not 0 <= index < weights.total:
        raise GuessMyWordError(f"index {index} is outside [0, {weights.total})")
    cumulative = np.cumsum(weights.count_array())
    return weights.words[int(np.searchsorted(cumulative, index, side="right"))]


def sample_guesses(
    tree: WordTree,
    weights: WeightedList,
    variant: Variant | None = None,
    samples: int = 100_000,
    seed: int | None = 0,
) -> np.ndarray:
    """Return the guess counts of ``samples`` games with targets drawn by ``weights``.

    As in the seed, each target is :func:`target_at` a uniform random integer
    below the total count. Each game is really played (:func:`play`), so this
    checks :func:`expected_guesses` independently.

    Raises:
        GuessMyWordError: ``samples`` < 1, or as for :func:`expected_guesses`.
    """
    _check_weights(tree, weights)
    variant = check_variant(tree, variant)
    if samples < 1:
        raise GuessMyWordError(f"samples must be at least 1, not {samples}")
    rng = np.random.default_rng(seed)
    cumulative = np.cumsum(weights.count_array())
    drawn = rng.integers(0, weights.total, size=samples)
    targets = np.searchsorted(cumulative, drawn, side="right")
    played = {int(t): len(play(tree, weights.words[int(t)], variant)) for t in np.unique(targets)}
    return np.array([played[int(t)] for t in targets], dtype=np.int64)


def confidence_interval_95(samples: np.ndarray | Sequence[float]) -> tuple[float, float, float]:
    """Return (mean, low, high): the seed's normal 95% interval for the mean of ``samples``.

    ``mean +- 1.96 * sqrt(var / n)`` with the seed's (biased, ddof=0) variance.

    Raises:
        GuessMyWordError: ``samples`` is empty.
    """
    values = np.asarray(samples, dtype=np.float64)
    if values.size == 0:
        raise GuessMyWordError("a confidence interval needs at least one sample")
    mean = float(values.mean())
    half = 1.96 * math.sqrt(float(values.var()) / values.size)
    return mean, mean - half, mean + half


# ------------------------------------------------------------------ strategies


def binary_search(weights: WeightedList, variant: Variant = "deduce") -> WordTree:
    """Return the seed's binary search tree, which ignores the counts.

    ``deduce``: words[lo:hi] split after the midpoint ``mid = (lo + hi - 1) // 2``
    (the seed's ``(max_ - min_) // 2 + min_``), so the ``before`` side is the
    larger half. ``live``: the root of words[lo:hi] is that same midpoint.

    Raises:
        GuessMyWordError: unknown variant.
    """
    if variant == "deduce":
        return _tree_from_splits(weights.words, "deduce", lambda lo, hi: (lo + hi - 1) // 2 + 1)
    if variant == "live":
        return _tree_from_splits(weights.words, "live", lambda lo, hi: (lo + hi - 1) // 2)
    raise GuessMyWordError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")


def adjacent_merge(weights: WeightedList) -> WordTree:
    """Return the seed's "Huffman" split tree (``deduce``).

    Repeatedly merge the adjacent pair of lowest combined count, the leftmost
    pair on ties (as the seed's scan does), keeping alphabetic order. A heap
    makes it O(n log n) instead of the seed's O(n^2).
    """
    n = len(weights)
    size = 2 * n - 1
    weight = [*weights.counts, *([0] * (n - 1))]
    lo = [*range(n), *([0] * (n - 1))]
    hi = [*range(1, n + 1), *([0] * (n - 1))]
    left_of = [i - 1 for i in range(n)] + [-1] * (n - 1)
    right_of = [i + 1 if i + 1 < n else -1 for i in range(n)] + [-1] * (n - 1)
    alive = [True] * n + [False] * (n - 1)
    # (combined count, first word of the pair, left node, right node): the first
    # word orders pairs as the seed's list positions do.
    heap = [(weight[i] + weight[i + 1], i, i, i + 1) for i in range(n - 1)]
    heapq.heapify(heap)
    splits: dict[tuple[int, int], int] = {}
    new = n
    while new < size:
        combined, _, a, b = heapq.heappop(heap)
        if not (alive[a] and alive[b] and right_of[a] == b):
            continue  # a stale pair: one side was merged since it was pushed
        weight[new], lo[new], hi[new] = combined, lo[a], hi[b]
        splits[lo[a], hi[b]] = lo[b]
        alive[a] = alive[b] = False
        alive[new] = True
        before, after = left_of[a], right_of[b]
        left_of[new], right_of[new] = before, after
        if before >= 0:
            right_of[before] = new
            heapq.heappush(heap, (weight[before] + combined, lo[before], before, new))
        if after >= 0:
            left_of[after] = new
            heapq.heappush(heap, (combined + weight[after], lo[new], new, after))
        new += 1
    return _tree_from_splits(weights.words, "deduce", lambda i, j: splits[i, j])


def _last_at_least(weight: list[int], top: int, x: int) -> int:
    """Return the largest j <= top with weight[j] >= x.

    Needs weight[0] >= x and weight[t] > weight[t + 2] for t + 2 <= top (no
    combinable triple there), so each of the two interleaved runs ending at
    ``top`` and ``top - 1`` is decreasing: one binary search in each.
    """
    best = 0
    for end in (top, top - 1):
        if end < 0 or weight[end % 2] < x:
            continue  # no index of this parity qualifies
        # Smallest m with weight[end - 2m] >= x: the run rises as m grows.
        lo, hi = 0, end // 2
        while lo < hi:
            mid = (lo + hi) // 2
            if weight[end - 2 * mid] >= x:
                hi = mid
            else:
                lo = mid + 1
        best = max(best, end - 2 * lo)
    return best


def _garsia_wachs_depths(counts: Sequence[int]) -> list[int]:
    """Return the leaf depths of an optimal alphabetic tree for ``counts`` (Garsia-Wachs).

    Phases 1 and 2 as in Knuth's GARSIA-WACHS program (TAOCP 6.2.2): words
    enter a working sequence left to right; while some consecutive triple
    (x, y, z) has x <= z, x and y are combined and the sum moves left past
    lighter trees; then the leaf depths are read off. An alphabetic tree with
    those depths (phase 3, done by the caller) is optimal. The working
    sequence never holds a combinable triple except where a sum was just
    inserted, so only those places are checked (a stack of them, instead of
    Knuth's recursion), and insertion points are found by binary search:
    O(n log n) comparisons plus list moves done in C.
    """
    n = len(counts)
    if n == 1:
        return [0]
    sentinel = sum(counts) + 1  # heavier than any tree: never combined
    weight, ident = [sentinel], [-1]
    parent = [0] * (2 * n - 1)
    new = n

    def combine(k: int) -> None:
        """Combine weight[k - 1] and weight[k], then any triples that makes combinable."""
        nonlocal new
        # Distances from the end of inserted sums whose left triple needs a check:
        # stable, because everything below only changes the sequence to their left.
        pending: list[int] = []
        while True:
            x = weight[k - 1] + weight[k]
            parent[ident[k - 1]] = parent[ident[k]] = new
            del weight[k - 1 : k + 1], ident[k - 1 : k + 1]
            j = _last_at_least(weight, k - 2, x)
            weight.insert(j + 1, x)
            ident.insert(j + 1, new)
            new += 1
            pending.append(len(weight) - (j + 1))
            while pending:
                at = len(weight) - pending[-1]
                if at >= 2 and weight[at - 2] <= weight[at]:
                    k = at - 1
                    break
                pending.pop()
            else:
                return

    for i, count in enumerate(counts):
        while len(weight) >= 3 and weight[-2] <= count:
            combine(len(weight) - 1)
        weight.append(count)
        ident.append(i)
    while len(weight) > 2:  # a right sentinel would make every last triple combinable
        combine(len(weight) - 1)
    depth = [0] * (2 * n - 1)
    for node in range(2 * n - 3, -1, -1):  # parents are numbered after children
        depth[node] = depth[parent[node]] + 1
    return depth[:n]


def _splits_from_depths(depths: Sequence[int]) -> dict[tuple[int, int], int]:
    """Return the splits of the alphabetic tree whose leaves have ``depths`` in order."""
    splits: dict[tuple[int, int], int] = {}
    stack: list[tuple[int, int, int]] = []  # (depth, lo, hi) of finished subtrees
    for i, d in enumerate(depths):
        stack.append((d, i, i + 1))
        while len(stack) >= 2 and stack[-1][0] == stack[-2][0]:
            d2, mid, right_hi = stack.pop()
            _, left_lo, _ = stack.pop()
            splits[left_lo, right_hi] = mid
            stack.append((d2 - 1, left_lo, right_hi))
    if stack != [(0, 0, len(depths))]:
        raise AssertionError(f"leaf depths {list(depths)[:20]}... make no alphabetic tree")
    return splits


def _knuth_roots(counts: Sequence[int], variant: Variant) -> _Split:
    """Return the split function of a minimum-cost tree by Knuth's O(n^2) interval DP.

    ``live``: the optimal binary search tree, cost(i, j) = W(i, j) + min over
    roots i <= r < j of cost(i, r) + cost(r + 1, j). ``deduce``: the optimal
    alphabetic tree, the same with splits i < k < j and cost(i, k) + cost(k, j).
    Both costs obey the quadrangle inequality, so the leftmost best root of
    [i, j) lies between those of [i, j - 1) and [i + 1, j) (Knuth; Yao), and
    each length is one vectorised pass over O(n) candidates.
    Intervals are half-open [i, j); length L's cells are stored from offset[L].
    """
    n = len(counts)
    prefix = np.concatenate(([0], np.cumsum(np.array(counts, dtype=np.int64))))
    # Costs stay below total * n; past int64 fall back to floats (ties may then blur).
    dtype = np.int64 if int(prefix[-1]) * (n + 1) < 2**62 else np.float64
    offset = np.concatenate(([0], np.cumsum(np.arange(n + 1, 0, -1))))
    cost = np.zeros(int(offset[-1]), dtype=dtype)
    root = np.zeros(int(offset[-1]), dtype=np.int32)
    leaves = variant == "deduce"
    first = 2 if leaves else 1  # shortest interval that needs a root
    for length in range(first, n + 1):
        i = np.arange(n - length + 1, dtype=np.int64)
        j = i + length
        if length == first:
            low = i + (1 if leaves else 0)
            high = low
        else:
            low = root[offset[length - 1] + i].astype(np.int64)
            high = root[offset[length - 1] + i + 1].astype(np.int64)
        widths = high - low + 1
        starts = np.cumsum(widths) - widths
        cell = np.repeat(np.arange(len(i)), widths)
        r = low[cell] + np.arange(int(widths.sum())) - starts[cell]
        ci, cj = i[cell], j[cell]
        right_lo = r if leaves else r + 1
        values = cost[offset[r - ci] + ci] + cost[offset[cj - right_lo] + right_lo]
        best = np.minimum.reduceat(values, starts)
        positions = np.where(values == best[cell], np.arange(len(values)), len(values))
        chosen = np.minimum.reduceat(positions, starts)
        cost[offset[length] + i] = best + (prefix[j] - prefix[i]).astype(dtype)
        root[offset[length] + i] = r[chosen]
    return lambda lo, hi: int(root[offset[hi - lo] + lo])


def optimal_alphabetic(
    weights: WeightedList, method: Literal["garsia-wachs", "knuth"] = "garsia-wachs"
) -> WordTree:
    """Return a split tree with the minimum expected guesses in the ``deduce`` variant.

    That is an optimal alphabetic binary tree with the words as leaves:
    ``method="garsia-wachs"`` (the default; O(n log n) comparisons) or
    ``"knuth"`` (Knuth-Yao interval DP, O(n^2) time and memory: a cross-check).
    Both give the same expectation; on ties the trees may differ.

    Raises:
        GuessMyWordError: unknown method.
    """
    if method == "garsia-wachs":
        splits = _splits_from_depths(_garsia_wachs_depths(weights.counts))
        return _tree_from_splits(weights.words, "deduce", lambda i, j: splits[i, j])
    if method == "knuth":
        return _tree_from_splits(weights.words, "deduce", _knuth_roots(weights.counts, "deduce"))
    raise GuessMyWordError(f"unknown method {method!r}; methods: garsia-wachs, knuth")


def optimal_bst(weights: WeightedList) -> WordTree:
    """Return a key tree with the minimum expected guesses in the ``live`` variant.

    Knuth's optimal binary search tree: keys weighted by their counts, no gap
    weights (every target is a word of the list); a target costs one guess per
    node on its path, including the node that guesses it. O(n^2) time and memory
    (about 140 MB for 5,000 words); ties go to the leftmost root.
    """
    return _tree_from_splits(weights.words, "live", _knuth_roots(weights.counts, "live"))


def exhaustive_expected_guesses(weights: WeightedList, variant: Variant) -> float:
    """Return the minimum expected guesses over all trees, by a plain O(n^3) DP.

    ``deduce``: over all alphabetic split trees; ``live``: over all binary
    search trees. Meant for checking the fast strategies on small lists.

    Raises:
        GuessMyWordError: unknown variant.
    """
    if variant not in VARIANTS:
        raise GuessMyWordError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")
    n = len(weights)
    prefix = [0]
    for count in weights.counts:
        prefix.append(prefix[-1] + count)
    # cost[i][j]: the least total of count * guesses over words[i:j].
    cost = [[0] * (n + 1) for _ in range(n + 1)]
    for length in range(2 if variant == "deduce" else 1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            if variant == "deduce":
                best = min(cost[i][k] + cost[k][j] for k in range(i + 1, j))
            else:
                best = min(cost[i][r] + cost[r + 1][j] for r in range(i, j))
            cost[i][j] = best + prefix[j] - prefix[i]
    return cost[0][n] / prefix[n]


# ------------------------------------------------------------- for the catalog

#: The shipped catalog's Guess My Word trees: (strategy, variant).
DEFAULT_WORD_TREES: tuple[tuple[str, Variant], ...] = (
    ("binary", "deduce"),
    ("adjacent-merge", "deduce"),
    ("optimal", "deduce"),
    ("binary", "live"),
    ("adjacent-merge", "live"),
    ("optimal", "live"),
)


def build_tree(weights: WeightedList, strategy: str, variant: Variant) -> WordTree:
    """Return the tree of ``strategy`` for ``variant``: ``optimal`` is Garsia-Wachs for
    ``deduce`` and Knuth's optimal binary search tree for ``live``.

    Raises:
        GuessMyWordError: unknown strategy.
    """
    if strategy == "binary":
        return binary_search(weights, variant)
    if strategy == "adjacent-merge":
        return adjacent_merge(weights)  # a deduce-shaped tree, played in either variant
    if strategy == "optimal":
        return optimal_alphabetic(weights) if variant == "deduce" else optimal_bst(weights)
    raise GuessMyWordError(f"unknown strategy {strategy!r}; use binary, adjacent-merge or optimal")


def word_tree_policy(
    weights: WeightedList, strategy: str, variant: Variant, list_name: str = "common-words"
) -> PolicyData:
    """Return the tree of ``strategy`` over ``weights`` played in ``variant``, as a policy
    (``guess-my-word-{list_name}-{strategy}-{variant}``; see builder.word_trees).

    Raises:
        GuessMyWordError: unknown strategy or variant.
    """
    return policy_data(
        build_tree(weights, strategy, variant), weights, strategy, variant, list_name
    )
