"""A republished catalog is served without a restart; a bad one never is."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from guesswork.builder.cli import run as build
from guesswork.client.catalog import open_catalog, user_catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer, ServerOptions, start_server

ROOT = Path(__file__).resolve().parents[2]
FIRST = "crane slate trace roast piano doubt might lousy bails fails\n"
SECOND = "wails tails sails rails pails nails hails mound sound round\n"
SERVING = health_pb2.HealthCheckResponse.SERVING


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty per-user data folder, so the user catalog is data_home/guesswork/catalog.sqlite."""
    home = tmp_path / "data"
    monkeypatch.delenv("GUESSWORK_CATALOG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    (tmp_path / "first.txt").write_text(FIRST)
    (tmp_path / "second.txt").write_text(SECOND)
    return home


def _publish(tmp_path: Path, words: str, *extra: str) -> None:
    """Build the policy ``mine`` from ``words`` into the user catalog."""
    assert (
        build(["build", "--targets", str(tmp_path / words), "--name", "mine", "--quiet", *extra])
        == 0
    )


def _first_guess(name: str = "mine") -> str:
    """Return the stored first guess of ``name`` in the user catalog file."""
    with open_catalog(user_catalog()) as mine:
        return mine.policy(name).next_guess([])


def _wait_for(condition: Callable[[], bool], what: str, limit: float = 120.0) -> None:
    """Poll until ``condition`` holds (a hang guard, not a timing assertion)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


@pytest.fixture
def served(data_home: Path, tmp_path: Path) -> Iterator[tuple[GuessworkServer, grpc.Channel]]:
    """A server of the shipped and user catalogs that reloads only when asked."""
    _publish(tmp_path, "first.txt")
    server, port = start_server(ServerOptions(address="127.0.0.1:0", reload_interval=0))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield server, channel
    server.stop(0, drain=0)


def _health(channel: grpc.Channel) -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return int(stub.Check(health_pb2.HealthCheckRequest(service="")).status)


def test_a_republished_catalog_replaces_the_old_and_its_cached_answers(
    served: tuple[GuessworkServer, grpc.Channel], tmp_path: Path
) -> None:
    server, channel = served
    stub = pb_grpc.GuessworkStub(channel)
    assert server.watcher is not None
    old = _first_guess()
    request = pb.SuggestGuessRequest(policy="mine")
    assert stub.SuggestGuess(request).guess == old  # and now cached
    listed = {p.name: p.catalog for p in stub.ListPolicies(pb.ListPoliciesRequest()).policies}
    assert listed["policies/mine"] == "user"
    assert listed["policies/wordle-2309-hard-max"] == "shipped"
    assert not server.watcher.check()  # nothing changed
    _publish(tmp_path, "second.txt", "--replace")
    new = _first_guess()
    assert new != old  # the lists share no word
    assert server.watcher.check()
    assert _health(channel) == SERVING
    assert stub.SuggestGuess(request).guess == new
    assert stub.GetPolicy(pb.GetPolicyRequest(name="mine")).policy.catalog == "user"
    assert build(["remove", "mine"]) == 0
    assert server.watcher.check()
    with pytest.raises(grpc.RpcError) as caught:
        stub.SuggestGuess(request)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    assert _health(channel) == SERVING


def test_a_bad_or_half_written_catalog_is_never_served(
    served: tuple[GuessworkServer, grpc.Channel], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server, channel = served
    stub = pb_grpc.GuessworkStub(channel)
    assert server.watcher is not None
    old = _first_guess()
    path = user_catalog()
    _publish(tmp_path, "second.txt", "--replace")
    new_bytes, new = path.read_bytes(), _first_guess()
    # Written in place by something other than a publish: seen half done.
    with caplog.at_level(logging.ERROR, logger="guesswork.service"):
        for partial in (new_bytes[: len(new_bytes) // 2], b"junk", new_bytes[:-1] + b"x"):
            path.write_bytes(partial)
            assert not server.watcher.check()
            assert stub.SuggestGuess(pb.SuggestGuessRequest(policy="mine")).guess == old
            assert _health(channel) == SERVING
    assert caplog.text.count("catalog not reloaded, still serving the previous one") == 3
    path.write_bytes(new_bytes)  # the copy completes
    assert server.watcher.check()
    assert stub.SuggestGuess(pb.SuggestGuessRequest(policy="mine")).guess == new != old


def test_polling_notices_a_publish(data_home: Path, tmp_path: Path) -> None:
    _publish(tmp_path, "first.txt")
    server, port = start_server(ServerOptions(address="127.0.0.1:0", reload_interval=0.05))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            assert (
                build(
                    [
                        "build",
                        "--targets",
                        str(tmp_path / "second.txt"),
                        "--name",
                        "other",
                        "--quiet",
                    ]
                )
                == 0
            )

            def listed() -> bool:
                names = {p.name for p in stub.ListPolicies(pb.ListPoliciesRequest()).policies}
                return "policies/other" in names

            _wait_for(listed, "the new policy is listed")
            assert _health(channel) == SERVING
    finally:
        server.stop(0, drain=0)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_guesswork_serve_reloads_on_sighup_staying_serving_and_owns_its_port(
    tmp_path: Path,
) -> None:
    """The acceptance run: a real guesswork-serve, a real build, no restart; one per port."""
    data_home = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(data_home)}
    env.pop("GUESSWORK_CATALOG", None)
    (tmp_path / "my.txt").write_text(FIRST)
    address = f"127.0.0.1:{_free_port()}"
    # No polling: the policy can appear only through SIGHUP.
    process = subprocess.Popen(
        [sys.executable, "-m", "guesswork.service", "--address", address, "--reload-interval", "0"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    statuses: list[int] = []
    try:
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=120)
            _wait_for(lambda: _health(channel) == SERVING, "the server is serving")
            health = health_pb2_grpc.HealthStub(channel)

            def watch() -> None:
                try:
                    for update in health.Watch(health_pb2.HealthCheckRequest(service="")):
                        statuses.append(update.status)
                except grpc.RpcError:
                    pass

            watcher = threading.Thread(target=watch)
            watcher.start()
            stub = pb_grpc.GuessworkStub(channel)

            def names() -> set[str]:
                return {p.name for p in stub.ListPolicies(pb.ListPoliciesRequest()).policies}

            built = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "guesswork.builder",
                    "build",
                    "--targets",
                    "my.txt",
                    "--quiet",
                ],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert built.returncode == 0, built.stderr
            assert "policies/wordle-my-normal-neg-entropy" not in names()
            process.send_signal(signal.SIGHUP)
            _wait_for(lambda: "policies/wordle-my-normal-neg-entropy" in names(), "served")
            answer = stub.SuggestGuess(
                pb.SuggestGuessRequest(policy="wordle-my-normal-neg-entropy")
            )
            assert answer.guess in FIRST.upper().split()

            # A second server on the same port: refused at once, in one line.
            second = subprocess.run(
                [sys.executable, "-m", "guesswork.service", "--address", address],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert second.returncode == 1
            assert second.stderr.count("\n") == 1
            assert second.stderr.startswith(f"guesswork-serve: error: cannot bind {address}: ")
            assert "in use" in second.stderr and "--reuse-port" in second.stderr
            assert _health(channel) == SERVING
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=120) == 0
            watcher.join(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    # SERVING from the first report until SIGTERM: the reload never interrupted it.
    assert statuses and statuses[0] == SERVING
    assert set(statuses[:-1]) == {SERVING}
    assert process.stderr is not None
    log = process.stderr.read()
    assert "catalog reloaded" in log and "Traceback" not in log


def test_reuse_port_shares_a_port_only_on_purpose(data_home: Path) -> None:
    with open_catalog() as catalog:
        first, port = start_server(ServerOptions(address="127.0.0.1:0", reuse_port=True), catalog)
        try:
            shared = ServerOptions(address=f"127.0.0.1:{port}", reuse_port=True)
            second, same = start_server(shared, catalog)
            second.stop(0, drain=0)
            assert same == port
        finally:
            first.stop(0, drain=0)
        alone, port = start_server(ServerOptions(address="127.0.0.1:0"), catalog)
        try:
            from guesswork.service.errors import ServerConfigError

            for reuse in (False, True):
                options = ServerOptions(address=f"127.0.0.1:{port}", reuse_port=reuse)
                with pytest.raises(ServerConfigError, match="in use"):
                    start_server(options, catalog)
        finally:
            alone.stop(0, drain=0)
