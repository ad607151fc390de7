"""A re-sealed policy file with altered alternatives is refused (issue #26, point 2).

A forger who changes a node's stored alternatives (the next-best guesses a
suggestion offers, and their values) and recomputes every hash passes the
checksums, and the ranking rules of the structure check where the values
still rise. Before, ``import``, ``verify``, ``suggest --store`` and the
server accepted such files and served the forged words. Now each reader path
that serves answers re-computes every stored alternative's value at its node
(builder.alternatives.alternative_faults) and refuses the file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import numpy as np
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from guesswork.builder.cli import run as guesswork_build
from guesswork.builder.publish import export_bytes
from guesswork.client.catalog import open_catalog, open_policy_file
from guesswork.client.errors import PolicyFormatError
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.local import LocalGuesswork
from guesswork.service.server import ServerOptions, start_server

from ..client.test_tampered_files import assert_store_refuses, resealed

pytestmark = pytest.mark.reliability

#: A hard-mode policy: its alternatives outside the window are remaining targets.
NAME = "wordle-2309-hard-max"


def _arrays(core: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tree = core["tree"]
    return (
        np.frombuffer(tree["alt_offsets"], "<i4"),
        np.frombuffer(tree["alt_guess"], "<i4").copy(),
        np.frombuffer(tree["alt_value"], "<f8").copy(),
    )


def _store(core: dict[str, Any], guesses: np.ndarray, values: np.ndarray) -> None:
    core["tree"]["alt_guess"] = guesses.astype("<i4").tobytes()
    core["tree"]["alt_value"] = values.astype("<f8").tobytes()


def _another_word(core: dict[str, Any]) -> None:
    """The root's best alternative replaced by a word the root does not rank there."""
    offsets, guesses, values = _arrays(core)
    root_guess = int(np.frombuffer(core["tree"]["node_guess"], "<i4")[0])
    ranked = {root_guess, *guesses[: int(offsets[1])].tolist()}
    guesses[0] = next(word for word in range(2309) if word not in ranked)
    _store(core, guesses, values)


def _swapped_words(core: dict[str, Any]) -> None:
    """Two of the root's alternatives swapped, their values left in rising order."""
    _, guesses, values = _arrays(core)
    guesses[[0, 1]] = guesses[[1, 0]]
    _store(core, guesses, values)


def _raised_value(core: dict[str, Any]) -> None:
    """The root's last alternative made to look worse than it is (still ranked)."""
    offsets, guesses, values = _arrays(core)
    values[int(offsets[1]) - 1] += 0.5
    _store(core, guesses, values)


def _not_remaining(core: dict[str, Any]) -> None:
    """At a node outside the window, an alternative that is not one of its targets."""
    tree = core["tree"]
    offsets, guesses, values = _arrays(core)
    sizes = np.frombuffer(tree["node_size"], "<i4")
    firsts = np.frombuffer(tree["node_first"], "<i4")
    order = np.frombuffer(tree["target_order"], "<i4")
    node = next(n for n in range(1, len(sizes)) if offsets[n + 1] > offsets[n] and sizes[n] >= 3)
    remaining = set(order[firsts[node] : firsts[node] + sizes[node]].tolist())
    guesses[int(offsets[node])] = next(word for word in range(2309) if word not in remaining)
    _store(core, guesses, values)


FORGERIES: dict[str, Callable[[dict[str, Any]], None]] = {
    "another-word": _another_word,
    "swapped-words": _swapped_words,
    "raised-value": _raised_value,
    "not-remaining": _not_remaining,
}


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The shipped policy exported honestly, and once per forgery, each re-sealed."""
    with open_catalog() as catalog:
        data = export_bytes(catalog.policy(NAME))
    folder = tmp_path_factory.mktemp("forged")
    paths = {"honest": folder / "honest.gwp"}
    paths["honest"].write_bytes(data)
    for kind, change in FORGERIES.items():
        paths[kind] = folder / f"{kind}.gwp"
        paths[kind].write_bytes(resealed(data, change))
        # The reading checks pass it: only the proof (client.trust) refuses it.
        with open_policy_file(paths[kind], prove=False) as opened:
            assert opened.policy(NAME).alternatives(0)
    return paths


def test_the_honest_export_passes_every_reader(forged: dict[str, Path], tmp_path: Path) -> None:
    honest = str(forged["honest"])
    assert LocalGuesswork(open_policy_file(honest)).suggest(NAME, []).alternatives
    assert guesswork_build(["verify", "--catalog", honest]) == 0
    catalog = str(tmp_path / "c.sqlite")
    assert guesswork_build(["import", honest, "--catalog", catalog]) == 0


@pytest.mark.parametrize("kind", FORGERIES)
def test_import_and_verify_refuse_it(
    forged: dict[str, Path], kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "c.sqlite"
    assert guesswork_build(["import", str(forged[kind]), "--catalog", str(catalog)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "alternative" in err and not catalog.exists()
    assert guesswork_build(["verify", "--catalog", str(forged[kind])]) == 1
    out = capsys.readouterr().out
    assert f"FAULT {NAME}: node " in out and "alternative" in out


@pytest.mark.parametrize("kind", FORGERIES)
def test_suggest_from_the_store_refuses_it(
    forged: dict[str, Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_store_refuses(forged[kind], NAME, "alternative", capsys)
    with pytest.raises(PolicyFormatError, match="alternative"):
        LocalGuesswork(open_policy_file(forged[kind])).suggest(NAME, [])


@pytest.mark.parametrize("kind", ["another-word", "not-remaining"])
def test_the_server_refuses_it(forged: dict[str, Path], kind: str) -> None:
    # Opened as the server opens a store, the proof refuses it at once (client.trust)...
    with pytest.raises(PolicyFormatError, match="alternative"):
        open_policy_file(forged[kind])
    # ...and opened unproven, the server's own check before serving still refuses it.
    server, port = start_server(
        ServerOptions(address="127.0.0.1:0"), open_policy_file(forged[kind], prove=False)
    )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                stub.SuggestGuess(pb.SuggestGuessRequest(policy=NAME), timeout=30)
    finally:
        server.stop(0)
    assert refused.value.code() == grpc.StatusCode.INTERNAL
    assert "alternative" in (refused.value.details() or "")
    status = rpc_status.from_call(refused.value)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and info.reason == "BAD_POLICY_DATA"
