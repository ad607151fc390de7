"""guesswork-serve's start-up mistakes: one accurate line of ours and exit 1, never gRPC's log;
a damaged user catalog under the default layering: left out, loudly."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from guesswork.client.catalog import SHIPPED_CATALOG
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


def _damaged_copy(path: Path) -> Path:
    """Copy the shipped catalog to ``path`` with one bit of a policy's bytes flipped: it
    opens (header and manifest intact), only its seal tells."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SHIPPED_CATALOG, path)
    with path.open("r+b") as file:
        file.seek(path.stat().st_size // 2)
        byte = file.read(1)
        file.seek(-1, os.SEEK_CUR)
        file.write(bytes([byte[0] ^ 0x01]))
    return path


def _start_up(env: dict[str, str], *args: str) -> tuple[list[str], int | None]:
    """Run guesswork-serve until it exits or says it serves (then stop it); return its
    standard error's lines and its exit status (None: it served)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "guesswork.service", "--address", "127.0.0.1:0", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    lines: list[str] = []
    try:
        for line in process.stderr:
            lines.append(line)
            if line.startswith("guesswork-serve: serving"):
                process.send_signal(signal.SIGTERM)
                assert process.wait(timeout=60) == 0  # a hang guard
                return lines, None
        return lines, process.wait(timeout=60)
    finally:
        process.kill()


@pytest.mark.reliability
def test_a_damaged_catalog_named_stops_start_up_with_one_line(tmp_path: Path) -> None:
    """Issue #42, 12: a --catalog that opens but fails its seal (a flipped byte in a
    policy) started serving, where the docs say start-up exits 1."""
    damaged = _damaged_copy(tmp_path / "damaged.sqlite")
    lines, status = _start_up(ENV, "--catalog", str(damaged))
    assert status == 1, lines
    assert len(lines) == 1 and lines[0].startswith("guesswork-serve: error: ")
    assert str(damaged) in lines[0] and "corrupt" in lines[0]


@pytest.mark.reliability
def test_a_damaged_user_catalog_is_left_out_loudly(tmp_path: Path) -> None:
    """Issue #42, 12: by default (shipped + user) a user catalog failing its seal was
    served, silently; now it is left out with a WARNING naming it and why, the shipped
    policies are served, and the start-up line says so."""
    damaged = _damaged_copy(tmp_path / "data" / "guesswork" / "catalog.sqlite")
    env = {**ENV, "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("GUESSWORK_CATALOG", None)
    lines, status = _start_up(env)
    assert status is None, lines  # it served
    warnings = [line for line in lines if "WARNING" in line and "user catalog left out" in line]
    assert len(warnings) == 1 and str(damaged) in warnings[0] and "corrupt" in warnings[0]
    (serving,) = [line for line in lines if line.startswith("guesswork-serve: serving")]
    assert f"{SHIPPED_CATALOG} only: the user catalog {damaged} is damaged" in serving
