"""Benchmark: the first stored suggestion on long-word policies costs what a 5-letter one does.

Builds greedy normal-mode neg_entropy Wordle policies over enable1 words of 5
and 11 letters (the 11-letter list has 15,504 words), writes each as a policy
file, then in a fresh process per policy times what a user waits for: open
the file (verified), the first suggestion, and a stored suggestion after one
turn with 5 alternatives. Before the lookup-core redesign the first stored
suggestion computed the policy's whole reply matrix (40-50 s for 11 letters);
now it reads the stored alternatives. The 5-letter policy is the same-run
baseline; the ratio is 11-letter / 5-letter. An off-tree (live) answer is
timed too, since it ranks from a reply block rather than the whole matrix.

Then, from the shipped catalog, the first suggestion of each word length's
policy (``guesswork play --length K``: enable1, 4 to 11 letters), again in a
fresh process each: opening the catalog (verified, every policy indexed), the
first suggestion, and the whole ``guesswork suggest --length K`` command as a
user runs it, against the default 5-letter policy in the same run.

Usage: python benchmarks/bench_lookup.py [--shipped-only] [LENGTH ...]   (default: 5 11)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guesswork.builder.policies import PolicySpec, build_policy  # noqa: E402
from guesswork.builder.publish import StoredPolicy, export_bytes  # noqa: E402
from guesswork.builder.wordlists import load_wordlist  # noqa: E402
from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.client.games import Wordle  # noqa: E402

_PROBE = """
import json, sys, time
started = time.perf_counter()
from guesswork.client.catalog import open_store
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.builder.live import GreedyLiveSolver
store = open_store(sys.argv[1])
lookup = CatalogLookup(store, GreedyLiveSolver())
policy = next(iter(lookup))
opened = time.perf_counter()
first = policy.suggest([], 5)
t_first = time.perf_counter()
target = policy.policy.targets[len(policy.policy.targets) // 3]
reply = policy.game.format_reply(policy.game.reply(first.guess, target))
second = policy.suggest([(first.guess, reply)], 5)
t_second = time.perf_counter()
other = policy.policy.guesses[-1]
off = policy.suggest([(other, policy.game.format_reply(policy.game.reply(other, target)))], 5)
t_live = time.perf_counter()
print(json.dumps({"open": opened - started, "first": t_first - opened,
                  "second": t_second - t_first, "live": t_live - t_second,
                  "guess": first.guess, "source": [first.source, second.source, off.source],
                  "remaining_live": off.remaining}))
"""


def policy_file(length: int, folder: Path) -> tuple[Path, int, float]:
    """Build the enable1 policy of ``length``; return its file, word count and build seconds."""
    started = time.perf_counter()
    built = build_policy(PolicySpec("wordle", length=length, targets="enable1"))
    seconds = time.perf_counter() - started
    words = load_wordlist("enable1", Wordle(length=length)).words
    path = folder / f"enable1-{length}.gwp"
    path.write_bytes(export_bytes(StoredPolicy.from_data(built.data, words, words)))
    return path, len(words), seconds


def _probe(path: Path) -> dict[str, Any]:
    """Return the timings of one fresh process answering from ``path``."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(f"probe failed:\n{done.stderr}")
    timings: dict[str, Any] = json.loads(done.stdout)
    return timings


_CATALOG_PROBE = """
import json, sys, time
started = time.perf_counter()
from guesswork.client.catalog import open_catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.builder.live import GreedyLiveSolver
lookup = CatalogLookup(open_catalog(), GreedyLiveSolver())
opened = time.perf_counter()
first = lookup.policy(sys.argv[1]).suggest([], 5)
print(json.dumps({"open": opened - started, "first": time.perf_counter() - opened,
                  "guess": first.guess, "remaining": first.remaining}))
"""


def shipped_first_suggestions() -> None:
    """Print each shipped length's first suggestion, timed in fresh processes."""
    names = {5: "wordle-2309-normal-neg-entropy"}
    names |= {k: f"wordle-{k}-enable1-normal-neg-entropy" for k in range(4, 12) if k != 5}
    with open_catalog() as catalog:
        missing = [name for name in names.values() if catalog.get_policy(name) is None]
    if missing:
        print(f"\nshipped catalog lacks {', '.join(missing)}: run `make catalog`")
        return
    print("\nshipped catalog, first suggestion per word length (best of 3 fresh processes):")
    firsts = {}
    for length, name in sorted(names.items()):
        runs = []
        for _ in range(3):
            done = subprocess.run(
                [sys.executable, "-c", _CATALOG_PROBE, name],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=True,
            )
            runs.append(json.loads(done.stdout))
        started = time.perf_counter()
        for _ in range(3):
            subprocess.run(
                [sys.executable, "-m", "guesswork", "suggest", "--length", str(length)],
                capture_output=True,
                cwd=ROOT,
                check=True,
            )
        command = (time.perf_counter() - started) / 3
        first = firsts[length] = min(run["first"] for run in runs)
        print(
            f"k={length:<2} {name:<38} {runs[0]['remaining']:>6} words  "
            f"open catalog {min(run['open'] for run in runs) * 1e3:7.1f} ms  "
            f"first {first * 1e6:7.0f} us  `suggest --length {length}` {command:5.2f} s  "
            f"({runs[0]['guess']})",
            flush=True,
        )
    print(
        "ratio to k=5 (first suggestion): "
        + ", ".join(f"k={k} {first / firsts[5]:.2f}x" for k, first in firsts.items() if k != 5)
    )


def main() -> None:
    arguments = sys.argv[1:]
    shipped_only = "--shipped-only" in arguments
    lengths = [int(arg) for arg in arguments if arg != "--shipped-only"] or [5, 11]
    if shipped_only:
        lengths = []
    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        for length in lengths:
            path, count, built = policy_file(length, Path(folder))
            runs = [_probe(path) for _ in range(3)]
            best = {key: min(run[key] for run in runs) for key in ("open", "first", "second")}
            best["live"] = min(run["live"] for run in runs)
            rows[length] = best
            print(
                f"k={length:<2} {count:>6} words  built {built:6.1f} s  "
                f"open {best['open'] * 1e3:7.1f} ms  first {best['first'] * 1e6:7.0f} us  "
                f"stored after 1 turn {best['second'] * 1e6:7.0f} us  "
                f"live (off-tree) {best['live'] * 1e3:7.1f} ms  ({runs[0]['guess']}, "
                f"{'/'.join(runs[0]['source'])})",
                flush=True,
            )
    if 5 in rows:
        for length, best in rows.items():
            if length != 5:
                print(
                    f"ratio k={length} / k=5: first suggestion "
                    f"{best['first'] / rows[5]['first']:.2f}x, stored after 1 turn "
                    f"{best['second'] / rows[5]['second']:.2f}x"
                )
    shipped_first_suggestions()


if __name__ == "__main__":
    main()
