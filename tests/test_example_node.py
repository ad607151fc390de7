"""The Node.js example bot (examples/node-bot) against a real server, a policy
file and the conformance vectors: a client in another language built from the
contracts alone (protos/, docs/policy-format.rst, tests/vectors/).

Needs `node` and `npm` on PATH (the bot's README says how to install them) and
the npm registry for the first `npm ci`; without the toolchain every test here
is skipped, with the reason printed (pytest runs with -ra).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guesswork.builder.publish import export_bytes
from guesswork.client.catalog import Catalog, open_catalog, open_policy_file
from guesswork.client.remote import RemoteClient
from guesswork.service.server import ServerOptions, start_server

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "examples" / "node-bot"
VECTORS = ROOT / "tests" / "vectors"
POLICY = "wordle-2309-normal-neg-entropy"
#: Written into node_modules after a successful `npm ci`: the lock it installed.
STAMP = ".guesswork-lock-sha256"


@pytest.fixture(scope="module")
def bot() -> Path:
    """Return the bot's folder with its dependencies installed (`npm ci`, once per lock)."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"the Node.js example (examples/node-bot) was not run: {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not on PATH (install Node.js 20 and npm; "
            f"see examples/node-bot/README.md)"
        )
    lock = hashlib.sha256((BOT / "package-lock.json").read_bytes()).hexdigest()
    stamp = BOT / "node_modules" / STAMP
    if not stamp.is_file() or stamp.read_text().strip() != lock:
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=BOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
        stamp.write_text(lock + "\n")
    return BOT


def node(bot: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `node bot.js ARGS` in the bot's folder."""
    return subprocess.run(
        ["node", "bot.js", *args],
        cwd=bot,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )


@pytest.fixture(scope="module")
def catalog() -> Iterator[Catalog]:
    with open_catalog() as opened:
        yield opened


@pytest.fixture(scope="module")
def address(catalog: Catalog) -> Iterator[str]:
    server, port = start_server(ServerOptions(address="127.0.0.1:0"), catalog)
    yield f"127.0.0.1:{port}"
    server.stop(0, drain=0)


def python_game(address: str, policy: str, secret: str) -> list[tuple[str, str]]:
    """Return the (guess, reply) turns the Python client plays against the same server."""
    turns: list[tuple[str, str]] = []
    with RemoteClient(address) as remote:
        while True:
            answer = remote.suggest(policy, turns)
            if answer.solved:
                return turns
            reply = remote.score(policy, answer.guess, secret).reply
            turns.append((answer.guess, reply))


def test_health(bot: Path, address: str) -> None:
    done = node(bot, "health", "--server", address)
    assert (done.returncode, done.stdout.strip()) == (0, "SERVING"), done.stderr


@pytest.mark.parametrize(
    ("policy", "secret"),
    [(POLICY, "crane"), (POLICY, "tacit"), ("jotto-2309-hard-max", "acrid")],
)
def test_play_solves_with_the_python_clients_guesses(
    bot: Path, address: str, policy: str, secret: str
) -> None:
    done = node(bot, "play", "--server", address, "--policy", policy, "--secret", secret, "--json")
    assert done.returncode == 0, done.stderr
    game = json.loads(done.stdout)
    turns = [(turn["guess"], turn["reply"]) for turn in game["turns"]]
    assert turns == python_game(address, policy, secret)
    assert game["solution"] == secret.upper() == turns[-1][0]
    assert game["guesses"] == len(turns)


def test_play_prints_each_turn(bot: Path, address: str) -> None:
    done = node(bot, "play", "--server", address, "--policy", POLICY, "--secret", "crane")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    turns = python_game(address, POLICY, "crane")
    assert [line.split()[1:3] for line in lines[:-1]] == [list(turn) for turn in turns]
    assert lines[-1] == f"Solved in {len(turns)} guesses: CRANE"


def test_play_with_an_unknown_policy_prints_the_reason(bot: Path, address: str) -> None:
    done = node(bot, "play", "--server", address, "--policy", "no-such-policy", "--secret", "crane")
    assert done.returncode == 1
    first = done.stderr.splitlines()[0]
    assert first.startswith("error: NOT_FOUND POLICY_NOT_FOUND "), done.stderr
    assert "metadata:" in done.stderr
    as_json = node(bot, "play", "--server", address, "--policy", "nope", "--secret", "x", "--json")
    error = json.loads(as_json.stderr)
    assert (as_json.returncode, error["reason"], error["domain"]) == (
        1,
        "POLICY_NOT_FOUND",
        "guesswork.v1",
    )
    assert error["metadata"]["policy"] == "nope"


@pytest.mark.parametrize(
    ("policy", "secrets"),
    [
        (POLICY, ("crane", "tacit", "abled")),
        ("jotto-2309-hard-max", ("acrid",)),
        ("guess-my-word-common-words-optimal-deduce", ("about", "zone")),
        ("guess-my-word-common-words-binary-live", ("about",)),
    ],
)
def test_offline_plays_the_trees_guesses(
    bot: Path, catalog: Catalog, tmp_path: Path, policy: str, secrets: tuple[str, ...]
) -> None:
    path = tmp_path / f"{policy}.gwp"
    path.write_bytes(export_bytes(catalog.policy(policy)))
    with open_policy_file(path) as single:
        tree = single.policy(policy)
        for secret in secrets:
            done = node(bot, "offline", "--policy-file", str(path), "--secret", secret, "--json")
            assert done.returncode == 0, done.stderr
            game = json.loads(done.stdout)
            assert [turn["guess"] for turn in game["turns"]] == tree.play(tree.game.fold(secret))
            assert game["solved"] is True
            assert game["content_hash"] == tree.content_hash


def test_offline_refuses_a_damaged_file(bot: Path, catalog: Catalog, tmp_path: Path) -> None:
    data = bytearray(export_bytes(catalog.policy(POLICY)))
    data[-1] ^= 1
    path = tmp_path / "damaged.gwp"
    path.write_bytes(bytes(data))
    done = node(bot, "offline", "--policy-file", str(path), "--secret", "crane")
    assert done.returncode == 1
    assert done.stderr.startswith("error: CorruptFileError: "), done.stderr


def count_cases(vectors: dict[str, Any]) -> int:
    """Return the bot's number of cases: each policy file's load, each walk, each damaged file."""
    policies = vectors["policies"]
    walks = sum(len(policy.get("walks", [])) for policy in policies)
    return len(policies) + walks + len(vectors.get("damaged", []))


def test_vectors_pass(bot: Path) -> None:
    vectors = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
    done = node(bot, "vectors", str(VECTORS), timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    lines = done.stdout.splitlines()
    cases = count_cases(vectors)
    assert lines[-1] == f"{cases} passed, 0 failed"
    assert len(lines) == cases + 1
    assert all(line.startswith("PASS ") for line in lines[:-1])
