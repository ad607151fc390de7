"""The Guesswork error hierarchy: every error a library user or service client can see.

Every error derives from :class:`GuessworkError`, so a caller that wants to
catch "anything Guesswork refused" needs one ``except``. Errors caused by bad
input also derive from ``ValueError`` (or ``KeyError`` for lookups that
miss), so generic code that already catches those keeps working. Errors only
the builder raises are in ``guesswork.builder.errors``.

A class that the service can send defines its own stable ``reason``; the
service maps each such class to a gRPC status code in one table
(``guesswork.service.errors.STATUS_TABLE``), and anything else, a bare
:class:`GuessworkError` included, goes out as INTERNAL with reason
``INTERNAL``. The reasons here, the table and the list in
``protos/guesswork/v1/guesswork.proto`` are kept equal by a test.
"""

from __future__ import annotations

from collections.abc import Mapping


class GuessworkError(Exception):
    """Base class of every error raised by Guesswork.

    ``metadata`` holds machine-readable facts about the fault (string keys
    and values), the same the service sends in its ErrorInfo: ``turn`` (the
    1-based number of the offending turn), ``field`` (the request field at
    fault, e.g. ``history[1].reply``), ``limit`` and ``value`` (a limit that
    was passed and the value that passed it), ``policy``, ``word``. The keys
    each reason sets are listed in protos/guesswork/v1/guesswork.proto.
    """

    #: Stable machine-readable reason, sent by the service in its error details.
    #: Classes the service can send define their own; the rest are unexpected there.
    reason = "INTERNAL"

    def __init__(self, *args: object, metadata: Mapping[str, object] | None = None) -> None:
        super().__init__(*args)
        self.metadata: dict[str, str] = {key: str(value) for key, value in (metadata or {}).items()}

    def add_metadata(self, **facts: object) -> None:
        """Record ``facts`` that are not recorded yet (the innermost raiser knows best)."""
        for key, value in facts.items():
            self.metadata.setdefault(key, str(value))


class InvalidWordError(GuessworkError, ValueError):
    """A word is not valid for a game (wrong length, non-letters, repeats)."""

    reason = "INVALID_WORD"


class InvalidReplyError(GuessworkError, ValueError):
    """A reply text cannot be parsed, or describes an impossible reply."""

    reason = "INVALID_REPLY"


class ImpossibleReplyError(InvalidReplyError):
    """A well-formed reply that no target could produce (e.g. four greens and a yellow)."""

    reason = "IMPOSSIBLE_REPLY"


class UnknownWordError(GuessworkError, ValueError):
    """A word is valid for the game but not in the policy's word lists."""

    reason = "UNKNOWN_WORD"


class ContradictoryHistoryError(GuessworkError, ValueError):
    """No target of the list gives every reply of a history."""

    reason = "CONTRADICTORY_HISTORY"


class UnknownGameError(GuessworkError, KeyError):
    """No game is registered under the requested id."""

    reason = "UNKNOWN_GAME"

    def __str__(self) -> str:  # KeyError would quote the message.
        return str(self.args[0]) if self.args else ""


class PolicyError(GuessworkError):
    """Base class of errors about policies, catalogs and walking a policy."""


class PolicyNotFoundError(PolicyError, KeyError):
    """No policy of that name is in the catalog."""

    reason = "POLICY_NOT_FOUND"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class OffTreeError(PolicyError, KeyError):
    """A history leaves the stored tree (another guess, or a reply it never gets).

    A ``KeyError``, like a miss in a mapping: ``get_next_guess`` returns a
    default instead, and the service computes an answer live.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class GameOverError(PolicyError, ValueError):
    """The history already ends with the winning reply: there is no next guess."""

    reason = "GAME_OVER"


class PolicyFormatError(PolicyError):
    """A catalog or policy file is corrupt, truncated, crafted or of another version."""

    reason = "BAD_POLICY_DATA"


# The kinds of PolicyFormatError a policy-file reader tells apart. The
# conformance vectors (tests/vectors) name them, so a reader in any language
# can check that it refuses each damaged file for the right cause.


class NotAPolicyFileError(PolicyFormatError):
    """The bytes are not a Guesswork policy file or core (too short, wrong magic)."""


class UnsupportedVersionError(PolicyFormatError):
    """A file or core format version this reader does not read (newer, or unknown)."""


class CorruptFileError(PolicyFormatError):
    """The file's bytes are damaged: a length or checksum that does not match."""


class MalformedPolicyError(PolicyFormatError):
    """Intact bytes that do not decode to a well-formed policy (bad msgpack, a missing
    or mistyped field, tree arrays that do not form a tree)."""


class InconsistentPolicyError(PolicyFormatError):
    """A well-formed policy that contradicts itself: a content hash that does not
    match, a tree whose replies, targets or statistics disagree with the game's rules."""


class ProverUnavailableError(PolicyError):
    """A policy from outside must be proven before it is served (client.trust) and no
    proof can be made: this installation's metadata names no prover (an install
    older than its ``guesswork.prover`` entry point: install guesswork-solver again).
    The policy is refused, never served unproven."""


class InvalidHoneycombError(GuessworkError, ValueError):
    """A honeycomb is not seven distinct allowed letters with its centre among them."""

    reason = "INVALID_HONEYCOMB"


class WordListNotFoundError(GuessworkError, KeyError):
    """No word list of that name is stored in the catalog."""

    reason = "WORD_LIST_NOT_FOUND"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class HistoryTooLongError(GuessworkError, ValueError):
    """A history has more turns than any game of the policy can last."""

    reason = "HISTORY_TOO_LONG"


class RequestTooLargeError(GuessworkError):
    """A request is larger than the service accepts."""

    reason = "REQUEST_TOO_LARGE"


class CostLimitError(GuessworkError):
    """A request would cost more work than the service does for one call (its
    metadata: ``limit`` and ``cost``, in the work unit the message names); send a
    smaller request (fewer or further-played boards, a policy of fewer words)."""

    reason = "COST_LIMIT"


class TooManyCallsError(GuessworkError):
    """The service is at its concurrency limit; retry with backoff."""

    reason = "TOO_MANY_CALLS"


class ServiceUnavailableError(GuessworkError):
    """The service is not serving (starting, shutting down or unreachable)."""

    reason = "UNAVAILABLE"


class BadRequestError(GuessworkError, ValueError):
    """A request field is out of range or does not apply to the policy asked."""

    reason = "BAD_REQUEST"


class MalformedRequestError(BadRequestError):
    """The bytes of a request are not a valid message of the method's request type."""

    reason = "MALFORMED_REQUEST"


class LiveAnswerUnavailableError(PolicyError, KeyError):
    """The history left the stored tree and no live solver was given to answer it.

    Embedding code that has only ``guesswork.client`` can catch this (a
    ``KeyError``) and fall back; ``guesswork.service.local`` supplies a solver.
    """

    reason = "LIVE_ANSWER_UNAVAILABLE"


class GuessMyWordError(GuessworkError, ValueError):
    """A Guess My Word tree, list and variant that do not fit together, or a bad argument."""


class UsageError(GuessworkError):
    """A command-line option is malformed, or options contradict each other (exit status 2).

    Raised by the ``guesswork`` and ``guesswork-build`` command lines alike.
    """


def error_for_reason(reason: str) -> type[GuessworkError]:
    """Return the error class whose ``reason`` is ``reason`` (GuessworkError if none)."""
    pending: list[type[GuessworkError]] = [GuessworkError]
    while pending:
        cls = pending.pop()
        if cls.__dict__.get("reason") == reason and cls is not GuessworkError:
            return cls
        pending.extend(cls.__subclasses__())
    return GuessworkError


def reason_of(error: BaseException) -> str:
    """Return the stable machine-readable reason of ``error``, as the command lines'
    ``--json`` errors give it.

    That is the reason of the nearest class of its ancestry that defines one
    (an ``ImpossibleReplyError`` gives ``IMPOSSIBLE_REPLY``), as the service
    would send it; for an error with none of its own (a usage error, an error
    only the builder raises), its class name in upper snake case without
    ``Error``: ``USAGE``, ``WORD_LIST``, ``CATALOG_WRITE``. A bare
    :class:`GuessworkError` gives ``INTERNAL``.

    >>> reason_of(ImpossibleReplyError("x")), reason_of(UsageError("x"))
    ('IMPOSSIBLE_REPLY', 'USAGE')
    """
    for cls in type(error).__mro__:
        if cls is GuessworkError:
            break
        if "reason" in cls.__dict__:
            return str(cls.__dict__["reason"])
    if type(error) is GuessworkError:
        return GuessworkError.reason
    name = type(error).__name__.removesuffix("Error") or type(error).__name__
    return "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(name)).upper()
