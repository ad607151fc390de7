"""The one place where errors become gRPC statuses.

:data:`STATUS_TABLE` maps each concrete error class the service can send to a
canonical status code and a log level: the caller's mistakes at INFO, load
the caller can back off from at WARNING, broken data and a server that cannot
do what it should at ERROR. The status carries a google.rpc.ErrorInfo whose
``reason`` is the class's stable ``reason`` (client.errors) and whose domain
is ``guesswork.v1``; client.remote turns the reason back into the same class.

Anything else (any other exception, a bare GuessworkError, an error class
that is in no row) is a bug or an unforeseen failure: INTERNAL, reason
``INTERNAL``, logged at ERROR with its traceback, and sent with a generic
message. The reasons of client.errors, this table and the list in
protos/guesswork/v1/guesswork.proto are kept equal by
tests/service/test_error_table.py.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, NoReturn

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from ..client.errors import (
    BadRequestError,
    ContradictoryHistoryError,
    CostLimitError,
    GameOverError,
    GuessworkError,
    HistoryTooLongError,
    ImpossibleReplyError,
    InvalidHoneycombError,
    InvalidReplyError,
    InvalidWordError,
    LiveAnswerUnavailableError,
    MalformedRequestError,
    PolicyFormatError,
    PolicyNotFoundError,
    RequestTooLargeError,
    ServiceUnavailableError,
    TooManyCallsError,
    UnknownGameError,
    UnknownWordError,
    WordListNotFoundError,
)
from ..client.text import cut

DOMAIN = "guesswork.v1"
#: The longest status message and ErrorInfo metadata value sent, in characters;
#: longer ones are cut, their length stated (client.text.cut). Messages repeat
#: at most client.text.SHOWN_CHARACTERS of a caller's value; these bounds are
#: the net under every message, so a trailer stays a few KB at most (gRPC
#: clients refuse trailers over 8 KB by default, percent-encoding included).
MESSAGE_CHARACTERS = 300
METADATA_CHARACTERS = 100
#: The reason of everything :data:`STATUS_TABLE` does not list.
INTERNAL_REASON = "INTERNAL"
log = logging.getLogger("guesswork.service")

_NOT_FOUND = grpc.StatusCode.NOT_FOUND
_INVALID = grpc.StatusCode.INVALID_ARGUMENT
_FAILED = grpc.StatusCode.FAILED_PRECONDITION
_EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED

#: Concrete error class -> (status code, log level); its reason is the class's own.
#: An error is looked up by its class, then by each base class in turn (so a
#: subclass of a listed class gets that row); one of no listed class is INTERNAL.
STATUS_TABLE: dict[type[GuessworkError], tuple[grpc.StatusCode, int]] = {
    # The caller asked for something that is not there.
    PolicyNotFoundError: (_NOT_FOUND, logging.INFO),
    WordListNotFoundError: (_NOT_FOUND, logging.INFO),
    UnknownGameError: (_NOT_FOUND, logging.INFO),
    # The caller sent a malformed or out-of-range value.
    InvalidWordError: (_INVALID, logging.INFO),
    UnknownWordError: (_INVALID, logging.INFO),
    InvalidReplyError: (_INVALID, logging.INFO),
    ImpossibleReplyError: (_INVALID, logging.INFO),
    HistoryTooLongError: (_INVALID, logging.INFO),
    InvalidHoneycombError: (_INVALID, logging.INFO),
    BadRequestError: (_INVALID, logging.INFO),
    MalformedRequestError: (_INVALID, logging.INFO),
    # Well-formed values that do not fit the game's state.
    ContradictoryHistoryError: (_FAILED, logging.INFO),
    GameOverError: (_FAILED, logging.INFO),
    # Load: the caller may retry later (with backoff) or send less.
    RequestTooLargeError: (_EXHAUSTED, logging.WARNING),
    CostLimitError: (_EXHAUSTED, logging.WARNING),
    TooManyCallsError: (_EXHAUSTED, logging.WARNING),
    ServiceUnavailableError: (grpc.StatusCode.UNAVAILABLE, logging.WARNING),
    # The server cannot do what it should: broken data, no live solver.
    PolicyFormatError: (grpc.StatusCode.INTERNAL, logging.ERROR),
    LiveAnswerUnavailableError: (grpc.StatusCode.UNIMPLEMENTED, logging.ERROR),
}


class ServerConfigError(GuessworkError, ValueError):
    """The server cannot start as configured: a bad address, a port in use, a bad TLS pair.

    Raised by create_server before anything is served, and never sent to a
    caller (so it has no row above); guesswork-serve prints it as one line.
    """


def status_for(error: BaseException) -> tuple[grpc.StatusCode, str, int]:
    """Return (status code, stable reason, log level) for ``error``."""
    for cls in type(error).__mro__:
        if issubclass(cls, GuessworkError) and cls in STATUS_TABLE:
            code, level = STATUS_TABLE[cls]
            return code, cls.reason, level
    return grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR


def rich_status(
    code: grpc.StatusCode, reason: str, message: str, metadata: dict[str, str] | None = None
) -> grpc.Status:
    """Return a status whose details carry an ErrorInfo with ``reason`` and ``metadata``."""
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=metadata))
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    return rpc_status.to_status(status)


class LogLimiter:
    """Lets through at most ``burst`` log lines per reason, then one per ``interval``
    seconds, and says how many it held back.

    A flood of bad requests (a fuzzer, a broken bot) then costs a few lines of
    log a second, not one (or a traceback) per request.
    """

    def __init__(self, burst: int = 20, interval: float = 1.0) -> None:
        self.burst, self.interval = burst, interval
        self._lock = threading.Lock()
        #: reason -> (tokens, time of the last refill, lines held back since the last one)
        self._state: dict[str, tuple[float, float, int]] = {}

    def reset(self) -> None:
        """Forget every reason's history (a full burst is allowed again)."""
        with self._lock:
            self._state.clear()

    def admit(self, reason: str) -> int | None:
        """Return None to hold a line back, else how many lines were held back before it."""
        now = time.monotonic()
        with self._lock:
            tokens, last, held = self._state.get(reason, (float(self.burst), now, 0))
            tokens = min(float(self.burst), tokens + (now - last) / self.interval)
            if tokens < 1:
                self._state[reason] = (tokens, now, held + 1)
                return None
            self._state[reason] = (tokens - 1, now, 0)
            return held


def describe(
    error: BaseException, method: str, limiter: LogLimiter
) -> tuple[grpc.StatusCode, str, str, dict[str, str] | None]:
    """Log ``error`` at its level (through ``limiter``, the server's) and return what a
    caller is told of it: (status code, stable reason, message, ErrorInfo metadata),
    each bounded; an unforeseen error is INTERNAL with a generic message."""
    code, reason, level = status_for(error)
    message = (
        "internal error; the server log has the details"
        if reason == INTERNAL_REASON
        else cut(str(error), MESSAGE_CHARACTERS)
    )
    held = limiter.admit(reason)
    if held is not None:
        suffix = f" ({held} similar lines held back)" if held else ""
        log.log(
            level,
            "%s -> %s %s: %s%s",
            method,
            code.name,
            reason,
            cut(str(error), MESSAGE_CHARACTERS),
            suffix,
            exc_info=level >= logging.ERROR,
        )
    metadata = error.metadata if isinstance(error, GuessworkError) else None
    if metadata:
        metadata = {key: cut(value, METADATA_CHARACTERS) for key, value in metadata.items()}
    return code, reason, message, metadata


def abort(
    context: grpc.ServicerContext, error: BaseException, method: str, limiter: LogLimiter
) -> NoReturn:
    """Log ``error`` (:func:`describe`) and end the call with its status, whose
    ErrorInfo carries the error's metadata (raises)."""
    code, reason, message, metadata = describe(error, method, limiter)
    context.abort_with_status(rich_status(code, reason, message, metadata))
    raise RuntimeError("abort_with_status returned")  # it raises; this tells type checkers


async def abort_async(
    context: grpc.aio.ServicerContext[Any, Any],
    error: BaseException,
    method: str,
    limiter: LogLimiter,
) -> NoReturn:
    """:func:`abort` for a call of the grpc.aio server (service.server): log ``error``
    and end the call with its status and ErrorInfo.

    Raises:
        grpc.aio.AbortError: always (how grpc.aio ends a call from its handler).
    """
    code, reason, message, metadata = describe(error, method, limiter)
    status = rich_status(code, reason, message, metadata)
    await context.abort(status.code, status.details, status.trailing_metadata)
    raise RuntimeError("abort returned")  # it raises; this tells type checkers
