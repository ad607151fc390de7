"""One client cannot starve the others (issue #26, point 5; issue #42, points 1 and 10).

A client opens 1,000 calls that send their headers and never their request
(a stream whose first message never comes, on unary methods). gRPC gives each
call a server thread while it waits for the request, so before, 320 of them
took every thread and every other client's Ping, Health and lookups failed
with gRPC's RESOURCE_EXHAUSTED "Concurrent RPC limit exceeded!". The server is
grpc.aio now: a call waiting for its request holds no thread, and another
client's calls answer as usual.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from guesswork.client.catalog import Catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer, ServerOptions, start_server

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


# Issue #42, points 1 and 10: the server is grpc.aio now, so an open call costs no
# thread until its request has arrived; fair admission gives each client address
# a share of --max-concurrent.

#: The requests of a SuggestGuess stored in the tree (no live work).
STORED = pb.SuggestGuessRequest(policy="wordle-2309-normal-max")
#: An off-tree history of the same policy: a live answer (it waits at the live gate).
LIVE = pb.SuggestGuessRequest(
    policy="wordle-2309-normal-max", history=[pb.Turn(guess="crane", reply="....Y")]
)


def _never(release: threading.Event) -> Iterator[bytes]:
    """A request stream that sends nothing until ``release``, then ends."""
    release.wait(120)
    return
    yield b""


def _half_open(channel: grpc.Channel, release: threading.Event, count: int) -> list[grpc.Future]:
    """Open ``count`` SuggestGuess calls on ``channel`` whose request never comes (until
    ``release``): each holds a call open at the server."""
    method = channel.stream_unary(
        "/guesswork.v1.Guesswork/SuggestGuess",
        request_serializer=None,
        response_deserializer=None,
    )
    return [method.future(_never(release), timeout=120) for _ in range(count)]


@contextlib.contextmanager
def _live_gate_held(server: GuessworkServer) -> Iterator[threading.Event]:
    """Hold the server's only live place (--max-live 1) until the block ends or the
    event yielded is set: every live call then waits at the gate, holding its place
    under --max-concurrent (calls at work)."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with server.servicer.live.admitted():
            taken.set()
            release.wait(120)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(30)
        yield release
    finally:
        release.set()
        holder.join()


def _outcome(call: grpc.Future) -> str:
    """Return "ok", or :func:`_refusal` of a finished call."""
    try:
        call.result()
        return "ok"
    except grpc.RpcError as error:
        return _refusal(error)


def _refusal(error: grpc.RpcError) -> str:
    """Return "CODE/REASON scope" of a failed call (REASON "-" and gRPC's text without
    our details)."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is None or not status.details:
        return f"{error.code().name}/- {error.details()}"
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return f"{error.code().name}/{info.reason} {info.metadata.get('scope', '')}".strip()


class Relay:
    """A TCP relay from a loopback port to the server, whose outgoing connections come
    from ``source`` (127.0.0.2: loopback on Linux too). A gRPC client cannot choose its
    source address, so this is how a test has a second client address on one host."""

    def __init__(self, source: str, port: int) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self._source, self._target = source, port
        self._sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.socket()
            upstream.bind((self._source, 0))
            upstream.connect(("127.0.0.1", self._target))
            self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        for each in self._sockets:
            with contextlib.suppress(OSError):
                each.close()


def test_two_connections_of_half_open_calls_starve_no_one(
    server: tuple[GuessworkServer, int],
) -> None:
    """Issue #42, 1: two channels, each with 170 calls whose request never comes, took
    all 320 threads of the old server: every other client's SuggestGuess, Health and
    Ping got gRPC's "Concurrent RPC limit exceeded!" until the connections aged out."""
    address = f"127.0.0.1:{server[1]}"
    release = threading.Event()
    rude = [grpc.insecure_channel(address, options=OWN_CONNECTION) for _ in range(2)]
    try:
        held = [call for channel in rude for call in _half_open(channel, release, 170)]
        time.sleep(1.0)  # let them open at the server
        with grpc.insecure_channel(address, options=OWN_CONNECTION) as polite:
            stub = pb_grpc.GuessworkStub(polite)
            assert stub.SuggestGuess(STORED, timeout=10).guess == "ARISE"
            health = health_pb2_grpc.HealthStub(polite)
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
            assert status == health_pb2.HealthCheckResponse.SERVING
            stub.Ping(pb.PingRequest(), timeout=10)
        assert not [call for call in held if call.done()], "a held call was ended"
    finally:
        release.set()
        for channel in rude:
            channel.close()


def test_one_address_cannot_take_every_place(catalog: Catalog) -> None:
    """Fair admission: calls at work from one address (all its connections together)
    take at most its share of --max-concurrent (half by default); its calls over
    the share are refused with TOO_MANY_CALLS, scope "peer", and another address's
    calls are still admitted, up to the server's limit (then scope "server")."""
    options = ServerOptions(address="127.0.0.1:0", max_concurrent=4, max_live=1)
    server, port = start_server(options, catalog)
    share = 2  # by default half of --max-concurrent
    relays = [Relay("127.0.0.2", port), Relay("127.0.0.3", port)]
    channels = [grpc.insecure_channel(f"127.0.0.1:{port}")]
    channels += [grpc.insecure_channel(f"127.0.0.1:{relay.port}") for relay in relays]
    first, second, third = (pb_grpc.GuessworkStub(channel) for channel in channels)
    try:
        with _live_gate_held(server) as release:
            # The first address: its share admitted (waiting at the gate), the rest refused.
            attack = [first.SuggestGuess.future(LIVE, timeout=120) for _ in range(2 * share)]
            _wait_until(lambda: sum(call.done() for call in attack) >= share)
            refused = [_outcome(call) for call in attack if call.done()]
            admitted = [call for call in attack if not call.done()]
            assert refused == ["RESOURCE_EXHAUSTED/TOO_MANY_CALLS peer"] * share
            assert server.servicer.peers.held("127.0.0.1") == share
            # Another address is answered beside it (before: TOO_MANY_CALLS).
            assert second.SuggestGuess(STORED, timeout=10).guess == "ARISE"
            # It may take its own share, the server's last places...
            waiting = [second.SuggestGuess.future(LIVE, timeout=120) for _ in range(share)]
            _wait_until(lambda: server.servicer.peers.held("127.0.0.2") == share)
            assert not [call for call in waiting if call.done()]
            # ...and then a third address meets the server's limit.
            with pytest.raises(grpc.RpcError) as caught:
                third.SuggestGuess(STORED, timeout=10)
            assert _refusal(caught.value) == "RESOURCE_EXHAUSTED/TOO_MANY_CALLS server"
            release.set()
            assert all(call.result(timeout=120).guess for call in [*admitted, *waiting])
            assert server.servicer.peers.held("127.0.0.1") == 0
    finally:
        for channel in channels:
            channel.close()
        for relay in relays:
            relay.close()
        server.stop(0)


def test_one_address_is_one_peer_over_grpc_and_http(catalog: Catalog) -> None:
    """Fair admission spans the transports: an address holding its share with gRPC
    calls is refused over HTTP too (429, TOO_MANY_CALLS, scope "peer"), while another
    address's HTTP call is answered. Before, HTTP calls took no per-peer place."""
    options = ServerOptions(
        address="127.0.0.1:0", http_address="127.0.0.1:0", max_concurrent=4, max_live=1
    )
    server, port = start_server(options, catalog)
    assert server.http_port is not None

    def http_suggest(source: str) -> tuple[int, dict[str, object]]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", server.http_port, timeout=60, source_address=(source, 0)
        )
        try:
            body = json.dumps({"policy": STORED.policy})
            headers = {"Content-Type": "application/json"}
            connection.request("POST", "/guesswork.v1.Guesswork/SuggestGuess", body, headers)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read())
        finally:
            connection.close()

    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        with _live_gate_held(server) as release:
            stub = pb_grpc.GuessworkStub(channel)
            held = [stub.SuggestGuess.future(LIVE, timeout=120) for _ in range(2)]
            _wait_until(lambda: server.servicer.peers.held("127.0.0.1") == 2)
            status, refusal = http_suggest("127.0.0.1")
            assert status == 429
            info = refusal["details"][0]["debug"]  # type: ignore[index]
            assert (refusal["code"], info["reason"], info["metadata"]["scope"]) == (
                "resource_exhausted",
                "TOO_MANY_CALLS",
                "peer",
            )
            status, answer = http_suggest("127.0.0.2")
            assert (status, answer["guess"]) == (200, "ARISE")
            release.set()
            assert all(call.result(timeout=120).guess for call in held)
            assert server.servicer.peers.held("127.0.0.1") == 0
    finally:
        channel.close()
        server.stop(0)


def _wait_until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (a hang guard of 60 s, not a speed limit)."""
    for _ in range(6000):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("never came true")


def test_a_burst_of_200_calls_is_refused_with_our_reason_only(catalog: Catalog) -> None:
    """Issue #42, 10: of 200 calls sent at once on a fresh channel to a server with
    --max-concurrent 4, 49 got UNAVAILABLE "RST_STREAM 7" (HTTP/2's refused stream,
    no reason): the server's stream limit, met before the client knew it."""
    server, port = start_server(ServerOptions(address="127.0.0.1:0", max_concurrent=4), catalog)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            calls = [stub.SuggestGuess.future(STORED, timeout=60) for _ in range(200)]
            outcomes = [_outcome(call) for call in calls]
    finally:
        server.stop(0)
    assert "ok" in outcomes
    assert set(outcomes) <= {"ok", "RESOURCE_EXHAUSTED/TOO_MANY_CALLS peer"}, set(outcomes)


def test_300_calls_open_on_one_channel_are_all_held_and_a_ping_still_goes(
    server: tuple[GuessworkServer, int],
) -> None:
    """Issue #42, 10: a connection had at most 192 calls open at the server; more were
    refused ("Stream refused") or queued behind the open ones. Open calls now cost no
    thread, so a connection may have 1,024 open."""
    release = threading.Event()
    with grpc.insecure_channel(f"127.0.0.1:{server[1]}", options=OWN_CONNECTION) as channel:
        try:
            held = _half_open(channel, release, 300)
            time.sleep(1.0)  # let them open at the server
            pb_grpc.GuessworkStub(channel).Ping(pb.PingRequest(), timeout=10)
            assert not [_outcome(call) for call in held if call.done()]
        finally:
            release.set()
