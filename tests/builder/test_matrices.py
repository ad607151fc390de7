"""Reply matrices agree with the pure-Python rules, and the disk cache is safe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder import matrices
from builder.matrices import code_dtype, compute_reply_matrix, reply_matrix
from builder.wordlists import WordList, jotto_allowable, load_wordlist
from client.games import Jotto, Wordle


def python_matrix(game: Wordle | Jotto, guesses: WordList, targets: WordList) -> np.ndarray:
    """The reference: the game's own pure-Python rule for every pair."""
    return np.array(
        [[game.reply(g, t) for t in targets.words] for g in guesses.words], dtype=np.int64
    )


def test_wordle_matrix_matches_the_rule_exhaustively_on_2309_words() -> None:
    game = Wordle()
    answers = load_wordlist("wordle-answers-2309", game)
    matrix = compute_reply_matrix(game, answers, answers)
    assert matrix.dtype == np.uint8
    for g, guess in enumerate(answers.words):
        expected = [game.reply(guess, target) for target in answers.words]
        assert matrix[g].tolist() == expected, guess


@st.composite
def word_lists(draw: st.DrawFn, distinct: bool = False) -> tuple[int, list[str], list[str]]:
    """Random words over a small alphabet, so repeated letters are common."""
    length = draw(st.integers(min_value=4, max_value=11))
    alphabet = draw(
        st.sampled_from(["AB", "ABC", "ABCDE", "EESTNAL", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"])
    )
    if distinct:
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    word = st.text(alphabet=alphabet, min_size=length, max_size=length)
    if distinct:
        word = st.permutations(list(alphabet)).map(lambda letters: "".join(letters[:length]))
    guesses = draw(st.lists(word, min_size=1, max_size=12, unique=True))
    targets = draw(st.lists(word, min_size=1, max_size=12, unique=True))
    return length, guesses, targets


@settings(max_examples=150, deadline=None)
@given(word_lists())
def test_wordle_matrix_matches_the_rule_on_random_words(
    case: tuple[int, list[str], list[str]],
) -> None:
    length, guesses, targets = case
    game = Wordle(length)
    guess_list, target_list = WordList.from_words("g", guesses), WordList.from_words("t", targets)
    matrix = compute_reply_matrix(game, guess_list, target_list)
    assert matrix.dtype == code_dtype(3**length)
    assert (matrix == python_matrix(game, guess_list, target_list)).all()


@settings(max_examples=100, deadline=None)
@given(word_lists(distinct=True))
def test_jotto_matrix_matches_the_rule_on_random_words(
    case: tuple[int, list[str], list[str]],
) -> None:
    length, guesses, targets = case
    game = Jotto(length)
    guess_list, target_list = WordList.from_words("g", guesses), WordList.from_words("t", targets)
    matrix = compute_reply_matrix(game, guess_list, target_list)
    assert (matrix == python_matrix(game, guess_list, target_list)).all()


def test_jotto_matrix_on_the_seed_list() -> None:
    words = WordList.from_words("j", jotto_allowable(load_wordlist("sgb-words", Wordle()).words))
    matrix = compute_reply_matrix(Jotto(), words, words)
    assert (np.diag(matrix) == 5).all()
    sample = WordList.from_words("s", words.words[::97])
    assert (
        compute_reply_matrix(Jotto(), sample, words) == python_matrix(Jotto(), sample, words)
    ).all()


def test_code_dtypes() -> None:
    assert code_dtype(6) == np.uint8
    assert code_dtype(3**5) == np.uint8
    assert code_dtype(3**6) == np.uint16
    assert code_dtype(3**10) == np.uint16
    assert code_dtype(3**11) == np.uint32


def test_full_wordle_matrix_shape() -> None:
    game = Wordle()
    matrix = reply_matrix(
        game,
        load_wordlist("wordle-guesses-12972", game),
        load_wordlist("wordle-answers-2315", game),
    )
    assert matrix.shape == (12972, 2315)
    assert not matrix.flags.writeable


def _small_lists() -> tuple[Wordle, WordList, WordList]:
    game = Wordle()
    answers = load_wordlist("wordle-answers-2309", game)
    return (
        game,
        WordList.from_words("g", answers.words[:50]),
        WordList.from_words("t", answers.words[50:90]),
    )


def test_disk_cache_is_written_reused_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUESSWORK_CACHE", str(tmp_path))
    monkeypatch.setattr(matrices, "_memory_cache", {})
    game, guesses, targets = _small_lists()
    expected = compute_reply_matrix(game, guesses, targets)
    first = reply_matrix(game, guesses, targets)
    (cached,) = tmp_path.glob("*.npy")
    assert (first == expected).all()

    # A fresh process (empty memory cache) reads the file back.
    monkeypatch.setattr(matrices, "_memory_cache", {})
    monkeypatch.setattr(matrices, "compute_reply_matrix", _refuse_to_compute)
    assert (reply_matrix(game, guesses, targets) == expected).all()

    # A flipped byte in the file is noticed and the matrix recomputed.
    data = bytearray(cached.read_bytes())
    data[-7] ^= 0x01
    cached.write_bytes(bytes(data))
    monkeypatch.setattr(matrices, "_memory_cache", {})
    monkeypatch.setattr(matrices, "compute_reply_matrix", compute_reply_matrix)
    assert (reply_matrix(game, guesses, targets) == expected).all()


def test_unwritable_cache_does_not_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GUESSWORK_CACHE", str(blocker / "cache"))
    monkeypatch.setattr(matrices, "_memory_cache", {})
    game, guesses, targets = _small_lists()
    assert reply_matrix(game, guesses, targets).shape == (50, 40)


def _refuse_to_compute(*args: object) -> np.ndarray:
    raise AssertionError("the cached matrix should have been used")
