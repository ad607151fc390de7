"""One RPC's pipeline, whatever the transport: what every call of guesswork.v1.Guesswork
gets on its way in and out, shared by the gRPC handler (service.server) and the
HTTP/JSON adapter (service.web).

:class:`RpcMethod` admits the call under the concurrency limit (before any
work, even parsing), checks the request's enum values, answers from the
response cache or the servicer (service.servicer) and adds the policy a
failed call named to its error's metadata. Each transport parses the request
its own way (:func:`parse_request` for protobuf bytes) and turns errors into
its own statuses (service.errors).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import DecodeError, Message

from ..client.errors import (
    BadRequestError,
    GuessworkError,
    MalformedRequestError,
    RequestTooLargeError,
    TooManyCallsError,
)
from ..client.text import plural
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from .live_gate import CALL_ACTIVE
from .servicer import GuessworkServicer

#: The methods whose answers are kept in the response cache (service.cache).
CACHED_METHODS = frozenset(
    {
        "SuggestGuess",
        "SuggestBoards",
        "ScoreGuess",
        "CheckGuess",
        "EvilReply",
        "TopHoneycombs",
        "ScoreHoneycomb",
        "AnalyzeGame",
    }
)
log = logging.getLogger("guesswork.service")

#: The service's full name, "guesswork.v1.Guesswork".
SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["Guesswork"].full_name


def _bad_enum(message: Message, prefix: str = "") -> str | None:
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


def parse_request(request_type: type[Message], raw: bytes, method: str, limit: int) -> Message:
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


def _leading_name(raw: bytes) -> str:
    """Return the string in field 1 of the encoded message ``raw`` when the encoding
    starts with it (serializers write fields in number order), else "".

    For the errors of a request too large to decode: the policy it names, read
    without decoding the rest.
    """
    if not raw or raw[0] != 0x0A:  # field 1, length-delimited
        return ""
    length, shift, position = 0, 0, 1
    while position < len(raw) and position <= 5:
        byte = raw[position]
        length |= (byte & 0x7F) << shift
        position, shift = position + 1, shift + 7
        if not byte & 0x80:
            # Cut (it only feeds metadata, itself cut): a character split there is replaced.
            return raw[position : position + min(length, 1024)].decode("utf-8", "replace")
    return ""


def _check_enums(request: Message) -> None:
    """Raise BadRequestError if an enum field holds a value its enum does not define
    (proto3 keeps such values; they are not the default)."""
    field = _bad_enum(request)
    if field is not None:
        raise BadRequestError(
            f"{field} holds a value its enum does not define", metadata={"field": field}
        )


class RpcMethod:
    """The pipeline of one method of the service, for any transport."""

    def __init__(self, servicer: GuessworkServicer, method: MethodDescriptor) -> None:
        self.servicer = servicer
        self.name: str = method.name
        #: "/guesswork.v1.Guesswork/NAME", as gRPC and Connect address it.
        self.full_name = f"/{SERVICE_NAME}/{self.name}"
        self.request_type: type[Message] = getattr(pb, method.input_type.name)
        self.response_type: type[Message] = getattr(pb, method.output_type.name)
        #: The servicer's method of the same name: the request in, the response out.
        self._behaviour: Callable[[Message], Message] = getattr(servicer, self.name)
        #: No side effects (the proto's idempotency_level): Connect allows GET for it.
        self.no_side_effects = (
            method.GetOptions().idempotency_level
            == method.GetOptions().IdempotencyLevel.NO_SIDE_EFFECTS
        )
        # Ping does no work to protect: the baseline is never refused for load.
        self._limited: bool = self.name != "Ping"
        first = self.request_type.DESCRIPTOR.fields_by_number.get(1)
        # Every error of a call naming a policy carries "policy" (the proto's promise).
        self._names_policy = first is not None and first.name in ("policy", "name")

    @property
    def limited(self) -> bool:
        """Whether calls of this method take a place (:meth:`admit`); Ping does not."""
        return self._limited

    def admit(self, peer: str = "") -> None:
        """Take a place under --max-concurrent and, when ``peer`` (the client's address,
        :func:`peer_of`) is given, under its per-peer share; :meth:`release` with the
        same ``peer`` gives them back. Ping takes none.

        Raises:
            TooManyCallsError: every place is taken, or ``peer`` holds its whole
                share (metadata ``scope`` says which: "server" or "peer"; nothing
                is to be released).
        """
        if not self._limited:
            return
        servicer = self.servicer
        if peer and not servicer.peers.take(peer):
            share = servicer.peers.share
            raise TooManyCallsError(
                f"more than {plural(share, 'call')} at once from one address; retry later",
                metadata={"limit": share, "scope": "peer"},
            )
        if not servicer.slots.acquire(blocking=False):
            if peer:
                servicer.peers.give(peer)
            limit = servicer.options.max_concurrent
            raise TooManyCallsError(
                f"more than {plural(limit, 'call')} at once; retry later",
                metadata={"limit": limit, "scope": "server"},
            )

    def release(self, peer: str = "") -> None:
        """Give back the places :meth:`admit` took for ``peer``."""
        if self._limited:
            self.servicer.slots.release()
            if peer:
                self.servicer.peers.give(peer)

    def answer(self, request: Message, is_active: Callable[[], bool]) -> bytes:
        """Return the serialized response to ``request`` (from the cache where it is kept).

        ``is_active`` says whether the caller still waits: live work waiting
        at the gate is dropped once it has gone (service.live_gate).

        Raises:
            GuessworkError: the request is refused (service.errors maps it).
        """
        # A trace of each call the server has taken in (--log-level DEBUG): its method
        # and size only, never its content.
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s: answering a request of %d bytes", self.name, request.ByteSize())
        active = CALL_ACTIVE.set(is_active)
        try:
            _check_enums(request)
            if self.name not in CACHED_METHODS:
                return _serialize(self._behaviour(request))
            # Kept serialized: a tenth of a message object's memory, and a hit is
            # sent as it is (service.cache).
            key, cached = self.servicer.responses.get(self.name, request)
            if cached is None:
                cached = _serialize(self._behaviour(request))
                self.servicer.responses.put(key, cached)
            return cached
        finally:
            CALL_ACTIVE.reset(active)

    def name_policy(self, error: BaseException, request: Message | None, raw: bytes) -> None:
        """Add to ``error`` the policy the call named: the request's, or for a request
        too large or undecodable the name at the start of ``raw`` (protobuf bytes)."""
        if request is None:
            policy = _leading_name(raw) if self._names_policy else ""
        else:
            policy = getattr(request, "policy", "") or getattr(request, "name", "")
        if policy and isinstance(error, GuessworkError):
            error.add_metadata(policy=policy.removeprefix("policies/"))


def peer_of(peer: str) -> str:
    """Return the client address of a gRPC peer string (``ipv4:127.0.0.1:5000`` ->
    ``127.0.0.1``, ``ipv6:[::1]:5000`` -> ``::1``, ``unix:...`` -> ``unix``): the key
    of the per-peer share, so that every connection of one address counts together.

    An IPv4 address mapped into IPv6 counts as the IPv4 address it is.
    """
    scheme, _, rest = peer.partition(":")
    if scheme == "ipv6":
        host = rest.rpartition("]")[0].removeprefix("[") if rest.startswith("[") else rest
        return host.removeprefix("::ffff:")
    if scheme == "ipv4":
        return rest.rpartition(":")[0]
    return scheme  # unix sockets and anything unforeseen: one peer each kind


def _serialize(message: Message) -> bytes:
    data: bytes = message.SerializeToString()
    return data
