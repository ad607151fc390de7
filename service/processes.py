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
child that fails at start, or exits while the others serve, stops the rest:
the parent prints one line and exits 1, never serving at part capacity.
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
from types import FrameType
from typing import IO

#: Seconds a child gets beyond --grace to exit after SIGTERM before it is killed.
STOP_MARGIN = 10.0
#: Exit statuses of a child stopped by our signal (its handler, or before it had one).
_STOPPED = (0, -signal.SIGTERM, -signal.SIGINT)


def sharing_problem(address: str, processes: int) -> str | None:
    """Return why ``processes`` servers cannot share ``address``, in one line; None if they can.

    Port 0 would give each process its own random port, and a unix socket
    cannot be shared with SO_REUSEPORT; both are refused.
    """
    if processes < 2:
        return None
    if address.startswith(("unix:", "unix-abstract:")):
        return (
            f"--address {address!r}: --processes {processes} needs HOST:PORT "
            "(a unix socket cannot be shared)"
        )
    if address.rpartition(":")[2] == "0":
        return (
            f"--address {address!r}: --processes {processes} needs a fixed port "
            "(with port 0 each process would bind its own)"
        )
    return None


class _Pool:
    """The child processes and the lines they write, read by one thread each."""

    def __init__(self, prog: str, argv: Sequence[str], processes: int) -> None:
        command = [
            sys.executable,
            "-m",
            "guesswork.service",
            *argv,
            "--processes",
            "1",
            "--reuse-port",
        ]
        env = {**os.environ, "GUESSWORK_PROCESSES": "1"}
        self.prog = prog
        self.events: queue.Queue[tuple[int, str | None]] = queue.Queue()
        self.children = [
            subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True, bufsize=1)
            for _ in range(processes)
        ]
        self.readers = [
            threading.Thread(target=self._read, args=(index, child.stderr), daemon=True)
            for index, child in enumerate(self.children)
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, index: int, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.events.put((index, line))
        self.events.put((index, None))

    def signal_all(self, signum: int) -> None:
        """Send ``signum`` to every child still running."""
        for child in self.children:
            if child.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    child.send_signal(signum)

    def stop_all(self, grace: float) -> bool:
        """SIGTERM every child and wait for all; return True if all exited as asked.

        A child still running ``grace`` + STOP_MARGIN seconds later is killed.
        """
        self.signal_all(signal.SIGTERM)
        deadline = time.monotonic() + grace + STOP_MARGIN
        clean = True
        for child in self.children:
            try:
                code = child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                code = child.wait()
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
    after SIGTERM/SIGINT once every child has drained, 1 if a child failed at
    start or exited on its own (the others are stopped; one line on stderr).
    """
    pending: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        pending.append(signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, note)
    pool = _Pool(prog, argv, processes)
    ready: set[int] = set()
    errors: dict[int, str] = {}
    #: A SIGHUP that came before every child served, forwarded once they all do.
    held_reload: list[bool] = []

    def handle(index: int, line: str | None, relay: bool = True) -> None:
        if line is None:
            return
        if line.startswith(f"{prog}: serving ") and index not in ready:
            ready.add(index)
            if len(ready) == processes:
                served = line.rstrip("\n")
                print(f"{served} with {processes} processes", file=sys.stderr, flush=True)
                if held_reload:
                    pool.signal_all(signal.SIGHUP)
        elif line.startswith(f"{prog}: error: ") and index not in ready:
            errors.setdefault(index, line.rstrip("\n"))
        elif relay:
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
            if len(ready) == processes:
                pool.signal_all(signal.SIGHUP)
            else:  # a child without its handler yet would die of it
                held_reload.append(True)
        for number, child in enumerate(pool.children):
            code = child.poll()
            if code is None:
                continue
            pool.readers[number].join(timeout=2.0)  # its last lines, a start-up error among them
            _flush(pool, handle, relay=False)
            started = "while the others served" if number in ready else "at start"
            reason = errors.get(number) or (
                f"{prog}: error: server process {child.pid} {_describe_exit(code)} "
                f"{started}; stopping all {processes}"
            )
            print(reason, file=sys.stderr, flush=True)
            pool.stop_all(grace)
            return 1


def _flush(pool: _Pool, handle: Callable[[int, str | None, bool], None], relay: bool) -> None:
    """Handle every line read so far (relaying the others' lines only if ``relay``)."""
    while True:
        try:
            index, line = pool.events.get_nowait()
        except queue.Empty:
            return
        handle(index, line, relay)
