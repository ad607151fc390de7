"""Multi-board Wordle (client.multiboard): the rules, answers in process, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from guesswork.__main__ import run
from guesswork.client.errors import BadRequestError, ContradictoryHistoryError, InvalidReplyError
from guesswork.client.games import Wordle
from guesswork.client.multiboard import MAX_BOARDS, board_progress, guess_limit, multi_board
from guesswork.service.local import LocalGuesswork

from .test_play import ENV

WORDLE = Wordle()
WIN = WORDLE.win_reply
POLICY = "wordle-2309-normal-neg-entropy"


def reply(guess: str, secret: str) -> str:
    return WORDLE.format_reply(WORDLE.reply(guess, secret))


def turns(guesses: list[str], secret: str) -> list[tuple[str, str]]:
    """Return the board's history for ``guesses``, stopping at the one that solves it."""
    played = []
    for guess in guesses:
        played.append((guess, reply(guess, secret)))
        if guess == secret:
            break
    return played


@pytest.fixture(scope="module")
def backend() -> LocalGuesswork:
    return LocalGuesswork.open(None)


def test_guess_limits_are_the_games() -> None:
    assert [guess_limit(n) for n in (2, 4, 8, 16, 32)] == [7, 9, 13, 21, 37]


def test_board_progress_reads_one_game() -> None:
    """Hand-checked positions: a solved board stops at its win, the others go on."""
    assert board_progress([[], []], WIN).solved == (False, False)
    solved_second = [("RAISE", 0), ("CLOUT", WIN)]
    still_open = [("RAISE", 0), ("CLOUT", 3), ("PINKY", 0)]
    progress = board_progress([solved_second, still_open], WIN)
    assert progress.guesses == ("RAISE", "CLOUT", "PINKY")
    assert progress.solved == (True, False)
    both = board_progress([[("RAISE", WIN)], [("RAISE", 1), ("CLOUT", WIN)]], WIN)
    assert both.solved == (True, True) and both.guesses == ("RAISE", "CLOUT")


def test_the_rules_as_a_value() -> None:
    quordle = multi_board("Quordle")
    assert (quordle.id, quordle.boards, quordle.limit) == ("quordle", 4, 9)
    assert multi_board(3).id == "3-boards" and multi_board(2, limit=9).limit == 9
    # Hand-checked: CRANE against each secret, by Wordle's rule board by board.
    codes = multi_board("dordle").replies("CRANE", ["CRANK", "TACIT"])
    assert [WORDLE.format_reply(code) for code in codes] == ["GGGG.", "Y.Y.."]
    with pytest.raises(BadRequestError, match="2 different secrets"):
        multi_board(2).replies("CRANE", ["TACIT", "TACIT"])
    with pytest.raises(BadRequestError, match="unknown multi-board game 'sextordle'"):
        multi_board("sextordle")
    with pytest.raises(BadRequestError, match="limit of at least 8"):
        multi_board(8, limit=7)
    with pytest.raises(BadRequestError, match="has 2 boards, not 3"):
        multi_board(2).progress([[], [], []])


@pytest.mark.parametrize(
    ("boards", "field", "message"),
    [
        ([[("RAISE", 0), ("CLOUT", 0)], [("RAISE", 0), ("PINKY", 0)]], "boards[1]", "turn 2"),
        ([[("RAISE", 0), ("CLOUT", 0)], [("RAISE", 0)]], "boards[1]", "1 of the 2 guesses"),
        ([[("RAISE", 0)], []], "boards[1]", "0 of the 1 guesses"),
        # One guess cannot solve two boards: a game's secrets differ.
        ([[("RAISE", 1), ("CLOUT", WIN)], [("RAISE", 1), ("CLOUT", WIN)]], "boards[1]", "both"),
        ([], "boards", "1 to 32 boards"),
        ([[]] * (MAX_BOARDS + 1), "boards", "not 33"),
    ],
)
def test_board_progress_refuses_boards_that_disagree(
    boards: list[list[tuple[str, int]]], field: str, message: str
) -> None:
    with pytest.raises(BadRequestError, match=message) as caught:
        board_progress(boards, WIN)
    assert caught.value.metadata["field"] == field


def test_answer_counts_each_board(backend: LocalGuesswork) -> None:
    """Each board's count is its own targets left, computed here by brute force."""
    targets = backend.lookups.policy(POLICY).policy.targets
    secrets = ("CRANE", "MOUNT")
    guesses = ["RAISE", "CLOUT"]
    boards = [turns(guesses, secret) for secret in secrets]
    answer = backend.suggest_boards(POLICY, boards, 3)
    for board, secret in zip(answer.boards, secrets, strict=True):
        fits = [t for t in targets if all(reply(g, t) == reply(g, secret) for g in guesses)]
        assert (board.remaining, board.solved) == (len(fits), False)
    assert answer.turn == 2 and answer.guess_limit == 7 and len(answer.alternatives) == 3
    assert answer.alternative_metric == "joint_entropy"
    assert answer.alternative_values == tuple(sorted(answer.alternative_values))


def test_a_board_known_to_one_word_is_played(backend: LocalGuesswork) -> None:
    """Once a board has one target left, its word is the guess, whatever the others;
    once every board is solved the answer says so, with the last guess."""
    targets = backend.lookups.policy(POLICY).policy.targets
    guesses = ["RAISE", "CLOUT"]

    def fits(secret: str) -> list[str]:
        return [t for t in targets if all(reply(g, t) == reply(g, secret) for g in guesses)]

    alone = next(t for t in targets if len(fits(t)) == 1 and t not in guesses)
    crowded = next(t for t in targets if len(fits(t)) > 20)
    answer = backend.suggest_boards(POLICY, [turns(guesses, crowded), turns(guesses, alone)], 0)
    assert [b.remaining for b in answer.boards] == [len(fits(crowded)), 1]
    assert answer.guess == alone
    played = [*guesses, alone, crowded]
    done = backend.suggest_boards(POLICY, [turns(played, crowded), turns(played, alone)], 0)
    assert done.solved and done.guess == crowded and done.turn == 4
    assert [(b.remaining, b.solved) for b in done.boards] == [(1, True), (1, True)]


def test_bad_boards_name_the_board(backend: LocalGuesswork) -> None:
    with pytest.raises(InvalidReplyError) as caught:
        backend.suggest_boards(POLICY, [[("RAISE", ".....")], [("RAISE", "xx")]])
    assert str(caught.value).startswith("board 2: ")
    assert caught.value.metadata["field"] == "boards[1].history[0].reply"
    with pytest.raises(ContradictoryHistoryError, match=r"^board 1: "):
        backend.suggest_boards(POLICY, [[("RAISE", "GGGG.")], [("RAISE", ".....")]])
    with pytest.raises(BadRequestError, match="Wordle policy"):
        backend.suggest_boards("jotto-2309-normal-max", [[], []])


def test_suggest_boards_json(capsys: pytest.CaptureFixture[str]) -> None:
    """The outside interface: one --board per board, the JSON keys kept."""
    status = run(["suggest", "--board", "RAISE:..Y..", "--board", "RAISE:G....", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert status == 0
    assert answer["policy"] == "wordle-3158-g14855-normal-optimal"
    # The SuggestBoards response's JSON, as HTTP answers it: an unsolved board's
    # ``solved`` (false) is left out.
    assert [set(board) for board in answer["boards"]] == [{"remaining"}] * 2
    assert answer["guess"] and answer["guessLimit"] == 7 and answer["turn"] == 1


@pytest.mark.parametrize(
    ("arguments", "status", "message"),
    [
        (["suggest", "--board", "RAISE:.....", "--board", ""], 1, "board 2 has 0 of the 1"),
        (["suggest", "--board", "", "--hard"], 2, "normal mode"),
        (["play", "--boards", "0"], 2, "1 to 32 boards"),
        (["play", "--boards", "nonagordle"], 2, "1 to 32 boards"),
    ],
)
def test_bad_multi_board_input_is_one_line(
    arguments: list[str], status: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(arguments) == status
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error


def test_play_a_dordle_to_the_end() -> None:
    """`play --boards 2` through stdin: the replies of two secrets, until both are solved."""
    secrets = ("CIGAR", "SHIRE")
    lines: list[str] = []
    solved = [False, False]
    shown: list[str] = []
    for _ in range(12):
        result = subprocess.run(
            [sys.executable, "-m", "guesswork", "play", "--boards", "dordle", "--policy", POLICY],
            input="\n".join([*lines, "q"]) + "\n",
            env=ENV,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        if "Solved all 2 boards" in result.stdout:
            break
        guess = result.stdout.rsplit("Guess ", 1)[1].split(": ", 1)[1].split()[0]
        shown.append(guess)
        replies = [reply(guess, s) for s, done in zip(secrets, solved, strict=True) if not done]
        solved = [done or guess == s for s, done in zip(secrets, solved, strict=True)]
        lines.append(" ".join(replies))
    assert "Solved all 2 boards in" in result.stdout
    assert set(secrets) <= set(shown)


def test_a_reply_for_a_solved_board_is_explained(
    backend: LocalGuesswork, capsys: pytest.CaptureFixture[str]
) -> None:
    """Board 1 solved by the first guess: a line with a reply for it too reads as
    'WORD REPLY', and the refusal says so; the game then goes on as typed right."""
    from guesswork.client.play_boards import play_boards

    first = backend.suggest_boards(POLICY, [[], []]).guess
    typed = iter([f"GGGGG {reply(first, 'CIGAR')}", f"GGGGG {reply(first, 'CIGAR')}", "q"])
    # The first line: board 1's secret is the first guess (solved), board 2's CIGAR.
    assert play_boards(backend, POLICY, 2, lambda _prompt: next(typed)) == 0
    shown = capsys.readouterr().out
    assert "2 entries for 1 unsolved board are read as 'WORD REPLY'" in shown
