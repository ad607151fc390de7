"""The search core: branch and bound over target sets.

``Search.solve(S, budget)`` returns the exact optimum of target set ``S`` when
that optimum is below ``budget``, and otherwise a *lower bound* that is at
least ``budget`` (a refutation). Objectives:

* ``total``: the sum over targets of the guesses each takes (mean = total / n),
  optionally with every target solved within ``max_guesses``;
* ``minimax``: the number of guesses the worst target takes.

At a node, one compiled scan (see :mod:`.bounds`) gives every candidate guess
a static lower bound. Guesses that do not split ``S`` are dropped; the rest
are tried in order of their bound (then the sum of squared class sizes, then
list order), and a guess that splits ``S`` exactly like one tried before is
skipped (its canonical partition is compared). Before a guess's classes are
searched, each class's bound is tightened by one level of lookahead (the
least static bound over its own guesses, memoised as a proven bound), which
refutes most hopeless guesses without any search. Where that bound is a count
of distinct replies (small sets, the unweighted total), a guess's count on the
node caps its count on each class (a subset), so the lookahead skips every
guess whose cap is no more than the best count found, after first trying the
node's best splitters: about a quarter of the guesses are read (one guess from
a cap too: :meth:`Search.singletons_bound`). Each class's search then
gets the budget left after the exact values found so far and the bounds of
the classes still to do, smallest class first, so a guess is abandoned as
soon as its partial sum reaches the best total found. Smallest first because
a guess that cannot win is nearly always refuted by a small class (above all
one that cannot finish within a cap), found far sooner so: NYT hard, cap 6,
3158 x 14855, TARSE's exact proof went from 146 to 45 CPU seconds and
GLOVE's refutation at 11627 from 10 to 0.7 (largest first before). Exact
values and proven lower bounds are both memoised per target set (and
remaining depth, under a cap). Two shortcuts end a node at once: a closed guess with the least bound
of all, and (when the size bound is 2n - 1) a target that splits the others
into singletons. For Mastermind, a symmetry hook (see :mod:`.symmetry`) drops
guesses that a colour or peg symmetry of the history maps onto others.

Determinism: the guess recorded for a set depends only on the set (and the
guesses left under a cap), never on the budget it was searched with, so the
tree does not depend on the order in which sets were first met or on how the
work was split between processes. (With a symmetry hook the candidate list
also depends on the path, so only the value, not the tree, is guaranteed
path-independent.)

With ``beam=K`` (lookahead) a node tries only its ``K`` best guesses by the
greedy ``neg_entropy`` ranking (:mod:`.beam`); the run is still *proven* if no
guess left out had a bound below the value found. Under a cap, a node none of
whose beam guesses finishes within it is searched over every guess (widened),
so a capped lookahead is refused only where no tree exists.

NYT hard mode (``nyt_hard``): a node may guess only what the NYT rule allows
after the replies on its path, which a target set alone does not determine.
Every node therefore carries its constraint *state* (builder.nyt_hard, as
bytes; ``b""`` at the root and whenever nothing is required yet), memo keys
include it, and each class's state follows from its parent's, the guess and
the class's reply. The bound tables stay valid (they hold for any guesses),
and the remaining targets are always legal, so the small-set values and the
perfect-target shortcut hold too. Other modes pass ``b""`` throughout.

With ``options.bound_store``, the memo is backed by a store kept between runs
(:mod:`.bound_store`): :meth:`Search.flush` writes what it buffered.

Weighted targets (``problem.weights``, total objective only): a target of
weight ``w`` solved by its ``d``-th guess adds ``w * d``, so the value is the
weighted total and value / total weight the expected number of guesses when
the secret is drawn by the weights. Every size-based rule has its weighted
form: a set's floor and each class's static bound come from
:func:`.bounds.weighted_class_bound` (the unweighted table with the heaviest
target first), one target costs ``w``, two ``2W - w_max`` (the heavier is
guessed first, ties to the first in list order), the perfect-target shortcut
needs a heaviest target, and the distinct-reply count (an unweighted
identity) is not used. Equal weights give the unweighted search's values,
order and tree exactly.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import InfeasibleCapError
from .beam import beam_of
from .bound_store import open_link
from .bounds import INFEASIBLE, NO_CAPS, ScanKernel, capacity
from .memo import Memo, MemoAccount
from .problem import NO_CAP, Problem, SearchOptions
from .set_values import SetValues
from .stats import NodeScan, SearchStats
from .symmetry import SymmetryHook
from .traps import TrapBound

#: Most constraint states whose legal guesses a search keeps (up to 100 KB each).
_LEGAL_KEPT = 256
#: A node's best splitters that a class's distinct-reply count tries first (its
#: ``probe``): enough to find a high count early, few enough to cost nothing.
PROBE = 16
#: :meth:`Search.singletons_bound`'s answer where no target splits the set into
#: singletons: its bound is 2n or INFEASIBLE, which a scan stopping at 2n decides.
NO_TARGET_SPLITS = -2


class Search:
    """Branch and bound over target sets; see the module docstring.

    The rules of what a set is worth without search (its values, floor, memo key
    and constraint state) are :attr:`values`'s; a search adds the memo that holds
    what it proved, the compiled scan, the look-ahead and the branch and bound.

    Raises (on construction):
        SearchError: weights with the minimax objective, or NYT hard mode for a
            game that is not Wordle-like (see :class:`.SetValues`).
    """

    def __init__(
        self,
        problem: Problem,
        options: SearchOptions,
        symmetry: SymmetryHook | None = None,
    ) -> None:
        self.problem = problem
        self.options = options
        #: The problem's set-value rules: what keys, states and node values this
        #: search's memo is read and written with, here and by its callers.
        self.values = values = SetValues(problem, options)
        self.kernel = ScanKernel.for_problem(problem, values.minimax, values.table)
        #: Whether least bounds may be found by counting distinct replies (see
        #: bounds.ScanKernel.distinct_replies): the unweighted total objective, and
        #: reply codes that fit its 256-bit sets. Under a cap, only where no class
        #: of the set can be too large (see lookahead_bound).
        self.linear = (
            not values.minimax and values.weights is None and self.kernel.scanner.max_code < 256
        )
        #: The unweighted total objective without constraint states (a cap
        #: allowed): class bounds come from one compiled pass (known_classes).
        self.plain = not values.minimax and values.weights is None and values.rule is None
        self.symmetry = symmetry
        self.all_guesses = np.arange(problem.search_guesses, dtype=np.int64)
        self._legal: dict[bytes, np.ndarray] = {}
        self.stats = SearchStats()
        memo = MemoAccount(options.memo_limit, self.stats)  # the three tables' shared limit
        self.exact: dict[bytes, tuple[int, int]] = Memo(memo)
        self.lower: dict[bytes, int] = Memo(memo)
        #: Each scanned set's static bound (the least over its guesses), kept
        #: for the certificate so the tree's nodes need no second scan.
        self.static: dict[bytes, int] = Memo(memo)
        self.store = open_link(problem, options, symmetry)
        #: The trap-family bound (:mod:`.traps`): NYT hard mode under a cap, unweighted
        #: total only. Without a cap it seldom adds to the look-ahead's bound and cost
        #: 60% more time (SLANE's uncapped refutation, 3158 x 14855).
        self.traps: TrapBound | None = None
        if (
            values.rule is not None
            and values.capped
            and not values.minimax
            and values.weights is None
        ):
            self.traps = TrapBound(problem, self._any_legal)
        #: Called at every set expanded; it may raise to abandon the search (a
        #: cluster worker whose budget tightened, see :mod:`.dask_engine`).
        self.poll: Callable[[], None] | None = None

    def flush(self) -> None:
        """Write what the bound store buffered (if any); raises BoundStoreError if it cannot."""
        if self.store is not None:
            self.store.flush()

    def candidates(
        self, targets: np.ndarray, history: tuple[int, ...] | None, state: bytes = b""
    ) -> np.ndarray:
        """Return the guesses to consider for ``targets`` (vocabulary rows).

        ``history`` (the guesses that led here, None if unknown) lets a
        symmetry hook drop guesses equivalent to others; under NYT hard mode
        only the guesses ``state`` allows are considered.
        """
        if self.options.hard:
            inside: np.ndarray = self.problem.target_guess[targets]
            return inside
        if state and self.values.rule is not None:
            return self._legal_guesses(state)
        if self.symmetry is not None and history is not None:
            reduced = self.symmetry(history)
            if reduced is not None:
                return reduced
        return self.all_guesses

    def _any_legal(self, state: bytes) -> np.ndarray:
        """Return the vocabulary rows the NYT rule allows in ``state`` (every row in
        the empty state)."""
        return self._legal_guesses(state) if state else self.all_guesses

    def trap_bound(self, targets: np.ndarray, depth: int, state: bytes) -> int:
        """Return the trap-family bound of ``targets`` (:mod:`.traps`; INFEASIBLE: no
        tree within the cap), or 0 where it does not apply."""
        if self.traps is None:
            return 0
        found = self.traps.bound(targets, depth, state, self.values.capped)
        if found >= INFEASIBLE:
            self.stats.trap_cuts += 1
        return found

    def _legal_guesses(self, state: bytes) -> np.ndarray:
        """Return the vocabulary rows the NYT rule allows in ``state`` (kept for reuse)."""
        rule = self.values.rule
        assert rule is not None
        legal = self._legal.pop(state, None)
        if legal is None:
            legal = rule.legal(state)
            if len(self._legal) >= _LEGAL_KEPT:
                del self._legal[next(iter(self._legal))]
        self._legal[state] = legal  # most recently used last
        return legal

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
        """Return the guesses to try for a node, in search order, with their bounds.

        Only guesses that split ``targets`` and have a bound below ``budget``
        are returned, ordered by bound, sum of squared class sizes, list
        order; under a beam, only the best ``beam`` distinct partitions by the
        greedy ranking are eligible. Records the node's static bound. ``parent``
        (a superset's scan) lets the compiled scan skip guesses its counts rule
        out (bounds.ScanKernel.run): the same guesses, bounds and static bound.
        ``widen`` lifts the beam for this node (see :meth:`solve`).

        Returns:
            The node's scan; its ``excluded`` refutes every eligible guess
            left out for reaching the budget, its ``beam_left_out`` is the
            least bound among guesses the beam left out.
        """
        guesses = self.candidates(targets, history, state)
        self.stats.scanned += len(guesses) * len(targets)
        beam = None if widen else self.options.beam
        kernel = self.kernel
        kept, excluded = kernel.run(
            guesses,
            targets,
            self.values.max_class(depth),
            INFEASIBLE if beam is not None else budget,
            caps=self.caps_of(parent),
        )
        index = kernel.index[:kept]
        bound = kernel.bound[:kept]
        self.static[self.values.key(targets, depth, state)] = int(
            min(bound.min(initial=INFEASIBLE), excluded)
        )
        left_out = INFEASIBLE
        if kept:
            # A closed guess (exact value) with the least bound is optimal:
            # nothing can beat it, so the node needs no search (nor a beam).
            lowest = bound.min()
            finished = np.flatnonzero((bound == lowest) & (kernel.closed[:kept] == 1))
            if len(finished):
                pick = finished[np.lexsort((index[finished], kernel.squares[finished]))[:1]]
                return NodeScan(
                    guesses[index[pick]],
                    bound[pick].copy(),
                    kernel.closed[pick].copy(),
                    excluded,
                    left_out,
                )
        if beam is not None:
            picked, left_out = beam_of(
                self.problem, targets, guesses[index], kernel.plogp[:kept], bound, beam
            )
            over = bound[picked] >= budget
            excluded = int(bound[picked][over].min(initial=INFEASIBLE))
            order_of = picked[~over]
        else:
            order_of = np.arange(kept)
        order = order_of[np.lexsort((index[order_of], kernel.squares[order_of], bound[order_of]))]
        caps = None
        if self.linear:
            # What the scan counted for every guess caps its count in the classes
            # below (see lookahead_bound); unscanned guesses are not capped.
            caps = np.full(self.problem.search_guesses, INFEASIBLE, dtype=np.int64)
            caps[guesses] = kernel.distinct[: len(guesses)]
        return NodeScan(
            guesses[index[order]],
            bound[order].copy(),
            kernel.closed[order].copy(),
            int(excluded),
            left_out,
            caps,
        )

    def lookahead_bound(
        self,
        targets: np.ndarray,
        depth: int,
        history: tuple[int, ...] | None,
        state: bytes = b"",
        parent: NodeScan | None = None,
        key: bytes | None = None,
    ) -> int:
        """Return a lower bound for ``targets``: the least static bound over its guesses.

        ``parent`` is the scan of a superset (the node whose guess split off
        ``targets``), if known: its counts cap this set's and its best guesses
        are tried first, which spares most of the scan and changes nothing in
        the result. The result is memoised as a proven lower bound (under
        ``key``, the set's memo key, computed here if not given).
        """
        values = self.values
        if key is None:
            key = values.key(targets, depth, state)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        known = self.lower.get(key)
        if known is not None:
            return known
        # A trap family that cannot be told apart within the cap ends it before any scan.
        trap = self.trap_bound(targets, depth, state)
        if trap >= INFEASIBLE:
            self.lower[key] = INFEASIBLE
            return INFEASIBLE
        guesses = self.candidates(targets, history, state)
        self.stats.scanned += len(guesses) * len(targets)
        size = len(targets)
        max_class = values.max_class(depth)
        least = -1
        if self.linear and max_class >= size:
            # A bound is 3n - (distinct replies + win) plus each class's excess over
            # the linear table (none while every class has at most R + 1 targets,
            # always so for a set that small), and every guess is feasible (no
            # class can exceed the cap's largest): count the replies first.
            caps = self.caps_of(parent)
            probe = self.probe_of(parent, caps, guesses)
            most, best = self.kernel.distinct_replies(guesses, targets, size + 1, caps, probe)
            if not most:
                least = INFEASIBLE
            elif size <= self.problem.replies + 1:
                least = 3 * size - most
            else:
                # No guess is below 3n - most: if the guess found with that count has no
                # excess, that is the least bound. Otherwise scan them all.
                one = np.array([best], dtype=np.int64)
                kept, _ = self.kernel.run(one, targets, 1 << 40, INFEASIBLE)
                if kept and int(self.kernel.bound[0]) == 3 * size - most:
                    least = 3 * size - most
        elif self.linear and max_class == 1:
            least = self.singletons_bound(guesses, targets, parent)
        if least < 0:
            # No guess's bound is below the set's own table bound (or 2n where no
            # target splits the rest into singletons): stop at the first that reaches it.
            floor = 2 * size if least == NO_TARGET_SPLITS else values.floor(targets)
            _, least = self.kernel.run(guesses, targets, max_class, 0, floor, self.caps_of(parent))
        # The static bound stays the scan's (certificates recompute it); the proven
        # bound is the better of it and the trap family's.
        self.static[key] = least
        least = self.lower[key] = max(least, trap)
        return least

    def singletons_bound(
        self,
        guesses: np.ndarray,
        targets: np.ndarray,
        parent: NodeScan | None,
    ) -> int:
        """Return the least static bound of a set of three or more targets with one guess
        left after this one (every class must be a single target), where distinct
        replies decide it; else :data:`NO_TARGET_SPLITS`.

        The bound is ``2n - 1`` if a target splits the rest into singletons, ``2n``
        if another guess does, else INFEASIBLE. A guess doing so has a reply per
        target (a target: ``n + 1`` counting the win twice, as the distinct-reply
        count does), so that count, with ``parent``'s caps, its best splitters
        tried first and an early stop, is read instead of every guess's classes:
        far quicker where no guess splits the set so finely, which under a cap is
        most of what a search refutes (``guesses``: the set's candidates).
        """
        size = len(targets)
        caps = self.caps_of(parent)
        most, _ = self.kernel.distinct_replies(
            guesses, targets, size + 1, caps, self.probe_of(parent, caps, guesses)
        )
        if most > size:
            return 2 * size - 1
        if most < size:
            return INFEASIBLE
        return NO_TARGET_SPLITS

    def probe_of(
        self, parent: NodeScan | None, caps: np.ndarray, guesses: np.ndarray
    ) -> np.ndarray:
        """Return the guesses a distinct-reply count tries first: ``parent``'s best
        splitters where its ``caps`` apply (NO_CAPS otherwise), those among the set's
        candidates ``guesses`` only.

        The count scans the probe as given, so a splitter the set may not guess (hard
        mode, or a NYT state its parent lacked) would count replies no legal guess
        gives: a bound still sound, but weaker (3158 x 14855, NYT hard, cap 6: 114 of
        200 sampled openers survived the first pass against 11627 with the parent's
        splitters unfiltered, 111 with them filtered).
        """
        if not len(caps) or parent is None:
            return NO_CAPS
        probe = parent.guesses[:PROBE]
        if self.options.hard:
            return probe[np.isin(probe, guesses)]
        if self.values.rule is None or guesses is self.all_guesses or not len(guesses):
            return probe  # every guess allowed (a symmetry's pick gives the same counts)
        # A NYT state's legal rows, ascending (NytRule.legal): a binary search each, where
        # np.isin would sort them all on every call (thousands of rows, thousands of calls).
        at = np.searchsorted(guesses, probe).clip(max=len(guesses) - 1)
        kept: np.ndarray = probe[guesses[at] == probe]
        return kept

    def caps_of(self, parent: NodeScan | None) -> np.ndarray:
        """Return the reply-count caps a superset's scan gives (NO_CAPS without one)."""
        if parent is None or parent.caps is None or not self.linear:
            return NO_CAPS
        return parent.caps

    def _perfect_target(
        self, targets: np.ndarray, depth: int, state: bytes = b""
    ) -> tuple[int, int] | None:
        """Return (value, guess) if one of the targets splits the rest into singletons.

        Such a guess reaches the least value any tree can have (2n - 1) when
        that is the size bound, so trying the n targets first spares a scan
        of the whole guess list. Ties go to the lowest list position, as in
        the full scan's order. Returns None when there is no such target (or
        the shortcut does not apply).
        """
        size = len(targets)
        values = self.values
        if self.options.hard or values.minimax or values.table_ints[size] != 2 * size - 1:
            return None
        if values.weights is not None:
            return self._perfect_heaviest(targets, depth, state)
        # Each target is its own vocabulary word, so these are distinct: a sort suffices.
        inside = np.sort(self.problem.target_guess[targets])
        kept, _ = self.kernel.run(inside, targets, values.max_class(depth), 2 * size)
        self.stats.scanned += len(inside) * size
        if kept == 0:
            return None
        self.static[values.key(targets, depth, state)] = 2 * size - 1
        return 2 * size - 1, int(inside[self.kernel.index[:kept]].min())

    def _perfect_heaviest(
        self, targets: np.ndarray, depth: int, state: bytes
    ) -> tuple[int, int] | None:
        """Return :meth:`_perfect_target`'s answer for weighted targets: only a target
        of the set's greatest weight that splits the rest into singletons reaches
        the least value any tree can have, ``2W - w_max``."""
        values = self.values
        assert values.weights is not None
        weights = values.weights[targets]
        heaviest = targets[weights == weights.max()]
        inside = np.sort(self.problem.target_guess[heaviest])
        floor = values.floor(targets)
        kept, _ = self.kernel.run(inside, targets, values.max_class(depth), floor + 1)
        self.stats.scanned += len(inside) * len(targets)
        if kept == 0:
            return None
        self.static[values.key(targets, depth, state)] = floor
        return floor, int(inside[self.kernel.index[:kept]].min())

    # Budget contract (solve and _evaluate): return the exact value v if
    # v < budget, else some number >= budget that is a proven lower bound.
    def solve(
        self,
        targets: np.ndarray,
        budget: int,
        depth: int = NO_CAP,
        history: tuple[int, ...] | None = None,
        state: bytes = b"",
        parent: NodeScan | None = None,
    ) -> int:
        """Return the optimum of ``targets`` if it is below ``budget``, else a bound >= budget.

        ``targets`` is a sorted int array of target indices; ``depth`` the
        guesses still allowed (with a cap); ``history`` the guesses made so far
        (used only by a symmetry hook; None when unknown); ``state`` the NYT
        constraint state (``b""``: none); ``parent`` the scan of the node whose
        guess split off ``targets``, if known (its counts cap this scan's, see
        :meth:`scan`; the result is the same without). Exact results are
        memoised in :attr:`exact` (with the chosen guess), refutations in
        :attr:`lower`, and both kept in the bound store if there is one.
        INFEASIBLE means no tree meets the cap.
        """
        values = self.values
        exact = values.small(targets, depth)
        if exact is not None:
            return exact
        size = len(targets)
        key = values.key(targets, depth, state)
        hit = self.exact.get(key)
        if hit is not None:
            self.stats.memo_hits += 1
            return hit[0]
        known = self.lower.get(key, 0)
        if known >= budget:
            self.stats.memo_hits += 1
            return known
        if self.store is not None:
            answer, budget, known = self.store.recall(self, key, size, budget, known)
            if answer is not None:
                return answer
        if key not in self.lower:
            # Not looked ahead at (that reads the trap bound too): a trap family that
            # cannot be told apart within the cap or the budget ends the set unexpanded.
            trap = self.trap_bound(targets, depth, state)
            if trap >= budget:
                self.lower[key] = trap
                return trap
            known = max(known, trap)
        self.stats.expanded += 1
        if self.poll is not None:
            self.poll()
        quick = self._perfect_target(targets, depth, state)
        if quick is not None:
            # Exact whatever the budget: the least value any tree can have.
            self.exact[key] = quick
            return quick[0]
        for widen in (False, True):
            node = self.scan(targets, depth, history, budget, state, parent, widen)
            best, best_guess, refuted = self._search_node(
                node, targets, budget, depth, history, state, known
            )
            # Under a cap, every guess a beam kept may leave a class that cannot finish in
            # time while one it left out can: then the node is searched over every guess
            # (its classes keep the beam). A budget's refutation is the beam's answer.
            if widen or best_guess >= 0 or refuted < INFEASIBLE or node.beam_left_out >= INFEASIBLE:
                break
            self.stats.widened += 1
        if node.beam_left_out < (best if best_guess >= 0 else budget):
            self.stats.beam_cut = True
        if best_guess >= 0:
            self.exact[key] = (best, best_guess)
        else:
            best = self.lower[key] = max(refuted, known, budget)
        if self.store is not None:
            self.store.keep(key, size, best, best_guess)
        return best

    def _search_node(
        self,
        node: NodeScan,
        targets: np.ndarray,
        budget: int,
        depth: int,
        history: tuple[int, ...] | None,
        state: bytes,
        known: int,
    ) -> tuple[int, int, int]:
        """Return (best value, its guess or -1, least refutation) over the node's scanned
        guesses, best first: the branch-and-bound loop of :meth:`solve`."""
        guesses, bounds, closed, refuted = node.guesses, node.bounds, node.closed, node.excluded
        best, best_guess = budget, -1
        seen: set[bytes] = set()
        partition_key = self.values.partition_key
        # A guess that reaches a proven bound of the node (its best static or known bound) wins.
        node_bound = max(int(bounds[0]) if len(bounds) else INFEASIBLE, known)
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
                signature = partition_key(guess, targets, state)
                if signature in seen:
                    continue
                seen.add(signature)
                value = self._evaluate(guess, targets, best, depth, history, state, node)
            if value < best:
                best, best_guess = value, guess
                if best <= node_bound:
                    break
            else:
                refuted = min(refuted, value)
        return best, best_guess, refuted

    def known_bound(self, targets: np.ndarray, depth: int, state: bytes = b"") -> int:
        """Return the best lower bound known for ``targets`` without searching: its
        exact value if small or memoised, else the larger of its memoised bound and
        its floor (:meth:`.SetValues.floor`)."""
        values = self.values
        exact = values.small(targets, depth)
        if exact is not None:
            return exact
        key = values.key(targets, depth, state)
        if key in self.exact:
            return self.exact[key][0]
        return max(self.lower.get(key, 0), values.floor(targets))

    def known_classes(
        self, guess: int, targets: np.ndarray, depth: int
    ) -> tuple[list[np.ndarray], list[bytes | None], list[int]]:
        """Return ``guess``'s classes of ``targets`` (as Problem.split), their memo keys
        with ``depth`` guesses left (None for one or two targets) and each one's
        :meth:`known_bound`, for the :attr:`plain` objective only."""
        if self.values.capped:
            small_limit = capacity(depth, self.problem.replies)
            return self.kernel.known_classes(
                guess, targets, self.exact, self.lower, bytes([depth]), small_limit
            )
        return self.kernel.known_classes(guess, targets, self.exact, self.lower)

    def class_bounds(
        self,
        guess: int,
        targets: np.ndarray,
        best: int,
        below: int,
        after: tuple[int, ...] | None,
        state: bytes = b"",
        node: NodeScan | None = None,
    ) -> tuple[list[np.ndarray], list[bytes], list[int]]:
        """Return ``guess``'s classes of ``targets`` (largest first), each class's
        constraint state (:meth:`.SetValues.class_states`) and a lower bound of each.

        Each class's bound is tightened by one level of lookahead (the least
        static bound over its guesses, memoised as a proven bound) until the
        bounds together reach ``best``: this refutes most hopeless guesses
        before any class is searched. ``below`` is the guesses left after
        this one, ``after`` the history including it, ``state`` the node's
        constraint state, ``node`` the node's scan if known (it speeds the
        lookahead; see :meth:`lookahead_bound`).
        """
        values = self.values
        keys: list[bytes | None] | None = None  # the classes' memo keys, where known
        if self.plain:
            classes, keys, bounds = self.known_classes(guess, targets, below)
            states = [b""] * len(classes)
        else:
            classes, states = values.split_states(guess, targets, state)
            small = values.small_bounds(below)
            known = self.known_bound
            if small is None:
                bounds = [known(p, below, s) for p, s in zip(classes, states, strict=True)]
            else:
                # Most classes hold one or two targets: their values without a call.
                bounds = [
                    small[len(p)] if len(p) <= 2 else known(p, below, s)
                    for p, s in zip(classes, states, strict=True)
                ]
        total = values.combine(targets, bounds)
        for index, part in enumerate(classes):
            if total >= best:
                break
            if len(part) > 2:
                key = None if keys is None else keys[index]
                tighter = self.lookahead_bound(part, below, after, states[index], node, key)
                if tighter > bounds[index]:
                    gain = tighter - bounds[index]
                    bounds[index] = tighter
                    total = values.combine(targets, bounds) if values.minimax else total + gain
        return classes, states, bounds

    def _evaluate(
        self,
        guess: int,
        targets: np.ndarray,
        best: int,
        depth: int,
        history: tuple[int, ...] | None,
        state: bytes = b"",
        node: NodeScan | None = None,
    ) -> int:
        """Return ``guess``'s exact value at this node if below ``best``, else a bound >= best.

        Budget contract: ``best`` is the budget; each class is solved with the
        budget left after the other classes' values and bounds, so one
        refuted class refutes the guess.
        """
        below = depth - 1
        after = None if history is None else (*history, guess)
        classes, states, bounds = self.class_bounds(guess, targets, best, below, after, state, node)
        if self.values.minimax:
            value = 1 + max(bounds)
            if value >= best:
                return value
            for part, part_state in zip(classes, states, strict=True):
                if len(part) <= 2:
                    continue
                found = 1 + self.solve(part, best - 1, below, after, part_state, node)
                if found >= best:
                    return found
                value = max(value, found)
            return value
        value = self.values.mass(targets) + sum(bounds)
        if value >= best:
            return value
        # Smallest class first (classes come largest first): a guess that cannot win is
        # nearly always refuted by a small class (one that cannot finish within a cap,
        # above all), found far sooner than by searching the large ones first.
        for part, part_state, bound in zip(
            reversed(classes), reversed(states), reversed(bounds), strict=True
        ):
            if len(part) <= 2:
                continue
            rest = value - bound
            found = self.solve(part, best - rest, below, after, part_state, node)
            value = rest + found
            if value >= best:
                return value
        return value

    # -- reading the result -------------------------------------------------------

    def choice(self, targets: np.ndarray, depth: int, state: bytes = b"") -> tuple[int, int]:
        """Return (value, guess) for ``targets`` in ``state``, solving them first if need be.

        Raises:
            InfeasibleCapError: no tree for ``targets`` meets the worst-case cap.
        """
        size = len(targets)
        if size <= 2:
            first = self.values.first_of_pair(targets)
            return self.values.trivial_of(targets), int(self.problem.target_guess[first])
        key = self.values.key(targets, depth, state)
        if key not in self.exact:
            value = self.solve(targets, INFEASIBLE, depth, None, state)
            if value >= INFEASIBLE:
                raise InfeasibleCapError("no tree meets the worst-case cap")
        return self.exact[key]
