"""The servicer: the application core's adapter to the ``guesswork.v1`` contract.

Each method parses its request into the arguments of client.core's
Guesswork, asks the :class:`~guesswork.service.local.LocalGuesswork` loaded
now, and writes the answer as its response; both mappings are
client.messages'. A method takes the request alone: the pipeline that calls
it (service.calls) is the same for every transport and has no transport's
context; what a call gets on the way in and out (the concurrency and size
limits, parsing, the response cache, errors as status codes) is the
transports', in service.server (gRPC: the one place a grpc.ServicerContext
is seen) and service.web (HTTP).
"""

from __future__ import annotations

import threading

from ..client import messages
from ..client.core import DEFAULT_ALTERNATIVES, DEFAULT_HONEYCOMBS
from ..client.errors import ServiceUnavailableError
from ..protos.guesswork.v1 import guesswork_pb2 as pb
from .admission import PeerShares
from .cache import ResponseCache
from .errors import LogLimiter
from .live_gate import LiveGate
from .local import LocalGuesswork
from .options import ServerOptions


class GuessworkServicer:
    """Answers each call with the catalog loaded now (see :meth:`load`): one method per
    method of the contract, named as there, each taking its request message and
    returning its response message."""

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

    # Named as the contract's methods are (hence N802).
    def ListPolicies(self, request: pb.ListPoliciesRequest) -> pb.ListPoliciesResponse:  # noqa: N802
        infos = self.answers.policies(request.game)
        return pb.ListPoliciesResponse(policies=[messages.policy_message(i) for i in infos])

    def GetPolicy(self, request: pb.GetPolicyRequest) -> pb.GetPolicyResponse:  # noqa: N802
        info = self.answers.policy_info(request.name)
        return pb.GetPolicyResponse(policy=messages.policy_message(info))

    def SuggestGuess(self, request: pb.SuggestGuessRequest) -> pb.SuggestGuessResponse:  # noqa: N802
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

    def SuggestBoards(self, request: pb.SuggestBoardsRequest) -> pb.SuggestBoardsResponse:  # noqa: N802
        alternatives = (
            request.max_alternatives
            if request.HasField("max_alternatives")
            else DEFAULT_ALTERNATIVES
        )
        answer = self.answers.suggest_boards(
            request.policy, messages.boards(request.boards), alternatives
        )
        return messages.boards_suggestion_message(answer)

    def ScoreGuess(self, request: pb.ScoreGuessRequest) -> pb.ScoreGuessResponse:  # noqa: N802
        score = self.answers.score(request.policy, request.guess, request.target)
        return messages.score_message(score)

    def CheckGuess(self, request: pb.CheckGuessRequest) -> pb.CheckGuessResponse:  # noqa: N802
        history, rule = messages.history(request.history), messages.rule(request.rule)
        return messages.check_message(
            self.answers.check(request.policy, history, request.guess, rule)
        )

    def EvilReply(self, request: pb.EvilReplyRequest) -> pb.EvilReplyResponse:  # noqa: N802
        history = messages.history(request.history)
        return messages.evil_message(
            self.answers.evil_reply(request.policy, history, request.guess)
        )

    def AnalyzeGame(self, request: pb.AnalyzeGameRequest) -> pb.AnalyzeGameResponse:  # noqa: N802
        history = messages.history(request.history)
        analysis = self.answers.analyze(request.policy, history, request.answer)
        return messages.analysis_message(analysis)

    def Ping(self, request: pb.PingRequest) -> pb.PingResponse:  # noqa: N802
        return pb.PingResponse()

    def TopHoneycombs(self, request: pb.TopHoneycombsRequest) -> pb.TopHoneycombsResponse:  # noqa: N802
        count = request.count or DEFAULT_HONEYCOMBS
        table = self.answers.top_honeycombs(request.word_list, request.allow_s, count)
        return messages.top_message(table)

    def ScoreHoneycomb(self, request: pb.ScoreHoneycombRequest) -> pb.ScoreHoneycombResponse:  # noqa: N802
        report = self.answers.score_honeycomb(
            request.letters, request.center, request.word_list, request.allow_s
        )
        return messages.honeycomb_message(report)
