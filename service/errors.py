"""The one place where errors become gRPC statuses.

Each error class maps to a canonical status code and a log level (the
caller's mistakes at INFO, broken data and bugs at ERROR). The status carries
a google.rpc.ErrorInfo whose ``reason`` is the error class's stable ``reason``
(client.errors) and whose domain is ``guesswork.v1``; client.remote turns the
reason back into the same error class.
"""

from __future__ import annotations

import logging

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from client.errors import (
    ContradictoryHistoryError,
    GameOverError,
    GuessworkError,
    HistoryTooLongError,
    InvalidHoneycombError,
    InvalidReplyError,
    InvalidWordError,
    PolicyFormatError,
    PolicyNotFoundError,
    RequestTooLargeError,
    ServiceUnavailableError,
    TooManyCallsError,
    UnknownGameError,
    UnknownWordError,
    WordListNotFoundError,
)

DOMAIN = "guesswork.v1"
log = logging.getLogger("guesswork.service")

#: Error class -> (status code, log level); the first matching class wins.
STATUS_TABLE: tuple[tuple[type[BaseException], grpc.StatusCode, int], ...] = (
    (PolicyNotFoundError, grpc.StatusCode.NOT_FOUND, logging.INFO),
    (UnknownGameError, grpc.StatusCode.NOT_FOUND, logging.INFO),
    (WordListNotFoundError, grpc.StatusCode.NOT_FOUND, logging.INFO),
    (InvalidHoneycombError, grpc.StatusCode.INVALID_ARGUMENT, logging.INFO),
    (InvalidReplyError, grpc.StatusCode.INVALID_ARGUMENT, logging.INFO),
    (InvalidWordError, grpc.StatusCode.INVALID_ARGUMENT, logging.INFO),
    (UnknownWordError, grpc.StatusCode.INVALID_ARGUMENT, logging.INFO),
    (HistoryTooLongError, grpc.StatusCode.INVALID_ARGUMENT, logging.INFO),
    (ContradictoryHistoryError, grpc.StatusCode.FAILED_PRECONDITION, logging.INFO),
    (GameOverError, grpc.StatusCode.FAILED_PRECONDITION, logging.INFO),
    (RequestTooLargeError, grpc.StatusCode.RESOURCE_EXHAUSTED, logging.WARNING),
    (TooManyCallsError, grpc.StatusCode.RESOURCE_EXHAUSTED, logging.WARNING),
    (ServiceUnavailableError, grpc.StatusCode.UNAVAILABLE, logging.WARNING),
    (PolicyFormatError, grpc.StatusCode.INTERNAL, logging.ERROR),
    (GuessworkError, grpc.StatusCode.INVALID_ARGUMENT, logging.INFO),
)


def status_for(error: BaseException) -> tuple[grpc.StatusCode, str, int]:
    """Return (status code, stable reason, log level) for ``error``."""
    for cls, code, level in STATUS_TABLE:
        if isinstance(error, cls):
            return code, str(getattr(error, "reason", "INVALID_ARGUMENT")), level
    return grpc.StatusCode.INTERNAL, "INTERNAL", logging.ERROR


def rich_status(code: grpc.StatusCode, reason: str, message: str) -> grpc.Status:
    """Return a status whose details carry an ErrorInfo with ``reason``."""
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN))
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    return rpc_status.to_status(status)


def abort(context: grpc.ServicerContext, error: BaseException, method: str) -> None:
    """Log ``error`` at its level and end the call with its status (raises)."""
    code, reason, level = status_for(error)
    message = (
        str(error)
        if code != grpc.StatusCode.INTERNAL or reason != "INTERNAL"
        else ("internal error; the server log has the details")
    )
    log.log(
        level, "%s -> %s %s: %s", method, code.name, reason, error, exc_info=level >= logging.ERROR
    )
    context.abort_with_status(rich_status(code, reason, message))
