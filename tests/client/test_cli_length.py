"""``--length K`` (every word length out of the box) and the seed's blank-line skip in ``play``.

The ``--length`` tests read the shipped catalog, which holds greedy enable1
policies for 4 to 11 letters (builder.catalog_specs.ENABLE1_SPECS).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.__main__ import run
from guesswork.builder.policies import PolicySpec, build_policy
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.client.catalog import open_catalog
from guesswork.client.policy_choice import DEFAULT_PLAY_POLICY, TODAY_POLICIES, chosen_policy
from guesswork.client.probe import Policy
from guesswork.service.local import LocalGuesswork

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def replies_to(policy: Policy, guesses: list[str], secret: str) -> list[str]:
    return [policy.game.format_reply(policy.game.reply(guess, secret)) for guess in guesses]


def play_lines(args: list[str], lines: list[str]) -> str:
    """Run ``guesswork play`` with ``lines`` on standard input; return its output."""
    result = subprocess.run(
        [sys.executable, "-m", "guesswork", "play", *args],
        input="\n".join(lines) + "\n",
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return result.stdout


def test_play_length_11_wins_a_game() -> None:
    with open_catalog() as catalog:
        policy = catalog.policy("wordle-11-enable1-normal-neg-entropy")
        secret = policy.targets[len(policy.targets) // 2]
        guesses = policy.play(secret)
        out = play_lines(["--length", "11"], replies_to(policy, guesses, secret))
    assert out.startswith("wordle-11-enable1-normal-neg-entropy:")
    assert f"Guess 1: {guesses[0]}  ({len(policy.targets)} possible)" in out
    assert f"Guess {len(guesses)}: {secret}" in out
    assert f"Solved in {len(guesses)} guesses." in out


@pytest.mark.parametrize(
    ("length", "expected"),
    [
        *((k, f"wordle-{k}-enable1-normal-neg-entropy") for k in (4, 6, 7, 8, 9, 10, 11)),
    ],
)
def test_each_length_picks_its_shipped_policy(length: int, expected: str) -> None:
    assert chosen_policy(LocalGuesswork.open(None).policies(), None, length) == expected


def test_five_letters_and_no_length_pick_the_best_policy_of_todays_game() -> None:
    """The shipped catalog's first of TODAY_POLICIES (best first): both for --length 5
    and for no option at all."""
    held = {info.name for info in LocalGuesswork.open(None).policies()}
    best = next(name for name in TODAY_POLICIES if name in held)
    assert chosen_policy(LocalGuesswork.open(None).policies(), None, 5) == best
    assert chosen_policy(LocalGuesswork.open(None).policies(), None, None) == best


def test_suggest_length_and_its_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["suggest", "--length", "8"]) == 0
    with open_catalog() as catalog:
        first = catalog.policy("wordle-8-enable1-normal-neg-entropy").guess(0)
    assert capsys.readouterr().out.startswith(f"{first}  (28420 possible, stored)")
    assert run(["suggest", "--length", "3"]) == 1
    err = capsys.readouterr().err
    assert "no Wordle policy for 3-letter words" in err and "--length 3 --targets enable1" in err
    assert run(["play", "--length", "5", "--policy", DEFAULT_PLAY_POLICY]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert run(["suggest", "--length", "x"]) == 2
    assert (
        "argument --length: Wordle words have 2 to 12 letters, not 'x'" in capsys.readouterr().err
    )


def test_blank_lines_skip_as_in_the_seed_with_an_approx_entropy_policy(tmp_path: Path) -> None:
    """The seed's session: each blank line shows the next-best guess and one word fewer.

    The refused words stay refused for the rest of the game: never suggested
    again, never counted as possible secrets.
    """
    built = build_policy(PolicySpec("wordle", metric="approx_entropy"))
    catalog = tmp_path / "approx.sqlite"
    words = built.tree.targets.words, built.tree.guesses.words
    publish_catalog(str(catalog), [StoredPolicy.from_data(built.data, *words)], [])
    name = built.data.name
    backend = LocalGuesswork.open(str(catalog))
    with open_catalog(catalog) as opened:
        policy = opened.policy(name)
        first, alternatives = policy.guess(0), policy.alternatives(0)
    assert first == "RAISE" and len(alternatives) == 50
    refused = [first, alternatives[0]]
    secret = next(word for word in reversed(policy.targets) if word not in alternatives[:5])
    # What the helper must answer, computed with the same backend.
    lines, history, shown = ["", ""], [], [alternatives[1]]
    while True:
        reply = policy.game.format_reply(policy.game.reply(shown[-1], secret))
        lines.append(reply)
        history.append((shown[-1], reply))
        answer = backend.suggest(name, history, 20)
        if answer.solved:
            break
        shown.append(next(w for w in [answer.guess, *answer.alternatives] if w not in refused))
    out = play_lines(["--store", str(catalog), "--policy", name], lines)
    assert f"Guess 1: {first}  (2309 possible)" in out
    assert f"Guess 1: {alternatives[0]}  (2308 possible; alternative 1)" in out
    assert f"Guess 1: {alternatives[1]}  (2307 possible; alternative 2)" in out
    for number, word in enumerate(shown[1:], start=2):
        assert f"Guess {number}: {word}  (" in out
    assert shown[-1] == secret and f"Solved in {len(shown)} guesses." in out
