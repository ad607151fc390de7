"""``guesswork-serve --processes N``: N server processes behind one port.

The parent checks the address once, as a single server would, then starts N
children, each ``python -m guesswork.service`` with the same arguments plus
``--processes 1 --reuse-port``: every child is exactly today's single server
(its own interpreter, catalog, drain on SIGTERM and reload on SIGHUP), and
they share the port through SO_REUSEPORT, on purpose, so the kernel spreads
connections across them. Children are fresh interpreters (never forked: gRPC
and numba own threads) and their standard error comes through the parent,
which reads each child's start-up line to know it is serving.

The parent prints one line once all N serve, forwards SIGTERM (for SIGTERM
or SIGINT) and SIGHUP to every child, and exits 0 when all have drained. A
child that fails before all N first serve stops the rest (a mistake in the
options or the catalog, which a restart would repeat): one line, exit 1. A
child that exits later (a crash, an OOM kill) is restarted after a back-off
of 1 s, doubling to 30 s while it keeps failing, with one line each time;
the others serve meanwhile. Children watch a pipe from the parent and stop
when it closes, so a parent killed with SIGKILL leaves no orphan holding the
port.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType

#: Seconds a child gets beyond --grace to exit after SIGTERM before it is killed (a
#: child exits by itself within grace and a fraction of a second: service.cli).
STOP_MARGIN = 1.0
#: The back-off before restarting a child that exited: doubled at each exit of the
#: same slot up to the last, back to the first once a child has served a minute.
FIRST_RESTART_DELAY, LAST_RESTART_DELAY = 1.0, 30.0
HEALTHY_SECONDS = 60.0
#: Set in a child's environment: it stops when its standard input (a pipe from the
#: parent) closes, so children never outlive the parent (service.cli).
SUPERVISED = "GUESSWORK_SUPERVISED"
#: Exit statuses of a child stopped by our signal (its handler, or before it had one).
_STOPPED = (0, -signal.SIGTERM, -signal.SIGINT)


def sharing_problem(address: str, processes: int, option: str = "--address") -> str | None:
    """Return why ``processes`` servers cannot share ``address``, in one line; None if they can.

    Port 0 would give each process its own random port, and a unix socket
    cannot be shared with SO_REUSEPORT; both are refused.
    """
    if processes < 2:
        return None
    if address.startswith(("unix:", "unix-abstract:")):
        return (
            f"{option} {address!r}: --processes {processes} needs HOST:PORT "
            "(a unix socket cannot be shared)"
        )
    if address.rpartition(":")[2] == "0":
        return (
            f"{option} {address!r}: --processes {processes} needs a fixed port "
            "(with port 0 each process would bind its own)"
        )
    return None


@dataclass
class _Child:
    """One server process, the thread reading its standard error, and since when it serves."""

    process: subprocess.Popen[str]
    reader: threading.Thread | None = None
    serving_since: float | None = None


class _Pool:
    """The child processes and the lines they write, read by one thread each."""

    def __init__(self, prog: str, argv: Sequence[str], processes: int) -> None:
        self.command = [
            sys.executable,
            "-m",
            "guesswork.service",
            *argv,
            "--processes",
            "1",
            "--reuse-port",
        ]
        # SUPERVISED: the child watches its standard input, a pipe from us, and stops
        # when it closes, i.e. when this process is gone (even killed with SIGKILL).
        self.env = {**os.environ, "GUESSWORK_PROCESSES": "1", SUPERVISED: "1"}
        self.prog = prog
        self.events: queue.Queue[tuple[_Child, str | None]] = queue.Queue()
        self.children = [self.start() for _ in range(processes)]

    def start(self) -> _Child:
        """Start one more server process; return it."""
        process = subprocess.Popen(
            self.command,
            env=self.env,
            stdin=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        child = _Child(process)
        child.reader = threading.Thread(target=self._read, args=(child,), daemon=True)
        child.reader.start()
        return child

    def _read(self, child: _Child) -> None:
        stream = child.process.stderr
        assert stream is not None
        for line in stream:
            self.events.put((child, line))
        self.events.put((child, None))

    def running(self) -> list[_Child]:
        """Return the children still running."""
        return [child for child in self.children if child.process.poll() is None]

    def signal_all(self, signum: int, serving_only: bool = False) -> None:
        """Send ``signum`` to every child still running (only those serving, if asked:
        one still starting has no handler yet and would die of it)."""
        for child in self.running():
            if not serving_only or child.serving_since is not None:
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signum)

    def stop_all(self, grace: float) -> bool:
        """SIGTERM every child and wait for all; return True if all exited as asked.

        A child still running ``grace`` + STOP_MARGIN seconds later is killed.
        """
        self.signal_all(signal.SIGTERM)
        deadline = time.monotonic() + grace + STOP_MARGIN
        clean = True
        for child in self.children:
            try:
                code = child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.process.kill()
                code = child.process.wait()
            clean = clean and code in _STOPPED
        return clean


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def serve_processes(prog: str, argv: Sequence[str], processes: int, grace: float) -> int:
    """Run ``processes`` servers with ``argv`` behind one port until a signal; return the status.

    The address must already have been checked (cli.run does). Returns 0
    after SIGTERM/SIGINT once every child has drained; 1 if a child failed
    before all first served (a mistake restarting cannot mend: the others are
    stopped, one line on stderr). A child that exits later is restarted after
    a back-off (one line each time) while the others go on serving.
    """
    pending: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        pending.append(signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, note)
    pool = _Pool(prog, argv, processes)
    announced = False
    errors: dict[int, str] = {}
    #: A SIGHUP that came before every child served, forwarded once they all do.
    held_reload: list[bool] = []
    #: Per slot: the back-off of its next restart, and when a restart is due.
    delays = [FIRST_RESTART_DELAY] * processes
    due: dict[int, float] = {}

    def handle(child: _Child, line: str | None, relay: bool = True) -> None:
        nonlocal announced
        if line is None:
            return
        if line.startswith(f"{prog}: serving ") and child.serving_since is None:
            child.serving_since = time.monotonic()
            if not announced and all(c.serving_since is not None for c in pool.children):
                announced = True
                served = line.rstrip("\n")
                print(f"{served} with {processes} processes", file=sys.stderr, flush=True)
                if held_reload:
                    pool.signal_all(signal.SIGHUP)
            return
        if line.startswith(f"{prog}: error: ") and child.serving_since is None:
            errors.setdefault(id(child), line.rstrip("\n"))
            if not announced:
                return
        if relay:
            sys.stderr.write(line)
            sys.stderr.flush()

    while True:
        with contextlib.suppress(queue.Empty):
            handle(*pool.events.get(timeout=0.1))
        while pending:
            if pending.pop(0) != signal.SIGHUP:
                clean = pool.stop_all(grace)
                _flush(pool, handle, relay=True)
                return 0 if clean else 1
            if announced:
                pool.signal_all(signal.SIGHUP, serving_only=True)
            else:  # a child without its handler yet would die of it
                held_reload.append(True)
        now = time.monotonic()
        for slot, child in enumerate(pool.children):
            if slot in due:
                if now >= due[slot]:
                    del due[slot]
                    pool.children[slot] = pool.start()
                continue
            if child.serving_since is not None and now - child.serving_since > HEALTHY_SECONDS:
                delays[slot] = FIRST_RESTART_DELAY
            code = child.process.poll()
            if code is None:
                continue
            if child.reader is not None:  # its last lines, a start-up error among them
                child.reader.join(timeout=2.0)
            _flush(pool, handle, relay=announced)
            if not announced:
                reason = errors.get(id(child)) or (
                    f"{prog}: error: server process {child.process.pid} {_describe_exit(code)} "
                    f"at start; stopping all {processes}"
                )
                print(reason, file=sys.stderr, flush=True)
                pool.stop_all(grace)
                return 1
            serving = sum(c.serving_since is not None for c in pool.running())
            print(
                f"{prog}: server process {child.process.pid} {_describe_exit(code)}; "
                f"restarting it in {delays[slot]:g} s ({serving} of {processes} serving)",
                file=sys.stderr,
                flush=True,
            )
            due[slot] = now + delays[slot]
            delays[slot] = min(delays[slot] * 2, LAST_RESTART_DELAY)


def _flush(pool: _Pool, handle: Callable[[_Child, str | None, bool], None], relay: bool) -> None:
    """Handle every line read so far (relaying the others' lines only if ``relay``)."""
    while True:
        try:
            index, line = pool.events.get_nowait()
        except queue.Empty:
            return
        handle(index, line, relay)
