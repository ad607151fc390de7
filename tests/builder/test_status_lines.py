"""Commands say what they are doing at once, on stderr only (client/progress.py):
status lines before the work they name, never on stdout, none when off."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from guesswork.builder.policies import (
    OptimalSpec,
    PolicySpec,
    build_optimal_policy,
    build_policy,
)
from guesswork.client.progress import ENVIRONMENT, Progress, say

ROOT = Path(__file__).resolve().parents[2]
#: These tests read status lines themselves (tests/conftest.py turns them off elsewhere).
pytestmark = pytest.mark.progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _build_cli(
    tmp_path: Path, progress: str | None, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    env.update(
        PYTHONPATH=str(ROOT),
        XDG_DATA_HOME=str(tmp_path / "data"),
        GUESSWORK_CACHE=str(tmp_path / "cache"),
    )
    if progress is not None:
        env[ENVIRONMENT] = progress
    return subprocess.run(
        [sys.executable, "-m", "guesswork.builder", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def _status_lines(stderr: str) -> list[str]:
    """Return the status lines of ``stderr`` (client.progress.say's, ending "...")."""
    return [line for line in stderr.splitlines() if line.endswith("...")]


def test_evaluate_says_each_step_before_it_on_stderr_and_stdout_is_unchanged(
    tmp_path: Path,
) -> None:
    said = _build_cli(tmp_path, "1", "evaluate")
    quiet = _build_cli(tmp_path, "0", "evaluate")
    unset = _build_cli(tmp_path, None, "evaluate")  # stderr is a pipe: no status lines
    assert said.returncode == quiet.returncode == unset.returncode == 0
    label = "wordle normal neg_entropy"
    # A build past 2 s also reports its count (a plain line, not a status line).
    assert _status_lines(said.stderr) == [
        f"{label}: reading the word lists and their replies...",
        f"{label}: building the tree (2,309 targets x 2,309 guesses)...",
    ]
    assert quiet.stderr == "" and _status_lines(unset.stderr) == []
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
    lines = [line.removeprefix("mine: ") for line in _status_lines(result.stderr)]
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


#: A command's own timings ("(0.1 s)", "seconds": 0.1) differ from run to run.
_TIMES = re.compile(r"\b\d+(?:\.\d+)? s\b|\"seconds\": \{[^}]*\}")


def _said_and_unchanged(tmp_path: Path, *args: str) -> list[str]:
    """Return the status lines of ``args`` run with GUESSWORK_PROGRESS=1, after checking
    it succeeds and its stdout is as with GUESSWORK_PROGRESS=0 (timings aside), which
    writes nothing on stderr."""
    said = _build_cli(tmp_path, "1", *args)
    quiet = _build_cli(tmp_path, "0", *args)
    assert said.returncode == quiet.returncode == 0, said.stderr
    assert quiet.stderr == ""
    assert _TIMES.sub("T", said.stdout) == _TIMES.sub("T", quiet.stdout)
    return said.stderr.splitlines()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("first-guesses", "--top", "3"),
            "first-guesses: the replies of 2,309 guesses x 2,309 targets...",
        ),
        (("lists",), "lists: reading every word list..."),
        (("lists", "--json"), "lists: reading every word list..."),
        (("cache", "info"), "cache: reading {cache}..."),
        (("cache", "info", "--json"), "cache: reading {cache}..."),
        (("cache", "clean"), "cache: removing the matrices and proofs cached in {cache}..."),
        (
            ("export", "wordle-2309-hard-max", "--output", "{tmp}/max.gwp"),
            "export: reading wordle-2309-hard-max...",
        ),
        (
            ("boards", "--policy", "wordle-2309-hard-max", "--boards", "2", "--games", "3"),
            "boards: the replies of 2,309 guesses x 2,309 targets, then each strategy's games...",
        ),
        (
            (
                "boards",
                "--policy",
                "wordle-2309-hard-max",
                "--boards",
                "2",
                "--games",
                "3",
                "--json",
            ),
            "boards: the replies of 2,309 guesses x 2,309 targets, then each strategy's games...",
        ),
        (
            ("backtest", "--from", "2024-01-01", "--to", "2024-01-01"),
            "backtest: playing 1 day, each under its own calendar prior...",
        ),
        (
            ("upgrade", "--catalog", "{tmp}/catalog.sqlite"),
            "upgrade: reading and rewriting {tmp}/catalog.sqlite...",
        ),
    ],
)
def test_a_command_says_what_it_does_on_stderr_first_and_stdout_is_unchanged(
    tmp_path: Path, args: tuple[str, ...], line: str
) -> None:
    if "{tmp}/catalog.sqlite" in args:  # upgrade's: a catalog of this version, copied
        shutil.copyfile(ROOT / "policies" / "catalog.sqlite", tmp_path / "catalog.sqlite")
    where = {"tmp": str(tmp_path), "cache": str(tmp_path / "cache")}
    said = _said_and_unchanged(tmp_path, *(arg.format(**where) for arg in args))
    assert said[0] == line.format(**where)


def test_an_absurdle_search_says_what_it_searches(tmp_path: Path) -> None:
    words = tmp_path / "few.txt"
    words.write_text("crane\nslate\ntrace\ncrate\ngrace\nplace\nbloom\n")
    said = _said_and_unchanged(tmp_path, "optimize", "--game", "absurdle", "--targets", str(words))
    assert said == [
        "absurdle: reading the word lists...",
        "absurdle: searching for the shortest line that beats it (7 targets x 7 guesses)...",
    ]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("wordlist", "--language", "es", "--output", "{tmp}/es.txt"),
            "wordlist: reading wordfreq's word frequencies (es)...",
        ),
        (
            ("gmw-list", "--output", "{tmp}/gmw.txt"),
            "gmw-list: reading wordfreq's English word frequencies...",
        ),
        (
            ("priors", "--words", "wordle-answers-2309", "--output", "{tmp}/p.txt"),
            "priors: weighing 2,309 words by wordfreq's frequencies...",
        ),
    ],
)
def test_wordfreq_commands_say_what_they_read(
    tmp_path: Path, args: tuple[str, ...], line: str
) -> None:
    pytest.importorskip("wordfreq")
    said = _said_and_unchanged(tmp_path, *(arg.format(tmp=tmp_path) for arg in args))
    assert said == [line.format(tmp=tmp_path)]


def test_report_says_what_it_draws(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "report.png"
    said = _said_and_unchanged(tmp_path, "report", "--output", str(output), "wordle-2309-hard-max")
    assert said == [f"report: reading and drawing 1 policy into {output}..."]


def test_remove_says_it_rewrites_the_catalog(tmp_path: Path) -> None:
    words = tmp_path / "my.txt"
    words.write_text("crane\nslate\ntrace\ncrate\n")
    catalog = tmp_path / "data" / "guesswork" / "catalog.sqlite"
    for name in ("one", "two"):
        built = _build_cli(tmp_path, "0", "build", "--targets", str(words), "--name", name)
        assert built.returncode == 0, built.stderr
    said = _build_cli(tmp_path, "1", "remove", "one")
    quiet = _build_cli(tmp_path, "0", "remove", "two")
    assert said.returncode == quiet.returncode == 0, said.stderr
    assert said.stderr == f"remove: writing {catalog} without one...\n"
    assert (said.stdout, quiet.stderr) == (f"removed one from {catalog}\n", "")
    assert quiet.stdout == f"removed two from {catalog}\n"


def test_build_all_says_which_policy_it_builds_before_building_it(tmp_path: Path) -> None:
    """The whole catalog takes hours: the test stops it once it has said what it builds."""
    from guesswork.builder.catalog_specs import CATALOG_SPECS

    env = {**os.environ, "PYTHONPATH": str(ROOT), ENVIRONMENT: "1"}
    env["GUESSWORK_CACHE"] = str(tmp_path / "cache")
    command = [sys.executable, "-m", "guesswork.builder", "build-all"]
    with subprocess.Popen(
        [*command, "--catalog", str(tmp_path / "all.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as process:
        assert process.stderr is not None and process.stdout is not None
        try:
            first = process.stderr.readline()
        finally:
            process.kill()
        assert process.stdout.read() == ""
    assert first == f"build-all: [1/{len(CATALOG_SPECS)}] {CATALOG_SPECS[0].name()}...\n"


class _Stamped(io.StringIO):
    """A stream that notes when each line was written (time.perf_counter)."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def write(self, text: str) -> int:
        if text.strip():
            self.times.append(time.perf_counter())
        return super().write(text)


@pytest.mark.parametrize("kind", ["greedy", "optimal"])
def test_a_builds_seconds_cover_every_step_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A build's seconds (``built ... in N s``) start before its first status line (the
    word lists) and end after its last (the record): at least the time between them,
    however fast the machine."""
    monkeypatch.setenv(ENVIRONMENT, "1")
    words = tmp_path / "my.txt"
    words.write_text("crane\nslate\ntrace\ncrate\ngrace\nplace\n")
    stream = _Stamped()
    progress = Progress("mine", stream=stream)
    if kind == "greedy":
        built = build_policy(PolicySpec("wordle", targets=str(words)), progress=progress)
    else:
        spec = OptimalSpec("wordle", targets=str(words), mode="hard")
        built, _ = build_optimal_policy(spec, progress=progress)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "mine: reading the word lists and their replies..."
    assert lines[-1] == "mine: ranking each node's alternatives for the record..."
    assert built.seconds >= stream.times[-1] - stream.times[0] > 0
