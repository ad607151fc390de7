"""The gRPC servicer: the application core's adapter to the ``guesswork.v1`` contract.

Each method parses its request into the arguments of client.core's
Guesswork, asks the :class:`~guesswork.service.local.LocalGuesswork` loaded
now, and writes the answer as its response; both mappings are
client.messages'. What every call gets on the way in and out (the
concurrency and size limits, parsing, the response cache, errors as status
codes) is the transport's, in service.server.
"""

from __future__ import annotations

import threading

import grpc

from ..client import messages
from ..client.core import DEFAULT_ALTERNATIVES, DEFAULT_HONEYCOMBS
from ..client.errors import ServiceUnavailableError
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from ..protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from .admission import PeerShares
from .cache import ResponseCache
from .errors import LogLimiter
from .live_gate import LiveGate
from .local import LocalGuesswork
from .options import ServerOptions


class GuessworkServicer(pb_grpc.GuessworkServicer):
    """Answers each call with the catalog loaded now (see :meth:`load`)."""

    def __init__(self, options: ServerOptions) -> None:
        #: What answers now, replaced as one value so that a call sees one catalog.
        self._loaded: LocalGuesswork | None = None
        self.options = options
        #: One per call in progress, up to options.max_concurrent (service.server).
        self.slots = threading.BoundedSemaphore(options.max_concurrent)
        #: Each client address's places, up to its share of them (service.admission).
        self.peers = PeerShares(options.peer_share)
        self.responses = ResponseCache(options.cache_entries)
        #: Holds back log lines of errors beyond a few a second per reason.
        self.log_limiter = LogLimiter()
        #: Admits options.max_live live computations at once, across catalog reloads.
        self.live = LiveGate(options.max_live)

    def load(self, answers: LocalGuesswork) -> None:
        """Answer with ``answers`` from now on (calls before the first load get UNAVAILABLE).

        A later load swaps the catalog atomically, then empties the response
        cache (in that order: an answer cached after the clear is the new
        catalog's; see ResponseCache.clear).
        """
        first = self._loaded is None
        self._loaded = answers
        if not first:
            self.responses.clear()

    @property
    def answers(self) -> LocalGuesswork:
        """Return what answers now.

        Raises:
            ServiceUnavailableError: no catalog is loaded yet.
        """
        loaded = self._loaded
        if loaded is None:
            raise ServiceUnavailableError("the catalog is still loading; retry shortly")
        return loaded

    def ListPolicies(  # noqa: N802 (the contract's method names)
        self, request: pb.ListPoliciesRequest, context: grpc.ServicerContext
    ) -> pb.ListPoliciesResponse:
        infos = self.answers.policies(request.game)
        return pb.ListPoliciesResponse(policies=[messages.policy_message(i) for i in infos])

    def GetPolicy(  # noqa: N802
        self, request: pb.GetPolicyRequest, context: grpc.ServicerContext
    ) -> pb.GetPolicyResponse:
        info = self.answers.policy_info(request.name)
        return pb.GetPolicyResponse(policy=messages.policy_message(info))

    def SuggestGuess(  # noqa: N802
        self, request: pb.SuggestGuessRequest, context: grpc.ServicerContext
    ) -> pb.SuggestGuessResponse:
        alternatives = (
            request.max_alternatives
            if request.HasField("max_alternatives")
            else DEFAULT_ALTERNATIVES
        )
        history = messages.history(request.history)
        # Absent: none listed, so a client that never asks pays nothing for them.
        candidates = request.max_candidates if request.HasField("max_candidates") else 0
        answer = self.answers.suggest(request.policy, history, alternatives, candidates)
        return messages.suggestion_message(answer)

    def SuggestBoards(  # noqa: N802
        self, request: pb.SuggestBoardsRequest, context: grpc.ServicerContext
    ) -> pb.SuggestBoardsResponse:
        alternatives = (
            request.max_alternatives
            if request.HasField("max_alternatives")
            else DEFAULT_ALTERNATIVES
        )
        answer = self.answers.suggest_boards(
            request.policy, messages.boards(request.boards), alternatives
        )
        return messages.boards_suggestion_message(answer)

    def ScoreGuess(  # noqa: N802
        self, request: pb.ScoreGuessRequest, context: grpc.ServicerContext
    ) -> pb.ScoreGuessResponse:
        score = self.answers.score(request.policy, request.guess, request.target)
        return messages.score_message(score)

    def CheckGuess(  # noqa: N802
        self, request: pb.CheckGuessRequest, context: grpc.ServicerContext
    ) -> pb.CheckGuessResponse:
        history, rule = messages.history(request.history), messages.rule(request.rule)
        return messages.check_message(
            self.answers.check(request.policy, history, request.guess, rule)
        )

    def EvilReply(  # noqa: N802
        self, request: pb.EvilReplyRequest, context: grpc.ServicerContext
    ) -> pb.EvilReplyResponse:
        history = messages.history(request.history)
        return messages.evil_message(
            self.answers.evil_reply(request.policy, history, request.guess)
        )

    def AnalyzeGame(  # noqa: N802
        self, request: pb.AnalyzeGameRequest, context: grpc.ServicerContext
    ) -> pb.AnalyzeGameResponse:
        history = messages.history(request.history)
        analysis = self.answers.analyze(request.policy, history, request.answer)
        return messages.analysis_message(analysis)

    def Ping(  # noqa: N802
        self, request: pb.PingRequest, context: grpc.ServicerContext
    ) -> pb.PingResponse:
        return pb.PingResponse()

    def TopHoneycombs(  # noqa: N802
        self, request: pb.TopHoneycombsRequest, context: grpc.ServicerContext
    ) -> pb.TopHoneycombsResponse:
        count = request.count or DEFAULT_HONEYCOMBS
        table = self.answers.top_honeycombs(request.word_list, request.allow_s, count)
        return messages.top_message(table)

    def ScoreHoneycomb(  # noqa: N802
        self, request: pb.ScoreHoneycombRequest, context: grpc.ServicerContext
    ) -> pb.ScoreHoneycombResponse:
        report = self.answers.score_honeycomb(
            request.letters, request.center, request.word_list, request.allow_s
        )
        return messages.honeycomb_message(report)
