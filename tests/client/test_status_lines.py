"""`guesswork` says what it is doing when the work takes seconds (client/progress.py):
a next guess computed live, a game analysed; on stderr only, never in stdout or
--json, none for a stored answer, and none from the lookup core outside a command
line (a server answering the same call writes nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.client.progress import ENVIRONMENT, telling
from guesswork.service.local import LocalGuesswork

ROOT = Path(__file__).resolve().parents[2]
#: These tests read status lines themselves (tests/conftest.py turns them off elsewhere).
pytestmark = pytest.mark.progress
POLICY = "wordle-2309-normal-neg-entropy"
#: SALET is outside this policy's guess list: its answer after SALET is computed live.
OFF_TREE = "salet:.Y..Y"


def guesswork(
    progress: str, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Return `python -m guesswork ARGS` run with GUESSWORK_PROGRESS=``progress``
    (stderr a pipe, so status lines appear only when forced with 1); exit status 0."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), ENVIRONMENT: progress}
    result = subprocess.run(
        [sys.executable, "-m", "guesswork", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result


def said_and_quiet(*args: str, stdin: str | None = None) -> tuple[str, str]:
    """Return the stderr of ``args`` with status lines forced, after checking that
    stdout is the same with them off and that stderr is then empty; and that stdout."""
    said = guesswork("1", *args, stdin=stdin)
    quiet = guesswork("0", *args, stdin=stdin)
    assert said.stdout == quiet.stdout
    assert quiet.stderr == ""
    return said.stderr, said.stdout


def test_a_live_answer_is_said_on_stderr_before_it_and_stdout_is_unchanged() -> None:
    stderr, stdout = said_and_quiet("suggest", "--policy", POLICY, "--history", OFF_TREE)
    remaining = int(stdout.split("(")[1].split()[0])
    assert "possible, live)" in stdout
    assert stderr == f"computing the next guess live over {remaining:,} possible answers...\n"


def test_json_stays_one_object_with_the_live_status_line_on_stderr() -> None:
    stderr, stdout = said_and_quiet("suggest", "--policy", POLICY, "--history", OFF_TREE, "--json")
    answer = json.loads(stdout)
    assert answer["source"] == "SOURCE_LIVE"
    assert stderr.startswith(f"computing the next guess live over {answer['remaining']:,} ")


def test_a_stored_answer_says_nothing() -> None:
    stderr, stdout = said_and_quiet("suggest", "--policy", POLICY, "--history", "raise:.....")
    assert "stored" in stdout and stderr == ""


def test_a_secret_off_the_answer_list_says_it_ranks_the_guess_lists_words() -> None:
    # TACOS is allowed but none of the 2,309 answers: these replies fit no target.
    history = "raise:Y.Y..,cloth:Y.Y.Y"
    stderr, stdout = said_and_quiet("suggest", "--policy", POLICY, "--history", history)
    assert "guess list" in stdout
    assert stderr.startswith("computing the next guess live over ")
    assert stderr.endswith(" possible words of the guess list...\n")


def test_a_multi_board_answer_computed_live_names_its_boards() -> None:
    boards = ["--board", "crane:.....", "--board", "crane:G....", "--board", "crane:GGGGG"]
    stderr, stdout = said_and_quiet("suggest", "--policy", POLICY, *boards)
    assert "live; board 1: " in stdout
    counts = [part.split(": ")[1].split()[0] for part in stdout.split("; or ")[0].split(", ")[1:3]]
    assert stderr == (
        f"computing the next guess live over 2 boards ({counts[0]}, {counts[1]} possible "
        "answers)...\n"
    )


def test_play_says_its_live_answers_on_stderr() -> None:
    stderr, stdout = said_and_quiet("play", "--policy", POLICY, stdin="salet .Y..Y\nq\n")
    assert "Guess 2: " in stdout
    assert stderr.startswith("computing the next guess live over ")


def test_analyze_says_what_it_analyses_and_its_table_and_json_are_unchanged() -> None:
    game = ["analyze", "--policy", POLICY, "--history", "crane:.....,fuzzy:....."]
    stderr, _ = said_and_quiet(*game)
    assert stderr == "analysing 2 moves against the best guess at each...\n"
    stderr, stdout = said_and_quiet(*game, "--json")
    assert json.loads(stdout)["policy"] == POLICY
    assert stderr == "analysing 2 moves against the best guess at each...\n"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("bee", "top", "-n", "3"), "bee: the best honeycombs of enable1..."),
        (("bee", "top", "-n", "3", "--json"), "bee: the best honeycombs of enable1..."),
        (
            ("bee", "score", "--letters", "aeginrt", "--center", "r"),
            "bee: scoring AEGINRT/R over enable1...",
        ),
        (
            ("bee", "hints", "--letters", "AEGINRT", "--center", "R", "--json"),
            "bee: scoring AEGINRT/R over enable1...",
        ),
    ],
)
def test_spelling_bee_says_what_it_scores(args: tuple[str, ...], line: str) -> None:
    stderr, _ = said_and_quiet(*args)
    assert stderr == line + "\n"


def test_the_lookup_core_says_nothing_outside_a_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server's calls run the same code: no status line in its log, even forced."""
    monkeypatch.setenv(ENVIRONMENT, "1")
    backend = LocalGuesswork.open(None)
    history = [("salet", ".Y..Y")]
    assert backend.suggest(POLICY, history).source == "live"
    assert capsys.readouterr().err == ""
    with telling():
        backend.suggest(POLICY, history)
    assert capsys.readouterr().err.startswith("computing the next guess live over ")
