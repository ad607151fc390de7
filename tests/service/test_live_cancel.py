"""A live computation stops once its call has ended (issue #26, point 6).

Before, a live search went on after the client's deadline or cancellation
(a honeycomb search for 19-44 s of CPU, an analysis, an off-tree answer)
and only the calls still waiting at the gate were dropped. Now each checks
between bounded steps (client.interrupt): a block of candidate rows, a node
of an analysis, a few thousand words of a honeycomb search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import grpc
import numpy as np
import pytest

from guesswork.builder.live import GreedyLiveSolver
from guesswork.builder.spelling_bee import top_honeycombs
from guesswork.builder.wordlists import shipped_words
from guesswork.client.catalog import Catalog
from guesswork.client.interrupt import CALL_ACTIVE, CallEndedError
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.local import LocalGuesswork
from guesswork.service.server import ServerOptions, start_server

pytestmark = pytest.mark.reliability


class _EndsAfter:
    """A call's ``is_active`` that says True ``times`` times, then False; counts its calls."""

    def __init__(self, times: int) -> None:
        self.times, self.asked = times, 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked <= self.times


@pytest.fixture
def ends_after() -> Iterator[Callable[[int], _EndsAfter]]:
    tokens = []

    def install(times: int) -> _EndsAfter:
        active = _EndsAfter(times)
        tokens.append(CALL_ACTIVE.set(active))
        return active

    yield install
    for token in reversed(tokens):
        CALL_ACTIVE.reset(token)


def test_a_live_ranking_stops_between_blocks(
    catalog: Catalog, ends_after: Callable[[int], _EndsAfter]
) -> None:
    # All 14,855 targets of a weighted normal policy: 14,855 candidates x 14,855
    # targets, 53 blocks of reply rows; the call ends after the second.
    policy = catalog.policy("wordle-14855-weighted-wordfreq-normal-neg-entropy")
    active = ends_after(2)
    with pytest.raises(CallEndedError, match="call ended"):
        GreedyLiveSolver().rank(policy, np.arange(len(policy.targets)), 1)
    assert active.asked == 3  # it looked before each block, and stopped at the third


def test_an_analysis_stops_once_its_call_ends(
    catalog: Catalog, ends_after: Callable[[int], _EndsAfter]
) -> None:
    game = [("XYLYL", "....."), ("FUZZY", ".....")]
    answers = LocalGuesswork(catalog)
    active = ends_after(3)
    with pytest.raises(CallEndedError):
        answers.analyze("wordle-2309-normal-neg-entropy", game)
    assert active.asked == 4
    CALL_ACTIVE.set(None)  # no call: the same analysis runs to its end
    assert answers.analyze("wordle-2309-normal-neg-entropy", game).moves


def test_a_honeycomb_search_stops_once_its_call_ends(
    ends_after: Callable[[int], _EndsAfter],
) -> None:
    words = list(shipped_words("enable1"))
    active = ends_after(5)
    with pytest.raises(CallEndedError):
        top_honeycombs(words, 1000, allow_s=True)
    assert active.asked == 6


def test_the_server_stops_a_search_whose_deadline_passed(catalog: Catalog) -> None:
    server, port = start_server(ServerOptions(address="127.0.0.1:0"), catalog)
    gate = server.servicer.live
    request = pb.TopHoneycombsRequest(allow_s=True, count=999)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            with pytest.raises(grpc.RpcError) as late:
                stub.TopHoneycombs(request, timeout=0.02)
            assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            for _ in range(200):  # a hang guard: it stops within one step
                if gate.stopped + gate.dropped and not gate.running:
                    break
                time.sleep(0.05)
            assert gate.stopped + gate.dropped == 1 and gate.running == 0
            # Nothing half-done was kept: asked again with time to finish, it answers.
            assert len(stub.TopHoneycombs(request, timeout=60).honeycombs) == 999
    finally:
        server.stop(0)
