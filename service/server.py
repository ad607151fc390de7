"""The gRPC server: the transport around the servicer (service.servicer).

``create_server(options)`` builds a server bound to its port (port 0 picks a
free port, as tests do), ``server.start()`` serves and loads the catalog,
``server.wait()`` blocks until ``server.stop(grace)``: the shape of
grpc.Server's own; ``start_server`` does the first two.
``guesswork.service.cli.run`` (``guesswork-serve``) runs one until
SIGTERM/SIGINT. Answers come from the application core in process
(service.local.LocalGuesswork), through the servicer; every call passes the
handler here (the concurrency and size limits, parsing, the response cache
of service.cache, errors mapped to status codes by service.errors).

gRPC is served by grpc.aio on an event loop of its own (service.aio_server):
a call waiting for its request holds no thread, so calls that never send one
starve no one; a call takes a thread (at most ``--max-concurrent`` of them)
only once its request has arrived and it is admitted. Admission refuses
excess calls at once with RESOURCE_EXHAUSTED, reason TOO_MANY_CALLS, instead
of queueing them: over ``--max-concurrent`` (metadata ``scope`` "server"), or
over the client address's share of it (``--max-per-peer``, by default half;
``scope`` "peer"; service.admission).
Health checking reports NOT_SERVING until the catalog is open and live answers
are warm (service.local.LocalGuesswork.warm_up: stored answers are served meanwhile),
and again from the moment shutdown begins; a stop during warm-up drains like
any other. Server reflection is always on.
A catalog republished while serving is picked up by service.reload (on
SIGHUP, or by noticing the files changed), verified off the serving path and
swapped in atomically with the response cache emptied; health stays SERVING.
The catalog named by ``--catalog`` must pass its seal at start (else start-up
fails); by default a user catalog that fails is left out, loudly, and the
shipped one served (:func:`open_served`).
The address is checked and bound by service.address: a port in use is
refused unless sharing it was asked for.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent import futures
from pathlib import Path

import grpc
import grpc.aio
from google.protobuf.descriptor import MethodDescriptor
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ..client.catalog import SHIPPED_CATALOG, Catalog, open_catalog, open_layered
from ..client.errors import PolicyFormatError, TooManyCallsError
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from .address import add_port, address_problem, server_options
from .aio_server import LoopServer
from .cache import ResponseCache
from .calls import SERVICE_NAME as SERVICE_NAME  # re-exported
from .calls import RpcMethod, parse_request, peer_of
from .errors import LogLimiter, ServerConfigError, abort_async
from .guarded import HandlerRecorder, Health, guarded
from .local import LocalGuesswork, builder_proof
from .options import ServerOptions as ServerOptions  # re-exported
from .page import page_file
from .reflection import reflection_handlers
from .reload import CatalogWatcher
from .servicer import GuessworkServicer
from .tls import tls_problem
from .web import WebApp, WebServer

log = logging.getLogger("guesswork.service")
#: gRPC's limit on a received message: beyond it the transport refuses the
#: message before the service sees it (the proto documents this size).
TRANSPORT_LIMIT = 4 << 20


def transport_limit(options: ServerOptions) -> int:
    """Return the largest message gRPC delivers to the service (see the proto's LIMITS)."""
    return max(TRANSPORT_LIMIT, 4 * options.max_request_bytes)


def _handler(
    servicer: GuessworkServicer, method: MethodDescriptor, pool: futures.ThreadPoolExecutor
) -> grpc.RpcMethodHandler:
    """Return the gRPC handler of one RPC: the pipeline of service.calls, the
    request's raw bytes parsed here, errors ended as statuses (service.errors).

    It is a coroutine on the server's event loop: gRPC calls it once the whole
    request has arrived, so a call whose request never comes holds nothing but
    its coroutine. The call is admitted there (service.calls.RpcMethod.admit:
    ``--max-concurrent``, and the client address's share), and only an admitted
    call takes a thread of ``pool`` for its work; Ping, never refused for load,
    is answered on the loop. It takes the request's raw bytes, so that bytes
    which do not decode are the caller's fault (INVALID_ARGUMENT,
    MALFORMED_REQUEST) and not gRPC's "Exception deserializing request!"
    (INTERNAL, with a traceback).
    """
    pipeline = RpcMethod(servicer, method)
    limit = servicer.options.max_request_bytes

    async def call(raw: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        peer = peer_of(context.peer())
        try:
            pipeline.admit(peer)
        except TooManyCallsError as error:
            await abort_async(context, error, pipeline.name, servicer.log_limiter)
        # Set when the call ends early (cancelled, deadline, shutdown): live work
        # waiting at the gate is dropped, and running work stops (service.live_gate).
        ended = threading.Event()

        def work() -> bytes:
            request = None
            try:
                request = parse_request(pipeline.request_type, raw, pipeline.full_name, limit)
                return pipeline.answer(request, lambda: not ended.is_set())
            except Exception as error:
                pipeline.name_policy(error, request, raw)
                raise
            finally:
                pipeline.release(peer)

        try:
            if not pipeline.limited:
                return work()
            future = pool.submit(work)
            try:
                return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                ended.set()
                # Never started: its place is given back here; else work() gives it back.
                if future.cancel():
                    pipeline.release(peer)
                raise
        except Exception as error:
            await abort_async(context, error, pipeline.name, servicer.log_limiter)

    return grpc.unary_unary_rpc_method_handler(
        call, request_deserializer=None, response_serializer=None
    )


class GuessworkServer:
    """A gRPC server with its health service, bound to its port and not yet serving.

    :meth:`start` starts it and loads its catalog, :meth:`wait` blocks until it
    stops, :meth:`stop` shuts it down gracefully: as grpc.Server's own
    start, wait_for_termination and stop.
    """

    def __init__(
        self,
        server: LoopServer,
        health_servicer: Health,
        servicer: GuessworkServicer,
        port: int,
        catalog: Catalog | None,
        web: WebServer | None = None,
    ) -> None:
        #: The grpc.aio server, with grpc.Server's synchronous start/stop (service.aio_server).
        self.grpc_server = server
        #: The HTTP/JSON adapter and the page (service.web), when --http is given.
        self.web = web
        #: Its port (None without --http).
        self.http_port: int | None = web.port if web is not None else None
        self.health = health_servicer
        self.servicer = servicer
        self.port = port
        #: The server's one response cache.
        self.responses: ResponseCache = servicer.responses
        #: What holds back the log lines of a flood of errors.
        self.log_limiter: LogLimiter = servicer.log_limiter
        #: Reloads a republished catalog (None until started, and when a Catalog was given).
        self.watcher: CatalogWatcher | None = None
        #: Why the user catalog was left out at start (default layering only), else None.
        self.left_out: str | None = None
        self._catalog = catalog
        #: Set by :meth:`stop`: a start still warming up ends without reporting SERVING.
        self._stopping = threading.Event()

    def start(self) -> None:
        """Start serving: health is NOT_SERVING until the catalog (given, or opened from
        the options: :func:`open_served`) is open and live answers are warm
        (LocalGuesswork.warm_up), then SERVING; stored answers are served meanwhile.
        A catalog opened from the options is watched and reloaded when republished
        (``options.reload_interval``, and :meth:`reload`); a Catalog given is served
        as it is. A :meth:`stop` during warm-up (SIGTERM) makes this return at once,
        the server draining as after any stop.

        Raises:
            PolicyFormatError: the catalog is missing or fails verification
                (the server is stopped again).
        """
        options = self.servicer.options
        self.set_serving(False)
        self.grpc_server.start()
        if self.web is not None:
            self.web.start()

        def install(loaded: Catalog) -> None:
            answers = LocalGuesswork(loaded, self.servicer.live)
            self.servicer.load(answers)
            # A republished catalog may hold kinds not warmed yet: warmed while serving.
            threading.Thread(target=answers.warm_up, name="guesswork-warm", daemon=True).start()

        if self._catalog is None:
            # Made before the first open: a publish landing during it is noticed.
            self.watcher = CatalogWatcher(options.catalog, install, options.reload_interval)
        try:
            if self._catalog is not None:
                opened = self._catalog
            else:
                opened, self.left_out = open_served(options.catalog)
            first = LocalGuesswork(opened, self.servicer.live)
            # Stored answers are served at once; SERVING waits until live answers are
            # warm too (modules and kernels loaded, a catalog from outside proven),
            # so a client that waits for SERVING never meets a cold first live answer.
            self.servicer.load(first)
        except Exception:
            self.grpc_server.stop(0).wait()
            if self.web is not None:
                self.web.stop(0)
            raise
        # Warmed on a thread of its own, so that a stop meanwhile (SIGTERM) is not held
        # up by it: the server drains and stops as it would once serving.
        warm = threading.Thread(
            target=self._warm_up, args=(first,), name="guesswork-warm", daemon=True
        )
        warm.start()
        while warm.is_alive() and not self._stopping.is_set():
            warm.join(0.1)
        if self._stopping.is_set():
            return
        self.set_serving(True)
        if self.watcher is not None:
            self.watcher.start()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` has been called."""
        return self._stopping.is_set()

    def _warm_up(self, answers: LocalGuesswork) -> None:
        try:
            answers.warm_up()
        except Exception:  # a bug: warming is an optimisation, live answers still compute
            log.exception("warming live answers failed")

    def reload(self) -> None:
        """Ask for the catalog to be reloaded now (what SIGHUP does); returns at once."""
        if self.watcher is not None:
            self.watcher.request()

    def set_serving(self, serving: bool) -> None:
        """Report SERVING or NOT_SERVING for the whole server and the Guesswork service."""
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if serving
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for service in ("", SERVICE_NAME):
            self.health.set(service, status)

    def stop(self, grace: float, drain: float = 0.0) -> threading.Event:
        """Turn health to NOT_SERVING, then refuse new calls and give in-flight ones
        ``grace`` s; after that gRPC cancels what is left (streams included). Returns
        an event set once the gRPC server has stopped; returns at once, so a signal
        handler may call it, during warm-up too (:meth:`start` then returns).

        A ``drain`` pause (none by default: a stop refuses new calls at once) would
        let health checkers that poll rather than watch see NOT_SERVING first.
        """
        self._stopping.set()
        self.set_serving(False)
        if self.watcher is not None:
            self.watcher.stop()
        time.sleep(min(drain, grace))
        done = self.grpc_server.stop(grace)
        if self.web is not None:
            # Off this thread (a signal handler's, under guesswork-serve): wait() joins it.
            threading.Thread(target=self.web.stop, args=(grace,), daemon=True).start()
        return done

    def wait(self) -> None:
        """Block until the server has stopped (the HTTP adapter too, when there is one)."""
        # In short waits: a signal handler runs between them (SIGTERM, SIGHUP).
        while not self.grpc_server.wait_for_termination(0.5):
            pass
        if self.web is not None:
            self.web.thread.join()


def open_served(location: str | None) -> tuple[Catalog, str | None]:
    """Open the catalog a server started with ``--catalog location`` serves, its
    files' seals checked (every byte as published); return it and, where the
    user catalog was left out, why (else None).

    ``location`` given: that catalog, or an error. None: the shipped catalog
    layered with the user's; a user catalog that fails (at open, or its seal)
    is left out with a WARNING line of the ``guesswork.catalog`` logger naming it
    and why (on guesswork-serve's standard error), and the shipped one served.

    Raises:
        PolicyFormatError: the catalog named fails, or (default) the shipped one does.
    """
    if location is not None:
        catalog = open_catalog(location, prover=builder_proof)
        try:
            catalog.check_seals()
        except PolicyFormatError:
            catalog.close()
            raise
        return catalog, None
    try:
        catalog = open_layered(prover=builder_proof)
    except PolicyFormatError as error:
        problem = str(error)
    else:
        try:
            catalog.check_seals()
            return catalog, None
        except PolicyFormatError as error:
            catalog.close()
            problem = str(error)
    shipped = open_catalog(SHIPPED_CATALOG)
    try:
        shipped.check_seals()
    except PolicyFormatError:
        shipped.close()
        raise
    logging.getLogger("guesswork.catalog").warning(
        "user catalog left out: %s; answering from the shipped policies only", problem
    )
    return shipped, problem


#: A connection is closed (GOAWAY) after this long, its calls given the grace below to
#: finish: clients reconnect without noticing, and a call whose request never comes
#: (a coroutine waiting, a few KB) is cancelled in the end.
CONNECTION_AGE_MS, CONNECTION_AGE_GRACE_MS = 10 * 60 * 1000, 30 * 1000
#: An idle connection (no call) is closed after this long.
CONNECTION_IDLE_MS = 5 * 60 * 1000
#: Calls one connection may have open at once (HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS;
#: more wait on the client's side). An open call waiting for its request costs no
#: thread, only its stream's memory, so this is far above the threads: a burst of
#: hundreds of calls on one channel meets our admission (TOO_MANY_CALLS), never
#: an HTTP/2 refusal (RST_STREAM REFUSED_STREAM, "Stream refused").
MAX_STREAMS_PER_CONNECTION = 1024


def fairness_options(options: ServerOptions) -> list[tuple[str, int]]:
    """Return the gRPC options that bound what one connection holds: the calls it may
    have open (:data:`MAX_STREAMS_PER_CONNECTION`) and how long it lives
    (:data:`CONNECTION_AGE_MS`, so calls that never send their request end)."""
    return [
        ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
        ("grpc.max_connection_age_ms", CONNECTION_AGE_MS),
        ("grpc.max_connection_age_grace_ms", CONNECTION_AGE_GRACE_MS),
        ("grpc.max_connection_idle_ms", CONNECTION_IDLE_MS),
    ]


def _credentials(options: ServerOptions) -> grpc.ServerCredentials | None:
    """Return the TLS credentials of ``options``; None without TLS.

    Raises:
        ServerConfigError: the files cannot serve TLS (service.tls says why).
    """
    problem = tls_problem(options.tls_cert, options.tls_key)
    if problem is not None:
        raise ServerConfigError(problem)
    if not options.tls_cert or not options.tls_key:
        return None
    key, cert = Path(options.tls_key).read_bytes(), Path(options.tls_cert).read_bytes()
    return grpc.ssl_server_credentials([(key, cert)])


def create_server(options: ServerOptions, catalog: Catalog | None = None) -> GuessworkServer:
    """Return a server for ``options``, bound to its port (``.port``; port 0 picks a
    free one) with its services added, not yet started: :meth:`GuessworkServer.start`
    serves ``catalog``, or the catalog ``options.catalog`` names.

    Raises:
        ServerConfigError: a malformed address, a port in use (unless
            ``options.reuse_port``), or an incomplete TLS pair.
        OSError: a TLS file cannot be read.
    """
    # Before anything is made: a mistake is one line of ours, never gRPC's log.
    problem = address_problem(options.address, reuse_port=options.reuse_port)
    if problem is not None:
        raise ServerConfigError(problem)
    credentials = _credentials(options)
    server = LoopServer(
        [
            ("grpc.max_receive_message_length", transport_limit(options)),
            ("grpc.max_send_message_length", 16 << 20),
            *fairness_options(options),
            *server_options(options.reuse_port),
        ]
    )
    port, problem = add_port(server, options.address, credentials)
    if problem is not None:
        server.stop(0)
        raise ServerConfigError(problem)
    servicer = GuessworkServicer(options)
    # Health and reflection decode their requests behind our guard (service.guarded).
    health_servicer = Health()
    recorder = HandlerRecorder()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, recorder)
    libraries = {**recorder.services, **reflection_handlers((SERVICE_NAME, health.SERVICE_NAME))}
    for library, library_handlers in libraries.items():
        server.add_generic_rpc_handlers((guarded(library, library_handlers, servicer.log_limiter),))
    # One thread per place under --max-concurrent: an admitted call never queues.
    # Threads are made only when calls need them.
    pool = futures.ThreadPoolExecutor(
        max_workers=options.max_concurrent, thread_name_prefix="guesswork"
    )
    methods = pb.DESCRIPTOR.services_by_name["Guesswork"].methods
    handlers = {method.name: _handler(servicer, method, pool) for method in methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    web = None
    if options.http_address is not None:
        problem = address_problem(
            options.http_address, reuse_port=options.reuse_port, option="--http"
        )
        if problem is not None:
            server.stop(0)
            raise ServerConfigError(problem)
        app = WebApp(servicer, health_servicer, page_file)
        web = WebServer(app, options.http_address, options.reuse_port, options.grace)
    return GuessworkServer(server, health_servicer, servicer, port, catalog, web)


def start_server(
    options: ServerOptions, catalog: Catalog | None = None
) -> tuple[GuessworkServer, int]:
    """Create a server (:func:`create_server`) and start it (:meth:`GuessworkServer.start`);
    return it and its port, once it reports SERVING.

    Raises:
        The errors of create_server and of GuessworkServer.start.
    """
    server = create_server(options, catalog)
    server.start()
    return server, server.port
