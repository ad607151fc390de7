"""Static lower bounds: the bound tables and the compiled scan that applies them.

At a node, one compiled scan (:meth:`ScanKernel.run`) partitions the targets by
every candidate guess and gives each a *static lower bound*: this guess, plus
for each non-winning reply class of ``m`` targets the least any tree can
spend on ``m`` targets when a guess has at most ``R`` non-winning replies: one
target can be solved by the next guess, ``R`` by the one after, ``R**2`` by
the next (for Wordle with ``m <= 243`` that is the familiar ``2m - 1``).
Classes of one or two targets cost exactly 1 and 3 (1 and 2 for minimax), so
a guess whose classes all have at most two targets is *closed*: its bound is
its value.

The scan itself is C (``builder/optimal/_scan.c``: no JIT at run time).
:class:`ScanKernel` holds the arrays it reads and writes, so a search calls it
with the few arguments that change from node to node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._scan import Scanner
from .problem import Problem

#: Larger than any objective value: "no tree" (e.g. a depth cap cannot be met).
INFEASIBLE = 1 << 40
#: No caps on distinct replies (see ScanKernel.run and ScanKernel.distinct_replies).
NO_CAPS = np.zeros(0, dtype=np.int64)
NO_CAPS.setflags(write=False)


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


def objective_table(problem: Problem, minimax: bool) -> np.ndarray:
    """Return the bound table of ``problem`` under the objective: :func:`depth_bound_table`
    for minimax, else :func:`total_bound_table`, over every size up to its targets.

    Returns:
        An int64 array of ``problem.n_targets + 1`` entries.
    """
    size = problem.n_targets
    if minimax:
        return depth_bound_table(size, problem.replies)
    return total_bound_table(size, problem.replies)


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


@dataclass(frozen=True, eq=False)
class ScanKernel:
    """One search's compiled scan (:class:`._scan.Scanner`) and the arrays it writes.

    :meth:`run` partitions a target set by each candidate guess and keeps
    those whose static bound is below a budget. The scan is bound by memory
    traffic: it reads the target-major reply matrix through one row per
    target of the set, so consecutive guesses read neighbouring bytes of the
    same rows. After :meth:`run` returns ``kept``, the first ``kept``
    entries of ``index``, ``bound``, ``closed``, ``squares`` and ``plogp``
    describe the kept candidates, and ``distinct`` every scanned candidate
    (see :meth:`run`); the next run overwrites them.
    """

    scanner: Scanner
    #: The bound table of the objective (:func:`total_bound_table` or
    #: :func:`depth_bound_table`).
    table: np.ndarray
    index: np.ndarray
    bound: np.ndarray
    closed: np.ndarray
    squares: np.ndarray
    plogp: np.ndarray
    distinct: np.ndarray

    @classmethod
    def for_problem(
        cls, problem: Problem, minimax: bool, table: np.ndarray | None = None
    ) -> ScanKernel:
        """Return a kernel (bound table and output arrays) sized for ``problem``.

        ``table``: the objective's bound table (:func:`objective_table`) if the
        caller has it already, so that it is built once.

        Returns:
            A new kernel whose bound table matches the objective.
        """
        size = problem.n_targets
        if table is None:
            table = objective_table(problem, minimax)
        rows = max(problem.search_guesses, size)
        sizes = np.arange(size + 1, dtype=np.float64)
        plogp_table = sizes * np.log(np.maximum(sizes, 1.0))
        weights = np.zeros(0, np.int64) if problem.weights is None else problem.weights
        outputs: dict[str, np.ndarray] = {
            "index": np.zeros(rows, dtype=np.int64),
            "bound": np.zeros(rows, dtype=np.int64),
            "closed": np.zeros(rows, dtype=np.int8),
            "squares": np.zeros(rows, dtype=np.int64),
            "plogp": np.zeros(rows, dtype=np.float64),
            "distinct": np.zeros(rows, dtype=np.int32),
        }
        scanner = Scanner(
            problem.by_target, problem.win, table, plogp_table, minimax, weights, **outputs
        )
        return cls(scanner=scanner, table=table, **outputs)

    def run(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        max_class: int,
        budget: int,
        stop_at: int = -1,
        caps: np.ndarray = NO_CAPS,
    ) -> tuple[int, int]:
        """Scan ``targets`` by each of ``candidates``; keep those with a bound below ``budget``.

        For each kept candidate (written compactly from index 0): its position
        in ``candidates``, its static lower bound, 1 if *closed* (every class
        has at most two targets, so the bound is the exact value), the sum of
        squared class sizes and the sum of m*log(m) over classes (the greedy
        neg_entropy ranking, up to constants). A guess that does not split the
        targets and is not one of them, or leaves a class larger than
        ``max_class``, is infeasible. For *every* candidate scanned, kept or
        not, ``distinct`` (by position in ``candidates``) gets its
        distinct-reply count as :meth:`distinct_replies` counts it (0: it does
        not split); a candidate the scan did not reach gets the int32 maximum.

        With ``stop_at`` (a bound no guess can beat, or -1), the scan stops at
        the first guess not kept whose bound is at most ``stop_at``: callers
        that want only the least bound (``budget`` 0) get it without scanning
        the rest.

        ``caps`` (by vocabulary row; the unweighted total objective only) bounds
        each guess's distinct replies from above (see :meth:`distinct_replies`):
        as a total bound is at least ``3n`` minus that count, a guess whose cap
        puts it at or past both ``budget`` and the least bound excluded so far
        is not read, which changes neither what is kept nor the least bound
        excluded (its ``distinct`` entry is its cap).

        With target weights (the total objective) the bound is the node's
        weight plus each non-winning class's :func:`weighted_class_bound`; the
        rest (closed, squares, the ranking, feasibility) is over target
        counts, so equal weights give the same scan, bound for bound.

        Returns:
            (kept count, least bound among feasible guesses not kept for
            reaching ``budget``; INFEASIBLE if none).
        """
        kept, excluded = self.scanner.scan(candidates, targets, max_class, budget, stop_at, caps)
        return kept, excluded

    def distinct_replies(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        enough: int,
        caps: np.ndarray,
        probe: np.ndarray,
    ) -> tuple[int, int]:
        """Return the most *distinct reply codes* any splitting candidate gives
        ``targets``, counting the win twice (0 if no candidate splits them), and
        the first guess (vocabulary row) found with that count (-1 if none).
        Codes must be below 256.

        Where the total bound table is linear (``f[m] = 2m - 1``, every class
        no larger than the non-winning replies plus one), a guess's static
        bound is ``3n - k - w`` for ``k`` distinct codes and ``w`` = 1 if it
        wins one target: the least bound over guesses is ``3n`` minus this
        maximum, found with a 256-bit set per guess instead of class counts.
        Stops at the first candidate reaching ``enough`` (no candidate can do
        better).

        ``caps`` (by vocabulary row; empty: none) bounds each guess's count
        from above, e.g. its count on a superset of ``targets`` (a subset never
        has more distinct replies, nor a win its superset lacks): a guess
        whose cap is no more than the best count found cannot raise it and is
        not scanned. The ``probe`` guesses (rows, likely good: a superset's
        best splitters) are scanned first so that the best count, and with it
        the skipping, comes early. The result is the same maximum with or
        without them.

        Raises:
            ValueError: the matrix has codes of 256 or more.
        """
        return self.scanner.distinct(candidates, targets, enough, caps, probe)

    def adversary(
        self,
        candidates: np.ndarray,
        targets: np.ndarray,
        rank: np.ndarray,
        limit: int = 1 << 62,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return, for each of ``candidates``, the reply code of its largest class of
        ``targets`` (of equal ones, the code of least ``rank``, an int64 per code)
        and that class's size: Absurdle's reply (builder/absurdle.py). A candidate
        with a class over ``limit`` is read no further: -1 and ``limit + 1``.

        Raises:
            IndexError: a candidate or target is outside the reply matrix.
            ValueError: ``rank`` has fewer entries than there are reply codes.
        """
        chosen = np.empty(len(candidates), dtype=np.int64)
        kept = np.empty(len(candidates), dtype=np.int64)
        self.scanner.adversary(candidates, targets, rank, limit, chosen, kept)
        return chosen, kept

    def known_classes(
        self,
        guess: int,
        targets: np.ndarray,
        exact: dict[bytes, tuple[int, int]],
        lower: dict[bytes, int],
        suffix: bytes = b"",
        small_limit: int = 2,
    ) -> tuple[list[np.ndarray], list[bytes | None], list[int]]:
        """Return ``guess``'s non-winning classes of ``targets`` with each class's memo
        key and best known bound under the unweighted total objective, in one
        compiled pass (a search asks this of every guess it evaluates).

        Returns:
            The classes (largest first, ties in reply-code order, as
            Problem.split); their memo keys (the targets as int32 bytes, then
            ``suffix``; None for one or two targets); their bounds (one or two
            targets: 1 or 3, INFEASIBLE past ``small_limit`` targets; larger:
            the ``exact`` value, else the larger of the ``lower`` bound and
            the table's).

        Raises:
            IndexError: ``guess`` or a target is outside the reply matrix.
            TypeError: a memo entry is not what the search writes.
        """
        ordered = np.empty(len(targets), dtype=np.int64)
        return self.scanner.classes(guess, targets, ordered, exact, lower, suffix, small_limit)
