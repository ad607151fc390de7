"""Benchmark: the embedded probe (steps per second) and opening the whole catalog.

Baselines measured in the same run:
* a probe step against one lookup in a plain dict of the same size (the
  floor for any Python-level tree walk);
* opening the shipped catalog (its index), and opening it and checking all of
  it (Catalog.check_all: what ``verify`` adds before its replay), against just
  reading its bytes and hashing them once (the floor for any verified load).

Usage: python benchmarks/bench_probe.py
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog

STEPS = 200_000


def best_seconds(repeats: int, action: Callable[[], object]) -> float:
    """Return the fastest of ``repeats`` timings of ``action``."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    open_catalog().close()  # warm imports and the OS file cache
    index = best_seconds(5, lambda: open_catalog().close())

    def check_whole() -> None:
        with open_catalog() as opened:
            opened.check_all()

    load = best_seconds(3, check_whole)
    raw = best_seconds(5, lambda: hashlib.sha256(SHIPPED_CATALOG.read_bytes()).digest())
    catalog = open_catalog()
    size = SHIPPED_CATALOG.stat().st_size
    print(
        f"open the shipped catalog ({len(catalog)} policies, {size:,} bytes): "
        f"{index * 1e3:.1f} ms; open + check all of it: {load * 1e3:.1f} ms; "
        f"baseline read + SHA-256 of the file {raw * 1e3:.1f} ms "
        f"({index / raw:.2f}x and {load / raw:.1f}x the baseline)"
    )

    policy = catalog.policy("wordle-2309-normal-neg-entropy")
    # Every (node, reply) edge of the tree, cycled: a realistic mix of cursors.
    arrays = policy.data.numpy_arrays()
    parents = np.repeat(np.arange(policy.data.node_count), np.diff(arrays["edge_offsets"]))
    pairs = list(zip(parents.tolist(), arrays["edge_reply"].tolist(), strict=True))
    work = (pairs * (STEPS // len(pairs) + 1))[:STEPS]
    plain = {node * 243 + reply: node for node, reply in pairs}

    def probe_steps() -> None:
        step = policy.step
        for node, reply in work:
            step(node, reply)

    def dict_lookups() -> None:
        get = plain.get
        for node, reply in work:
            get(node * 243 + reply)

    ours = best_seconds(3, probe_steps) / STEPS
    floor = best_seconds(3, dict_lookups) / STEPS
    print(
        f"probe step (reply code): {ours * 1e6:.3f} us = {1 / ours:,.0f} steps/s; "
        f"baseline dict lookup {floor * 1e6:.3f} us ({ours / floor:.1f}x the baseline)"
    )

    history = [("raise", "....."), ("mulch", ".....")]
    text = best_seconds(3, lambda: [policy.next_guess(history) for _ in range(10_000)]) / 10_000
    print(f"next_guess with a two-turn text history (parsing included): {text * 1e6:.1f} us")
    targets = policy.targets
    games = best_seconds(1, lambda: [policy.play(t) for t in targets])
    print(
        f"full games (reply computed in Python + steps): {len(targets) / games:,.0f} games/s "
        f"({games * 1e6 / len(targets):.1f} us each)"
    )


if __name__ == "__main__":
    main()
