"""``guesswork analyze``: the table, --json, --plot, share texts, and one-line errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from guesswork.__main__ import run
from guesswork.client.catalog import open_catalog
from guesswork.client.games import code_to_colours
from guesswork.client.replies import format_share

SALET = "wordle-2315-g12972-normal-optimal-first-salet"
JOTTO = "jotto-2309-hard-max"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def history(policy: str, answer: str, guesses: list[str]) -> str:
    """Return ``guesses`` played against ``answer`` as a --history text."""
    game = open_catalog().policy(policy).game
    return ",".join(f"{w}:{game.format_reply(game.reply(w, answer))}" for w in guesses)


def test_the_table_has_a_row_per_move_and_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    turns = history(SALET, "FOUND", ["SALET", "COURD", "BUMPH", "FOUND"])
    status, out, err = cli(capsys, "analyze", "--policy", SALET, "--history", turns)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{SALET} (normal): 4 moves, solved, answer FOUND"
    assert lines[1].split() == [
        "#",
        "guess",
        "reply",
        "left",
        "best",
        "E(best)",
        "E(guess)",
        "skill",
        "luck",
    ]
    assert lines[2].split()[:5] == ["1", "SALET", ".....", "2315>221", "SALET"]
    assert lines[2].split()[5] == "3.421t" and lines[2].split()[7] == "100"
    assert lines[5].split()[1:4] == ["FOUND", "GGGGG", "2>0"]
    assert lines[-1].startswith("expected with best play 3.42; played 4: 0.00 lost to choices")


def test_json_has_every_move_and_total(capsys: pytest.CaptureFixture[str]) -> None:
    turns = history(JOTTO, "MOUNT", ["SOUTH", "DRAPE"])
    status, out, _ = cli(
        capsys, "analyze", "--policy", JOTTO, "--history", turns, "--json", "--answer", "mount"
    )
    assert status == 0
    analysis = json.loads(out)
    # The AnalyzeGame response's JSON as HTTP answers it (a field at its default,
    # here ``solved`` and ``offListPolicy``, left out), with ``policy`` as --policy
    # takes it and ``weights`` even when empty.
    assert {
        "policy",
        "mode",
        "answer",
        "moves",
        "expectedStart",
        "expectedLeft",
        "lostToChoices",
        "gainedByLuck",
        "skill",
        "luck",
        "weights",
    } == set(analysis)
    assert (analysis["policy"], analysis["weights"]) == (JOTTO, "")
    assert (analysis["answer"], len(analysis["moves"])) == ("MOUNT", 2)
    move = analysis["moves"][0]
    assert move["guess"] == "SOUTH" and move["reply"] == "3" and move["legal"] is True
    assert "bestRemaining" in move and move["remainingBefore"] == 1391
    assert move["source"] in (
        "VALUE_SOURCE_EXACT",
        "VALUE_SOURCE_TREE",
        "VALUE_SOURCE_GREEDY_ESTIMATE",
    )


def test_a_share_text_with_its_guesses_is_a_history(capsys: pytest.CaptureFixture[str]) -> None:
    game = open_catalog().policy(SALET).game
    rows = [game.reply(w, "FOUND") for w in ("SALET", "COURD", "BUMPH", "FOUND")]
    share = format_share("Wordle 1,234", [code_to_colours(code, 5) for code in rows])
    text = "salet courd bumph found\n" + share
    status, out, _ = cli(capsys, "analyze", "--policy", SALET, "--history", text, "--json")
    assert status == 0
    plain = history(SALET, "FOUND", ["SALET", "COURD", "BUMPH", "FOUND"])
    _, again, _ = cli(capsys, "analyze", "--policy", SALET, "--history", plain, "--json")
    assert json.loads(out) == json.loads(again)


@pytest.mark.parametrize(
    ("args", "status", "reason", "words"),
    [
        (["--policy", "chess", "--history", "raise:....."], 1, "POLICY_NOT_FOUND", "no policy"),
        (["--policy", SALET, "--history", "raise"], 2, "USAGE", "not GUESS:REPLY"),
        (["--policy", SALET, "--history", ""], 2, "USAGE", "empty"),
        (["--history", "raise:....."], 2, "USAGE", "--policy"),
        (["--policy", SALET, "--history", "raise:GGGGY"], 1, "IMPOSSIBLE_REPLY", "impossible"),
        (
            ["--policy", SALET, "--history", "raise:.....,arise:GG..."],
            1,
            "CONTRADICTORY_HISTORY",
            "turn 2",
        ),
        (
            ["--policy", SALET, "--history", "crane:.....", "--answer", "tacit"],
            1,
            "CONTRADICTORY_HISTORY",
            "the answer TACIT would have got",
        ),
        (
            ["--policy", SALET, "--history", "crane:.....", "--answer", "zzzzz"],
            1,
            "UNKNOWN_WORD",
            "targets",
        ),
        (
            ["--policy", "antiwordle-2309-hard-entropy", "--history", "raise:....."],
            1,
            "BAD_REQUEST",
            "analysed for Wordle",
        ),
        (["--policy", SALET, "--history", "crane:.....", "--plot", "x.gif"], 1, "PLOT", ".png"),
    ],
)
def test_errors_are_one_line_and_json_under_json(
    capsys: pytest.CaptureFixture[str], args: list[str], status: int, reason: str, words: str
) -> None:
    code, out, err = cli(capsys, "analyze", *args)
    assert (code, out) == (status, "")
    assert err.count("\n") == 1 and err.startswith("guesswork: error: ") and words in err
    code, out, err = cli(capsys, "analyze", *args, "--json")
    assert (code, out) == (status, "")
    report = json.loads(err)
    assert report["reason"] == reason and words in report["error"]


def test_plot_draws_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    image = pytest.importorskip("matplotlib.image")
    turns = history(SALET, "FOUND", ["CRANE", "PILOT", "FOUND"])
    path = tmp_path / "game.png"
    status, out, err = cli(
        capsys, "analyze", "--policy", SALET, "--history", turns, "--plot", str(path)
    )
    assert (status, err) == (0, "") and "CRANE" in out
    assert out.splitlines()[-1] == f"wrote {path}: the targets left per move"
    # Under --json stdout is the one JSON object; the file written is told on stderr.
    status, out, err = cli(
        capsys, "analyze", "--policy", SALET, "--history", turns, "--plot", str(path), "--json"
    )
    assert json.loads(out)["moves"] and err == f"wrote {path}: the targets left per move\n"
    pixels = image.imread(path)
    assert pixels.shape[:2] == (700, 1000)
    colours = {tuple(p) for p in pixels[::7, ::7, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colours) > 10  # lines, bars and text, not a blank page


def test_plot_without_matplotlib_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    status, out, err = cli(
        capsys,
        "analyze",
        "--policy",
        SALET,
        "--history",
        "crane:.....",
        "--plot",
        str(tmp_path / "game.png"),
    )
    assert (status, out) == (1, "")
    assert err.count("\n") == 1 and "pip install 'guesswork-solver[plots]'" in err
    assert not (tmp_path / "game.png").exists()
