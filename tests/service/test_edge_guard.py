"""The edge around our service (issue #26, points 4 and 9): health and reflection
refuse undecodable bytes as we do, Health/List answers, every promised metadata
key is there, no server path leaks, and a damaged user catalog leaves the
shipped policies served.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from guesswork.client.catalog import SHIPPED_CATALOG
from guesswork.client.errors import (
    MalformedRequestError,
    RequestTooLargeError,
    WordListNotFoundError,
)
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import ServerOptions, start_server

pytestmark = pytest.mark.reliability

GARBAGE = b"\xff\xff\xff\xff garbage"
#: Every method of the services we add from libraries, with how it is called.
LIBRARY_METHODS = {
    "/grpc.health.v1.Health/Check": "unary",
    "/grpc.health.v1.Health/List": "unary",
    "/grpc.health.v1.Health/Watch": "server-stream",
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo": "bidi",
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": "bidi",
}


def _info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, f"no rich status: {error.code()} {error.details()}"
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    return info


def _send_garbage(channel: grpc.Channel, method: str, kind: str) -> Callable[[], Any]:
    if kind == "unary":
        return lambda: channel.unary_unary(method)(GARBAGE, timeout=5)
    if kind == "server-stream":
        return lambda: list(channel.unary_stream(method)(GARBAGE, timeout=5))
    return lambda: list(channel.stream_stream(method)(iter([GARBAGE]), timeout=5))


@pytest.mark.parametrize("method", LIBRARY_METHODS)
def test_library_services_refuse_bad_bytes_like_ours_without_a_traceback(
    channel: grpc.Channel, method: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO), pytest.raises(grpc.RpcError) as caught:
        _send_garbage(channel, method, LIBRARY_METHODS[method])()
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    info = _info(caught.value)
    assert (info.reason, info.metadata["method"]) == (MalformedRequestError.reason, method)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_health_list_answers_what_the_vendored_proto_declares(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    statuses = health.List(health_pb2.HealthListRequest(), timeout=5).statuses
    serving = health_pb2.HealthCheckResponse.SERVING
    assert statuses[""].status == serving
    assert statuses["guesswork.v1.Guesswork"].status == serving
    # Watch still answers without holding a server thread, and sees the same status.
    watch = health.Watch(health_pb2.HealthCheckRequest(), timeout=5)
    assert next(watch).status == serving
    watch.cancel()


def test_request_too_large_names_the_policy_it_was_for(stub: pb_grpc.GuessworkStub) -> None:
    history = [pb.Turn(guess="crane", reply=".....")] * 8_000  # over 64 KiB
    request = pb.SuggestGuessRequest(policy="wordle-2309-normal-max", history=history)
    with pytest.raises(grpc.RpcError) as caught:
        stub.SuggestGuess(request, timeout=5)
    info = _info(caught.value)
    assert info.reason == RequestTooLargeError.reason
    assert info.metadata["policy"] == "wordle-2309-normal-max"
    assert int(info.metadata["value"]) > int(info.metadata["limit"])


def test_a_missing_word_list_does_not_name_the_servers_files(
    stub: pb_grpc.GuessworkStub,
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.TopHoneycombs(pb.TopHoneycombsRequest(word_list="nope"), timeout=5)
    assert _info(caught.value).reason == WordListNotFoundError.reason
    message = caught.value.details()
    assert "enable1" in message  # what it has, by name
    assert str(SHIPPED_CATALOG.parent) not in message and "/" not in message


@pytest.fixture
def damaged_user_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """XDG_DATA_HOME pointing at a user catalog that is not a database at all."""
    folder = tmp_path / "data" / "guesswork"
    folder.mkdir(parents=True)
    (folder / "catalog.sqlite").write_bytes(b"not a database " * 10)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return folder / "catalog.sqlite"


def test_a_damaged_user_catalog_leaves_the_shipped_policies_served(
    damaged_user_catalog: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="guesswork.catalog"):
        server, port = start_server(ServerOptions(address="127.0.0.1:0"))
    try:
        assert any(
            "user catalog left out" in r.getMessage()
            and str(damaged_user_catalog) in r.getMessage()
            for r in caplog.records
        )
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            answer = pb_grpc.GuessworkStub(channel).SuggestGuess(
                pb.SuggestGuessRequest(policy="wordle-2309-normal-max"), timeout=10
            )
        assert answer.guess == "ARISE"
    finally:
        server.stop(0, drain=0)
    # The command line too: one line on standard error, the answer, status 0.
    done = subprocess.run(
        [sys.executable, "-m", "guesswork", "suggest", "--policy", "wordle-2309-normal-max"],
        capture_output=True,
        text=True,
        env={**os.environ},
        check=False,
    )
    assert (done.returncode, done.stdout.split()[0]) == (0, "ARISE")
    assert done.stderr.count("\n") == 1 and "user catalog left out" in done.stderr
    # What publishes or verifies it still refuses it, naming it.
    built = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 1 and str(damaged_user_catalog) in built.stderr


def test_a_tampered_certificate_is_refused_where_import_refuses_it(tmp_path: Path) -> None:
    """Issue #26, point 2: a re-sealed policy file whose certificate claims another value
    was refused by ``import`` but answered by ``guesswork suggest --store``; every
    reader that serves answers now checks an optimised policy's certificate first."""
    import msgpack

    from guesswork.builder.publish import StoredPolicy, export_bytes
    from guesswork.client.catalog import open_catalog, open_policy_file
    from guesswork.client.errors import PolicyFormatError
    from guesswork.client.policy_format import decode_core
    from guesswork.service.local import LocalGuesswork

    name = "jotto-2309-hard-lookahead4-first-debar"
    with open_catalog() as catalog:
        stored = StoredPolicy.from_policy(catalog.policy(name))
    top = msgpack.unpackb(stored.core, raw=False)
    top["certificate"]["value"] += 1
    core = msgpack.packb(top, use_bin_type=True)
    tampered = StoredPolicy(core, decode_core(core, "tampered"), stored.words)
    path = tmp_path / "tampered.gwp"
    path.write_bytes(export_bytes(tampered))  # re-sealed: hashes and header recomputed
    honest = tmp_path / "honest.gwp"
    honest.write_bytes(export_bytes(stored))
    assert LocalGuesswork(open_policy_file(honest)).suggest(name, []).guess
    with pytest.raises(PolicyFormatError, match="certificate value"):
        LocalGuesswork(open_policy_file(path)).suggest(name, [])
    said = subprocess.run(
        [sys.executable, "-m", "guesswork", "suggest", "--store", str(path), "--policy", name],
        capture_output=True,
        text=True,
        check=False,
    )
    assert said.returncode == 1 and "certificate value" in said.stderr
    assert said.stderr.count("\n") == 1
    imported = subprocess.run(
        [
            sys.executable,
            "-m",
            "guesswork.builder",
            "import",
            str(path),
            "--catalog",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert imported.returncode == 1 and "certificate value" in imported.stderr
