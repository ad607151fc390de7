"""Game rules: the Wordle reply rule, Jotto, codes and validity (seed known answers)."""

from __future__ import annotations

import pytest

from guesswork.client.errors import (
    GuessworkError,
    ImpossibleReplyError,
    InvalidReplyError,
    InvalidWordError,
    UnknownGameError,
)
from guesswork.client.games import (
    GREEN,
    MISS,
    YELLOW,
    Antiwordle,
    GuessMyWord,
    Jotto,
    Wordle,
    code_to_colours,
    colours_to_code,
    jotto_reply,
    make_game,
)
from guesswork.client.rules import consistent_targets, partition

WORDLE = Wordle()

# The seeds' reply examples (2022 notebook, then 2020 notebook in lower case).
SEED_REPLIES = [
    ("NINNY", "ANNEX", "Y.G.."),
    ("ANNEX", "NINNY", ".YG.."),
    ("HELLO", "WORLD", "...GY"),
    ("WORLD", "HELLO", ".Y.G."),
    ("HELLO", "ABYSS", "....."),
    ("ABYSS", "HELLO", "....."),
    ("EPEES", "GEESE", "Y.GYY"),
    ("GEESE", "EPEES", ".YGYY"),
    ("WHEEE", "PEEVE", "..GYG"),
    ("PEEVE", "WHEEE", ".YG.G"),
    ("TREAT", "TRUSS", "GG..."),
    ("PALLS", "SPLAT", "YYG.Y"),
    ("SPLAT", "PALLS", "YYGY."),
]


@pytest.mark.parametrize(("guess", "target", "expected"), SEED_REPLIES)
def test_seed_reply_examples(guess: str, target: str, expected: str) -> None:
    code = WORDLE.reply(guess, target)
    assert WORDLE.format_reply(code) == expected
    assert WORDLE.parse_reply(expected, guess) == code


def test_codes_put_the_first_letter_most_significant() -> None:
    assert colours_to_code((MISS,) * 5) == 0
    assert colours_to_code((MISS, MISS, MISS, MISS, GREEN)) == 2
    assert colours_to_code((YELLOW, MISS, MISS, MISS, MISS)) == 81
    assert WORDLE.win_reply == colours_to_code((GREEN,) * 5) == 242
    assert WORDLE.reply_space == 243
    assert WORDLE.distinct_replies == 238  # 3**5 minus the five "4 greens + 1 yellow"


@pytest.mark.parametrize("length", [4, 5, 6, 11])
def test_colours_round_trip_through_codes(length: int) -> None:
    for code in range(0, 3**length, 97):
        assert colours_to_code(code_to_colours(code, length)) == code


def test_wordle_of_other_lengths() -> None:
    six = Wordle(6)
    assert six.name == "wordle-6"
    assert six.format_reply(six.reply("BANANA", "CABANA")) == "YG.GGG"
    assert six.format_reply(six.reply("LLAMAS", "SMALLS")) == "YYGY.G"
    assert six.win_reply == 3**6 - 1


def test_jotto_counts_shared_letters() -> None:
    assert jotto_reply("STOMA", "WONKY") == 1
    assert jotto_reply("ROWDY", "WONKY") == 3
    jotto = Jotto()
    assert jotto.reply("WONKY", "WONKY") == jotto.win_reply == 5
    assert jotto.reply_space == 6
    assert jotto.parse_reply("3") == 3


def test_word_validity() -> None:
    assert WORDLE.normalise_word(" crane ") == "CRANE"
    assert Jotto().word_problem("ELECT") == "repeats a letter"
    assert WORDLE.word_problem("CRAN3") == "not made only of letters ('3' is not a letter)"
    assert WORDLE.word_problem("CRANES") == "has 6 letters, not 5"
    with pytest.raises(InvalidWordError, match="has 4 letters"):
        WORDLE.normalise_word("abcd")


def test_make_game_and_its_errors() -> None:
    assert make_game("antiwordle") == Antiwordle()
    assert Antiwordle.consistent_only and not Wordle.consistent_only
    assert make_game("wordle", 7).length == 7
    with pytest.raises(UnknownGameError, match="unknown game 'chess'; known games: antiwordle"):
        make_game("chess")
    with pytest.raises(InvalidWordError, match="between 2 and 12"):
        make_game("wordle", 40)
    # One except clause catches every Guesswork error.
    assert issubclass(UnknownGameError, GuessworkError)
    assert issubclass(UnknownGameError, KeyError)


def test_partition_and_consistent_targets_on_small_lists() -> None:
    words = ["ANNEX", "ANNUL", "CANON", "HELLO", "NINNY"]
    assert consistent_targets(WORDLE, words, "NINNY", WORDLE.parse_reply("Y.G..")) == [
        "ANNEX",
        "ANNUL",
        "CANON",
    ]
    branches = partition(WORDLE, "ENNUI", ["ANNEX", "ANNUL", "CANON"])
    assert {WORDLE.format_reply(code): group for code, group in branches.items()} == {
        "YGG..": ["ANNEX"],
        ".GGG.": ["ANNUL"],
        ".YG..": ["CANON"],
    }


def test_guess_my_word_rules() -> None:
    deduce, live = GuessMyWord(), make_game("guess-my-word", variant="live")
    assert live == GuessMyWord(variant="live") and deduce.variant == "deduce"
    assert deduce.deduces and not live.deduces and deduce.suggestions_only
    assert (deduce.reply_space, deduce.win_reply, deduce.length) == (3, 2, 0)
    assert [deduce.reply("cat", t) for t in ("bat", "cat", "dog")] == [0, 1, 1]
    assert [live.reply("cat", t) for t in ("bat", "cat", "dog")] == [0, 2, 1]
    assert [live.parse_reply(text) for text in (" Before", "AFTER", "correct ")] == [0, 1, 2]
    assert [live.format_reply(code) for code in range(3)] == ["before", "after", "correct"]
    with pytest.raises(ImpossibleReplyError, match="never answers 'correct'"):
        deduce.parse_reply("correct")
    with pytest.raises(InvalidReplyError, match="not one of before, after, correct"):
        live.parse_reply("later")
    assert live.normalise_word(" Photosynthesis ") == "photosynthesis"  # any length, lower case
    with pytest.raises(InvalidWordError, match="letters a-z"):
        live.normalise_word("ho1se")
    with pytest.raises(InvalidWordError, match="unknown variant 'hard'"):
        make_game("guess-my-word", variant="hard")
    with pytest.raises(InvalidWordError, match="only guess-my-word has a variant"):
        make_game("wordle", variant="live")
    with pytest.raises(InvalidWordError, match="length must be 0"):
        make_game("guess-my-word", 5)
