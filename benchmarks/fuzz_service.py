"""A fuzz of the running service: random gRPC and HTTP requests, no INTERNAL, no traceback.

Starts ``guesswork-serve`` (gRPC and ``--http``) on the shipped catalog with
its log on a file, then sends ``--grpc`` random gRPC requests and ``--http``
random HTTP requests (default 10,000 each) from a few client threads, drawn
with a fixed ``--seed``:

* gRPC: every method of guesswork.v1.Guesswork, health and reflection, plus
  unknown ones, each with a request filled at random from its message's
  descriptor (policies, words and replies from pools of valid and broken
  values, enum numbers in and out of range, repeated fields up to 80 long),
  sent whole, with bytes flipped, cut short or replaced by random bytes;
* HTTP: those requests as Connect JSON or binary bodies (whole, mutated,
  cut, gzip-compressed or falsely labelled gzip), as GET links, with random
  methods, paths (page files, unknown, long, odd bytes), content types,
  ``Connect-Timeout-Ms`` and protocol-version headers.

It prints the status codes seen per transport and fails (exit 1) if any
gRPC call ended UNKNOWN or INTERNAL, any HTTP answer was 5xx other than 501,
503 and 504 (Connect's statuses for unimplemented, unavailable and
deadline_exceeded: a compression or method not served, a server going away,
a deadline), or the server's log holds a traceback.

Usage: python benchmarks/fuzz_service.py [--grpc N] [--http N] [--seed S] [--threads T]
"""

from __future__ import annotations

import argparse
import base64
import collections
import gzip
import http.client
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from google.protobuf.descriptor import Descriptor, FieldDescriptor  # noqa: E402
from google.protobuf.message import Message  # noqa: E402
from google.protobuf.message_factory import GetMessageClass  # noqa: E402
from grpc_health.v1 import health_pb2  # noqa: E402

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb  # noqa: E402

POLICIES = [
    "wordle-2309-normal-max",
    "wordle-2315-g12972-normal-neg-entropy",
    "wordle-3158-g14855-normal-optimal",
    "jotto-2309-hard-max",
    "antiwordle-2309-hard-entropy",
    "guess-my-word-common-words-optimal-live",
    "wordle-8-enable1-normal-neg-entropy",
    "mastermind-4-6",
    "",
    "x" * 300,
    "policies/",
]
WORDS = ["RAISE", "arise", "salet", "fuzzy", "ninny", "xylyl", "the", "zzzzz", "", "🟩", "a" * 40]
REPLIES = [".....", "GGGGG", ".Y..G", "2", "-1", "🟩🟨⬛⬛⬛", "bbbbb", "", "GY.", "\x00"]
SERVICE = "guesswork.v1.Guesswork"


def free_port() -> int:
    """Return a free loopback TCP port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Draw:
    """Random requests, from one seeded generator per client thread."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        service = pb.DESCRIPTOR.services_by_name["Guesswork"]
        self.methods: list[tuple[str, Descriptor]] = [
            (f"/{SERVICE}/{m.name}", m.input_type) for m in service.methods
        ]
        self.methods.append(
            ("/grpc.health.v1.Health/Check", health_pb2.HealthCheckRequest.DESCRIPTOR)
        )

    def text(self, name: str) -> str:
        """Return a string for a field called ``name``."""
        rng = self.rng
        if rng.random() < 0.1:
            return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(12)))
        if "policy" in name or name == "name":
            return rng.choice(POLICIES)
        if "reply" in name:
            return rng.choice(REPLIES)
        if "letters" in name:
            return "".join(rng.sample("ABCDEFGHIJKLMNOPQRSTUVWXYZ", rng.randrange(0, 9)))
        return rng.choice(WORDS)

    def fill(self, message: Message, depth: int = 0) -> Message:
        """Fill ``message``'s fields at random and return it."""
        rng = self.rng
        for field in message.DESCRIPTOR.fields:
            if rng.random() < 0.3:
                continue
            repeated = field.is_repeated
            count = rng.choice([0, 1, 2, 3, 6, 80]) if repeated else 1
            for _ in range(count):
                if field.type == FieldDescriptor.TYPE_MESSAGE:
                    if field.message_type.GetOptions().map_entry or depth > 3:
                        break
                    target = getattr(message, field.name)
                    child = target.add() if repeated else target
                    self.fill(child, depth + 1)
                    continue
                value = self.scalar(field)
                if repeated:
                    getattr(message, field.name).append(value)
                else:
                    setattr(message, field.name, value)
        return message

    def scalar(self, field: FieldDescriptor) -> Any:
        """Return a random value of a scalar field's type."""
        rng = self.rng
        if field.type == FieldDescriptor.TYPE_STRING:
            return self.text(field.name)
        if field.type == FieldDescriptor.TYPE_BOOL:
            return rng.random() < 0.5
        if field.type == FieldDescriptor.TYPE_ENUM:
            return rng.choice([0, 1, 2, 3, 99, -1])
        if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return rng.choice([0.0, 0.5, -1.0, 1e300, float("nan")])
        if field.type == FieldDescriptor.TYPE_BYTES:
            return rng.randbytes(rng.randrange(20))
        unsigned = field.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64)
        values = [0, 1, 5, 32, 60, 1000, 2**31 - 1]
        return rng.choice(values if unsigned else [*values, -1, -(2**31)])

    def request(self) -> tuple[str, Message]:
        """Return a method path and a random request of its type."""
        path, descriptor = self.rng.choice(self.methods)
        return path, self.fill(GetMessageClass(descriptor)())

    def mutated(self, data: bytes) -> bytes:
        """Return ``data`` whole, with bytes flipped, cut short, or random bytes."""
        rng = self.rng
        kind = rng.random()
        if kind < 0.55 or not data:
            return data if kind < 0.55 else rng.randbytes(rng.randrange(64))
        if kind < 0.75:
            array = bytearray(data)
            for _ in range(rng.randrange(1, 4)):
                array[rng.randrange(len(array))] = rng.randrange(256)
            return bytes(array)
        if kind < 0.9:
            return data[: rng.randrange(len(data))]
        return rng.randbytes(rng.randrange(200))


def fuzz_grpc(address: str, count: int, seed: int, seen: collections.Counter[str]) -> None:
    """Send ``count`` random gRPC calls; count their status codes in ``seen``."""
    draw = Draw(seed)
    with grpc.insecure_channel(address) as channel:
        for _ in range(count):
            path, message = draw.request()
            if draw.rng.random() < 0.03:
                path = f"/{SERVICE}/NoSuchMethod"
            data = draw.mutated(message.SerializeToString())
            call = channel.unary_unary(path)
            try:
                call(data, timeout=60)
                seen["OK"] += 1
            except grpc.RpcError as error:
                seen[error.code().name] += 1


def http_request(draw: Draw) -> tuple[str, str, dict[str, str], bytes]:
    """Return a random HTTP request: method, target, headers, body."""
    rng = draw.rng
    path, message = draw.request()
    headers: dict[str, str] = {}
    kind = rng.random()
    if kind < 0.08:
        path = rng.choice(
            [
                "/",
                "/index.html",
                "/app.js",
                "/style.css",
                "/" + "a" * 300 + ".css",
                "/%ff%00",
                "/picture/analysis.svg",
                f"/{SERVICE}/",
                f"/{SERVICE}/Nope",
                "/..%2f..%2fetc",
            ]
        )
    if rng.random() < 0.15:
        headers["Connect-Timeout-Ms"] = rng.choice(["0", "1", "-5", "abc", "99999999999", "500"])
    if rng.random() < 0.1:
        headers["Connect-Protocol-Version"] = rng.choice(["1", "2", ""])
    if rng.random() < 0.2:
        headers["Accept-Encoding"] = rng.choice(["gzip", "br", "identity", "gzip;q=0"])
    text = json_format.MessageToJson(message, indent=None).encode()
    if rng.random() < 0.03:  # a lone surrogate, which only JSON's escapes can carry
        text = text.replace(b'"', b'"\\ud800', 1) if b'"' in text else b'{"policy":"\\ud800"}'

    if rng.random() < 0.3:
        query: dict[str, str] = {"encoding": rng.choice(["json", "proto", "xml"])}
        raw = draw.mutated(text if query["encoding"] == "json" else message.SerializeToString())
        if rng.random() < 0.2:
            raw, query["compression"] = gzip.compress(raw), rng.choice(["gzip", "br"])
        if rng.random() < 0.4 or "compression" in query or query["encoding"] == "proto":
            query["base64"] = "1"
            encoded = base64.urlsafe_b64encode(raw).decode().rstrip("=")
            query["message"] = encoded if rng.random() < 0.9 else encoded + "!!"
        else:
            query["message"] = raw.decode("utf-8", "replace")
        return "GET", f"{path}?{urllib.parse.urlencode(query)}", headers, b""
    binary = rng.random() < 0.3
    headers["Content-Type"] = rng.choice(
        ["application/proto"] if binary else ["application/json", "application/json; charset=utf-8"]
    )
    if rng.random() < 0.05:
        headers["Content-Type"] = rng.choice(["text/plain", "", "application/grpc"])
    body = draw.mutated(message.SerializeToString() if binary else text)
    if rng.random() < 0.15:
        headers["Content-Encoding"] = "gzip"
        body = gzip.compress(body) if rng.random() < 0.7 else draw.mutated(gzip.compress(body))
    method = rng.choices(["POST", "GET", "PUT", "HEAD", "OPTIONS", "DELETE"], [90, 4, 2, 2, 1, 1])[
        0
    ]
    return method, path, headers, body


def fuzz_http(port: int, count: int, seed: int, seen: collections.Counter[str]) -> None:
    """Send ``count`` random HTTP requests; count their statuses in ``seen``."""
    draw = Draw(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _ in range(count):
        method, target, headers, body = http_request(draw)
        try:
            connection.request(method, target, body=body or None, headers=headers)
            answer = connection.getresponse()
            answer.read()
            seen[str(answer.status)] += 1
            if answer.getheader("connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        except (http.client.HTTPException, OSError) as error:
            seen[f"connection {type(error).__name__}"] += 1
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grpc", type=int, default=10_000)
    parser.add_argument("--http", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    grpc_port, http_port = free_port(), free_port()
    log = Path(tempfile.mkdtemp(prefix="guesswork-fuzz-")) / "server.log"
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "guesswork.service",
                "--address",
                f"127.0.0.1:{grpc_port}",
                "--http",
                f"127.0.0.1:{http_port}",
                "--log-level",
                "INFO",
            ],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stderr=log_file,
            cwd=ROOT,
        )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=120)
        started = time.monotonic()
        grpc_seen: collections.Counter[str] = collections.Counter()
        http_seen: collections.Counter[str] = collections.Counter()
        threads = []
        for index in range(args.threads):
            share_g = args.grpc // args.threads + (index < args.grpc % args.threads)
            share_h = args.http // args.threads + (index < args.http % args.threads)
            threads += [
                threading.Thread(
                    target=fuzz_grpc,
                    args=(f"127.0.0.1:{grpc_port}", share_g, args.seed + index, grpc_seen),
                ),
                threading.Thread(
                    target=fuzz_http, args=(http_port, share_h, args.seed + 1000 + index, http_seen)
                ),
            ]
        crashed: list[str] = []
        for thread in threads:
            run = thread.run

            def guarded(run: Any = run) -> None:
                try:
                    run()
                except Exception as error:  # a fuzzer's own bug must not pass as a clean run
                    crashed.append(repr(error))

            thread.run = guarded  # type: ignore[method-assign]
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        alive = server.poll() is None
    finally:
        server.terminate()
        server.wait(timeout=60)
    text = log.read_text(errors="replace")
    tracebacks = text.count("Traceback (most recent call last)")
    bad_grpc = grpc_seen["INTERNAL"] + grpc_seen["UNKNOWN"]
    bad_http = sum(
        n for s, n in http_seen.items() if s.startswith("5") and s not in ("501", "503", "504")
    )
    print(
        f"{sum(grpc_seen.values()):,} gRPC and {sum(http_seen.values()):,} HTTP requests "
        f"in {elapsed:.0f} s, seed {args.seed}, {args.threads} threads of each"
    )
    print("gRPC:", ", ".join(f"{k} {v}" for k, v in grpc_seen.most_common()))
    print("HTTP:", ", ".join(f"{k} {v}" for k, v in http_seen.most_common()))
    print(
        f"server alive at the end: {alive}; log {log} ({len(text.splitlines())} lines), "
        f"tracebacks {tracebacks}"
    )
    print(f"INTERNAL/UNKNOWN {bad_grpc}, HTTP 5xx (not 501/503/504) {bad_http}")
    if crashed:
        print("client threads that crashed:", *crashed, sep="\n  ")
    if bad_grpc or bad_http or tracebacks or not alive or crashed:
        sys.exit(1)


if __name__ == "__main__":
    main()
