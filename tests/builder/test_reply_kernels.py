"""The compiled reply kernels (builder/_replies.c) against the rules of client.games.

Every reply the C kernels give is compared with the plain-Python definition
(``Game.reply``: client.games.wordle_reply and mastermind_reply), pair by pair,
on words chosen to break them: every length, repeated letters, words of one
letter, letter codes past 32 (64-bit letter sets), more targets than a tile
(512) and not a whole number of vectors, spans of guesses, several threads,
and both copies of the loops (AVX2 and portable) where the CPU has AVX2.
tests/test_reply_rules.py checks the same kernels against the array rule on
every pair of the shipped lists.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

from guesswork.builder import _replies, reply_kernels
from guesswork.builder.matrices import code_dtype, reply_block
from guesswork.client.games import (
    MAX_LENGTH,
    MIN_LENGTH,
    Antiwordle,
    Game,
    Mastermind,
    Wordle,
)

TARGETS = 531  # over one tile of 512, and not a whole number of 8-lane vectors


@pytest.fixture(params=["avx2", "portable"] if _replies.AVX2 else ["portable"])
def loops(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test with each copy of the loops this CPU can run."""
    before = _replies.vector(request.param == "avx2")
    yield request.param
    _replies.vector(before)


def _text(letters: np.ndarray) -> list[str]:
    """Words of distinct characters, one per letter code (any code up to 255)."""
    return ["".join(chr(0x100 + int(c)) for c in row) for row in letters]


def _expected(game: Game, guesses: np.ndarray, targets: np.ndarray) -> list[list[int]]:
    words = _text(targets)
    return [[game.reply(guess, target) for target in words] for guess in _text(guesses)]


def _hard_words(rng: np.random.Generator, count: int, length: int, letters: int) -> np.ndarray:
    """Random words over few letters (repeats everywhere), over all of ``letters``,
    and the edge cases: one letter throughout, two letters alternating, one odd
    letter among copies of another, every letter distinct where they fit."""
    edge = [
        np.zeros(length),
        np.full(length, letters - 1),
        np.arange(length) % 2,
        np.eye(1, length, length // 2)[0],
        np.arange(length) % letters,
        (np.arange(length) * 7 + 3) % letters,
    ]
    few = rng.integers(0, min(3, letters), size=(count // 2, length))
    many = rng.integers(0, letters, size=(count - count // 2 - len(edge), length))
    return np.concatenate([np.array(edge), few, many]).astype(np.uint8)


@pytest.mark.parametrize("length", range(MIN_LENGTH, MAX_LENGTH + 1))
def test_wordle_replies_are_the_rule_at_every_length(loops: str, length: int) -> None:
    game = Wordle(length)
    rng = np.random.default_rng(length)
    guesses = _hard_words(rng, 60, length, 26)
    targets = np.concatenate([guesses, _hard_words(rng, TARGETS - 60, length, 26)])
    matrix = reply_block(game, guesses, targets)
    assert matrix.dtype == code_dtype(game.reply_space)  # 1, 2 or 4 bytes a code
    assert matrix.tolist() == _expected(game, guesses, targets)


@pytest.mark.parametrize("length", [2, 5, 8, 11, 12])
def test_wordle_replies_with_letter_codes_past_32(loops: str, length: int) -> None:
    # 64-bit letter sets: codes 0..63, so both halves of a set are used.
    game = Wordle(length)
    rng = np.random.default_rng(100 + length)
    guesses = _hard_words(rng, 40, length, 64)
    guesses[-5:] = rng.integers(32, 64, size=(5, length))  # only high letters
    targets = np.concatenate([guesses, _hard_words(rng, TARGETS - 40, length, 64)])
    assert int(targets.max()) >= 32
    assert reply_block(game, guesses, targets).tolist() == _expected(game, guesses, targets)


def test_antiwordle_replies_are_wordles(loops: str) -> None:
    rng = np.random.default_rng(5)
    words = _hard_words(rng, 80, 5, 26)
    assert reply_block(Antiwordle(), words, words).tolist() == _expected(Wordle(), words, words)


@pytest.mark.parametrize(("length", "colours"), [(4, 6), (5, 8), (2, 2), (3, 26), (9, 4)])
def test_mastermind_replies_are_the_rule(loops: str, length: int, colours: int) -> None:
    game = Mastermind(length, colours)
    rng = np.random.default_rng(length * colours)
    guesses = _hard_words(rng, 50, length, colours)
    targets = np.concatenate([guesses, _hard_words(rng, TARGETS - 50, length, colours)])
    matrix = reply_block(game, guesses, targets)
    assert matrix.dtype == code_dtype(game.reply_space)
    assert matrix.tolist() == _expected(game, guesses, targets)


@pytest.mark.parametrize("game", [Wordle(), Wordle(11), Mastermind()], ids=str)
def test_a_block_split_over_threads_is_the_rule(loops: str, game: Game) -> None:
    # Over SERIAL_CELLS replies, so the spans go to a pool of threads.
    rng = np.random.default_rng(9)
    colours = game.colours if isinstance(game, Mastermind) else 26
    guesses = _hard_words(rng, 150, game.length, colours)
    targets = _hard_words(rng, TARGETS, game.length, colours)
    assert guesses.shape[0] * targets.shape[0] > reply_kernels.SERIAL_CELLS
    expected = _expected(game, guesses, targets)
    assert reply_block(game, guesses, targets).tolist() == expected
    kernel = _replies.mastermind if isinstance(game, Mastermind) else _replies.wordle
    for threads in (2, 3, 7):
        out = np.zeros((len(guesses), len(targets)), code_dtype(game.reply_space))
        reply_kernels._fill(kernel, guesses, targets, out, threads=threads)
        assert out.tolist() == expected


def test_a_span_fills_its_rows_only() -> None:
    rng = np.random.default_rng(3)
    guesses, targets = _hard_words(rng, 40, 5, 26), _hard_words(rng, 70, 5, 26)
    for kernel, game in ((_replies.wordle, Wordle()), (_replies.mastermind, Mastermind(5, 26))):
        out = np.full((40, 70), 255, np.uint8)
        kernel(guesses, targets, out, 10, 25)
        kernel(guesses, targets, out, 25, 25)  # an empty span writes nothing
        assert (out[:10] == 255).all() and (out[25:] == 255).all()
        assert out[10:25].tolist() == _expected(game, guesses[10:25], targets)


def test_empty_blocks() -> None:
    words = np.zeros((3, 5), np.uint8)
    for game in (Wordle(), Mastermind()):
        assert reply_block(game, words[:0], words).shape == (0, 3)
        assert reply_block(game, words, words[:0]).shape == (3, 0)


def test_bad_arguments_raise_and_write_nothing() -> None:
    words = np.zeros((4, 5), np.uint8)
    out = np.zeros((4, 4), np.uint8)
    for kernel in (_replies.wordle, _replies.mastermind):
        with pytest.raises(TypeError, match="guesses"):
            kernel(words.astype(np.int64), words, out, 0, 4)
        with pytest.raises(TypeError, match="targets"):
            kernel(words, np.asfortranarray(np.zeros((4, 5), np.uint8)), out, 0, 4)
        with pytest.raises(TypeError, match="out"):
            kernel(words, words, out.astype(np.float64), 0, 4)
        with pytest.raises(TypeError, match="out"):
            readonly = out.copy()
            readonly.flags.writeable = False
            kernel(words, words, readonly, 0, 4)
        with pytest.raises(ValueError, match="same length"):
            kernel(words, words[:, :4].copy(), out, 0, 4)
        with pytest.raises(ValueError, match="one row per guess"):
            kernel(words, words, out[:3].copy(), 0, 4)
        for first, stop in ((-1, 2), (3, 2), (0, 5)):
            with pytest.raises(ValueError, match="span"):
                kernel(words, words, out, first, stop)
        with pytest.raises(TypeError, match="5 arguments"):
            kernel(words, words, out, 0)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="below 64"):
        _replies.wordle(words, np.full((4, 5), 64, np.uint8), out, 0, 4)
    with pytest.raises(ValueError, match="20 letters"):
        long = np.zeros((4, 21), np.uint8)
        _replies.wordle(long, long, out, 0, 4)
    assert not out.any()


# Computes a block in a fresh interpreter and reports what it imported.
PROBE = """
import json, sys
import numpy as np
from guesswork.builder.matrices import reply_block
from guesswork.client.games import Mastermind, Wordle
words = np.arange(500 * 5, dtype=np.uint8).reshape(500, 5) % 26
reply_block(Wordle(), words, words)
reply_block(Mastermind(5, 26), words, words)
print(json.dumps({"jit": sorted(m for m in ("numba", "llvmlite") if m in sys.modules)}))
"""


def test_computing_replies_loads_no_jit() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"jit": []}
