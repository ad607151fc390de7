"""The vectorised Wordle kernel agrees with a straightforward pair-by-pair rule.

``builder.matrices._wordle_kernel`` computes replies one position at a time
over all targets (bit masks for letters the guess holds once, counts for
repeated ones). Here it is checked against a plain transliteration of
``client.games.wordle_reply`` (greens first, then yellows left to right
while the target has an unmatched copy), itself checked against the
pure-Python rule, on every pair of the shipped lists and on words full of
repeated letters, for lengths 4, 5 and 11.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from guesswork.builder.matrices import letter_array, reply_block
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import Wordle

REPEATS = ("EERIE", "LLAMA", "SASSY", "ABBEY", "NINNY", "ANNEX", "EMCEE", "MAMMA", "ESSES")


@numba.njit(cache=False)
def _reference(guesses: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Return the reply codes of every pair, one pair at a time (int64)."""
    n_guesses, length = guesses.shape
    out = np.empty((n_guesses, targets.shape[0]), np.int64)
    for g in range(n_guesses):
        guess = guesses[g]
        for t in range(targets.shape[0]):
            target = targets[t]
            unmatched = np.zeros(26, np.int64)
            colours = np.zeros(length, np.int64)
            for p in range(length):
                if guess[p] == target[p]:
                    colours[p] = 2
                else:
                    unmatched[target[p]] += 1
            for p in range(length):
                if colours[p] == 0 and unmatched[guess[p]] > 0:
                    unmatched[guess[p]] -= 1
                    colours[p] = 1
            code = 0
            for p in range(length):
                code = code * 3 + colours[p]
            out[g, t] = code
    return out


def _words(letters: np.ndarray) -> list[str]:
    return ["".join(chr(ord("A") + int(c)) for c in row) for row in letters]


def _check(game: Wordle, guesses: np.ndarray, targets: np.ndarray) -> None:
    matrix = reply_block(game, guesses, targets)
    assert matrix.shape == (len(guesses), len(targets))
    assert np.array_equal(matrix.astype(np.int64), _reference(guesses, targets))


def test_the_reference_is_the_pure_python_rule() -> None:
    game = Wordle()
    words = [*REPEATS, "CRANE", "SPEED", "ERASE", "ELEGY", "GEESE", "TENET", "SALET"]
    letters = letter_array(words, 5)
    expected = [[game.reply(g, t) for t in words] for g in words]
    assert _reference(letters, letters).tolist() == expected
    # The documented example: one N green, one more N in ANNEX, so Y.G..
    assert (
        game.reply("NINNY", "ANNEX")
        == _reference(letter_array(["NINNY"], 5), letter_array(["ANNEX"], 5))[0, 0]
    )


def test_every_guess_against_every_answer() -> None:
    game = Wordle()
    guesses = letter_array(load_wordlist("wordle-guesses-12972", game).words, 5)
    answers = letter_array(load_wordlist("wordle-answers-2315", game).words, 5)
    _check(game, guesses, answers)


def test_repeated_letters_against_each_other_and_everything() -> None:
    game = Wordle()
    everything = load_wordlist("wordle-guesses-12972", game).words
    triples = [w for w in everything if max(w.count(c) for c in w) >= 3]
    assert len(triples) > 100
    repeats = letter_array(sorted({*REPEATS, *triples}), 5)
    every = letter_array(everything, 5)
    _check(game, repeats, repeats)
    _check(game, repeats, every)
    _check(game, every, repeats)


@pytest.mark.parametrize("length", [4, 11])
def test_other_lengths(length: int) -> None:
    game = Wordle(length)
    rng = np.random.default_rng(length)
    blocks = [
        rng.integers(0, alphabet, size=(150, length), dtype=np.uint8)
        for alphabet in (2, 3, 5, 26)  # few letters: repeats everywhere
    ]
    letters = np.concatenate(blocks)
    _check(game, letters, letters)
    sample = _words(letters[::37])
    assert reply_block(game, letters[::37], letters[::37]).tolist() == [
        [game.reply(g, t) for t in sample] for g in sample
    ]


def test_any_layout_and_empty_blocks() -> None:
    game = Wordle()
    letters = letter_array(load_wordlist("wordle-answers-2315", game).words, 5)
    expected = _reference(letters[::3], letters[1::2])
    assert np.array_equal(reply_block(game, letters[::3], letters[1::2]), expected)
    fortran = np.asfortranarray(letters[1::2])
    assert np.array_equal(reply_block(game, letters[::3], fortran), expected)
    assert np.array_equal(reply_block(game, letters[::3].astype(np.int64), fortran), expected)
    assert reply_block(game, letters[:0], letters).shape == (0, len(letters))
    assert reply_block(game, letters, letters[:0]).shape == (len(letters), 0)
