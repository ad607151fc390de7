"""The gRPC server: a thin shell that parses requests, asks the lookup core, maps errors.

``create_server(...) -> (server, port)`` builds and starts a server (port 0
picks a free port, as tests do) and loads the catalog behind it;
``guesswork.service.cli.run`` (``guesswork-serve``) runs one until
SIGTERM/SIGINT. Answers come from service.engine (the lookup core of
guesswork.client with the builder's live step); finished responses are
cached once, here, by service.cache; errors map to status codes in
service.errors.
Health checking reports NOT_SERVING until the catalog is open and live answers
are warm (service.engine.Engine.warm_up: stored answers are served meanwhile),
and again from the moment shutdown begins; server reflection is always on.
A catalog republished while serving is picked up by service.reload (on
SIGHUP, or by noticing the files changed), verified off the serving path and
swapped in atomically with the response cache emptied; health stays SERVING.
The address is checked and bound by service.address: a port in use is
refused unless sharing it was asked for.
A concurrency limit rejects excess calls at once with RESOURCE_EXHAUSTED
(reason TOO_MANY_CALLS) instead of queueing them.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ..client.analysis import EXACT, GREEDY_ESTIMATE, TREE, GameAnalysis
from ..client.catalog import Catalog, open_catalog
from ..client.errors import (
    BadRequestError,
    GuessworkError,
    MalformedRequestError,
    RequestTooLargeError,
    ServiceUnavailableError,
    TooManyCallsError,
)
from ..client.lookup import RULE_CONSISTENT, RULE_NYT
from ..client.spelling_bee import hints
from ..client.suggestion import LIVE, LIVE_GUESS_LIST, STORED
from ..client.text import plural
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from ..protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from .address import add_port, address_problem, server_options
from .bee import DEFAULT_COUNT, BeeEngine
from .cache import ResponseCache
from .engine import DEFAULT_ALTERNATIVES, Engine, PolicyLookup
from .errors import LogLimiter, ServerConfigError, abort
from .options import ServerOptions as ServerOptions  # re-exported
from .reflection import enable_reflection
from .reload import CatalogWatcher

#: Calls whose answers depend only on the request and the catalog (cached).
_CACHED_METHODS = frozenset(
    {"SuggestGuess", "ScoreGuess", "CheckGuess", "EvilReply", "TopHoneycombs", "ScoreHoneycomb",
     "AnalyzeGame"}
)  # fmt: skip
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Guesswork"].full_name
log = logging.getLogger("guesswork.service")
#: Each answer source (client.suggestion) as the proto's Source value.
_SOURCES = {
    STORED: pb.SOURCE_STORED,
    LIVE: pb.SOURCE_LIVE,
    LIVE_GUESS_LIST: pb.SOURCE_LIVE_GUESS_LIST,
}

#: Each analysed value's source (client.analysis) as the proto's ValueSource value.
_VALUE_SOURCES = {
    EXACT: pb.VALUE_SOURCE_EXACT,
    TREE: pb.VALUE_SOURCE_TREE,
    GREEDY_ESTIMATE: pb.VALUE_SOURCE_GREEDY_ESTIMATE,
}


def _analysis_message(analysis: GameAnalysis) -> Any:
    """Return a game's analysis as an AnalyzeGameResponse."""
    moves = []
    for move in analysis.moves:
        fields = move.to_json()
        fields["source"] = _VALUE_SOURCES[move.source]
        fields["best_source"] = _VALUE_SOURCES[move.best_source]
        if move.best_remaining is None:
            del fields["best_remaining"]  # a presence-aware field: absent, not 0
        moves.append(pb.MoveAnalysis(**fields))
    totals = analysis.to_json()
    totals.update(policy=f"policies/{analysis.policy}", moves=moves)
    if analysis.off_list_policy:
        totals["off_list_policy"] = f"policies/{analysis.off_list_policy}"
    return pb.AnalyzeGameResponse(**totals)


def _summary(row: dict[str, object]) -> Any:
    """Return a stored top-table row as a HoneycombSummary message."""
    return pb.HoneycombSummary(
        letters=str(row["letters"]), center=str(row["center"]), score=int(str(row["score"])),
        words=int(str(row["words"])), pangrams=int(str(row["pangrams"])),
    )  # fmt: skip


def _history(request: Any) -> list[tuple[str, str]]:
    return [(turn.guess, turn.reply) for turn in request.history]


class GuessworkServicer(pb_grpc.GuessworkServicer):
    """Parses requests into engine calls and engine answers into responses."""

    def __init__(self, options: ServerOptions) -> None:
        #: The engines answering now, replaced as one value so a call sees one catalog.
        self._loaded: tuple[Engine, BeeEngine] | None = None
        self._options = options
        self._slots = threading.BoundedSemaphore(options.max_concurrent)
        self.responses = ResponseCache(options.cache_entries)
        #: Holds back log lines of errors beyond a few a second per reason.
        self.log_limiter = LogLimiter()

    def load(self, engine: Engine) -> None:
        """Answer with ``engine`` from now on (calls before the first load get UNAVAILABLE).

        A later load swaps the catalog atomically, then empties the response
        cache (in that order: an answer cached after the clear is the new
        catalog's; see ResponseCache.clear).
        """
        first = self._loaded is None
        self._loaded = (engine, BeeEngine(engine.catalog))
        if not first:
            self.responses.clear()

    @property
    def _bee(self) -> BeeEngine:
        return self._current[1]

    @property
    def _engine(self) -> Engine:
        return self._current[0]

    @property
    def _current(self) -> tuple[Engine, BeeEngine]:
        loaded = self._loaded
        if loaded is None:
            raise ServiceUnavailableError("the catalog is still loading; retry shortly")
        return loaded

    def _policy_message(self, engine: PolicyLookup, catalog: Catalog) -> pb.Policy:
        policy = engine.policy
        data, stats = policy.data, policy.stats
        return pb.Policy(
            name=f"policies/{policy.name}",
            game=policy.game.id,
            length=policy.game.length,
            mode=data.mode,
            metric=data.metric,
            targets_list=data.targets.name,
            targets_sha256=data.targets.sha256,
            guesses_list=data.guesses.name,
            guesses_sha256=data.guesses.sha256,
            target_count=data.targets.count,
            guess_count=data.guesses.count,
            mean=stats["mean"],
            stdev=stats["stdev"],
            median=stats["median"],
            worst=stats["worst"],
            best=stats["best"],
            histogram={int(s): int(c) for s, c in stats["histogram"]},
            content_hash=policy.content_hash,
            builder=data.builder,
            catalog=catalog.origin(policy.name),
            colours=getattr(policy.game, "colours", 0),
            weights=policy.info.weights or "",
            uniform_mean=float(stats.get("uniform_mean", 0.0)),
        )

    def ListPolicies(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        engine = self._engine  # once: a reload may swap it meanwhile
        messages = [self._policy_message(lookup, engine.catalog) for lookup in engine]
        return pb.ListPoliciesResponse(
            policies=[m for m in messages if not request.game or m.game == request.game]
        )

    def GetPolicy(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        engine = self._engine
        message = self._policy_message(engine.policy(request.name), engine.catalog)
        return pb.GetPolicyResponse(policy=message)

    def SuggestGuess(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        history = _history(request)
        alternatives = (
            request.max_alternatives
            if request.HasField("max_alternatives")
            else DEFAULT_ALTERNATIVES
        )
        answer = self._engine.policy(request.policy).suggest(history, alternatives)
        response = pb.SuggestGuessResponse(
            guess=answer.guess,
            remaining=answer.remaining,
            solved=answer.solved,
            alternatives=answer.alternatives,
            source=_SOURCES[answer.source],
            turn=answer.turn,
        )
        return response

    def ScoreGuess(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        reply, code, solved = self._engine.policy(request.policy).score(
            request.guess, request.target
        )
        return pb.ScoreGuessResponse(reply=reply, reply_code=code, solved=solved)

    def CheckGuess(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        engine = self._engine.policy(request.policy)
        rule = RULE_NYT if request.rule == pb.HARD_RULE_NYT else RULE_CONSISTENT  # 0: default
        legal, reason, remaining = engine.check(_history(request), request.guess, rule)
        return pb.CheckGuessResponse(legal=legal, reason=reason, remaining=remaining)

    def EvilReply(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        engine = self._engine.policy(request.policy)
        reply, code, remaining, solved = engine.evil_reply(_history(request), request.guess)
        return pb.EvilReplyResponse(
            reply=reply, reply_code=code, remaining=remaining, solved=solved
        )

    def AnalyzeGame(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        analysis = self._engine.analyze(request.policy, _history(request), request.answer)
        return _analysis_message(analysis)

    def Ping(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        return pb.PingResponse()

    def TopHoneycombs(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        count = request.count or DEFAULT_COUNT
        table = self._bee.top(request.word_list, request.allow_s, count)
        return pb.TopHoneycombsResponse(
            honeycombs=[_summary(row) for row in table.top],
            counts=pb.SearchCounts(**table.counts),
        )

    def ScoreHoneycomb(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        result = self._bee.score(
            request.letters, request.center, request.word_list, request.allow_s
        )
        tables = hints(result)
        return pb.ScoreHoneycombResponse(
            honeycomb=pb.HoneycombSummary(
                letters=result.honeycomb.letters, center=result.honeycomb.center,
                score=result.score, words=len(result.words), pangrams=len(result.pangrams),
            ),
            ranks=[pb.RankThreshold(name=name, points=points)
                   for name, points in result.ranks.items()],
            words=result.words,
            pangrams=result.pangrams,
            grid=[pb.HintCell(letter=letter, length=length, count=count)
                  for letter, row in tables.grid.items() for length, count in row.items()],
            two_letter_starts=tables.two_letter,
        )  # fmt: skip


#: Threads beyond --max-concurrent that only reject: a burst of calls over the
#: limit each get a thread at once and are refused in milliseconds, instead of
#: queueing behind the calls at work. gRPC's own limit lies beyond them.
REJECTING_THREADS = 256
#: gRPC's limit on a received message: beyond it the transport refuses the
#: message before the service sees it (the proto documents this size).
TRANSPORT_LIMIT = 4 << 20


def transport_limit(options: ServerOptions) -> int:
    """Return the largest message gRPC delivers to the service (see the proto's LIMITS)."""
    return max(TRANSPORT_LIMIT, 4 * options.max_request_bytes)


def _bad_enum(message: Any, prefix: str = "") -> str | None:
    """Return the path of the first enum field of ``message`` holding a value its
    enum does not define (proto3 keeps such values), or None."""
    for field, value in message.ListFields():
        path = f"{prefix}{field.name}"
        if field.enum_type is not None:
            values = value if field.is_repeated else [value]
            if any(v not in field.enum_type.values_by_number for v in values):
                return path
        elif field.message_type is not None and not field.message_type.GetOptions().map_entry:
            for index, item in enumerate(value if field.is_repeated else [value]):
                found = _bad_enum(item, f"{path}[{index}]." if field.is_repeated else f"{path}.")
                if found:
                    return found
    return None


def _parse(request_type: Any, raw: bytes, method: str, limit: int) -> Any:
    """Return the request message in ``raw`` after the checks every call gets.

    Raises:
        RequestTooLargeError: ``raw`` is over ``limit`` bytes.
        MalformedRequestError: ``raw`` is not a message of ``request_type``.
    """
    if len(raw) > limit:
        raise RequestTooLargeError(
            f"request of {len(raw)} bytes exceeds {limit}",
            metadata={"limit": limit, "value": len(raw)},
        )
    try:
        request = request_type.FromString(raw)
    except DecodeError:
        raise MalformedRequestError(
            f"the request bytes are not a valid {request_type.DESCRIPTOR.full_name}",
            metadata={"method": method},
        ) from None
    return request


def _check_enums(request: Any) -> None:
    """Raise BadRequestError if an enum field holds a value its enum does not define
    (proto3 keeps such values; they are not the default)."""
    field = _bad_enum(request)
    if field is not None:
        raise BadRequestError(
            f"{field} holds a value its enum does not define", metadata={"field": field}
        )


def _handler(servicer: GuessworkServicer, method: Any) -> grpc.RpcMethodHandler:
    """Return the handler of one RPC: the concurrency limit first (before any work,
    even parsing), then the size limit, parsing, the response cache and the
    error mapping.

    It takes the request's raw bytes, so that bytes which do not decode are
    the caller's fault (INVALID_ARGUMENT, MALFORMED_REQUEST) and not gRPC's
    "Exception deserializing request!" (INTERNAL, with a traceback).
    """
    name = method.name
    full_name = f"/{SERVICE_NAME}/{name}"
    behaviour = getattr(servicer, name)
    request_type = getattr(pb, method.input_type.name)
    options = servicer._options
    # Ping does no work to protect: the baseline is never refused for load.
    limited = name != "Ping"

    def call(raw: bytes, context: grpc.ServicerContext) -> Any:
        if limited and not servicer._slots.acquire(blocking=False):
            abort(
                context,
                TooManyCallsError(
                    f"more than {plural(options.max_concurrent, 'call')} at once; retry later",
                    metadata={"limit": options.max_concurrent},
                ),
                name,
                servicer.log_limiter,
            )
        request = None
        try:
            request = _parse(request_type, raw, full_name, options.max_request_bytes)
            _check_enums(request)
            if name not in _CACHED_METHODS:
                return behaviour(request, context)
            key, response = servicer.responses.get(name, request)
            if response is None:
                response = behaviour(request, context)
                servicer.responses.put(key, response)
            return response
        except Exception as error:
            policy = getattr(request, "policy", "") or getattr(request, "name", "")
            if policy and isinstance(error, GuessworkError):
                error.add_metadata(policy=policy.removeprefix("policies/"))
            abort(context, error, name, servicer.log_limiter)
        finally:
            if limited:
                servicer._slots.release()

    return grpc.unary_unary_rpc_method_handler(
        call, request_deserializer=None, response_serializer=_serialize
    )


def _serialize(message: Any) -> bytes:
    data: bytes = message.SerializeToString()
    return data


class GuessworkServer:
    """A started gRPC server with its health service; stop() shuts it down gracefully."""

    def __init__(
        self, server: grpc.Server, health_servicer: health.HealthServicer, port: int
    ) -> None:
        self.grpc_server = server
        self.health = health_servicer
        self.port = port
        #: The server's one response cache (set once the servicer exists).
        self.responses: ResponseCache | None = None
        #: What holds back the log lines of a flood of errors (set with responses).
        self.log_limiter: LogLimiter | None = None
        #: Reloads a republished catalog (None when create_server was given a Catalog).
        self.watcher: CatalogWatcher | None = None

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

    def stop(self, grace: float, drain: float = 0.2) -> threading.Event:
        """Turn health to NOT_SERVING, then refuse new calls and give in-flight ones ``grace`` s.

        The ``drain`` pause lets health watchers (load balancers) see
        NOT_SERVING before the server stops accepting calls.
        """
        self.set_serving(False)
        if self.watcher is not None:
            self.watcher.stop()
        time.sleep(min(drain, grace))
        done: threading.Event = self.grpc_server.stop(grace)
        return done

    def wait(self) -> None:
        """Block until the server has stopped."""
        self.grpc_server.wait_for_termination()


def _credentials(options: ServerOptions) -> grpc.ServerCredentials | None:
    if not options.tls_cert and not options.tls_key:
        return None
    if not (options.tls_cert and options.tls_key):
        raise ServerConfigError("TLS needs both a certificate and a key")
    key, cert = Path(options.tls_key).read_bytes(), Path(options.tls_cert).read_bytes()
    return grpc.ssl_server_credentials([(key, cert)])


def create_server(
    options: ServerOptions, catalog: Catalog | None = None
) -> tuple[GuessworkServer, int]:
    """Start a server; return it and its bound port.

    Health is NOT_SERVING until the catalog (given, or opened from
    ``options.catalog``) is open and live answers are warm (Engine.warm_up,
    which returns when this does), then SERVING. A catalog
    opened from the options is watched and reloaded when republished
    (``options.reload_interval``, and :meth:`GuessworkServer.reload`); a
    Catalog given is served as it is.

    Raises:
        PolicyFormatError: the catalog is missing or fails verification.
        ServerConfigError: a malformed address, a port in use (unless
            ``options.reuse_port``), or an incomplete TLS pair.
        OSError: a TLS file cannot be read.
    """
    # Before anything is started: a mistake is one line of ours, never gRPC's log.
    problem = address_problem(options.address, reuse_port=options.reuse_port)
    if problem is not None:
        raise ServerConfigError(problem)
    # Enough workers that calls over our limit still reach the handler, which
    # rejects them at once with a stable reason; gRPC's own limit (a plain
    # RESOURCE_EXHAUSTED without our reason) only backs that up under extreme load.
    # Threads are made only when calls need them.
    threads = options.max_concurrent + REJECTING_THREADS
    pool = futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="guesswork")
    server = grpc.server(
        pool,
        maximum_concurrent_rpcs=threads,
        options=[
            ("grpc.max_receive_message_length", transport_limit(options)),
            ("grpc.max_send_message_length", 16 << 20),
            *server_options(options.reuse_port),
        ],
    )
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    enable_reflection(server, (SERVICE_NAME, health.SERVICE_NAME))
    port, problem = add_port(server, options.address, _credentials(options))
    if problem is not None:
        raise ServerConfigError(problem)
    servicer = GuessworkServicer(options)
    methods = pb.DESCRIPTOR.services_by_name["Guesswork"].methods
    handlers = {method.name: _handler(servicer, method) for method in methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    wrapper = GuessworkServer(server, health_servicer, port)
    wrapper.responses = servicer.responses
    wrapper.log_limiter = servicer.log_limiter
    wrapper.set_serving(False)
    server.start()

    def install(loaded: Catalog) -> None:
        engine = Engine(loaded)
        servicer.load(engine)
        # A republished catalog may hold kinds not warmed yet: warmed while serving.
        threading.Thread(target=engine.warm_up, name="guesswork-warm", daemon=True).start()

    if catalog is None:
        # Made before the first open: a publish landing during it is noticed.
        wrapper.watcher = CatalogWatcher(options.catalog, install, options.reload_interval)
    try:
        first = Engine(catalog if catalog is not None else open_catalog(options.catalog))
        # Stored answers are served at once; SERVING waits until live answers are
        # warm too (compiled code loaded, or compiled and cached on a fresh install),
        # so a client that waits for SERVING never meets a cold first live answer.
        servicer.load(first)
        first.warm_up()
    except Exception:
        server.stop(0)
        raise
    wrapper.set_serving(True)
    if wrapper.watcher is not None:
        wrapper.watcher.start()
    return wrapper, port
