"""Mastermind's symmetries: guesses equivalent under colour and peg permutations.

Guesses that a colour or peg permutation fixing every guess made so far maps
onto one another lead to isomorphic subgames; a search keeps one of each.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

#: Given the guesses made so far, the guesses worth trying (vocabulary rows),
#: or None when every guess must be tried.
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
        self._perms = [list(perm) for perm in itertools.permutations(range(pegs))]
        #: ``_fixes[p, c]``: peg permutation ``p`` leaves code ``c`` unchanged.
        self._fixes = np.array(
            [(self.codes[:, perm] == self.codes).all(axis=1) for perm in self._perms]
        )
        self._by_history: dict[tuple[int, ...], np.ndarray] = {}
        # The orbits depend on the history only through the peg permutations that
        # fix every guess and the colours used, which few histories differ in.
        self._by_group: dict[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray] = {}

    def __call__(self, history: tuple[int, ...]) -> np.ndarray | None:
        """Return one guess per orbit after ``history``.

        Returns:
            The smallest code of each orbit (vocabulary rows, ascending), or
            None past ``max_history`` (every guess is to be tried).
        """
        if len(history) > self.max_history:
            return None
        kept = self._by_history.get(history)
        if kept is not None:
            return kept
        rows = list(history)
        perms = tuple(np.flatnonzero(self._fixes[:, rows].all(axis=1)).tolist())
        used = tuple(np.unique(self.codes[rows]).tolist())
        kept = self._by_group.get((perms, used))
        if kept is None:
            kept = self._by_group[(perms, used)] = self._orbit_minima(perms, used)
        self._by_history[history] = kept
        return kept

    def _orbit_minima(self, perms: tuple[int, ...], used: tuple[int, ...]) -> np.ndarray:
        """Return the codes (rows, ascending) that are the smallest of their orbit
        under the peg permutations ``perms`` (indices into ``_perms``) combined
        with renamings of the colours not in ``used``."""
        codes = self.codes
        count, pegs = codes.shape
        unused = np.array([c for c in range(self.colours) if c not in used], dtype=np.int64)
        is_used = np.zeros(self.colours, dtype=bool)
        is_used[list(used)] = True
        smallest = np.full(count, np.iinfo(np.int64).max)
        rows = np.arange(count)
        for index in perms:
            moved = codes[:, self._perms[index]]
            # Rename the unused colours in order of first appearance: the
            # smallest code any renaming gives.
            renamed = np.empty_like(moved)
            mapping = np.full((count, self.colours), -1, dtype=np.int64)
            next_free = np.zeros(count, dtype=np.int64)
            for peg in range(pegs):
                colour = moved[:, peg]
                fixed = is_used[colour]
                new = ~fixed & (mapping[rows, colour] < 0)
                mapping[rows[new], colour[new]] = unused[next_free[new]]
                next_free[new] += 1
                renamed[:, peg] = np.where(fixed, colour, mapping[rows, colour])
            smallest = np.minimum(smallest, renamed @ self._weights)
        return np.flatnonzero(smallest == self._numbers)
