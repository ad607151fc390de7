"""The guesswork-build command line: output streams, errors and exit codes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from guesswork.builder.cli import run
from guesswork.client.games import mastermind_reply
from guesswork.client.progress import Progress

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_evaluate_prints_the_seed_style_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "evaluate", "--game", "wordle", "--mode", "hard", "--metric", "max", "--quiet"
    )
    assert status == 0
    assert 'first guess: "ARISE"' in out
    assert "median: 4 guesses, mean: 3.68 ± 0.86, worst: 8, best: 1" in out
    assert "cumulative: ≤2:5%, ≤3:43%, ≤4:87%, ≤5:97%, ≤6:99.4%, ≤7:99.9%, ≤8:100%" in out
    assert err == ""


def test_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "evaluate", "--game", "jotto", "--mode", "hard", "--json")
    report = json.loads(out)
    for key in (
        "game",
        "targets",
        "guesses",
        "mode",
        "metric",
        "first_guess",
        "mean",
        "stdev",
        "worst",
        "histogram",
        "seconds",
    ):
        assert key in report
    assert status == 0
    assert report["arithmetic"] == "2022"
    assert all(isinstance(int(score), int) for score in report["histogram"])


def test_arithmetic_follows_the_notebook_whose_options_are_used(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run_cli(
        capsys,
        "evaluate",
        "--game",
        "jotto",
        "--mode",
        "hard",
        "--jotto-order",
        "first-seen",
        "--json",
    )
    assert json.loads(out)["arithmetic"] == "2020"
    _, out, _ = run_cli(
        capsys,
        "evaluate",
        "--game",
        "jotto",
        "--mode",
        "hard",
        "--jotto-order",
        "first-seen",
        "--arithmetic",
        "2022",
        "--json",
    )
    assert json.loads(out)["arithmetic"] == "2022"


def test_users_list_from_a_file_and_stdin(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("bails fails hails nails pails rails sails tails wails\n")
    status, out, _ = run_cli(
        capsys, "evaluate", "--targets", str(words), "--mode", "hard", "--metric", "max", "--json"
    )
    assert status == 0
    assert (json.loads(out)["first_guess"], json.loads(out)["mean"]) == ("BAILS", 5.0)
    monkeypatch.setattr("sys.stdin", io.StringIO(words.read_text()))
    status, out, _ = run_cli(
        capsys,
        "evaluate",
        "--targets",
        "-",
        "--guesses",
        "wordle-answers-2309",
        "--metric",
        "max",
        "--json",
    )
    assert (status, json.loads(out)["first_guess"]) == (0, "BERTH")


def test_first_guesses_and_lists(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "first-guesses", "--top", "2", "--metric", "max")
    assert status == 0
    assert out.strip() == "max: ARISE:167 RAISE:167 | VIVID:1324 FUZZY:1349"
    status, out, _ = run_cli(capsys, "lists", "--json")
    names = [row["name"] for row in json.loads(out)]
    assert status == 0
    assert names == [
        "wordle-answers-2309",
        "wordle-answers-2315",
        "wordle-guesses-12972",
        "wordle-answers-3158",
        "wordle-guesses-14855",
        "sgb-words",
        "enable1",
        "es-5-top2000",
        "de-5-top2000",
        "fr-5-top2000",
        "el-5-top2000",
        "ru-5-top2000",
    ]


def _bad_list(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["evaluate", "--game", "chess"], 2, "argument --game: invalid choice: 'chess'"),
        (["evaluate", "--metric", "median"], 2, "argument --metric: invalid choice: 'median'"),
        (["evaluate", "--mode", "easy"], 2, "argument --mode: invalid choice: 'easy'"),
        (["evaluate", "--targets", "no-such-list"], 1, "'no-such-list' is neither a shipped list"),
        (["evaluate", "--window", "125"], 2, "--window '125' is not MIN:MAX"),
        (["evaluate", "--window", "9:4"], 2, "must satisfy 1 <= MIN <= MAX"),
        (
            ["evaluate", "--length", "x"],
            2,
            "argument --length: must be a whole number of at least 1, not 'x'",
        ),
        (["evaluate", "--length", "40"], 1, "word length must be between 2 and 12, not 40"),
        (["evaluate", "--mode", "normal", "--metric", "random"], 2, "use --mode hard"),
        (
            ["evaluate", "--game", "antiwordle", "--mode", "normal"],
            2,
            "antiwordle allows only consistent guesses",
        ),
        (
            ["first-guesses", "--top", "0"],
            2,
            "argument --top: must be a whole number of at least 1, not '0'",
        ),
        (
            ["optimize", "--memo-limit", "0"],
            2,
            "argument --memo-limit: '0' must be at least 1 byte",
        ),
        (["evaluate", "--targets", "-", "--guesses", "-"], 2, "only one of --targets and"),
        (["evaluate", "--colours", "8"], 1, "wordle: only mastermind has a number of colours"),
        (["evaluate", "--pegs", "4"], 2, "--pegs applies to --game mastermind only"),
        (
            ["evaluate", "--game", "mastermind", "--pegs", "4", "--length", "5"],
            2,
            "--pegs and --length are the same thing for mastermind",
        ),
        ([], 2, "the following arguments are required: command"),
        # 1,679,616 codes: a 2.6 TiB reply matrix, refused before allocating (a traceback
        # from numpy before; 7 pegs, 73 GiB, the same).
        (
            ["evaluate", "--game", "mastermind", "--length", "8"],
            1,
            "1,679,616 guesses x 1,679,616 targets is too large: its reply matrix would take",
        ),
    ],
)
def test_bad_options_get_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], status: int, message: str
) -> None:
    got, out, err = run_cli(capsys, *args)
    assert got == status
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("guesswork-build: error: ")
    assert message in err


def test_bad_lists_get_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cases = [
        (_bad_list(tmp_path, "empty.txt", "\n\n"), "has no wordle words"),
        (_bad_list(tmp_path, "long.txt", "crane\nslates\n"), "line 2: 'slates' has 6 letters"),
        (_bad_list(tmp_path, "junk.txt", "cr4ne\n"), "not made only of letters"),
        (str(tmp_path / "missing.txt"), "nor an existing file"),
        (str(tmp_path), "cannot read word list"),
    ]
    for path, message in cases:
        got, out, err = run_cli(capsys, "evaluate", "--targets", path)
        assert (got, out) == (1, "")
        assert err.count("\n") == 1 and message in err, err


def test_the_installed_command_fails_without_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bad = tmp_path / "bad.txt"
    bad.write_text("toolong\n")
    for args in (["--game", "nope"], ["--targets", str(bad)], ["--targets", "missing"]):
        result = subprocess.run(
            [sys.executable, "-m", "guesswork.builder", "evaluate", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert result.returncode != 0
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.progress
def test_progress_goes_to_stderr_only_for_long_builds(capsys: pytest.CaptureFixture[str]) -> None:
    quick = Progress("quick", delay=2.0)
    quick.update(10, 10, 0.5)
    assert capsys.readouterr().err == ""
    slow = Progress("slow", delay=2.0)
    slow.update(5, 10, 2.5)
    slow.update(10, 10, 3.0)
    captured = capsys.readouterr()
    # Captured stderr is no terminal: plain lines, the last with the final count.
    assert captured.err.splitlines()[-1].startswith("slow: 10 of 10 targets")
    assert "\r" not in captured.err and captured.out == ""
    silent = Progress("off", enabled=False, delay=0.0)
    silent.update(1, 10, 100.0)
    assert capsys.readouterr().err == ""


def test_guess_my_word_evaluate_on_the_shipped_list(capsys: pytest.CaptureFixture[str]) -> None:
    means = {}
    for strategy in ("binary", "adjacent-merge", "optimal"):
        status, out, _ = run_cli(
            capsys,
            "evaluate",
            "--game",
            "guess-my-word",
            "--strategy",
            strategy,
            "--variant",
            "deduce",
            "--samples",
            "2000",
            "--json",
        )
        report = json.loads(out)
        assert status == 0 and report["targets"] == 4788 and report["variant"] == "deduce"
        means[strategy] = report["mean"]
    assert report["entropy"] <= means["optimal"] <= means["adjacent-merge"] <= means["binary"]
    status, out, _ = run_cli(
        capsys,
        "evaluate",
        "--game",
        "guess-my-word",
        "--variant",
        "live",
        "--samples",
        "2000",
        "--json",
    )
    assert json.loads(out)["mean"] < means["binary"]


def test_guess_my_word_options_are_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_cli(capsys, "evaluate", "--strategy", "binary")[0] == 2
    bad = tmp_path / "weights.txt"
    bad.write_text("apple 3\napple 4\n")
    status, out, err = run_cli(capsys, "evaluate", "--game", "guess-my-word", "--targets", str(bad))
    assert (status, out) == (1, "") and "apple" in err and err.count("\n") == 1


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from guesswork import __version__

    with pytest.raises(SystemExit) as exited:
        run(["--version"])
    assert (exited.value.code, capsys.readouterr().out) == (0, f"guesswork-build {__version__}\n")


JSON_ERRORS = [
    (["evaluate", "--targets", "/nonexistent/list.txt", "--json"], 1, "WORD_LIST"),
    (["evaluate", "--metric", "nonsense", "--json"], 2, "USAGE"),
    (["export", "chess", "--json"], 1, "POLICY_NOT_FOUND"),
]


@pytest.mark.parametrize(("args", "status", "reason"), JSON_ERRORS)
def test_json_errors_are_one_json_object_with_the_same_status(
    capsys: pytest.CaptureFixture[str], args: list[str], status: int, reason: str
) -> None:
    plain = run_cli(capsys, *[a for a in args if a != "--json"])
    got, out, err = run_cli(capsys, *args)
    assert (got, out, plain[0]) == (status, "", status)
    assert err.count("\n") == 1
    message = plain[2].removeprefix("guesswork-build: error: ").rstrip("\n")
    assert json.loads(err) == {"error": message, "reason": reason}


def test_one_invalid_entry_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "list.txt").write_text("crane\nslates\n")
    status, _, err = run_cli(capsys, "evaluate", "--targets", str(tmp_path / "list.txt"))
    assert status == 1 and "1 invalid entry in" in err


def test_mastermind_is_the_classic_game_unless_colours_and_pegs_are_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--game mastermind`` alone was 6 colours and 5 pegs in evaluate and build (the
    word length's default), where optimize and the game itself default to 4 pegs; and
    neither took ``--colours``. first-guesses read the Wordle answers as codes."""
    status, out, _ = run_cli(capsys, "evaluate", "--game", "mastermind", "--json", "--quiet")
    report = json.loads(out)
    assert status == 0
    assert (report["length"], report["targets"], report["policy"]) == (
        4,
        6**4,
        "mastermind-neg-entropy",
    )
    argv = ["evaluate", "--game", "mastermind", "--colours", "8", "--pegs", "3", "--json"]
    status, out, _ = run_cli(capsys, *argv, "--quiet")
    report = json.loads(out)
    assert status == 0
    assert (report["length"], report["targets"], report["policy"]) == (
        3,
        8**3,
        "mastermind-8x3-neg-entropy",
    )
    # Knuth's first guess: AABB's largest reply class, computed here from the reply rule.
    codes = [a + b + c + d for a in "ABCDEF" for b in "ABCDEF" for c in "ABCDEF" for d in "ABCDEF"]
    largest = max(Counter(mastermind_reply("AABB", code) for code in codes).values())
    status, out, _ = run_cli(capsys, "first-guesses", "--game", "mastermind", "--top", "1")
    assert status == 0
    assert f"max: AABB:{largest} " in out
