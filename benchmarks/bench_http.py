"""HTTP/JSON suggestions per second beside gRPC's, same run, with 1 and N server processes.

Starts ``guesswork-serve --http`` (``--processes`` 1, then N: the machine's cores,
at least 2) on free loopback ports and measures, against the same server, the
QPS and p50/p99 latency of SuggestGuess on stored trees (histories from real
games, bench_service's) over gRPC (bench_service's asyncio generator) and over
HTTP/JSON (an asyncio generator of keep-alive HTTP/1.1 connections sending
pre-encoded POSTs, reading each answer by its Content-Length: like wrk, it
costs little so the figures are the server's), and the no-op Ping over each as
the same-run baseline. The generator shares the machine's cores with the servers.

Usage: python benchmarks/bench_http.py [--requests N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_service import free_port, run_load, start_processes, stored_requests  # noqa: E402
from google.protobuf import json_format  # noqa: E402

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402

#: Keep-alive HTTP connections, each with one request in flight (HTTP/1.1).
CONNECTIONS = 32


def http_payloads(port: int, method: str, requests: list[Any]) -> list[bytes]:
    """Return each request as the bytes of one HTTP/1.1 POST of its JSON."""
    encoded = []
    for request in requests:
        body = json_format.MessageToJson(request, indent=None).encode()
        head = (
            f"POST /guesswork.v1.Guesswork/{method} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        encoded.append(head.encode() + body)
    return encoded


async def http_load(port: int, payloads: list[bytes], total: int) -> tuple[float, float, float]:
    """Return (QPS, p50 ms, p99 ms) of ``total`` POSTs over CONNECTIONS connections."""
    latencies: list[float] = []
    counter = iter(range(total))

    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(data)
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.decode(errors="replace"))
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)

    async def connection() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for _ in range(20):  # warm
                await one(reader, writer, payloads[0])
            await started.wait()
            for index in counter:
                began = time.perf_counter()
                await one(reader, writer, payloads[index % len(payloads)])
                latencies.append(time.perf_counter() - began)
        finally:
            writer.close()

    started = asyncio.Event()
    tasks = [asyncio.ensure_future(connection()) for _ in range(CONNECTIONS)]
    await asyncio.sleep(0.5)  # every connection warm
    began = time.perf_counter()
    started.set()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    latencies.sort()
    p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
    return total / elapsed, p50 * 1e3, p99 * 1e3


def start(processes: int) -> tuple[subprocess.Popen[str], str, int]:
    """Start ``guesswork-serve --http`` with ``processes``; return it, its gRPC address and
    its HTTP port, once it says it serves."""
    address, port = f"127.0.0.1:{free_port()}", free_port()
    return start_processes(address, processes, "--http", f"127.0.0.1:{port}"), address, port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000, help="calls per measurement")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    suggestions = stored_requests(1000)
    print(
        f"SuggestGuess on stored trees ({len(suggestions)} histories), Ping the baseline; "
        f"gRPC: 16 connections x 32 calls in flight; HTTP: {CONNECTIONS} keep-alive "
        f"connections; one client process sharing the {cores} cores with the servers"
    )
    print(
        f"{'processes':>9}  {'transport':<9}{'Ping QPS':>10}{'Suggest QPS':>13}"
        f"{'p50 ms':>8}{'p99 ms':>8}{'HTTP / gRPC':>13}"
    )
    for count in sorted({1, max(2, cores)}):
        process, address, port = start(count)
        try:
            asyncio.run(run_load(address, "SuggestGuess", suggestions, 8, len(suggestions) * count))
            grpc_ping = asyncio.run(
                run_load(address, "Ping", [pb.PingRequest()], 32, args.requests, 16)
            )
            grpc_suggest = asyncio.run(
                run_load(address, "SuggestGuess", suggestions, 32, args.requests, 16)
            )
            ping = http_payloads(port, "Ping", [pb.PingRequest()])
            suggest = http_payloads(port, "SuggestGuess", suggestions)
            http_ping = asyncio.run(http_load(port, ping, args.requests))
            http_suggest = asyncio.run(http_load(port, suggest, args.requests))
            for name, noop, ours in (
                ("gRPC", grpc_ping, grpc_suggest),
                ("HTTP", http_ping, http_suggest),
            ):
                ratio = f"{http_suggest[0] / grpc_suggest[0]:>13.0%}" if name == "HTTP" else ""
                print(
                    f"{count:>9}  {name:<9}{noop[0]:>10.0f}{ours[0]:>13.0f}"
                    f"{ours[1]:>8.2f}{ours[2]:>8.2f}{ratio}"
                )
        finally:
            process.terminate()
            process.wait(timeout=60)


if __name__ == "__main__":
    main()
