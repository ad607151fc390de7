"""The HTTP/JSON adapter: guesswork.v1.Guesswork for browsers, curl and Connect clients.

``guesswork-serve --http HOST:PORT`` serves, beside the gRPC address:

* ``POST /guesswork.v1.Guesswork/METHOD`` with the request message's protobuf
  JSON mapping as the body (``Content-Type: application/json``), answered
  with the response message's JSON mapping: the unary form of the Connect
  protocol (connectrpc.com/docs/protocol), so Connect clients work unchanged
  and ``curl -d`` works. Binary protobuf (``application/proto``) is served as
  well, answered in kind, and a request body may be gzip-compressed
  (``Content-Encoding: gzip``, inflated to at most 4 MiB), as Connect clients
  send them. Every method has no side effects
  (``idempotency_level`` in the proto), so each is also ``GET
  /guesswork.v1.Guesswork/METHOD?encoding=json&message=URL-ENCODED-JSON``
  (``&base64=1`` for base64url; ``connect=v1`` allowed): a suggestion can be
  a link.
* ``POST /grpc.health.v1.Health/Check`` (and GET): the server's health, as
  the gRPC health service reports it.
* ``GET /``: the page (service.page).

Each call runs the same pipeline as a gRPC call (service.calls: the
concurrency limit, the request size limit on the decoded message, enum
checks, the response cache) and its errors are the same classes with the
same reasons, sent as Connect's JSON error: ``{"code": ..., "message": ...,
"details": [{"type": "google.rpc.ErrorInfo", "value": BASE64, "debug":
{...}}]}`` with Connect's HTTP status for the code (not_found 404,
invalid_argument 400, resource_exhausted 429, failed_precondition 400,
unavailable 503, ...). What only HTTP can get wrong is refused the same way:
a body that is not UTF-8 JSON of the request message (unknown fields
included: a typo is never silently ignored) is MALFORMED_REQUEST; a body
over the transport limit, REQUEST_TOO_LARGE before it is read; a body that
does not arrive within :data:`BODY_SECONDS`, BAD_REQUEST. An unknown path is
404, another HTTP method 405, another content type 415.

The HTTP server is uvicorn (h11) on its own event loop thread; calls run on
a thread pool of ``--max-concurrent`` threads, and one whose client goes away
(or whose ``Connect-Timeout-Ms`` passes) stops waiting for live work
(service.live_gate), as a cancelled gRPC call does. Why not the Connect
project's Python runtime (connectrpc): it brings a second protobuf runtime
(protobuf-py) and a code generator of its own, for the one unary JSON form
this adapter needs beside a core that already answers every call.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import html
import json
import logging
import socket
import threading
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent import futures
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2

from ..client import messages
from ..client.errors import (
    BadRequestError,
    MalformedRequestError,
    PolicyNotFoundError,
    RequestTooLargeError,
    ServiceUnavailableError,
)
from ..client.plots import PlotError, analysis_svg
from ..client.policy_choice import todays_choice
from ..client.text import shown
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from .calls import SERVICE_NAME, RpcMethod, parse_request
from .connect_codec import json_message, json_text, query_message
from .errors import DOMAIN, describe
from .guarded import Health
from .servicer import GuessworkServicer

log = logging.getLogger("guesswork.service")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

#: Seconds a request body may take to arrive, all of it.
BODY_SECONDS = 30.0
#: The largest JSON body read, in bytes: gRPC's transport limit.
BODY_LIMIT = 4 << 20
#: The largest request line and headers, in bytes (h11's buffer): a GET message is
#: bounded by it; a longer one is refused with 400 and the connection closed.
HEAD_LIMIT = 64 * 1024
#: The HTTP status of each Connect code (connectrpc.com/docs/protocol#error-codes).
HTTP_STATUS = {
    "canceled": 499,
    "unknown": 500,
    "invalid_argument": 400,
    "deadline_exceeded": 504,
    "not_found": 404,
    "already_exists": 409,
    "permission_denied": 403,
    "resource_exhausted": 429,
    "failed_precondition": 400,
    "aborted": 409,
    "out_of_range": 400,
    "unimplemented": 501,
    "internal": 500,
    "unavailable": 503,
    "data_loss": 500,
    "unauthenticated": 401,
}
HEALTH_SERVICE = "grpc.health.v1.Health"
#: The codecs served, by Content-Type: Connect's JSON and binary protobuf.
CODECS = {"application/json": "json", "application/proto": "proto"}
#: GET with ``?message=`` an AnalyzeGameRequest's JSON: the analysis picture, as SVG.
PICTURE_PATH = "/picture/analysis.svg"
_PICTURE_LOCK = threading.Lock()
_JSON = [(b"content-type", b"application/json")]


class _HttpRefusalError(Exception):
    """An HTTP-level refusal: a status, a Connect code and a message, no ErrorInfo."""

    def __init__(
        self, status: int, code: str, message: str, allow: str = "", close: bool = False
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.allow, self.close = status, code, allow, close


def connect_code(code: grpc.StatusCode) -> str:
    """Return the Connect code of a gRPC status code (the same names, lower case)."""
    return str(code.name).lower()


def error_body(
    code: str, message: str, reason: str = "", metadata: dict[str, str] | None = None
) -> bytes:
    """Return Connect's JSON error: ``code``, ``message``, and an ErrorInfo detail with
    ``reason`` and ``metadata`` when there is a reason."""
    body: dict[str, Any] = {"code": code, "message": message}
    if reason:
        info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=metadata)
        value = base64.b64encode(info.SerializeToString()).decode().rstrip("=")
        debug = {"reason": reason, "domain": DOMAIN, "metadata": dict(metadata or {})}
        body["details"] = [{"type": "google.rpc.ErrorInfo", "value": value, "debug": debug}]
    return json.dumps(body).encode()


class WebApp:
    """The ASGI application: Connect unary JSON calls, health and the page."""

    def __init__(
        self,
        servicer: GuessworkServicer,
        health: Health,
        page: Callable[[str], tuple[bytes, str] | None],
    ) -> None:
        self.servicer = servicer
        self.health = health
        self.page = page
        methods = pb.DESCRIPTOR.services_by_name["Guesswork"].methods
        self.methods = {method.name: RpcMethod(servicer, method) for method in methods}
        #: Calls at work; admitted first (RpcMethod.admit), so it never queues.
        self.pool = futures.ThreadPoolExecutor(
            max_workers=servicer.options.max_concurrent, thread_name_prefix="guesswork-http"
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one ASGI event (lifespan events are acknowledged; only HTTP is served)."""
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        try:
            status, body, content_type = await self._route(scope, receive)
            headers = [(b"content-type", content_type.encode())]
        except _HttpRefusalError as refusal:
            status, body = refusal.status, error_body(refusal.code, str(refusal))
            headers = list(_JSON) + ([(b"allow", refusal.allow.encode())] if refusal.allow else [])
            if refusal.close:
                headers.append((b"connection", b"close"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _route(self, scope: Scope, receive: Receive) -> tuple[int, bytes, str]:
        path, verb = scope["path"], scope["method"]
        names = {name.lower() for name, _ in scope["headers"]}
        if b"content-length" in names and b"transfer-encoding" in names:
            # RFC 9112 6.1: such a request is how requests are smuggled past proxies;
            # it is refused, and the connection closed whatever the answer.
            raise _HttpRefusalError(
                400,
                "invalid_argument",
                "a request with both Content-Length and Transfer-Encoding is refused",
                close=True,
            )
        if _head_size(scope) > HEAD_LIMIT:
            # h11 bounds a head that arrives in pieces (HEAD_LIMIT); one that arrives
            # whole is parsed at any size, so the limit is checked here too.
            raise _HttpRefusalError(
                400,
                "invalid_argument",
                f"the request line and headers are over {HEAD_LIMIT // 1024} KiB",
                close=True,
            )
        service, _, name = path.lstrip("/").partition("/")
        if service == SERVICE_NAME and name in self.methods:
            return await self._call(self.methods[name], scope, receive)
        if service == HEALTH_SERVICE and name == "Check":
            return await self._health(scope, receive)
        if path == PICTURE_PATH and verb == "GET":
            return await self._picture(scope, receive)
        if verb in ("GET", "HEAD"):
            found = self.page(path)
            if found is not None:
                body, kind = found
                if kind.startswith("text/html"):
                    body = self._with_defaults(body)
                return 200, body, kind
        raise _HttpRefusalError(404, "not_found", f"no such path: {shown(path)}")

    def _with_defaults(self, page: bytes) -> bytes:
        """Return the page with today's policies (client.policy_choice) filled in: the
        one it opens with, and the one its hard-mode box picks: the server's day's
        calendar policy where one is built, else today's lists' ("" before the
        catalog is loaded, or where the catalog has none; the page then takes
        the first)."""
        names = {"__DEFAULT_POLICY__": "", "__DEFAULT_HARD_POLICY__": ""}
        with contextlib.suppress(ServiceUnavailableError):
            policies = self.servicer.answers.policies("")
            for placeholder, hard in zip(names, (False, True), strict=True):
                with contextlib.suppress(PolicyNotFoundError):
                    names[placeholder] = todays_choice(policies, hard).name
        for placeholder, name in names.items():
            page = page.replace(placeholder.encode(), html.escape(name).encode())
        return page

    async def _message(
        self, scope: Scope, receive: Receive, request_type: type[Message], allow_get: bool = True
    ) -> tuple[Message, str]:
        """Return the request message of a Connect unary call (POST body or GET query)
        and its codec, "json" or "proto" (the answer is sent in the same).

        Raises:
            _HttpRefusalError: the method, content type, compression or protocol
                version is not one served.
            GuessworkError: the message is too large or malformed.
        """
        headers = {key.decode("latin-1").lower(): value for key, value in scope["headers"]}
        version = headers.get("connect-protocol-version")
        if version is not None and version != b"1":
            raise _HttpRefusalError(400, "invalid_argument", "Connect-Protocol-Version must be 1")
        if scope["method"] == "GET" and allow_get:
            data, codec = query_message(scope.get("query_string", b""), BODY_LIMIT)
        elif scope["method"] == "POST":
            content_type = headers.get("content-type", b"").split(b";")[0].strip().lower()
            codec = CODECS.get(content_type.decode("latin-1"), "")
            if not codec:
                raise _HttpRefusalError(
                    415,
                    "unimplemented",
                    "send the request as JSON (Content-Type: application/json) or binary "
                    "protobuf (application/proto)",
                )
            length = headers.get("content-length")
            if length is not None and length.isdigit() and int(length) > BODY_LIMIT:
                raise RequestTooLargeError(
                    f"request of {int(length)} bytes exceeds {BODY_LIMIT}",
                    metadata={"limit": str(BODY_LIMIT), "value": length.decode()},
                )
            data = _decompressed(await _read_body(receive), headers.get("content-encoding"))
        else:
            raise _HttpRefusalError(
                405,
                "unimplemented",
                f"{shown(scope['method'])} is not served: use POST or GET",
                "GET, POST",
            )
        limit = self.servicer.options.max_request_bytes
        if codec == "proto":
            name = f"/{request_type.DESCRIPTOR.full_name}"
            return parse_request(request_type, data, name, limit), codec
        return json_message(json_text(data), request_type, limit), codec

    async def _call(
        self, method: RpcMethod, scope: Scope, receive: Receive
    ) -> tuple[int, bytes, str]:
        """Run one call of ``method`` through the shared pipeline; return the HTTP answer.

        The body is read before the call takes a place under --max-concurrent: a
        client that sends headers and never finishes its body holds a connection
        (until BODY_SECONDS), never a place other calls, gRPC's too, need.
        """
        try:
            request, codec = await self._message(
                scope, receive, method.request_type, method.no_side_effects
            )
        except _HttpRefusalError:
            raise
        except Exception as error:
            return _error_answer(error, method.name, self.servicer)
        try:
            method.admit()
        except Exception as error:
            return _error_answer(error, method.name, self.servicer)
        gone = threading.Event()
        watcher: asyncio.Task[None] | None = None
        try:
            watcher = asyncio.ensure_future(_watch_disconnect(receive, gone))
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(
                self.pool, method.answer, request, lambda: not gone.is_set()
            )
            timeout = _timeout(scope)
            try:
                raw = await asyncio.wait_for(asyncio.shield(work), timeout)
            except TimeoutError:
                gone.set()  # live work waiting at the gate stops; the thread finishes alone
                # Its ending (CallEndedError, most often) is nobody's to report: read it,
                # or asyncio logs each one with a traceback ("never retrieved").
                work.add_done_callback(_forget)
                raise _HttpRefusalError(
                    504, "deadline_exceeded", "the call's Connect-Timeout-Ms passed"
                ) from None
            if codec == "proto":
                return 200, raw, "application/proto"
            response = method.response_type.FromString(raw)
            body = json_format.MessageToJson(response, indent=None).encode()
            return 200, body, "application/json"
        except _HttpRefusalError:
            raise
        except Exception as error:
            method.name_policy(error, request, b"")
            return _error_answer(error, method.name, self.servicer)
        finally:
            if watcher is not None:
                watcher.cancel()
            method.release()

    async def _picture(self, scope: Scope, receive: Receive) -> tuple[int, bytes, str]:
        """Answer GET PICTURE_PATH?message=ANALYZE-GAME-REQUEST-JSON with the analysis
        picture ``guesswork analyze --plot`` draws (client.plots), as SVG."""
        method = self.methods["AnalyzeGame"]
        try:
            method.admit()
        except Exception as error:
            return _error_answer(error, method.name, self.servicer)
        try:
            request, _ = await self._message(scope, receive, method.request_type)
            assert isinstance(request, pb.AnalyzeGameRequest)
            loop = asyncio.get_running_loop()
            picture = await loop.run_in_executor(self.pool, self._draw, request)
            return 200, picture, "image/svg+xml"
        except PlotError as error:
            raise _HttpRefusalError(501, "unimplemented", str(error)) from None
        except _HttpRefusalError:
            raise
        except Exception as error:
            return _error_answer(error, method.name, self.servicer)
        finally:
            method.release()

    def _draw(self, request: pb.AnalyzeGameRequest) -> bytes:
        """Return the SVG analysis picture of ``request`` (matplotlib's pyplot is not
        thread-safe: one picture at a time)."""
        history = messages.history(request.history)
        analysis = self.servicer.answers.analyze(request.policy, history, request.answer)
        with _PICTURE_LOCK:
            return analysis_svg(analysis)

    async def _health(self, scope: Scope, receive: Receive) -> tuple[int, bytes, str]:
        request, codec = await self._message(scope, receive, health_pb2.HealthCheckRequest)
        assert isinstance(request, health_pb2.HealthCheckRequest)
        status = self.health.status_of(request.service)
        if status is None:
            raise _HttpRefusalError(404, "not_found", f"no service {shown(request.service)}")
        response = health_pb2.HealthCheckResponse(status=status)
        if codec == "proto":
            return 200, response.SerializeToString(), "application/proto"
        return 200, json_format.MessageToJson(response, indent=None).encode(), "application/json"


def _error_answer(
    error: BaseException, method: str, servicer: GuessworkServicer
) -> tuple[int, bytes, str]:
    """Return the HTTP answer of an error of the pipeline (logged as gRPC's are)."""
    code, reason, message, metadata = describe(error, method, servicer.log_limiter)
    name = connect_code(code)
    return HTTP_STATUS[name], error_body(name, message, reason, metadata), "application/json"


async def _read_body(receive: Receive) -> bytes:
    """Return the request body, read within BODY_SECONDS and BODY_LIMIT bytes.

    Raises:
        RequestTooLargeError, BadRequestError, MalformedRequestError.
    """

    async def read() -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise BadRequestError("the client went away before sending its request")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > BODY_LIMIT:
                raise RequestTooLargeError(
                    f"request of more than {BODY_LIMIT} bytes",
                    metadata={"limit": str(BODY_LIMIT)},
                )
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    try:
        return await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise BadRequestError(
            f"the request body did not arrive within {BODY_SECONDS:g} s",
            metadata={"field": "body"},
        ) from None


def _decompressed(data: bytes, encoding: bytes | None) -> bytes:
    """Return ``data`` decompressed by its Content-Encoding (gzip, or none), at most
    BODY_LIMIT bytes however well it compresses.

    Raises:
        _HttpRefusalError: another compression.
        MalformedRequestError: not gzip after all.
        RequestTooLargeError: over BODY_LIMIT decompressed.
    """
    name = (encoding or b"identity").strip().lower()
    if name == b"identity":
        return data
    if name != b"gzip":
        raise _HttpRefusalError(501, "unimplemented", "request compression: gzip or identity only")
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        plain = inflater.decompress(data, BODY_LIMIT + 1)
    except zlib.error:
        raise MalformedRequestError(
            "the body is not gzip data (Content-Encoding: gzip)", metadata={"field": "body"}
        ) from None
    if len(plain) > BODY_LIMIT or inflater.unconsumed_tail:
        raise RequestTooLargeError(
            f"request of more than {BODY_LIMIT} bytes, decompressed",
            metadata={"limit": str(BODY_LIMIT)},
        )
    if not inflater.eof or inflater.unused_data:
        # A stream cut before its trailer (its checksum unchecked), or bytes after it.
        raise MalformedRequestError(
            "the body is not one whole gzip stream (Content-Encoding: gzip)",
            metadata={"field": "body"},
        )
    return plain


def _head_size(scope: Scope) -> int:
    """Return about how many bytes the request line and headers took on the wire."""
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string", b"")) + 16
    return line + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


def _forget(done: asyncio.Future[bytes]) -> None:
    """Read the outcome of work whose call has already been answered (see _call)."""
    if not done.cancelled():
        done.exception()


async def _watch_disconnect(receive: Receive, gone: threading.Event) -> None:
    """Set ``gone`` when the client disconnects (the body has been read by then)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            gone.set()
            return


def _timeout(scope: Scope) -> float | None:
    for key, value in scope["headers"]:
        if key.lower() == b"connect-timeout-ms" and value.isdigit() and len(value) <= 10:
            return int(value) / 1000
    return None


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


class WebServer:
    """uvicorn serving a :class:`WebApp` on a socket bound here, on a thread of its own."""

    def __init__(self, app: WebApp, address: str, reuse_port: bool, grace: float) -> None:
        import uvicorn

        host, _, port = address.rpartition(":")
        host = host.strip("[]")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY on accepted connections only for
        # such sockets, and without it Nagle holds each response's body ~40 ms.
        self.socket = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self.socket.bind((host, int(port)))
        self.socket.listen(2048)
        self.port: int = self.socket.getsockname()[1]
        config = uvicorn.Config(
            app,
            log_config=None,
            access_log=False,
            lifespan="on",
            timeout_keep_alive=30,
            timeout_graceful_shutdown=max(1, round(grace)),
            server_header=False,
            h11_max_incomplete_event_size=HEAD_LIMIT,
            # No WebSockets are served: an Upgrade request is an ordinary HTTP request
            # (a page or a 404), where a WebSocket scope the app does not take was a 500.
            ws="none",
        )
        # uvicorn's own start and stop lines would repeat ours (service.cli).
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
        self.server = uvicorn.Server(config)
        self.app = app
        self.thread = threading.Thread(
            target=self.server.run,
            kwargs={"sockets": [self.socket]},
            name="guesswork-http",
            daemon=True,
        )

    def start(self) -> None:
        """Serve on the thread; returns at once."""
        self.thread.start()

    def stop(self, grace: float) -> None:
        """Stop accepting, let calls in flight finish within ``grace`` s, then stop."""
        self.server.should_exit = True
        self.thread.join(grace + 2)
        self.app.pool.shutdown(wait=False, cancel_futures=True)
