"""A re-sealed tampered policy file is refused by every reader path.

A forger who changes a tree and then recomputes the file's SHA-256 and the
body's content_hash passes every checksum; the replay (client.replay), which
every policy-file load runs, still refuses the file: ``guesswork suggest
--store FILE``, ``guesswork-build import FILE`` and the library
(``open_policy_file``, ``load_policy_bytes``, ``open_store``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import numpy as np
import pytest

from guesswork.__main__ import run as guesswork
from guesswork.builder.cli import run as guesswork_build
from guesswork.builder.publish import export_bytes
from guesswork.client import open_policy_file, open_store
from guesswork.client.catalog import load_policy_bytes, open_catalog
from guesswork.client.errors import InconsistentPolicyError
from guesswork.client.policy_file import (
    FILE_FORMAT_VERSION,
    HEADER,
)
from guesswork.client.policy_format import content_hash

ROOT = Path(__file__).resolve().parents[2]
NAME = "wordle-2309-hard-max"


def resealed(data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    """Return the file ``data`` with its core changed, then sealed again as a forger
    would: content_hash and the header's length and SHA-256 recomputed."""
    body = msgpack.unpackb(data[HEADER.size :], raw=False)
    core = msgpack.unpackb(body["policy"], raw=False)
    change(core)
    body["policy"] = msgpack.packb(core, use_bin_type=True)
    body["content_hash"] = content_hash(body["policy"])
    packed = msgpack.packb(body, use_bin_type=True)
    digest = hashlib.sha256(packed).digest()
    return HEADER.pack(b"GWPOLICY", FILE_FORMAT_VERSION, 0, len(packed), digest) + packed


def _set(array: str, index: int, value: int) -> Callable[[dict[str, Any]], None]:
    def change(core: dict[str, Any]) -> None:
        values = np.frombuffer(core["tree"][array], "<i4").copy()
        values[index] = value
        core["tree"][array] = values.astype("<i4").tobytes()

    return change


def _lower_mean(core: dict[str, Any]) -> None:
    core["stats"]["mean"] -= 0.01


@pytest.fixture(scope="module")
def tampered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files of a shipped policy, each tampered one way and re-sealed."""
    with open_catalog() as catalog:
        policy = catalog.policy(NAME)
    data = export_bytes(policy)
    a = policy.data.numpy_arrays()
    leaf = int(np.flatnonzero(np.diff(a["edge_offsets"]) == 0)[0])
    used = set(a["edge_reply"][: int(a["edge_offsets"][1])].tolist())
    free = next(code for code in range(242) if code not in used)
    folder = tmp_path_factory.mktemp("tampered")
    files = {
        "guess": resealed(data, _set("node_guess", leaf, (int(a["node_guess"][leaf]) + 1) % 2309)),
        "reply": resealed(data, _set("edge_reply", 0, free)),
        "mean": resealed(data, _lower_mean),
    }
    paths = {}
    for kind, forged in files.items():
        paths[kind] = folder / f"{kind}.gwp"
        paths[kind].write_bytes(forged)
    (folder / "good.gwp").write_bytes(data)
    return paths


KINDS = ["guess", "reply", "mean"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_library_refuses_it(tampered: dict[str, Path], kind: str) -> None:
    path = tampered[kind]
    for load in (
        lambda: open_policy_file(path),
        lambda: open_store(path),
        lambda: load_policy_bytes(path.read_bytes(), str(path)),
    ):
        with pytest.raises(InconsistentPolicyError, match=NAME) as caught:
            load()
        assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    with open_policy_file(path.with_name("good.gwp")) as good:  # the untouched export loads
        assert good.names() == [NAME]


def assert_store_refuses(
    path: Path, name: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Assert that ``guesswork suggest --store PATH --policy NAME`` refuses the file in one
    line holding ``said``, and with ``--json`` gives the reason BAD_POLICY_DATA."""
    argv = ["suggest", "--store", str(path), "--policy", name]
    assert guesswork(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("guesswork: error: ") and err.count("\n") == 1
    assert said in err
    assert guesswork([*argv, "--json"]) == 1
    assert json.loads(capsys.readouterr().err)["reason"] == "BAD_POLICY_DATA"


@pytest.mark.parametrize("kind", KINDS)
def test_suggest_from_the_store_refuses_it(
    tampered: dict[str, Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_store_refuses(tampered[kind], NAME, str(tampered[kind]), capsys)


@pytest.mark.parametrize("kind", KINDS)
def test_import_refuses_it(
    tampered: dict[str, Path], kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog.sqlite"
    assert guesswork_build(["import", str(tampered[kind]), "--catalog", str(catalog)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("guesswork-build: error: ") and err.count("\n") == 1
    assert not catalog.exists()


def test_the_commands_print_no_traceback(tampered: dict[str, Path], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    commands = [
        ["guesswork", "suggest", "--store", str(tampered["guess"]), "--policy", NAME],
        [
            "guesswork.builder",
            "import",
            str(tampered["reply"]),
            "--catalog",
            str(tmp_path / "c.sqlite"),
        ],
    ]
    for module, *argv in commands:
        result = subprocess.run(
            [sys.executable, "-m", module, *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert "falls off the tree" in result.stderr
