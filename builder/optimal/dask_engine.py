"""Running a search's units on a Dask cluster (dask.distributed).

``optimize --workers N`` (N > 1) starts a local cluster of N worker processes
(:class:`Cluster`, engine "dask-local"); ``--scheduler ADDRESS`` uses an
existing cluster instead (engine "dask"), whose workers may be on other
machines. What runs where:

* **Coordinator** (this process, :mod:`.cluster`): decides the units, their
  budgets and order, writes the checkpoint and builds the tree. A killed run
  therefore resumes from its checkpoint on any cluster.
* **Workers**: :class:`SearchPlugin` brings each worker the problem once (the
  scheduler keeps the plugin and hands it to every worker that joins later,
  a restarted one included); each worker builds its :class:`Search` from it
  on its first task and keeps it, memo and all, between units. Tasks name the
  search by a token and carry only their own targets, never the reply
  matrix. Workers should run one thread each (``--nthreads 1``): each thread
  gets a search of its own, and they share no memo.

**Budgets while running.** The coordinator keeps, in a Dask ``Variable``,
the budgets that tightened since units were submitted (a sibling branch
finished, a better opener was found) and marks units it no longer needs.
A unit's search reads it at most every :data:`POLL_SECONDS` (the
:attr:`Search.poll` hook, at set boundaries): a tighter budget restarts the
unit's search under it (what was already proven stays in the memo, so the
restart is cheap), and a cancelled unit stops. Dask cannot interrupt a
running task; this is how a refuted opener's siblings stop early.

**Lost workers.** A task lost with its worker is run again elsewhere (Dask
does that); tasks are idempotent (a unit's answer depends only on its
arguments), so this only costs time. A task that raises is retried
:data:`RETRIES` times.

**Ctrl-C.** A local cluster's worker processes never receive SIGINT, and
what Dask logs as an interrupt unwinds is not printed (see :mod:`.interrupts`):
the user sees the CLI's one line. A run stopped by an error or an interrupt
closes a local cluster without waiting for the units still running
(:meth:`Cluster.close`): what they would add is not in the checkpoint, which
holds only settled units.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from multiprocessing import resource_tracker
from typing import Any, TypeVar

import numpy as np
from distributed import Client, Future, LocalCluster, Variable, WorkerPlugin, as_completed
from distributed.worker import Worker

from ..errors import SearchError
from .bounds import INFEASIBLE
from .checkpoint import Checkpoint
from .interrupts import QuietInterrupt, sigint_blocked
from .problem import Problem, SearchOptions, target_major
from .root import RootSearch
from .search import Search
from .stats import SearchStats
from .subtrees import subtree_guesses
from .symmetry import SymmetryHook
from .units import CANCELLED, SCALE
from .witness import Witness

#: How long to wait for a scheduler to answer, or for a cluster to have a worker (seconds).
CONNECT_TIMEOUT = 10.0
#: How often a running unit reads its budget (seconds).
POLL_SECONDS = 0.25
#: Times a task that raised is run again before its error ends the search.
RETRIES = 2
#: The longest an abandoned local cluster's closing steps may take (seconds): a
#: stuck one is left to exit with this process.
CLOSE_SECONDS = 30.0
#: What stops an abandoned local cluster's worker processes (Windows has no SIGKILL).
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)

T = TypeVar("T")
#: A branch unit's answer: value, the subtree (None if refuted), stats added.
Branch = tuple[int, list[int] | None, SearchStats]
#: An opener unit's answer: value, exact, the branch records it made, stats added,
#: its witness (see .witness; None if it has none).
Opener = tuple[int, bool, list[dict[str, Any]], SearchStats, Witness | None]


class Cluster:
    """The coordinator's connection to a Dask cluster, with the search set up on it.

    Attributes:
        engine: "dask-local" (a cluster started here) or "dask" (``--scheduler``).
        workers: the cluster's workers when the search started.
    """

    def __init__(
        self, problem: Problem, options: SearchOptions, symmetry: SymmetryHook | None
    ) -> None:
        """Start a local cluster of ``options.workers`` processes, or connect to
        ``options.scheduler``, and set every worker's search up.

        Raises:
            SearchError: the scheduler cannot be reached, or has no worker within
                :data:`CONNECT_TIMEOUT` seconds.
        """
        self._local: LocalCluster | None = None
        #: Set by :meth:`abandon`: :meth:`close` does not wait for running units.
        self._abandoned = False
        #: SIGINT's handler until closed (see .interrupts).
        self._interrupt = QuietInterrupt()
        self._interrupt.install()
        self.token = uuid.uuid4().hex
        try:
            if options.scheduler is None:
                self.engine = "dask-local"
                self.client = self._start_local(options.workers)
            else:
                self.engine = "dask"
                self.client = _connect(options.scheduler)
        except BaseException:
            self._interrupt.restore()
            raise
        try:
            try:
                self.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                raise SearchError(
                    f"the Dask scheduler at {options.scheduler} has no workers "
                    f"(none joined within {CONNECT_TIMEOUT:g} s)"
                ) from None
            self.workers = len(self.client.scheduler_info(n_workers=-1)["workers"])
            self.plugin = f"guesswork-search-{self.token}"
            self.client.register_plugin(
                SearchPlugin(self.token, problem, options, symmetry), name=self.plugin
            )
            #: Each unit's budget when sent or last tightened, and the tightened ones
            #: (what workers read).
            self._sent: dict[str, int] = {}
            self._budgets: dict[str, int] = {}
            self._variable = Variable(f"guesswork-budgets-{self.token}", client=self.client)
            self._variable.set({})
        except BaseException:
            self.abandon()
            with sigint_blocked():
                self._shut()
            raise

    def _start_local(self, workers: int) -> Client:
        """Start a local cluster of ``workers`` processes; return a client of it.

        Its worker processes never receive SIGINT (see .interrupts); one that
        reaches this process meanwhile closes the cluster, then is raised
        (KeyboardInterrupt).
        """
        # The stdlib's resource tracker unblocks SIGINT in the thread that starts it
        # (multiprocessing.resource_tracker.ensure_running): started now, before
        # the mask, it cannot unblock it in a thread that starts worker processes.
        resource_tracker.ensure_running()
        try:
            with sigint_blocked():
                # Loopback only. The dashboard's port is a free one: with none, the
                # scheduler's HTTP server still takes 8787 and warns if another has it.
                self._local = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            return Client(self._local, set_as_default=False)
        except BaseException:
            with sigint_blocked():
                if self._local is not None:
                    self.abandon()
                    with contextlib.suppress(TimeoutError):
                        self._local.sync(_stop_workers, self._local, callback_timeout=CLOSE_SECONDS)
                        self._local.close(timeout=CLOSE_SECONDS)
            raise

    def submit(
        self,
        function: Callable[..., T],
        *args: Any,
        unit: str | None = None,
        budget: int = 0,
        priority: int = 0,
    ) -> Future[T]:
        """Return the future of ``function(token, budgets variable, *args)`` on a worker.

        ``unit`` names a unit sent under ``budget`` (for :meth:`tighten`); larger
        ``priority`` runs first.
        """
        if unit is not None:
            self._sent[unit] = budget
        return self.client.submit(
            function,
            self.token,
            self._variable.name,
            *args,
            priority=priority,
            retries=RETRIES,
            pure=False,
        )

    def completed(self, futures: Iterable[Future[T]]) -> as_completed:
        """Return an iterator over ``futures`` as they finish; ``add`` adds one more."""
        return as_completed(futures, loop=self.client.loop)

    def tighten(self, budgets: dict[str, int]) -> None:
        """Publish sent units' new budgets (CANCELLED: stop) where lower than before."""
        changed = {
            unit: budget
            for unit, budget in budgets.items()
            if unit in self._sent and budget < self._sent[unit]
        }
        if changed:
            self._sent.update(changed)
            self._budgets.update(changed)
            self._variable.set(dict(self._budgets))

    def cancel_all(self) -> None:
        """Tell every unit still out to stop."""
        self.tighten(dict.fromkeys(self._sent, CANCELLED))

    def forget(self, units: Iterable[str]) -> None:
        """Drop finished units from what workers read."""
        units = list(units)
        for unit in units:
            self._sent.pop(unit, None)
        if any([self._budgets.pop(unit, None) is not None for unit in units]):
            self._variable.set(dict(self._budgets))

    def abandon(self) -> None:
        """Have :meth:`close` stop a local cluster's work at once: the search
        failed or was interrupted, so no running unit's answer is wanted."""
        self._abandoned = True
        self._interrupt.acknowledge()

    def close(self) -> None:
        """Take the search off the workers and close the connection (and a local cluster).

        After :meth:`abandon`, a local cluster's workers are stopped without
        waiting for their running units. A SIGINT that arrives meanwhile waits
        until the cluster is closed (a second Ctrl-C does not leave it half
        closed), then is raised (KeyboardInterrupt).
        """
        self._interrupt.acknowledge()  # closing: an interrupt has been taken in
        with sigint_blocked():
            # An abandoned local cluster goes with its plugin and variable; a remote
            # one stays, so the search's set-up is taken off it either way.
            if not (self._abandoned and self._local is not None):
                try:
                    self.client.unregister_worker_plugin(self.plugin)
                    self._variable.delete()
                except Exception:  # a cluster already gone: nothing to clean
                    pass
            self._shut()

    def _shut(self) -> None:
        """Close the client and the local cluster, if any (its workers first, and
        at once if abandoned), then give SIGINT and logging back."""
        try:
            if self._local is not None and self._abandoned:
                # Before the client and the scheduler go: a worker still running
                # would log the scheduler's loss, and the scheduler the client's.
                # Bounded: SIGINT is blocked meanwhile, so Ctrl-C cannot end a hang.
                with contextlib.suppress(TimeoutError):
                    self._local.sync(_stop_workers, self._local, callback_timeout=CLOSE_SECONDS)
            self.client.close()
            if self._local is not None:
                with contextlib.suppress(TimeoutError):
                    self._local.close(timeout=CLOSE_SECONDS if self._abandoned else None)
        finally:
            self._interrupt.restore()


async def _stop_workers(local: LocalCluster) -> None:
    """Close ``local``'s workers, their processes killed: no running unit is waited
    for (Dask's close would wait for it), and a killed process prints nothing."""
    nannies = list(local.workers.values())
    closing = [asyncio.ensure_future(nanny.close(reason="guesswork-abandon")) for nanny in nannies]
    await asyncio.sleep(0)  # every nanny is closing now, so it restarts no worker it loses
    for nanny in nannies:
        if nanny.pid is not None:
            with contextlib.suppress(ProcessLookupError):  # gone already
                os.kill(nanny.pid, KILL)
    await asyncio.gather(*closing, return_exceptions=True)  # a worker gone: nothing to close


def _connect(address: str) -> Client:
    """Return a client of the scheduler at ``address``.

    Raises:
        SearchError: it cannot be reached within :data:`CONNECT_TIMEOUT` seconds.
    """
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SearchError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


# -- on the workers ---------------------------------------------------------------

#: This worker process's search set-ups (:class:`SearchPlugin`), and the searches made
#: from them, one per token and task thread: a search is not thread-safe (its scan
#: buffers are its own), nor is a bound store's SQLite connection.
_PLUGINS: dict[str, SearchPlugin] = {}
_SEARCHES: dict[tuple[str, int], Search] = {}


class SearchPlugin(WorkerPlugin):
    """A search's problem and options on a worker, for :func:`_search_of` to build from.

    Pickled without the target-major copy of the reply matrix (each worker
    makes its own), so the scheduler holds and sends the matrix once.
    """

    def __init__(
        self, token: str, problem: Problem, options: SearchOptions, symmetry: SymmetryHook | None
    ) -> None:
        self.token = token
        self.problem = problem
        self.options = dataclasses.replace(options, workers=1, scheduler=None)
        self.symmetry = symmetry

    def __getstate__(self) -> dict[str, Any]:
        problem = dataclasses.replace(self.problem, by_target=np.empty((0, 0), np.uint8))
        return {**vars(self), "problem": problem}

    def __setstate__(self, state: dict[str, Any]) -> None:
        problem = state["problem"]
        state["problem"] = dataclasses.replace(problem, by_target=target_major(problem.matrix))
        vars(self).update(state)

    def setup(self, worker: Worker) -> None:
        """Keep the search's set-up on this worker (until :meth:`teardown`)."""
        _PLUGINS[self.token] = self

    def teardown(self, worker: Worker) -> None:
        """Drop the set-up and its searches (the run is over)."""
        _PLUGINS.pop(self.token, None)
        for key in [key for key in _SEARCHES if key[0] == self.token]:
            del _SEARCHES[key]


class Tightened(Exception):  # noqa: N818  a signal, not an error
    """Raised through a unit's search when its budget went down (or it was cancelled)."""

    def __init__(self, budget: int) -> None:
        super().__init__(budget)
        self.budget = budget


class _Poller:
    """A unit's :attr:`Search.poll` hook: reads the unit's budget now and then."""

    def __init__(self, variable: str, unit: str, budget: int) -> None:
        self.variable = Variable(variable)  # the worker's own client
        self.unit = unit
        # Sent with the budget current then; a queued unit that no longer matters
        # is cancelled before it starts, so the first read can wait for the first poll.
        self.budget = budget
        self.due = time.monotonic() + POLL_SECONDS

    def read(self, budget: int) -> int:
        """Return ``budget``, or the unit's published budget if lower."""
        try:
            published: dict[str, int] = self.variable.get(timeout=CONNECT_TIMEOUT)
        except Exception:  # unreadable now: keep searching under the old one
            return budget
        return min(budget, published.get(self.unit, budget))

    def peek(self, budget: int) -> int:
        """Return ``budget``, or the unit's published budget if lower (read at most
        every :data:`POLL_SECONDS`)."""
        now = time.monotonic()
        if now < self.due:
            return budget
        self.due = now + POLL_SECONDS
        return self.read(budget)

    def __call__(self) -> None:
        now = time.monotonic()
        if now < self.due:
            return
        self.due = now + POLL_SECONDS
        budget = self.read(self.budget)
        if budget < self.budget:
            self.budget = budget
            raise Tightened(budget)


def _search_of(token: str) -> Search:
    """Return this task thread's search for ``token``, made on first use (a worker
    runs one thread with ``--nthreads 1``, as it should: several share no memo).

    Raises:
        RuntimeError: the plugin has not reached this worker (Dask retries the task).
    """
    key = (token, threading.get_ident())
    search = _SEARCHES.get(key)
    if search is None:
        plugin = _PLUGINS.get(token)
        if plugin is None:
            raise RuntimeError(f"no search {token} on worker process {os.getpid()}")
        search = _SEARCHES[key] = Search(plugin.problem, plugin.options, plugin.symmetry)
    return search


def _under_budget(
    search: Search, variable: str, unit: str, budget: int, work: Callable[[int], T]
) -> tuple[T, int] | None:
    """Return (``work(budget)``, the budget it ran under), restarted whenever the
    unit's budget tightens; None if the unit was cancelled."""
    poller = _Poller(variable, unit, budget)
    budget = poller.budget
    search.poll = poller
    try:
        while budget != CANCELLED:
            try:
                return work(budget), budget
            except Tightened as tightened:
                budget = tightened.budget
        return None
    finally:
        search.poll = None


def solve_branch(
    token: str,
    variable: str,
    unit: str,
    targets: np.ndarray,
    budget: int,
    depth: int,
    history: tuple[int, ...],
    state: bytes,
) -> Branch | None:
    """Solve one branch (a target set after the root's guess) on a worker.

    Budget contract: as :meth:`Search.solve`, under the unit's budget (which
    may tighten while it runs); the subtree comes back only below it.

    Returns:
        (value, subtree or None, the stats this call added); None if cancelled.

    Raises:
        RuntimeError: no search for ``token`` on this worker.
        BoundStoreError: the bound store cannot be read or written.
    """
    search = _search_of(token)
    before = dataclasses.replace(search.stats)
    done = _under_budget(
        search,
        variable,
        unit,
        budget,
        lambda b: search.solve(targets, b, depth, history, state),
    )
    if done is None:
        return None
    value, budget = done
    subtree = subtree_guesses(search, targets, depth, state) if value < budget else None
    search.flush()
    return value, subtree, search.stats.since(before)


def evaluate_opener(
    token: str,
    variable: str,
    unit: str,
    guess: int,
    budget: int,
    depth: int,
    records: dict[str, dict[str, Any]],
) -> Opener | None:
    """Evaluate one opener on a worker, its branches in turn as one process would.

    ``records`` are checkpointed branches of this opener (a resumed run);
    they are used, not searched again.

    Returns:
        (value, exact: the value is exact and below the unit's last budget,
        the branch records made, the stats this call added, the opener's
        witness); None if cancelled.

    Raises:
        RuntimeError: no search for ``token`` on this worker.
        BoundStoreError: the bound store cannot be read or written.
    """
    search = _search_of(token)
    before = dataclasses.replace(search.stats)
    checkpoint = Checkpoint(None, "")
    checkpoint.done.update(records)
    root = RootSearch(search.problem, search.options, checkpoint=checkpoint, search=search)
    everything = np.arange(search.problem.n_targets, dtype=np.int64)
    done = _under_budget(
        search,
        variable,
        unit,
        budget,
        lambda b: root.evaluate_root(guess, everything, b, depth),  # one process's way
    )
    if done is None:
        return None
    (value, exact), budget = done
    made = [record for key, record in checkpoint.done.items() if key not in records]
    witness = root.witnesses.get(guess)
    return value, exact and value < budget, made, search.stats.since(before), witness


def one_level_bounds(
    token: str, variable: str, guesses: list[int], best: int, depth: int
) -> tuple[list[int], SearchStats]:
    """Return openers' first-pass bounds (see :meth:`RootSearch._one_level_bound`)
    against ``best``, and the stats this call added.

    Raises:
        RuntimeError: no search for ``token`` on this worker.
    """
    search = _search_of(token)
    before = dataclasses.replace(search.stats)
    root = RootSearch(search.problem, search.options, search=search)
    everything = np.arange(search.problem.n_targets, dtype=np.int64)
    levels = [root._one_level_bound(g, everything, best, depth) for g in guesses]
    return levels, search.stats.since(before)


#: A chunk's answer: the best (value, position) it found, as value * SCALE +
#: position (None if none beat what it was sent), that guess's subtree, stats added.
Chunk = tuple[int | None, list[int] | None, SearchStats]


def evaluate_guesses(
    token: str,
    variable: str,
    unit: str,
    targets: np.ndarray,
    depth: int,
    history: tuple[int, ...],
    state: bytes,
    start: int,
    stop: int,
    best: int,
) -> Chunk | None:
    """Evaluate the guesses at positions ``start`` to ``stop`` of a node's search
    order (:meth:`Search.scan`), one part of the node's search split over workers.

    ``best`` is the node's best (value, position) so far, coded as value * SCALE +
    position (it tightens while the chunk runs, as other chunks finish). The node's
    answer is the least (value, position) over all its chunks: the least value,
    ties to the earliest guess in search order, which is the guess one
    :meth:`Search.solve` records, so the tree does not depend on the split.

    Returns:
        The chunk's answer (see :data:`Chunk`); None if cancelled.

    Raises:
        RuntimeError: no search for ``token`` on this worker.
    """
    search = _search_of(token)
    before = dataclasses.replace(search.stats)
    node = search.scan(targets, depth, history, INFEASIBLE, state)
    poller = _Poller(variable, unit, best)
    best, found, seen = poller.budget, None, set()
    # Search.solve's loop over a node's guesses, over this chunk's positions only.
    for position in range(start, min(stop, len(node.guesses))):
        if best == CANCELLED:
            return None
        value, first = divmod(best, SCALE)
        budget = value + 1 if position < first else value  # ties go to the earlier guess
        bound = int(node.bounds[position])
        if bound >= budget:
            if position > first:
                break  # sorted by bound: every later guess is refuted too
            continue
        guess = int(node.guesses[position])
        if node.closed[position]:
            found_value = bound
        else:
            key = search.values.partition_key(guess, targets, state)
            if key in seen:
                continue  # splits the targets like a guess before it: the same value
            seen.add(key)
            found_value = search._evaluate(guess, targets, budget, depth, history, state)
        if found_value < budget:
            best = found = found_value * SCALE + position
        best = poller.peek(best)
    subtree = None
    if found is not None:
        guess = int(node.guesses[found % SCALE])
        subtree = [guess]
        for part in search.problem.split(guess, targets):
            part_state = search.values.child_state(state, guess, part)
            subtree += subtree_guesses(search, part, depth - 1, part_state)
    search.flush()
    return found, subtree, search.stats.since(before)
