"""guesswork's messages that misled (issue #23's list), each pinned: an option named in
its error, no accepted invalid value, and hints that work when followed."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from guesswork.__main__ import run
from guesswork.builder.cli import run as build

from .test_play import play

DEFAULT = "wordle-2309-normal-neg-entropy"


def error_line(capsys: pytest.CaptureFixture[str], *args: str, status: int = 2) -> str:
    """Run guesswork with ``args``; return its one error line (the exit status asserted)."""
    assert run(list(args)) == status
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    return captured.err.removeprefix("guesswork: error: ").rstrip("\n")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["suggest", "--server", "127.0.0.1:99999"],
            "argument --server: '127.0.0.1:99999': the port must be a number from 1 to 65535",
        ),
        (
            ["suggest", "--server", "localhost"],
            "argument --server: 'localhost' is not HOST:PORT (e.g. 127.0.0.1:50051)",
        ),
        (
            ["suggest", "--timeout", "0"],
            "argument --timeout: must be a number of seconds, more than 0, not '0'",
        ),
        (
            ["analyze", "--policy", DEFAULT, "--history", "raise:.....", "--timeout", "nan"],
            "argument --timeout: must be a number of seconds, more than 0, not 'nan'",
        ),
        (
            ["suggest", "--length", "99"],
            "argument --length: Wordle words have 2 to 12 letters, not '99'",
        ),
        (
            ["play", "--length", "five"],
            "argument --length: Wordle words have 2 to 12 letters, not 'five'",
        ),
        (
            ["suggest", "--alternatives", "-1"],
            "argument --alternatives: must be a whole number from 0 to 50, not '-1'",
        ),
        (
            ["suggest", "--alternatives", "999"],
            "argument --alternatives: must be a whole number from 0 to 50, not '999'",
        ),
        (["bee", "top", "-n", "0"], "argument -n: must be a whole number of at least 1, not '0'"),
    ],
)
def test_a_bad_option_is_named_and_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    assert error_line(capsys, *args) == expected


def test_an_unknown_policy_points_at_the_command_that_lists_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = error_line(capsys, "suggest", "--policy", "nope", status=1)
    assert re.fullmatch(
        r"no policy 'nope' among the \d+ in the catalog; `guesswork policies` "
        r"\(ListPolicies\) lists them",
        line,
    ), line


def test_a_suggestions_only_policy_takes_its_article(capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(
        capsys,
        "analyze",
        "--policy",
        "antiwordle-2309-hard-entropy",
        "--history",
        "raise:.....",
        status=1,
    )
    assert line.startswith("antiwordle-2309-hard-entropy is an antiwordle policy: ")


def test_play_with_an_unknown_policy_prints_only_the_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: "q")
    line = error_line(capsys, "play", "--policy", "nope", status=1)  # no banner before it
    assert line.startswith("no policy 'nope'")


def test_a_word_typed_alone_in_play_is_told_how_to_enter_a_word_played() -> None:
    out = play(["crane", "q"])
    assert (
        "Not accepted: 'crane' is not a reply to RAISE. If you played CRANE instead, type it "
        "with the reply your game gave, e.g. 'CRANE ....G'; else type the reply to RAISE"
    ) in out
    # A reply written in letters is still a reply; text of another length gets the usual error.
    assert "Guess 2:" in play(["gybbb", "q"])
    assert "Not accepted: 'c' at position 1 is not a reply colour" in play(["cranes", "q"])


def _hinted_commands(message: str) -> list[list[str]]:
    """Return the guesswork-build commands quoted in ``message``, as argument lists."""
    return [
        shlex.split(command)[1:] for command in re.findall(r"`(guesswork-build [^`]+)`", message)
    ]


@pytest.mark.parametrize(
    ("args", "then"),
    [
        (["suggest", "--length", "3"], "TAE"),
        (["suggest", "--length", "3", "--hard"], None),
        (["suggest", "--language", "it"], None),
    ],
)
def test_a_missing_policy_hint_works_when_followed(
    args: list[str],
    then: str | None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The user's catalog, where the hinted build writes, starts empty in a folder of its own.
    monkeypatch.setenv("GUESSWORK_CATALOG", str(tmp_path / "user.sqlite"))
    monkeypatch.chdir(tmp_path)
    message = error_line(capsys, *args, status=1)
    commands = _hinted_commands(message)
    assert commands, message
    for command in commands:
        assert build(command) == 0, command
    capsys.readouterr()
    assert run(args) == 0
    out = capsys.readouterr().out
    assert "(stored)" in out or "stored" in out
    if then is not None:
        assert out.startswith(then)
