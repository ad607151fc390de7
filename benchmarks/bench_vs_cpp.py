"""Our exact Wordle proofs against the strongest public solver, per core, whole process.

The reference is Alex Selby's C++ solver (alex1770/wordle, MIT licence). Give
its source folder (the one holding ``wordle.cpp``); this benchmark compiles it
with the system compiler (``g++ -std=c++17 -O3 -march=native``) into a scratch
folder, writes our word lists there under the names it reads
(``wordlist_orig_all``: our wordle-guesses-12972, ``wordlist_orig_hidden``:
wordle-answers-2315), then runs each proof of both programs alternately,
pinned to one core (``taskset``), ``--runs`` times, each in a fresh process
with its caches warm (one untimed run of each first). For every run it reads
the whole process's CPU time (user + system) and peak resident memory from
``wait4``, and checks both programs print the same value. It prints, per
proof, ours, theirs and our/their ratio as min / median / max, and the peak
memory of each.

The proofs: SALET fixed, normal mode (7920); SALET fixed, NYT hard mode
with at most six guesses (theirs: ``-H -g6``; 8122 in total); and the
restricted search, the 10 best guesses per node (theirs ``-n10``; ours
``--beam 10``), SALET fixed.

Without the source folder, or without a C++ compiler or taskset, it says why
and runs only our side (so our figures are still printed). Never run by the
tests: it takes minutes and a peer's source.

Usage: python benchmarks/bench_vs_cpp.py [SOURCE_DIR] [--runs N] [--core C]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDLISTS = ROOT / "builder" / "data" / "wordlists"


@dataclass(frozen=True)
class Proof:
    """One proof, as each program is asked for it, and the value both must print."""

    name: str
    ours: tuple[str, ...]
    theirs: tuple[str, ...]
    value: int


PROOFS = (
    Proof(
        "SALET fixed, normal, 2315/12972",
        ("--first-guess", "SALET"),
        ("-w", "salet"),
        7920,
    ),
    Proof(
        "SALET fixed, NYT-hard cap 6",
        ("--first-guess", "SALET", "--mode", "nyt-hard", "--max-guesses", "6"),
        ("-w", "salet", "-H", "-g6"),
        8122,
    ),
    Proof(
        "restricted: top 10 per node, SALET fixed",
        ("--first-guess", "SALET", "--beam", "10"),
        ("-w", "salet", "-n10"),
        7920,
    ),
)


@dataclass(frozen=True)
class Run:
    """One process: its CPU seconds (user + system), peak memory in MB, and value."""

    cpu: float
    peak_mb: float
    value: int


def measured(command: list[str], cwd: Path, core: int) -> tuple[str, float, float]:
    """Run ``command`` pinned to ``core``; return (stdout, CPU seconds, peak MB)."""
    pinned = ["taskset", "-c", str(core), *command] if shutil.which("taskset") else command
    process = subprocess.Popen(
        pinned, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command[:3])} ... failed (status {status})")
    # ru_maxrss is in kilobytes on Linux.
    return out, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def run_ours(proof: Proof, core: int) -> Run:
    command = [
        sys.executable, "-m", "guesswork.builder", "optimize",
        "--targets", "wordle-answers-2315", "--guesses", "wordle-guesses-12972",
        "--objective", "total", "--workers", "1", "--quiet", "--json", *proof.ours,
    ]  # fmt: skip
    out, cpu, peak = measured(command, ROOT, core)
    return Run(cpu, peak, int(json.loads(out)["value"]))


def run_theirs(binary: Path, folder: Path, proof: Proof, core: int) -> Run:
    command = [str(binary), "-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden", *proof.theirs]
    out, cpu, peak = measured(command, folder, core)
    found = re.search(r"Best first guess score = (\d+)", out) or re.search(r"=\s+(\d+)", out)
    if found is None:
        raise SystemExit(f"no score in the C++ solver's output:\n{out[-2000:]}")
    return Run(cpu, peak, int(found.group(1)))


def build_reference(source: Path, folder: Path) -> tuple[Path | None, str]:
    """Compile the reference into ``folder``; return (binary, "") or (None, why not)."""
    if not (source / "wordle.cpp").is_file():
        return None, f"{source} holds no wordle.cpp"
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        return None, "no C++ compiler (g++ or c++) on PATH"
    binary = folder / "wordle"
    command = [
        compiler, "-o", str(binary), str(source / "wordle.cpp"),
        "-std=c++17", "-O3", "-march=native", "-DCOMMITDESC=\"ref\"",
    ]  # fmt: skip
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        return None, f"the compiler failed: {built.stderr[-500:]}"
    shutil.copyfile(WORDLISTS / "wordle-guesses-12972.txt", folder / "wordlist_orig_all")
    shutil.copyfile(WORDLISTS / "wordle-answers-2315.txt", folder / "wordlist_orig_hidden")
    return binary, ""


def spread(values: list[float]) -> str:
    """Return ``values`` as min / median / max."""
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", help="the C++ solver's source folder")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each program")
    parser.add_argument("--core", type=int, default=1, help="the core both are pinned to")
    args = parser.parse_args()
    if shutil.which("taskset") is None:
        print("no taskset: the runs are not pinned to one core")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        binary, why = (
            (None, "no source folder given")
            if not args.source
            else (build_reference(Path(args.source), folder))
        )
        if binary is None:
            print(f"the C++ comparison is skipped: {why}; our side only")
        print(
            f"{args.runs} runs each, alternately, pinned to core {args.core}; whole-process CPU "
            "seconds (user + system) as min / median / max"
        )
        for proof in PROOFS:
            run_ours(proof, args.core)  # warm: compiled kernels and matrix caches
            if binary is not None:
                run_theirs(binary, folder, proof, args.core)
            ours: list[Run] = []
            theirs: list[Run] = []
            for _ in range(args.runs):
                ours.append(run_ours(proof, args.core))
                if binary is not None:
                    theirs.append(run_theirs(binary, folder, proof, args.core))
            values = {run.value for run in ours + theirs}
            if values != {proof.value}:
                raise SystemExit(f"{proof.name}: values {sorted(values)}, expected {proof.value}")
            print(f"\n{proof.name} (value {proof.value})")
            print(f"  ours    CPU s {spread([r.cpu for r in ours])}   "
                  f"peak {max(r.peak_mb for r in ours):.1f} MB")  # fmt: skip
            if theirs:
                ratios = [o.cpu / t.cpu for o, t in zip(ours, theirs, strict=True)]
                print(f"  theirs  CPU s {spread([r.cpu for r in theirs])}   "
                      f"peak {max(r.peak_mb for r in theirs):.1f} MB")  # fmt: skip
                memory = max(r.peak_mb for r in ours) / max(r.peak_mb for r in theirs)
                print(f"  ours / theirs  CPU {spread(ratios)}   peak memory {memory:.2f}x")


if __name__ == "__main__":
    main()
