"""guesswork-serve's start-up mistakes: one accurate line of ours and exit 1, never gRPC's log."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from guesswork.service.address import add_port, address_problem, server_options

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guesswork.service", *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("127.0.0.1:99999", "the port must be a number from 0 (any free port) to 65535"),
        ("127.0.0.1:http", "the port must be a number"),
        ("127.0.0.1", "is not HOST:PORT"),
        (":50051", "is not HOST:PORT"),
        ("::1:50051", "write an IPv6 host in brackets"),
        ("no-such-host.invalid:50051", "cannot resolve 'no-such-host.invalid'"),
    ],
)
def test_a_bad_address_is_one_line_and_exit_1(address: str, said: str) -> None:
    result = _serve("--address", address)
    assert result.returncode == 1
    assert result.stderr.startswith(f"guesswork-serve: error: --address {address!r}")
    assert said in result.stderr and result.stderr.count("\n") == 1


def test_a_catalog_that_is_a_directory_is_named_as_such(tmp_path: Path) -> None:
    result = _serve("--address", "127.0.0.1:0", "--catalog", str(tmp_path))
    assert result.returncode == 1
    assert (
        result.stderr == f"guesswork-serve: error: {tmp_path}: is a directory, not a catalog file\n"
    )


def test_address_problem_accepts_what_can_be_bound() -> None:
    assert address_problem("127.0.0.1:0") is None
    assert address_problem("[::1]:0") is None or "::1" in str(address_problem("[::1]:0"))
    assert address_problem("unix:/tmp/guesswork.sock") is None  # gRPC checks these itself
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        assert "in use" in str(address_problem(f"127.0.0.1:{port}"))
        assert "does not share it" in str(address_problem(f"127.0.0.1:{port}", reuse_port=True))


def test_a_failed_grpc_bind_is_our_line_not_grpcs_log(capfd: pytest.CaptureFixture[str]) -> None:
    """Where gRPC itself fails (a port taken after our check), its log line is kept back."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        address = f"127.0.0.1:{held.getsockname()[1]}"
        server = grpc.server(futures.ThreadPoolExecutor(1), options=server_options(False))
        port, problem = add_port(server, address, None)
    assert port == 0
    assert problem is not None and problem.startswith(f"cannot bind {address}: ")
    assert "in use" in problem
    captured = capfd.readouterr()
    assert "add_port" not in captured.err and "Failed to add port" not in captured.err
    server = grpc.server(futures.ThreadPoolExecutor(1), options=server_options(False))
    port, problem = add_port(server, "127.0.0.1:0", None)
    assert port > 0 and problem is None
    server.stop(0)
