"""Static lower bounds: the bound tables and the compiled scan that applies them.

At a node, one compiled scan (:func:`scan_kernel`) partitions the targets by
every candidate guess and gives each a *static lower bound*: this guess, plus
for each non-winning reply class of ``m`` targets the least any tree can
spend on ``m`` targets when a guess has at most ``R`` non-winning replies: one
target can be solved by the next guess, ``R`` by the one after, ``R**2`` by
the next (for Wordle with ``m <= 243`` that is the familiar ``2m - 1``).
Classes of one or two targets cost exactly 1 and 3 (1 and 2 for minimax), so
a guess whose classes all have at most two targets is *closed*: its bound is
its value.

Small sets are scanned through a target-major copy of the reply matrix, large
ones through the guess-major matrix: the scan is bound by memory traffic.
:class:`ScanKernel` holds the arrays the kernel reads and writes, so a search
calls it with the few arguments that change from node to node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from .problem import Problem

#: Larger than any objective value: "no tree" (e.g. a depth cap cannot be met).
INFEASIBLE = 1 << 40
#: Sets larger than this are scanned guess-major (see scan_kernel).
GUESS_MAJOR_FROM = 48


def total_bound_table(size: int, replies: int) -> np.ndarray:
    """Return ``f[m]``: the least total guesses any tree spends on ``m`` targets.

    At most one target is solved by the first guess, ``replies`` by the second,
    ``replies**2`` by the third, and so on (``replies`` = non-winning replies).

    Returns:
        An int64 array of ``size + 1`` entries (``f[0] = 0``).
    """
    table = np.zeros(size + 1, dtype=np.int64)
    for m in range(1, size + 1):
        left, depth, width, total = m, 1, 1, 0
        while left > 0:
            solved = min(left, width)
            total += solved * depth
            left -= solved
            depth += 1
            width *= replies
        table[m] = total
    return table


def depth_bound_table(size: int, replies: int) -> np.ndarray:
    """Return ``h[m]``: the least worst-case guesses for ``m`` targets (``h[0] = 0``).

    Returns:
        An int64 array of ``size + 1`` entries.
    """
    table = np.zeros(size + 1, dtype=np.int64)
    for m in range(1, size + 1):
        depth, capacity, width = 1, 1, 1
        while capacity < m:
            width *= replies
            capacity += width
            depth += 1
        table[m] = depth
    return table


def capacity(guesses_left: int, replies: int) -> int:
    """Return how many targets a tree of ``guesses_left`` levels can hold at most.

    Returns:
        The capacity, clipped to ``1 << 40``.
    """
    total, width = 0, 1
    for _ in range(max(guesses_left, 0)):
        total += width
        width *= replies
        if total > 1 << 40:
            return 1 << 40
    return total


@numba.njit(cache=True)
def scan_kernel(
    by_guess: np.ndarray,
    by_target: np.ndarray,
    candidates: np.ndarray,
    targets: np.ndarray,
    win: int,
    table: np.ndarray,
    plogp_table: np.ndarray,
    minimax: bool,
    max_class: int,
    budget: int,
    stop_at: int,
    counts: np.ndarray,
    touched: np.ndarray,
    out_index: np.ndarray,
    out_bound: np.ndarray,
    out_closed: np.ndarray,
    out_squares: np.ndarray,
    out_plogp: np.ndarray,
    out_distinct: np.ndarray,
    weights: np.ndarray,
    mass: np.ndarray,
    heaviest: np.ndarray,
    lightest: np.ndarray,
) -> tuple[int, int]:
    """Partition ``targets`` by each candidate; keep those whose bound is below ``budget``.

    The scan is bound by memory traffic. For small sets it reads
    ``by_target`` (the matrix transposed, target-major): only the set's rows,
    each sequentially, where the guess-major matrix would fetch a whole cache
    line per (guess, target) pair. Large sets touch most of each guess's row
    anyway, and read ``by_guess`` (one short row per guess, in cache).
    For each kept candidate (written compactly from index 0): its position in
    ``candidates``, its static lower bound, 1 if *closed* (every class has at
    most two targets, so the bound is the exact value), the sum of squared
    class sizes and the sum of m*log(m) over classes (the greedy neg_entropy
    ranking, up to constants). A guess that does not split the targets and is
    not one of them, or leaves a class larger than ``max_class``, is
    infeasible. For *every* candidate scanned, kept or not, ``out_distinct``
    (by position in ``candidates``) gets its distinct-reply count as
    :func:`distinct_replies_kernel` counts it (0: it does not split); a
    candidate the scan did not reach (``stop_at``) gets the most codes there are.

    With ``stop_at`` (a bound no guess can beat, or -1), the scan stops at the
    first guess not kept whose bound is at most ``stop_at``: callers that want
    only the least bound (``budget`` 0) get it without scanning the rest.

    With target ``weights`` (the total objective; an empty array: every target
    alike) the bound is the node's weight plus each non-winning class's
    :func:`weighted_class_bound`, from its weight, heaviest and lightest target
    (``mass``, ``heaviest``, ``lightest``: scratch per reply code); the rest
    (closed, squares, the m*log(m) ranking, feasibility) is over target counts,
    so equal weights give the same scan, bound for bound.

    Returns:
        (kept count, least bound among feasible guesses not kept for reaching
        ``budget``; INFEASIBLE if none).
    """
    n = targets.shape[0]
    kept = 0
    excluded = INFEASIBLE
    guess_major = n > GUESS_MAJOR_FROM
    weighted = weights.shape[0] > 0
    node_mass = 0
    if weighted:
        for j in range(n):
            node_mass += weights[targets[j]]
    for i in range(candidates.shape[0]):
        guess = candidates[i]
        k = 0
        row = by_guess[guess]
        for j in range(n):
            target = targets[j]
            code = row[target] if guess_major else by_target[target, guess]
            if counts[code] == 0:
                touched[k] = code
                k += 1
                if weighted:
                    mass[code] = 0
                    heaviest[code] = 0
                    lightest[code] = INFEASIBLE
            counts[code] += 1
            if weighted:
                w = weights[target]
                mass[code] += w
                heaviest[code] = max(heaviest[code], w)
                lightest[code] = min(lightest[code], w)
        green = False
        parts = 0
        worst = 0
        bound = 0
        squares = 0
        plogp = 0.0
        closed = 1
        for c in range(k):
            code = touched[c]
            m = counts[code]
            counts[code] = 0
            squares += m * m
            plogp += plogp_table[m]
            if code == win:
                green = True
                continue
            parts += 1
            if m > worst:
                worst = m
            if m > 2:
                closed = 0
            if minimax:
                if table[m] > bound:
                    bound = table[m]
            elif weighted:
                bound += weighted_class_bound(
                    mass[code], heaviest[code], lightest[code], m, table[m]
                )
            else:
                bound += table[m]
        bound += 1 if minimax else node_mass if weighted else n
        if parts == 1 and not green:
            out_distinct[i] = 0
            continue
        out_distinct[i] = parts + 2 if green else parts
        if worst > max_class:
            continue
        if bound >= budget:
            if bound < excluded:
                excluded = bound
                if excluded <= stop_at:
                    # No guess can do better: the least bound is found. The rest
                    # were not counted: no cap on their distinct replies.
                    out_distinct[i + 1 :] = counts.shape[0] + 1
                    break
            continue
        out_index[kept] = i
        out_bound[kept] = bound
        out_closed[kept] = closed
        out_squares[kept] = squares
        out_plogp[kept] = plogp
        kept += 1
    return kept, excluded


@numba.njit(cache=True)
def weighted_class_bound(mass: int, heaviest: int, lightest: int, size: int, table_m: int) -> int:
    """Return the least weighted total any tree spends on a class: ``size`` targets of
    total weight ``mass``, the heaviest ``heaviest``, the lightest ``lightest``, whose
    unweighted bound (least sum of guesses) is ``table_m``.

    With the targets' depths sorted ``d1 <= d2 <= ...`` (at most one target is
    solved by the first guess, so ``d1 >= 1`` and ``di >= 2`` after it), the
    cheapest assignment puts the heaviest target first (rearrangement), and
    ``sum w*d >= w_max + 2 (W - w_max) + w_min * (sum d - 2 size + 1)``, where
    ``sum d >= table_m``. Equal weights of 1 give ``table_m`` exactly; one or
    two targets give their exact value (``w``; ``2W - w_max``).
    """
    if table_m >= INFEASIBLE:
        return INFEASIBLE
    return 2 * mass - heaviest + lightest * (table_m - 2 * size + 1)


@numba.njit(cache=True)
def distinct_replies_kernel(
    by_guess: np.ndarray,
    by_target: np.ndarray,
    candidates: np.ndarray,
    targets: np.ndarray,
    win: int,
    enough: int,
    caps: np.ndarray,
    probe: np.ndarray,
) -> int:
    """Return the most *distinct reply codes* any splitting candidate gives ``targets``,
    counting the win twice (0 if no candidate splits them). Codes must be below 256.

    Where the total bound table is linear (``f[m] = 2m - 1``, every class no
    larger than the non-winning replies plus one), a guess's static bound is
    ``3n - k - w`` for ``k`` distinct codes and ``w`` = 1 if it wins one
    target: the least bound over guesses is ``3n`` minus this maximum, found
    with a 256-bit set per guess instead of class counts (4x faster than
    :func:`scan_kernel` on Wordle sets of 5 to 40 targets). Stops at the first
    candidate reaching ``enough`` (no candidate can do better).

    ``caps`` (by vocabulary row; empty: none) bounds each guess's count from
    above, e.g. its count on a superset of ``targets`` (a subset never has more
    distinct replies, nor a win its superset lacks): a guess whose cap is no
    more than the best count found cannot raise it and is not scanned. The
    ``probe`` guesses (rows, likely good: a superset's best splitters) are
    scanned first so that the best count, and with it the skipping, comes
    early. The result is the same maximum with or without them.
    """
    n = targets.shape[0]
    guess_major = n > GUESS_MAJOR_FROM
    best = 0
    bits = np.zeros(4, np.uint64)
    win_word = win >> 6
    win_bit = np.uint64(1) << np.uint64(win & 63)
    capped = caps.shape[0] > 0
    for i in range(probe.shape[0] + candidates.shape[0]):
        guess = probe[i] if i < probe.shape[0] else candidates[i - probe.shape[0]]
        if capped and caps[guess] <= best:
            continue  # cannot count more than the best found
        bits[0] = 0
        bits[1] = 0
        bits[2] = 0
        bits[3] = 0
        row = by_guess[guess]
        for j in range(n):
            code = row[targets[j]] if guess_major else by_target[targets[j], guess]
            bits[code >> 6] |= np.uint64(1) << np.uint64(code & 63)
        k = _popcount(bits[0]) + _popcount(bits[1]) + _popcount(bits[2]) + _popcount(bits[3])
        won = 1 if bits[win_word] & win_bit else 0
        if k == 1 and won == 0:
            continue  # does not split
        if k + won > best:
            best = k + won
            if best >= enough:
                break
    return best


@numba.njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:
    """Return the number of set bits of ``x`` (branch-free)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@dataclass(frozen=True, eq=False)
class ScanKernel:
    """The arrays :func:`scan_kernel` reads and writes for one search.

    After :meth:`run` returns ``kept``, the first ``kept`` entries of
    ``index``, ``bound``, ``closed``, ``squares`` and ``plogp``
    describe the kept candidates (see :func:`scan_kernel`); the next run
    overwrites them.
    """

    by_guess: np.ndarray
    by_target: np.ndarray
    win: int
    #: The bound table of the objective (:func:`total_bound_table` or
    #: :func:`depth_bound_table`).
    table: np.ndarray
    plogp_table: np.ndarray
    minimax: bool
    counts: np.ndarray
    touched: np.ndarray
    index: np.ndarray
    bound: np.ndarray
    closed: np.ndarray
    squares: np.ndarray
    plogp: np.ndarray
    #: Every scanned candidate's distinct-reply count (see :func:`scan_kernel`).
    distinct: np.ndarray
    #: The targets' weights (int64; empty: every target counts once).
    weights: np.ndarray
    #: Per reply code: the weight, heaviest and lightest target of its class
    #: (scratch for the weighted scan).
    mass: np.ndarray
    heaviest: np.ndarray
    lightest: np.ndarray

    @classmethod
    def for_problem(cls, problem: Problem, minimax: bool) -> ScanKernel:
        """Return a kernel (bound table and scratch arrays) sized for ``problem``.

        Returns:
            A new kernel whose bound table matches the objective.
        """
        size = problem.n_targets
        table = (
            depth_bound_table(size, problem.replies)
            if minimax
            else total_bound_table(size, problem.replies)
        )
        rows = max(problem.search_guesses, size)
        codes = problem.matrix.max(initial=0) + 2
        sizes = np.arange(size + 1, dtype=np.float64)
        return cls(
            by_guess=problem.matrix,
            by_target=problem.by_target,
            win=problem.win,
            table=table,
            plogp_table=sizes * np.log(np.maximum(sizes, 1.0)),
            minimax=minimax,
            counts=np.zeros(codes, dtype=np.int64),
            touched=np.zeros(codes, dtype=np.int64),
            index=np.zeros(rows, dtype=np.int64),
            bound=np.zeros(rows, dtype=np.int64),
            closed=np.zeros(rows, dtype=np.int8),
            squares=np.zeros(rows, dtype=np.int64),
            plogp=np.zeros(rows, dtype=np.float64),
            distinct=np.zeros(rows, dtype=np.int32),
            weights=np.zeros(0, np.int64) if problem.weights is None else problem.weights,
            mass=np.zeros(codes, dtype=np.int64),
            heaviest=np.zeros(codes, dtype=np.int64),
            lightest=np.zeros(codes, dtype=np.int64),
        )

    def run(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        max_class: int,
        budget: int,
        stop_at: int = -1,
    ) -> tuple[int, int]:
        """Scan ``targets`` by each of ``candidates``; keep those with a bound below ``budget``.

        ``stop_at``: see :func:`scan_kernel` (the least bound is exact only if
        no guess can have a bound below it).

        Returns:
            (kept count, least bound among feasible guesses not kept for
            reaching ``budget``), as :func:`scan_kernel`.
        """
        kept, excluded = scan_kernel(
            self.by_guess,
            self.by_target,
            candidates,
            targets,
            self.win,
            self.table,
            self.plogp_table,
            self.minimax,
            max_class,
            budget,
            stop_at,
            self.counts,
            self.touched,
            self.index,
            self.bound,
            self.closed,
            self.squares,
            self.plogp,
            self.distinct,
            self.weights,
            self.mass,
            self.heaviest,
            self.lightest,
        )
        return int(kept), int(excluded)
