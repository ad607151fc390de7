"""The guesswork command line: same answers from a server and a store; play; errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from guesswork.__main__ import run
from guesswork.client.catalog import open_catalog
from guesswork.client.cli import parse_history
from guesswork.service.server import ServerOptions, start_server

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server, port = start_server(ServerOptions(address="127.0.0.1:0"), open_catalog())
    yield f"127.0.0.1:{port}"
    server.stop(0, drain=0)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("policy", "history", "source"),
    [
        ("wordle-2309-normal-neg-entropy", "", "SOURCE_STORED"),
        ("wordle-2309-normal-neg-entropy", "raise:.Y...,clout:G....", "SOURCE_STORED"),
        ("wordle-2309-normal-neg-entropy", "crane:⬛🟨⬛⬛⬛", "SOURCE_LIVE"),
        ("wordle-2309-hard-max", "arise:GGGGG", "SOURCE_STORED"),
        ("jotto-2309-hard-max", "drape:2", "SOURCE_STORED"),
        ("jotto-2309-hard-max", "south:1,drape:2", "SOURCE_LIVE"),
    ],
)
def test_suggest_is_the_same_from_server_and_store(
    capsys: pytest.CaptureFixture[str], address: str, policy: str, history: str, source: str
) -> None:
    answers = []
    for where in (["--server", address], ["--store", str(ROOT / "policies/catalog.sqlite")], []):
        status, out, err = cli(
            capsys, "suggest", *where, "--policy", policy, "--history", history, "--json"
        )
        assert (status, err) == (0, "")
        answers.append(json.loads(out))
    assert answers[0] == answers[1] == answers[2]
    # The keys scripts rely on are there whatever the answer (the JSON mapping leaves
    # out a false ``solved`` and empty ``alternatives``).
    for key in ("guess", "remaining", "source", "policy"):
        assert key in answers[0]
    assert answers[0].get("solved", False) == (history == "arise:GGGGG")
    assert answers[0]["source"] == source


def test_suggest_from_a_policy_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from guesswork.builder.publish import export_bytes

    with open_catalog() as catalog:
        (tmp_path / "p.gwp").write_bytes(export_bytes(catalog.policy("wordle-2309-hard-max")))
    status, out, _ = cli(
        capsys,
        "suggest",
        "--store",
        str(tmp_path / "p.gwp"),
        "--policy",
        "wordle-2309-hard-max",
        "--json",
    )
    assert (status, json.loads(out)["guess"]) == (0, "ARISE")


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["suggest", "--policy", "chess"], 1, "no policy 'chess'"),
        (
            ["suggest", "--policy", "wordle-2309-hard-max", "--history", "arise"],
            2,
            "is not GUESS:REPLY",
        ),
        (
            ["suggest", "--policy", "wordle-2309-hard-max", "--history", "arise:GGGGY"],
            1,
            "impossible reply",
        ),
        (
            ["suggest", "--policy", "wordle-2309-hard-max", "--history", "arise:.....,arise:GGGGG"],
            1,
            "contradicts",
        ),
        (
            ["suggest", "--policy", "x", "--store", "/nonexistent/catalog.sqlite"],
            1,
            "no such catalog file",
        ),
        (
            ["suggest", "--policy", "x", "--server", "127.0.0.1:9", "--timeout", "1"],
            1,
            "unavailable",
        ),
        (["suggest", "--policy", "wordle-2309-hard-max", "--hard"], 2, "--hard picks a policy"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], status: int, message: str
) -> None:
    got, out, err = cli(capsys, *args)
    assert (got, out) == (status, "")
    assert err.startswith("guesswork: error:") and err.count("\n") == 1
    assert message in err


def test_parse_history() -> None:
    assert parse_history("") == []
    assert parse_history(" raise : .Y... , clout:G....") == [("raise", ".Y..."), ("clout", "G....")]


def test_play_through_stdin(address: str) -> None:
    """The evil game, with a refused guess (blank line), a bad reply, and another word."""
    lines = [
        ".....",  # ARISE
        "",  # the game refuses BLOND: take the next alternative
        "bogus",  # not a reply: asked again
        "blond .....",  # the player typed BLOND after all
        ".YYY.",  # DUMPY
        ".GGGG",  # CHUMP
        "GGGGG",  # THUMP
    ]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "guesswork",
            "play",
            "--server",
            address,
            "--policy",
            "wordle-2309-normal-max",
        ],
        input="\n".join(lines) + "\n",
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Guess 1: ARISE  (2309 possible)" in out
    assert "Guess 2: BLOND  (167 possible)" in out
    assert "Guess 2: BLUNT  (166 possible; alternative 1)" in out  # BLOND refused: one fewer
    assert "Not accepted:" in out
    assert "Guess 3: DUMPY" in out and "Guess 5: THUMP" in out
    assert "Solved in 5 guesses." in out


def test_play_ends_quietly_at_end_of_input() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "guesswork", "play", "--policy", "jotto-2309-hard-max"],
        input="2\n",
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0
    assert "Guess 1: DRAPE" in result.stdout and "Guess 2:" in result.stdout
    assert result.stderr == ""


def test_a_closed_pipe_is_not_a_traceback() -> None:
    """`guesswork policies | head -1` and the like: the reader is gone before the output."""
    for command in (["-m", "guesswork", "policies"], ["-m", "guesswork.builder", "list"]):
        read_end, write_end = os.pipe()
        os.close(read_end)  # nobody will ever read: every write fails with EPIPE
        try:
            writer = subprocess.run(
                [sys.executable, *command],
                env=ENV,
                stdout=write_end,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
        finally:
            os.close(write_end)
        assert "Traceback" not in writer.stderr
        assert writer.returncode == 141


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from guesswork import __version__

    with pytest.raises(SystemExit) as exited:
        run(["--version"])
    assert (exited.value.code, capsys.readouterr().out) == (0, f"guesswork {__version__}\n")


JSON_ERRORS = [
    (["suggest", "--policy", "chess", "--json"], 1, "POLICY_NOT_FOUND", {"policy": "chess"}),
    (
        ["suggest", "--policy", "wordle-2309-hard-max", "--history", "arise:GGGGY", "--json"],
        1,
        "IMPOSSIBLE_REPLY",
        {"turn": "1", "field": "history[0].reply"},
    ),
    (
        [
            "suggest",
            "--policy",
            "wordle-2309-hard-max",
            "--history",
            "arise:.....,arise:GGGGG",
            "--json",
        ],
        1,
        "CONTRADICTORY_HISTORY",
        {"turn": "2", "policy": "wordle-2309-hard-max"},
    ),
    (
        ["suggest", "--policy", "wordle-2309-hard-max", "--history", "arise", "--json"],
        2,
        "USAGE",
        None,
    ),
    (["suggest", "--length", "5", "--policy", "wordle-2309-hard-max", "--json"], 2, "USAGE", None),
    (["policies", "--json", "--store", "/nonexistent/catalog.sqlite"], 1, "BAD_POLICY_DATA", None),
]


@pytest.mark.parametrize(("args", "status", "reason", "metadata"), JSON_ERRORS)
def test_json_errors_are_one_json_object_with_the_same_status(
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    status: int,
    reason: str,
    metadata: dict[str, str] | None,
) -> None:
    """One JSON line: the message, the reason, and the error's metadata where it has any."""
    plain_status, _, plain = cli(capsys, *[a for a in args if a != "--json"])
    got, out, err = cli(capsys, *args)
    assert (got, out, plain_status) == (status, "", status)
    assert err.count("\n") == 1
    error = json.loads(err)
    message = plain.removeprefix("guesswork: error: ").rstrip("\n")
    expected = {"error": message, "reason": reason}
    assert error == (expected if metadata is None else {**expected, "metadata": metadata})


def test_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(
        capsys, "suggest", "--policy", "wordle-2309-hard-max", "--history", "arise:GGGGG"
    )
    assert (status, out) == (0, "solved: ARISE in 1 guess\n")
