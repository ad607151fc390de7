"""How fast calls over the concurrency limit are rejected, against a Ping in the same run.

Starts ``guesswork-serve --max-concurrent 4 --cache-entries 0`` in its own
process on a free loopback port, then sends a burst of slow calls at once
(SuggestGuess histories that leave the stored tree, each distinct, so each
is answered live), with Pings interleaved in the burst. It prints how many calls
were served, how many were rejected with TOO_MANY_CALLS, how many were refused
by gRPC's own limit (RESOURCE_EXHAUSTED without a reason; the contract says
none should be at this burst size), and the latency of each kind: rejections
should take about as long as a Ping, not as long as the calls at work.

Usage: python benchmarks/bench_rejection.py [--burst N] [--server-root PATH]
(``--server-root`` runs the server of another checkout, for a before/after.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from google.rpc import error_details_pb2  # noqa: E402
from grpc_status import rpc_status  # noqa: E402

from benchmarks.bench_service import free_port  # noqa: E402
from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc  # noqa: E402

POLICY = "wordle-2315-g12972-normal-neg-entropy"
LIMIT = 4


def start_server(address: str, root: Path) -> subprocess.Popen[bytes]:
    """Start the service of checkout ``root`` and wait until it answers a Ping."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "guesswork.service",
            "--address",
            address,
            "--max-concurrent",
            str(LIMIT),
            "--cache-entries",
            "0",
            "--log-level",
            "ERROR",
        ],
        env={**os.environ, "PYTHONPATH": str(root)},
        stderr=subprocess.DEVNULL,
        cwd=root,
    )
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.GuessworkStub(channel)
        while True:
            try:
                stub.Ping(pb.PingRequest(), timeout=1)
                return process
            except grpc.RpcError:
                if process.poll() is not None:
                    raise SystemExit(
                        f"the server exited during start-up (status {process.returncode})"
                    ) from None
                time.sleep(0.05)


def live_requests(count: int) -> list[Any]:
    """Distinct SuggestGuess requests that leave the stored tree at the first guess."""
    with open_catalog() as catalog:
        policy = catalog.policy(POLICY)
        game = policy.game
        step = max(1, len(policy.guesses) // count)
        openings = [w for w in policy.guesses[::step] if w != policy.guess(policy.root)][:count]
        return [
            pb.SuggestGuessRequest(
                policy=POLICY,
                history=[pb.Turn(guess=w, reply=game.format_reply(game.reply(w, "TIGER")))],
            )
            for w in openings
        ]


def outcome(error: grpc.aio.AioRpcError) -> str:
    """Return 'STATUS/REASON' of a failed call (NO_REASON: no ErrorInfo)."""
    info = error_details_pb2.ErrorInfo()
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is not None and status.details:
        status.details[0].Unpack(info)
    return f"{error.code().name}/{info.reason or 'NO_REASON'}"


async def burst(address: str, requests: list[Any], pings: int) -> dict[str, list[float]]:
    """Send every request at once with ``pings`` Pings among them; return the
    latencies (ms) by outcome ('ok', 'RESOURCE_EXHAUSTED/TOO_MANY_CALLS', ..., 'ping')."""
    results: dict[str, list[float]] = {}
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.GuessworkStub(channel)
        await stub.Ping(pb.PingRequest())

        async def call(request: Any) -> None:
            started = time.perf_counter()
            try:
                await stub.SuggestGuess(request, timeout=120)
                kind = "ok"
            except grpc.aio.AioRpcError as error:
                kind = outcome(error)
            results.setdefault(kind, []).append(1000 * (time.perf_counter() - started))

        async def ping() -> None:
            started = time.perf_counter()
            try:
                await stub.Ping(pb.PingRequest(), timeout=120)
                kind = "ping"
            except grpc.aio.AioRpcError as error:
                kind = f"ping {outcome(error)}"
            results.setdefault(kind, []).append(1000 * (time.perf_counter() - started))

        # Pings interleaved with the calls, all sent at once: a no-op under the same load.
        every = max(1, len(requests) // max(1, pings))
        calls = [call(request) for request in requests]
        for index in range(pings):
            calls.insert(min(len(calls), index * (every + 1)), ping())
        await asyncio.gather(*calls)
    return results


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--pings", type=int, default=20)
    parser.add_argument("--server-root", type=Path, default=ROOT)
    args = parser.parse_args()
    address = f"127.0.0.1:{free_port()}"
    requests = live_requests(args.burst)
    process = start_server(address, args.server_root.resolve())
    try:
        results = asyncio.run(burst(address, requests, args.pings))
        # The transport's own floor: a burst of as many Pings and nothing else.
        floor = asyncio.run(burst(address, [], len(requests) + args.pings))["ping"]
    finally:
        process.terminate()
        process.wait()
    print(
        f"burst of {len(requests)} live SuggestGuess calls, --max-concurrent {LIMIT}, "
        f"{args.pings} Pings during it (server: {args.server_root})"
    )
    results["(a burst of Pings alone, same size)"] = floor
    print(f"{'outcome':40s} {'calls':>6s} {'p50 ms':>9s} {'p99 ms':>9s} {'max ms':>9s}")
    for kind in sorted(results):
        values = results[kind]
        print(
            f"{kind:40s} {len(values):6d} {statistics.median(values):9.1f} "
            f"{percentile(values, 0.99):9.1f} {max(values):9.1f}"
        )
    rejected = results.get("RESOURCE_EXHAUSTED/TOO_MANY_CALLS", [])
    if rejected and "ping" in results:
        ratio = statistics.median(rejected) / statistics.median(results["ping"])
        print(f"rejection p50 / Ping p50 in the same burst: {ratio:.2f}x")
    unexplained = len(results.get("RESOURCE_EXHAUSTED/NO_REASON", []))
    print(f"refused by gRPC's own limit (no reason): {unexplained}")


if __name__ == "__main__":
    main()
