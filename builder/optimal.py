"""Optimal, capped, minimax and lookahead guess trees by branch and bound.

The search
----------
``Search.solve(S, budget)`` returns the exact optimum of target set ``S`` when
that optimum is below ``budget``, and otherwise a *lower bound* that is at
least ``budget`` (a refutation). Objectives:

* ``total``: the sum over targets of the guesses each takes (mean = total / n),
  optionally with every target solved within ``max_guesses``;
* ``minimax``: the number of guesses the worst target takes.

At a node, one compiled scan (:func:`_scan`) partitions ``S`` by every
candidate guess and gives each a *static lower bound*: this guess, plus for
each non-winning reply class of ``m`` targets the least any tree can spend on
``m`` targets when a guess has at most ``R`` non-winning replies: one target
can be solved by the next guess, ``R`` by the one after, ``R**2`` by the next
(for Wordle with ``m <= 243`` that is the familiar ``2m - 1``). Classes of one
or two targets cost exactly 1 and 3 (1 and 2 for minimax), so a guess whose
classes all have at most two targets is *closed*: its bound is its value.
Guesses that do not split ``S`` are dropped; the rest are tried in order of
their bound (then the sum of squared class sizes, then list order), and a
guess that splits ``S`` exactly like one tried before is skipped (its
canonical partition is compared). Before a guess's classes are searched, each
class's bound is tightened by one level of lookahead (the least static bound
over its own guesses, memoised as a proven bound), which refutes most
hopeless guesses without any search. Each class's search then gets the budget
left after the exact values found so far and the bounds of the classes still
to do, largest class first, so a guess is abandoned as soon as its partial sum
reaches the best total found. Exact values and proven lower bounds are both
memoised per target set (and remaining depth, under a cap). Two shortcuts end
a node at once: a closed guess with the least bound of all, and (when the
size bound is 2n - 1) a target that splits the others into singletons.

Small sets are scanned through a target-major copy of the reply matrix, large
ones through the guess-major matrix (see :func:`_scan`): the scan is bound by
memory traffic. For Mastermind, :class:`CodeSymmetry` drops guesses that a
colour or peg symmetry of the history maps onto others.

Determinism: the guess recorded for a set depends only on the set (and the
guesses left under a cap), never on the budget it was searched with, so the
tree does not depend on the order in which sets were first met or on how the
work was split between processes. (With a symmetry hook the candidate list
also depends on the path, so only the value, not the tree, is guaranteed
path-independent.)

With ``beam=K`` (lookahead) a node tries only its ``K`` best guesses by the
greedy ``neg_entropy`` ranking; the run is still *proven* if no guess left
out had a bound below the value found.

Certificates (:class:`Certificate`) record the objective value, the best lower
bound, the parameters, and per node the subtree's value and the static bound
of its target set, which ``verify_certificate`` recomputes from scratch.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numba
import numpy as np

from builder.greedy import guess_vocabulary
from builder.matrices import reply_matrix
from builder.progress import Progress
from builder.tree import GuessTree
from builder.wordlists import WordList
from client.errors import GuessworkError
from client.games import Game

OBJECTIVES = ("total", "minimax")
#: Sets larger than this are scanned guess-major (see _scan).
_GUESS_MAJOR_FROM = 48
#: Larger than any objective value: "no tree" (e.g. a depth cap cannot be met).
INFEASIBLE = 1 << 40
#: Largest reply matrix a search builds (it keeps two copies: guess- and target-major).
MAX_MATRIX_CELLS = 1 << 29
#: Depth used when there is no cap (no game tree here is deeper).
_NO_CAP = 64


class SearchError(GuessworkError, ValueError):
    """A search cannot run as asked (e.g. a worst-case cap no tree can meet)."""


@dataclass(frozen=True)
class SearchOptions:
    """What to optimise and how hard to look.

    Attributes:
        objective: ``total`` (minimum sum of guesses) or ``minimax`` (minimum
            worst case).
        hard: guesses only from the targets still possible.
        max_guesses: for ``total``, every target must be solved within this
            many guesses.
        first_guess: the root's guess is fixed to this word.
        beam: lookahead: only the best ``beam`` guesses (greedy ranking) of
            each node are searched. None searches every guess.
        workers: processes for the root's branches (1 = in process).
    """

    objective: str = "total"
    hard: bool = False
    max_guesses: int | None = None
    first_guess: str | None = None
    beam: int | None = None
    workers: int = 1

    def check(self) -> None:
        """Raise SearchError if the options contradict each other."""
        if self.objective not in OBJECTIVES:
            raise SearchError(f"unknown objective {self.objective!r}; use total or minimax")
        if self.max_guesses is not None and self.max_guesses < 1:
            raise SearchError(f"--max-guesses must be at least 1, not {self.max_guesses}")
        if self.max_guesses is not None and self.objective == "minimax":
            raise SearchError("--max-guesses applies to --objective total only")
        if self.beam is not None and self.beam < 1:
            raise SearchError(f"--beam must be at least 1, not {self.beam}")
        if self.workers < 1:
            raise SearchError(f"workers must be at least 1, not {self.workers}")


# ---------------------------------------------------------------------------
# Bounds
# ---------------------------------------------------------------------------


def total_bound_table(size: int, replies: int) -> np.ndarray:
    """Return ``f[m]``: the least total guesses any tree spends on ``m`` targets.

    At most one target is solved by the first guess, ``replies`` by the second,
    ``replies**2`` by the third, and so on (``replies`` = non-winning replies).
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
    """Return ``h[m]``: the least worst-case guesses for ``m`` targets (``h[0] = 0``)."""
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
    """Return how many targets a tree of ``guesses_left`` levels can hold at most."""
    total, width = 0, 1
    for _ in range(max(guesses_left, 0)):
        total += width
        width *= replies
        if total > 1 << 40:
            return 1 << 40
    return total


@numba.njit(cache=True)
def _scan(
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
    infeasible. Returns (kept count, least bound among feasible guesses not
    kept).
    """
    n = targets.shape[0]
    kept = 0
    excluded = INFEASIBLE
    guess_major = n > _GUESS_MAJOR_FROM
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


# ---------------------------------------------------------------------------
# Symmetry (Mastermind): guesses equivalent under colour/peg permutations that
# fix every guess made so far lead to isomorphic subgames; keep one of each.
# ---------------------------------------------------------------------------

SymmetryHook = Callable[[tuple[int, ...]], np.ndarray | None]


class CodeSymmetry:
    """Mastermind's symmetries: peg permutations and colour renamings.

    After guesses ``history``, the peg permutations that leave every guess
    unchanged, combined with any renaming of colours no guess has used, map
    the set of codes still possible onto itself and preserve every reply; two
    guesses related by one of them have subtrees of equal value. So only the
    smallest code of each orbit needs trying (at the root of 6x4 that leaves
    AAAA, AAAB, AABB, AABC, ABCD). Applied to the first ``max_history``
    levels; deeper, few symmetries survive and the check costs more than it
    saves.
    """

    def __init__(self, codes: np.ndarray, colours: int, max_history: int = 2) -> None:
        self.codes = codes.astype(np.int64)
        self.colours = colours
        self.max_history = max_history
        pegs = codes.shape[1]
        self._weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
        self._numbers = self.codes @ self._weights
        self._cache: dict[tuple[int, ...], np.ndarray] = {}

    def __call__(self, history: tuple[int, ...]) -> np.ndarray | None:
        """Return one guess per orbit (vocabulary rows), or None past ``max_history``."""
        if len(history) > self.max_history:
            return None
        if history in self._cache:
            return self._cache[history]
        codes = self.codes
        count, pegs = codes.shape
        used = sorted({int(c) for h in history for c in codes[h]})
        unused = np.array([c for c in range(self.colours) if c not in used], dtype=np.int64)
        is_used = np.zeros(self.colours, dtype=bool)
        is_used[used] = True
        smallest = np.full(count, np.iinfo(np.int64).max)
        for perm in itertools.permutations(range(pegs)):
            if any((codes[h][list(perm)] != codes[h]).any() for h in history):
                continue
            moved = codes[:, list(perm)]
            renamed = np.empty_like(moved)
            mapping = np.full((count, self.colours), -1, dtype=np.int64)
            next_free = np.zeros(count, dtype=np.int64)
            rows = np.arange(count)
            for peg in range(pegs):
                colour = moved[:, peg]
                fixed = is_used[colour]
                new = ~fixed & (mapping[rows, colour] < 0)
                mapping[rows[new], colour[new]] = unused[next_free[new]]
                next_free[new] += 1
                renamed[:, peg] = np.where(fixed, colour, mapping[rows, colour])
            smallest = np.minimum(smallest, renamed @ self._weights)
        kept = np.flatnonzero(smallest == self._numbers)
        self._cache[history] = kept
        return kept


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


@dataclass
class SearchStats:
    """Counters of one search (for reports; not stored in policies)."""

    expanded: int = 0
    scanned: int = 0
    memo_hits: int = 0
    beam_cut: bool = False


@dataclass(frozen=True)
class Problem:
    """The numbers a search needs: the reply matrix and how targets map to guesses."""

    matrix: np.ndarray
    #: The same matrix target-major (``by_target[t, g]``), for scans.
    by_target: np.ndarray
    target_guess: np.ndarray
    win: int
    replies: int
    search_guesses: int

    @property
    def n_targets(self) -> int:
        """Return the number of targets."""
        return int(self.matrix.shape[1])


class Search:
    """Branch and bound over target sets; see the module docstring."""

    def __init__(
        self,
        problem: Problem,
        options: SearchOptions,
        symmetry: SymmetryHook | None = None,
    ) -> None:
        self.problem = problem
        self.options = options
        self.minimax = options.objective == "minimax"
        self.capped = options.max_guesses is not None
        self.symmetry = symmetry
        size = problem.n_targets
        self.table = (
            depth_bound_table(size, problem.replies)
            if self.minimax
            else total_bound_table(size, problem.replies)
        )
        self.all_guesses = np.arange(problem.search_guesses, dtype=np.int64)
        self.exact: dict[bytes, tuple[int, int]] = {}
        self.lower: dict[bytes, int] = {}
        #: Each scanned set's static bound (the least over its guesses), kept
        #: for the certificate so the tree's nodes need no second scan.
        self.static: dict[bytes, int] = {}
        self.stats = SearchStats()
        rows = max(problem.search_guesses, size)
        self._counts = np.zeros(problem.matrix.max(initial=0) + 2, dtype=np.int64)
        self._touched = np.zeros(self._counts.shape[0], dtype=np.int64)
        self.left_out = INFEASIBLE
        self._index = np.zeros(rows, dtype=np.int64)
        self._bound = np.zeros(rows, dtype=np.int64)
        self._closed = np.zeros(rows, dtype=np.int8)
        self._squares = np.zeros(rows, dtype=np.int64)
        self._plogp = np.zeros(rows, dtype=np.float64)
        self._hash = np.zeros(rows, dtype=np.uint64)
        self._labels = np.zeros(self._counts.shape[0], dtype=np.int64)
        sizes = np.arange(size + 1, dtype=np.float64)
        self._plogp_table = sizes * np.log(np.maximum(sizes, 1.0))

    # -- small sets -----------------------------------------------------------

    def _trivial(self, size: int) -> int:
        """Return the exact value of a set of one or two targets."""
        if self.minimax:
            return size
        return 1 if size == 1 else 3

    def _key(self, targets: np.ndarray, depth: int) -> bytes:
        body = targets.astype(np.int32).tobytes()
        return body + bytes([depth]) if self.capped else body

    def _max_class(self, depth: int) -> int:
        if not self.capped:
            return 1 << 40
        return capacity(depth - 1, self.problem.replies)

    def known_bound(self, targets: np.ndarray, depth: int) -> int:
        """Return the best lower bound known for ``targets`` without searching."""
        size = len(targets)
        if size <= 2:
            if self.capped and size > capacity(depth, self.problem.replies):
                return INFEASIBLE
            return self._trivial(size)
        key = self._key(targets, depth)
        if key in self.exact:
            return self.exact[key][0]
        return max(self.lower.get(key, 0), int(self.table[size]))

    # -- one node ---------------------------------------------------------------

    def candidates(self, targets: np.ndarray, history: tuple[int, ...] | None) -> np.ndarray:
        """Return the guesses to consider for ``targets`` (vocabulary rows).

        ``history`` (the guesses that led here, None if unknown) lets a
        symmetry hook drop guesses equivalent to others.
        """
        if self.options.hard:
            inside: np.ndarray = self.problem.target_guess[targets]
            return inside
        if self.symmetry is not None and history is not None:
            reduced = self.symmetry(history)
            if reduced is not None:
                return reduced
        return self.all_guesses

    def scan(
        self,
        targets: np.ndarray,
        depth: int,
        history: tuple[int, ...] | None = None,
        budget: int = INFEASIBLE,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Return (guesses, bounds, closed flags, excluded) for a node, in search order.

        Only guesses that split ``targets`` and have a bound below ``budget``
        are returned, ordered by bound, sum of squared class sizes, list
        order; under a beam, only the best ``beam`` distinct partitions by the
        greedy ranking are eligible. ``excluded`` is the least bound among
        eligible guesses left out for reaching the budget (a refutation of
        all of them). Sets ``self.left_out``: the least bound among guesses
        the beam left out.
        """
        guesses = self.candidates(targets, history)
        self.stats.scanned += len(guesses) * len(targets)
        beam = self.options.beam
        kept, excluded = _scan(
            self.problem.matrix, self.problem.by_target, guesses, targets, self.problem.win,
            self.table, self._plogp_table, self.minimax, self._max_class(depth),
            INFEASIBLE if beam is not None else budget, beam is not None, self._counts,
            self._touched, self._labels, self._index, self._bound, self._closed,
            self._squares, self._plogp, self._hash,
        )  # fmt: skip
        index = self._index[:kept]
        bound = self._bound[:kept]
        self.static[self._key(targets, depth)] = int(min(bound.min(initial=INFEASIBLE), excluded))
        self.left_out = INFEASIBLE
        if kept:
            # A closed guess (exact value) with the least bound is optimal:
            # nothing can beat it, so the node needs no search (nor a beam).
            lowest = bound.min()
            finished = np.flatnonzero((bound == lowest) & (self._closed[:kept] == 1))
            if len(finished):
                pick = finished[np.lexsort((index[finished], self._squares[finished]))[:1]]
                return guesses[index[pick]], bound[pick].copy(), self._closed[pick].copy(), excluded
        if beam is not None:
            rank = np.lexsort((index, self._plogp[:kept]))
            chosen: list[int] = []
            seen: set[int] = set()
            hashes = self._hash[:kept]
            for position in rank.tolist():
                if len(chosen) == beam:
                    break
                # Identical partitions have equal hashes; a (vanishingly rare)
                # collision would only narrow the lookahead, never a proof.
                signature = int(hashes[position])
                if signature not in seen:
                    seen.add(signature)
                    chosen.append(position)
            picked = np.array(sorted(chosen), dtype=np.int64)
            if len(chosen) == beam and len(rank) > beam:
                rest = np.setdiff1d(np.arange(kept), picked)
                self.left_out = int(bound[rest].min()) if len(rest) else INFEASIBLE
            over = bound[picked] >= budget
            excluded = int(bound[picked][over].min(initial=INFEASIBLE))
            order_of = picked[~over]
        else:
            order_of = np.arange(kept)
        order = order_of[np.lexsort((index[order_of], self._squares[order_of], bound[order_of]))]
        return (
            guesses[index[order]],
            bound[order].copy(),
            self._closed[order].copy(),
            int(excluded),
        )

    def _combine(self, targets: np.ndarray, bounds: list[int]) -> int:
        """Return a guess's value (or bound) from its classes' values (or bounds)."""
        if self.minimax:
            return 1 + max(bounds, default=0)
        return len(targets) + sum(bounds)

    def lookahead_bound(
        self, targets: np.ndarray, depth: int, history: tuple[int, ...] | None
    ) -> int:
        """Return a lower bound for ``targets``: the least static bound over its guesses.

        The result is memoised as a proven lower bound.
        """
        key = self._key(targets, depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        known = self.lower.get(key)
        if known is not None:
            return known
        guesses = self.candidates(targets, history)
        self.stats.scanned += len(guesses) * len(targets)
        _, least = _scan(
            self.problem.matrix, self.problem.by_target, guesses, targets, self.problem.win,
            self.table, self._plogp_table, self.minimax, self._max_class(depth), 0, False,
            self._counts, self._touched, self._labels, self._index, self._bound, self._closed,
            self._squares, self._plogp, self._hash,
        )  # fmt: skip
        self.lower[key] = least
        self.static[key] = least
        return least

    def _perfect_target(self, targets: np.ndarray, depth: int) -> tuple[int, int] | None:
        """Return (value, guess) if one of the targets splits the rest into singletons.

        Such a guess reaches the least value any tree can have (2n - 1) when
        that is the size bound, so trying the n targets first spares a scan
        of the whole guess list. Ties go to the lowest list position, as in
        the full scan's order.
        """
        size = len(targets)
        if self.options.hard or self.minimax or int(self.table[size]) != 2 * size - 1:
            return None
        inside = np.unique(self.problem.target_guess[targets])
        kept, _ = _scan(
            self.problem.matrix, self.problem.by_target, inside, targets, self.problem.win,
            self.table, self._plogp_table, False, self._max_class(depth), 2 * size,
            False, self._counts, self._touched, self._labels, self._index, self._bound,
            self._closed, self._squares, self._plogp, self._hash,
        )  # fmt: skip
        self.stats.scanned += len(inside) * size
        if kept == 0:
            return None
        self.static[self._key(targets, depth)] = 2 * size - 1
        return 2 * size - 1, int(inside[self._index[:kept]].min())

    def signature(self, guess: int, targets: np.ndarray) -> bytes:
        """Return the partition of ``targets`` by ``guess`` in canonical form.

        Classes are labelled by first appearance (the win apart), so two
        guesses that split the targets identically have equal signatures.
        """
        codes = self.problem.matrix[guess, targets].astype(np.int64)
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        rank = np.argsort(np.argsort(first))
        labels = rank[inverse]
        labels[codes == self.problem.win] = 255
        return labels.astype(np.uint8 if len(first) < 255 else np.int32).tobytes()

    def split(self, guess: int, targets: np.ndarray) -> list[np.ndarray]:
        """Return the non-winning classes of ``targets`` under ``guess``, largest first.

        Each class keeps list order; ties keep reply-code order.
        """
        codes = self.problem.matrix[guess, targets]
        order = np.argsort(codes, kind="stable")
        ordered_codes = codes[order]
        cuts = np.flatnonzero(np.diff(ordered_codes)) + 1
        classes = [
            part
            for part, code in zip(
                np.split(targets[order], cuts), ordered_codes[np.r_[0, cuts]], strict=True
            )
            if code != self.problem.win
        ]
        classes.sort(key=len, reverse=True)
        return classes

    def solve(
        self,
        targets: np.ndarray,
        budget: int,
        depth: int = _NO_CAP,
        history: tuple[int, ...] | None = None,
    ) -> int:
        """Return the optimum of ``targets`` if it is below ``budget``, else a bound >= budget.

        ``targets`` is a sorted int array of target indices; ``depth`` the
        guesses still allowed (with a cap); ``history`` the guesses made so far
        (used only by a symmetry hook; None when unknown).
        """
        size = len(targets)
        if size <= 2:
            if self.capped and size > capacity(depth, self.problem.replies):
                return INFEASIBLE
            return self._trivial(size)
        key = self._key(targets, depth)
        hit = self.exact.get(key)
        if hit is not None:
            self.stats.memo_hits += 1
            return hit[0]
        known = self.lower.get(key, 0)
        if known >= budget:
            self.stats.memo_hits += 1
            return known
        self.stats.expanded += 1
        quick = self._perfect_target(targets, depth)
        if quick is not None:
            # Exact whatever the budget: the least value any tree can have.
            self.exact[key] = quick
            return quick[0]
        guesses, bounds, closed, refuted = self.scan(targets, depth, history, budget)
        left_out = self.left_out
        best, best_guess = budget, -1
        seen: set[bytes] = set()
        node_bound = int(bounds[0]) if len(bounds) else INFEASIBLE
        for index in range(len(guesses)):
            bound = int(bounds[index])
            if bound >= best:
                refuted = min(refuted, bound)
                break
            guess = int(guesses[index])
            if closed[index]:
                value = bound
            else:
                # Guesses that split the set identically have equal values:
                # evaluate the first of them only.
                signature = self.signature(guess, targets)
                if signature in seen:
                    continue
                seen.add(signature)
                value = self._evaluate(guess, targets, best, depth, history)
            if value < best:
                best, best_guess = value, guess
                if best <= node_bound:
                    break
            else:
                refuted = min(refuted, value)
        if left_out < (best if best_guess >= 0 else budget):
            self.stats.beam_cut = True
        if best_guess >= 0:
            self.exact[key] = (best, best_guess)
            return best
        refuted = max(refuted, known, budget)
        self.lower[key] = refuted
        return refuted

    def class_bounds(
        self,
        guess: int,
        targets: np.ndarray,
        best: int,
        below: int,
        after: tuple[int, ...] | None,
    ) -> tuple[list[np.ndarray], list[int]]:
        """Return ``guess``'s classes of ``targets`` (largest first) and a lower bound of each.

        Each class's bound is tightened by one level of lookahead (the least
        static bound over its guesses, memoised as a proven bound) until the
        bounds together reach ``best``: this refutes most hopeless guesses
        before any class is searched. ``below`` is the guesses left after
        this one, ``after`` the history including it.
        """
        classes = self.split(guess, targets)
        bounds = [self.known_bound(part, below) for part in classes]
        for index, part in enumerate(classes):
            if self._combine(targets, bounds) >= best:
                break
            if len(part) > 2:
                bounds[index] = max(bounds[index], self.lookahead_bound(part, below, after))
        return classes, bounds

    def _evaluate(
        self,
        guess: int,
        targets: np.ndarray,
        best: int,
        depth: int,
        history: tuple[int, ...] | None,
    ) -> int:
        """Return ``guess``'s exact value at this node if below ``best``, else a bound >= best."""
        below = depth - 1
        after = None if history is None else (*history, guess)
        classes, bounds = self.class_bounds(guess, targets, best, below, after)
        if self.minimax:
            value = 1 + max(bounds)
            if value >= best:
                return value
            for part in classes:
                if len(part) <= 2:
                    continue
                found = 1 + self.solve(part, best - 1, below, after)
                if found >= best:
                    return found
                value = max(value, found)
            return value
        value = len(targets) + sum(bounds)
        if value >= best:
            return value
        for part, bound in zip(classes, bounds, strict=True):
            if len(part) <= 2:
                continue
            rest = value - bound
            found = self.solve(part, best - rest, below, after)
            value = rest + found
            if value >= best:
                return value
        return value

    # -- reading the result -------------------------------------------------------

    def choice(self, targets: np.ndarray, depth: int) -> tuple[int, int]:
        """Return (value, guess) for a set the search has solved exactly."""
        size = len(targets)
        if size <= 2:
            return self._trivial(size), int(self.problem.target_guess[targets[0]])
        key = self._key(targets, depth)
        if key not in self.exact:
            value = self.solve(targets, INFEASIBLE, depth)
            if value >= INFEASIBLE:
                raise SearchError("no tree meets the worst-case cap")
        return self.exact[key]

    def subtree_guesses(self, targets: np.ndarray, depth: int) -> list[int]:
        """Return the chosen guesses of the subtree of ``targets`` in preorder.

        Sets of one or two targets are implied and left out; classes are
        visited largest first (the order of :meth:`split`).
        """
        out: list[int] = []
        stack = [(targets, depth)]
        while stack:
            node, left = stack.pop()
            if len(node) <= 2:
                continue
            _, guess = self.choice(node, left)
            out.append(guess)
            stack.extend((part, left - 1) for part in reversed(self.split(guess, node)))
        return out

    def install(self, targets: np.ndarray, depth: int, guesses: Iterator[int]) -> int:
        """Record a subtree given in :meth:`subtree_guesses` order; return its value."""
        size = len(targets)
        if size <= 2:
            return self._trivial(size)
        guess = next(guesses, -1)
        if not 0 <= guess < self.problem.search_guesses:
            raise SearchError("a recorded subtree names no valid guess (damaged checkpoint?)")
        classes = self.split(guess, targets)
        if any(len(part) == size for part in classes):
            raise SearchError("a recorded subtree does not split its targets (damaged checkpoint?)")
        values = [self.install(part, depth - 1, guesses) for part in classes]
        value = 1 + max(values, default=0) if self.minimax else size + sum(values)
        self.exact[self._key(targets, depth)] = (value, guess)
        return value


# ---------------------------------------------------------------------------
# Root: first guesses, parallel branches, checkpoints
# ---------------------------------------------------------------------------

_worker: Search | None = None


def _worker_init(problem: Problem, options: SearchOptions, symmetry: SymmetryHook | None) -> None:
    global _worker
    _worker = Search(problem, options, symmetry)


def _worker_solve(
    targets: np.ndarray, budget: int, depth: int, history: tuple[int, ...]
) -> tuple[int, list[int] | None, SearchStats]:
    """Solve one root branch in a worker process; return (value, subtree guesses, stats)."""
    assert _worker is not None
    before = SearchStats(**vars(_worker.stats))
    value = _worker.solve(targets, budget, depth, history)
    guesses = _worker.subtree_guesses(targets, depth) if value < budget else None
    after = _worker.stats
    delta = SearchStats(
        after.expanded - before.expanded,
        after.scanned - before.scanned,
        after.memo_hits - before.memo_hits,
        after.beam_cut,
    )
    return value, guesses, delta


@dataclass
class RootResult:
    """One root guess's outcome: its exact value, or a bound refuting it."""

    guess: int
    value: int
    exact: bool


@dataclass
class Outcome:
    """A finished search: the tree's numbers and what proves them."""

    first_guess: int
    value: int
    lower_bound: int
    proven: bool
    roots: list[RootResult]
    stats: SearchStats
    seconds: float


def _is_unit_record(record: Any) -> bool:
    """Return True if ``record`` has the shape :meth:`Checkpoint.save` writes."""
    if not isinstance(record, dict) or not isinstance(record.get("unit"), str):
        return False
    value, guesses = record.get("value"), record.get("guesses")
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return guesses is None or (
        isinstance(guesses, list) and all(type(g) is int and g >= 0 for g in guesses)
    )


class Checkpoint:
    """Finished root branches of one search, appended to a JSON-lines file.

    The first line fingerprints the search (lists, options); a file from a
    different search is refused rather than mixed in.
    """

    def __init__(self, path: Path | None, fingerprint: str) -> None:
        """Open (or start) the checkpoint at ``path``; None keeps nothing.

        Raises:
            SearchError: the file cannot be read or written, belongs to another
                search, or has a damaged record before its last line.
        """
        self.path = path
        self.done: dict[str, dict[str, Any]] = {}
        if path is None:
            return
        try:
            if path.exists():
                self._load(path, path.read_text().splitlines(), fingerprint)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps({"fingerprint": fingerprint}) + "\n")
        except (OSError, UnicodeDecodeError) as error:
            raise SearchError(f"checkpoint {path}: cannot use it ({error})") from None

    def _load(self, path: Path, lines: list[str], fingerprint: str) -> None:
        try:
            head = json.loads(lines[0]) if lines else {}
        except json.JSONDecodeError:
            head = {}
        if not isinstance(head, dict) or head.get("fingerprint") != fingerprint:
            raise SearchError(
                f"checkpoint {path} belongs to a different search; remove it or use another"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines):
                    break  # the last line cut short by an interruption: redo that branch
                record = None
            if not _is_unit_record(record):
                raise SearchError(
                    f"checkpoint {path} line {number} is damaged; remove the file to start over"
                )
            self.done[record["unit"]] = record

    @staticmethod
    def unit(guess: int, targets: np.ndarray, depth: int) -> str:
        """Return the id of the unit "branch ``targets`` after root ``guess``"."""
        digest = hashlib.sha256(targets.astype(np.int32).tobytes() + bytes([depth])).hexdigest()
        return f"{guess}:{digest[:32]}"

    def lookup(self, unit: str, budget: int) -> tuple[int, list[int] | None] | None:
        """Return a stored result usable under ``budget``, or None."""
        record = self.done.get(unit)
        if record is None:
            return None
        value = int(record["value"])
        if record["guesses"] is not None:
            return (value, list(record["guesses"])) if value < budget else (value, None)
        return (value, None) if value >= budget else None

    def save(self, unit: str, value: int, guesses: list[int] | None) -> None:
        """Append one finished unit."""
        record = {"unit": unit, "value": value, "guesses": guesses}
        self.done[unit] = record
        if self.path is not None:
            try:
                with self.path.open("a") as handle:
                    handle.write(json.dumps(record) + "\n")
            except OSError as error:
                raise SearchError(f"checkpoint {self.path}: cannot write ({error})") from None


class RootSearch:
    """Runs a :class:`Search` from the root, spreading root branches over processes."""

    def __init__(
        self,
        problem: Problem,
        options: SearchOptions,
        *,
        symmetry: SymmetryHook | None = None,
        checkpoint: Checkpoint | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.problem = problem
        self.options = options
        self.search = Search(problem, options, symmetry)
        self.checkpoint = checkpoint or Checkpoint(None, "")
        self.progress = progress
        self._pool: ProcessPoolExecutor | None = None
        self._units_done = 0
        self._units_total = 0
        self._started = 0.0

    def _root_depth(self) -> int:
        return self.options.max_guesses if self.options.max_guesses is not None else _NO_CAP

    def run(self, first_guess: int | None) -> Outcome:
        """Search from the root; return the outcome (the tree is read from ``self.search``)."""
        self._started = time.perf_counter()
        everything = np.arange(self.problem.n_targets, dtype=np.int64)
        depth = self._root_depth()
        if first_guess is not None:
            roots = np.array([first_guess], dtype=np.int64)
            bounds = np.array([0], dtype=np.int64)
        else:
            roots, bounds, _, _ = self.search.scan(everything, depth, ())
        left_out = self.search.left_out if first_guess is None else INFEASIBLE
        best, best_guess = INFEASIBLE, -1
        results: list[RootResult] = []
        try:
            for guess, bound in zip(roots.tolist(), bounds.tolist(), strict=True):
                if bound >= best:
                    # Sorted by bound: this and every later guess is refuted.
                    results.append(RootResult(guess, bound, False))
                    break
                value, exact = self._evaluate_root(guess, everything, best, depth)
                results.append(RootResult(guess, value, exact))
                if exact and value < best:
                    best, best_guess = value, guess
        finally:
            if self._pool is not None:
                self._pool.shutdown()
            if self.progress is not None:
                self.progress.close()
        if best_guess < 0:
            raise SearchError(
                "no tree meets the worst-case cap"
                if self.options.max_guesses is not None
                else "no guess splits the targets"
            )
        if left_out < best:
            self.search.stats.beam_cut = True
        lower = self._lower_bound(best, best_guess, everything, depth)
        self.search.exact[self.search._key(everything, depth)] = (best, best_guess)
        return Outcome(
            first_guess=best_guess,
            value=best,
            lower_bound=lower,
            proven=lower == best,
            roots=results,
            stats=self.search.stats,
            seconds=time.perf_counter() - self._started,
        )

    def _lower_bound(self, best: int, best_guess: int, everything: np.ndarray, depth: int) -> int:
        """Return the best proven lower bound on the optimum (given a fixed first guess).

        An exact search proves its own value. A lookahead's values are only
        upper bounds, so its proof is static: the root's static bound, or with
        a fixed first guess the sum of its classes' lookahead bounds.
        """
        search = self.search
        if self.options.beam is None or not search.stats.beam_cut:
            return best
        if self.options.first_guess is None:
            return search.static[search._key(everything, depth)]
        # The beam search's memo holds beam values, not bounds: use a plain one.
        plain = Search(self.problem, dataclasses.replace(self.options, beam=None))
        bounds = []
        for part in search.split(best_guess, everything):
            recorded = search.static.get(search._key(part, depth - 1))
            if len(part) <= 2:
                bounds.append(plain.known_bound(part, depth - 1))
            elif recorded is not None:
                bounds.append(recorded)
            else:
                bounds.append(plain.lookahead_bound(part, depth - 1, (best_guess,)))
        return search._combine(everything, bounds)

    def _evaluate_root(
        self, guess: int, everything: np.ndarray, best: int, depth: int
    ) -> tuple[int, bool]:
        """Return (value, exact) of root ``guess``; not exact means value >= best.

        Each root branch is a unit of work (checkpointed, and run in a worker
        process when there are several). In process, each branch's budget is
        what the branches before it left; across processes, each gets its own
        bound plus the whole slack, so the branches can run at once.
        """
        search = self.search
        below = depth - 1
        parts, bounds = search.class_bounds(guess, everything, best, below, (guess,))
        static = search._combine(everything, bounds)
        if static >= best:
            return static, False
        values = list(bounds)
        jobs = [index for index, part in enumerate(parts) if len(part) > 2]
        self._units_total += len(jobs)

        def budget_for(index: int) -> int:
            if best >= INFEASIBLE:
                return INFEASIBLE
            if search.minimax:
                return best - 1
            return best - (search._combine(everything, values) - values[index])

        failed = False
        for index, value, subtree in self._run_units(guess, parts, jobs, budget_for, below):
            if subtree is None:
                values[index] = value
                failed = True
            else:
                # The value follows from the subtree itself, not the record's word.
                values[index] = search.install(parts[index], below, iter(subtree))
            if failed and self.options.workers == 1:
                break
        total = search._combine(everything, values)
        if failed:
            return max(total, best), False
        return total, total < best or best >= INFEASIBLE

    def _run_units(
        self,
        guess: int,
        parts: list[np.ndarray],
        jobs: list[int],
        budget_for: Callable[[int], int],
        depth: int,
    ) -> Iterator[tuple[int, int, list[int] | None]]:
        """Yield (index, value, subtree or None) for each root branch in ``jobs``."""
        pending: list[tuple[int, str, Future[tuple[int, list[int] | None, SearchStats]]]] = []
        for index in jobs:
            part = parts[index]
            budget = budget_for(index)
            unit = Checkpoint.unit(guess, part, depth)
            stored = self.checkpoint.lookup(unit, budget)
            if stored is not None:
                self._tick()
                yield index, stored[0], stored[1]
                continue
            if self.options.workers > 1:
                pool = self._ensure_pool()
                pending.append(
                    (index, unit, pool.submit(_worker_solve, part, budget, depth, (guess,)))
                )
                continue
            value = self.search.solve(part, budget, depth, (guess,))
            subtree = self.search.subtree_guesses(part, depth) if value < budget else None
            self.checkpoint.save(unit, value, subtree)
            self._tick()
            yield index, value, subtree
        for index, unit, future in pending:
            value, subtree, delta = future.result()
            stats = self.search.stats
            stats.expanded += delta.expanded
            stats.scanned += delta.scanned
            stats.memo_hits += delta.memo_hits
            stats.beam_cut = stats.beam_cut or delta.beam_cut
            self.checkpoint.save(unit, value, subtree)
            self._tick()
            yield index, value, subtree

    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: numba's OpenMP threads do not survive a fork.
            self._pool = ProcessPoolExecutor(
                max_workers=self.options.workers,
                mp_context=get_context("spawn"),
                initializer=_worker_init,
                initargs=(self.problem, self.options, self.search.symmetry),
            )
        return self._pool

    def _tick(self) -> None:
        self._units_done += 1
        if self.progress is not None:
            self.progress.update(
                self._units_done, self._units_total, time.perf_counter() - self._started
            )


# ---------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Certificate:
    """What an optimised tree claims and what proves it.

    ``value`` is the objective of the tree (total guesses, or worst case);
    ``lower_bound`` the best proven lower bound on the optimum (equal to
    ``value`` when ``proven``; with a fixed first guess, the optimum among
    trees starting with it). ``node_values[i]`` is node i's subtree value and
    ``node_bounds[i]`` the static lower bound of its target set (the least,
    over every guess, of the bound that guess gets in :func:`_scan`).
    ``roots`` lists each first guess considered with its exact value or the
    bound that refuted it.
    """

    objective: str
    value: int
    lower_bound: int
    proven: bool
    beam: int | None
    max_guesses: int | None
    first_guess: str | None
    hard: bool
    node_values: np.ndarray = field(repr=False)
    node_bounds: np.ndarray = field(repr=False)
    roots: list[tuple[str, int, bool]] = field(default_factory=list, repr=False)

    def to_map(self) -> dict[str, Any]:
        """Return the certificate as a msgpack-ready map (int32 arrays as bytes)."""
        return {
            "objective": self.objective,
            "value": self.value,
            "lower_bound": self.lower_bound,
            "proven": self.proven,
            "beam": self.beam,
            "max_guesses": self.max_guesses,
            "first_guess": self.first_guess,
            "hard": self.hard,
            "node_values": np.ascontiguousarray(self.node_values, "<i4").tobytes(),
            "node_bounds": np.ascontiguousarray(self.node_bounds, "<i4").tobytes(),
            "roots": [[word, value, exact] for word, value, exact in self.roots],
        }


@dataclass(frozen=True)
class Optimized:
    """An optimised tree with its certificate and search figures."""

    tree: GuessTree
    certificate: Certificate
    outcome: Outcome


_transposed: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _target_major(matrix: np.ndarray) -> np.ndarray:
    """Return ``matrix`` transposed and contiguous, computed once per (cached) matrix."""
    hit = _transposed.get(id(matrix))
    if hit is not None and hit[0] is matrix:
        return hit[1]
    flipped = np.ascontiguousarray(matrix.T)
    flipped.setflags(write=False)
    _transposed[id(matrix)] = (matrix, flipped)
    return flipped


def make_problem(game: Game, targets: WordList, guesses: WordList) -> tuple[Problem, WordList]:
    """Return the search problem for ``targets`` guessed from ``guesses``, and the vocabulary.

    Raises:
        SearchError: the lists are too large for the reply matrix to fit in memory.
    """
    vocabulary, target_guess = guess_vocabulary(targets, guesses)
    cells = len(vocabulary) * len(targets)
    if cells > MAX_MATRIX_CELLS:
        raise SearchError(
            f"{len(vocabulary):,} guesses x {len(targets):,} targets is too large to search "
            f"(the reply matrix would hold {cells:,} replies, twice; the limit is "
            f"{MAX_MATRIX_CELLS:,})"
        )
    matrix = reply_matrix(game, vocabulary, targets)
    problem = Problem(
        matrix=matrix,
        by_target=_target_major(matrix),
        target_guess=target_guess.astype(np.int64),
        win=game.win_reply,
        replies=_non_winning_replies(game),
        search_guesses=len(vocabulary),
    )
    return problem, vocabulary


def _non_winning_replies(game: Game) -> int:
    distinct = getattr(game, "distinct_replies", game.reply_space)
    return max(int(distinct) - 1, 1)


def fingerprint(game: Game, targets: WordList, guesses: WordList, options: SearchOptions) -> str:
    """Return a digest identifying a search (for checkpoints)."""
    settings = {k: v for k, v in vars(options).items() if k != "workers"}
    text = json.dumps(
        [game.name, targets.sha256, guesses.sha256, settings, "optimal-v1"], sort_keys=True
    )
    return hashlib.sha256(text.encode()).hexdigest()


def optimize(
    game: Game,
    targets: WordList,
    guesses: WordList,
    options: SearchOptions,
    *,
    symmetry: SymmetryHook | None = None,
    checkpoint: Path | None = None,
    progress: Progress | None = None,
) -> Optimized:
    """Search for the best tree for ``targets`` guessed from ``guesses``.

    Returns:
        The tree, its certificate and the search outcome.

    Raises:
        SearchError: contradictory options, an unknown first guess, a cap no
            tree meets, or a checkpoint from another search.
    """
    options.check()
    problem, vocabulary = make_problem(game, targets, guesses)
    first: int | None = None
    if options.first_guess is not None:
        word = options.first_guess.upper()
        position = vocabulary.index()
        if word not in position or (options.hard and word not in targets.index()):
            where = "targets" if options.hard else "guess list"
            raise SearchError(f"first guess {options.first_guess!r} is not in the {where}")
        first = position[word]
    root = RootSearch(
        problem,
        options,
        symmetry=symmetry,
        checkpoint=Checkpoint(checkpoint, fingerprint(game, targets, guesses, options)),
        progress=progress,
    )
    outcome = root.run(first)
    tree, values, bounds = build_tree(root.search, game, targets, guesses, vocabulary)
    names = vocabulary.words
    certificate = Certificate(
        objective=options.objective,
        value=outcome.value,
        lower_bound=outcome.lower_bound,
        proven=outcome.proven,
        beam=options.beam,
        max_guesses=options.max_guesses,
        first_guess=names[first] if first is not None else None,
        hard=options.hard,
        node_values=values,
        node_bounds=bounds,
        roots=[(names[r.guess], r.value, r.exact) for r in outcome.roots[:64]],
    )
    return Optimized(tree, certificate, outcome)


def node_bounds_of(
    problem: Problem,
    options: SearchOptions,
    node_targets: Sequence[np.ndarray],
    depths: Sequence[int],
    known: dict[bytes, int] | None = None,
) -> np.ndarray:
    """Return each node's static lower bound (least over all guesses), for certificates.

    Bounds in ``known`` (a search's :attr:`Search.static`) are used as they
    are; the others are computed.
    """
    plain = Search(problem, dataclasses.replace(options, beam=None, workers=1))
    known = known or {}
    out = np.zeros(len(node_targets), dtype=np.int64)
    for i, (targets, depth) in enumerate(zip(node_targets, depths, strict=True)):
        if len(targets) <= 2:
            out[i] = plain._trivial(len(targets))
            continue
        recorded = known.get(plain._key(targets, depth))
        if recorded is not None:
            out[i] = recorded
            continue
        _, bounds, _, _ = plain.scan(targets, depth)
        out[i] = int(bounds[0]) if len(bounds) else INFEASIBLE
    return out


def build_tree(
    search: Search, game: Game, targets: WordList, guesses: WordList, vocabulary: WordList
) -> tuple[GuessTree, np.ndarray, np.ndarray]:
    """Return the flat tree of the search's choices, each node's value and static bound.

    Nodes are breadth-first; a node's branches are in order of their first
    target in list order, as in the greedy trees.
    """
    problem = search.problem
    n = problem.n_targets
    root_depth = search.options.max_guesses or _NO_CAP
    node_targets: list[np.ndarray] = [np.arange(n, dtype=np.int64)]
    node_depth_left = [root_depth]
    node_guess: list[int] = []
    node_depth: list[int] = [1]
    edge_offsets = [0]
    edge_reply: list[int] = []
    edge_child: list[int] = []
    scores = np.zeros(n, dtype=np.int32)
    order: list[np.ndarray] = []
    cursor = 0
    while cursor < len(node_targets):
        members = node_targets[cursor]
        left = node_depth_left[cursor]
        _, guess = search.choice(members, left)
        node_guess.append(guess)
        codes = problem.matrix[guess, members]
        _, first_index = np.unique(codes, return_index=True)
        for code in codes[np.sort(first_index)].tolist():
            part = members[codes == code]
            if code == problem.win:
                scores[part] = node_depth[cursor]
                continue
            edge_reply.append(int(code))
            edge_child.append(len(node_targets))
            node_targets.append(part)
            node_depth_left.append(left - 1)
            node_depth.append(node_depth[cursor] + 1)
        edge_offsets.append(len(edge_reply))
        cursor += 1
    # Each node's targets must be contiguous in target_order: lay them out by
    # a depth-first walk that places a node's winning target, then its children.
    first = np.zeros(len(node_targets), dtype=np.int32)
    children: list[list[int]] = [
        edge_child[edge_offsets[i] : edge_offsets[i + 1]] for i in range(len(node_targets))
    ]
    position = 0

    def place(node: int) -> None:
        nonlocal position
        first[node] = position
        members = node_targets[node]
        won = members[problem.matrix[node_guess[node], members] == problem.win]
        order.append(won)
        position += len(won)
        for child in children[node]:
            place(child)

    place(0)
    values = np.zeros(len(node_targets), dtype=np.int64)
    for node in range(len(node_targets) - 1, -1, -1):
        below = [int(values[c]) for c in children[node]]
        if search.minimax:
            values[node] = 1 + max(below, default=0)
        else:
            values[node] = len(node_targets[node]) + sum(below)
    bounds = node_bounds_of(problem, search.options, node_targets, node_depth_left, search.static)
    tree = GuessTree(
        game=game,
        targets=targets,
        guesses=guesses,
        vocabulary=vocabulary.words,
        node_guess=np.array(node_guess, dtype=np.int32),
        node_size=np.array([len(t) for t in node_targets], dtype=np.int32),
        node_depth=np.array(node_depth, dtype=np.int32),
        node_first=first,
        edge_offsets=np.array(edge_offsets, dtype=np.int32),
        edge_reply=np.array(edge_reply, dtype=np.int32),
        edge_child=np.array(edge_child, dtype=np.int32),
        target_scores=scores,
        target_order=np.concatenate(order).astype(np.int32),
    )
    return tree, values, bounds


def default_workers() -> int:
    """Return the number of processes to use by default: every core."""
    return max(os.cpu_count() or 1, 1)
