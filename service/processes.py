"""``guesswork-serve --processes N``: N server processes behind one port.

The parent checks the address once, as a single server would, then starts N
children, each ``python -m guesswork.service`` with the same arguments plus
``--processes 1 --reuse-port``: every child is exactly today's single server
(its own interpreter, catalog, drain on SIGTERM and reload on SIGHUP), and
they share the port through SO_REUSEPORT, on purpose, so the kernel spreads
connections across them. Children are fresh interpreters (never forked: gRPC
owns threads) and their standard error comes through the parent,
which reads each child's start-up line to know it is serving.

The parent prints one line once all N serve, forwards SIGTERM (for SIGTERM
or SIGINT) and SIGHUP to every child, and exits 0 when all have drained. A
child that fails before all N first serve stops the rest (a mistake in the
options or the catalog, which a restart would repeat): one line, exit 1. A
child that exits later (a crash, an OOM kill) is restarted after a back-off
of 1 s, doubling to 30 s while it keeps failing, with one line each time;
the others serve meanwhile.

The parent probes every serving child about once a second over a private
socket pair (:data:`PROBE_SECONDS`); a child that has not answered for
:data:`HUNG_SECONDS` (stopped with SIGSTOP, or wedged holding the GIL) is
killed with SIGKILL, one line, and restarted as a crashed one is: with
SO_REUSEPORT the kernel keeps handing new connections to a stopped child's
listening socket until it is closed, so killing it is what sends them to the
others. Children stop when the parent is gone, however it ended: the probe
socket (and standard input) reach end of file, the kernel's parent-death
signal (Linux) sends SIGTERM, and the child drains and is gone within its
grace plus :data:`STOP_MARGIN`, forced out then if draining has not ended.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import queue
import signal
import socket
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
#: Set in a child's environment: the number of its end of the probe socket pair.
PROBE_FD = "GUESSWORK_PROBE_FD"
#: Set in a child's environment: the parent's process id, and the seconds its
#: drain may take once the parent is gone (its --grace) before it is forced out.
PARENT_PID, STOP_WITHIN = "GUESSWORK_PARENT_PID", "GUESSWORK_STOP_WITHIN"
#: Seconds between probes of a serving child, and how long one may go unanswered
#: before the child is taken for hung and killed (a few probes missed).
PROBE_SECONDS, HUNG_SECONDS = 1.0, 5.0
#: Linux's prctl option that asks for a signal when the parent thread ends.
_PR_SET_PDEATHSIG = 1
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
    #: The parent's end of the probe socket pair (non-blocking).
    probe: socket.socket
    reader: threading.Thread | None = None
    serving_since: float | None = None
    #: When the probe now unanswered was sent (None: none pending), and when the next is due.
    probe_sent: float | None = None
    next_probe: float = 0.0

    def check(self, now: float) -> bool:
        """Probe the child if one is due, read its answers; return False if it has left
        a probe unanswered for HUNG_SECONDS (only a serving child is probed: one still
        starting may be busy loading for long)."""
        if self.serving_since is None or self.process.poll() is not None:
            return True
        # A reset: the child died (killed) with our probe unread, before poll() saw it
        # exit; its exit is handled on the next round (it once crashed the supervisor).
        with contextlib.suppress(BlockingIOError, InterruptedError, ConnectionError):
            while self.probe.recv(64):
                self.probe_sent, self.next_probe = None, now + PROBE_SECONDS
        if self.probe_sent is None and now >= self.next_probe:
            with contextlib.suppress(OSError):  # a full buffer or a child just gone
                self.probe.send(b"?")
                self.probe_sent = now
        return self.probe_sent is None or now - self.probe_sent < HUNG_SECONDS


class _Pool:
    """The child processes and the lines they write, read by one thread each."""

    def __init__(self, prog: str, argv: Sequence[str], processes: int, grace: float) -> None:
        # The child runs service.cli.child_main: become_child (below), then the single
        # server's entry point.
        self.command = [
            sys.executable,
            "-c",
            "from guesswork.service.cli import child_main; child_main()",
            *argv,
            "--processes",
            "1",
            "--reuse-port",
        ]
        # SUPERVISED: the child watches its standard input, a pipe from us, and stops
        # when it closes, i.e. when this process is gone (even killed with SIGKILL).
        self.env = {
            **os.environ,
            "GUESSWORK_PROCESSES": "1",
            SUPERVISED: "1",
            PARENT_PID: str(os.getpid()),
            STOP_WITHIN: str(grace + STOP_MARGIN / 2),
        }
        self.prog = prog
        self.events: queue.Queue[tuple[_Child, str | None]] = queue.Queue()
        self.children = [self.start() for _ in range(processes)]

    def start(self) -> _Child:
        """Start one more server process; return it."""
        ours, theirs = socket.socketpair()
        try:
            process = subprocess.Popen(
                self.command,
                env={**self.env, PROBE_FD: str(theirs.fileno())},
                stdin=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                pass_fds=(theirs.fileno(),),
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the child's alone now: its end of file means we are gone
        ours.setblocking(False)
        child = _Child(process, ours)
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
    pool = _Pool(prog, argv, processes, grace)
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
                    child.probe.close()
                    pool.children[slot] = pool.start()
                continue
            if not child.check(now):
                print(
                    f"{prog}: server process {child.process.pid} has not answered its "
                    f"health probe for {HUNG_SECONDS:g} s; killing it",
                    file=sys.stderr,
                    flush=True,
                )
                with contextlib.suppress(ProcessLookupError):
                    child.process.kill()
                child.process.wait()
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


def _die_with_parent() -> None:
    """Ask the kernel for SIGTERM when the parent ends (Linux's PR_SET_PDEATHSIG; a no-op
    elsewhere, where the probe socket's end of file does it alone)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


def _answer_probes(probe: socket.socket, stop_within: float) -> None:
    """Answer the parent's probes until its end closes (it is gone, however it ended);
    then SIGTERM this process (the server drains) and force it out ``stop_within``
    seconds later if draining has not ended it: an exit can hang on a standard
    error whose reader is gone."""
    with contextlib.suppress(OSError):
        while data := probe.recv(64):
            probe.sendall(data)
    logging.getLogger("guesswork.service").warning("the parent process is gone: stopping")
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(stop_within)
    os._exit(1)


def become_child() -> None:
    """Make this process a child of :func:`serve_processes`: the parent's probes
    answered and the process gone soon after the parent. service.cli.child_main
    calls it, then runs guesswork-serve's own entry point (this module, below the
    command line, never imports it)."""
    _die_with_parent()
    parent = os.environ.get(PARENT_PID)
    if parent is not None and os.getppid() != int(parent):
        os._exit(1)  # the parent ended before the kernel was asked to tell us
    fd = os.environ.get(PROBE_FD)
    if fd is not None:
        probe = socket.socket(fileno=int(fd))
        probe.setblocking(True)
        stop_within = float(os.environ.get(STOP_WITHIN, str(5.0 + STOP_MARGIN)))
        threading.Thread(
            target=_answer_probes, args=(probe, stop_within), name="guesswork-probe", daemon=True
        ).start()
