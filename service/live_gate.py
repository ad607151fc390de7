"""How many live computations run at once, and dropping those whose call has ended.

Live work (off-tree answers, analyses, honeycomb searches) takes milliseconds
to a fraction of a second of CPU and tens of MB of working arrays; stored
answers take microseconds. :class:`LiveGate` admits at most ``limit`` live
computations at once (``--max-live``, default the number of cores): the rest
wait, holding no working memory, while stored answers never wait at all, so
the server's memory is bounded by the limit and not by the calls in flight,
and a burst of live calls cannot starve the stored ones of CPU. A call waiting
at the gate whose client has gone (deadline passed, cancelled) is dropped
without computing: the server's call handler sets :data:`CALL_ACTIVE` to the
call's ``is_active``; an admitted computation checks it between its steps and
stops once the call has ended (client.interrupt).

Admission is re-entrant within a thread: an analysis that asks for live
answers holds one place, not two (a second would deadlock at a limit of one).

Admitted work runs (:meth:`LiveGate.run`) on the gate's own ``limit`` threads,
each at a lower CPU priority (:data:`LIVE_NICE`, Linux's per-thread nice
value; threads the work starts inherit it), while the call's thread waits:
on a machine whose cores live work keeps busy, the stored answers of other
clients are scheduled first, so their latency stays that of an idle server
(benchmarks/bench_attacks.py).

Expensive live work (a multi-board ranking, a honeycomb search: seconds, where
an off-tree answer takes milliseconds) is run with ``expensive=True``
(:meth:`LiveGate.run`): it passes the gate's expensive lane first, which lets
at most ``limit`` - 1 such computations hold places at once (one at least), so
another client's off-tree answer always finds a place while they run.

The lookup core's live answers come through :class:`GatedLiveSolver`, the
gate as a wrapper: the builder's live solver (builder.live.GreedyLiveSolver,
made on the first live answer), each call of the
:class:`~guesswork.client.live_solver.LiveSolver` protocol run through the
gate by one generic method, a multi-board ranking through the expensive lane
after its cost limit (:data:`~guesswork.client.multiboard.MAX_BOARD_CELLS`:
COST_LIMIT beyond it), checked before any work or waiting.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from ..client.errors import CostLimitError, ServiceUnavailableError
from ..client.interrupt import CALL_ACTIVE as CALL_ACTIVE
from ..client.interrupt import CallEndedError
from ..client.live_solver import LiveSolver
from ..client.multiboard import MAX_BOARD_CELLS
from .builder_import import BUILDER_IMPORT

if TYPE_CHECKING:
    import numpy as np

    from ..builder.live import GreedyLiveSolver
    from ..client.probe import Policy

#: How often a waiting computation looks whether its call is still wanted.
POLL_SECONDS = 0.05
#: The nice value of the threads live work runs on: below stored answers' (0), so
#: a core busy with live work still runs a stored answer first.
LIVE_NICE = 10

T = TypeVar("T")
P = ParamSpec("P")


def _lower_priority(nice: int) -> None:
    """Give the calling thread the nice value ``nice`` (Linux sets it per thread; where
    the system refuses, the thread keeps its priority: only latency is at stake)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)


class LiveGate:
    """At most ``limit`` live computations at once (None: no limit). Thread-safe."""

    def __init__(self, limit: int | None, nice: int = LIVE_NICE) -> None:
        self.limit = limit
        self._places = threading.BoundedSemaphore(limit) if limit else None
        #: Where admitted work runs (one thread per place, so it never queues); none
        #: without a limit: the command line computes on its own thread.
        self._workers = (
            ThreadPoolExecutor(
                limit,
                thread_name_prefix="guesswork-live",
                initializer=_lower_priority,
                initargs=(nice,),
            )
            if limit
            else None
        )
        # The expensive lane: at most limit - 1 of the places (one at least) for
        # expensive work, so that it never holds every place; none without a limit.
        lane = max(1, limit - 1) if limit else None
        self._expensive = threading.BoundedSemaphore(lane) if lane else None
        self._held = threading.local()
        self._count_lock = threading.Lock()
        #: Computations dropped at the gate because their call had ended.
        self.dropped = 0
        #: Computations stopped part-way because their call ended (client.interrupt).
        self.stopped = 0
        #: Computations admitted now, and the most there have been at once.
        self.running = self.busiest = 0

    @contextmanager
    def admitted(self) -> Iterator[None]:
        """Hold a place for one live computation for the block, waiting for one.

        Raises:
            ServiceUnavailableError: the call ended while waiting (nothing computed).
            CallEndedError: the call ended while computing (counted in :attr:`stopped`).
        """
        depth = getattr(self._held, "depth", 0)
        if depth:  # already admitted on this thread: an analysis asking for live answers
            self._held.depth = depth + 1
            try:
                yield
            finally:
                self._held.depth = depth
            return
        if self._places is not None:
            self._wait_for_a_place()
        self._held.depth = 1
        with self._count_lock:
            self.running += 1
            self.busiest = max(self.busiest, self.running)
        try:
            yield
        except CallEndedError:
            with self._count_lock:
                self.stopped += 1
            raise
        finally:
            with self._count_lock:
                self.running -= 1
            self._held.depth = 0
            if self._places is not None:
                self._places.release()

    def run(self, work: Callable[[], T], *, expensive: bool = False) -> T:
        """Return ``work()``, computed admitted (:meth:`admitted`) on one of the gate's
        own threads at lower CPU priority; inline when the gate has no limit or this
        thread is already admitted (an analysis asking for live answers). Work
        marked ``expensive`` first takes a place in the expensive lane (at most
        ``limit`` - 1 of them at once, one at least), held until it is done.

        Raises:
            ServiceUnavailableError: the call ended while waiting (nothing computed).
            CallEndedError: the call ended while computing (as :meth:`admitted`);
                and whatever ``work`` raises.
        """
        lane = self._expensive if expensive else None
        if lane is not None and not self._wait_for(lane):
            raise ServiceUnavailableError(
                "the call ended while waiting for an expensive live answer"
            )
        try:
            depth: int = getattr(self._held, "depth", 0)
            if self._workers is None or depth:
                with self.admitted():
                    return work()
            with self.admitted():
                # The call's context (CALL_ACTIVE: whether its client still waits) goes along.
                context = contextvars.copy_context()
                return self._workers.submit(context.run, self._as_admitted, work).result()
        finally:
            if lane is not None:
                lane.release()

    def _as_admitted(self, work: Callable[[], T]) -> T:
        """Return ``work()`` on a worker thread, marked admitted there (its place is
        held by the calling thread), so that work asking for live answers re-enters."""
        self._held.depth = 1
        try:
            return work()
        finally:
            self._held.depth = 0

    def _wait_for_a_place(self) -> None:
        """Take a place, polling whether the call is still wanted meanwhile.

        Raises:
            ServiceUnavailableError: the call ended while waiting (counted in
                :attr:`dropped`).
        """
        assert self._places is not None
        if not self._wait_for(self._places):
            with self._count_lock:
                self.dropped += 1
            raise ServiceUnavailableError("the call ended while waiting for a live answer")

    @staticmethod
    def _wait_for(places: threading.BoundedSemaphore) -> bool:
        """Take one of ``places``, polling whether the call is still wanted meanwhile;
        return False, holding none, once it is not."""
        active = CALL_ACTIVE.get()
        while not places.acquire(timeout=POLL_SECONDS):
            if active is not None and not active():
                return False
        return True


#: No limit: the command line and embedded use, one caller at a time.
UNLIMITED = LiveGate(None)


def _gated(
    method: Callable[Concatenate[LiveSolver, P], T],
    *,
    expensive: bool = False,
    check: Callable[Concatenate[GreedyLiveSolver, P], None] | None = None,
) -> Callable[Concatenate[GatedLiveSolver, P], T]:
    """Return ``method`` of the LiveSolver protocol as a method of
    :class:`GatedLiveSolver`: the same call of the builder's solver, run through
    its gate (:meth:`LiveGate.run`; ``expensive``: through the expensive lane too),
    ``check`` called first, before any waiting. The one way every call of the
    protocol passes the gate."""
    name = method.__name__

    def call(gated: GatedLiveSolver, /, *args: P.args, **kwargs: P.kwargs) -> T:
        solver = gated.solver()
        if check is not None:
            check(solver, *args, **kwargs)
        work: Callable[P, T] = getattr(solver, name)
        return gated.gate.run(lambda: work(*args, **kwargs), expensive=expensive)

    # Its name and the protocol's docstring (what it returns and raises).
    functools.update_wrapper(call, method, assigned=("__name__", "__doc__"))
    return call


def _within_cost_limit(
    solver: GreedyLiveSolver, policy: Policy, boards: Sequence[np.ndarray], count: int
) -> None:
    """Refuse a multi-board ranking over :data:`~guesswork.client.multiboard.MAX_BOARD_CELLS`
    reply cells (builder.multiboard.joint_cost), before any work or waiting.

    Raises:
        CostLimitError: it would compute more than MAX_BOARD_CELLS reply cells.
    """
    with BUILDER_IMPORT:
        from ..builder.multiboard import joint_cost

    step = solver.board_values(policy)[0]
    to_vocabulary = solver.prepared(policy)[2]
    cost = joint_cost(step, [to_vocabulary[board] for board in boards])
    if cost > MAX_BOARD_CELLS:
        raise CostLimitError(
            f"this position would cost {cost:,} reply cells (guesses x targets left on "
            f"its distinct boards), over the limit of {MAX_BOARD_CELLS:,}: play a "
            "guess on some boards first, or ask a policy of fewer words",
            metadata={"limit": MAX_BOARD_CELLS, "cost": cost, "unit": "reply_cells"},
        )


class GatedLiveSolver:
    """The builder's live solver (builder.live.GreedyLiveSolver) behind a live gate: a
    :class:`~guesswork.client.live_solver.LiveSolver` whose every call runs through
    the gate (:meth:`LiveGate.run`; a multi-board ranking through its expensive lane).
    The solver is imported and made on the first live answer: a stored
    answer never loads the builder or its compiled kernels. Thread-safe."""

    def __init__(self, gate: LiveGate = UNLIMITED) -> None:
        self._solver: GreedyLiveSolver | None = None
        self._lock = threading.Lock()
        #: Admits the live computations (service.live_gate).
        self.gate = gate

    def solver(self) -> GreedyLiveSolver:
        """Return the live solver, making it on first use."""
        with self._lock:
            if self._solver is None:
                with BUILDER_IMPORT:
                    from ..builder.live import GreedyLiveSolver

                self._solver = GreedyLiveSolver()
            return self._solver

    # Each call of the LiveSolver protocol, through the gate: each may also raise the
    # gate's ServiceUnavailableError (the call ended while waiting) and CallEndedError
    # (while computing); rank_boards CostLimitError (over MAX_BOARD_CELLS, refused
    # before any waiting).
    rank = _gated(LiveSolver.rank)
    rank_words = _gated(LiveSolver.rank_words)
    rank_boards = _gated(LiveSolver.rank_boards, expensive=True, check=_within_cost_limit)
