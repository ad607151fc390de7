"""Every fast reply rule against the one definition, in one place.

The rules are defined once, pair by pair, in client.games (``wordle_reply``,
``mastermind_reply`` and each game's ``reply``). The fast versions are:

* client.games.wordle.wordle_pair_codes: the Wordle rule over numpy arrays (the
  lookup core's ``Wordle.reply_codes``, the replay, matrices of alphabets over
  64 letters);
* each game's ``pair_replies``: its rule over (guess, target) pairs (the replay);
* builder.matrices' compiled kernels (``reply_block``) and the games'
  ``letter_replies``: whole reply matrices.

The array versions are checked against the definition on words full of
repeated letters; the compiled Wordle kernel, too costly to check pair by pair
in Python over whole lists, is checked against the array version on every pair
of the shipped lists (and against the definition on samples).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from guesswork.builder.matrices import letter_array, reply_block
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import (
    Antiwordle,
    Game,
    GuessMyWord,
    Jotto,
    Mastermind,
    Wordle,
    all_codes,
    wordle_reply,
)
from guesswork.client.games.arrays import letter_matrix
from guesswork.client.games.wordle import wordle_codes, wordle_pair_codes

REPEATS = ("EERIE", "LLAMA", "SASSY", "ABBEY", "NINNY", "ANNEX", "EMCEE", "MAMMA", "ESSES")


def test_the_definition_on_the_documented_example() -> None:
    # One N is green and ANNEX has only one more N, so only the leftmost other N is yellow.
    assert wordle_reply("NINNY", "ANNEX") == (1, 0, 2, 0, 0)
    assert Wordle().format_reply(Wordle().reply("NINNY", "ANNEX")) == "Y.G.."


def _words(game: Game, rng: random.Random, count: int) -> tuple[str, ...]:
    if isinstance(game, Mastermind):
        return tuple(rng.choice(all_codes(game.colours, game.length)) for _ in range(count))
    if isinstance(game, Jotto):
        return tuple("".join(rng.sample("ABCDEFGHIJ", game.length)) for _ in range(count))
    if isinstance(game, GuessMyWord):
        return tuple("".join(rng.choices("abc", k=rng.randint(1, 4))) for _ in range(count))
    # Few letters, so repeated letters and the NYT duplicate rule are common.
    return tuple("".join(rng.choices("AEBST", k=game.length)) for _ in range(count))


GAMES = [
    Wordle(),
    Wordle(3),
    Wordle(8),
    Antiwordle(),
    Jotto(),
    Jotto(4),
    Mastermind(),
    Mastermind(3, 4),
    GuessMyWord(variant="deduce"),
    GuessMyWord(variant="live"),
]  # one game per rule and size: a table reads best one case per line


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_pair_replies_are_the_definition(game: Game) -> None:
    rng = random.Random(2026)
    vocabulary, targets = _words(game, rng, 300), _words(game, rng, 200)
    guess = np.array([rng.randrange(300) for _ in range(4000)], dtype=np.int64)
    target = np.array([rng.randrange(200) for _ in range(4000)], dtype=np.int64)
    # Some pairs of equal words, so wins are among them.
    target[:300] = [
        targets.index(vocabulary[g]) if vocabulary[g] in targets else 0
        for g in guess[:300].tolist()
    ]
    got = game.pair_replies(vocabulary, targets)(guess, target)
    want = [game.reply(vocabulary[g], targets[t]) for g, t in zip(guess, target, strict=True)]
    assert got.tolist() == want


@pytest.mark.parametrize(
    "game", [Wordle(), Wordle(4), Antiwordle(), Jotto(), Mastermind()], ids=str
)
def test_reply_codes_of_one_guess_are_the_definition(game: Game) -> None:
    rng = random.Random(4)
    words = _words(game, rng, 300)
    for guess in (
        *words[:60],
        *(w for w in REPEATS if len(w) == game.length and game.id == "wordle"),
    ):
        assert game.reply_codes(guess, words).tolist() == [game.reply(guess, t) for t in words]


def test_the_array_rule_on_words_of_other_scripts() -> None:
    words = ("ΑΛΦΑΣ", "ΣΑΛΑΣ", "ΛΑΛΑΣ", "ÑANDU", "NIÑOS", "ÑAÑAS")
    letters = letter_matrix(words)
    for guess in words:
        assert wordle_codes(guess, letters).tolist() == [Wordle().reply(guess, t) for t in words]
    assert wordle_codes("ABCDE", letters[:0]).tolist() == []


def _kernel_matches_array_rule(game: Wordle, guesses: np.ndarray, targets: np.ndarray) -> None:
    matrix = reply_block(game, guesses, targets)
    assert matrix.shape == (len(guesses), len(targets))
    for start in range(0, len(guesses), 256):  # (256, N, k) pairs at a time
        block = guesses[start : start + 256]
        pairs = wordle_pair_codes(
            np.repeat(block, len(targets), axis=0), np.tile(targets, (len(block), 1))
        )
        assert np.array_equal(matrix[start : start + 256].astype(np.int64).ravel(), pairs)


def test_the_kernel_on_every_guess_against_every_answer() -> None:
    game = Wordle()
    guesses = letter_array(load_wordlist("wordle-guesses-12972", game).words, 5)
    answers = letter_array(load_wordlist("wordle-answers-2315", game).words, 5)
    _kernel_matches_array_rule(game, guesses, answers)


def test_the_kernel_on_repeated_letters_against_everything() -> None:
    game = Wordle()
    everything = load_wordlist("wordle-guesses-12972", game).words
    triples = [w for w in everything if max(w.count(c) for c in w) >= 3]
    assert len(triples) > 100
    repeats = letter_array(sorted({*REPEATS, *triples}), 5)
    every = letter_array(everything, 5)
    _kernel_matches_array_rule(game, repeats, every)
    _kernel_matches_array_rule(game, every, repeats)
    words = sorted({*REPEATS, *triples})[:80]
    assert reply_block(game, repeats[:80], repeats[:80]).tolist() == [
        [game.reply(g, t) for t in words] for g in words
    ]


@pytest.mark.parametrize("length", [4, 11])
def test_the_kernel_at_other_lengths(length: int) -> None:
    game = Wordle(length)
    rng = np.random.default_rng(length)
    blocks = [
        rng.integers(0, alphabet, size=(150, length), dtype=np.uint8)
        for alphabet in (2, 3, 5, 26)  # few letters: repeats everywhere
    ]
    letters = np.concatenate(blocks)
    _kernel_matches_array_rule(game, letters, letters)
    sample = ["".join(chr(ord("A") + int(c)) for c in row) for row in letters[::37]]
    assert reply_block(game, letters[::37], letters[::37]).tolist() == [
        [game.reply(g, t) for t in sample] for g in sample
    ]


def test_the_kernel_in_any_layout_and_empty_blocks() -> None:
    game = Wordle()
    letters = letter_array(load_wordlist("wordle-answers-2315", game).words, 5)
    expected = reply_block(
        game, np.ascontiguousarray(letters[::3]), np.ascontiguousarray(letters[1::2])
    )
    _kernel_matches_array_rule(game, letters[::3], letters[1::2])
    fortran = np.asfortranarray(letters[1::2])
    assert np.array_equal(reply_block(game, letters[::3], fortran), expected)
    assert np.array_equal(reply_block(game, letters[::3].astype(np.int64), fortran), expected)
    assert reply_block(game, letters[:0], letters).shape == (0, len(letters))
    assert reply_block(game, letters, letters[:0]).shape == (len(letters), 0)


def test_matrices_of_alphabets_over_64_letters_use_the_array_rule() -> None:
    game = Wordle(3)
    rng = np.random.default_rng(7)
    letters = rng.integers(0, 80, size=(120, 3), dtype=np.int64)  # 80 letters: no letter sets
    letters[:40, 1] = letters[:40, 0]  # repeats
    words = ["".join(chr(0x100 + int(c)) for c in row) for row in letters]
    assert reply_block(game, letters, letters).tolist() == [
        [game.reply(g, t) for t in words] for g in words
    ]


@pytest.mark.parametrize("letters", [20, 40, 80])  # uint32 sets, uint64 sets, no sets
def test_jotto_matrices_and_pairs_at_every_alphabet_size(letters: int) -> None:
    """Jotto's one array form (client.games.arrays.letter_masks) serves the builder's
    matrices and the replay alike, and falls back past 64 letters."""
    game = Jotto(4)
    rng = random.Random(letters)
    words = tuple("".join(chr(0x3B1 + i) for i in rng.sample(range(letters), 4)) for _ in range(90))
    want = [[game.reply(g, t) for t in words] for g in words]
    codes = np.array([[ord(c) - 0x3B1 for c in w] for w in words], dtype=np.int64)
    assert reply_block(game, codes, codes).tolist() == want
    every = np.arange(len(words), dtype=np.int64)
    pairs = game.pair_replies(words, words)(
        np.repeat(every, len(words)), np.tile(every, len(words))
    )
    assert pairs.reshape(len(words), len(words)).tolist() == want


def test_games_without_an_array_rule_have_no_matrix() -> None:
    with pytest.raises(TypeError, match="no reply matrix"):
        reply_block(GuessMyWord(), np.zeros((2, 3), np.uint8), np.zeros((2, 3), np.uint8))
