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

from guesswork.builder.optimal.problem import Problem

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
    want_hash: bool,
    counts: np.ndarray,
    touched: np.ndarray,
    labels: np.ndarray,
    out_index: np.ndarray,
    out_bound: np.ndarray,
    out_closed: np.ndarray,
    out_squares: np.ndarray,
    out_plogp: np.ndarray,
    out_hash: np.ndarray,
) -> tuple[int, int]:
    """Partition ``targets`` by each candidate; keep those whose bound is below ``budget``.

    The scan is bound by memory traffic. For small sets it reads
    ``by_target`` (the matrix transposed, target-major): only the set's rows,
    each sequentially, where the guess-major matrix would fetch a whole cache
    line per (guess, target) pair. Large sets touch most of each guess's row
    anyway, and read ``by_guess`` (one short row per guess, in cache).
    With ``want_hash``, ``out_hash`` gets a 64-bit hash of the partition
    (classes labelled by first appearance, the win apart), for the beam's
    merging of identical partitions.

    For each kept candidate (written compactly from index 0): its position in
    ``candidates``, its static lower bound, 1 if *closed* (every class has at
    most two targets, so the bound is the exact value), the sum of squared
    class sizes and the sum of m*log(m) over classes (the greedy neg_entropy
    ranking, up to constants). A guess that does not split the targets and is
    not one of them, or leaves a class larger than ``max_class``, is
    infeasible.

    Returns:
        (kept count, least bound among feasible guesses not kept for reaching
        ``budget``; INFEASIBLE if none).
    """
    n = targets.shape[0]
    kept = 0
    excluded = INFEASIBLE
    guess_major = n > GUESS_MAJOR_FROM
    for i in range(candidates.shape[0]):
        guess = candidates[i]
        k = 0
        h = np.uint64(14695981039346656037)
        row = by_guess[guess]
        for j in range(n):
            code = row[targets[j]] if guess_major else by_target[targets[j], guess]
            if counts[code] == 0:
                touched[k] = code
                labels[code] = k
                k += 1
            counts[code] += 1
            if want_hash:
                label = np.uint64(1 << 20) if code == win else np.uint64(labels[code])
                h = (h ^ label) * np.uint64(1099511628211)
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
            else:
                bound += table[m]
        bound += 1 if minimax else n
        if (parts == 1 and not green) or worst > max_class:
            continue
        if bound >= budget:
            if bound < excluded:
                excluded = bound
            continue
        out_index[kept] = i
        out_bound[kept] = bound
        out_closed[kept] = closed
        out_squares[kept] = squares
        out_plogp[kept] = plogp
        out_hash[kept] = h
        kept += 1
    return kept, excluded


@dataclass(frozen=True, eq=False)
class ScanKernel:
    """The arrays :func:`scan_kernel` reads and writes for one search.

    After :meth:`run` returns ``kept``, the first ``kept`` entries of
    ``index``, ``bound``, ``closed``, ``squares``, ``plogp`` and ``hashes``
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
    labels: np.ndarray
    index: np.ndarray
    bound: np.ndarray
    closed: np.ndarray
    squares: np.ndarray
    plogp: np.ndarray
    hashes: np.ndarray

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
            labels=np.zeros(codes, dtype=np.int64),
            index=np.zeros(rows, dtype=np.int64),
            bound=np.zeros(rows, dtype=np.int64),
            closed=np.zeros(rows, dtype=np.int8),
            squares=np.zeros(rows, dtype=np.int64),
            plogp=np.zeros(rows, dtype=np.float64),
            hashes=np.zeros(rows, dtype=np.uint64),
        )

    def run(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        max_class: int,
        budget: int,
        want_hash: bool = False,
    ) -> tuple[int, int]:
        """Scan ``targets`` by each of ``candidates``; keep those with a bound below ``budget``.

        Returns:
            (kept count, least bound among feasible guesses not kept for
            reaching ``budget``), as :func:`scan_kernel`.
        """
        kept, excluded = scan_kernel(
            self.by_guess, self.by_target, candidates, targets, self.win, self.table,
            self.plogp_table, self.minimax, max_class, budget, want_hash, self.counts,
            self.touched, self.labels, self.index, self.bound, self.closed, self.squares,
            self.plogp, self.hashes,
        )  # fmt: skip
        return int(kept), int(excluded)
