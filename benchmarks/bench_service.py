"""Load benchmark for the lookup service, on loopback, against a same-run no-op baseline.

Starts ``guesswork-serve`` in its own process on a free loopback port, then an
asyncio gRPC load generator (this process) measures QPS and p50/p99 latency of
SuggestGuess on stored trees (histories taken from real games) and of the
no-op Ping on the same server, at several concurrency levels. Then the
latency of live answers to first-guess deviations on the 2309-word normal
Wordle policy (each history distinct, so none is cached), and the start-up
time with the whole shipped catalog. Last, ``--processes`` 1, 2 and N (the
machine's cores, at least 2) one after the other: SuggestGuess and Ping QPS
of each, the load spread over several client connections (the kernel spreads
connections, not calls, across the processes). The load generator shares the
machine's cores with the server processes.

Usage: python benchmarks/bench_service.py [--requests N] [--only-processes]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc  # noqa: E402

POLICY = "wordle-2309-normal-neg-entropy"
CONCURRENCY = (1, 8, 32)
#: Client connections and calls in flight for the --processes section.
SPREAD_CHANNELS = 16
SPREAD_CONCURRENCY = 32


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_command(address: str, *options: str) -> list[str]:
    """Return the command that runs the service on ``address`` as these benchmarks do
    (256 calls at once, warnings only), with ``options`` added."""
    return [
        sys.executable,
        "-m",
        "guesswork.service",
        "--address",
        address,
        "--max-concurrent",
        "256",
        "--log-level",
        "WARNING",
        *options,
    ]


def start_server(address: str) -> tuple[subprocess.Popen[bytes], float]:
    """Start the service; return it and the seconds until health said SERVING."""
    started = time.perf_counter()
    process = subprocess.Popen(
        server_command(address),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.DEVNULL,
    )
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                status = health.Check(health_pb2.HealthCheckRequest(), timeout=1).status
                if status == health_pb2.HealthCheckResponse.SERVING:
                    return process, time.perf_counter() - started
            except grpc.RpcError:
                pass
            if process.poll() is not None:
                raise SystemExit(f"the server exited during start-up (status {process.returncode})")
            time.sleep(0.01)


def stored_requests(count: int) -> list[Any]:
    """SuggestGuess requests for prefixes of real games (all on the stored tree)."""
    with open_catalog() as catalog:
        policy = catalog.policy(POLICY)
        game = policy.game
        rng = random.Random(1)
        requests = []
        for target in rng.sample(policy.targets, min(count, len(policy.targets))):
            guesses = policy.play(target)
            depth = rng.randrange(len(guesses))
            turns = [
                pb.Turn(guess=g, reply=game.format_reply(game.reply(g, target)))
                for g in guesses[:depth]
            ]
            requests.append(pb.SuggestGuessRequest(policy=POLICY, history=turns))
    return requests


async def run_load(
    address: str,
    method: str,
    requests: list[Any],
    concurrency: int,
    total: int,
    connections: int = 1,
) -> tuple[float, float, float]:
    """Return (QPS, p50 ms, p99 ms) for ``total`` calls with ``concurrency`` in flight.

    Requests are serialised once, up front, and responses are not parsed: like
    wrk against an HTTP server, the generator should cost as little as possible
    so that the figures are the server's. With ``connections`` > 1 the calls
    are spread over that many connections (one per channel: gRPC otherwise
    shares one connection between channels to the same address).
    """
    payloads = [request.SerializeToString() for request in requests]
    latencies: list[float] = []
    own = [("grpc.use_local_subchannel_pool", 1)] if connections > 1 else []
    channels = [grpc.aio.insecure_channel(address, options=own) for _ in range(connections)]
    try:
        # bytes in, bytes out
        calls = [c.unary_unary(f"/guesswork.v1.Guesswork/{method}") for c in channels]
        counter = iter(range(total))

        async def worker(number: int) -> None:
            call = calls[number % len(calls)]
            for index in counter:
                began = time.perf_counter()
                await call(payloads[index % len(payloads)])
                latencies.append(time.perf_counter() - began)

        for call in calls:  # warm the connections
            for _ in range(min(200 // len(calls) + 1, total)):
                await call(payloads[0])
        started = time.perf_counter()
        await asyncio.gather(*(worker(number) for number in range(concurrency)))
        elapsed = time.perf_counter() - started
    finally:
        for channel in channels:
            await channel.close()
    latencies.sort()
    p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
    return total / elapsed, p50 * 1e3, p99 * 1e3


def live_latencies(address: str) -> list[float]:
    """Seconds per live answer for distinct first-guess deviations (no cache hits)."""
    with open_catalog() as catalog:
        policy = catalog.policy(POLICY)
        game = policy.game
        openings = [w for w in policy.guesses if w != "RAISE"][::23][:60]
    rng = random.Random(2)
    seconds = []
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.GuessworkStub(channel)
        for opening in openings:
            target = rng.choice(policy.targets)
            turn = pb.Turn(guess=opening, reply=game.format_reply(game.reply(opening, target)))
            began = time.perf_counter()
            answer = stub.SuggestGuess(pb.SuggestGuessRequest(policy=POLICY, history=[turn]))
            seconds.append(time.perf_counter() - began)
            assert answer.source == pb.SOURCE_LIVE
    return seconds


def start_processes(address: str, processes: int, *options: str) -> subprocess.Popen[str]:
    """Start ``guesswork-serve --processes N`` (with ``options``); return it once it says
    all N serve."""
    process = subprocess.Popen(
        server_command(address, "--processes", str(processes), *options),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    if not line.startswith("guesswork-serve: serving "):
        process.kill()
        raise RuntimeError(f"guesswork-serve --processes {processes} did not start: {line}")
    return process


def spread_qps(address: str, method: str, calls: list[Any], total: int) -> float:
    """Return the QPS of ``total`` calls spread over several client connections."""
    load = run_load(address, method, calls, SPREAD_CONCURRENCY, total, SPREAD_CHANNELS)
    return asyncio.run(load)[0]


def processes_table(requests: int) -> None:
    """Print SuggestGuess and Ping QPS with 1, 2 and N server processes behind one port."""
    cores = os.cpu_count() or 1
    counts = sorted({1, 2, max(2, cores)})
    suggestions = stored_requests(1000)
    ping = [pb.PingRequest()]
    print(
        f"--processes (client: {SPREAD_CHANNELS} connections, {SPREAD_CONCURRENCY} calls in "
        f"flight, one asyncio process sharing the {cores} cores with the servers)"
    )
    print(f"{'processes':>9}{'Ping QPS':>11}{'Suggest QPS':>13}{'suggest / ping':>16}")
    for count in counts:
        address = f"127.0.0.1:{free_port()}"
        process = start_processes(address, count)
        try:
            spread_qps(address, "SuggestGuess", suggestions, len(suggestions) * count)  # caches
            noop = spread_qps(address, "Ping", ping, requests)
            ours = spread_qps(address, "SuggestGuess", suggestions, requests)
            print(f"{count:>9}{noop:>11.0f}{ours:>13.0f}{ours / noop:>16.0%}")
        finally:
            process.terminate()
            process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000, help="calls per measurement")
    parser.add_argument(
        "--only-processes", action="store_true", help="run only the --processes section"
    )
    args = parser.parse_args()
    if args.only_processes:
        processes_table(args.requests)
        return
    address = f"127.0.0.1:{free_port()}"
    process, startup = start_server(address)
    try:
        print(f"start-up with the whole shipped catalog, process start to SERVING: {startup:.2f} s")
        suggestions = stored_requests(1000)
        asyncio.run(
            run_load(address, "SuggestGuess", suggestions, 8, len(suggestions))
        )  # fill caches
        ping = [pb.PingRequest()]
        print(f"{'calls':<14}{'in flight':>10}{'QPS':>10}{'p50 ms':>9}{'p99 ms':>9}")
        for concurrency in CONCURRENCY:
            noop = asyncio.run(run_load(address, "Ping", ping, concurrency, args.requests))
            ours = asyncio.run(
                run_load(address, "SuggestGuess", suggestions, concurrency, args.requests)
            )
            for name, (qps, p50, p99) in (("Ping (no-op)", noop), ("SuggestGuess", ours)):
                print(f"{name:<14}{concurrency:>10}{qps:>10.0f}{p50:>9.2f}{p99:>9.2f}")
            print(f"{'':<14}{'':>10}  suggestion / no-op throughput: {ours[0] / noop[0]:.0%}")
        live = live_latencies(address)
        print(
            f"live answers to {len(live)} first-guess deviations ({POLICY}): "
            f"median {statistics.median(live) * 1e3:.1f} ms, worst {max(live) * 1e3:.1f} ms"
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
    processes_table(args.requests)


if __name__ == "__main__":
    main()
