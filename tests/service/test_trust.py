"""Policies from outside prove what they claim, once (issue #42, points 3 and 4).

A forger who re-seals a policy (hashes recomputed) with a tree, guesses or
alternatives its strategy would not make, but whose replay and statistics are
genuine, passed every check before: ``import`` exited 0, ``verify`` said ok,
``suggest --store`` served it (point 3). A catalog row re-published with one
root edge's reply code changed was served by the server, which replays no
catalog tree (point 4). Now whatever comes from outside is proven on first
use (client.trust, builder.proof) and the proof is remembered by content
hash, so a second process does not make it again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import msgpack
import numpy as np
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from guesswork.builder.alternatives import step_rankings
from guesswork.builder.cli import run as guesswork_build
from guesswork.builder.greedy import greedy_step
from guesswork.builder.proof import proof_faults
from guesswork.builder.publish import StoredPolicy, export_bytes, publish_catalog
from guesswork.builder.wordlists import WordList
from guesswork.client.catalog import load_policy_bytes, open_catalog, open_policy_file
from guesswork.client.core import MAX_ALTERNATIVES
from guesswork.client.errors import InconsistentPolicyError, ProverUnavailableError
from guesswork.client.policy_format import decode_core
from guesswork.client.probe import Policy
from guesswork.client.trust import installed_prover, is_proven, proof_folder
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.local import builder_proof
from guesswork.service.server import ServerOptions, start_server

from ..client.test_tampered_files import assert_store_refuses, resealed

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
#: A hard-mode greedy policy, and an optimised tree over the same lists (2309 / 2309).
NAME = "wordle-2309-hard-neg-entropy"
OTHER = "wordle-2309-hard-optimal-first-slate"
#: The same policy under another name: an honest policy whose core is no shipped one's
#: (the content hash covers the name), so it is proven where the shipped one is not.
COPY = f"{NAME}-copy"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A proof record of this test's own (nothing proven before it)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GUESSWORK_CACHE", str(folder))
    yield folder


def _arrays(core: dict[str, Any]) -> dict[str, np.ndarray]:
    kinds = {"alt_value": "<f8"}
    return {
        key: np.frombuffer(value, kinds.get(key, "<i4")).copy()
        for key, value in core["tree"].items()
        if isinstance(value, bytes)
    }


def _store(core: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    for key, values in arrays.items():
        core["tree"][key] = values.astype("<f8" if key == "alt_value" else "<i4").tobytes()


def _genuine_alternatives(policy: Policy, core: dict[str, Any]) -> None:
    """Store in ``core`` the alternatives its own tree truly has under ``policy``'s step."""
    data = policy.data
    arrays = _arrays(core)
    expected, _ = step_rankings(
        policy.game,
        WordList(data.targets.name, policy.targets, data.targets.sha256),
        WordList(data.guesses.name, policy.guesses, data.guesses.sha256),
        arrays,
        greedy_step(policy),
        MAX_ALTERNATIVES,
    )
    _store(core, {**arrays, **expected})


def _another_tree(policy: Policy, other: Policy) -> Callable[[dict[str, Any]], None]:
    """A valid tree of the same lists (another root), under the policy's name and
    strategy: its stats and alternatives genuine, its certificate dropped."""

    def change(core: dict[str, Any]) -> None:
        theirs = msgpack.unpackb(other.core, raw=False)
        core["tree"], core["stats"] = theirs["tree"], theirs["stats"]
        core.pop("certificate", None)
        _genuine_alternatives(policy, core)

    return change


def _worst_alternatives(policy: Policy) -> Callable[[dict[str, Any]], None]:
    """The root's alternatives replaced by its 50 worst guesses, their true values."""

    def change(core: dict[str, Any]) -> None:
        arrays = _arrays(core)
        data = policy.data
        step = greedy_step(policy)
        everything, _ = step_rankings(
            policy.game,
            WordList(data.targets.name, policy.targets, data.targets.sha256),
            WordList(data.guesses.name, policy.guesses, data.guesses.sha256),
            arrays,
            step,
            len(policy.targets),
        )
        stop = int(everything["alt_offsets"][1])
        count = int(arrays["alt_offsets"][1])
        worst = slice(stop - count, stop)  # still best first among themselves
        arrays["alt_guess"][:count] = everything["alt_guess"][worst]
        arrays["alt_value"][:count] = everything["alt_value"][worst]
        _store(core, arrays)

    return change


def _no_alternatives(core: dict[str, Any]) -> None:
    """Every node's alternatives dropped."""
    arrays = _arrays(core)
    arrays["alt_offsets"][:] = 0
    arrays["alt_guess"], arrays["alt_value"] = arrays["alt_guess"][:0], arrays["alt_value"][:0]
    _store(core, arrays)


def _equal_partition(policy: Policy) -> Callable[[dict[str, Any]], None]:
    """At a node of two targets, the other target guessed (an equal partition, so the
    same value): the tree, stats and alternatives made to agree with the swap."""

    def change(core: dict[str, Any]) -> None:
        a = _arrays(core)
        sizes, offsets = a["node_size"], a["edge_offsets"]
        node = next(n for n in range(len(sizes)) if sizes[n] == 2 and offsets[n + 1] > offsets[n])
        child = int(a["edge_child"][offsets[node]])
        first = int(a["node_first"][node])
        pair = a["target_order"][first : first + 2].copy()
        guess, other = int(a["node_guess"][node]), int(a["node_guess"][child])
        a["node_guess"][node], a["node_guess"][child] = other, guess
        words = policy.vocabulary
        a["edge_reply"][offsets[node]] = policy.game.reply(words[other], words[guess])
        # The child's slice holds the target it now wins (the node's first guess).
        won_here = [t for t in pair.tolist() if policy.targets[t] == words[other]]
        a["target_order"][first : first + 2] = [*won_here, *(t for t in pair if t not in won_here)]
        a["node_first"][child] = first + 1
        _store(core, a)
        _genuine_alternatives(policy, core)

    return change


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The shipped policy exported honestly, an honest copy of it under another name
    (COPY), and the export re-sealed after each forgery."""
    with open_catalog() as catalog:
        policy, other = catalog.policy(NAME), catalog.policy(OTHER)
    data = export_bytes(policy)
    folder = tmp_path_factory.mktemp("forged")
    paths = {"honest": folder / "honest.gwp", "honest-copy": folder / "honest-copy.gwp"}
    paths["honest"].write_bytes(data)
    paths["honest-copy"].write_bytes(resealed(data, lambda core: core.update(name=COPY)))
    forgeries = {
        "another-tree": _another_tree(policy, other),
        "worst-alternatives": _worst_alternatives(policy),
        "no-alternatives": _no_alternatives,
        "equal-partition": _equal_partition(policy),
    }
    for kind, change in forgeries.items():
        paths[kind] = folder / f"{kind}.gwp"
        paths[kind].write_bytes(resealed(data, change))
        # Whole, well formed, every target replayed and the stats recomputed: it
        # passes every check but the proof.
        load_policy_bytes(paths[kind].read_bytes(), kind, prove=False)
    return paths


FORGERIES = ["another-tree", "worst-alternatives", "no-alternatives", "equal-partition"]


@pytest.mark.parametrize("kind", FORGERIES)
def test_import_and_verify_refuse_it(
    forged: dict[str, Path], kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "c.sqlite"
    assert guesswork_build(["import", str(forged[kind]), "--catalog", str(catalog)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("guesswork-build: error: ") and err.count("\n") == 1
    assert NAME in err and not catalog.exists()
    assert guesswork_build(["verify", "--catalog", str(forged[kind])]) == 1
    assert f"FAULT {NAME}: node " in capsys.readouterr().out
    assert not any(proof_folder().glob("*"))  # nothing recorded as proven


@pytest.mark.parametrize("kind", FORGERIES)
def test_suggest_from_the_store_refuses_it(
    forged: dict[str, Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_store_refuses(forged[kind], NAME, "node ", capsys)
    with pytest.raises(InconsistentPolicyError, match=f"{NAME}.*node "):
        open_policy_file(forged[kind])


def test_an_export_of_a_shipped_policy_is_trusted_as_the_shipped_one(
    forged: dict[str, Path], tmp_path: Path
) -> None:
    """The same core as a shipped policy (same content hash), from a file or from another
    catalog, is served without a proof (none is made: this prover would refuse it) and
    without a record; renamed (COPY), it is a policy from outside like any other."""

    def refuse_all(policy: Policy) -> list[str]:
        return [f"proven although shipped: {policy.name}"]

    with open_policy_file(forged["honest"], prover=refuse_all) as catalog:
        policy = catalog.policy(NAME)
    assert is_proven(policy.content_hash)
    assert not (proof_folder() / policy.content_hash).exists()
    # A catalog made elsewhere (so its rows are not in this proof record).
    made_elsewhere = {**os.environ, "GUESSWORK_CACHE": str(tmp_path / "elsewhere")}
    catalog_path = tmp_path / "mine.sqlite"
    command = ["import", str(forged["honest"]), "--catalog", str(catalog_path)]
    imported = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", *command],
        env={**made_elsewhere, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert imported.returncode == 0, imported.stderr
    with open_catalog(catalog_path, prover=refuse_all) as catalog:
        assert catalog.policy(NAME).content_hash == policy.content_hash
    assert not any(proof_folder().glob("*"))
    with pytest.raises(InconsistentPolicyError, match=f"proven although shipped: {COPY}"):
        open_policy_file(forged["honest-copy"], prover=refuse_all)


def test_the_honest_export_is_proven_once(forged: dict[str, Path]) -> None:
    honest = forged["honest-copy"]
    with open_policy_file(honest) as catalog:
        policy = catalog.policy(COPY)
    record = proof_folder() / policy.content_hash
    assert is_proven(policy.content_hash) and record.is_file()
    os.utime(record, ns=(0, 0))
    # Another process reads the record and proves nothing: the record is not rewritten.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = ["-m", "guesswork", "suggest", "--store", str(honest), "--policy", COPY, "--json"]
    done = subprocess.run(
        [sys.executable, *argv], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["guess"] == policy.guess(policy.root)
    assert record.stat().st_mtime_ns == 0


def test_a_recorded_proof_is_trusted(forged: dict[str, Path]) -> None:
    """The record is what decides (so a second process pays a stat, not the proof):
    a forgery whose hash is recorded is served. Whoever can write the user's cache
    can do this; the docs say so (docs/policy-files.rst, the trust boundary)."""
    forgery = forged["equal-partition"]
    with open_policy_file(forgery, prove=False) as catalog:
        content_hash = catalog.policy(NAME).content_hash
    proof_folder().mkdir(parents=True)
    (proof_folder() / content_hash).write_bytes(b"")
    with open_policy_file(forgery) as catalog:
        assert catalog.policy(NAME).content_hash == content_hash


# -- the proof is handed in (issue #45): the client imports no builder ----------


def test_the_default_prover_is_the_one_the_distribution_names() -> None:
    """The embedding API's default proof is found by the installed distribution's entry
    point (pyproject's guesswork.prover), not imported by the client: the builder's."""
    assert installed_prover() is proof_faults


@pytest.mark.parametrize("kind", ["another-tree", "equal-partition"])
def test_the_services_prover_refuses_a_forgery(forged: dict[str, Path], kind: str) -> None:
    with pytest.raises(InconsistentPolicyError, match=f"{NAME}.*node "):
        open_policy_file(forged[kind], prover=builder_proof)
    assert not any(proof_folder().glob("*"))


def test_a_catalog_proves_with_the_prover_it_is_handed(
    forged: dict[str, Path], tampered_catalog: tuple[Path, str]
) -> None:
    """Whatever the opener hands in decides, on each reading path (a policy file, a
    catalog's rows): here a caller's proof that finds a fault in every policy refuses
    the honest export the builder's proof accepts, and records nothing."""

    def refuse_all(policy: Policy) -> list[str]:
        return [f"the caller's own proof refuses {policy.name}"]

    with pytest.raises(InconsistentPolicyError, match=f"{COPY}.*the caller's own proof"):
        open_policy_file(forged["honest-copy"], prover=refuse_all)
    path, _ = tampered_catalog
    refused = pytest.raises(InconsistentPolicyError, match="the caller's own proof")
    with open_catalog(path, prover=refuse_all) as catalog, refused:
        catalog.policy(NAME)
    assert not any(proof_folder().glob("*"))
    with open_policy_file(forged["honest-copy"], prover=builder_proof) as catalog:
        assert is_proven(catalog.policy(COPY).content_hash)


#: Run in a process whose first distribution named guesswork-solver is an install
#: older than the entry point (its metadata names no prover).
_STALE_INSTALL = """
import sys
sys.path.insert(0, sys.argv[1])
from guesswork.client.catalog import open_catalog, open_policy_file
from guesswork.client.errors import ProverUnavailableError
with open_catalog() as shipped:  # the shipped catalog is never proven
    print(shipped.policy(sys.argv[3]).guess(0))
try:
    open_policy_file(sys.argv[2])
except ProverUnavailableError as error:
    print(type(error).__name__, error)
print("builder loaded:", any(m.startswith("guesswork.builder") for m in sys.modules))
"""


def test_without_an_installed_prover_a_policy_from_outside_is_refused(
    forged: dict[str, Path], tmp_path: Path
) -> None:
    """Fail closed: an install whose metadata names no prover serves the shipped
    catalog and refuses a policy from outside, saying how to mend the install."""
    info = tmp_path / "site" / "guesswork_solver-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: guesswork-solver\nVersion: 0.1.0\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-c", _STALE_INSTALL, str(info.parent), str(forged["honest-copy"]), NAME],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    guess, refusal, loaded = done.stdout.splitlines()
    assert guess.isupper()
    assert refusal.startswith(f"{ProverUnavailableError.__name__} a policy from outside")
    assert "names no prover (entry point guesswork.prover:proof)" in refusal
    assert "pip install -e ." in refusal
    assert loaded == "builder loaded: False"
    assert not any(proof_folder().glob("*"))


def test_a_built_and_published_policy_is_recorded(tmp_path: Path) -> None:
    catalog = tmp_path / "mine.sqlite"
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in ["CRANE", "SLATE", "TRACE", "CRATE", "GRAPE"]))
    assert (
        guesswork_build(["build", "--targets", str(words), "--quiet", "--catalog", str(catalog)])
        == 0
    )
    with open_catalog(catalog, prove=False) as opened:
        (name,) = opened.names()
        assert is_proven(opened.policy(name).content_hash)


# -- point 4: a catalog row re-published with one root edge's reply code changed --


def _edge_changed(policy: Policy) -> tuple[bytes, str]:
    """Return the policy's core with one root edge's reply code moved to a free code
    (its targets now fall off the tree), and the history that takes the changed edge."""
    core = msgpack.unpackb(policy.core, raw=False)
    a = _arrays(core)
    stop = int(a["edge_offsets"][1])
    used = set(a["edge_reply"][:stop].tolist())
    edge = int(np.argmax(a["node_size"][a["edge_child"][:stop]]))  # the busiest edge
    code = int(a["edge_reply"][edge])
    free = next(c for c in range(policy.game.reply_space) if c not in used)
    a["edge_reply"][edge] = free
    _store(core, a)
    # The history the changed edge now answers: the reply it was reached by before.
    history = f"{policy.guess(policy.root)}:{policy.game.format_reply(code)}"
    return msgpack.packb(core, use_bin_type=True), history


@pytest.fixture(scope="module")
def tampered_catalog(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A catalog published through the publishing code, checksums and seal recomputed,
    holding the policy with one root edge's reply code changed."""
    with open_catalog() as catalog:
        policy = catalog.policy(NAME)
    core, history = _edge_changed(policy)
    data = decode_core(core, "forged")
    stored = StoredPolicy.from_policy(Policy(data, policy.targets, policy.guesses, core, ""))
    path = tmp_path_factory.mktemp("tampered") / "catalog.sqlite"
    publish_catalog(str(path), [stored])
    return path, history


def test_the_catalog_path_refuses_a_changed_edge(
    tampered_catalog: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = tampered_catalog
    with open_catalog(path) as catalog:
        assert NAME in catalog.names()  # the manifest and checksums are sound
        with pytest.raises(InconsistentPolicyError, match="falls off the tree"):
            catalog.policy(NAME)
        with pytest.raises(InconsistentPolicyError, match="falls off the tree"):
            catalog.policy(NAME)  # asked again: refused again (not proven twice)
    assert_store_refuses(path, NAME, "falls off the tree", capsys)
    assert guesswork_build(["verify", "--catalog", str(path)]) == 1
    assert f"FAULT {NAME}: target " in capsys.readouterr().out


@pytest.mark.parametrize("opened_by", ["caller", "server"])
def test_the_server_refuses_a_changed_edge(
    tampered_catalog: tuple[Path, str], opened_by: str
) -> None:
    """Whether the caller hands the server its catalog (the embedding API's default
    prover) or the server opens --catalog itself (the service's, builder_proof)."""
    path, history = tampered_catalog
    if opened_by == "caller":
        server, port = start_server(ServerOptions(address="127.0.0.1:0"), open_catalog(path))
    else:
        server, port = start_server(ServerOptions(address="127.0.0.1:0", catalog=str(path)))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            word, reply = history.split(":")
            request = pb.SuggestGuessRequest(
                policy=NAME, history=[pb.Turn(guess=word, reply=reply)]
            )
            with pytest.raises(grpc.RpcError) as refused:
                stub.SuggestGuess(request, timeout=60)
    finally:
        server.stop(0)
    status = rpc_status.from_call(refused.value)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and info.reason == "BAD_POLICY_DATA"
    assert "falls off the tree" in (refused.value.details() or "")
