"""guesswork-serve --processes N: N real server processes behind one loopback port."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.processes import HUNG_SECONDS, _Child

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
POLICY = "wordle-2315-g12972-normal-neg-entropy"
#: Each channel its own connection (gRPC otherwise shares one between channels).
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "guesswork.service", "--log-level", "WARNING", *args],
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_serving(process: subprocess.Popen[str]) -> str:
    """Return the parent's start-up line (it comes once every process serves)."""
    assert process.stderr is not None
    line = process.stderr.readline()
    assert " with 2 processes" in line, line
    return line


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def connected(pid: int, port: int) -> int:
    """Return how many established TCP connections to ``port`` process ``pid`` holds."""
    inodes = set()
    for table in ("tcp", "tcp6"):  # gRPC listens on a dual-stack socket
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                inodes.add(f"socket:[{fields[9]}]")
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            held += os.readlink(fd) in inodes
    return held


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")


def test_two_processes_share_one_port_answer_alike_and_stop_together(
    stub: pb_grpc.GuessworkStub,
) -> None:
    port = free_port()
    address = f"127.0.0.1:{port}"
    process = serve("--processes", "2", "--address", address, "--grace", "3")
    try:
        assert wait_serving(process).startswith("guesswork-serve: serving ")
        pids = children(process.pid)
        assert len(pids) == 2
        openings = ["CRANE", "SLATE", "TRACE", "ROAST", "PIANO", "DOUBT", "MIGHT", "LOUSY"]
        channels = [grpc.insecure_channel(address, options=OWN_CONNECTION) for _ in range(40)]
        try:
            for number, channel in enumerate(channels):
                reply = ["....Y", ".Y...", "Y....", "..Y..", "...Y."][number % 5]
                turn = pb.Turn(guess=openings[number % len(openings)], reply=reply)
                request = pb.SuggestGuessRequest(policy=POLICY, history=[turn])
                answer = pb_grpc.GuessworkStub(channel).SuggestGuess(request, timeout=60)
                assert answer == stub.SuggestGuess(request, timeout=60)
            # 40 connections, spread by the kernel: both processes hold some.
            assert all(connected(pid, port) > 0 for pid in pids)
        finally:
            for channel in channels:
                channel.close()
        second = subprocess.run(
            [sys.executable, "-m", "guesswork.service", "--processes", "2", "--address", address],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert second.stderr.startswith(f"guesswork-serve: error: cannot bind {address}: ")
        assert "the port is in use" in second.stderr and second.stderr.count("\n") == 1
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=3 + 10) == 0
        assert all(gone(pid) for pid in pids)
    finally:
        process.kill()
        process.wait()


@pytest.mark.reliability
def test_a_killed_process_is_restarted_while_the_other_serves() -> None:
    address = f"127.0.0.1:{free_port()}"
    process = serve("--processes", "2", "--address", address)
    try:
        wait_serving(process)
        killed, other = children(process.pid)
        os.kill(killed, signal.SIGKILL)
        assert process.stderr is not None
        said = process.stderr.readline()
        assert said == (
            f"guesswork-serve: server process {killed} was killed by SIGKILL; "
            "restarting it in 1 s (1 of 2 serving)\n"
        )
        with grpc.insecure_channel(address, options=OWN_CONNECTION) as channel:
            answer = pb_grpc.GuessworkStub(channel).SuggestGuess(
                pb.SuggestGuessRequest(policy=POLICY), timeout=30
            )
        assert answer.guess  # the other served meanwhile
        for _ in range(600):  # the new one starts after the back-off
            now = children(process.pid)
            if len(now) == 2 and killed not in now:
                break
            time.sleep(0.05)
        assert other in now and len(now) == 2 and process.poll() is None
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0


@pytest.mark.reliability
def test_children_stop_when_the_parent_is_killed() -> None:
    """A parent killed with SIGKILL once left its children serving, holding the port."""
    process = serve("--processes", "2", "--address", f"127.0.0.1:{free_port()}")
    try:
        wait_serving(process)
        pids = children(process.pid)
        process.kill()
        process.wait()
        for _ in range(600):
            if all(gone(pid) for pid in pids):
                break
            time.sleep(0.05)
        assert all(gone(pid) for pid in pids)
    finally:
        process.kill()
        process.wait()


def test_a_bad_catalog_is_the_one_line_a_single_server_prints(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"junk")
    args = ["--address", f"127.0.0.1:{free_port()}", "--catalog", str(broken)]
    one = subprocess.run(
        [sys.executable, "-m", "guesswork.service", *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    started = time.monotonic()
    two = serve("--processes", "2", *args)
    _, said = two.communicate(timeout=60)
    assert two.returncode == one.returncode == 1
    assert said == one.stderr and said.count("\n") == 1
    assert time.monotonic() - started < 60


@pytest.mark.parametrize(
    ("address", "said"),
    [("127.0.0.1:0", "needs a fixed port"), ("unix:/tmp/guesswork.sock", "needs HOST:PORT")],
)
def test_an_address_processes_cannot_share_is_refused(address: str, said: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "guesswork.service", "--processes", "2", "--address", address],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"guesswork-serve: error: --address {address!r}: ")
    assert said in result.stderr and result.stderr.count("\n") == 1


def next_line(process: subprocess.Popen[str], guard: float = 240.0) -> str:
    """Return the next line ``process`` writes on stderr; a hang guard of ``guard`` s
    (far beyond what the line takes) fails the test instead of hanging it."""
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], guard)
    assert ready, "no line from the server"
    return process.stderr.readline()


@pytest.mark.reliability
def test_a_hung_process_is_killed_and_replaced_and_new_calls_all_succeed() -> None:
    """A child stopped with SIGSTOP went unnoticed: the kernel kept handing it new
    connections (SO_REUSEPORT), and 18 of 40 new calls timed out."""
    address = f"127.0.0.1:{free_port()}"
    process = serve("--processes", "2", "--address", address)
    try:
        wait_serving(process)
        hung, other = children(process.pid)
        os.kill(hung, signal.SIGSTOP)
        assert next_line(process) == (
            f"guesswork-serve: server process {hung} has not answered its health probe "
            f"for {HUNG_SECONDS:g} s; killing it\n"
        )
        assert next_line(process).startswith(
            f"guesswork-serve: server process {hung} was killed by SIGKILL; restarting it in "
        )
        request = pb.SuggestGuessRequest(
            policy=POLICY, history=[pb.Turn(guess="CRANE", reply="..Y..")]
        )
        for _ in range(40):  # each a new connection, spread by the kernel as before
            with grpc.insecure_channel(address, options=OWN_CONNECTION) as channel:
                answer = pb_grpc.GuessworkStub(channel).SuggestGuess(request, timeout=60)
            assert answer.guess
        for _ in range(2400):  # the replacement starts after the back-off
            now = children(process.pid)
            if len(now) == 2 and hung not in now:
                break
            time.sleep(0.05)
        assert other in now and hung not in now and len(now) == 2 and process.poll() is None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(hung, signal.SIGKILL)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        process.kill()


@pytest.mark.reliability
def test_children_with_a_call_in_flight_stop_soon_after_the_parent_is_killed() -> None:
    """After kill -9 of the parent a child once took 19.7 s to exit with --grace 2."""
    address = f"127.0.0.1:{free_port()}"
    process = serve("--processes", "2", "--address", address, "--grace", "2")
    calls = []
    try:
        wait_serving(process)
        pids = children(process.pid)
        # Expensive calls in flight on each process (a fresh Duotrigordle: seconds).
        request = pb.SuggestBoardsRequest(
            policy="wordle-14855-weighted-wordfreq-normal-neg-entropy",
            boards=[pb.BoardHistory()] * 32,
        )
        for _ in range(6):
            channel = grpc.insecure_channel(address, options=OWN_CONNECTION)
            calls.append((channel, pb_grpc.GuessworkStub(channel).SuggestBoards.future(request)))
        time.sleep(0.5)  # not a bound: only lets the calls reach the servers
        process.kill()
        process.wait()
        killed = time.monotonic()
        for _ in range(1200):  # hang guard: 60 s, far beyond grace + 1 s
            if all(gone(pid) for pid in pids):
                break
            time.sleep(0.05)
        took = time.monotonic() - killed  # for the record only (never asserted)
        print(f"children gone {took:.2f} s after the parent was killed (grace 2 s)")
        assert all(gone(pid) for pid in pids)
    finally:
        for channel, future in calls:
            future.cancel()
            channel.close()
        process.kill()
        process.wait()


def test_a_child_killed_with_a_probe_unread_is_no_crash_of_the_supervisor() -> None:
    """A child killed with the supervisor's probe unread resets the probe socket; read
    before poll() sees the child exit (seen under load: a traceback and the whole
    service gone), the reset counts as no answer, and the exit is handled next round."""
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    ours.send(b"?")
    theirs.close()  # with the probe unread: the next read on ours is a reset
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as alive:
        try:
            child = _Child(alive, ours, serving_since=0.0, probe_sent=0.0)
            assert child.check(1.0) is True  # answered nothing yet, not hung: no raise
            assert child.check(HUNG_SECONDS + 1.0) is False  # still no answer: hung
        finally:
            alive.kill()
    ours.close()
