"""The HTTP edge's guards and limits (service.web): what a request may be before it is
routed, how its body is read, and how waiting on it ends.

:class:`EdgeGuard` (an ASGI middleware, outermost) refuses what no route should
see: a request with both Content-Length and Transfer-Encoding, a request line
and headers over :data:`HEAD_LIMIT`; and it applies the Connect protocol's
rule that a client which compressed its request and named no Accept-Encoding
accepts a response compressed the same way. :func:`read_body` reads a body
within :data:`BODY_LIMIT` bytes and :data:`BODY_SECONDS`; :func:`race` waits
for a call's work, its Connect-Timeout-Ms or the server's stop, whichever
comes first.
"""

from __future__ import annotations

import asyncio
import threading
import urllib.parse
from collections.abc import Awaitable
from typing import Any, TypeVar

from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from ..client.errors import BadRequestError, RequestTooLargeError, ServiceUnavailableError
from .connect_codec import ConnectRefusalError
from .web_answers import refusal_response

T = TypeVar("T")

#: Seconds a request body may take to arrive, all of it.
BODY_SECONDS = 30.0
#: The largest body read, in bytes (compressed or not): gRPC's transport limit.
BODY_LIMIT = 4 << 20
#: The largest request line and headers, in bytes (h11's buffer): a GET message is
#: bounded by it; a longer one is refused with 400 and the connection closed.
HEAD_LIMIT = 64 * 1024


class StoppingError(ServiceUnavailableError):
    """The server stopped (its grace over) before the call was answered: UNAVAILABLE,
    as a call that can be retried elsewhere."""


class EdgeGuard:
    """The outermost ASGI middleware: refuses a request no route should see, and
    fills in the Accept-Encoding a Connect client implied."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a refused request here; pass any other on to the app."""
        if scope["type"] == "http":
            try:
                _check_head(scope)
            except ConnectRefusalError as refusal:
                await refusal_response(refusal)(scope, receive, send)
                return
            _imply_accept_encoding(scope)
        await self.app(scope, receive, send)


def _check_head(scope: Scope) -> None:
    """Refuse a request line and headers that no route should see.

    Raises:
        ConnectRefusalError: 400, the connection to be closed.
    """
    names = {name.lower() for name, _ in scope["headers"]}
    if b"content-length" in names and b"transfer-encoding" in names:
        # RFC 9112 6.1: such a request is how requests are smuggled past proxies;
        # it is refused, and the connection closed whatever the answer.
        raise ConnectRefusalError(
            400,
            "invalid_argument",
            "a request with both Content-Length and Transfer-Encoding is refused",
            close=True,
        )
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string", b"")) + 16
    size = line + sum(len(name) + len(value) + 4 for name, value in scope["headers"])
    if size > HEAD_LIMIT:
        # h11 bounds a head that arrives in pieces (HEAD_LIMIT); one that arrives
        # whole is parsed at any size, so the limit is checked here too.
        raise ConnectRefusalError(
            400,
            "invalid_argument",
            f"the request line and headers are over {HEAD_LIMIT // 1024} KiB",
            close=True,
        )


def _imply_accept_encoding(scope: Scope) -> None:
    """Add ``Accept-Encoding: gzip`` to a request that sent gzip (its body, or a GET's
    ``compression``) and named no Accept-Encoding: the Connect protocol says such a
    client accepts the compression it used (the response compression, GZipMiddleware,
    reads only Accept-Encoding)."""
    headers = scope["headers"]
    if any(name.lower() == b"accept-encoding" for name, _ in headers):
        return
    used = b""
    for name, value in headers:
        if name.lower() == b"content-encoding":
            used = value.strip().lower()
    if scope["method"] == "GET":
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        used = query.get("compression", [""])[0].encode("latin-1").lower()
    if used == b"gzip":
        scope["headers"] = [*headers, (b"accept-encoding", b"gzip")]


async def race(work: Awaitable[T], timeout: float | None, stopped: asyncio.Future[None]) -> T:
    """Return what ``work`` returns, waiting at most ``timeout`` s and until ``stopped``
    is done (one future all calls share: no task per call); ``work`` is left running
    when either comes first (the caller decides).

    Raises:
        TimeoutError: ``timeout`` passed first.
        StoppingError: ``stopped`` was done first.
    """
    task = asyncio.ensure_future(work)
    waited: set[asyncio.Future[Any]] = {task, stopped}
    done, _ = await asyncio.wait(waited, timeout=timeout, return_when="FIRST_COMPLETED")
    if task in done:
        return task.result()
    if stopped in done:
        raise StoppingError("the server stopped before the call was answered; retry")
    raise TimeoutError


async def read_body(request: Request, stopped: asyncio.Future[None]) -> bytes:
    """Return the request body, read within BODY_SECONDS and BODY_LIMIT bytes; a body
    still arriving when the server stops is given up (StoppingError).

    Raises:
        RequestTooLargeError, BadRequestError, StoppingError.
    """
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > BODY_LIMIT:
        raise RequestTooLargeError(
            f"request of {int(length)} bytes exceeds {BODY_LIMIT}",
            metadata={"limit": str(BODY_LIMIT), "value": length},
        )

    async def read() -> bytes:
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > BODY_LIMIT:
                raise RequestTooLargeError(
                    f"request of more than {BODY_LIMIT} bytes",
                    metadata={"limit": str(BODY_LIMIT)},
                )
            chunks.append(chunk)
        return b"".join(chunks)

    reading = asyncio.ensure_future(read())
    try:
        return await race(reading, BODY_SECONDS, stopped)
    except TimeoutError:
        raise BadRequestError(
            f"the request body did not arrive within {BODY_SECONDS:g} s",
            metadata={"field": "body"},
        ) from None
    except ClientDisconnect:
        raise BadRequestError("the client went away before sending its request") from None
    finally:
        reading.cancel()  # nothing once done; a body given up stops being read


async def watch_disconnect(receive: Receive, gone: threading.Event) -> None:
    """Set ``gone`` when the client disconnects (the body has been read by then)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            gone.set()
            return
