"""A Python client for the lookup service, with deadlines and typed errors.

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
from .analysis import (
    EXACT,
    GREEDY_ESTIMATE,
    TREE,
    GameAnalysis,
    MoveAnalysis,
)
from .errors import GuessworkError, ServiceUnavailableError, error_for_reason
from .suggestion import LIVE, LIVE_GUESS_LIST, STORED, Suggestion

History = Sequence[tuple[str, str]]
#: The proto's Source values as answer sources (client.suggestion).
_SOURCES = {
    pb.SOURCE_STORED: STORED,
    pb.SOURCE_LIVE: LIVE,
    pb.SOURCE_LIVE_GUESS_LIST: LIVE_GUESS_LIST,
}

#: The proto's ValueSource values as analysed values' sources (client.analysis).
_VALUE_SOURCES = {
    pb.VALUE_SOURCE_EXACT: EXACT,
    pb.VALUE_SOURCE_TREE: TREE,
    pb.VALUE_SOURCE_GREEDY_ESTIMATE: GREEDY_ESTIMATE,
}


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

    @staticmethod
    def _turns(history: History) -> list[Any]:
        return [pb.Turn(guess=guess, reply=reply) for guess, reply in history]

    def list_policies(self, game: str = "") -> list[Any]:
        """Return the service's policies (pb.Policy messages), optionally of one game."""
        return list(self._call("ListPolicies", pb.ListPoliciesRequest(game=game)).policies)

    def get_policy(self, name: str) -> Any:
        """Return one policy (a pb.Policy message).

        Raises:
            PolicyNotFoundError: no such policy.
        """
        return self._call("GetPolicy", pb.GetPolicyRequest(name=name)).policy

    def suggest(self, policy: str, history: History = (), alternatives: int = 5) -> Suggestion:
        """Return the next guess for ``history`` under ``policy``.

        Raises:
            PolicyNotFoundError, InvalidReplyError, InvalidWordError,
            UnknownWordError, ContradictoryHistoryError, GameOverError,
            ServiceUnavailableError: as the service reports them.
        """
        response = self._call(
            "SuggestGuess",
            pb.SuggestGuessRequest(
                policy=policy, history=self._turns(history), max_alternatives=alternatives
            ),
        )
        return Suggestion(
            guess=response.guess,
            remaining=response.remaining,
            solved=response.solved,
            alternatives=tuple(response.alternatives),
            source=_SOURCES.get(response.source, STORED),
            turn=response.turn,
        )

    def score(self, policy: str, guess: str, target: str) -> tuple[str, int, bool]:
        """Return (reply text, reply code, solved) for ``guess`` against ``target``."""
        response = self._call(
            "ScoreGuess", pb.ScoreGuessRequest(policy=policy, guess=guess, target=target)
        )
        return response.reply, response.reply_code, response.solved

    def check(
        self, policy: str, history: History, guess: str, *, nyt: bool = False
    ) -> tuple[bool, str, int]:
        """Return (legal, reason, remaining) for ``guess`` under a hard-mode rule."""
        rule = pb.HARD_RULE_NYT if nyt else pb.HARD_RULE_CONSISTENT
        response = self._call(
            "CheckGuess",
            pb.CheckGuessRequest(
                policy=policy, history=self._turns(history), guess=guess, rule=rule
            ),
        )
        return response.legal, response.reason, response.remaining

    def evil_reply(self, policy: str, history: History, guess: str) -> tuple[str, int, int, bool]:
        """Return the Evil replier's (reply text, code, remaining, solved)."""
        response = self._call(
            "EvilReply",
            pb.EvilReplyRequest(policy=policy, history=self._turns(history), guess=guess),
        )
        return response.reply, response.reply_code, response.remaining, response.solved

    def analyze_game(self, policy: str, history: History, answer: str = "") -> GameAnalysis:
        """Return the analysis of a game (see client.analysis): give the client a
        timeout of a minute, as an analysis may take seconds.

        Raises:
            PolicyNotFoundError, InvalidReplyError, InvalidWordError,
            UnknownWordError, ContradictoryHistoryError, GameOverError,
            BadRequestError, ServiceUnavailableError: as the service reports them.
        """
        response = self._call(
            "AnalyzeGame",
            pb.AnalyzeGameRequest(policy=policy, history=self._turns(history), answer=answer),
        )
        moves = tuple(
            MoveAnalysis(
                turn=m.turn, guess=m.guess, reply=m.reply, legal=m.legal,
                remaining_before=m.remaining_before, remaining_after=m.remaining_after,
                best_guess=m.best_guess, best_expected=m.best_expected,
                best_source=_VALUE_SOURCES.get(m.best_source, GREEDY_ESTIMATE),
                expected=m.expected, source=_VALUE_SOURCES.get(m.source, GREEDY_ESTIMATE),
                skill=m.skill, luck=m.luck, expected_remaining=m.expected_remaining,
                best_expected_remaining=m.best_expected_remaining,
                best_remaining=m.best_remaining if m.HasField("best_remaining") else None,
            )
            for m in response.moves
        )  # fmt: skip
        return GameAnalysis(
            policy=response.policy.removeprefix("policies/"), mode=response.mode,
            answer=response.answer, solved=response.solved, moves=moves,
            expected_start=response.expected_start, expected_left=response.expected_left,
            lost_to_choices=response.lost_to_choices, gained_by_luck=response.gained_by_luck,
            skill=response.skill, luck=response.luck,
            off_list_policy=response.off_list_policy.removeprefix("policies/"),
            weights=response.weights,
        )  # fmt: skip

    def top_honeycombs(
        self, word_list: str = "enable1", allow_s: bool = False, count: int = 10
    ) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """Return (top honeycombs best first, search counts) for a stored word list.

        Each honeycomb is ``{"letters", "center", "score", "words", "pangrams"}``.
        """
        response = self._call(
            "TopHoneycombs",
            pb.TopHoneycombsRequest(word_list=word_list, allow_s=allow_s, count=count),
        )
        rows = [
            {"letters": h.letters, "center": h.center, "score": h.score, "words": h.words,
             "pangrams": h.pangrams}
            for h in response.honeycombs
        ]  # fmt: skip
        counts = {field.name: value for field, value in response.counts.ListFields()}
        return rows, counts

    def score_honeycomb(
        self, letters: str, center: str, word_list: str = "enable1", allow_s: bool = False
    ) -> dict[str, Any]:
        """Return a honeycomb's score, word and pangram lists, rank thresholds and hints.

        Raises:
            InvalidHoneycombError: bad letters or centre.
            WordListNotFoundError: the service has no such list.
        """
        response = self._call(
            "ScoreHoneycomb",
            pb.ScoreHoneycombRequest(
                letters=letters, center=center, word_list=word_list, allow_s=allow_s
            ),
        )
        grid: dict[str, dict[str, int]] = {}
        for cell in response.grid:
            grid.setdefault(cell.letter, {})[str(cell.length)] = cell.count
        return {
            "letters": response.honeycomb.letters,
            "center": response.honeycomb.center,
            "score": response.honeycomb.score,
            "words": list(response.words),
            "pangrams": list(response.pangrams),
            "ranks": {rank.name: rank.points for rank in response.ranks},
            "hints": {"grid": grid, "two_letter": dict(sorted(response.two_letter_starts.items()))},
        }

    def ping(self) -> None:
        """Do a no-op call (raises ServiceUnavailableError if the service is unreachable)."""
        self._call("Ping", pb.PingRequest())
