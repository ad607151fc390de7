"""Stored answers beside heavy live work: the latency a live load adds to lookups.

Starts ``guesswork-serve`` in its own process (``--max-live`` as given, default
the server's: the machine's cores), measures stored SuggestGuess latency from
one client alone (the same-run baseline), then again while ``--live-clients``
other clients each keep one heavy live call in flight: off-tree answers on
the 8-letter ENABLE policy (28,420 targets), each history distinct so none is
cached. Prints p50/p99 of both and their ratio. Live work runs in compiled
kernels that release the GIL (builder.matrices, builder.partitions) in
bounded blocks (builder.greedy.BLOCK_CELLS), so lookups go on beside it.

Usage: python benchmarks/bench_live_isolation.py [--seconds S] [--live-clients N]
    [--max-live N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from bench_service import free_port, server_command, stored_requests  # noqa: E402

from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc  # noqa: E402

LIVE_POLICY = "wordle-8-enable1-normal-neg-entropy"


def _start(address: str, max_live: int | None) -> subprocess.Popen[bytes]:
    """Start the service; return it once it answers Ping."""
    options = [] if max_live is None else ["--max-live", str(max_live)]
    process = subprocess.Popen(
        server_command(address, *options),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.DEVNULL,
    )
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.GuessworkStub(channel)
        for _ in range(600):
            try:
                stub.Ping(pb.PingRequest(), timeout=1)
                break
            except grpc.RpcError:
                time.sleep(0.05)
    return process


def _stored_latencies(address: str, seconds: float) -> list[float]:
    requests = stored_requests(400)
    latencies: list[float] = []
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.GuessworkStub(channel)
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            for request in requests:
                began = time.perf_counter()
                stub.SuggestGuess(request, timeout=30)
                latencies.append(time.perf_counter() - began)
                if time.perf_counter() >= stop:
                    break
    return latencies


def _live_requests(count: int) -> list[pb.SuggestGuessRequest]:
    """Off-tree histories of one turn, each with the reply most targets give to its
    guess: the largest sets a one-turn history leaves, so the heaviest live answers."""
    import numpy as np

    from guesswork.builder.matrices import alphabet_of, letter_array, reply_block

    with open_catalog() as catalog:
        policy = catalog.policy(LIVE_POLICY)
    game, first = policy.game, policy.guess(policy.root)
    openings = [word for word in policy.guesses if word != first][:: len(policy.guesses) // count]
    alphabet = alphabet_of(policy.vocabulary)
    targets = letter_array(policy.targets, game.length, alphabet)
    block = reply_block(game, letter_array(openings, game.length, alphabet), targets)
    requests = []
    for opening, replies in zip(openings, block, strict=True):
        commonest = int(np.bincount(replies).argmax())
        turn = pb.Turn(guess=opening, reply=game.format_reply(commonest))
        requests.append(pb.SuggestGuessRequest(policy=LIVE_POLICY, history=[turn]))
    return requests


def _live_load(
    address: str, requests: list[pb.SuggestGuessRequest], stop: threading.Event, took: list[float]
) -> None:
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.GuessworkStub(channel)
        for request in requests:
            if stop.is_set():
                return
            began = time.perf_counter()
            stub.SuggestGuess(request, timeout=120)
            took.append(time.perf_counter() - began)


def _figures(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return statistics.median(ordered) * 1e3, ordered[int(0.99 * (len(ordered) - 1))] * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each measurement's length")
    parser.add_argument("--live-clients", type=int, default=4, help="heavy live calls in flight")
    parser.add_argument("--max-live", type=int, default=None, help="the server's --max-live")
    args = parser.parse_args()
    address = f"127.0.0.1:{free_port()}"
    server = _start(address, args.max_live)
    try:
        _stored_latencies(address, 1.0)  # warm
        alone = _stored_latencies(address, args.seconds)
        requests = _live_requests(4000)
        stop, took = threading.Event(), []
        loads = [
            threading.Thread(
                target=_live_load,
                args=(address, requests[i :: args.live_clients], stop, took),
                daemon=True,
            )
            for i in range(args.live_clients)
        ]
        for load in loads:
            load.start()
        time.sleep(2.0)  # the live calls reach the server's kernels
        beside = _stored_latencies(address, args.seconds)
        live_done, live_mean = len(took), statistics.mean(took) if took else float("nan")
        stop.set()
        for load in loads:
            load.join(120)
    finally:
        server.terminate()
        server.wait(30)
    (p50_alone, p99_alone), (p50_beside, p99_beside) = _figures(alone), _figures(beside)
    print(f"stored SuggestGuess alone:  p50 {p50_alone:.2f} ms  p99 {p99_alone:.2f} ms")
    print(
        f"beside {args.live_clients} heavy live clients ({live_done} live answers, "
        f"{live_mean:.3f} s each): p50 {p50_beside:.2f} ms  p99 {p99_beside:.2f} ms"
    )
    print(
        f"ratio (beside / alone): p50 {p50_beside / p50_alone:.1f}x  "
        f"p99 {p99_beside / p99_alone:.1f}x"
    )


if __name__ == "__main__":
    main()
