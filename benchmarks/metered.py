"""Run a command and log what its whole process tree has used, every few seconds.

A global proof runs for hours, on a local Dask cluster (worker processes
under a nanny), and may be stopped (Ctrl-C, a session's end) and resumed from
its checkpoint: ``/usr/bin/time`` prints nothing for a killed run and sees only
the children it waited for. This samples the tree instead: every ``--every``
seconds (default 5) and once at the end it appends a JSON line to LOG: the
seconds since the start (``t``), the CPU seconds (user + system) of every
process of the tree so far (``cpu``: each process's own at its last sample),
the largest resident memory of any one process (``peak_one_mb``) and of the
tree at once (``peak_sum_mb``). A process loses at most its last interval's
CPU; the final line adds ``rusage_cpu``, what the command and the descendants
it waited for used (``getrusage``), exact where every process was waited for
(take the larger of the two). The last line of each log is that segment's
figure, and a resumed run's segments add up (docs/benchmarks.rst,
bench-todays-proofs).

Ctrl-C (SIGINT) and SIGTERM are passed on to the command (a proof then stops
with its checkpoint written), which gets SIGINT's default even where this was
started with it ignored; the exit status is the command's. Needs psutil (which Dask's
distributed installs).

Usage: python benchmarks/metered.py LOG [--every SECONDS] -- COMMAND [ARG ...]
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

try:
    import psutil
except ImportError:  # pragma: no cover - only without the optional cluster packages
    sys.exit("metered.py needs psutil (pip install psutil, or the dask extra)")


class TreeMeter:
    """The CPU and memory of one process and all its descendants, sampled."""

    def __init__(self, pid: int) -> None:
        """Meter the tree rooted at ``pid``."""
        self.root = psutil.Process(pid)
        #: Each process's CPU seconds when last seen (kept after it ends).
        self.cpu: dict[int, float] = {}
        self.peak_one = 0
        self.peak_sum = 0

    def sample(self) -> None:
        """Read every live process of the tree (processes that end meanwhile are skipped)."""
        try:
            processes = [self.root, *self.root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return
        resident = 0
        for process in processes:
            try:
                times = process.cpu_times()
                rss = process.memory_info().rss
            except psutil.NoSuchProcess:
                continue
            # Its own time only: a child it reaps would count again in its children_*
            # times, the child's last sample being kept.
            self.cpu[process.pid] = times.user + times.system
            resident += rss
            self.peak_one = max(self.peak_one, rss)
        self.peak_sum = max(self.peak_sum, resident)

    def line(self, started: float, **extra: object) -> str:
        """Return the JSON line of the figures so far (with ``extra`` keys)."""
        return json.dumps(
            {
                "t": round(time.monotonic() - started, 1),
                "cpu": round(sum(self.cpu.values()), 1),
                "peak_one_mb": self.peak_one >> 20,
                "peak_sum_mb": self.peak_sum >> 20,
                **extra,
            }
        )


def main(argv: list[str]) -> int:
    """Run the command after ``--``, metering it into LOG; return its exit status."""
    if "--" not in argv:
        sys.exit("usage: metered.py LOG [--every SECONDS] -- COMMAND [ARG ...]")
    split = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--every", type=float, default=5.0)
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if not command:
        sys.exit("metered.py: no command after --")
    started = time.monotonic()
    children: list[subprocess.Popen[bytes]] = []

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        for child in children:
            child.send_signal(signum)

    # Before the command starts: a signal caught here is the default in it after its
    # exec, where one ignored here (a job started in the background by a shell without
    # job control ignores SIGINT) would stay ignored, and Ctrl-C could never stop it.
    signal.signal(signal.SIGINT, pass_on)
    signal.signal(signal.SIGTERM, pass_on)
    child = subprocess.Popen(command)
    children.append(child)
    meter = TreeMeter(child.pid)
    with args.log.open("a") as log:
        while child.poll() is None:
            meter.sample()
            log.write(meter.line(started) + "\n")
            log.flush()
            deadline = time.monotonic() + args.every
            while child.poll() is None and time.monotonic() < deadline:
                time.sleep(0.5)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        waited = round(used.ru_utime + used.ru_stime, 1)
        log.write(meter.line(started, rusage_cpu=waited, exit=child.returncode) + "\n")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
