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
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from ..client.errors import ServiceUnavailableError
from ..client.interrupt import CALL_ACTIVE as CALL_ACTIVE
from ..client.interrupt import CallEndedError

#: How often a waiting computation looks whether its call is still wanted.
POLL_SECONDS = 0.05
#: The nice value of the threads live work runs on: below stored answers' (0), so
#: a core busy with live work still runs a stored answer first.
LIVE_NICE = 10

T = TypeVar("T")


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

    def run(self, work: Callable[[], T]) -> T:
        """Return ``work()``, computed admitted (:meth:`admitted`) on one of the gate's
        own threads at lower CPU priority; inline when the gate has no limit or this
        thread is already admitted (an analysis asking for live answers).

        Raises:
            ServiceUnavailableError, CallEndedError: as :meth:`admitted`; and whatever
                ``work`` raises.
        """
        depth: int = getattr(self._held, "depth", 0)
        if self._workers is None or depth:
            with self.admitted():
                return work()
        with self.admitted():
            # The call's context (CALL_ACTIVE: whether its client still waits) goes along.
            context = contextvars.copy_context()
            return self._workers.submit(context.run, self._as_admitted, work).result()

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
            ServiceUnavailableError: the call ended while waiting.
        """
        assert self._places is not None
        active = CALL_ACTIVE.get()
        while not self._places.acquire(timeout=POLL_SECONDS):
            if active is not None and not active():
                with self._count_lock:
                    self.dropped += 1
                raise ServiceUnavailableError("the call ended while waiting for a live answer")


#: No limit: the command line and embedded use, one caller at a time.
UNLIMITED = LiveGate(None)
