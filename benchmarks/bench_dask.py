"""Benchmark: the exact search in one process against a local Dask cluster (issue #13).

Rows (2315 answers; each run builds the same tree, which is checked):

* ``SALET``: the normal-mode proof given SALET (12972 guesses), about 1.5 s in
  one process; its 96 root branches are the cluster's units.
* any other fixed opener given with ``--openers`` (CRANE takes about 17 s, 16
  of them in one branch of 122 answers: the limit of root-branch units);
* ``global hard``: hard mode over every opener (first pass and survivors
  on the cluster), about a minute in one process.

Each is run in process (the same-run baseline, ratio 1.00), then through
``--scheduler`` on an already running local cluster of 1 and 2 workers
(engine "dask": the search's set-up on the workers counts, the cluster's
start does not), then with ``--workers 2`` (engine "dask-local": a cluster
started and stopped for the run, as ``optimize`` does by default). "search" is
the search alone, "total" the whole build; ratios are totals against the
in-process total. "CPU s" is the CPU time of every process of the run, workers
included (their start-up too): on a loaded machine, CPU s / workers is what the
wall time would be with a free core each. The 1-minute load
average before and after each row says how much else the machine was doing.

Usage: python benchmarks/bench_dask.py [--openers SALET,CRANE] [--workers 1,2]
       [--skip-global]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-bench-"))

import logging

import numpy as np
from distributed import Client, LocalCluster

from guesswork.builder.optimal.problem import make_problem
from guesswork.builder.policies import OptimalSpec, build_optimal_policy


def _cpu() -> float:
    """Return the CPU seconds of this process and of its children that have ended
    (a local cluster's workers count once it is closed)."""
    own, ended = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


def _load() -> str:
    """Return the 1-minute load average."""
    return f"{os.getloadavg()[0]:.1f}"


def _row(label: str, spec: OptimalSpec, workers: list[int]) -> None:
    """Print one row per engine for ``spec``: in process (the baseline), on an
    already running cluster of each size in ``workers`` (``--scheduler``), and on
    a cluster started for the run (``--workers N``, N the largest size)."""
    game = spec.check()  # the reply matrix, computed (and cached) before any timing
    make_problem(game, *spec.lists(game))
    runs: list[tuple[int, int | None]] = [(1, None), *((n, n) for n in workers)]
    runs.append((max(workers), None))
    baseline, tree = 0.0, None
    for count, cluster_size in runs:
        cluster = client = None
        options: dict[str, object] = {"workers": count}
        if cluster_size is not None:
            cluster = LocalCluster(
                n_workers=cluster_size,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
            client = Client(cluster, set_as_default=False)
            options["scheduler"] = cluster.scheduler_address
        before = _load()
        cpu = _cpu()
        started = time.perf_counter()
        try:
            built, result = build_optimal_policy(spec, **options)  # type: ignore[arg-type]
        finally:
            if client is not None and cluster is not None:
                client.close()
                cluster.close()
        total = time.perf_counter() - started
        cpu = _cpu() - cpu
        outcome = result.outcome
        if tree is None:
            baseline, tree = total, built.tree.node_guess
        same = np.array_equal(built.tree.node_guess, tree)
        print(
            f"| {label} | {outcome.engine} | {outcome.workers} | {outcome.value} | "
            f"{outcome.seconds:.1f} | {total:.1f} | {total / baseline:.2f} | {cpu:.1f} | "
            f"{outcome.stats.expanded:,} | {outcome.stats.memo_peak_bytes / 2**20:.0f} | "
            f"{'yes' if same else 'NO'} | {before} / {_load()} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openers", default="SALET")
    parser.add_argument("--workers", default="1,2", help="cluster sizes to run")
    parser.add_argument("--skip-global", action="store_true")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    print(f"cores: {os.cpu_count()}; load before: {_load()}")
    print(
        "| search | engine | workers | value | search s | total s | ratio | CPU s | sets expanded "
        "| memo MiB (largest process) | same tree | load before / after |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for opener in args.openers.split(","):
        spec = OptimalSpec(
            "wordle",
            targets="wordle-answers-2315",
            guesses="wordle-guesses-12972",
            first_guess=opener,
        )
        _row(opener, spec, workers)
    if not args.skip_global:
        _row(
            "global hard",
            OptimalSpec("wordle", targets="wordle-answers-2315", mode="hard"),
            workers,
        )


if __name__ == "__main__":  # spawned workers import this file: only the parent runs it
    main()
