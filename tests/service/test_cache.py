"""The one response cache at the service's edge: bounded, least recently used."""

from __future__ import annotations

import os
from collections.abc import Iterator

import grpc
import pytest

from guesswork.client.catalog import Catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.cache import ResponseCache
from guesswork.service.server import GuessworkServer, ServerOptions, start_server


def test_least_recently_used_entries_go_first() -> None:
    cache = ResponseCache(3)
    requests = [pb.PingRequest() for _ in range(1)]
    keys = []
    for number in range(3):
        key, missing = cache.get("M", pb.ScoreGuessRequest(guess=f"w{number}"))
        assert missing is None
        cache.put(key, f"r{number}".encode())
        keys.append(key)
    assert cache.get("M", pb.ScoreGuessRequest(guess="w0"))[1] == b"r0"  # now most recent
    key, _ = cache.get("M", pb.ScoreGuessRequest(guess="w3"))
    cache.put(key, b"r3")
    assert len(cache) == 3
    assert cache.get("M", pb.ScoreGuessRequest(guess="w1"))[1] is None  # evicted
    assert cache.get("M", pb.ScoreGuessRequest(guess="w0"))[1] == b"r0"
    assert cache.get("Other", pb.ScoreGuessRequest(guess="w0"))[1] is None  # method is in the key
    off = ResponseCache(0)
    key, _ = off.get("M", requests[0])
    off.put(key, b"r1")
    assert len(off) == 0


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture()
def small_cache_server(catalog: Catalog) -> Iterator[tuple[GuessworkServer, pb_grpc.GuessworkStub]]:
    server, port = start_server(ServerOptions(address="127.0.0.1:0", cache_entries=200), catalog)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield server, pb_grpc.GuessworkStub(channel)
    server.stop(0, drain=0)


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="RSS is read from /proc")
def test_memory_stays_flat_under_many_distinct_requests(
    catalog: Catalog, small_cache_server: tuple[GuessworkServer, pb_grpc.GuessworkStub]
) -> None:
    server, small_cache_stub = small_cache_server
    policy = catalog.policy("wordle-2309-g12972-normal-neg-entropy")
    guesses, targets = policy.guesses, policy.targets
    name = "policies/" + policy.name

    def burst(start: int, count: int) -> None:
        for i in range(start, start + count):
            small_cache_stub.ScoreGuess(
                pb.ScoreGuessRequest(
                    policy=name,
                    guess=guesses[i * 7 % len(guesses)],
                    target=targets[i % len(targets)],
                )
            )
            if i % 20 == 0:  # an off-tree history: answered live, then cached
                guess = guesses[(i * 13) % len(guesses)]
                reply = policy.game.format_reply(
                    policy.game.reply(guess, targets[i % len(targets)])
                )
                turn = pb.Turn(guess=guess, reply=reply)
                small_cache_stub.SuggestGuess(pb.SuggestGuessRequest(policy=name, history=[turn]))

    burst(0, 1500)  # warm: compiled kernels, allocator pools, a full cache
    before = _rss_bytes()
    burst(1500, 4000)
    grown = _rss_bytes() - before
    # 4,000 more distinct answers with an unbounded cache would keep every one of them.
    assert grown < 16 << 20, f"RSS grew by {grown / 2**20:.1f} MiB"
    assert server.responses is not None and len(server.responses) == 200
    again = small_cache_stub.ScoreGuess(
        pb.ScoreGuessRequest(policy=name, guess=guesses[0], target=targets[0])
    )
    assert again.reply == policy.game.format_reply(policy.game.reply(guesses[0], targets[0]))
