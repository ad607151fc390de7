"""Health checking and server reflection behind the same request guard as our service.

gRPC decodes a request with the handler's deserializer before any code of
ours runs; bytes that do not decode end the call INTERNAL ("Exception
deserializing request!") and write a traceback per call, outside our log
limiter. Our own service takes raw bytes and decodes them itself
(service.server); this module does the same for the services we add from
libraries (grpc.health.v1, grpc.reflection.v1alpha and v1): their handlers
are collected as the generated ``add_*_to_server`` functions register them
(:class:`HandlerRecorder`), then served through :func:`guarded`, which
decodes each request and refuses bytes that do not decode with
INVALID_ARGUMENT, reason MALFORMED_REQUEST, one INFO line through the
limiter, no traceback.

The server is a grpc.aio server (service.server), so every handler here is a
coroutine on its event loop: a health check, a reflection request and an open
Watch hold no thread. :class:`Health` is the health service written for it,
with a status set from any thread (:meth:`Health.set`), read by the HTTP
adapter (:meth:`Health.status_of`), and ``Health/List``, which the vendored
health.proto declares and grpcio-health-checking leaves unimplemented.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ..client.errors import MalformedRequestError
from .errors import LogLimiter, abort_async

_SERVING = health_pb2.HealthCheckResponse.SERVING
_UNKNOWN = health_pb2.HealthCheckResponse.SERVICE_UNKNOWN


class HandlerRecorder:
    """Stands in for a grpc.Server to collect the method handlers that a generated
    ``add_*_to_server`` (or a library's ``enable_*``) registers."""

    def __init__(self) -> None:
        #: service name -> method name -> handler.
        self.services: dict[str, dict[str, grpc.RpcMethodHandler]] = {}

    def add_generic_rpc_handlers(self, handlers: Sequence[Any]) -> None:
        """Ignore the generic form: every generated function also registers by name."""

    def add_registered_method_handlers(
        self, service: str, handlers: Mapping[str, grpc.RpcMethodHandler]
    ) -> None:
        """Keep ``service``'s handlers by method name."""
        self.services.setdefault(service, {}).update(handlers)


class Health(health_pb2_grpc.HealthServicer):  # type: ignore[misc]  # grpc_health has no types
    """The health service for the grpc.aio server: Check, Watch and List.

    Statuses are set from any thread (:meth:`set`); each open Watch waits on the
    event loop for a change, holding no thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: service ("" for the server) -> status.
        self._server_status: dict[str, int] = {"": _SERVING}
        #: Each open Watch's loop and the event that wakes it.
        self._watchers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def set(self, service: str, status: int) -> None:
        """Report ``status`` for ``service`` ("" for the server); wakes every Watch.

        Callable from any thread, a signal handler's included.
        """
        with self._lock:
            self._server_status[service] = status
            watchers = list(self._watchers)
        for loop, event in watchers:
            # A loop already stopped with its server has no watcher left to wake.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)

    def status_of(self, service: str) -> int | None:
        """Return the status reported for ``service`` ("" for the server), None if none is."""
        with self._lock:
            return self._server_status.get(service)

    async def Check(  # noqa: N802 (the protocol's method names)
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> health_pb2.HealthCheckResponse:
        """Return ``request.service``'s status; NOT_FOUND for a service not reported on."""
        status = self.status_of(request.service)
        if status is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, "unknown service")
        return health_pb2.HealthCheckResponse(status=status)

    async def Watch(  # noqa: N802
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[health_pb2.HealthCheckResponse]:
        """Yield ``request.service``'s status now and at every change, until the call ends
        (SERVICE_UNKNOWN while it is not reported on)."""
        event = asyncio.Event()
        watcher = (asyncio.get_running_loop(), event)
        with self._lock:
            self._watchers.add(watcher)
        try:
            last: int | None = None
            while True:
                event.clear()  # before reading: a change after the read wakes us
                status = self.status_of(request.service)
                status = _UNKNOWN if status is None else status
                if status != last:
                    yield health_pb2.HealthCheckResponse(status=status)
                    last = status
                await event.wait()
        finally:
            with self._lock:
                self._watchers.discard(watcher)

    def statuses(self) -> health_pb2.HealthListResponse:
        """Return the status of every service the server reports on (List's answer; the
        HTTP adapter calls it from its own event loop)."""
        with self._lock:
            statuses = dict(self._server_status)
        response = health_pb2.HealthListResponse()
        for service, status in statuses.items():
            response.statuses[service].status = status
        return response

    async def List(  # noqa: N802
        self, request: health_pb2.HealthListRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> health_pb2.HealthListResponse:
        """Return the status of every service the server reports on (:meth:`statuses`)."""
        return self.statuses()


Decoder = Callable[[bytes, Any], Awaitable[Any]]


def _decoder(full_name: str, deserializer: Callable[[bytes], Any], limiter: LogLimiter) -> Decoder:
    """Return a coroutine function that decodes one request of ``full_name``, or ends
    the call (INVALID_ARGUMENT, MALFORMED_REQUEST)."""

    async def decode(raw: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        try:
            return deserializer(raw)
        except Exception:  # whatever the library's decoder raises: the bytes are bad
            error = MalformedRequestError(
                f"the request bytes are not a valid request of {full_name}",
                metadata={"method": full_name},
            )
            await abort_async(context, error, full_name, limiter)

    return decode


def guarded(
    service: str, handlers: Mapping[str, grpc.RpcMethodHandler], limiter: LogLimiter
) -> grpc.GenericRpcHandler:
    """Return ``service``'s handlers (coroutines, for grpc.aio) as one generic handler
    that decodes requests itself."""
    wrapped = {
        name: _guarded_handler(f"/{service}/{name}", handler, limiter)
        for name, handler in handlers.items()
    }
    return grpc.method_handlers_generic_handler(service, wrapped)


def _guarded_handler(
    full_name: str, handler: grpc.RpcMethodHandler, limiter: LogLimiter
) -> grpc.RpcMethodHandler:
    """Return ``handler`` (a coroutine function, or an async generator function for a
    stream of responses) taking raw request bytes, decoded by :func:`_decoder`."""
    assert handler.request_deserializer is not None
    decode = _decoder(full_name, handler.request_deserializer, limiter)
    serializer = handler.response_serializer
    if handler.unary_unary is not None:
        unary_unary = handler.unary_unary

        async def one_to_one(raw: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            return await unary_unary(await decode(raw, context), context)

        return grpc.unary_unary_rpc_method_handler(one_to_one, None, serializer)
    if handler.unary_stream is not None:
        unary_stream = handler.unary_stream

        async def one_to_many(
            raw: bytes, context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            async for response in unary_stream(await decode(raw, context), context):
                yield response

        return grpc.unary_stream_rpc_method_handler(one_to_many, None, serializer)
    if handler.stream_stream is not None:
        stream_stream = handler.stream_stream

        async def many_to_many(
            requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            async def decoded() -> AsyncIterator[Any]:
                async for raw in requests:
                    yield await decode(raw, context)

            async for response in stream_stream(decoded(), context):
                yield response

        return grpc.stream_stream_rpc_method_handler(many_to_many, None, serializer)
    raise TypeError(f"{full_name}: a client-streaming handler is not guarded here")
