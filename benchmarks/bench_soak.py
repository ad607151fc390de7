"""Benchmark: a soak of mixed calls with distinct histories, sampling the server's memory.

Starts ``guesswork-serve`` on the shipped catalog and, from several client
threads, sends a mix of every lookup for ``--minutes`` (default 20): stored
and off-tree (live) suggestions over several policies, checks, scores, Evil
replies, analyses, top-honeycomb tables of varying length and honeycomb
scores, each with histories drawn at random (a fixed seed), so the response
cache keeps meeting new requests. Every ``--every`` seconds it prints the
server's resident memory (VmRSS) and the calls made. At the end: the memory
after start (the baseline), and the mean and peak of each half of the run
after its first minute: a plateau is the same band in both halves. It also
fits a line to the samples of the last ``--tail`` minutes (default 10) and
prints its slope in MB per minute with the slope's standard error: memory is
flat when the slope is within two standard errors of zero (the noise of the
samples themselves), and the same fit over the first half is printed beside
it for comparison. The
memory swings within the band as live answers' working arrays (a reply
matrix slice per call in flight, up to tens of MB) come and go.

The memory a server holds is bounded by (the README's "Memory" gives the
figures): what it holds after start; the policies read (each once, about 2 MB
each, 124 MB for all 64 shipped); the response cache (``--cache-entries``);
and the live computations running at once (``--max-live``), each with working
arrays of at most a few MB (a ranking's reply blocks) to about 130 MB (an
analysis's reply matrix and its transpose, builder.game_values.Budget). The
server sets glibc's malloc to two arenas and a fixed mapping threshold
(service.allocator), so freed working arrays go back to the system rather
than fragmenting per-thread arenas; ``MALLOC_ARENA_MAX`` and
``MALLOC_MMAP_THRESHOLD_`` in its environment override that.

Usage: python benchmarks/bench_soak.py [--minutes M] [--threads T] [--every S]
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc  # noqa: E402

POLICIES = [
    "wordle-2309-normal-neg-entropy",
    "wordle-2309-hard-max",
    "wordle-2315-g12972-normal-neg-entropy",
    "wordle-3158-g14855-normal-neg-entropy",
    "jotto-2309-normal-max",
    "antiwordle-2309-hard-entropy",
]


def resident_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Mix:
    """Random requests over a few policies: games played, then cut or sent off the tree."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        with open_catalog() as catalog:
            self.policies = {name: catalog.policy(name) for name in POLICIES}

    def _history(self, name: str) -> tuple[list[pb.Turn], str]:
        policy, rng = self.policies[name], self.rng
        game = policy.game
        target = rng.choice(policy.targets)
        played = policy.play(target)[:-1]
        cut = played[: rng.randrange(len(played) + 1)]
        if rng.random() < 0.5:  # off the stored tree: a guess of its own first
            cut = [rng.choice(policy.guesses), *cut[1:]]
        turns = [pb.Turn(guess=g, reply=game.format_reply(game.reply(g, target))) for g in cut]
        return turns, target

    def request(self) -> tuple[str, object]:
        """Return (method name, request) for one call of the mix."""
        rng = self.rng
        name = rng.choice(POLICIES)
        turns, target = self._history(name)
        kind = rng.random()
        guess = rng.choice(self.policies[name].guesses)
        if kind < 0.55:
            return "SuggestGuess", pb.SuggestGuessRequest(policy=name, history=turns)
        if kind < 0.65 and not name.startswith("jotto"):
            return "CheckGuess", pb.CheckGuessRequest(policy=name, history=turns, guess=guess)
        if kind < 0.75:
            return "ScoreGuess", pb.ScoreGuessRequest(policy=name, guess=guess, target=target)
        if kind < 0.82 and name.startswith("wordle"):
            return "EvilReply", pb.EvilReplyRequest(policy=name, history=turns, guess=guess)
        if kind < 0.9 and turns and name.startswith("wordle"):
            return "AnalyzeGame", pb.AnalyzeGameRequest(policy=name, history=turns, answer=target)
        if kind < 0.95:
            count = rng.randrange(1, 1001)
            return "TopHoneycombs", pb.TopHoneycombsRequest(allow_s=rng.random() < 0.5, count=count)
        letters = "".join(rng.sample("ABCDEFGHIJKLMNOPQRTUVWXYZ", 7))
        return "ScoreHoneycomb", pb.ScoreHoneycombRequest(letters=letters, center=letters[0])


def slope(samples: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Return the least-squares slope of (seconds, MB) samples in MB per minute and its
    standard error (from the residuals); None with fewer than three samples."""
    count = len(samples)
    if count < 3:
        return None
    mean_t = sum(t for t, _ in samples) / count
    mean_r = sum(r for _, r in samples) / count
    spread = sum((t - mean_t) ** 2 for t, _ in samples)
    if spread == 0:
        return None
    beta = sum((t - mean_t) * (r - mean_r) for t, r in samples) / spread
    residual = sum((r - mean_r - beta * (t - mean_t)) ** 2 for t, r in samples)
    error = (residual / (count - 2) / spread) ** 0.5
    return beta * 60, error * 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument(
        "--tail", type=float, default=10.0, help="minutes at the end whose RSS slope is fitted"
    )
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--every", type=float, default=15.0, help="seconds between samples")
    parser.add_argument(
        "--cache-entries",
        type=int,
        default=None,
        help="the server's --cache-entries (default: its own, 20,000)",
    )
    args = parser.parse_args()
    address = f"127.0.0.1:{free_port()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "guesswork.service", "--address", address]
    if args.cache_entries is not None:
        command += ["--cache-entries", str(args.cache_entries)]
    server = subprocess.Popen(
        [*command, "--log-level", "ERROR"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    line = server.stderr.readline()
    if "serving" not in line:
        raise SystemExit(f"the server did not start: {line}")
    baseline = resident_mb(server.pid)
    stop = threading.Event()
    calls = [0] * args.threads
    errors: dict[str, int] = {}

    def client(index: int) -> None:
        mix = Mix(index)
        with grpc.insecure_channel(address) as channel:
            stub = pb_grpc.GuessworkStub(channel)
            while not stop.is_set():
                method, request = mix.request()
                try:
                    getattr(stub, method)(request, timeout=30)
                except grpc.RpcError as error:  # refusals of bad draws are part of the mix
                    key = f"{method} {error.code().name}"
                    errors[key] = errors.get(key, 0) + 1
                calls[index] += 1

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(args.threads)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    samples: list[tuple[float, float]] = [(0.0, baseline)]
    print(
        f"cores {os.cpu_count()}, {args.threads} client threads, {args.minutes} min, "
        f"server --cache-entries {args.cache_entries or 'default'}"
    )
    print(f"{'seconds':>8} {'calls':>9} {'RSS MB':>8}")
    print(f"{0:>8.0f} {0:>9,} {baseline:>8.1f}")
    try:
        while time.monotonic() - started < args.minutes * 60:
            time.sleep(args.every)
            elapsed, rss = time.monotonic() - started, resident_mb(server.pid)
            samples.append((elapsed, rss))
            print(f"{elapsed:>8.0f} {sum(calls):>9,} {rss:>8.1f}", flush=True)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=40)
        server.terminate()
        server.wait(timeout=30)
    total = time.monotonic() - started
    # Memory swings with the live answers in flight (their working arrays come and
    # go): a plateau is the same band in both halves after the first minute.
    early = [rss for t, rss in samples if 60 <= t < total / 2] or [baseline]
    late = [rss for t, rss in samples if t >= total / 2] or [baseline]
    print(
        f"baseline after start {baseline:.1f} MB; first half after a minute: mean "
        f"{sum(early) / len(early):.0f}, peak {max(early):.0f} MB; second half: mean "
        f"{sum(late) / len(late):.0f}, peak {max(late):.0f} MB; {sum(calls):,} calls "
        f"({sum(calls) / total:.0f}/s)"
    )
    tail_start = total - args.tail * 60
    for label, window in (
        (f"first {total / 120:.0f} min", [(t, r) for t, r in samples if t < total / 2]),
        (f"last {args.tail:g} min", [(t, r) for t, r in samples if t >= tail_start]),
    ):
        fitted = slope(window)
        if fitted is None:
            print(f"RSS slope over the {label}: too few samples")
            continue
        per_minute, error = fitted
        verdict = "flat (within noise)" if abs(per_minute) <= 2 * error else "NOT flat"
        print(
            f"RSS slope over the {label}: {per_minute:+.2f} MB/min "
            f"(standard error {error:.2f}; {len(window)} samples): {verdict}"
        )
    print(
        "refusals (bad draws, expected):", ", ".join(f"{k} {v}" for k, v in sorted(errors.items()))
    )


if __name__ == "__main__":
    main()
