"""The HTTP/JSON adapter: guesswork.v1.Guesswork for browsers, curl and Connect clients.

``guesswork-serve --http HOST:PORT`` serves, beside the gRPC address:

* ``POST /guesswork.v1.Guesswork/METHOD`` with the request message's protobuf
  JSON mapping as the body (``Content-Type: application/json``), answered
  with the response message's JSON mapping: the unary form of the Connect
  protocol (connectrpc.com/docs/protocol), so Connect clients work unchanged
  and ``curl -d`` works. Binary protobuf (``application/proto``) is served as
  well, answered in kind; a request may be gzip-compressed
  (``Content-Encoding: gzip``, inflated to at most 4 MiB), and an answer over
  :data:`GZIP_MINIMUM` bytes is, for a client that accepts gzip
  (``Accept-Encoding``). Every method has no side effects
  (``idempotency_level`` in the proto), so each is also ``GET
  /guesswork.v1.Guesswork/METHOD?encoding=json&message=URL-ENCODED-JSON``
  (``&base64=1`` for base64url, ``&compression=gzip`` for gzip under it,
  ``connect=v1`` allowed): a suggestion can be a link.
* ``POST /grpc.health.v1.Health/Check`` and ``List`` (and GET): the server's
  health, as the gRPC health service reports it.
* ``GET /``: the page (service.page); ``GET /picture/analysis.svg``: a game's
  analysis picture.

The HTTP edge is Starlette on uvicorn (h11): it owns connections, parsing,
routing, request and response objects, response compression and the
lifecycle. Ours are the Connect codec (service.connect_codec), the guards and
limits (service.web_body) and the answers (service.web_answers). Each call
runs the same pipeline as a gRPC call (service.calls: the concurrency limit,
taken once the body has arrived; the request size limit on the decoded
message, enum checks, the response cache) and its errors are the same
classes with the same reasons and metadata, sent as Connect's JSON error with
Connect's HTTP status for the code. An unknown method (of a service served or
not) is answered 404 with code ``unimplemented``: the status Connect's own
servers give an unknown procedure, the code Connect clients infer from it and
the one gRPC sends. Calls run on a thread pool of ``--max-concurrent``
threads; one whose client goes away, or whose ``Connect-Timeout-Ms`` passes,
stops waiting for live work (service.live_gate), as a cancelled gRPC call
does; one unanswered when the server's grace is over (a body still arriving
included) is answered 503 ``unavailable``.

Why not the Connect project's Python runtime (connectrpc): it brings a second
protobuf runtime (protobuf-py) and a code generator of its own, for the one
unary form this adapter needs beside a core that already answers every call.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import math
import socket
import threading
from collections.abc import AsyncIterator, Callable
from concurrent import futures

from google.protobuf.message import Message
from grpc_health.v1 import health_pb2
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..client import messages
from ..client.errors import MalformedRequestError, PolicyNotFoundError, ServiceUnavailableError
from ..client.plots import PlotError, analysis_svg
from ..client.policy_choice import todays_choice
from ..client.text import shown
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from .calls import SERVICE_NAME, RpcMethod, parse_request
from .connect_codec import (
    ConnectRefusalError,
    check_version,
    codec_of,
    decompressed,
    json_message,
    json_text,
    query_message,
    timeout_of,
)
from .guarded import Health
from .servicer import GuessworkServicer
from .web_answers import (
    HTTP_STATUS,
    ThrottledLog,
    connect_code,
    error_response,
    message_response,
    refusal_response,
)
from .web_body import (
    BODY_LIMIT,
    BODY_SECONDS,
    HEAD_LIMIT,
    EdgeGuard,
    StoppingError,
    race,
    read_body,
    watch_disconnect,
)

# Re-exported: tests and callers read them here.
__all__ = [
    "BODY_LIMIT",
    "BODY_SECONDS",
    "HEAD_LIMIT",
    "HTTP_STATUS",
    "WebApp",
    "WebServer",
    "connect_code",
]

log = logging.getLogger("guesswork.service")

HEALTH_SERVICE = "grpc.health.v1.Health"
#: The health methods served over HTTP (Watch streams: gRPC only).
HEALTH_REQUESTS: dict[str, type[Message]] = {
    "Check": health_pb2.HealthCheckRequest,
    "List": health_pb2.HealthListRequest,
}
#: GET with ``?message=`` an AnalyzeGameRequest's JSON: the analysis picture, as SVG.
PICTURE_PATH = "/picture/analysis.svg"
#: Answers this long or longer are gzip-compressed for a client that accepts it
#: (ListPolicies is about 51 KB): shorter ones gain too little for the CPU.
GZIP_MINIMUM = 1024
_PICTURE_LOCK = threading.Lock()


def accepts_gzip(header: str) -> bool:
    """Return whether an Accept-Encoding header accepts gzip (RFC 9110 12.5.3): named,
    or ``*``, with a quality above zero (``gzip;q=0`` refuses it)."""
    qualities: dict[str, float] = {}
    for item in header.lower().split(","):
        coding, _, parameters = item.partition(";")
        quality = 1.0
        name, _, value = parameters.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
        qualities[coding.strip()] = quality
    return qualities.get("gzip", qualities.get("*", 0.0)) > 0


class AcceptedGZip(GZipMiddleware):
    """Starlette's gzip compression, only for a client whose Accept-Encoding accepts gzip
    (Starlette's own looks for the word "gzip" anywhere, ``gzip;q=0`` included)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Compress the answer (Starlette's middleware) or pass it as it is."""
        if scope["type"] == "http":
            header = Headers(scope=scope).get("accept-encoding", "")
            if "gzip" in header and not accepts_gzip(header):
                await self.app(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def peer_of(request: Request) -> str:
    """Return the address (host) of the client that sent ``request`` ("" if unknown), an
    IPv4 address mapped into IPv6 as the IPv4 address it is: the key of the per-peer
    share, the same as a gRPC call's from that address (service.calls.peer_of)."""
    host = request.client.host if request.client is not None else ""
    return host.removeprefix("::ffff:")


def _admit(method: RpcMethod, request: Request) -> str:
    """Take a place for a call of ``method`` (RpcMethod.admit) under --max-concurrent and
    the client's per-peer share (gRPC and HTTP calls of one address count together);
    return the peer to release it with (``method.release(peer)``).

    Raises:
        TooManyCallsError: every place is taken, or the client holds its whole share.
    """
    peer = peer_of(request)
    method.admit(peer)
    return peer


def _unknown_procedure(path: str) -> Response:
    """Return the answer to a call of a procedure not served: 404 (as Connect's servers
    answer one), code unimplemented (what Connect clients infer from a 404, and
    gRPC's UNIMPLEMENTED for an unknown method)."""
    refusal = ConnectRefusalError(404, "unimplemented", f"no such procedure: {shown(path)}")
    return refusal_response(refusal)


def _not_found(path: str) -> Response:
    """Return the answer to a path that is neither a procedure nor a file of the page."""
    return refusal_response(ConnectRefusalError(404, "not_found", f"no such path: {shown(path)}"))


def _is_procedure(path: str) -> bool:
    """Return whether ``path`` has the form of a procedure: /PACKAGE.SERVICE/METHOD."""
    service, _, method = path.removeprefix("/").partition("/")
    return "." in service and bool(method) and "/" not in method


def _forget(done: asyncio.Future[bytes]) -> None:
    """Read the outcome of work whose call has already been answered (see _answer):
    unread, asyncio logs each with a traceback ("never retrieved")."""
    if not done.cancelled():
        done.exception()


class WebApp:
    """The ASGI application: Connect unary calls, health, the picture and the page."""

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
        #: The event loop serving, and a future done when the server's grace is over
        #: (what is unanswered then is answered 503): made when it starts (lifespan).
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopped: asyncio.Future[None] | None = None
        both = ["GET", "POST"]
        routes = [
            Route(f"/{SERVICE_NAME}/{{name}}", self._rpc, methods=both),
            Route(f"/{HEALTH_SERVICE}/{{name}}", self._health, methods=both),
            Route(PICTURE_PATH, self._picture, methods=["GET"]),
            Route("/", self._page, methods=["GET"]),
            Route("/{name}", self._page, methods=["GET"]),
        ]
        self.app = Starlette(
            routes=routes,
            middleware=[
                Middleware(EdgeGuard),
                Middleware(AcceptedGZip, minimum_size=GZIP_MINIMUM, compresslevel=6),
            ],
            exception_handlers={HTTPException: self._http_error},
            lifespan=self._lifespan,
        )
        # A path that differs by a final slash is another path, not a redirect.
        self.app.router.redirect_slashes = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection event (Starlette's app does)."""
        await self.app(scope, receive, send)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.loop = asyncio.get_running_loop()
        self.stopped = self.loop.create_future()
        yield

    def _stopped(self) -> asyncio.Future[None]:
        """Return the future done when the server's grace is over (made on first use
        where the lifespan did not run)."""
        if self.stopped is None:
            self.stopped = asyncio.get_running_loop().create_future()
        return self.stopped

    def _error(self, error: BaseException, method: str) -> Response:
        """Return the answer of ``error`` in a call of ``method`` (its full name): a
        malformed request names the method, as over gRPC; a call cut by the stop
        closes its connection."""
        if isinstance(error, MalformedRequestError):
            error.add_metadata(method=method)
        close = isinstance(error, StoppingError)
        return error_response(error, method, self.servicer.log_limiter, close)

    async def _http_error(self, request: Request, error: Exception) -> Response:
        """Answer Starlette's own refusals (no route, a method not routed) as Connect's."""
        assert isinstance(error, HTTPException)
        if error.status_code == 405:
            methods = (error.headers or {}).get("Allow", "").split(", ")
            allow = ", ".join(sorted(name for name in methods if name and name != "HEAD"))
            message = f"{shown(request.method)} is not served: use {allow}"
            return refusal_response(ConnectRefusalError(405, "unimplemented", message, allow))
        if _is_procedure(request.url.path):
            return _unknown_procedure(request.url.path)
        return _not_found(request.url.path)

    async def _message(
        self, request: Request, request_type: type[Message], method: str, allow_get: bool = True
    ) -> tuple[Message, str, float | None]:
        """Return the request message of a Connect unary call of ``method`` (its full
        name; a POST body, or a GET query), its codec ("json" or "proto": the answer
        is sent in the same) and its Connect-Timeout-Ms in seconds (None: none).

        Raises:
            ConnectRefusalError: the HTTP method, content type, compression or protocol
                version is not one served.
            GuessworkError: the message is too large or malformed, the timeout not
                a number, the server stopping before the body arrived.
        """
        headers = request.headers
        check_version(headers.get("connect-protocol-version"))
        timeout = timeout_of(headers.get("connect-timeout-ms"))
        if request.method == "GET" and allow_get:
            data, codec = query_message(request.scope.get("query_string", b""), BODY_LIMIT)
        elif request.method == "POST":
            codec = codec_of(headers.get("content-type", ""))
            body = await read_body(request, self._stopped())
            data = decompressed(body, headers.get("content-encoding", ""), BODY_LIMIT)
        else:
            message = f"{shown(request.method)} is not served: use GET, POST"
            raise ConnectRefusalError(405, "unimplemented", message, "GET, POST")
        limit = self.servicer.options.max_request_bytes
        if codec == "proto":
            return parse_request(request_type, data, method, limit), codec, timeout
        return json_message(json_text(data), request_type, limit), codec, timeout

    async def _rpc(self, request: Request) -> Response:
        """Answer one call of a guesswork.v1.Guesswork method through the shared pipeline.

        The body is read before the call takes a place under --max-concurrent: a
        client that sends headers and never finishes its body holds a connection
        (until BODY_SECONDS), never a place other calls, gRPC's too, need.
        """
        method = self.methods.get(request.path_params["name"])
        if method is None:
            return _unknown_procedure(request.url.path)
        try:
            message, codec, timeout = await self._message(
                request, method.request_type, method.full_name, method.no_side_effects
            )
            peer = _admit(method, request)
        except ConnectRefusalError as refusal:
            return refusal_response(refusal)
        except Exception as error:
            return self._error(error, method.full_name)
        try:
            return await self._answer(method, request, message, codec, timeout)
        finally:
            method.release(peer)

    async def _answer(
        self,
        method: RpcMethod,
        request: Request,
        message: Message,
        codec: str,
        timeout: float | None,
    ) -> Response:
        """Return the answer of an admitted call: its work on the pool, waited for until
        it is done, its timeout passes, or the server's grace is over."""
        passed = "the call's Connect-Timeout-Ms passed"
        if timeout is not None and timeout <= 0:
            # Expired on arrival (Connect-Timeout-Ms: 0): refused before any work, or
            # a quick (cached) answer would win the race against the timer.
            return refusal_response(ConnectRefusalError(504, "deadline_exceeded", passed))
        gone = threading.Event()
        watcher = asyncio.ensure_future(watch_disconnect(request.receive, gone))
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self.pool, method.answer, message, lambda: not gone.is_set())
        try:
            raw = await race(work, timeout, self._stopped())
        except (TimeoutError, StoppingError) as error:
            gone.set()  # live work waiting at the gate stops; the thread finishes alone
            # Its ending (CallEndedError, most often) is nobody's to report: read it.
            work.add_done_callback(_forget)
            if isinstance(error, StoppingError):
                return self._error(error, method.full_name)
            return refusal_response(ConnectRefusalError(504, "deadline_exceeded", passed))
        except Exception as error:
            method.name_policy(error, message, b"")
            return self._error(error, method.full_name)
        finally:
            watcher.cancel()
        return message_response(raw, codec, method.response_type)

    async def _health(self, request: Request) -> Response:
        """Answer grpc.health.v1.Health's Check and List (no place taken: a health check
        must answer under load)."""
        name = request.path_params["name"]
        if name not in HEALTH_REQUESTS:
            return _unknown_procedure(request.url.path)
        full_name = f"/{HEALTH_SERVICE}/{name}"
        try:
            message, codec, _ = await self._message(request, HEALTH_REQUESTS[name], full_name)
        except ConnectRefusalError as refusal:
            return refusal_response(refusal)
        except Exception as error:
            return self._error(error, full_name)
        response: Message
        if isinstance(message, health_pb2.HealthCheckRequest):
            status = self.health.status_of(message.service)
            if status is None:
                missing = f"no service {shown(message.service)}"
                return refusal_response(ConnectRefusalError(404, "not_found", missing))
            response = health_pb2.HealthCheckResponse(status=status)
        else:
            response = self.health.statuses()
        return message_response(response.SerializeToString(), codec, type(response))

    async def _picture(self, request: Request) -> Response:
        """Answer GET PICTURE_PATH?message=ANALYZE-GAME-REQUEST-JSON with the analysis
        picture ``guesswork analyze --plot`` draws (client.plots), as SVG."""
        method = self.methods["AnalyzeGame"]
        try:
            message, _, _ = await self._message(request, method.request_type, method.full_name)
            peer = _admit(method, request)
        except ConnectRefusalError as refusal:
            return refusal_response(refusal)
        except Exception as error:
            return self._error(error, method.full_name)
        try:
            assert isinstance(message, pb.AnalyzeGameRequest)
            loop = asyncio.get_running_loop()
            picture = await loop.run_in_executor(self.pool, self._draw, message)
            return Response(picture, 200, media_type="image/svg+xml")
        except PlotError as error:
            return refusal_response(ConnectRefusalError(501, "unimplemented", str(error)))
        except Exception as error:
            return self._error(error, method.full_name)
        finally:
            method.release(peer)

    def _draw(self, request: pb.AnalyzeGameRequest) -> bytes:
        """Return the SVG analysis picture of ``request`` (matplotlib's pyplot is not
        thread-safe: one picture at a time)."""
        history = messages.history(request.history)
        analysis = self.servicer.answers.analyze(request.policy, history, request.answer)
        with _PICTURE_LOCK:
            return analysis_svg(analysis)

    async def _page(self, request: Request) -> Response:
        """Answer GET of a file of the page (service.page); another path is not found."""
        found = self.page(request.url.path)
        if found is None:
            return _not_found(request.url.path)
        body, kind = found
        if kind.startswith("text/html"):
            body = self._with_defaults(body)
        return Response(body, 200, media_type=kind)

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
            # A backstop a second after the grace: by then stop() has had every
            # unanswered call answered 503 (uvicorn's own cut is a 500).
            timeout_graceful_shutdown=math.ceil(max(grace, 0)) + 1,
            server_header=False,
            h11_max_incomplete_event_size=HEAD_LIMIT,
            # No WebSockets are served: an Upgrade request is an ordinary HTTP request
            # (a page or a 404), where a WebSocket scope the app does not take was a 500.
            ws="none",
        )
        # uvicorn's own start and stop lines would repeat ours (service.cli); what a
        # client can make it log goes through the server's log limiter.
        self.uvicorn_log = logging.getLogger("uvicorn.error")
        self.uvicorn_log.setLevel(logging.WARNING)
        self.log_filter = ThrottledLog(app.servicer.log_limiter)
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
        self.uvicorn_log.addFilter(self.log_filter)
        self.thread.start()

    def stop(self, grace: float) -> None:
        """Stop accepting, let calls in flight finish within ``grace`` s, answer what is
        still unanswered then (a body still arriving included) 503, and stop."""
        self.server.should_exit = True
        loop, stopped = self.app.loop, self.app.stopped
        if loop is not None and stopped is not None:

            def stop_waiting() -> None:
                if not stopped.done():
                    stopped.set_result(None)

            with contextlib.suppress(RuntimeError):  # the loop has already ended
                loop.call_soon_threadsafe(loop.call_later, max(grace, 0), stop_waiting)
        self.thread.join(max(grace, 0) + 3)
        self.app.pool.shutdown(wait=False, cancel_futures=True)
        self.uvicorn_log.removeFilter(self.log_filter)
