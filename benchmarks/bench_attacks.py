"""Another client's stored answers alone and under attack, same run (issue #42).

Starts ``guesswork-serve`` (gRPC and ``--http``) on the shipped catalog and
measures a well-behaved client: ``--calls`` stored SuggestGuess answers over
gRPC and as many over HTTP/JSON (each with a distinct history on the stored
tree, cache off, so each is a real lookup) and a fifth as many live ones over
gRPC (histories that leave the tree at once), first alone, then during each
attack of issue #42, against the same server in the same run:

1. **half-open gRPC calls**: two channels (``grpc.use_local_subchannel_pool``),
   each with 170 ``stream_unary`` SuggestGuess calls whose request never comes;
2. **unfinished HTTP bodies**: 64 connections, each sending a SuggestGuess
   POST's headers with ``Content-Length: 10`` and one byte of its body;
8. **expensive requests**: two client threads sending, again and again, a
   32-board SuggestBoards on the 14855-word weighted policy (one guess played
   against 32 different secrets: 32 distinct boards to value) and a one-board
   SuggestBoards on the 8-letter policy (refused by its cost limit now).

The attackers connect from 127.0.0.1; the measured client from ``--victim``
(by default the IPv6 loopback ``::1``, a different peer for the per-peer
limits; the server listens on both). For each phase it prints the measured
client's p50 and p99 latency on each transport, the calls that failed, and
p99's ratio to the same transport alone: the target is at most 3x.

Usage: python benchmarks/bench_attacks.py [--calls N] [--server-python PATH]
(``--server-python`` runs the server with another interpreter, such as the
virtualenv of another checkout, for a before/after on the same machine.)
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc  # noqa: E402

POLICY = "wordle-2315-g12972-normal-neg-entropy"
SUGGEST = "/guesswork.v1.Guesswork/SuggestGuess"
WEIGHTED = "wordle-14855-weighted-wordfreq-normal-neg-entropy"
EIGHT_LETTERS = "wordle-8-enable1-normal-neg-entropy"


def free_port() -> int:
    """Return a free TCP port on the loopback interfaces."""
    with socket.socket(socket.AF_INET6) as probe:
        probe.bind(("::", 0))
        return int(probe.getsockname()[1])


def start_server(python: str, grpc_port: int, http_port: int) -> subprocess.Popen[bytes]:
    """Start the service of interpreter ``python`` (its installed guesswork) on every
    interface and wait until it answers a Ping."""
    process = subprocess.Popen(
        [
            python,
            "-m",
            "guesswork.service",
            "--address",
            f"[::]:{grpc_port}",
            "--http",
            f"[::]:{http_port}",
            "--cache-entries",
            "0",
            "--log-level",
            "ERROR",
        ],
        stderr=subprocess.DEVNULL,
    )
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        stub = pb_grpc.GuessworkStub(channel)
        while True:
            try:
                stub.Ping(pb.PingRequest(), timeout=1)
                return process
            except grpc.RpcError:
                if process.poll() is not None:
                    raise SystemExit(
                        f"the server exited at start (status {process.returncode})"
                    ) from None
                time.sleep(0.1)


def histories(count: int, off_tree: bool = False) -> list[list[pb.Turn]]:
    """Return ``count`` distinct histories that stay on POLICY's stored tree, or that
    leave it at the first guess (answered live) when ``off_tree``."""
    rng = random.Random(43 if off_tree else 42)
    with open_catalog() as catalog:
        policy = catalog.policy(POLICY)
        game = policy.game
        found: list[list[pb.Turn]] = []
        seen: set[tuple[tuple[str, str], ...]] = set()
        while len(found) < count:
            target = rng.choice(policy.targets)
            played = policy.play(target)[:-1]
            cut = played[: rng.randrange(1, len(played) + 1)] if played else []
            if off_tree:
                cut = [rng.choice(policy.guesses)]
            turns = tuple((g, game.format_reply(game.reply(g, target))) for g in cut)
            if turns in seen and len(seen) < len(policy.targets):
                continue
            seen.add(turns)
            found.append([pb.Turn(guess=g, reply=r) for g, r in turns])
    return found


def percentile(values: list[float], share: float) -> float:
    """Return the ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(
    victim: str, grpc_port: int, http_port: int, draws: dict[str, list[list[pb.Turn]]]
) -> dict[str, tuple[list[float], int]]:
    """Return, per transport, the latencies of the client's calls and how many failed:
    stored answers over gRPC and HTTP (``draws["stored"]``), and live answers over
    gRPC (``draws["live"]``)."""
    host = f"[{victim}]" if ":" in victim else victim
    results: dict[str, tuple[list[float], int]] = {}
    with grpc.insecure_channel(f"{host}:{grpc_port}") as channel:
        stub = pb_grpc.GuessworkStub(channel)
        with contextlib.suppress(grpc.RpcError):  # connected first; an old server may refuse
            stub.Ping(pb.PingRequest(), timeout=30)
        for label, draw in (("gRPC", "stored"), ("gRPC live", "live")):
            times, failed = [], 0
            for turns in draws[draw]:
                request = pb.SuggestGuessRequest(policy=POLICY, history=turns)
                started = time.perf_counter()
                try:
                    stub.SuggestGuess(request, timeout=60)
                    times.append(time.perf_counter() - started)
                except grpc.RpcError:
                    failed += 1
            results[label] = (times, failed)
    times, failed = [], 0
    url = f"http://{host}:{http_port}{SUGGEST}"
    for turns in draws["stored"]:
        body = json.dumps(
            {"policy": POLICY, "history": [{"guess": t.guess, "reply": t.reply} for t in turns]}
        ).encode()
        request = urllib.request.Request(
            url, data=body, headers={"Content-Type": "application/json"}
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                answer.read()
            times.append(time.perf_counter() - started)
        except (urllib.error.URLError, OSError):
            failed += 1
    results["HTTP"] = (times, failed)
    return results


@contextmanager
def half_open_grpc(grpc_port: int) -> Iterator[str]:
    """Point 1: two channels, each with 170 SuggestGuess calls whose request never comes."""
    release = threading.Event()

    def never() -> Iterator[bytes]:
        release.wait()
        return
        yield b""

    channels = [
        grpc.insecure_channel(
            f"127.0.0.1:{grpc_port}", options=[("grpc.use_local_subchannel_pool", 1)]
        )
        for _ in range(2)
    ]
    calls = []
    for channel in channels:
        method = channel.stream_unary(SUGGEST)
        calls += [method.future(never(), timeout=600) for _ in range(170)]
    time.sleep(2)  # the calls are open on the server before the client measures
    try:
        yield f"{len(calls)} half-open gRPC calls on 2 connections"
    finally:
        release.set()
        for call in calls:
            call.cancel()
        for channel in channels:
            channel.close()


@contextmanager
def unfinished_bodies(http_port: int) -> Iterator[str]:
    """Point 2: 64 connections, each with a POST whose body stops after one byte of ten."""
    sockets = []
    for _ in range(64):
        connection = socket.create_connection(("127.0.0.1", http_port))
        connection.sendall(
            f"POST {SUGGEST} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 10\r\n\r\n{".encode()
        )
        sockets.append(connection)
    time.sleep(1)
    try:
        yield f"{len(sockets)} unfinished HTTP bodies"
    finally:
        for connection in sockets:
            connection.close()


@contextmanager
def expensive_boards(grpc_port: int) -> Iterator[str]:
    """Point 8: two threads sending costly SuggestBoards calls, again and again."""
    stop = threading.Event()
    outcomes: collections.Counter[str] = collections.Counter()
    with open_catalog() as catalog:
        weighted = catalog.policy(WEIGHTED)
        words = list(weighted.targets[:64])
        game = weighted.game
    rng = random.Random(7)

    def boards_request(index: int) -> pb.SuggestBoardsRequest:
        if index == 0:
            # 32 boards, one guess played on each against a different secret: distinct
            # boards, each valued (alike boards are valued once), within the cost limit.
            guess = rng.choice(words)
            secrets = rng.sample(list(weighted.targets), 32)
            boards = [
                pb.BoardHistory(
                    history=[pb.Turn(guess=guess, reply=game.format_reply(game.reply(guess, s)))]
                )
                for s in secrets
            ]
            return pb.SuggestBoardsRequest(policy=WEIGHTED, boards=boards)
        return pb.SuggestBoardsRequest(policy=EIGHT_LETTERS, boards=[pb.BoardHistory()])

    def attacker(index: int) -> None:
        with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            while not stop.is_set():
                future = stub.SuggestBoards.future(boards_request(index), timeout=600)
                while not stop.is_set() and not future.done():
                    time.sleep(0.05)
                if not future.done():
                    future.cancel()
                    outcomes["cut at the end"] += 1
                elif future.exception() is None:
                    outcomes["answered"] += 1
                else:
                    code = future.exception().code().name  # type: ignore[union-attr]
                    outcomes[f"refused {code}"] += 1

    threads = [threading.Thread(target=attacker, args=(i,), daemon=True) for i in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    try:
        yield "two clients sending costly SuggestBoards calls"
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        print("# the costly calls:", ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per transport per phase")
    parser.add_argument("--victim", default="::1", help="the measured client's server address")
    parser.add_argument("--server-python", default=sys.executable)
    parser.add_argument(
        "--phases", default="1,2,8", help="the attacks to run, by point number (default 1,2,8)"
    )
    args = parser.parse_args()
    grpc_port, http_port = free_port(), free_port()
    draws = {"stored": histories(args.calls), "live": histories(args.calls // 5, off_tree=True)}
    server = start_server(args.server_python, grpc_port, http_port)
    phases: list[tuple[str, Callable[[], object]]] = [
        ("1 half-open gRPC", lambda: half_open_grpc(grpc_port)),
        ("2 unfinished HTTP", lambda: unfinished_bodies(http_port)),
        ("8 costly boards", lambda: expensive_boards(grpc_port)),
    ]
    print(f"cores {os.cpu_count()}, {args.calls} stored calls per transport per phase")
    print(
        f"{'phase':<20} {'transport':<9} {'p50 ms':>8} {'p99 ms':>8} {'failed':>6} {'p99/alone':>9}"
    )
    try:
        measure(args.victim, grpc_port, http_port, draws)  # warm: policies read, code loaded
        alone = measure(args.victim, grpc_port, http_port, draws)
        report("alone", alone, alone)
        chosen = args.phases.split(",")
        for name, attack in [(n, a) for n, a in phases if n.split()[0] in chosen]:
            with attack() as what:  # type: ignore[attr-defined]
                print(f"# {what}")
                during = measure(args.victim, grpc_port, http_port, draws)
            report(name, during, alone)
    finally:
        server.terminate()
        server.wait(timeout=60)


def report(
    phase: str,
    results: dict[str, tuple[list[float], int]],
    alone: dict[str, tuple[list[float], int]],
) -> None:
    """Print one phase's line per transport."""
    for transport, (times, failed) in results.items():
        if not times:
            print(f"{phase:<20} {transport:<9} {'-':>8} {'-':>8} {failed:>6} {'-':>9}")
            continue
        p99 = percentile(times, 0.99)
        base = percentile(alone[transport][0], 0.99) if alone[transport][0] else float("nan")
        print(
            f"{phase:<20} {transport:<9} {statistics.median(times) * 1000:>8.1f} "
            f"{p99 * 1000:>8.1f} {failed:>6} {p99 / base:>8.2f}x"
        )


if __name__ == "__main__":
    main()
