"""One client cannot starve the others (issue #26, point 5).

A client opens 1,000 calls that send their headers and never their request
(a stream whose first message never comes, on unary methods). gRPC gives each
call a server thread while it waits for the request, so before, 320 of them
took every thread and every other client's Ping, Health and lookups failed
with gRPC's RESOURCE_EXHAUSTED "Concurrent RPC limit exceeded!". Now a
connection holds at most ``--max-concurrent`` calls open at the server, and
another client's calls answer as usual.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer

pytestmark = pytest.mark.reliability

HALF_OPEN = 1_000
#: Each channel its own connection (gRPC otherwise shares one between channels).
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def _best_ping(stub: pb_grpc.GuessworkStub, times: int = 20) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        stub.Ping(pb.PingRequest(), timeout=10)  # a hang guard, not a speed limit
        best = min(best, time.perf_counter() - started)
    return best


def test_a_client_holding_1000_half_open_calls_starves_no_one(
    server: tuple[GuessworkServer, int],
) -> None:
    address = f"127.0.0.1:{server[1]}"
    release = threading.Event()

    def never() -> Iterator[bytes]:
        release.wait(60)
        return
        yield b""  # a generator that sends nothing until released

    with (
        grpc.insecure_channel(address, options=OWN_CONNECTION) as rude,
        grpc.insecure_channel(address, options=OWN_CONNECTION) as polite,
    ):
        stub = pb_grpc.GuessworkStub(polite)
        alone = _best_ping(stub)
        methods = ["Ping", "SuggestGuess", "ListPolicies", "GetPolicy"]
        held = [
            rude.stream_unary(
                f"/guesswork.v1.Guesswork/{methods[i % len(methods)]}",
                request_serializer=None,
                response_deserializer=None,
            ).future(never(), timeout=60)
            for i in range(HALF_OPEN)
        ]
        try:
            time.sleep(1.0)  # let them open at the server
            crowded = _best_ping(stub)
            health = health_pb2_grpc.HealthStub(polite)
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
            assert status == health_pb2.HealthCheckResponse.SERVING
            answer = stub.SuggestGuess(
                pb.SuggestGuessRequest(policy="wordle-2309-normal-max"), timeout=10
            )
            assert answer.guess == "ARISE"
            listed = stub.ListPolicies(pb.ListPoliciesRequest(), timeout=10)
            assert len(listed.policies) > 50
        finally:
            release.set()
            for call in held:
                call.cancel()
    print(
        f"Ping alone {alone * 1e3:.2f} ms; beside {HALF_OPEN} half-open calls {crowded * 1e3:.2f} ms"
    )
