"""A grpc.aio server on an event loop in a thread of its own, driven synchronously.

Why asyncio: the synchronous grpc.server gives every call a thread of its
pool as the call opens, before its request arrives, so a client could hold
every thread with calls that never send one, and the server answered no one
else (issue #42, point 1). On grpc.aio a call waiting for its request is a
coroutine on the event loop, costing a few KB and no thread; service.server
takes a thread only once the whole request has arrived and the call is
admitted under ``--max-concurrent``.

:class:`LoopServer` has the synchronous methods of grpc.Server that the rest
of the service (and its tests) use: ``add_generic_rpc_handlers``,
``add_insecure_port``/``add_secure_port`` (service.address.add_port),
``start``, ``stop(grace)`` returning a threading.Event set once stopped (safe
to call from a signal handler: it only schedules the stop), and
``wait_for_termination``. Each runs its coroutine on the server's loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

import grpc
import grpc.aio

T = TypeVar("T")


class LoopServer:
    """A grpc.aio server with grpc.Server's synchronous methods; its loop runs on a
    daemon thread from construction until the server has stopped."""

    def __init__(self, options: Sequence[tuple[str, Any]]) -> None:
        """Start the loop and make the server on it with gRPC ``options``."""
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="guesswork-grpc", daemon=True)
        self._thread.start()
        self._stopped = threading.Event()
        self._stopping = False

        async def make() -> Any:
            # No maximum_concurrent_rpcs: a call waiting for its request costs no
            # thread, and the calls at work are bounded by our own admission.
            return grpc.aio.server(options=list(options))

        self.server = self.run(make())

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the server's loop; return its result (from another thread only)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def add_generic_rpc_handlers(self, handlers: Sequence[grpc.GenericRpcHandler]) -> None:
        """Serve ``handlers`` (before :meth:`start`)."""
        self.server.add_generic_rpc_handlers(tuple(handlers))

    def add_insecure_port(self, address: str) -> int:
        """Bind ``address`` without TLS; return the port (gRPC raises RuntimeError if it cannot)."""

        async def add() -> int:
            return int(self.server.add_insecure_port(address))

        return self.run(add())

    def add_secure_port(self, address: str, credentials: grpc.ServerCredentials) -> int:
        """Bind ``address`` with TLS ``credentials``; return the port."""

        async def add() -> int:
            return int(self.server.add_secure_port(address, credentials))

        return self.run(add())

    def start(self) -> None:
        """Start serving on the bound ports."""
        self.run(self.server.start())

    def stop(self, grace: float | None) -> threading.Event:
        """Refuse new calls, give those in flight ``grace`` seconds (None or 0: none),
        then cancel what is left; return an event set once the server has stopped.

        Returns at once (the stop runs on the loop): a signal handler may call it.
        A second call returns the same event.
        """
        if not self._stopping:
            self._stopping = True
            asyncio.run_coroutine_threadsafe(self._stop(grace), self.loop)
        return self._stopped

    async def _stop(self, grace: float | None) -> None:
        try:
            await self.server.stop(grace)
        finally:
            self._stopped.set()
            # Stopped, not closed: a call's thread still finishing posts its result
            # to the loop, which must not raise there.
            self.loop.stop()

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        """Block until the server has stopped (or ``timeout`` s); return whether it has."""
        return self._stopped.wait(timeout)
