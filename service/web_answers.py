"""What the HTTP edge (service.web) answers, and what the log says of it.

A call's answer is its response message in the request's codec
(:func:`message_response`); an error is Connect's JSON error
(:func:`error_body`) with the HTTP status of its code (:data:`HTTP_STATUS`):
our errors with their ErrorInfo (:func:`error_response`, logged through the
server's LogLimiter by service.errors.describe, as gRPC's are), the
protocol's own refusals without (:func:`refusal_response`). uvicorn's own
log lines that a client can cause (a malformed request, an Upgrade header, a
task cut at shutdown) go through the same limiter (:class:`ThrottledLog`).
"""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from starlette.responses import Response

from ..client.messages import json_text
from .connect_codec import COMPRESSIONS, ConnectRefusalError
from .errors import DOMAIN, LogLimiter, describe

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
JSON = "application/json"
#: Sent with every call's answer: the request compressions understood (a unary
#: response's Accept-Encoding, in the protocol).
ACCEPTED = {"accept-encoding": ", ".join(name for name in COMPRESSIONS if name != "identity")}


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


def error_response(
    error: BaseException, method: str, limiter: LogLimiter, close: bool = False
) -> Response:
    """Return the answer of an error of a call of ``method`` (its full name), logged
    as gRPC's are (service.errors.describe); ``close`` closes the connection after."""
    code, reason, message, metadata = describe(error, method, limiter)
    name = connect_code(code)
    headers = {"connection": "close"} if close else {}
    body = error_body(name, message, reason, metadata)
    return Response(body, HTTP_STATUS[name], headers, JSON)


def refusal_response(refusal: ConnectRefusalError, status: int | None = None) -> Response:
    """Return the answer of a refusal of the protocol (no reason, nothing logged: a
    client's mistake the answer tells it of), with ``status`` instead of its own
    when given."""
    headers = {"allow": refusal.allow} if refusal.allow else {}
    if refusal.close:
        headers["connection"] = "close"
    body = error_body(refusal.code, str(refusal))
    return Response(body, status or refusal.status, headers, JSON)


def message_response(raw: bytes, codec: str, response_type: type[Message]) -> Response:
    """Return a call's answer: ``raw`` (the serialized response) in ``codec``."""
    if codec == "proto":
        return Response(raw, 200, ACCEPTED, "application/proto")
    body = json_text(response_type.FromString(raw)).encode()  # --json's JSON too
    return Response(body, 200, ACCEPTED, JSON)


class ThrottledLog(logging.Filter):
    """Passes uvicorn's log lines through the server's LogLimiter, one reason per
    line format: a client can cause them (a malformed request, an Upgrade header,
    an application error's traceback, a body cut at shutdown), so a flood of such
    clients costs a few lines a second, not one (or a traceback) each."""

    #: uvicorn's advice after each unsupported Upgrade: WebSockets are off by choice.
    DROPPED = "No supported WebSocket library detected"

    def __init__(self, limiter: LogLimiter) -> None:
        super().__init__()
        self.limiter = limiter

    def filter(self, record: logging.LogRecord) -> bool:
        """Return whether ``record`` is written; say how many like it were held back."""
        text = str(record.msg)
        if text.startswith(self.DROPPED):
            return False
        held = self.limiter.admit(f"uvicorn: {text}")
        if held is None:
            return False
        if held:
            record.msg = f"{text} ({held} similar lines held back)"
        return True
