"""Trap families: a lower bound for NYT hard mode from words that differ in one letter.

A *family* of a target set is ``m >= 3`` of its words that agree everywhere
but at one position ``p`` (BATED, FATED, GATED, ...: ``_ATED``); its
*letters* are theirs at ``p``. A guess ``T`` *separates* a family word ``w``
when ``w``'s reply to ``T`` differs from the reply a word of the family
pattern with a letter absent from ``T`` would get. That reply is the same for
every letter absent from ``T`` (no green at ``p``, the same letter counts for
every letter of ``T``), so ``T`` separates at most the family words whose
letter ``T`` holds: ``sep(T) <= |letters(T) & family letters|``, a popcount.

Follow any tree from the set along the *default* path, the branch of replies
that separate nothing, guesses ``T1, T2, ...``. A family word solved by guess
``j`` or sooner was separated on that path by guess ``j`` at the latest, and
all but one of them (the word ``Tj`` itself) by guess ``j - 1``. In NYT hard
mode every guess on the path is legal in the set's own state (a state only
gains requirements), so with ``s1 >= s2 >= ...`` the separations of the
state's legal guesses and ``S_j = s1 + ... + sj``, at least
``m - min(S_j, S_(j-1) + 1)`` family words take more than ``j`` guesses. At
least ``n - c_j`` of the set's ``n`` words do too, ``c_j`` the most words a
tree can solve within ``j`` guesses (1, then ``R`` per reply, see
:func:`.bounds.capacity`). A total is the sum over ``j >= 0`` of the words
taking more than ``j`` guesses, so the sum of the larger of those two counts
is a lower bound of the set's total (with no family it is the bound table's
``f[n]``), and under a cap of ``k`` guesses a word left over at ``j = k``
means no tree at all.

Where the NYT rule fixes four letters, every legal guess holds one free
letter: a family of ``m`` such words needs ``m - 1`` guesses before its last
one, which no one-level look-ahead sees (DEALT's ``_ATED`` class, 3158 x
14855, cap 6: the capped search needed 182 sets to find that no tree exists,
this bound none). Only the unweighted total objective under the NYT rule uses
it: elsewhere every guess is legal and separates five letters.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .bounds import INFEASIBLE, capacity
from .problem import NO_CAP, Problem

#: The least family size considered: two words are a pair, solved exactly anyway.
MIN_FAMILY = 3
#: Separation histograms kept, by (state, pattern, family letters): about 100 bytes each.
_KEPT = 1 << 15
#: The most free places (positions a legal guess fills beyond the required letters)
#: of a state whose sets are read: with more, one guess separates too many letters
#: for a family to bind. Measured on 3158 x 14855, cap 6 (TARSE exact and eight
#: refuted openers): no set with four free places was refuted, 2% with three,
#: but among them CARNE's (8 s of search without); TARSE's exact search, same run,
#: 2% faster with the bound than without (7% reading one or two free places only).
MAX_FREE = 3
#: Bits per letter code in a packed word (codes below 64).
_BITS = 6


class TrapBound:
    """The trap-family bound of target sets for one search problem (see the module
    docstring); :meth:`bound` is the one entry point."""

    def __init__(self, problem: Problem, legal: Callable[[bytes], np.ndarray]) -> None:
        """Take the search ``problem`` (a Wordle-like game's: its ``letters`` are
        set) and ``legal``: the vocabulary rows the NYT rule allows in a state
        (``b""``: every row)."""
        assert problem.letters is not None
        self.by_target = problem.by_target
        replies = problem.replies
        target_guess = problem.target_guess
        rows = np.asarray(problem.letters, dtype=np.int64)
        self.length = int(rows.shape[1])
        #: Whether words pack into an int64 (codes below 64, at most 9 letters) and
        #: letter sets into a 63-bit mask; otherwise :meth:`bound` answers 0.
        self.usable = int(rows.max(initial=0)) < 63 and self.length * _BITS + 4 <= 63
        self.legal = legal
        self.targets = np.asarray(target_guess, dtype=np.int64)
        shifts = np.arange(self.length, dtype=np.int64) * _BITS
        packed = (rows << shifts).sum(axis=1) if self.usable else np.zeros(len(rows), np.int64)
        self.packed = packed[self.targets]
        self.target_letters = rows[self.targets]
        ones = np.left_shift(np.int64(1), np.minimum(rows, 62))
        self.masks = np.bitwise_or.reduce(ones, axis=1)
        full = (1 << (self.length * _BITS)) - 1
        #: Per position: the packed word with that letter blanked, tagged by position.
        self.holes = np.array([full & ~(63 << int(s)) for s in shifts], dtype=np.int64)
        self.tags = np.arange(self.length, dtype=np.int64) << (self.length * _BITS)
        #: c_j: the most targets a tree solves within j guesses.
        self.solved_within = [capacity(j, replies) for j in range(NO_CAP + 2)]
        self._histograms: dict[tuple[bytes, int, int], list[int]] = {}

    def bound(self, targets: np.ndarray, depth: int, state: bytes, capped: bool) -> int:
        """Return a lower bound on the total of ``targets`` (sorted target indices) in
        NYT constraint ``state`` with ``depth`` guesses left: INFEASIBLE when
        ``capped`` and a family cannot be told apart within them, 0 when no family
        of the set gives a bound above the bound table's (nothing to add)."""
        size = len(targets)
        if not self.usable or size < MIN_FAMILY or not state:
            return 0  # the empty state allows every guess: five letters separated each
        counts = np.frombuffer(state, dtype=np.int8)[self.length :]
        # A legal guess holds every required letter: the rest are its only free
        # places. A family beats the table only if it has two more words than the
        # best guess separates, about the free places; smaller families (and sets)
        # are not read: a cost saved, never a wrong bound (the bound is only weaker).
        free = self.length - int(counts.sum())
        smallest = max(MIN_FAMILY, free + 2)
        if size < smallest or free > MAX_FREE:
            return 0
        keys = ((self.packed[targets][:, None] & self.holes) | self.tags).ravel()
        order = np.argsort(keys, kind="stable")
        ranked = keys[order]
        change = np.empty(len(ranked), dtype=np.bool_)
        change[0] = True
        np.not_equal(ranked[1:], ranked[:-1], out=change[1:])
        starts = np.flatnonzero(change)
        sizes = np.diff(starts, append=len(ranked))
        large = np.flatnonzero(sizes >= smallest)  # most groups are single words
        best = 0
        for start, count in zip(starts[large].tolist(), sizes[large].tolist(), strict=True):
            cells = order[start : start + count]
            # Cell i of the (targets x positions) grid is target i // length at i % length.
            position = int(cells[0]) % self.length
            members = targets[cells // self.length]
            pattern = int(ranked[start])
            histogram = self._histogram(state, pattern, members, position)
            value = self._cost(size, count, histogram, depth, capped)
            if value >= INFEASIBLE:
                return INFEASIBLE
            best = max(best, value)
        return best

    def _histogram(
        self, state: bytes, pattern: int, members: np.ndarray, position: int
    ) -> list[int]:
        """Return how many legal guesses in ``state`` separate each number of the family
        ``members`` (target indices; their packed ``pattern`` blanks ``position``),
        by index, kept for reuse.

        A guess separates at most the members whose letter it holds, and exactly
        those when that letter is nowhere else in the pattern (a green at the
        position or a yellow, where a letter it lacks gets grey). Where a member's
        letter is also one of the pattern's, its replies are read: a guess gives
        its separated members distinct replies (they differ only where it holds
        their letters) and the rest one reply, so it separates its distinct
        replies less one, or all of them where every member's letter is its own.
        """
        letters = self.target_letters[members, position]
        family = int(np.bitwise_or.reduce(np.left_shift(np.int64(1), letters)))
        key = (state, pattern, family)
        kept = self._histograms.get(key)
        if kept is None:
            legal = self.legal(state)
            held = np.bitwise_count(self.masks[legal] & family)
            fixed = np.delete(self.target_letters[members[0]], position)
            if np.isin(letters, fixed).any():
                block = self.by_target[members][:, legal]
                block.sort(axis=0)
                distinct = 1 + (block[1:] != block[:-1]).sum(axis=0)
                held = np.minimum(held, distinct - (held < len(members)))
            kept = np.bincount(held, minlength=self.length + 1).tolist()
            if len(self._histograms) >= _KEPT:
                del self._histograms[next(iter(self._histograms))]
            self._histograms[key] = kept
        return kept

    def _cost(self, size: int, family: int, histogram: list[int], depth: int, capped: bool) -> int:
        """Return the bound of a set of ``size`` targets holding a family of ``family``
        words, the legal guesses' separations counted by ``histogram`` (see the module
        docstring): INFEASIBLE if ``capped`` and a word is left after ``depth`` guesses."""
        separations = (
            value for value in range(len(histogram) - 1, 0, -1) for _ in range(histogram[value])
        )
        total, before = size, 0  # the words taking more than 0 guesses: all
        for guesses in range(1, NO_CAP + 1):
            after = before + next(separations, 0)
            left = max(family - min(after, before + 1), size - self.solved_within[guesses], 0)
            if left == 0:
                return total
            if capped and guesses >= depth:
                return INFEASIBLE
            total += left
            before = after
        return total
