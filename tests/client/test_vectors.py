"""The policy-file conformance vectors (tests/vectors) pass in the project's own reader.

A reader in any language checks itself the same way (tests/vectors/README.md):
every policy file loads with its content hash, every walk gives the expected
guess, remaining count and solved flag (or leaves the tree), and every damaged
file is refused with exactly the named error class.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from guesswork.client import errors
from guesswork.client.catalog import load_policy_bytes, open_policy_file
from guesswork.client.errors import OffTreeError, PolicyFormatError
from guesswork.client.probe import Policy

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
DOCUMENT: dict[str, Any] = json.loads((VECTORS / "vectors.json").read_text())
POLICIES: list[dict[str, Any]] = DOCUMENT["policies"]
DAMAGED: list[dict[str, Any]] = DOCUMENT["damaged"]


def walk(policy: Policy, history: list[tuple[str, int]]) -> dict[str, Any]:
    """Return a walk's result by docs/policy-format.rst's rule, through the probe."""
    try:
        position = policy.walk(history)
    except OffTreeError:
        return {"off_tree": True}
    if position.solved:  # the last reply was the winning one: its guess was the secret
        return {"guess": history[-1][0], "remaining": 1, "solved": True}
    node = position.node  # at a deduced leaf the game is over: its guess is the secret
    return {
        "guess": policy.guess(node),
        "remaining": policy.remaining_count(node),
        "solved": policy.known(node),
    }


def test_the_vectors_cover_every_kind_of_policy_and_damage() -> None:
    assert DOCUMENT["vectors_format"] == 1
    kinds = {(p["game"], p["mode"], p["strategy"]) for p in POLICIES}
    for kind in [
        ("wordle", "normal", "greedy"),
        ("wordle", "hard", "greedy"),
        ("wordle", "nyt-hard", "greedy"),
        ("wordle", "normal", "optimal"),
        ("jotto", "hard", "greedy"),
        ("antiwordle", "hard", "greedy"),
        ("mastermind", "normal", "greedy"),
        ("guess-my-word", "deduce", "word-tree"),
        ("guess-my-word", "live", "word-tree"),
    ]:
        assert kind in kinds
    assert {p["container_version"] for p in POLICIES} == {1, 2}
    assert {p["core_format"] for p in POLICIES} == {1, 2, 3}  # 3: weighted by a prior
    errors_named = {d["error"] for d in DAMAGED}
    assert errors_named == {
        "NotAPolicyFileError",
        "UnsupportedVersionError",
        "CorruptFileError",
        "MalformedPolicyError",
        "InconsistentPolicyError",
    }
    size = sum(path.stat().st_size for path in VECTORS.rglob("*") if path.is_file())
    assert size < 1 << 20


@pytest.mark.parametrize("entry", POLICIES, ids=[p["file"] for p in POLICIES])
def test_each_policy_loads_and_walks_as_expected(entry: dict[str, Any]) -> None:
    path = VECTORS / entry["file"]
    with open_policy_file(path) as single:
        (policy,) = list(single)
    assert policy.content_hash == entry["content_hash"]
    assert load_policy_bytes(path.read_bytes(), entry["file"]).content_hash == entry["content_hash"]
    assert (policy.name, policy.game.id, policy.game.length, policy.data.mode) == (
        entry["name"],
        entry["game"],
        entry["length"],
        entry["mode"],
    )
    assert policy.data.strategy.kind == entry["strategy"]
    assert (len(policy.targets), policy.game.win_reply) == (entry["targets"], entry["win_code"])
    assert int.from_bytes(path.read_bytes()[8:10], "big") == entry["container_version"]
    kinds = set()
    for expected in entry["walks"]:
        history = [(word, code) for word, code in expected["history"]]
        got = walk(policy, history)
        assert got == {k: v for k, v in expected.items() if k != "history"}, history
        kinds.add("off" if got.get("off_tree") else "solved" if got["solved"] else "node")
    assert kinds == {"off", "solved", "node"}


@pytest.mark.parametrize("entry", DAMAGED, ids=[d["file"] for d in DAMAGED])
def test_each_damaged_file_is_refused_with_its_class(entry: dict[str, Any]) -> None:
    expected = getattr(errors, entry["error"])
    assert issubclass(expected, PolicyFormatError)
    path = VECTORS / entry["file"]
    for load in (
        lambda: open_policy_file(path),
        lambda: load_policy_bytes(path.read_bytes(), entry["file"]),
    ):
        with pytest.raises(PolicyFormatError) as caught:
            load()
        assert type(caught.value) is expected, str(caught.value)
        message = str(caught.value)
        assert "\n" not in message and entry["file"] in message
