"""Reply matrices agree with the pure-Python rules, and the disk cache is safe."""

from __future__ import annotations

from collections import Counter, OrderedDict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guesswork.builder import matrices
from guesswork.builder.errors import MatrixTooLargeError
from guesswork.builder.matrices import (
    code_dtype,
    compute_reply_matrix,
    reply_matrix,
    transposed,
)
from guesswork.builder.optimal import problem
from guesswork.builder.wordlists import WordList, fixed_words, jotto_allowable, load_wordlist
from guesswork.client.games import Game, Jotto, Mastermind, Wordle, mastermind_reply


def python_matrix(game: Game, guesses: WordList, targets: WordList) -> np.ndarray:
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


@st.composite
def mastermind_cases(draw: st.DrawFn) -> tuple[Mastermind, list[str], list[str]]:
    """A random game and random codes; few colours in use, so repeats are common."""
    game = Mastermind(draw(st.integers(2, 12)), draw(st.integers(2, 26)))
    used = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: draw(st.integers(1, game.colours))]
    code = st.text(alphabet=used, min_size=game.length, max_size=game.length)
    guesses = draw(st.lists(code, min_size=1, max_size=12, unique=True))
    targets = draw(st.lists(code, min_size=1, max_size=12, unique=True))
    return game, guesses, targets


@settings(max_examples=200, deadline=None)
@given(mastermind_cases())
def test_mastermind_matrix_matches_the_rule_on_random_codes(
    case: tuple[Mastermind, list[str], list[str]],
) -> None:
    game, guesses, targets = case
    guess_list, target_list = WordList.from_words("g", guesses), WordList.from_words("t", targets)
    matrix = compute_reply_matrix(game, guess_list, target_list)
    assert matrix.dtype == np.uint8 == code_dtype(game.reply_space)
    assert (matrix == python_matrix(game, guess_list, target_list)).all()


def test_mastermind_codes_list() -> None:
    codes = fixed_words(Mastermind())
    assert codes.name == "mastermind-6x4"
    assert len(codes) == 1296 and codes.words[0] == "AAAA" and codes.words[-1] == "FFFF"
    assert list(codes.words) == sorted(codes.words)
    assert fixed_words(Mastermind(5, 8)).name == "mastermind-8x5"
    assert len(fixed_words(Mastermind(5, 8))) == 8**5
    assert len(fixed_words(Mastermind(2, 26))) == 676


def test_classic_mastermind_matrix_and_knuths_first_guess() -> None:
    game = Mastermind()
    codes = fixed_words(game)
    matrix = compute_reply_matrix(game, codes, codes)
    assert matrix.shape == (1296, 1296) and matrix.dtype == np.uint8
    assert (np.diag(matrix) == game.win_reply).all()
    assert (matrix == matrix.T).all()  # pegs do not depend on which code is the guess
    assert len(np.unique(matrix)) == game.distinct_replies == 14
    sample = WordList.from_words("s", (*codes.words[::37], "AABB", "ABCD", "FFFE"))
    assert (compute_reply_matrix(game, sample, codes) == python_matrix(game, sample, codes)).all()
    # Knuth (1976): the best first guess leaves at most 256 codes, and the
    # guesses that do are exactly those of two colours twice each, like AABB.
    largest = np.array([np.bincount(row, minlength=game.reply_space).max() for row in matrix])
    assert largest.min() == 256
    best = {codes.words[g] for g in np.flatnonzero(largest == 256)}
    assert "AABB" in best and "ABAB" in best and "AAAB" not in best
    assert best == {w for w in codes.words if sorted(Counter(w).values()) == [2, 2]}
    assert len(best) == 90  # 15 pairs of colours, 6 placements


@pytest.mark.slow
def test_classic_mastermind_matrix_matches_the_rule_exhaustively() -> None:
    game = Mastermind()
    codes = fixed_words(game)
    matrix = compute_reply_matrix(game, codes, codes)
    k = game.length + 1
    for g, guess in enumerate(codes.words):
        expected = [
            black * k + white
            for black, white in (mastermind_reply(guess, target) for target in codes.words)
        ]
        assert matrix[g].tolist() == expected, guess


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
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    game, guesses, targets = _small_lists()
    expected = compute_reply_matrix(game, guesses, targets)
    first = reply_matrix(game, guesses, targets)
    (cached,) = tmp_path.glob("*.npy")
    assert (first == expected).all()

    # A fresh process (empty memory cache) reads the file back.
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    monkeypatch.setattr(matrices, "compute_reply_matrix", _refuse_to_compute)
    assert (reply_matrix(game, guesses, targets) == expected).all()

    # A flipped byte in the file is noticed and the matrix recomputed.
    data = bytearray(cached.read_bytes())
    data[-7] ^= 0x01
    cached.write_bytes(bytes(data))
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    monkeypatch.setattr(matrices, "compute_reply_matrix", compute_reply_matrix)
    assert (reply_matrix(game, guesses, targets) == expected).all()


def test_unwritable_cache_does_not_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GUESSWORK_CACHE", str(blocker / "cache"))
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    game, guesses, targets = _small_lists()
    assert reply_matrix(game, guesses, targets).shape == (50, 40)


@pytest.mark.parametrize("tile", [7, 64, matrices.TRANSPOSE_TILE])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_transposed_is_the_contiguous_transpose(
    tile: int, dtype: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tile by tile, with ragged last tiles, the same array as numpy's own copy."""
    monkeypatch.setattr(matrices, "TRANSPOSE_TILE", tile)
    rng = np.random.default_rng(tile)
    for shape in [(0, 5), (1, 1), (3, 200), (150, 17), (1100, 1300)]:
        matrix = rng.integers(0, np.iinfo(dtype).max, size=shape, dtype=dtype)
        flipped = transposed(matrix)
        assert flipped.flags.c_contiguous and flipped.dtype == dtype
        assert flipped.shape == shape[::-1]
        assert np.array_equal(flipped, np.ascontiguousarray(matrix.T))
        # A view (the rows of a larger matrix) is read through its strides.
        assert np.array_equal(transposed(matrix[::2, 1:]), np.ascontiguousarray(matrix[::2, 1:].T))


def test_the_target_major_layouts_are_the_transpose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search's target-major matrix (cached under its own key, made by
    transposed) and the alternatives' target_major copy of a guess-major one are
    the matrix itself, laid out by target."""
    from guesswork.builder.optimal.problem import target_major

    monkeypatch.setenv("GUESSWORK_CACHE", str(tmp_path))
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    monkeypatch.setattr(matrices, "TRANSPOSE_TILE", 16)  # several tiles, ragged ones
    game, guesses, targets = _small_lists()
    expected = compute_reply_matrix(game, guesses, targets)
    by_guess = reply_matrix(game, guesses, targets)
    by_target = reply_matrix(game, guesses, targets, target_major=True)
    assert by_target.flags.f_contiguous and np.array_equal(by_target, expected)
    assert np.array_equal(target_major(by_guess), expected.T)
    assert target_major(by_guess).flags.c_contiguous
    assert np.shares_memory(target_major(by_target), by_target)  # already target-major


def _refuse_to_compute(*args: object) -> np.ndarray:
    raise AssertionError("the cached matrix should have been used")


def test_the_matrices_kept_in_memory_are_bounded_least_recently_used_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process that answers over every policy kept every matrix (13.7 GB proving the
    shipped catalog): past the bound the least recently used one goes."""
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    game = Wordle(5)
    words = ("ABBEY", "CRANE", "SLATE", "TRACE")
    lists = [WordList.from_words(f"m{n}", words[: n + 2]) for n in range(3)]
    sizes = [
        (n + 2) ** 2 * np.dtype(matrices.code_dtype(game.reply_space)).itemsize for n in range(3)
    ]
    monkeypatch.setenv(matrices.MEMORY_VARIABLE, str(sizes[1] + sizes[2]))

    def kept() -> list[np.ndarray]:
        return list(matrices._memory_cache.values())

    def make(n: int) -> np.ndarray:
        return matrices.reply_matrix(game, lists[n], lists[n], use_disk=False)

    made = [make(n) for n in range(3)]
    assert [m.nbytes for m in made] == sizes
    assert [id(m) for m in kept()] == [id(made[1]), id(made[2])]  # the first went
    assert make(1) is made[1]  # recalled, and now the most recently used
    remade = make(0)  # past the bound again: made[2], least recently used, goes
    assert [id(m) for m in kept()] == [id(made[1]), id(remade)]
    monkeypatch.setenv(matrices.MEMORY_VARIABLE, "1")
    newest = make(2)  # the newest stays, even alone past the bound
    assert [id(m) for m in kept()] == [id(newest)]


def test_the_transposes_kept_are_bounded_as_the_matrices_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """target_major kept every matrix and its copy for ever (12.6 GB proving the
    shipped catalog); now the least recently used go past the same bound."""
    monkeypatch.setattr(problem, "_transposed", OrderedDict())
    made = [np.arange(n * n, dtype=np.uint8).reshape(n, n) for n in (4, 5, 6)]
    monkeypatch.setenv(matrices.MEMORY_VARIABLE, str(2 * (25 + 36)))
    flipped = [problem.target_major(m) for m in made]
    assert all(np.array_equal(f, m.T) for f, m in zip(flipped, made, strict=True))
    assert [id(kept) for kept, _ in problem._transposed.values()] == [id(m) for m in made[1:]]
    assert problem.target_major(made[1]) is flipped[1]  # recalled, not copied again


def test_a_matrix_larger_than_the_memory_is_refused_before_it_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check compares the matrix's bytes with the machine's memory (here made 1 KiB
    smaller than the matrix): refused, named, nothing computed; the same lists pass on
    the machine as it is."""
    game = Mastermind(3, 6)
    codes = fixed_words(game)
    needed = len(codes) ** 2 * np.dtype(code_dtype(game.reply_space)).itemsize
    monkeypatch.setattr(matrices, "physical_memory", lambda: needed - 1024)
    monkeypatch.setattr(matrices, "compute_reply_matrix", None)  # never reached
    with pytest.raises(MatrixTooLargeError, match=r"216 guesses x 216 targets is too large"):
        reply_matrix(game, codes, codes, use_disk=False)
    monkeypatch.undo()
    assert reply_matrix(game, codes, codes, use_disk=False).shape == (216, 216)
