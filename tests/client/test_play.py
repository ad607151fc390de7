"""`guesswork play` through stdin (the real command line), and pasted share texts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.__main__ import run
from guesswork.client.errors import GuessworkError, InvalidReplyError, UsageError
from guesswork.client.games import Wordle
from guesswork.client.play import PLAY_COMMANDS, histogram_line
from guesswork.client.policy_info import PolicyInfo
from guesswork.client.replies import share_history
from guesswork.client.suggestion import LIVE, LIVE_GUESS_LIST
from guesswork.service.local import LocalGuesswork

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
DEFAULT = "wordle-2309-normal-neg-entropy"
WORDLE = Wordle()


@pytest.fixture(scope="module")
def backend() -> LocalGuesswork:
    return LocalGuesswork.open(None)


def reply(guess: str, secret: str, style: str = "letters") -> str:
    return WORDLE.format_reply(WORDLE.reply(guess.upper(), secret), style)


def mistyped(backend: LocalGuesswork, first: tuple[str, str], guess: str, right: str) -> str:
    """Return ``right`` with one colour changed such that some word still fits."""
    for position in range(len(right)):
        for colour in ".YG":
            wrong = right[:position] + colour + right[position + 1 :]
            try:
                backend.suggest(DEFAULT, [first, (guess, wrong)], 0)
            except GuessworkError:
                continue
            if wrong != right:
                return wrong
    raise AssertionError("every mistyped reply contradicts the first turn")


def play(lines: list[str], *options: str) -> str:
    """Return what `python -m guesswork play` prints for ``lines`` typed (exit status 0);
    with no ``options``, playing the 2022 game's ``DEFAULT`` policy."""
    options = options or ("--policy", DEFAULT)
    result = subprocess.run(
        [sys.executable, "-m", "guesswork", "play", *options],
        input="\n".join(lines) + "\n",
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return result.stdout


def test_a_secret_outside_the_answer_list_is_played_to_the_win_with_an_undo(
    backend: LocalGuesswork,
) -> None:
    """TACOS is allowed by the NYT but is none of the 2,309 answers: the helper says
    so once, goes on over the guess list, and wins; a mistyped reply is undone."""
    assert "TACOS" not in backend.lookups.policy(DEFAULT).policy.targets
    history: list[tuple[str, str]] = []
    guesses, sources = [], []
    while not (answer := backend.suggest(DEFAULT, history, 5)).solved:
        guesses.append(answer.guess)
        sources.append(answer.source)
        history.append((answer.guess, reply(answer.guess, "TACOS")))
    assert guesses[-1] == "TACOS" and sources[-1] == LIVE_GUESS_LIST and len(guesses) >= 3
    wrong = mistyped(backend, history[0], guesses[1], history[1][1])
    lines = [history[0][1], wrong, "undo", *(text for _, text in history[1:])]
    out = play(lines)
    assert f"Took back turn 2: {guesses[1]} {wrong}" in out
    for number, guess in enumerate(guesses, start=1):
        assert f"Guess {number}: {guess}  (" in out
    assert out.count("the secret is outside its answer list") == 1
    assert f"Solved in {len(guesses)} guesses." in out
    rows = "\n".join(reply(guess, "TACOS", "emoji") for guess in guesses)
    assert f"Wordle {len(guesses)}/6\n\n{rows}\n" in out
    assert f"[{len(guesses)}:" in out.splitlines()[-1]
    assert out.splitlines()[-1].startswith(f"Guesses over the 2309 targets of {DEFAULT}: 1:")


def test_a_word_outside_the_policys_guess_list_is_answered_live(backend: LocalGuesswork) -> None:
    """SALET is not in this policy's guess list (the 2,309 answers) but the game allows it."""
    salet = ("salet", reply("SALET", "TIGER"))
    answer = backend.suggest(DEFAULT, [salet], 3)
    assert answer.source == LIVE and not answer.solved
    out = play([" ".join(salet), "q"])
    assert "Not accepted" not in out
    assert f"Guess 2: {answer.guess}  ({answer.remaining} possible)" in out


def test_help_and_question_mark_list_the_commands_and_are_never_replies() -> None:
    out = play(["help", "?", ".....", "q"], "--policy", "wordle-2309-normal-max")
    assert out.count(PLAY_COMMANDS[0]) == 2
    assert "undo" in out and "Not accepted" not in out
    assert "Guess 2: BLOND  (167 possible)" in out


def test_undo_with_nothing_played_says_so() -> None:
    out = play(["undo", "q"], "--policy", "wordle-2309-normal-max")
    assert "Nothing to undo." in out and "Guess 1: ARISE" in out


def test_solved_in_one_guess_is_singular_and_a_hard_game_is_starred() -> None:
    out = play(["GGGGG"], "--policy", "wordle-2309-hard-max")
    assert "Solved in 1 guess.\n" in out
    assert "Wordle 1/6*\n\n🟩🟩🟩🟩🟩\n" in out
    assert "[1:1]" in out.splitlines()[-1]


def test_a_pasted_share_text_with_its_guesses_is_the_game_so_far(backend: LocalGuesswork) -> None:
    """Header, blank line and rows, as pasted; then the words played. The blank line
    is no refusal (no alternative is shown) and the game is the share text's."""
    played = ["CRANE", "MOIST", "TIGER"]  # not the policy's guesses
    rows = [reply(word, "TIGER", "emoji") for word in played]
    out = play(["Wordle 1,234 3/6*", "", *rows, "crane, moist tiger"])
    assert "(alternative" not in out and "Not accepted" not in out
    assert "Share text read: type the 3 words you played, in order." in out
    assert "Solved in 3 guesses." in out
    assert "Wordle 3/6\n\n" + "\n".join(rows) in out  # this game's rows, not the policy's
    # The share text of an unfinished game, then the helper goes on from it.
    answer = backend.suggest(DEFAULT, [(w, reply(w, "TIGER")) for w in played[:2]], 0)
    out = play(["Wordle 1,234 2/6", "", *rows[:2], "crane moist", "q"])
    assert f"Guess 3: {answer.guess}  ({answer.remaining} possible)" in out


def test_a_lone_header_is_dropped_and_never_a_refusal() -> None:
    out = play(["Wordle 1,234 4/6", "", ".....", "q"], "--policy", "wordle-2309-normal-max")
    assert "Share text dropped: '.....' is not a row of squares." in out
    assert "(alternative" not in out
    assert "Guess 2: BLOND  (167 possible)" in out


def test_wrong_words_for_a_pasted_share_text_are_asked_again() -> None:
    rows = [reply("CRANE", "TIGER", "emoji")]
    out = play(["Wordle 1,234 1/6", "", *rows, "crane moist", "crane", "q"])
    assert "Not accepted: the share text has 1 row of squares but 2 guesses were given" in out
    assert "Guess 2:" in out


def test_history_takes_a_share_text_with_its_guesses(capsys: pytest.CaptureFixture[str]) -> None:
    played = ["CRANE", "MOIST"]
    pairs = ",".join(f"{w}:{reply(w, 'TIGER')}" for w in played)
    share = "Wordle 1,234 2/6\n\n" + "\n".join(reply(w, "TIGER", "emoji") for w in played)
    answers = []
    for history in (pairs, "crane moist\n" + share, share + "\ncrane,moist"):
        status = run(["suggest", "--policy", DEFAULT, "--history", history, "--json"])
        captured = capsys.readouterr()
        assert (status, captured.err) == (0, "")
        answers.append(json.loads(captured.out))
    assert answers[0] == answers[1] == answers[2]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            "crane\nWordle 2/6\n\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛",
            UsageError,
            "2 rows of squares but 1 guess was given",
        ),
        (
            "crane moist\nWordle 3/6\n\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛",
            InvalidReplyError,
            "share header says 3/6",
        ),
        ("crane m0ist\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛", UsageError, "'m0ist' is neither a guess"),
    ],
)
def test_share_history_errors(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        share_history(text)


def test_histogram_line_marks_this_game_even_past_the_policys_worst() -> None:
    summary = PolicyInfo(
        "p", "wordle", 5, "normal", "max", "t", "g", 3, 2.67, 3, "", histogram=((2, 1), (3, 2))
    )
    assert histogram_line(summary, 3) == (
        "Guesses over the 3 targets of p: 2:1 [3:2] (this game: 3, marked)"
    )
    assert histogram_line(summary, 5).split(": ", 1)[1].startswith("2:1 3:2 4:0 [5:0]")
