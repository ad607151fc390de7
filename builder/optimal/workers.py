"""Worker processes: each holds its own :class:`Search` and solves root branches.

This local pool runs ``--workers N`` only where Dask is not installed (engine
"processes"); with Dask, :mod:`.cluster` runs the search on a cluster.

Workers are spawned, not forked (a fork copies a parent's threads' locks, the
reply kernels' thread pool and progress bars among them, in whatever state
they are), so everything they run is a module-level function importable by name.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np

from .problem import Problem, SearchOptions
from .search import Search
from .stats import SearchStats
from .subtrees import subtree_guesses
from .symmetry import SymmetryHook

#: This process's search, when it is a worker (set by :func:`init_worker`).
_worker: Search | None = None


def init_worker(problem: Problem, options: SearchOptions, symmetry: SymmetryHook | None) -> None:
    """Give this worker process its own search (the pool's initializer)."""
    global _worker
    _worker = Search(problem, options, symmetry)


def solve_in_worker(
    targets: np.ndarray, budget: int, depth: int, history: tuple[int, ...], state: bytes = b""
) -> tuple[int, list[int] | None, SearchStats]:
    """Solve one root branch (in NYT constraint ``state``) in a worker process.

    Budget contract: as :meth:`Search.solve`; the subtree comes back only when
    the value is below ``budget``. What the branch added to the bound store (if
    any) is written before the call returns.

    Returns:
        (value, the subtree's guesses or None, the stats this call added).

    Raises:
        RuntimeError: the process was not started by :func:`start_pool`.
        BoundStoreError: the bound store cannot be read or written.
    """
    if _worker is None:
        raise RuntimeError("solve_in_worker runs only in a worker started by start_pool")
    before = SearchStats(**vars(_worker.stats))
    value = _worker.solve(targets, budget, depth, history, state)
    guesses = subtree_guesses(_worker, targets, depth, state) if value < budget else None
    _worker.flush()
    return value, guesses, _worker.stats.since(before)


def start_pool(
    problem: Problem, options: SearchOptions, symmetry: SymmetryHook | None
) -> ProcessPoolExecutor:
    """Return a pool of ``options.workers`` spawned processes, each with its own search.

    Returns:
        The pool; the caller shuts it down.
    """
    # spawn, not fork: a forked child inherits its parent's locks as they stand.
    return ProcessPoolExecutor(
        max_workers=options.workers,
        mp_context=get_context("spawn"),
        initializer=init_worker,
        initargs=(problem, options, symmetry),
    )


def default_workers() -> int:
    """Return the number of processes to use by default: every core."""
    return max(os.cpu_count() or 1, 1)


#: The smallest search (targets x guesses) that a local Dask cluster speeds up by
#: default. Measured side by side on 2 cores, every first guess searched (wall):
#: Mastermind 6x4 (1296 x 1296, 1.7 M) 7.8 s in one process against 10.1 s on 2
#: workers (starting the cluster costs more than it saves; with the C search it
#: is 3.6 s in one process); Wordle hard mode 2309 x 12972 (30 M) 20.2 s against
#: 18.5 s with the C search (18.6 s against 16.0 s before); normal mode 2315 x
#: 12972 11 min against 7 min 46 s before the C search, 4 min 6 s in one process
#: with it (its first pass, most of the time, divides over workers).
DASK_MIN_CELLS = 10_000_000


def search_workers(
    every_first_guess: bool, cells: int, dask_installed: bool, cores: int | None = None
) -> int:
    """Return how many workers an exact search uses when none are asked for.

    Every core, on a local Dask cluster, for a search over every first guess of
    at least :data:`DASK_MIN_CELLS` targets x guesses with Dask installed; one
    process otherwise: a fixed opener or a lookahead takes seconds, less than
    starting workers costs, and below the size the cluster's start is not
    repaid (see DASK_MIN_CELLS's measurements).
    """
    if not every_first_guess or not dask_installed or cells < DASK_MIN_CELLS:
        return 1
    return max(cores if cores is not None else default_workers(), 1)
