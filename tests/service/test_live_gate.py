"""Live computations at most --max-live at once, dropped when their call has ended
(issue #26, point 6), while stored answers never wait."""

from __future__ import annotations

import os
import sys
import threading
import time

import grpc
import pytest

from guesswork.client.catalog import Catalog
from guesswork.client.errors import ServiceUnavailableError
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.live_gate import CALL_ACTIVE, LIVE_NICE, LiveGate
from guesswork.service.server import ServerOptions, start_server

pytestmark = pytest.mark.reliability

POLICY = "wordle-2309-normal-neg-entropy"


def _live(opening: str) -> pb.SuggestGuessRequest:
    """A history off the stored tree (the tree opens RAISE): answered live."""
    return pb.SuggestGuessRequest(policy=POLICY, history=[pb.Turn(guess=opening, reply=".....")])


def test_admission_is_reentrant_and_drops_a_call_that_ended() -> None:
    gate = LiveGate(1)
    with gate.admitted(), gate.admitted():  # an analysis asking for live answers
        outcome: list[BaseException | None] = []

        def waiting() -> None:
            CALL_ACTIVE.set(lambda: False)  # its client has gone
            try:
                with gate.admitted():
                    outcome.append(None)
            except ServiceUnavailableError as error:
                outcome.append(error)

        thread = threading.Thread(target=waiting)
        thread.start()
        thread.join(10)
    assert isinstance(outcome[0], ServiceUnavailableError) and gate.dropped == 1
    assert (gate.running, gate.busiest) == (0, 1)


def test_the_server_admits_max_live_and_stored_answers_pass_a_full_gate(
    catalog: Catalog,
) -> None:
    server, port = start_server(ServerOptions(address="127.0.0.1:0", max_live=1), catalog)
    gate = server.servicer.live
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            openings = ["CRANE", "SLATE", "PIANO", "DOUBT", "MIGHT", "LOUSY", "TRACE", "ROAST"]
            answers: list[str] = []

            def ask(opening: str) -> None:
                answers.append(stub.SuggestGuess(_live(opening), timeout=60).guess)

            askers = [threading.Thread(target=ask, args=(o,)) for o in openings]
            for asker in askers:
                asker.start()
            for asker in askers:
                asker.join(60)
            assert len(answers) == len(openings) and gate.busiest == 1
            with gate.admitted():  # the gate is full: a live call waits...
                with pytest.raises(grpc.RpcError) as late:
                    stub.SuggestGuess(_live("CHOMP"), timeout=0.3)
                assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
                # ...stored answers do not,
                stored = stub.SuggestGuess(pb.SuggestGuessRequest(policy=POLICY), timeout=10)
                assert stored.guess == "RAISE" and stored.source == pb.SOURCE_STORED
                for _ in range(100):  # and the waiting one is dropped once its client left
                    if gate.dropped:
                        break
                    time.sleep(0.05)
                assert gate.dropped == 1
            assert stub.SuggestGuess(_live("CHOMP"), timeout=60).source == pb.SOURCE_LIVE
    finally:
        server.stop(0)


def _nice() -> int:
    """Return the calling thread's nice value (Linux keeps one per thread)."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_live_work_runs_below_the_priority_of_stored_answers() -> None:
    """Issue #42, point 8: a costly live call (a multi-board ranking) ran on the call's
    own thread at the priority of stored answers, and another client's stored p99
    rose 15x on two busy cores; admitted work now runs on the gate's threads at
    LIVE_NICE, with the call's context, re-entering for nested live answers."""
    gate = LiveGate(1)
    caller = _nice()
    token = CALL_ACTIVE.set(lambda: True)
    try:
        seen = gate.run(lambda: (_nice(), CALL_ACTIVE.get(), gate.run(_nice)))
    finally:
        CALL_ACTIVE.reset(token)
    worker, active, nested = seen
    assert worker == nested == min(19, caller + LIVE_NICE)
    assert active is not None and active()
    assert _nice() == caller  # the call's thread keeps its own priority
    assert gate.running == 0 and gate.busiest == 1
