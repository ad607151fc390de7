"""A Python client for the lookup service, with deadlines and typed errors: the
application core (client.core.Guesswork) over gRPC.

    >>> from guesswork.client.remote import RemoteClient
    >>> with RemoteClient("127.0.0.1:50051") as remote:        # doctest: +SKIP
    ...     remote.suggest("wordle-2309-normal-neg-entropy", [("raise", ".Y...")]).guess
    'CLOUT'

Every call has a deadline (``timeout`` seconds, default 5). A failed call
raises the same error class the service raised (PolicyNotFoundError,
InvalidReplyError, ContradictoryHistoryError, ...), recovered from the
status's stable reason; an unreachable or stopping server raises
ServiceUnavailableError. A RemoteClient may be shared between threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ..protos.guesswork.v1 import guesswork_pb2 as pb
from ..protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from . import messages
from .analysis import GameAnalysis
from .core import (
    DEFAULT_ALTERNATIVES,
    DEFAULT_HONEYCOMBS,
    DEFAULT_WORD_LIST,
    RULE_CONSISTENT,
    EvilAnswer,
    GuessCheck,
    GuessScore,
    History,
    HoneycombReport,
)
from .errors import GuessworkError, ServiceUnavailableError, error_for_reason
from .multiboard import BoardsSuggestion
from .policy_info import PolicyInfo
from .spelling_bee import BeeTable
from .suggestion import Suggestion


def error_from_rpc(error: grpc.RpcError, timeout: float | None = None) -> GuessworkError:
    """Return the typed error a failed call stands for, with the ErrorInfo's metadata
    as its ``metadata`` (the turn, field, limit ... the proto lists per reason).

    A call whose deadline (``timeout`` seconds, when known) passed is a
    ServiceUnavailableError that says so and how to raise the deadline: the
    server may be up but slow (a first answer it computes live, a loaded machine).
    """
    code = error.code() if hasattr(error, "code") else None
    message = error.details() if hasattr(error, "details") else str(error)
    status = rpc_status.from_call(error) if hasattr(error, "trailing_metadata") else None
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return error_for_reason(info.reason)(message, metadata=dict(info.metadata))
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        after = f" after {timeout:g} s" if timeout is not None else ""
        return ServiceUnavailableError(
            f"deadline exceeded{after}: the service did not answer in time; raise the "
            f"deadline (--timeout SECONDS on the command line, RemoteClient(timeout=...))"
        )
    if code == grpc.StatusCode.UNAVAILABLE:
        return ServiceUnavailableError(f"service unavailable ({code.name}): {message}")
    return GuessworkError(f"{code.name if code else 'error'}: {message}")


class RemoteClient:
    """A connection to a Guesswork service."""

    def __init__(
        self, address: str, *, timeout: float = 5.0, root_certificates: bytes | None = None
    ) -> None:
        self.address = address
        self.timeout = timeout
        if root_certificates is None:
            self._channel = grpc.insecure_channel(address)
        else:
            credentials = grpc.ssl_channel_credentials(root_certificates)
            self._channel = grpc.secure_channel(address, credentials)
        # The generated stub is untyped (grpcio-tools writes no annotations for it).
        self._stub = pb_grpc.GuessworkStub(self._channel)  # type: ignore[no-untyped-call]

    def __enter__(self) -> RemoteClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel."""
        self._channel.close()

    def _call(self, method: str, request: Any) -> Any:
        try:
            return getattr(self._stub, method)(request, timeout=self.timeout)
        except grpc.RpcError as error:
            raise error_from_rpc(error, self.timeout) from None

    def policies(self, game: str = "") -> list[PolicyInfo]:
        """Return the service's policies' summaries, sorted by name (``game``: of that
        game only)."""
        response = self._call("ListPolicies", pb.ListPoliciesRequest(game=game))
        return [messages.policy_info(policy) for policy in response.policies]

    def policy_info(self, name: str) -> PolicyInfo:
        """Return one policy's summary.

        Raises:
            PolicyNotFoundError: no such policy.
        """
        return messages.policy_info(self._call("GetPolicy", pb.GetPolicyRequest(name=name)).policy)

    def suggest(
        self,
        policy: str,
        history: History = (),
        alternatives: int = DEFAULT_ALTERNATIVES,
        candidates: int = 0,
    ) -> Suggestion:
        """Return the next guess for ``history`` under ``policy``.

        Raises:
            PolicyNotFoundError, InvalidReplyError, InvalidWordError,
            UnknownWordError, ContradictoryHistoryError, GameOverError,
            ServiceUnavailableError: as the service reports them.
        """
        request = pb.SuggestGuessRequest(
            policy=policy, history=messages.turns(history), max_alternatives=alternatives
        )
        if candidates:  # absent: an older server is asked what it knows
            request.max_candidates = candidates
        return messages.suggestion(self._call("SuggestGuess", request))

    def suggest_boards(
        self,
        policy: str,
        boards: Sequence[History],
        alternatives: int = DEFAULT_ALTERNATIVES,
    ) -> BoardsSuggestion:
        """Return the next guess of a multi-board game (client.multiboard), one history
        per board.

        Raises:
            BadRequestError, and the errors of :meth:`suggest` (naming the board):
            as the service reports them.
        """
        request = pb.SuggestBoardsRequest(
            policy=policy, boards=messages.board_histories(boards), max_alternatives=alternatives
        )
        return messages.boards_suggestion(self._call("SuggestBoards", request))

    def score(self, policy: str, guess: str, target: str) -> GuessScore:
        """Return the reply ``guess`` gets when the secret is ``target``."""
        request = pb.ScoreGuessRequest(policy=policy, guess=guess, target=target)
        return messages.guess_score(self._call("ScoreGuess", request))

    def check(
        self, policy: str, history: History, guess: str, rule: str = RULE_CONSISTENT
    ) -> GuessCheck:
        """Return whether ``guess`` is allowed after ``history`` under a hard-mode ``rule``
        (client.core's RULE_CONSISTENT or RULE_NYT).

        Raises:
            BadRequestError: an unknown rule (before any call).
        """
        request = pb.CheckGuessRequest(
            policy=policy,
            history=messages.turns(history),
            guess=guess,
            rule=messages.rule_value(rule),
        )
        return messages.guess_check(self._call("CheckGuess", request))

    def evil_reply(self, policy: str, history: History, guess: str) -> EvilAnswer:
        """Return the Evil replier's reply to ``guess`` after ``history``."""
        request = pb.EvilReplyRequest(policy=policy, history=messages.turns(history), guess=guess)
        return messages.evil_answer(self._call("EvilReply", request))

    def analyze(self, policy: str, history: History, answer: str = "") -> GameAnalysis:
        """Return the analysis of a game (see client.analysis): give the client a
        timeout of a minute, as an analysis may take seconds.

        Raises:
            PolicyNotFoundError, InvalidReplyError, InvalidWordError,
            UnknownWordError, ContradictoryHistoryError, GameOverError,
            BadRequestError, ServiceUnavailableError: as the service reports them.
        """
        request = pb.AnalyzeGameRequest(
            policy=policy, history=messages.turns(history), answer=answer
        )
        return messages.game_analysis(self._call("AnalyzeGame", request))

    def top_honeycombs(
        self,
        word_list: str = DEFAULT_WORD_LIST,
        allow_s: bool = False,
        count: int = DEFAULT_HONEYCOMBS,
    ) -> BeeTable:
        """Return the ``count`` best honeycombs of a stored word list, best first, with
        the search's counts (the table's ``list_sha256`` is not sent: empty)."""
        request = pb.TopHoneycombsRequest(word_list=word_list, allow_s=allow_s, count=count)
        return messages.top_table(self._call("TopHoneycombs", request), word_list, allow_s)

    def score_honeycomb(
        self, letters: str, center: str, word_list: str = DEFAULT_WORD_LIST, allow_s: bool = False
    ) -> HoneycombReport:
        """Return a honeycomb's score, word and pangram lists, rank thresholds and hints.

        Raises:
            InvalidHoneycombError: bad letters or centre.
            WordListNotFoundError: the service has no such list.
        """
        request = pb.ScoreHoneycombRequest(
            letters=letters, center=center, word_list=word_list, allow_s=allow_s
        )
        return messages.honeycomb_report(self._call("ScoreHoneycomb", request))

    def ping(self) -> None:
        """Do a no-op call (raises ServiceUnavailableError if the service is unreachable)."""
        self._call("Ping", pb.PingRequest())
