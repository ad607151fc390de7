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

The proofs on 2315 x 12972: SALET fixed, normal mode (7920); SALET fixed,
NYT hard mode with at most six guesses (theirs: ``-H -g6``; 8122 in total);
and the restricted search, the 10 best guesses per node (theirs ``-n10``;
ours ``--beam 10``), SALET fixed. Then NYT hard mode, at most six guesses,
on 3158 x 14855 (``wordle-answers-3158`` / ``wordle-guesses-14855``, written
for it as ``wordlist_3158_hidden`` and ``wordlist_14855_all``), the proofs
the global NYT-hard optimum is made of (issue #46): TARSE fixed, exact
(11627, the best opener's value); and openers refuted against that ceiling
(ours ``--ceiling 11627``, theirs ``-b11627``), which is nearly all of the
global proof's work: SAPID and URENT (no tree within six guesses at all),
DEALT (no tree within six either: its _ATED class, where every legal guess
holds one free letter, needs the trap-family bound, builder/optimal/traps.py),
GLOVE (just above: the peer stops at ``>= 11640``) and JAZZY (far above: its
classes' one-level bounds already total 12111; the peer stops at ``>= 11628``).
A refutation checks that both programs refute (ours ``refuted``, theirs
``>=`` or its "no legal guess" value) and prints each one's proven bound.

Without the source folder, or without a C++ compiler or taskset, it says why
and runs only our side (so our figures are still printed). Never run by the
tests: it takes minutes and a peer's source.

``--cases`` runs a subset (their keys, comma-separated: salet, salet-hard,
beam10, tarse-hard, sapid, urent, dealt, glove, jazzy), for a busy machine;
``--no-warm`` skips the untimed runs (run once with them first, so that our
reply matrices are cached). CPU seconds, not wall time, are what compare on a
shared machine.

Usage: python benchmarks/bench_vs_cpp.py [SOURCE_DIR] [--runs N] [--core C]
       [--cases KEY,...] [--no-warm]
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


#: Each list pair: our list names, and the file names the reference reads them as.
LISTS = {
    "2315": (
        ("wordle-answers-2315", "wordle-guesses-12972"),
        ("wordlist_orig_hidden", "wordlist_orig_all"),
    ),
    "3158": (
        ("wordle-answers-3158", "wordle-guesses-14855"),
        ("wordlist_3158_hidden", "wordlist_14855_all"),
    ),
}
#: The best NYT-hard opener's value within six guesses on 3158 x 14855 (TARSE).
CEILING = 11627
HARD6 = ("--mode", "nyt-hard", "--max-guesses", "6")


@dataclass(frozen=True)
class Proof:
    """One proof, as each program is asked for it, and the value both must print
    (with ``ceiling``: a refutation, whose bound both must put at the ceiling or above)."""

    key: str
    name: str
    ours: tuple[str, ...]
    theirs: tuple[str, ...]
    value: int
    lists: str = "2315"
    ceiling: int | None = None


def _refutation(key: str, word: str, why: str) -> Proof:
    """Return the proof that opener ``word`` gets no tree below :data:`CEILING`."""
    return Proof(
        key,
        f"{word} refuted against {CEILING}, NYT-hard cap 6, 3158/14855 ({why})",
        ("--first-guess", word, *HARD6, "--ceiling", str(CEILING)),
        ("-w", word.lower(), "-H", "-g6", f"-b{CEILING}"),
        CEILING,
        "3158",
        CEILING,
    )


PROOFS = (
    Proof(
        "salet",
        "SALET fixed, normal, 2315/12972",
        ("--first-guess", "SALET"),
        ("-w", "salet"),
        7920,
    ),
    Proof(
        "salet-hard",
        "SALET fixed, NYT-hard cap 6",
        ("--first-guess", "SALET", *HARD6),
        ("-w", "salet", "-H", "-g6"),
        8122,
    ),
    Proof(
        "beam10",
        "restricted: top 10 per node, SALET fixed",
        ("--first-guess", "SALET", "--beam", "10"),
        ("-w", "salet", "-n10"),
        7920,
    ),
    Proof(
        "tarse-hard",
        "TARSE fixed, NYT-hard cap 6, 3158/14855, exact",
        ("--first-guess", "TARSE", *HARD6),
        ("-w", "tarse", "-H", "-g6"),
        CEILING,
        "3158",
    ),
    _refutation("sapid", "SAPID", "cannot win within 6"),
    _refutation("urent", "URENT", "cannot win within 6"),
    _refutation("glove", "GLOVE", "just above"),
    _refutation("dealt", "DEALT", "a trap family, _ATED: cannot win within 6"),
    _refutation("jazzy", "JAZZY", "far above"),
)


@dataclass(frozen=True)
class Run:
    """One process: its CPU seconds (user + system), peak memory in MB, and value
    (a refutation's: its proven bound, ``refuted`` True)."""

    cpu: float
    peak_mb: float
    value: int
    refuted: bool = False


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
    (targets, guesses), _ = LISTS[proof.lists]
    command = [
        sys.executable, "-m", "guesswork.builder", "optimize",
        "--targets", targets, "--guesses", guesses,
        "--objective", "total", "--workers", "1", "--quiet", "--json", *proof.ours,
    ]  # fmt: skip
    out, cpu, peak = measured(command, ROOT, core)
    report = json.loads(out)
    if report.get("refuted"):
        return Run(cpu, peak, int(report["lower_bound"]), True)
    return Run(cpu, peak, int(report["value"]))


def run_theirs(binary: Path, folder: Path, proof: Proof, core: int) -> Run:
    _, (hidden, allowed) = LISTS[proof.lists]
    command = [str(binary), "-a", allowed, "-h", hidden, *proof.theirs]
    out, cpu, peak = measured(command, folder, core)
    # "First guess tarse  = 11627 ...", or with -b a refutation "... >= 11640" (its own
    # "no legal guess" value, 10**9, where no tree meets the cap).
    first = re.search(r"First guess \w+\s+(>?)=\s+(\d+)", out)
    if first is not None:
        value = int(first.group(2))
        refuted = first.group(1) == ">" or (proof.ceiling is not None and value >= proof.ceiling)
        return Run(cpu, peak, value, refuted)
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
    for ours, theirs in LISTS.values():
        for name, file in zip(ours, theirs, strict=True):
            shutil.copyfile(WORDLISTS / f"{name}.txt", folder / file)
    return binary, ""


def bound_text(bound: int) -> str:
    """Return a refutation's bound as text: ours is 2**40 or more, theirs 10**9, where
    no tree meets the cap at all."""
    return "no tree within the cap" if bound >= 10**9 else f">= {bound}"


def spread(values: list[float]) -> str:
    """Return ``values`` as min / median / max."""
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", help="the C++ solver's source folder")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each program")
    parser.add_argument("--core", type=int, default=1, help="the core both are pinned to")
    parser.add_argument(
        "--cases",
        help=f"the proofs to run, by key, comma-separated (default all: "
        f"{','.join(p.key for p in PROOFS)})",
    )
    parser.add_argument("--no-warm", action="store_true", help="skip the untimed first runs")
    args = parser.parse_args()
    proofs = PROOFS
    if args.cases:
        keys = args.cases.split(",")
        unknown = sorted(set(keys) - {p.key for p in PROOFS})
        if unknown:
            parser.error(f"unknown cases {', '.join(unknown)}")
        proofs = tuple(p for p in PROOFS if p.key in keys)
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
        for proof in proofs:
            if not args.no_warm:
                run_ours(proof, args.core)  # warm: compiled kernels and matrix caches
                if binary is not None:
                    run_theirs(binary, folder, proof, args.core)
            ours: list[Run] = []
            theirs: list[Run] = []
            for _ in range(args.runs):
                ours.append(run_ours(proof, args.core))
                if binary is not None:
                    theirs.append(run_theirs(binary, folder, proof, args.core))
            if proof.ceiling is None:
                values = {run.value for run in ours + theirs}
                if values != {proof.value} or any(run.refuted for run in ours + theirs):
                    raise SystemExit(
                        f"{proof.name}: values {sorted(values)}, expected {proof.value}"
                    )
                print(f"\n{proof.name} (value {proof.value})")
            else:
                wrong = [r.value for r in ours + theirs if not r.refuted or r.value < proof.ceiling]
                if wrong:
                    raise SystemExit(f"{proof.name}: not refuted at {proof.ceiling}: {wrong}")
                bounds = f"ours {bound_text(ours[0].value)}" + (
                    f", theirs {bound_text(theirs[0].value)}" if theirs else ""
                )
                print(f"\n{proof.name} (refuted: {bounds})")
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
