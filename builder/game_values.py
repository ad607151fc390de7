"""What a set of possible targets is worth: the guesses its targets still need, in all.

Game analysis (builder.analysis) compares guesses by E(S, g), the mean number
of guesses still needed when ``g`` is guessed with the targets ``S`` possible:

    E(S, g) = (|S| + sum over the replies r other than the win of T(S_r)) / |S|

where ``S_r`` are the targets that give ``g`` reply ``r`` and ``T(C)`` is the
total number of guesses the targets of ``C`` need from there (``T/|C|`` is
their mean; a won class needs none). :meth:`GameValues.value` gives ``T(C)``
the best way the :class:`Budget` allows, and says which it used:

1. ``tree``, at once, for a node of an optimised policy's tree whose values
   are optima (objective total, no beam, no cap): its stored subtree total;
2. ``exact`` for one or two targets (1 and 3 guesses), and for sets of at
   most :attr:`Budget.exact_limit` targets that the optimal search
   (builder.optimal.Search, the policy's mode, every word of its guess list)
   solves within its share of the work budget;
3. ``tree`` for any other node of the policy's tree: its subtree total, what
   the policy's own play needs;
4. ``greedy-estimate`` otherwise: the policy's greedy step (the one that
   answers off-tree histories live) played onwards, each class it leaves
   valued by these same rules; past the greedy work budget, or where no
   reply matrix was made, ``|C|`` times the mean guesses of the policy's tree
   nodes of about ``|C|`` targets (interpolated in log size).

A policy weighted by a prior counts each target by its weight: ``|S|`` above
becomes the weight of ``S`` and ``T(C)`` the weighted total (the exact search
runs under the same weights), so E is the expected number of guesses when the
secret is drawn by the prior.

Work is counted in (guess, target) pairs, not seconds, so an analysis gives
the same numbers on every machine. A set's value is computed once per game
(memoised by the set and the NYT constraint state), so a set is worth the
same wherever it appears in one analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..client.analysis import EXACT, GREEDY_ESTIMATE, TREE
from ..client.interrupt import still_wanted
from ..client.probe import Policy
from ..client.rules import HARD, NYT_HARD
from ..client.strategy import OptimalStrategy
from .errors import SearchError
from .greedy import ReplyColumns, greedy_step
from .live import GreedyLiveSolver
from .matrices import letter_array, reply_block
from .nyt_hard import NytRule, advance_state
from .optimal import INFEASIBLE, Problem, Search, SearchOptions
from .optimal.certificate import node_masses
from .optimal.problem import NO_CAP, non_winning_replies
from .optimal.stats import NodeScan
from .verify import subtree_values

#: What one call of the search's scans, or one greedy ranking, is charged beyond the
#: pairs it scans: its fixed cost, so that many calls on small sets (Jotto's five
#: replies make deep searches of tiny sets) count as the work they are.
CALL_CELLS = 20_000


@dataclass(frozen=True)
class Budget:
    """How much work one game's analysis may do (see the README's "Analysing a game").

    Attributes:
        exact_limit: sets of at most this many targets are tried by the exact search.
        exact_cells_per_set: (guess, target) pairs one set's exact search may scan.
        exact_cells: (guess, target) pairs all the exact searches of a game may scan.
        greedy_cells: (guess, target) pairs the greedy step may rank in a game.
        matrix_cells: the largest reply matrix (guesses x targets) a game makes.
    """

    exact_limit: int = 300
    exact_cells_per_set: int = 100_000_000
    exact_cells: int = 600_000_000
    greedy_cells: int = 600_000_000
    matrix_cells: int = 64 << 20


@dataclass(frozen=True)
class Value:
    """A set's worth: the total guesses its targets need, how that is known, and the
    vocabulary index of the first guess that needs that many (None: not known)."""

    total: float
    source: str
    guess: int | None


class PolicyModel:
    """What every analysis of one policy reads: computed once, read-only after.

    Raises (on construction):
        GuessMyWordError: a Guess My Word policy (it has no greedy step).
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.game = policy.game
        self.step = greedy_step(policy)
        self.mode = policy.data.mode
        self.letters = letter_array(policy.vocabulary, self.game.length)
        position = {word: i for i, word in enumerate(policy.vocabulary)}
        self.position = position
        self.target_to_vocabulary = np.array([position[t] for t in policy.targets], np.int64)
        #: Each target's weight (a prior's likelihood), or None: every target alike.
        self.weights = policy.data.numpy_weights()
        self.rule = NytRule(self.letters) if self.mode == NYT_HARD else None
        #: Each node's subtree total (guesses of its targets, counted from the node).
        self.totals = subtree_values(policy, "total")
        strategy = policy.data.strategy
        #: The stored values are optima: an exact search of least total, uncapped (a
        #: total-then-worst tree is one too: a subtree of more than its set's least
        #: total would leave the whole tree above the least).
        self.optimal_tree = (
            isinstance(strategy, OptimalStrategy)
            and strategy.objective in ("total", "total-then-worst")
            and strategy.beam is None
            and strategy.max_guesses is None
        )
        arrays = policy.data.numpy_arrays()
        sizes = arrays["node_size"].astype(np.int64)
        masses = node_masses(sizes, arrays["node_first"], arrays["target_order"], self.weights)
        known, inverse = np.unique(sizes, return_inverse=True)
        means = np.bincount(inverse, weights=self.totals / masses) / np.bincount(inverse)
        self._log_sizes, self._means = np.log(known.astype(np.float64)), means

    def mass(self, targets: np.ndarray) -> float:
        """Return the weight of ``targets`` (their number when every target is alike)."""
        if self.weights is None:
            return float(len(targets))
        return float(self.weights[targets].sum())

    def size_estimate(self, targets: np.ndarray) -> float:
        """Return the estimated total guesses of ``targets``: their weight times the mean
        guesses of the tree's nodes of that size (interpolated in log size, clamped)."""
        return self.mass(targets) * float(
            np.interp(np.log(len(targets)), self._log_sizes, self._means)
        )

    def search_options(self) -> SearchOptions:
        """Return the exact search's options: least total guesses in the policy's mode."""
        return SearchOptions(hard=self.mode == HARD, nyt_hard=self.mode == NYT_HARD)


class _OutOfBudgetError(Exception):
    """The exact search scanned past its budget (caught by :class:`GameValues`)."""


class _BudgetedSearch(Search):
    """The optimal search, stopped once it has scanned past :attr:`stop_at` pairs.

    Stopping leaves its memo sound: values are recorded only once proven.
    """

    stop_at = 0
    #: Calls of the three scanning methods so far: each is charged :data:`CALL_CELLS`.
    calls = 0

    @property
    def work(self) -> int:
        """Return the work done so far: pairs scanned, and each call's overhead."""
        return self.stats.scanned + self.calls * CALL_CELLS

    def _check(self) -> None:
        still_wanted()  # an analysis whose call has ended stops here (client.interrupt)
        self.calls += 1
        if self.work > self.stop_at:
            raise _OutOfBudgetError

    # The three ways the search scans guesses: each checks the budget first, so it
    # is passed by at most one scan (guesses x the set's targets).
    def solve(
        self,
        targets: np.ndarray,
        budget: int,
        depth: int = NO_CAP,
        history: tuple[int, ...] | None = None,
        state: bytes = b"",
        parent: NodeScan | None = None,
    ) -> int:
        self._check()
        return super().solve(targets, budget, depth, history, state, parent)

    def scan(
        self,
        targets: np.ndarray,
        depth: int,
        history: tuple[int, ...] | None = None,
        budget: int = INFEASIBLE,
        state: bytes = b"",
        parent: NodeScan | None = None,
        widen: bool = False,
    ) -> NodeScan:
        self._check()
        return super().scan(targets, depth, history, budget, state, parent, widen)

    def lookahead_bound(
        self,
        targets: np.ndarray,
        depth: int,
        history: tuple[int, ...] | None,
        state: bytes = b"",
        parent: NodeScan | None = None,
        key: bytes | None = None,
    ) -> int:
        self._check()
        return super().lookahead_bound(targets, depth, history, state, parent, key)


@dataclass
class _Universe:
    """The targets a game's reply matrix covers (ascending) and the search over them."""

    targets: np.ndarray
    problem: Problem
    search: _BudgetedSearch

    def local(self, targets: np.ndarray) -> np.ndarray | None:
        """Return ``targets``' columns in the matrix, or None if some are not covered."""
        columns = np.searchsorted(self.targets, targets)
        inside = columns < len(self.targets)
        if not inside.all() or not np.array_equal(self.targets[columns], targets):
            return None
        return columns.astype(np.int64)


class GameValues:
    """The values of one game's target sets (see the module docstring). Not thread-safe:
    one per analysis."""

    def __init__(self, model: PolicyModel, budget: Budget, live: GreedyLiveSolver) -> None:
        self.model, self.budget, self.live = model, budget, live
        self.universe: _Universe | None = None
        self.exact_used = 0
        self.greedy_used = 0
        self._memo: dict[bytes, Value] = {}

    # -- the reply matrix ---------------------------------------------------------

    def enter(self, targets: np.ndarray) -> None:
        """Make the reply matrix of ``targets`` (ascending target indices), the first
        position of the game whose matrix fits :attr:`Budget.matrix_cells`; later
        positions hold subsets of it."""
        model = self.model
        if (
            self.universe is not None
            or len(model.letters) * len(targets) > self.budget.matrix_cells
        ):
            return
        words = model.letters[model.target_to_vocabulary[targets]]
        matrix = reply_block(model.game, model.letters, words)
        matrix.setflags(write=False)
        problem = Problem(
            matrix=matrix,
            by_target=np.ascontiguousarray(matrix.T),
            target_guess=model.target_to_vocabulary[targets],
            win=model.game.win_reply,
            replies=non_winning_replies(model.game),
            search_guesses=len(model.letters),
            letters=model.letters if model.game.coloured_replies else None,
            weights=None if model.weights is None else model.weights[targets].astype(np.int64),
        )
        search = _BudgetedSearch(problem, model.search_options())
        self.universe = _Universe(targets.astype(np.int64), problem, search)

    # -- replies and states ---------------------------------------------------------

    def split(self, word: str, targets: np.ndarray) -> dict[int, np.ndarray]:
        """Return ``targets`` grouped by the reply ``word`` gets from each, by reply code
        (the win included), each group ascending, groups in order of their first target."""
        model = self.model
        row = model.position.get(word)
        local = None if self.universe is None or row is None else self.universe.local(targets)
        if self.universe is not None and row is not None and local is not None:
            codes = self.universe.problem.matrix[row, local].astype(np.int64)
        else:
            codes = model.game.reply_codes(word, tuple(model.policy.targets[i] for i in targets))
        found, first = np.unique(codes, return_index=True)
        return {int(code): targets[codes == code] for code in found[np.argsort(first)]}

    def child_state(self, state: bytes, word: str, code: int) -> bytes:
        """Return the NYT constraint state after ``word`` got ``code`` (``b""``: no rule)."""
        rule = self.model.rule
        if rule is None:
            return b""
        after = rule.array(state)
        advance_state(after, letter_array([word], self.model.game.length)[0], int(code), after)
        return rule.key(after)

    # -- values -----------------------------------------------------------------------

    def value(self, targets: np.ndarray, state: bytes, node: int | None) -> Value:
        """Return the worth of ``targets`` (ascending indices) in NYT ``state``; ``node`` is
        the policy's tree node holding exactly them, or None off the tree."""
        size = len(targets)
        if size == 0:
            return Value(0.0, EXACT, None)
        key = len(state).to_bytes(2, "little") + state + targets.astype("<i4").tobytes()
        known = self._memo.get(key)
        if known is not None:
            return known
        still_wanted()
        model = self.model
        found: Value | None = None
        if node is not None and model.optimal_tree:
            found = self._tree(node)
        elif size <= 2:
            found = self._pair(targets)
        elif size <= self.budget.exact_limit:
            found = self._exact(targets, state)
        if found is None:
            found = self._tree(node) if node is not None else self._greedy(targets, state)
        self._memo[key] = found
        return found

    def _pair(self, targets: np.ndarray) -> Value:
        """Return the exact worth of one or two targets: 1 and 3 guesses, or weighted
        ``w`` and ``2W - w_max`` (the heavier guessed first; ties to the first)."""
        model = self.model
        if model.weights is None or len(targets) == 1:
            first = targets[0]
            total = 1.0 if len(targets) == 1 else 3.0
            if model.weights is not None:
                total = float(model.weights[first])
        else:
            weights = model.weights[targets]
            first = targets[int(np.argmax(weights))]
            total = float(2 * weights.sum() - weights.max())
        return Value(total, EXACT, int(model.target_to_vocabulary[first]))

    def _tree(self, node: int) -> Value:
        guess = int(self.model.policy.data.arrays["node_guess"][node])
        return Value(float(self.model.totals[node]), TREE, guess)

    def _exact(self, targets: np.ndarray, state: bytes) -> Value | None:
        """Return the exact value of ``targets``, or None past the budget or the matrix."""
        left = self.budget.exact_cells - self.exact_used
        local = None if self.universe is None else self.universe.local(targets)
        if self.universe is None or local is None or left <= 0:
            return None
        search = self.universe.search
        before = search.work
        search.stop_at = before + min(self.budget.exact_cells_per_set, left)
        try:
            # choice() solves the set (memoising its guess) unless the memo has it.
            total, guess = search.choice(local, NO_CAP, state)
        except (_OutOfBudgetError, SearchError):  # SearchError: no guess tells them apart
            return None
        finally:
            self.exact_used += search.work - before
        return Value(float(total), EXACT, int(guess))

    def _greedy(self, targets: np.ndarray, state: bytes) -> Value:
        """Return the value of the greedy step played onwards, or the size estimate."""
        model, size = self.model, len(targets)
        estimate = Value(model.size_estimate(targets), GREEDY_ESTIMATE, None)
        local = None if self.universe is None else self.universe.local(targets)
        if self.universe is None or local is None:
            return estimate
        problem = self.universe.problem
        guess = self._greedy_guess(targets, local, state)
        if guess is None:
            return estimate
        classes = problem.split(guess, local)
        if any(len(part) == size for part in classes):  # a guess that tells nothing apart
            return estimate
        total = model.mass(targets)
        for part in classes:
            code = int(problem.matrix[guess, part[0]])
            after = self.child_state(state, model.policy.vocabulary[guess], code)
            total += self.value(self.universe.targets[part], after, None).total
        return Value(total, GREEDY_ESTIMATE, guess)

    def _greedy_guess(self, targets: np.ndarray, local: np.ndarray, state: bytes) -> int | None:
        """Return the greedy step's guess (a vocabulary index) for ``targets`` in NYT
        ``state``, or None once the greedy budget is spent."""
        model = self.model
        assert self.universe is not None
        consistent = model.target_to_vocabulary[targets]
        legal = None
        if model.rule is not None:
            legal = np.zeros(len(model.letters), dtype=bool)
            legal[model.rule.legal(state)] = True
        cost = len(model.step.candidates(consistent, legal)) * len(targets) + CALL_CELLS
        if self.greedy_used + cost > self.budget.greedy_cells:
            return None
        self.greedy_used += cost
        problem = self.universe.problem
        columns = ReplyColumns(problem.matrix, local, problem.by_target)
        ranked = model.step.rank(
            consistent,
            1,
            columns,
            legal,
            letters=model.letters,
            weights=None if model.weights is None else model.weights[targets],
        )
        return int(ranked.guesses[0])

    def guess_for(
        self, targets: np.ndarray, state: bytes, history: Sequence[tuple[str, int]]
    ) -> str:
        """Return the greedy step's guess for ``targets`` after ``history`` (its turns as
        (word, reply code)), from the game's matrix when it covers them, else live."""
        local = None if self.universe is None else self.universe.local(targets)
        if local is not None:
            guess = self._greedy_guess(targets, local, state)
            if guess is not None:
                return self.model.policy.vocabulary[guess]
        ranked = self.live.rank(self.model.policy, targets, 1, history)
        return self.model.policy.vocabulary[ranked.indices[0]]
