"""Commands say what they are doing at once, on stderr only (client/progress.py):
status lines before the work they name, never on stdout, none when off."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.client.progress import ENVIRONMENT, Progress, say

ROOT = Path(__file__).resolve().parents[2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _build_cli(
    tmp_path: Path, progress: str | None, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"))
    if progress is not None:
        env[ENVIRONMENT] = progress
    return subprocess.run(
        [sys.executable, "-m", "guesswork.builder", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_evaluate_says_each_step_before_it_on_stderr_and_stdout_is_unchanged(
    tmp_path: Path,
) -> None:
    said = _build_cli(tmp_path, "1", "evaluate")
    quiet = _build_cli(tmp_path, "0", "evaluate")
    unset = _build_cli(tmp_path, None, "evaluate")  # stderr is a pipe: no status lines
    assert said.returncode == quiet.returncode == unset.returncode == 0
    label = "wordle normal neg_entropy"
    assert said.stderr.splitlines() == [
        f"{label}: reading the word lists and their replies...",
        f"{label}: building the tree (2,309 targets x 2,309 guesses)...",
    ]
    assert quiet.stderr == unset.stderr == ""
    # The same report, but for the time the build took (its last line).
    assert said.stdout.splitlines()[:-1] == quiet.stdout.splitlines()[:-1]
    assert said.stdout.splitlines()[-1].startswith("built in ")


def test_json_stays_clean_on_stdout_with_status_lines(tmp_path: Path) -> None:
    result = _build_cli(tmp_path, "1", "evaluate", "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["first_guess"] == "RAISE"
    assert "reading the word lists" in result.stderr


def test_build_says_it_adds_the_policy_after_building_it(tmp_path: Path) -> None:
    words = tmp_path / "my.txt"
    words.write_text("crane\nslate\ntrace\ncrate\ngrace\nplace\n")
    result = _build_cli(tmp_path, "1", "build", "--targets", str(words), "--name", "mine")
    assert result.returncode == 0, result.stderr
    lines = [line.removeprefix("mine: ") for line in result.stderr.splitlines()]
    assert lines[0] == "reading the word lists and their replies..."
    assert lines[1] == "building the tree (6 targets x 6 guesses)..."
    assert lines[2] == "ranking each node's alternatives for the record..."
    assert lines[3].startswith("adding it to ") and len(lines) == 4
    assert result.stdout.startswith("built mine in ")


def test_verify_says_what_it_proves(tmp_path: Path) -> None:
    name = "wordle-2309-hard-max"
    result = _build_cli(tmp_path, "1", "verify", "--policy", name)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == "verify: proving 1 policy, one by one..."
    assert result.stdout.splitlines()[0] == f"ok    {name}"


def test_a_status_line_goes_to_a_terminal_only_unless_forced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    terminal, log = _Terminal(), io.StringIO()
    say("reading", stream=terminal)
    say("reading", stream=log)
    assert (terminal.getvalue(), log.getvalue()) == ("reading...\n", "")
    say("quiet", stream=terminal, quiet=True)
    assert terminal.getvalue() == "reading...\n"
    monkeypatch.setenv(ENVIRONMENT, "1")
    say("forced", stream=log)
    assert log.getvalue() == "forced...\n"


def test_progress_off_in_the_environment_silences_reports_and_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENVIRONMENT, "0")
    stream = _Terminal()
    report = Progress("slow", delay=0.0, stream=stream)
    report.say("working")
    report.update(1, 2, 100.0)
    report.close()
    assert stream.getvalue() == ""
