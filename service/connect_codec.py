"""The Connect protocol's unary codec: what an HTTP call's headers and bytes mean.

service.web owns the HTTP edge (Starlette: routes, requests, responses); this
module is the part of the Connect protocol (connectrpc.com/docs/protocol) no
framework knows: the codec a Content-Type names (:func:`codec_of`), the
protocol version (:func:`check_version`), ``Connect-Timeout-Ms``
(:func:`timeout_of`), a compressed body (:func:`decompressed`), a GET call's
``message`` query (:func:`query_message`: ``encoding``, ``base64``,
``compression``, ``connect``), and a JSON body as the request message
(:func:`json_text`, :func:`json_message`), with the errors Connect clients
expect: a refusal of the protocol itself is a :class:`ConnectRefusalError` (an HTTP
status and a Connect code, no reason), a bad message one of our reasoned
errors (client.errors).
"""

from __future__ import annotations

import base64
import binascii
import json
import urllib.parse
import zlib

from google.protobuf import json_format
from google.protobuf.message import Message

from ..client.errors import BadRequestError, MalformedRequestError, RequestTooLargeError
from ..client.text import cut, shown

#: The codecs served, by the name a Content-Type (``application/NAME``) or a GET's
#: ``encoding`` gives: Connect's JSON and binary protobuf.
CODECS = ("json", "proto")
#: The request compressions understood (Content-Encoding, a GET's ``compression``).
COMPRESSIONS = ("gzip", "identity")
#: The most digits Connect-Timeout-Ms may have (the protocol's rule).
TIMEOUT_DIGITS = 10


class ConnectRefusalError(Exception):
    """A refusal of the protocol itself: an HTTP status, a Connect code and a message,
    and no ErrorInfo (no reason of the service's applies); ``allow`` is the Allow
    header of a 405, ``close`` asks for the connection to be closed."""

    def __init__(
        self, status: int, code: str, message: str, allow: str = "", close: bool = False
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.allow, self.close = status, code, allow, close


def codec_of(content_type: str) -> str:
    """Return the codec ("json" or "proto") of a unary call's Content-Type.

    Raises:
        ConnectRefusalError: 415, another content type (the protocol's answer).
    """
    kind = content_type.split(";")[0].strip().lower()
    codec = kind.removeprefix("application/")
    if kind.startswith("application/") and codec in CODECS:
        return codec
    raise ConnectRefusalError(
        415,
        "unimplemented",
        "send the request as JSON (Content-Type: application/json) or binary "
        "protobuf (application/proto)",
    )


def check_version(value: str | None) -> None:
    """Accept a call's Connect-Protocol-Version (none, or 1).

    Raises:
        ConnectRefusalError: another version.
    """
    if value is not None and value != "1":
        raise ConnectRefusalError(400, "invalid_argument", "Connect-Protocol-Version must be 1")


def timeout_of(value: str | None) -> float | None:
    """Return the seconds a Connect-Timeout-Ms header allows (None: no header, no limit).

    Raises:
        BadRequestError: not 1 to 10 ASCII digits (a timeout the client meant, but that
            would be ignored, is refused instead).
    """
    if value is None:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= TIMEOUT_DIGITS):
        raise BadRequestError(
            f"Connect-Timeout-Ms must be milliseconds, at most {TIMEOUT_DIGITS} digits, "
            f"not {shown(value)}",
            metadata={"field": "connect-timeout-ms"},
        )
    return int(value) / 1000


def decompressed(data: bytes, encoding: str, limit: int) -> bytes:
    """Return ``data`` decompressed by its ``encoding`` (gzip or identity), at most
    ``limit`` bytes however well it compresses; empty data is never decompressed
    (the protocol's rule: an empty gzip message is the empty message).

    Raises:
        ConnectRefusalError: 501 unimplemented, another compression (the supported listed).
        MalformedRequestError: not one whole gzip stream.
        RequestTooLargeError: over ``limit`` bytes decompressed.
    """
    name = encoding.strip().lower() or "identity"
    if name not in COMPRESSIONS:
        raise ConnectRefusalError(
            501, "unimplemented", f"compression {shown(name)}: gzip or identity only"
        )
    if name == "identity" or not data:
        return data
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        plain = inflater.decompress(data, limit + 1)
    except zlib.error:
        raise MalformedRequestError(
            "the message is not gzip data", metadata={"field": "body"}
        ) from None
    if len(plain) > limit or inflater.unconsumed_tail:
        raise RequestTooLargeError(
            f"request of more than {limit} bytes, decompressed", metadata={"limit": str(limit)}
        )
    if not inflater.eof or inflater.unused_data:
        # A stream cut before its trailer (its checksum unchecked), or bytes after it.
        raise MalformedRequestError(
            "the message is not one whole gzip stream", metadata={"field": "body"}
        )
    return plain


def query_message(query: bytes, body_limit: int) -> tuple[bytes, str]:
    """Return a GET call's ``message`` parameter as bytes (decoded and decompressed),
    and its codec.

    Raises:
        ConnectRefusalError: 415 another ``encoding``; 501 another ``compression``; 400
            another ``connect`` version.
        MalformedRequestError: a parameter is not what Connect defines.
        RequestTooLargeError: the message is over ``body_limit`` characters, or bytes
            decompressed.
    """
    try:
        params = urllib.parse.parse_qs(query.decode("ascii"), strict_parsing=False, errors="strict")
    except (UnicodeError, ValueError):
        raise MalformedRequestError("the query string is not ASCII URL-encoding") from None
    version = params.get("connect", ["v1"])[0]
    if version != "v1":
        raise ConnectRefusalError(400, "invalid_argument", "connect must be v1")
    encoding = params.get("encoding", ["json"])[0]
    if encoding not in CODECS:
        raise ConnectRefusalError(
            415, "unimplemented", f"encoding {shown(encoding)} is not served: json or proto"
        )
    compression = params.get("compression", ["identity"])[0] or "identity"
    message = params.get("message", ["{}" if encoding == "json" else ""])[0]
    if len(message) > body_limit:
        raise RequestTooLargeError(
            f"request of {len(message)} bytes exceeds {body_limit}",
            metadata={"limit": str(body_limit), "value": str(len(message))},
        )
    if params.get("base64", ["0"])[0] == "1":
        try:
            # validate: a character outside base64url is refused, where the default
            # decoder dropped it ("!!!!" decoded as an empty request).
            padded = message + "=" * (-len(message) % 4)
            data = base64.b64decode(padded, altchars=b"-_", validate=True)
        except (binascii.Error, ValueError):
            raise MalformedRequestError("the message is not base64url") from None
        # Connect-ES compresses a GET message past 1 KiB: base64url of gzip bytes.
        return decompressed(data, compression, body_limit), encoding
    if encoding == "proto" or compression != "identity":
        decompressed(b"", compression, body_limit)  # another compression: unimplemented
        raise MalformedRequestError("a binary or compressed GET message needs base64=1")
    return message.encode("utf-8"), encoding


def json_text(data: bytes) -> str:
    """Return a JSON body as text.

    Raises:
        MalformedRequestError: it is not UTF-8.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedRequestError(
            f"the request body is not UTF-8 (byte {error.start})", metadata={"field": "body"}
        ) from None


def json_message(text: str, request_type: type[Message], limit: int) -> Message:
    """Return the request message of JSON ``text``, within ``limit`` bytes encoded.

    Raises:
        MalformedRequestError: not JSON of ``request_type`` (unknown fields included).
        RequestTooLargeError: its protobuf encoding is over ``limit`` bytes.
    """
    request = request_type()
    try:
        value = json.loads(text or "{}")
        if not isinstance(value, dict):
            raise ValueError(f"a JSON object is expected, not {type(value).__name__}")
        # A lone surrogate ("\ud800") is valid JSON but no Unicode text: protobuf's C
        # code failed on it with a SystemError (a 500). UnicodeEncodeError is a ValueError.
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        json_format.ParseDict(value, request, ignore_unknown_fields=False)
    except (json_format.ParseError, ValueError, RecursionError) as error:
        problem = cut(" ".join(str(error).split()), 200)  # one line
        raise MalformedRequestError(
            f"the body is not JSON of {request_type.DESCRIPTOR.full_name}: {problem}",
            metadata={"field": "body"},
        ) from None
    size = request.ByteSize()
    if size > limit:
        raise RequestTooLargeError(
            f"request of {size} bytes exceeds {limit}",
            metadata={"limit": str(limit), "value": str(size)},
        )
    return request
