"""The Connect protocol's request codec: what an HTTP call's bytes mean as a request.

service.web owns the HTTP edge (paths, methods, bodies, limits, answers); this
module turns a body or a GET query into the request message, with the errors
Connect clients expect: a JSON body as text (:func:`json_text`), JSON as the
request message (:func:`json_message`), and a GET call's ``message`` parameter
(:func:`query_message`, ``encoding``, ``base64`` and ``compression`` as Connect
defines them).
"""

from __future__ import annotations

import base64
import binascii
import json
import urllib.parse

from google.protobuf import json_format
from google.protobuf.message import Message

from ..client.errors import MalformedRequestError, RequestTooLargeError
from ..client.text import cut, shown


def query_message(query: bytes, body_limit: int) -> tuple[bytes, str]:
    """Return a GET call's ``message`` parameter as bytes, and its codec.

    Raises:
        MalformedRequestError: a parameter is missing or not what Connect defines.
        RequestTooLargeError: the message is over ``body_limit`` characters.
    """
    try:
        params = urllib.parse.parse_qs(query.decode("ascii"), strict_parsing=False, errors="strict")
    except (UnicodeError, ValueError):
        raise MalformedRequestError("the query string is not ASCII URL-encoding") from None
    encoding = params.get("encoding", ["json"])[0]
    if encoding not in ("json", "proto"):
        raise MalformedRequestError(f"encoding {shown(encoding)} is not served: json or proto")
    if "compression" in params and params["compression"][0] not in ("", "identity"):
        raise MalformedRequestError("compressed GET messages are not served")
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
            return base64.b64decode(padded, altchars=b"-_", validate=True), encoding
        except (binascii.Error, ValueError):
            raise MalformedRequestError("the message is not base64url") from None
    if encoding == "proto":
        raise MalformedRequestError("a binary GET message needs base64=1")
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
