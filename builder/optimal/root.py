"""The root of a search: first guesses, root branches over processes, checkpoints.

Each branch of a root guess is a unit of work: looked up in (and saved to)
the checkpoint, and solved in this process or, with several workers, in a
worker process (see :mod:`.workers`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...client.progress import Progress
from ..errors import InfeasibleCapError, NoTreeBelowCeilingError, SearchError
from .bounds import INFEASIBLE
from .checkpoint import Checkpoint
from .problem import Problem, SearchOptions
from .refute import capped_probe, uncapped_search
from .search import Search
from .stats import NodeScan, SearchStats
from .subtrees import install_subtree, subtree_guesses
from .symmetry import SymmetryHook
from .witness import Witness, witness_of
from .workers import solve_in_worker, start_pool

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

#: What a root branch's search gives back: value and subtree (None if refuted).
_Solved = tuple[int, list[int] | None, SearchStats]


def tie_budget(best: int, best_rank: int, rank: int) -> int:
    """Return the budget of the opener at ``rank`` (static order) against the best
    ``best`` held by the opener at ``best_rank``: one higher for an opener before it,
    which wins a tie, so that an equal value is found exactly."""
    return best + 1 if rank < best_rank and best < INFEASIBLE else best


@dataclass
class RootResult:
    """One root guess's outcome: its exact value, or a bound refuting it."""

    guess: int
    value: int
    exact: bool
    #: What settled it: "search" (searched: exact, or refuted by the search),
    #: "static" (its static bound, from the root's scan) or "one-level" (the
    #: first pass's bound: each class's least static bound).
    settled_by: str = "search"
    #: Settled by search: the classes whose proven bounds make up its value (see
    #: :mod:`.witness`); None where none was kept (e.g. an older checkpoint's record).
    witness: Witness | None = None


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
    #: Openers that survived the first pass (None: no search over every opener).
    survivors: int | None = None
    #: What ran the units ("in-process", "processes", "dask-local" or "dask"; see
    #: :mod:`.cluster`) and how many workers did.
    engine: str = "in-process"
    workers: int = 1


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
        words: Sequence[str] | None = None,
        search: Search | None = None,
    ) -> None:
        """Search ``problem`` under ``options``; ``search`` reuses a :class:`Search`
        of them (with its memo) instead of starting a new one."""
        self.problem = problem
        self.options = options
        self.search = search if search is not None else Search(problem, options, symmetry)
        self.checkpoint = checkpoint or Checkpoint(None, "")
        self.progress = progress
        self._pool: ProcessPoolExecutor | None = None
        self._units_done = 0
        self._units_total = 0
        self._started = 0.0
        #: Openers left after the first pass's one-level bounds (None until a
        #: search over every opener has counted them).
        self.survivors: int | None = None
        #: The vocabulary's words, for progress reports (indices are shown without).
        self.words = words
        #: The root's scan when every opener is searched: its reply counts cap the
        #: openers' classes' counts (see Search.lookahead_bound). None: not scanned.
        self.root_scan: NodeScan | None = None
        #: The unit count of the phase being reported (None: root branches are).
        self._phase_total: int | None = None
        #: The most units of the phase reported done so far.
        self._phase_done = 0
        #: The witness of each opener :meth:`evaluate_root` settled, by opener, until
        #: its result takes it (:meth:`_result`).
        self.witnesses: dict[int, Witness] = {}

    @property
    def ceiling(self) -> int:
        """Return the value a tree must get below to count: ``options.ceiling``, or
        :data:`INFEASIBLE` (any tree) without one."""
        ceiling = self.options.ceiling
        return INFEASIBLE if ceiling is None else ceiling

    @property
    def engine(self) -> str:
        """Return what runs the units: "in-process", or "processes" (a local pool)."""
        return "processes" if self.options.workers > 1 else "in-process"

    @property
    def workers(self) -> int:
        """Return how many processes run the units."""
        return self.options.workers

    def close(self) -> None:
        """Release what the search holds besides its memo (here nothing: the pool
        ends with :meth:`run`; a cluster's search closes its cluster)."""

    def run(self, first_guess: int | None) -> Outcome:
        """Search from the root (from ``first_guess`` if given).

        The tree is read afterwards from :attr:`search`, whose memo holds the
        root's choice and every set below it.

        Returns:
            The outcome: the best value, its proven lower bound and each root's result.

        Raises:
            NoTreeBelowCeilingError: ``options.ceiling`` is set and no tree gets below it.
            InfeasibleCapError: no guess meets the worst-case cap.
            SearchError: no guess splits the targets, or a checkpoint cannot be used.
        """
        self._started = time.perf_counter()
        everything = np.arange(self.problem.n_targets, dtype=np.int64)
        depth = self.options.root_depth
        if first_guess is not None:
            roots = np.array([first_guess], dtype=np.int64)
            bounds = np.array([0], dtype=np.int64)
            left_out = INFEASIBLE
        else:
            node = self.root_scan = self.search.scan(everything, depth, ())
            roots, bounds, left_out = node.guesses, node.bounds, node.beam_left_out
        best, best_guess = self.ceiling, -1
        results: list[RootResult] = []
        try:
            if len(roots) > 1 and self.options.beam is None:
                best, best_guess = self._search_openers(roots, bounds, everything, depth, results)
            else:
                best, best_guess = self._search_in_order(
                    roots, bounds, everything, depth, best, results
                )
                if best_guess < 0 and left_out < INFEASIBLE and self.options.ceiling is None:
                    # No opener the beam kept has a tree within the cap: every opener is
                    # tried, as Search.solve widens any node (its classes keep the beam).
                    node = self.root_scan = self.search.scan(everything, depth, (), widen=True)
                    roots, bounds, left_out = node.guesses, node.bounds, node.beam_left_out
                    self.search.stats.widened += 1
                    best, best_guess = self._search_in_order(
                        roots, bounds, everything, depth, best, results
                    )
        finally:
            if self._pool is not None:
                self._pool.shutdown()
            if self.progress is not None:
                self.progress.close()
        if best_guess < 0:
            if self.options.ceiling is not None:
                # Every opener not in the results has a bound at least the least recorded
                # one (they are refuted in order of bound), so the least is proven.
                least = min((r.value for r in results), default=self.options.ceiling)
                raise NoTreeBelowCeilingError(self.options.ceiling, least)
            if self.options.max_guesses is not None:
                raise InfeasibleCapError("no tree meets the worst-case cap")
            raise SearchError("no guess splits the targets")
        if left_out < best:
            self.search.stats.beam_cut = True
        lower = self._lower_bound(best, best_guess, everything, depth)
        self.search.exact[self.search.values.key(everything, depth)] = (best, best_guess)
        return Outcome(
            first_guess=best_guess,
            value=best,
            lower_bound=lower,
            proven=lower == best,
            roots=results,
            stats=self.search.stats,
            seconds=time.perf_counter() - self._started,
            survivors=self.survivors,
            engine=self.engine,
            workers=self.workers,
        )

    def _search_in_order(
        self,
        roots: np.ndarray,
        bounds: np.ndarray,
        everything: np.ndarray,
        depth: int,
        best: int,
        results: list[RootResult],
    ) -> tuple[int, int]:
        """Evaluate ``roots`` in their order (by static bound) below ``best``; return the
        best (value, opener), the opener -1 if none beats ``best``, appending each
        opener's result to ``results``."""
        best_guess = -1
        for guess, bound in zip(roots.tolist(), bounds.tolist(), strict=True):
            if bound >= best:
                # Sorted by bound: this and every later guess is refuted.
                results.append(RootResult(guess, bound, False))
                break
            value, exact = self.evaluate_root(guess, everything, best, depth)
            results.append(self._result(guess, value, exact))
            if exact and value < best:
                best, best_guess = value, guess
        return best, best_guess

    def _search_openers(
        self,
        roots: np.ndarray,
        bounds: np.ndarray,
        everything: np.ndarray,
        depth: int,
        results: list[RootResult],
    ) -> tuple[int, int]:
        """Search every opener in ``roots`` (sorted by static bound); return the best
        (value, opener), appending each opener's result to ``results``.

        The opener with the least static bound is searched first, for a value to
        beat. Then a first pass gives every other opener its one-level bound
        (each class's least static bound, :meth:`Search.class_bounds`, stopped
        once it refutes): the openers still below the best value are the
        *survivors*, counted up front (:attr:`survivors`), and are searched in
        order of that bound, so strong ones come first and set a tight budget
        that refutes the rest sooner. Ties keep the static order's winner (the
        same opener the plain static order picks): an opener before the
        current best in static order is searched with a budget one higher, so
        an equal value is found exactly.
        """
        guesses, statics = roots.tolist(), bounds.tolist()
        lead = self.lead_rank(guesses)
        ceiling = self.ceiling
        value, exact = self.evaluate_root(guesses[lead], everything, ceiling, depth)
        results.append(self._result(guesses[lead], value, exact))
        if not exact and ceiling >= INFEASIBLE:
            # No tree under this opener meets the cap: nothing to beat yet, so
            # no first pass; the rest in static order, as without one.
            rest = np.delete(roots, lead), np.delete(bounds, lead)
            return self._search_in_order(*rest, everything, depth, INFEASIBLE, results)
        if exact:
            best, best_rank = value, lead
            self._lead_settled(value, lead)
            # An opener before the lead in static order wins a tie with it: with a lead,
            # the first pass keeps every opener whose bound reaches no more than its value.
            cut = best + 1 if lead else best
        else:
            # Nothing below the ceiling under the lead: the ceiling is the value to beat
            # (no opener holds it, so none wins a tie with it).
            best, best_rank = ceiling, -1
            cut = ceiling
        ranked: list[tuple[int, int]] = []
        # Openers whose static bound is below the cut: the rest are refuted already.
        bounded = next((r for r in range(len(guesses)) if statics[r] >= cut), len(guesses))
        self._phase("first pass: one-level bounds", "opener", bounded - (lead < bounded))
        done = 0
        for rank in range(len(guesses)):
            if rank == lead:
                continue  # searched already
            if statics[rank] >= cut:
                # Sorted by static bound: this and every later opener is refuted,
                # each recorded with its own bound (the certificate covers them all).
                results.extend(
                    RootResult(g, b, False, "static")
                    for r, (g, b) in enumerate(zip(guesses, statics, strict=True))
                    if r >= rank and r != lead
                )
                break
            guess = guesses[rank]
            level = self._one_level_bound(guess, everything, cut, depth)
            if level < cut:
                ranked.append((level, rank))
            else:
                results.append(RootResult(guess, level, False, "one-level"))
            done += 1
            best_text = self._best_text(best, best_rank, guesses)
            self._report(done, f"{len(ranked):,} survive; {best_text}")
        self.survivors = len(ranked)
        ranked.sort()
        self._phase("openers that survived the first pass", "opener", len(ranked))
        for settled, (_, rank) in enumerate(ranked, start=1):
            guess = guesses[rank]
            budget = tie_budget(best, best_rank, rank)
            value, exact = self.evaluate_root(guess, everything, budget, depth)
            exact = exact and value < budget
            results.append(self._result(guess, value, exact))
            if exact and (value < best or (value == best and rank < best_rank)):
                best, best_rank = value, rank
            # Sorted by bound: the next survivor's is the least any unsettled one has.
            left = f"; least bound left {ranked[settled][0]}" if settled < len(ranked) else ""
            self._report(settled, self._best_text(best, best_rank, guesses) + left)
        self._phase_total = None
        return best, guesses[best_rank] if best_rank >= 0 else -1

    def _result(self, guess: int, value: int, exact: bool) -> RootResult:
        """Return opener ``guess``'s result, settled by search, with its witness."""
        return RootResult(guess, value, exact, witness=self.witnesses.pop(guess, None))

    def _best_text(self, best: int, best_rank: int, guesses: list[int]) -> str:
        """Return the progress report's "best so far": the value and its opener, or the
        ceiling while no opener has got below it."""
        if best_rank < 0:
            return f"none below the ceiling {best}"
        return f"best {best} ({self._word(guesses[best_rank])})"

    def _lead_settled(self, value: int, rank: int) -> None:
        """Note that the lead opener (``rank`` in static order) is worth ``value``
        (a cluster keeps it for the survivors' budgets)."""

    def lead_rank(self, guesses: list[int]) -> int:
        """Return the position in ``guesses`` (openers in static order) of the opener
        searched first: ``options.lead_opener``'s when it is among them, else 0.

        Raises:
            SearchError: the lead opener is no word of the guess list.
        """
        word = self.options.lead_opener
        if word is None:
            return 0
        words = self.words
        if words is None or word.upper() not in words:
            raise SearchError(f"lead opener {word!r} is not in the guess list")
        index = list(words).index(word.upper())
        return guesses.index(index) if index in guesses else 0

    def _one_level_bound(self, guess: int, everything: np.ndarray, best: int, depth: int) -> int:
        """Return opener ``guess``'s first-pass bound: the sum of its classes' least
        static bounds, stopped once it reaches ``best``.

        The value is kept in the checkpoint, so a resumed search over every
        opener skips the first pass it already made (most of its time).

        Raises:
            SearchError: the checkpoint cannot be written.
        """
        unit = Checkpoint.opener_unit(guess)
        recorded = self.checkpoint.recorded(unit)
        if recorded is not None:
            return recorded
        search = self.search
        _, _, parts = search.class_bounds(
            guess, everything, best, depth - 1, (guess,), node=self.root_scan
        )
        level = search.values.combine(everything, parts)
        self.checkpoint.save(unit, level, None)
        return level

    def _word(self, guess: int) -> str:
        """Return ``guess``'s word, for reports (its index when no words were given)."""
        return self.words[guess] if self.words is not None else f"#{guess}"

    def _phase(self, label: str, unit: str, total: int) -> None:
        """Start a reported phase of ``total`` units (openers), counted by :meth:`_report`."""
        self._phase_total = total
        self._phase_done = 0
        if self.progress is not None:
            self.progress.phase(label, unit, total)

    def _report(self, done: int, status: str) -> None:
        """Report ``done`` units of the current phase, with ``status``; a count below one
        already reported is not (a cluster reports its first pass as it runs, then the
        openers are walked again from the first)."""
        if done < self._phase_done:
            return
        self._phase_done = done
        if self.progress is not None and self._phase_total is not None:
            elapsed = time.perf_counter() - self._started
            self.progress.update(done, self._phase_total, elapsed, status)

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
            root = search.static.get(search.values.key(everything, depth))
            if root is None:  # evicted from a bounded memo: the root's scan records it again
                search.scan(everything, depth, ())
                root = search.static[search.values.key(everything, depth)]
            return root
        # The beam search's memo holds beam values, not bounds: use a plain one.
        plain = Search(self.problem, dataclasses.replace(self.options, beam=None))
        bounds = []
        for part in self.problem.split(best_guess, everything):
            state = search.values.child_state(b"", best_guess, part)
            recorded = search.static.get(search.values.key(part, depth - 1, state))
            if len(part) <= 2:
                bounds.append(plain.known_bound(part, depth - 1, state))
            elif recorded is not None:
                bounds.append(recorded)
            else:
                bounds.append(plain.lookahead_bound(part, depth - 1, (best_guess,), state))
        return search.values.combine(everything, bounds)

    def evaluate_root(
        self, guess: int, everything: np.ndarray, best: int, depth: int
    ) -> tuple[int, bool]:
        """Return (value, exact) of root ``guess``.

        Budget contract: ``best`` is the budget; exact means the value is the
        guess's exact value and below ``best`` (or nothing was found yet);
        not exact means value >= best, a refutation.

        In process, each branch's budget is what the branches before it left;
        across processes, each gets its own bound plus the whole slack, so the
        branches can run at once.

        The opener's witness (:mod:`.witness`) is left in :attr:`witnesses`; a
        refuted opener is recorded whole in the checkpoint with it, so a resumed
        run gives the same one.
        """
        search = self.search
        below = depth - 1
        whole = Checkpoint.unit(guess, everything, depth)
        # An opener refuted whole by an earlier run (a cluster records openers, not
        # their branches, when it refutes one) is refuted here too.
        stored = self.checkpoint.lookup(whole, best)
        if stored is not None and stored[1] is None:
            witness = self.checkpoint.witness(whole)
            if witness is not None:
                self.witnesses[guess] = witness
            return stored[0], False
        parts, states, bounds = search.class_bounds(
            guess, everything, best, below, (guess,), node=self.root_scan
        )
        static = search.values.combine(everything, bounds)
        if static >= best:
            witness = witness_of(search, guess, parts, states, bounds, below)
            return self._refuted(guess, whole, static, witness), False
        if self.options.max_guesses is not None and best < INFEASIBLE:
            # Cheapest first (see .refute): a short capped probe, then the uncapped search,
            # wherever there is a value to beat: a ceiling, or a search over every opener's
            # best so far (its survivors: without these, NYT hard cap 6 on 3158 x 14855,
            # SLANE was still open after 200 CPU seconds; with them refuted in 9).
            probed = list(bounds)
            refuted = capped_probe(
                search, guess, everything, parts, states, bounds, best, below, out=probed
            )
            if refuted is not None:
                witness = witness_of(search, guess, parts, states, probed, below)
            else:
                self.witnesses.pop(guess, None)
                refuted = self._uncapped_refutation(guess, everything, best)
                witness = self.witnesses.get(guess)
            if refuted is not None:
                return self._refuted(guess, whole, refuted, witness), False
        values = list(bounds)
        # Smallest first: where a branch refutes the opener (a class that cannot finish
        # within a cap, above all), a small one nearly always does, and soonest.
        jobs = sorted(
            (i for i, part in enumerate(parts) if len(part) > 2), key=lambda i: len(parts[i])
        )
        self._units_total += len(jobs)

        def budget_for(index: int) -> int:
            if best >= INFEASIBLE:
                return INFEASIBLE
            if search.values.minimax:
                return best - 1
            return best - (search.values.combine(everything, values) - values[index])

        failed = False
        for index, value, subtree in self._run_units(guess, parts, states, jobs, budget_for, below):
            if subtree is None:
                values[index] = value
                failed = True
            else:
                # The value follows from the subtree itself, not the record's word.
                values[index] = install_subtree(
                    search, parts[index], below, iter(subtree), states[index]
                )
            if failed:
                break  # refuted: branches still out cannot change that (they are cancelled)
        total = search.values.combine(everything, values)
        if failed:
            witness = witness_of(search, guess, parts, states, values, below)
            return self._refuted(guess, whole, max(total, best), witness), False
        # Every class's value is exact, whatever the path: a witness of them alone (not
        # of which scans the memo holds) is the same in a resumed run.
        self.witnesses[guess] = witness_of(
            search, guess, parts, states, values, below, by_scan=False
        )
        return total, total < best or best >= INFEASIBLE

    def _refuted(self, guess: int, unit: str, value: int, witness: Witness | None) -> int:
        """Record opener ``guess`` refuted at ``value`` (unit ``unit``, all the targets)
        with its ``witness``: in :attr:`witnesses` and in the checkpoint. Return ``value``.

        Raises:
            SearchError: the checkpoint cannot be written.
        """
        if witness is not None:
            self.witnesses[guess] = witness
        self.checkpoint.save(unit, value, None, witness)
        return value

    def _uncapped_refutation(self, guess: int, everything: np.ndarray, best: int) -> int | None:
        """Return a bound >= ``best`` refuting opener ``guess`` without the cap, or None;
        a refutation leaves its witness (marked ``uncapped``) in :attr:`witnesses`.

        A tree within the cap is a tree, so no capped tree under ``guess`` beats its
        best tree without the cap. Under a ceiling (a tie-break's capped search,
        whose ceiling is the uncapped optimum + 1) nearly every opener's uncapped
        tree reaches it, and the uncapped search proves that several times faster
        than the capped one, whose bounds hardly see the cap (its memo also keys
        by depth). None: the opener has an uncapped tree below ``best``, so the
        capped search decides.

        Raises:
            SearchError: as the search (the uncapped search polls as this one does).
        """
        free = uncapped_search(self.search)
        before = dataclasses.replace(free.stats)
        root = RootSearch(free.problem, free.options, search=free, words=self.words)
        value, exact = root.evaluate_root(guess, everything, best, free.options.root_depth)
        self.search.stats.add(free.stats.since(before))
        if exact and value < best:
            return None
        witness = root.witnesses.get(guess)
        if witness is not None:
            self.witnesses[guess] = dataclasses.replace(witness, uncapped=True)
        return max(value, best)

    def _run_units(
        self,
        guess: int,
        parts: list[np.ndarray],
        states: list[bytes],
        jobs: list[int],
        budget_for: Callable[[int], int],
        depth: int,
    ) -> Iterator[tuple[int, int, list[int] | None]]:
        """Yield (index, value, subtree or None) for each root branch in ``jobs``.

        Budget contract: each branch is solved under ``budget_for(index)``;
        its subtree comes back only when its value is below that budget.
        ``states`` are the branches' constraint states (NYT hard mode).
        """
        pending: list[tuple[int, str, Future[_Solved]]] = []
        for index in jobs:
            part, state = parts[index], states[index]
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
                    (
                        index,
                        unit,
                        pool.submit(solve_in_worker, part, budget, depth, (guess,), state),
                    )
                )
                continue
            value = self.search.solve(part, budget, depth, (guess,), state)
            subtree = subtree_guesses(self.search, part, depth, state) if value < budget else None
            self.search.flush()  # the bound store's rows, one write per branch
            self.checkpoint.save(unit, value, subtree)
            self._tick()
            yield index, value, subtree
        try:
            for index, unit, future in pending:
                value, subtree, delta = future.result()
                self.search.stats.add(delta)
                self.checkpoint.save(unit, value, subtree)
                self._tick()
                yield index, value, subtree
        finally:
            for _, _, future in pending:
                future.cancel()  # the root guess was refuted: what has not started need not

    def _ensure_pool(self) -> ProcessPoolExecutor:
        """Return the worker pool, starting it on first use."""
        if self._pool is None:
            self._pool = start_pool(self.problem, self.options, self.search.symmetry)
        return self._pool

    def _tick(self) -> None:
        """Count one finished unit and report progress (root branches, unless a phase
        over openers is being reported)."""
        self._units_done += 1
        if self.progress is not None and self._phase_total is None:
            self.progress.update(
                self._units_done, self._units_total, time.perf_counter() - self._started
            )
