"""What a target set is worth before any search, under one problem's objective,
cap and NYT hard-mode rule: the exact values of one or two targets, each set's
least static bound, how class values add up, and what identifies a set in the
memo (its key and its constraint state).

:class:`SetValues` holds these rules for one search problem, weighted or not
(see :mod:`.search` for the weighted forms). It keeps no memo and scans
nothing: a :class:`~.search.Search` holds one (its ``values``) and builds its
branch and bound, memo and look-ahead on it; what reads or writes a search's
memo from outside (the root, subtrees, certificates, the backtest, the Dask
engine) computes keys, states and node values with the same object.
"""

from __future__ import annotations

import numpy as np

from ..errors import SearchError
from ..nyt_hard import NytRule
from .bounds import INFEASIBLE, capacity, objective_table, weighted_class_bound
from .problem import Problem, SearchOptions


class SetValues:
    """The values and bounds of target sets that need no search, for one problem.

    Raises (on construction):
        SearchError: weights with the minimax objective, or NYT hard mode for a
            game that is not Wordle-like.
    """

    def __init__(self, problem: Problem, options: SearchOptions) -> None:
        self.problem = problem
        self.options = options
        self.minimax = options.tree_objective == "minimax"
        self.capped = options.max_guesses is not None
        self.weights = problem.weights
        if self.weights is not None and self.minimax:
            raise SearchError("target weights apply to the total objective, not minimax")
        #: The objective's bound table (bounds.objective_table), which a search's
        #: compiled scan shares.
        self.table = objective_table(problem, self.minimax)
        #: The table as Python ints: read once per class, where numpy's scalar
        #: indexing would cost more than the rest of the lookup.
        self.table_ints: list[int] = self.table.tolist()
        self.rule: NytRule | None = None
        if options.nyt_hard:
            if problem.letters is None:
                raise SearchError("NYT hard mode applies to Wordle-like games only")
            self.rule = NytRule(problem.letters)
        #: The reply matrix target-major as a plain array: a memory-mapped matrix's own
        #: indexing wraps every answer in a new memmap, a tenth of class_states' time.
        self._by_target: np.ndarray = problem.by_target.view(np.ndarray)
        #: small_bounds' answers by guesses left.
        self._small_bounds: dict[int, tuple[int, int, int]] = {}
        #: split_states's last answer: (guess, targets, state, classes, states).
        self._last_split: tuple[int, np.ndarray, bytes, list[np.ndarray], list[bytes]] | None = None

    def trivial(self, size: int) -> int:
        """Return the exact value of a set of one or two unweighted targets."""
        if self.minimax:
            return size
        return 1 if size == 1 else 3

    def trivial_of(self, targets: np.ndarray) -> int:
        """Return the exact value of a set of one or two targets (weighted: ``w``, or
        ``2W - w_max`` with the heavier guessed first)."""
        if self.weights is None:
            return self.trivial(len(targets))
        weights = self.weights[targets]
        return int(2 * weights.sum() - weights.max())

    def first_of_pair(self, targets: np.ndarray) -> int:
        """Return the target guessed first in a set of one or two: the first in list
        order, or weighted the heavier (ties: the first)."""
        if self.weights is None or len(targets) == 1:
            return int(targets[0])
        weights = self.weights[targets]
        return int(targets[int(np.argmax(weights))])

    def mass(self, targets: np.ndarray) -> int:
        """Return the total weight of ``targets`` (their number when unweighted)."""
        if self.weights is None:
            return len(targets)
        return int(self.weights[targets].sum())

    def key(self, targets: np.ndarray, depth: int, state: bytes = b"") -> bytes:
        """Return the memo key of ``targets`` with ``depth`` guesses left (depth only if
        capped) in constraint ``state`` (NYT hard mode; ``b""`` otherwise)."""
        body = targets.astype(np.int32).tobytes()
        return (body + bytes([depth]) if self.capped else body) + state

    def child_state(self, state: bytes, guess: int, part: np.ndarray) -> bytes:
        """Return the constraint state of class ``part`` after ``guess`` (``b""``: no rule)."""
        if self.rule is None:
            return b""
        return self.rule.child(state, guess, int(self.problem.matrix[guess, part[0]]))

    def partition_key(self, guess: int, targets: np.ndarray, state: bytes) -> bytes:
        """Return what makes two guesses' values at a node equal: the canonical partition
        (:meth:`Problem.signature`) and, under NYT hard mode, the constraint state of
        each class whose value depends on it (see :meth:`class_states`): two guesses
        that split alike may still allow different guesses."""
        signature = self.problem.signature(guess, targets)
        if self.rule is None:
            return signature
        classes, states = self.split_states(guess, targets, state)
        # The signature fixes the classes, so each stated class is named by its first
        # target: only those (three or more targets, a few per guess) are sorted and
        # written, where every class's state in first-target order cost a third of
        # a node's time.
        stated = sorted(
            (int(part[0]), child) for part, child in zip(classes, states, strict=True) if child
        )
        return signature + b"".join(
            first.to_bytes(4, "little") + bytes([len(child)]) + child for first, child in stated
        )

    def split_states(
        self, guess: int, targets: np.ndarray, state: bytes
    ) -> tuple[list[np.ndarray], list[bytes]]:
        """Return ``guess``'s classes of ``targets`` (as Problem.split, largest first) and
        their constraint states (:meth:`class_states`) in ``state``.

        The last answer is kept: a search asks for a guess's partition key and then
        for its classes (:meth:`.search.Search.class_bounds`), so each is split and stated once.
        """
        kept = self._last_split
        if kept is not None and kept[0] == guess and kept[1] is targets and kept[2] == state:
            return kept[3], kept[4]
        classes = self.problem.split(guess, targets)
        states = self.class_states(state, guess, classes)
        self._last_split = (guess, targets, state, classes, states)
        return classes, states

    def class_states(self, state: bytes, guess: int, classes: list[np.ndarray]) -> list[bytes]:
        """Return the constraint state of each of ``guess``'s ``classes`` in ``state``.

        Classes of one or two targets get ``b""``: their values need no state (the
        targets left are always legal guesses), and most classes are that small,
        so NYT hard mode computes only the states a search can use.
        """
        if self.rule is None:
            return [b""] * len(classes)
        # One compiled call for every class that needs a state (each class's reply is
        # its first target's): per class in Python, this was most of a node's time.
        wanted = [index for index, part in enumerate(classes) if len(part) > 2]
        states = [b""] * len(classes)
        if wanted:
            firsts = np.array([int(classes[i][0]) for i in wanted], dtype=np.int64)
            codes = self._by_target[firsts, guess].astype(np.int64)
            for index, child in zip(wanted, self.rule.children(state, guess, codes), strict=True):
                states[index] = child
        return states

    def path_state(self, path: tuple[tuple[int, int], ...]) -> bytes:
        """Return the constraint state after ``path``, (guess, reply) pairs from the root."""
        return b"" if self.rule is None else self.rule.path_state(path)

    def floor(self, targets: np.ndarray) -> int:
        """Return the least static bound any guess can have for the set ``targets``."""
        size = len(targets)
        if self.weights is None:
            return self.table_ints[size]
        weights = self.weights[targets]
        return int(
            weighted_class_bound(
                int(weights.sum()),
                int(weights.max()),
                int(weights.min()),
                size,
                int(self.table[size]),
            )
        )

    def combine(self, targets: np.ndarray, bounds: list[int]) -> int:
        """Return a guess's value (or bound) from its classes' values (or bounds)."""
        if self.minimax:
            return 1 + max(bounds, default=0)
        return self.mass(targets) + sum(bounds)

    def max_class(self, depth: int) -> int:
        """Return the largest class a guess may leave with ``depth`` guesses left."""
        if not self.capped:
            return 1 << 40
        return capacity(depth - 1, self.problem.replies)

    def small_bounds(self, depth: int) -> tuple[int, int, int] | None:
        """Return the exact values of sets of zero, one and two targets with ``depth``
        guesses left (as :meth:`small` gives them; zero: unused), or None where they
        depend on which targets (weights).

        A search reads most classes' values here: most classes are that small.
        """
        if self.weights is not None:
            return None
        if depth not in self._small_bounds:
            limit = capacity(depth, self.problem.replies) if self.capped else 2
            one, two = (self.trivial(size) if size <= limit else INFEASIBLE for size in (1, 2))
            self._small_bounds[depth] = (0, one, two)
        return self._small_bounds[depth]

    def small(self, targets: np.ndarray, depth: int) -> int | None:
        """Return the exact value of a set of one or two targets with ``depth`` guesses
        left (INFEASIBLE past a cap), or None for a larger set."""
        size = len(targets)
        if size > 2:
            return None
        table = self.small_bounds(depth)
        if table is not None:
            return table[size]
        if self.capped and size > capacity(depth, self.problem.replies):
            return INFEASIBLE
        return self.trivial_of(targets)
