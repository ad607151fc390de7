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

It also serves ``Health/List``, which the vendored health.proto declares and
grpcio-health-checking leaves unimplemented.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2

from ..client.errors import MalformedRequestError
from .errors import LogLimiter, abort


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


class Health(health.HealthServicer):  # type: ignore[misc]  # grpc_health has no types
    """grpcio's health servicer, with ``List``: every service's status."""

    def status_of(self, service: str) -> int | None:
        """Return the status reported for ``service`` ("" for the server), None if none is."""
        with self._lock:
            status: int | None = self._server_status.get(service)
        return status

    def List(  # noqa: N802 (the protocol's method name)
        self, request: health_pb2.HealthListRequest, context: grpc.ServicerContext
    ) -> health_pb2.HealthListResponse:
        """Return the status of every service the server reports on."""
        with self._lock:
            statuses = dict(self._server_status)
        response = health_pb2.HealthListResponse()
        for service, status in statuses.items():
            response.statuses[service].status = status
        return response


def _decoder(
    full_name: str, deserializer: Callable[[bytes], Any], limiter: LogLimiter
) -> Callable[[bytes, grpc.ServicerContext], Any]:
    """Return a function that decodes one request of ``full_name``, or ends the call."""

    def decode(raw: bytes, context: grpc.ServicerContext) -> Any:
        try:
            return deserializer(raw)
        except Exception:  # whatever the library's decoder raises: the bytes are bad
            error = MalformedRequestError(
                f"the request bytes are not a valid request of {full_name}",
                metadata={"method": full_name},
            )
            abort(context, error, full_name, limiter)

    return decode


def guarded(
    service: str, handlers: Mapping[str, grpc.RpcMethodHandler], limiter: LogLimiter
) -> grpc.GenericRpcHandler:
    """Return ``service``'s handlers as one generic handler that decodes requests itself."""
    wrapped = {
        name: _guarded_handler(f"/{service}/{name}", handler, limiter)
        for name, handler in handlers.items()
    }
    return grpc.method_handlers_generic_handler(service, wrapped)


def _guarded_handler(
    full_name: str, handler: grpc.RpcMethodHandler, limiter: LogLimiter
) -> grpc.RpcMethodHandler:
    """Return ``handler`` taking raw request bytes, decoded by :func:`_decoder`."""
    assert handler.request_deserializer is not None
    decode = _decoder(full_name, handler.request_deserializer, limiter)
    serializer = handler.response_serializer
    if handler.unary_unary is not None:
        unary_unary = handler.unary_unary

        def one_to_one(raw: bytes, context: grpc.ServicerContext) -> Any:
            return unary_unary(decode(raw, context), context)

        return grpc.unary_unary_rpc_method_handler(one_to_one, None, serializer)
    if handler.unary_stream is not None:
        unary_stream = handler.unary_stream

        def one_to_many(raw: bytes, context: grpc.ServicerContext, *callback: Any) -> Any:
            # A non-blocking behaviour also gets gRPC's send-response callback.
            return unary_stream(decode(raw, context), context, *callback)

        # Health/Watch answers without holding a thread (it calls back on changes):
        # keep that, or every open Watch would hold one of the server's threads.
        for attribute in ("experimental_non_blocking", "experimental_thread_pool"):
            if hasattr(unary_stream, attribute):
                setattr(one_to_many, attribute, getattr(unary_stream, attribute))
        return grpc.unary_stream_rpc_method_handler(one_to_many, None, serializer)
    if handler.stream_stream is not None:
        stream_stream = handler.stream_stream

        def many_to_many(requests: Iterator[bytes], context: grpc.ServicerContext) -> Any:
            return stream_stream((decode(raw, context) for raw in requests), context)

        return grpc.stream_stream_rpc_method_handler(many_to_many, None, serializer)
    raise TypeError(f"{full_name}: a client-streaming handler is not guarded here")
