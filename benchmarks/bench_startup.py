"""Benchmark: the first answers after an install, from cold processes, on a fresh venv.

The package is installed the way a user gets it (``pip install`` of this
checkout, not editable) into a new virtual environment, whose size is measured
beside one holding the package as it was before its kernels moved from numba
to C (``--before``, default the last commit that needed numba): the same run,
``du -sh`` of each. Then, in the fresh environment, each figure is a fresh
process (the best of several runs: wall time, and peak resident memory from the
kernel's accounting of that child) against the same run's baseline, a bare
``python -c pass`` of that environment:

* the floor: importing the standard-library modules the package's types rest on
  (typing, dataclasses, pathlib, sqlite3, argparse) and msgpack, which every
  answer needs before any code of ours runs;
* the CLI's stored first suggestion (``guesswork suggest --policy ... --history ""``),
  and where its time goes, in one process: the floor's imports, the command's
  other imports, and the answer;
* the CLI's first live (off the stored tree) answer with empty caches (one run:
  it is first only once), and the same answer warm;
* the same stored suggestion through the embedding API (import, open the
  catalog, one suggestion);
* the embedding API on a catalog of ten times the shipped policies (each policy
  stored ten times under other names): opening must not grow with the count;
* a server's start until health reports SERVING, and its first computed
  (off-tree) suggestion after that, within the client's default deadline (5 s).

Targets (issue #43): first live <= 1.0 s and <= 5x the warm stored answer; warm
live <= 0.5 s; stored <= 5x the baseline; peak memory <= 80 MB stored, <= 150 MB live.

Usage: python benchmarks/bench_startup.py [--runs N] [--venv DIR] [--before REV | --no-before]
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
#: A history off every stored tree of today's default policy: answered live.
LIVE_HISTORY = "salet:.Y..Y"
#: The last commit whose kernels numba compiled (ec8c97c moved them to C).
BEFORE = "ec8c97c^"
#: What every answer imports before any code of ours runs (see the module docstring).
FLOOR = "import typing, dataclasses, pathlib, sqlite3, argparse, msgpack"
EMBED = (
    "import sys; from guesswork.client import open_catalog; "
    "c = open_catalog(sys.argv[1] if len(sys.argv) > 1 else None); "
    f"print(c.policy({POLICY!r}).next_guess([]))"
)
#: Where the CLI's stored answer spends its time, in one process: the floor's modules,
#: then the rest of what the command imports, then the answer itself (parsing the
#: command line, opening the catalog, reading and checking the policy, the walk).
BREAKDOWN = f"""
import contextlib, io, time
started = time.perf_counter()
{FLOOR}
floor = time.perf_counter()
import guesswork.__main__, guesswork.service.local
imported = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    guesswork.__main__.run(["suggest", "--policy", {POLICY!r}, "--history", ""])
answered = time.perf_counter()
print(floor - started, imported - floor, answered - imported)
"""
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


def printed(command: list[str], env: dict[str, str]) -> list[str]:
    """Return the words ``command`` prints, run outside this checkout (raises
    CalledProcessError if it fails)."""
    return subprocess.run(
        command,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        # Not this checkout: `python -c` would import its guesswork/ folder, not the
        # environment's installed package.
        cwd=tempfile.gettempdir(),
    ).stdout.split()


def measure(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Return the best wall seconds and the peak resident MB over ``runs`` runs of ``command``."""
    best, peak = float("inf"), 0.0
    for _ in range(runs):
        out = printed([sys.executable, "-c", LAUNCHER, *command], env)
        elapsed, kib, status = float(out[0]), int(out[1]), int(out[2])
        if status != 0:
            raise SystemExit(f"{' '.join(command)} failed (status {status})")
        best = min(best, elapsed)
        peak = max(peak, kib / 1024)  # KiB on Linux
    return best, peak


def breakdown(python: str, runs: int, env: dict[str, str]) -> tuple[float, float, float]:
    """Return the seconds of :data:`BREAKDOWN`'s three parts, each the least over ``runs``
    fresh processes."""
    best = [float("inf")] * 3
    for _ in range(runs):
        out = printed([python, "-c", BREAKDOWN], env)
        best = [min(b, float(part)) for b, part in zip(best, out, strict=True)]
    return best[0], best[1], best[2]


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


def server_start(python: Path, env: dict[str, str]) -> tuple[float, float]:
    """Return seconds from launching guesswork-serve to SERVING, and its first computed
    suggestion's seconds after that."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from guesswork.client.remote import RemoteClient

    address = f"127.0.0.1:{free_port()}"
    command = [str(python), "-m", "guesswork.service", "--address", address]
    started = time.perf_counter()
    server = subprocess.Popen(
        command, stderr=subprocess.DEVNULL, env=env, cwd=tempfile.gettempdir()
    )
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


def fresh_venv(folder: Path, source: Path) -> Path:
    """Create a virtual environment in ``folder`` and ``pip install`` ``source`` into it
    (not editable: as from a wheel); return its python.

    Raises:
        SystemExit: the install failed (pip's last lines are shown).
    """
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"pip install {source} failed:\n{done.stderr[-2000:]}")
    return python


def du(folder: Path) -> str:
    """Return ``du -sh``'s figure for ``folder`` (e.g. ``197M``)."""
    return subprocess.run(
        ["du", "-sh", str(folder)], capture_output=True, text=True, check=True
    ).stdout.split()[0]


def checkout(revision: str, folder: Path) -> Path:
    """Write the tree of ``revision`` of this repository into ``folder``; return it."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True
    ).stdout
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def report(label: str, figure: tuple[float, float], bare: float, target: str) -> None:
    """Print one figure: wall ms, peak MB, its ratio to the baseline, and its target."""
    wall, peak = figure
    print(
        f"{label:<38} {wall * 1e3:7.1f} ms {peak:6.1f} MB  "
        f"({wall / bare:4.1f}x the baseline; target {target})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--venv",
        type=Path,
        help="an environment to reuse, made there (and kept) if missing "
        "(default: a fresh one, removed after)",
    )
    parser.add_argument("--before", default=BEFORE, help="the revision to size against")
    parser.add_argument("--no-before", action="store_true", help="skip the before environment")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        if args.venv is not None and (args.venv / "bin" / "python").exists():
            venv = args.venv
            python = venv / "bin" / "python"
        else:
            started = time.perf_counter()
            venv = args.venv or work / "venv"
            python = fresh_venv(venv, ROOT)
            print(
                f"fresh venv with this checkout: {du(venv)} "
                f"({time.perf_counter() - started:.0f} s to install)"
            )
        if not args.no_before:
            before = fresh_venv(work / "before-venv", checkout(args.before, work / "before-src"))
            print(
                f"fresh venv with {args.before} (numba): {du(before.parents[1])}; "
                f"this checkout: {du(venv)}"
            )
        measure_all(python, args.runs, work)


def measure_all(python: Path, runs: int, work: Path) -> None:
    """Print every figure of the module docstring for the environment of ``python``."""
    # Bytecode cached, as every user has it (pip compiles it at install): an
    # environment that forbids writing it (some CI and sandbox images set
    # PYTHONDONTWRITEBYTECODE) would time the compiler instead.
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
    }
    env["GUESSWORK_PROGRESS"] = "0"
    cache = work / "cache"
    cache.mkdir()
    env["GUESSWORK_CACHE"] = str(cache)  # empty: the first live answer builds what it needs
    py = str(python)
    guesswork = str(python.parent / "guesswork")
    live = [guesswork, "suggest", "--history", LIVE_HISTORY]
    first_live = measure(live, 1, env)  # first: before anything else fills the cache
    bare = measure([py, "-c", "pass"], runs, env)
    floor = measure([py, "-c", FLOOR], runs, env)
    stored = measure([guesswork, "suggest", "--policy", POLICY, "--history", ""], runs, env)
    warm_live = measure(live, runs, env)
    embed = measure([py, "-c", EMBED], runs, env)
    print(f"{'baseline python -c pass:':<38} {bare[0] * 1e3:7.1f} ms {bare[1]:6.1f} MB")
    report("floor (stdlib the types need, msgpack):", floor, bare[0], "none: for reference")
    report("CLI stored first suggestion:", stored, bare[0], "5x, 80 MB")
    parts = breakdown(py, runs, env)
    print(
        f"{'  its parts, in one process:':<38} floor's imports {parts[0] * 1e3:.1f} ms, "
        f"the other imports {parts[1] * 1e3:.1f} ms, the answer {parts[2] * 1e3:.1f} ms"
    )
    report("CLI first live answer, empty caches:", first_live, bare[0], "1.0 s, 150 MB")
    print(f"{'':<38} {first_live[0] / stored[0]:.1f}x the warm stored answer (target 5x)")
    report("CLI live answer, warm:", warm_live, bare[0], "0.5 s, 150 MB")
    report("embedding API stored suggestion:", embed, bare[0], "5x, 80 MB")
    tenfold = tenfold_catalog(work)
    with open_catalog(tenfold) as big, open_catalog(SHIPPED_CATALOG) as small:
        counts = (len(small), len(big))
    large = measure([py, "-c", EMBED, str(tenfold)], runs, env)
    shipped = measure([py, "-c", EMBED], runs, env)
    print(
        f"embedding API, {counts[1]} policies vs {counts[0]}: {large[0] * 1e3:.1f} ms "
        f"{large[1]:.1f} MB vs {shipped[0] * 1e3:.1f} ms {shipped[1]:.1f} MB "
        f"({large[0] / shipped[0]:.2f}x the time, {large[1] / shipped[1]:.2f}x the memory)"
    )
    serving, first = server_start(python, env)
    print(
        f"server start to SERVING: {serving:.2f} s; first computed suggestion after it: "
        f"{first * 1e3:.1f} ms ({first / DEADLINE:.3f} of the client's {DEADLINE:.0f} s deadline)"
    )


if __name__ == "__main__":
    main()
