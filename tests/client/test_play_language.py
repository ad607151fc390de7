# ruff: noqa: RUF001  (Greek letters that look Latin are the point here)
"""``guesswork play --language L``, listings by language, and the service with lists of
other alphabets (Spanish with its accents folded, Greek).

The policies are built here from the shipped language lists into a temporary
catalog (the shipped catalog is rebuilt separately), one of them passing
through a policy file (export, then import) on its way to the service.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from guesswork.__main__ import run
from guesswork.builder.catalog_specs import LANGUAGE_SPECS
from guesswork.builder.cli import run as build_run
from guesswork.builder.policies import build_policy
from guesswork.builder.publish import StoredPolicy, export_bytes, publish_catalog
from guesswork.client.catalog import open_catalog
from guesswork.client.probe import Policy
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import ServerOptions, start_server

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SPANISH = "wordle-es-5-top2000-normal-neg-entropy"
GREEK = "wordle-el-5-top2000-normal-neg-entropy"


def stored(language: str) -> StoredPolicy:
    spec = next(spec for spec in LANGUAGE_SPECS if spec.targets.startswith(f"{language}-"))
    built = build_policy(spec)
    return StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A catalog of the Spanish policy (published) and the Greek one (exported to a
    policy file and imported, as a user would)."""
    folder = tmp_path_factory.mktemp("languages")
    location = str(folder / "catalog.sqlite")
    publish_catalog(location, [stored("es")], [])
    greek = folder / "greek.gwp"
    greek.write_bytes(export_bytes(stored("el")))
    assert build_run(["import", str(greek), "--catalog", location]) == 0
    return location


def with_accent(word: str) -> str:
    """Return ``word`` in lower case with an acute accent on its first vowel, as a
    player might type it (the lists fold accents away)."""
    lower = word.lower()
    at = next(i for i, c in enumerate(lower) if c in "aeiouαεηιουω")
    return unicodedata.normalize("NFC", lower[: at + 1] + "\u0301" + lower[at + 1 :])


def game_lines(policy: Policy, secret: str) -> tuple[list[str], list[str]]:
    """Return (the policy's guesses, the lines a player types): each reply, and the
    last guess typed as ``word REPLY`` in lower case with an accent."""
    guesses = policy.play(secret)
    game = policy.game
    lines = [game.format_reply(game.reply(guess, secret)) for guess in guesses]
    lines[-1] = f"{with_accent(secret)} {lines[-1]}"
    return guesses, lines


def play_lines(args: list[str], lines: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guesswork", "play", *args],
        input="\n".join(lines) + "\n",
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("language", "name", "secret"), [("es", SPANISH, "ARBOL"), ("el", GREEK, "ΛΟΓΟΣ")]
)
def test_play_language_picks_its_policy_and_wins(
    catalog: str, language: str, name: str, secret: str
) -> None:
    with open_catalog(catalog) as opened:
        policy = opened.policy(name)
        assert secret in policy.targets
        guesses, lines = game_lines(policy, secret)
    assert len(guesses) >= 2
    result = play_lines(["--language", language, "--store", catalog], lines)
    assert (result.returncode, result.stderr) == (0, "")
    out = result.stdout
    assert out.startswith(f"{name}:")
    assert f"Guess 1: {guesses[0]}  (2000 possible)" in out
    assert f"Guess {len(guesses)}: {secret}" in out
    assert f"Solved in {len(guesses)} guesses." in out
    assert f"Wordle {len(guesses)}/6" in out and "🟩🟩🟩🟩🟩" in out


def test_play_language_errors_are_one_line(catalog: str) -> None:
    result = play_lines(["--language", "fr", "--store", catalog], [])
    assert result.returncode == 1
    assert result.stderr.startswith("guesswork: error: no Wordle policy for French (fr)")
    assert result.stderr.count("\n") == 1
    result = play_lines(["--language", "xx", "--store", catalog], [])
    assert result.returncode == 2 and "argument --language: 'xx' is not one of" in result.stderr
    result = play_lines(["--language", "es", "--policy", SPANISH, "--store", catalog], [])
    assert result.returncode == 2 and "not allowed with argument" in result.stderr


def test_listings_say_each_policys_language(
    catalog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["policies", "--store", catalog, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["name"]: row["language"] for row in rows} == {GREEK: "el", SPANISH: "es"}
    assert run(["policies", "--store", catalog]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(SPANISH) and lines[1].endswith("user  es")
    assert build_run(["list", "--catalog", catalog]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("  el")


@pytest.fixture(scope="module")
def served(catalog: str) -> Iterator[int]:
    """A real server on a loopback port, answering from the catalog."""
    with open_catalog(catalog) as opened:
        server, port = start_server(ServerOptions(address="127.0.0.1:0"), opened)
        yield port
        server.stop(0, drain=0)


def test_the_service_answers_in_any_alphabet(
    catalog: str, served: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_catalog(catalog) as opened:
        greek = opened.policy(GREEK)
        spanish = opened.policy(SPANISH)
    with grpc.insecure_channel(f"127.0.0.1:{served}") as channel:
        stub = pb_grpc.GuessworkStub(channel)
        listed = stub.ListPolicies(pb.ListPoliciesRequest()).policies
        assert {p.targets_list for p in listed} == {"el-5-top2000", "es-5-top2000"}
        # Every Greek target plays through the service as through the probe, the
        # player typing lower case (final sigma) and accents.
        game = greek.game
        for target in greek.targets[::97]:
            guesses = greek.play(target)
            history = [
                pb.Turn(guess=with_accent(g), reply=game.format_reply(game.reply(g, target)))
                for g in guesses
            ]
            for depth in range(len(guesses)):
                answer = stub.SuggestGuess(
                    pb.SuggestGuessRequest(policy=GREEK, history=history[:depth])
                )
                assert (answer.guess, answer.solved) == (guesses[depth], False)
            done = stub.SuggestGuess(pb.SuggestGuessRequest(policy=GREEK, history=history))
            assert (done.solved, done.guess) == (True, target)
        # ÁRBOL typed is the list's ARBOL; ÑANDU stays itself (Ñ is kept).
        score = stub.ScoreGuess(pb.ScoreGuessRequest(policy=SPANISH, guess="árbol", target="arbol"))
        assert score.solved and "ARBOL" in spanish.targets
    # The command line over the service: --language finds the policy by its list.
    server = f"127.0.0.1:{served}"
    assert run(["suggest", "--language", "es", "--server", server, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["guess"] == spanish.guess(0)
    secret = "ΛΟΓΟΣ"
    guesses, lines = game_lines(greek, secret)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert run(["play", "--language", "el", "--server", server]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{GREEK}:") and f"Solved in {len(guesses)} guesses." in out
