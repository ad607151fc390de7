"""The coordinator of a search on a Dask cluster, and the choice of engine.

:func:`root_search` picks what runs a search's units: this process (one
worker), a Dask cluster (several workers or ``--scheduler``; see
:mod:`.dask_engine`), or, where Dask is not installed, a local process pool
(engine "processes", as before Dask was used).

:class:`ClusterRootSearch` is a :class:`RootSearch` whose units run on the
cluster; the order of the search is the root's own, only these steps differ:

* **Root branches** (a fixed first guess, the first opener, lookahead
  roots): every branch is a task, the largest first. A branch finished
  tightens its siblings' budgets at once; a refuted branch cancels them. A
  large branch with nothing to beat yet is split by its guesses
  (:class:`_Split`): its first :data:`FIRST_CHUNK` guesses in search order
  find a value to beat, then chunks of :data:`CHUNK` guesses whose bounds are
  below it run at once, sharing the best found as they go.
* **First pass** (a search over every opener): the openers' one-level bounds
  in batches of :data:`PASS_BATCH`, recorded in the checkpoint as they come.
* **Survivors**: one task per opener, each searched on one worker as one
  process would (its branches in turn, so a refutation stops it at its first
  failing branch), all submitted at once in the root's order. The root
  settles them in that order, so the result (ties included) is the one
  process's; the budgets of those still out tighten when a better opener is
  settled.

Checkpoint records are written here, as results come, so a killed run
resumes from its checkpoint on another cluster.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from guesswork import install_hint

from ...client.progress import Progress
from ..errors import SearchError
from .bounds import INFEASIBLE
from .checkpoint import Checkpoint
from .problem import Problem, SearchOptions
from .root import Outcome, RootSearch, tie_budget
from .subtrees import install_subtree
from .symmetry import SymmetryHook
from .units import CANCELLED, SCALE

if TYPE_CHECKING:
    from distributed import Future

    from .dask_engine import Cluster, Opener

T = TypeVar("T")

#: Openers per first-pass task (a few seconds of work each).
PASS_BATCH = 64
#: Branches of at least this many targets are split by their guesses (when there is
#: nothing to beat yet), in chunks of CHUNK guesses after a first of FIRST_CHUNK.
SPLIT_TARGETS = 48
CHUNK = 256
FIRST_CHUNK = 16
#: What to install for running searches on a Dask cluster.
INSTALL_HINT = install_hint("cluster")


def dask_installed() -> bool:
    """Return True if dask.distributed can be imported."""
    return importlib.util.find_spec("distributed") is not None


def root_search(
    problem: Problem,
    options: SearchOptions,
    *,
    symmetry: SymmetryHook | None = None,
    checkpoint: Checkpoint | None = None,
    progress: Progress | None = None,
    words: Sequence[str] | None = None,
) -> RootSearch:
    """Return the root search for ``options``: in this process with one worker and
    no scheduler, else on a Dask cluster (a local pool if Dask is not installed).

    The caller closes it (:meth:`RootSearch.close`).

    Raises:
        SearchError: ``options.scheduler`` is set but Dask is not installed, or
            the cluster cannot be reached.
    """
    kwargs: dict[str, Any] = {
        "symmetry": symmetry,
        "checkpoint": checkpoint,
        "progress": progress,
        "words": words,
    }
    if options.scheduler is None and options.workers == 1:
        return RootSearch(problem, options, **kwargs)
    if not dask_installed():
        if options.scheduler is not None:
            raise SearchError(f"--scheduler needs Dask: {INSTALL_HINT}")
        return RootSearch(problem, options, **kwargs)  # the process pool
    from .dask_engine import Cluster

    return ClusterRootSearch(problem, options, Cluster(problem, options, symmetry), **kwargs)


class ClusterRootSearch(RootSearch):
    """A :class:`RootSearch` whose units run on a Dask cluster (see the module docstring)."""

    def __init__(
        self, problem: Problem, options: SearchOptions, cluster: Cluster, **kwargs: Any
    ) -> None:
        super().__init__(problem, options, **kwargs)
        self.cluster = cluster
        self._openers: list[int] = []
        self._statics: list[int] = []
        #: The first pass's bounds by opener (None until it ran).
        self._levels: dict[int, int] | None = None
        #: Survivors out on the cluster, by opener.
        self._out: dict[int, Future[Opener | None]] = {}
        self._sent = False
        #: The best (value, rank) the root has settled, for the survivors' budgets.
        self._best = (INFEASIBLE, 0)
        #: The rank (static order) of the opener searched first (RootSearch.lead_rank).
        self._lead = 0

    @property
    def engine(self) -> str:
        """Return "dask-local" (a cluster started here) or "dask" (``--scheduler``)."""
        return self.cluster.engine

    @property
    def workers(self) -> int:
        """Return the cluster's workers."""
        return self.cluster.workers

    def close(self) -> None:
        """Close the cluster (or the connection to it)."""
        self.cluster.close()

    def run(self, first_guess: int | None) -> Outcome:
        """As :meth:`RootSearch.run`, on the cluster."""
        try:
            return super().run(first_guess)
        except BaseException:  # an error or Ctrl-C: no running unit's answer is wanted
            self.cluster.abandon()
            raise
        finally:
            for future in self._out.values():
                future.cancel()
            self.cluster.cancel_all()
            self._out.clear()

    def _search_openers(
        self,
        roots: np.ndarray,
        bounds: np.ndarray,
        everything: np.ndarray,
        depth: int,
        results: list[Any],
    ) -> tuple[int, int]:
        self._openers, self._statics = roots.tolist(), bounds.tolist()
        self._lead = self.lead_rank(self._openers)
        # Until an opener gets below it, the ceiling (if any) sets the survivors' budgets.
        self._best = (self.ceiling, -1)
        return super()._search_openers(roots, bounds, everything, depth, results)

    def _lead_settled(self, value: int, rank: int) -> None:
        self._best = (value, rank)

    # -- the first pass ---------------------------------------------------------------

    def _one_level_bound(self, guess: int, everything: np.ndarray, best: int, depth: int) -> int:
        """Return ``guess``'s first-pass bound, all openers' made at once on the cluster."""
        if self._levels is None:
            self._levels = self._first_pass_on_cluster(best, depth)
        return self._levels[guess]

    def _first_pass_on_cluster(self, best: int, depth: int) -> dict[int, int]:
        """Return the first-pass bound of every opener after the first whose static bound
        is below ``best``: from the checkpoint, or made on the cluster in batches.

        Raises:
            SearchError: a task failed on every try, or the checkpoint cannot be written.
        """
        levels: dict[int, int] = {}
        todo: list[int] = []
        for rank, (guess, static) in enumerate(zip(self._openers, self._statics, strict=True)):
            if rank == self._lead:
                continue  # searched first, for the value to beat
            if static >= best:
                break
            # The record RootSearch._one_level_bound keeps.
            recorded = self.checkpoint.recorded(Checkpoint.opener_unit(guess))
            if recorded is None:
                todo.append(guess)
            else:
                levels[guess] = recorded
        from .dask_engine import one_level_bounds

        batches = {
            self.cluster.submit(
                one_level_bounds, todo[i : i + PASS_BATCH], best, depth, priority=-i
            ): todo[i : i + PASS_BATCH]
            for i in range(0, len(todo), PASS_BATCH)
        }
        for future in self.cluster.completed(list(batches)):
            found, delta = self._wait(future)
            self.search.stats.add(delta)
            for guess, level in zip(batches[future], found, strict=True):
                self.checkpoint.save(Checkpoint.opener_unit(guess), level, None)
                levels[guess] = level
            survive = sum(level < best for level in levels.values())
            self._report(len(levels), f"{survive:,} survive; to beat {best}")
        return levels

    # -- survivors ----------------------------------------------------------------------

    def evaluate_root(
        self, guess: int, everything: np.ndarray, best: int, depth: int
    ) -> tuple[int, bool]:
        """As :meth:`RootSearch.evaluate_root`; a survivor's is its opener task's result."""
        if self._levels is None or self.survivors is None:
            return super().evaluate_root(guess, everything, best, depth)
        if not self._sent:
            self._sent = True
            self._send_survivors(everything, depth)
        unit = Checkpoint.unit(guess, everything, depth)
        stored = self.checkpoint.lookup(unit, best)
        if stored is not None and stored[1] is None:  # refuted by an earlier run
            witness = self.checkpoint.witness(unit)
            if witness is not None:
                self.witnesses[guess] = witness
            return stored[0], False
        sent = self._out.pop(guess, None)
        if sent is None:
            return super().evaluate_root(guess, everything, best, depth)
        answer = self._wait(sent)
        self.cluster.forget([unit])
        if answer is None:  # cancelled: cannot be, the root still wanted it
            return super().evaluate_root(guess, everything, best, depth)
        value, exact, records, delta, witness = answer
        self.search.stats.add(delta)
        self._tick()
        if witness is not None:
            self.witnesses[guess] = witness
        # Sent under ``budget`` >= ``best`` (budgets only tighten): an exact value at
        # or above ``best`` refutes, as does a refutation of the larger budget.
        if exact and value < best:
            self._install(guess, records, everything, depth)
            rank = self._openers.index(guess)
            self._best = min(self._best, (value, rank))
            self._retighten()
            return value, True
        self.checkpoint.save(unit, value, None, witness)
        return max(value, best) if not exact else value, False

    def _send_survivors(self, everything: np.ndarray, depth: int) -> None:
        """Submit every survivor (first-pass bound below the best), in the root's order,
        except those the checkpoint refutes."""
        from .dask_engine import evaluate_opener

        assert self._levels is not None
        rank_of = {guess: rank for rank, guess in enumerate(self._openers)}
        ranked = sorted(
            (level, rank_of[g])
            for g, level in self._levels.items()
            if level < self._budget_of(rank_of[g])
        )
        records: dict[str, dict[str, dict[str, Any]]] = {}
        for key, record in self.checkpoint.done.items():
            records.setdefault(key.split(":", 1)[0], {})[key] = record
        for order, (_, rank) in enumerate(ranked):
            guess = self._openers[rank]
            budget = self._budget_of(rank)
            unit = Checkpoint.unit(guess, everything, depth)
            stored = self.checkpoint.lookup(unit, budget)
            if stored is not None and stored[1] is None:
                continue  # refuted by an earlier run
            mine = records.get(str(guess), {})
            self._out[guess] = self.cluster.submit(
                evaluate_opener,
                unit,
                guess,
                budget,
                depth,
                mine,
                unit=unit,
                budget=budget,
                priority=-order,
            )

    def _budget_of(self, rank: int) -> int:
        """Return the budget of the opener at ``rank`` (static order) under the best
        settled so far: one higher for an opener before the best's, which wins a tie with
        it, so that an equal value is found exactly (RootSearch._search_openers budgets
        it so). Sent with the bare best, such an opener was refuted at the best's value
        while the root recorded one more than its witness proved."""
        value, best_rank = self._best
        return tie_budget(value, best_rank, rank)

    def _wait(self, future: Future[T]) -> T:
        """Return ``future``'s result.

        Raises:
            SearchError: a task failed on every try.
        """
        try:
            return future.result()
        except Exception as error:
            raise SearchError(f"a unit failed on the cluster: {error}") from error

    def _install(
        self, guess: int, records: list[dict[str, Any]], everything: np.ndarray, depth: int
    ) -> None:
        """Record an exact opener's branches: in the checkpoint and, with their
        subtrees, in this process's memo (the tree is read from it)."""
        found = {record["unit"]: record for record in records}
        for part in self.problem.split(guess, everything):
            if len(part) <= 2:
                continue
            unit = Checkpoint.unit(guess, part, depth - 1)
            record = found.get(unit) or self.checkpoint.done.get(unit)
            if record is None or record["guesses"] is None:
                raise SearchError(f"the cluster sent no subtree for branch {unit}")
            if unit in found:
                self.checkpoint.save(unit, record["value"], record["guesses"])
            state = self.search.values.child_state(b"", guess, part)
            install_subtree(self.search, part, depth - 1, iter(record["guesses"]), state)

    def _retighten(self) -> None:
        """Publish the survivors' budgets under the best settled so far."""
        rank_of = {guess: rank for rank, guess in enumerate(self._openers)}
        everything = np.arange(self.problem.n_targets, dtype=np.int64)
        depth = self.options.root_depth
        self.cluster.tighten(
            {
                Checkpoint.unit(guess, everything, depth): self._budget_of(rank_of[guess])
                for guess in self._out
            }
        )

    # -- root branches --------------------------------------------------------------------

    def _run_units(
        self,
        guess: int,
        parts: list[np.ndarray],
        states: list[bytes],
        jobs: list[int],
        budget_for: Callable[[int], int],
        depth: int,
    ) -> Iterator[tuple[int, int, list[int] | None]]:
        """Yield (index, value, subtree or None) for each branch in ``jobs``, as the
        cluster finishes them; see :meth:`RootSearch._run_units`.

        A large branch with no budget to meet (nothing to beat yet) is split by
        its guesses (:class:`_Split`); the others are one task each.

        Raises:
            SearchError: a task failed on every try, or the checkpoint cannot be written.
        """
        from .dask_engine import solve_branch

        pending: dict[Future[Any], tuple[int, str] | tuple[_Split, int]] = {}
        finished = self.cluster.completed([])
        try:
            for index in jobs:
                part, budget = parts[index], budget_for(index)
                unit = Checkpoint.unit(guess, part, depth)
                stored = self.checkpoint.lookup(unit, budget)
                if stored is not None:
                    self._tick()
                    yield index, stored[0], stored[1]
                    continue
                split = self._split(guess, index, unit, part, states[index], budget, depth)
                if split is not None:
                    self._send_chunks(split, pending, finished)
                    continue
                future = self.cluster.submit(
                    solve_branch,
                    unit,
                    part,
                    budget,
                    depth,
                    (guess,),
                    states[index],
                    unit=unit,
                    budget=budget,
                    priority=len(part),  # the largest first
                )
                pending[future] = (index, unit)
                finished.add(future)
            for future in finished:
                what = pending.pop(future)
                answer = self._wait(future)
                if answer is None:
                    continue
                self.search.stats.add(answer[-1])
                if isinstance(what[0], _Split):
                    split = what[0]
                    split.took(what[1], answer[0], answer[1], self.cluster)
                    self._send_chunks(split, pending, finished)
                    if split.out:
                        continue
                    index, unit, value, subtree = split.answer()
                else:
                    index, unit = what
                    value, subtree = answer[0], answer[1]
                self.checkpoint.save(unit, value, subtree)
                self.cluster.forget([unit])
                self._tick()
                yield index, value, subtree
                # The root has taken this value in: the others' budgets may be tighter.
                self.cluster.tighten(
                    {w[1]: budget_for(w[0]) for w in pending.values() if isinstance(w[0], int)}
                )
        finally:
            for future in pending:
                future.cancel()
            self.cluster.tighten(
                {
                    w[1] if isinstance(w[0], int) else f"{w[0].unit}@{w[1]}": CANCELLED
                    for w in pending.values()
                }
            )

    def _split(
        self,
        guess: int,
        index: int,
        unit: str,
        part: np.ndarray,
        state: bytes,
        budget: int,
        depth: int,
    ) -> _Split | None:
        """Return the split of branch ``part`` by its guesses, or None where one task is
        better: small branches, branches with a budget, lookahead searches."""
        if len(part) < SPLIT_TARGETS or budget < INFEASIBLE or self.options.beam is not None:
            return None
        # The same scan (and so the same search order) as each worker's.
        node = self.search.scan(part, depth, (guess,), INFEASIBLE, state)
        if len(node.guesses) <= CHUNK:
            return None
        return _Split(index, unit, part, state, depth, (guess,), node.bounds)

    def _send_chunks(
        self,
        split: _Split,
        pending: dict[Future[Any], Any],
        finished: Any,
    ) -> None:
        """Submit ``split``'s next chunks: its first alone (for a value to beat),
        then every chunk whose guesses' bounds are below the best found."""
        from .dask_engine import evaluate_guesses

        for start, stop in split.chunks():
            chunk = f"{split.unit}@{start}"
            future = self.cluster.submit(
                evaluate_guesses,
                chunk,
                split.part,
                split.depth,
                split.history,
                split.state,
                start,
                stop,
                split.best,
                unit=chunk,
                budget=split.best,
                priority=len(split.part) - start // CHUNK,
            )
            pending[future] = (split, start)
            finished.add(future)


class _Split:
    """A branch searched by its guesses in chunks on several workers (see
    :func:`.dask_engine.evaluate_guesses`): what has been sent and the best found."""

    def __init__(
        self,
        index: int,
        unit: str,
        part: np.ndarray,
        state: bytes,
        depth: int,
        history: tuple[int, ...],
        bounds: np.ndarray,
    ) -> None:
        self.index, self.unit, self.part, self.state = index, unit, part, state
        self.depth, self.history, self.bounds = depth, history, bounds
        #: The best (value, position) found, coded as value * SCALE + position.
        self.best = INFEASIBLE * SCALE
        self.subtree: list[int] | None = None
        #: The first position not yet sent, and the chunks out (by start).
        self.next = 0
        self.out: set[int] = set()

    def chunks(self) -> list[tuple[int, int]]:
        """Return the (start, stop) of the chunks to send now, and count them as sent.

        The first chunk goes alone: until it returns there is no value to beat,
        and the first guesses in search order are the likeliest best.
        """
        if self.next == 0:
            stop = FIRST_CHUNK
        elif self.next == FIRST_CHUNK and not self.out:
            # Only guesses whose bound is below the best value can matter (the
            # rest are later in search order, so a tie does not go to them).
            value = self.best // SCALE
            stop = int(np.searchsorted(self.bounds, value, side="left"))
        else:
            return []
        sent = [(start, min(start + CHUNK, stop)) for start in range(self.next, stop, CHUNK)]
        if self.next == 0:
            sent = [(0, min(FIRST_CHUNK, len(self.bounds)))]
        self.next = max(self.next, stop)
        self.out.update(start for start, _ in sent)
        return sent

    def took(self, start: int, found: int | None, subtree: list[int] | None, cluster: Any) -> None:
        """Take chunk ``start``'s answer; tighten the chunks still out if it is the best."""
        self.out.discard(start)
        if found is not None and found < self.best:
            self.best, self.subtree = found, subtree
            cluster.tighten({f"{self.unit}@{s}": found for s in self.out})
        cluster.forget([f"{self.unit}@{start}"])

    def answer(self) -> tuple[int, str, int, list[int] | None]:
        """Return (branch index, unit, value, subtree or None) once every chunk is in."""
        value = self.best // SCALE
        return self.index, self.unit, value, self.subtree if value < INFEASIBLE else None
