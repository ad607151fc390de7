"""Benchmark: the cost of a first stored answer, and of a server's start, from cold processes.

Each figure is a fresh process (the best of several runs: wall time, and peak
resident memory from the kernel's accounting of that child), measured against
the same run's baseline, a bare ``python -c pass``, with the package's bytecode
compiled first (as after ``pip install``):

* the CLI's stored first suggestion (``guesswork suggest --policy ... --history ""``);
* the same through the embedding API (import, open the catalog, one suggestion);
* the embedding API on a catalog of ten times the shipped policies (each policy
  stored ten times under other names): opening must not grow with the count;
* a server's start until health reports SERVING, and its first computed
  (off-tree) suggestion after that, within the client's default deadline (5 s).

Usage: python benchmarks/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guesswork.builder.publish import StoredBeeTable, StoredPolicy, publish_catalog  # noqa: E402
from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog  # noqa: E402
from guesswork.client.policy_format import encode_core  # noqa: E402

POLICY = "wordle-2309-normal-neg-entropy"
#: The package's folders, compiled to bytecode before any timing.
COMPILED = [str(ROOT / name) for name in ("guesswork", "client", "service", "builder", "protos")]
EMBED = (
    "import sys; from guesswork.client import open_catalog; "
    "c = open_catalog(sys.argv[1] if len(sys.argv) > 1 else None); "
    f"print(c.policy({POLICY!r}).next_guess([]))"
)
#: The client's default deadline (guesswork.client.cli --timeout).
DEADLINE = 5.0


#: Runs a command and prints its wall seconds and peak resident KiB. A lean process of
#: its own: a child forked from this (large) one would be charged this one's pages.
LAUNCHER = """
import os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(time.perf_counter() - started, usage.ru_maxrss, status)
"""


def measure(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Return the best wall seconds and the peak resident MB over ``runs`` runs of ``command``."""
    best, peak = float("inf"), 0.0
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", LAUNCHER, *command],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        elapsed, kib, status = float(out[0]), int(out[1]), int(out[2])
        if status != 0:
            raise SystemExit(f"{' '.join(command)} failed (status {status})")
        best = min(best, elapsed)
        peak = max(peak, kib / 1024)  # KiB on Linux
    return best, peak


def tenfold_catalog(folder: Path) -> Path:
    """Write a catalog of every shipped policy ten times (new names, so new cores)."""
    with open_catalog(SHIPPED_CATALOG) as shipped:
        stored, bees = [], []
        for policy in shipped:
            original = StoredPolicy.from_policy(policy)
            for copy in range(10):
                data = dataclasses.replace(policy.data, name=f"{policy.name}-copy{copy}")
                data = data if copy else policy.data  # copy 0 keeps the real name
                stored.append(StoredPolicy(encode_core(data), data, original.words))
        for table in shipped.bee_tables():
            bees.append(StoredBeeTable(table, shipped.word_list(table.list_sha256)))
    path = folder / "tenfold.sqlite"
    publish_catalog(str(path), stored, bees)
    return path


def free_port() -> int:
    """Return a loopback port free right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_start(env: dict[str, str]) -> tuple[float, float]:
    """Return seconds from launching guesswork-serve to SERVING, and its first computed
    suggestion's seconds after that."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from guesswork.client.remote import RemoteClient

    address = f"127.0.0.1:{free_port()}"
    command = [sys.executable, "-m", "guesswork.service", "--address", address]
    started = time.perf_counter()
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL, env=env)
    try:
        with grpc.insecure_channel(address) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while True:
                try:
                    reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        break
                except grpc.RpcError:
                    pass
                if server.poll() is not None:
                    raise SystemExit("the server exited during start-up")
                time.sleep(0.02)
        serving = time.perf_counter() - started
        with RemoteClient(address, timeout=DEADLINE) as client:
            asked = time.perf_counter()
            client.suggest(POLICY, [("crane", "⬛🟨⬛⬛⬛")])  # off the stored tree: live
            first = time.perf_counter() - asked
    finally:
        server.terminate()
        server.wait(30)
    return serving, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    # Bytecode cached, as every user has it (pip compiles it at install; a checkout
    # writes it on its first run): an environment that forbids writing it (some CI
    # and sandbox images set PYTHONDONTWRITEBYTECODE) would time the compiler instead.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    python = sys.executable
    subprocess.run([python, "-m", "compileall", "-q", *COMPILED], env=env, check=True)
    bare = measure([python, "-c", "pass"], args.runs, env)
    cli = measure(
        [python, "-m", "guesswork", "suggest", "--policy", POLICY, "--history", ""],
        args.runs,
        env,
    )
    embed = measure([python, "-c", EMBED], args.runs, env)
    print(f"baseline python -c pass:           {bare[0] * 1e3:7.1f} ms {bare[1]:6.1f} MB")
    rows = (("CLI stored first suggestion:", cli), ("embedding API stored suggestion:", embed))
    for label, (wall, peak) in rows:
        print(
            f"{label:<34} {wall * 1e3:7.1f} ms {peak:6.1f} MB  "
            f"({wall / bare[0]:.1f}x the baseline's time; target 5x, 80 MB)"
        )
    with tempfile.TemporaryDirectory() as folder:
        tenfold = tenfold_catalog(Path(folder))
        with open_catalog(tenfold) as big, open_catalog(SHIPPED_CATALOG) as small:
            counts = (len(small), len(big))
        large = measure([python, "-c", EMBED, str(tenfold)], args.runs, env)
        shipped = measure([python, "-c", EMBED, str(SHIPPED_CATALOG)], args.runs, env)
    print(
        f"embedding API, {counts[1]} policies vs {counts[0]}: {large[0] * 1e3:.1f} ms "
        f"{large[1]:.1f} MB vs {shipped[0] * 1e3:.1f} ms {shipped[1]:.1f} MB "
        f"({large[0] / shipped[0]:.2f}x the time, {large[1] / shipped[1]:.2f}x the memory)"
    )
    serving, first = server_start(env)
    print(
        f"server start to SERVING: {serving:.2f} s; first computed suggestion after it: "
        f"{first * 1e3:.1f} ms ({first / DEADLINE:.3f} of the client's {DEADLINE:.0f} s deadline)"
    )


if __name__ == "__main__":
    main()
