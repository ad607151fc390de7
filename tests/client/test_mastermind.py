"""Mastermind: the peg rule, codes, reply text, validity and the policy format."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guesswork.client.catalog import open_catalog
from guesswork.client.errors import (
    GuessworkError,
    ImpossibleReplyError,
    InvalidReplyError,
    InvalidWordError,
    PolicyFormatError,
)
from guesswork.client.games import GAMES, Mastermind, Wordle, all_codes, make_game, mastermind_reply
from guesswork.client.policy_format import decode_core, encode_core
from guesswork.client.probe import Policy
from guesswork.client.rules import partition

CLASSIC = Mastermind()
CODES = all_codes(6, 4)
#: One guess of each shape (how often it repeats colours). Permuting colours and
#: places maps every guess to one of these and permutes the secrets, so
#: anything counted over all secrets is the same for every guess of a shape.
SHAPES = ("AAAA", "AAAB", "AABB", "AABC", "ABCD")


def shape_of(code: str) -> tuple[int, ...]:
    return tuple(sorted(Counter(code).values()))


def slow_reply(guess: str, target: str) -> tuple[int, int]:
    """An independent reference: strike out matched pegs one by one."""
    black = sum(g == t for g, t in zip(guess, target, strict=True))
    left = [t for g, t in zip(guess, target, strict=True) if g != t]
    white = 0
    for g, t in zip(guess, target, strict=True):
        if g != t and g in left:
            left.remove(g)
            white += 1
    return black, white


@pytest.mark.parametrize(
    ("guess", "target", "pegs"),
    [
        ("AABB", "ABBA", (2, 2)),  # A and B in places 1, 3; the other A and B swapped
        ("ABCD", "DCBA", (0, 4)),
        ("AAAA", "AAAB", (3, 0)),  # the fourth A has no A left to match
        ("AAAB", "AAAA", (3, 0)),
        ("ABCD", "ABCD", (4, 0)),
        ("AAAA", "BBBB", (0, 0)),
        ("AABB", "BBAA", (0, 4)),
        ("ABBB", "CAAA", (0, 1)),  # one A in the guess: one white, not three
        ("CAAA", "ABBB", (0, 1)),
        ("ABCA", "AACB", (2, 2)),
        ("ABCD", "ACDB", (1, 3)),
        ("FEDC", "CDEF", (0, 4)),
        ("ABAB", "BBBA", (1, 2)),
    ],
)
def test_known_replies(guess: str, target: str, pegs: tuple[int, int]) -> None:
    assert mastermind_reply(guess, target) == pegs
    assert slow_reply(guess, target) == pegs
    code = CLASSIC.reply(guess, target)
    assert code == pegs[0] * 5 + pegs[1]
    assert CLASSIC.format_reply(code) == f"{pegs[0]}B{pegs[1]}W"


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_rule_matches_an_independent_reference(data: st.DataObject) -> None:
    length = data.draw(st.integers(2, 12))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: data.draw(st.integers(2, 26))]
    code = st.text(alphabet=letters, min_size=length, max_size=length)
    guess, target = data.draw(code), data.draw(code)
    black, white = mastermind_reply(guess, target)
    assert (black, white) == slow_reply(guess, target)
    assert mastermind_reply(target, guess) == (black, white)  # the rule is symmetric


def test_codes_and_reply_space() -> None:
    assert len(CODES) == 1296 == 6**4
    assert CODES[:3] == ("AAAA", "AAAB", "AAAC") and CODES[-1] == "FFFF"
    assert list(CODES) == sorted(CODES) and len(set(CODES)) == 1296
    assert all_codes(2, 3) == ("AAA", "AAB", "ABA", "ABB", "BAA", "BAB", "BBA", "BBB")
    assert len(all_codes(26, 2)) == 676
    assert CLASSIC.reply_space == 25
    assert CLASSIC.win_reply == 20 == CLASSIC.reply("CAFE", "CAFE")
    assert CLASSIC.distinct_replies == 14
    assert Mastermind(5, 8).distinct_replies == 20  # 21 with b + w <= 5, minus 4B1W
    with pytest.raises(InvalidWordError, match="between 2 and 26"):
        all_codes(27, 4)


def test_exactly_the_fourteen_replies_occur_for_six_colours_and_four_pegs() -> None:
    assert {shape_of(code) for code in CODES} == {shape_of(s) for s in SHAPES}
    seen = {CLASSIC.reply(guess, target) for guess in SHAPES for target in CODES}
    assert len(seen) == CLASSIC.distinct_replies == 14
    expected = {b * 5 + w for b in range(5) for w in range(5) if b + w <= 4 and (b, w) != (3, 1)}
    assert seen == expected


@pytest.mark.parametrize(("colours", "length"), [(3, 2), (3, 4), (4, 3), (3, 5), (7, 3)])
def test_distinct_replies_occur_with_three_colours_or_more(colours: int, length: int) -> None:
    game = Mastermind(length, colours)
    codes = all_codes(colours, length)
    seen = {game.reply(guess, target) for guess in codes for target in codes}
    assert len(seen) == game.distinct_replies


def test_two_colours_give_fewer_replies() -> None:
    game = Mastermind(2, 2)
    codes = all_codes(2, 2)
    seen = {game.format_reply(game.reply(g, t)) for g in codes for t in codes}
    assert seen == {"0B0W", "0B2W", "1B0W", "2B0W"}  # never 0B1W
    assert len(seen) < game.distinct_replies


def test_knuths_first_guess() -> None:
    """Knuth (1976): AABB leaves at most 256 codes, and no first guess leaves fewer."""
    branches = partition(CLASSIC, "AABB", list(CODES))
    sizes = sorted((len(group) for group in branches.values()), reverse=True)
    assert sum(sizes) == 1296
    assert sizes[0] == 256
    # Computed with the rule (13 replies can follow AABB; 3B1W and 1B3W cannot).
    assert sizes == [256, 256, 256, 208, 114, 96, 36, 32, 20, 16, 4, 1, 1]
    assert {CLASSIC.format_reply(code): len(group) for code, group in branches.items()} == {
        "0B0W": 256,
        "0B1W": 256,
        "1B0W": 256,
        "1B1W": 208,
        "2B0W": 114,
        "0B2W": 96,
        "1B2W": 36,
        "2B1W": 32,
        "3B0W": 20,
        "0B3W": 16,
        "2B2W": 4,
        "0B4W": 1,
        "4B0W": 1,
    }
    largest = {
        shape: max(Counter(CLASSIC.reply(shape, t) for t in CODES).values()) for shape in SHAPES
    }
    assert largest == {"AAAA": 625, "AAAB": 317, "AABB": 256, "AABC": 276, "ABCD": 312}
    assert min(largest.values()) == 256


@pytest.mark.parametrize(
    ("text", "pegs"),
    [
        ("2B1W", (2, 1)),
        ("2b 1w", (2, 1)),
        (" 2 b , 1 w ", (2, 1)),
        ("1W2B", (2, 1)),
        ("BBW", (2, 1)),
        ("bwb", (2, 1)),
        ("B B W", (2, 1)),
        ("WW", (0, 2)),
        ("2 1", (2, 1)),
        ("2,1", (2, 1)),
        ("2 , 1", (2, 1)),
        ("0 0", (0, 0)),
        ("B2W1", (2, 1)),
        ("w1b2", (2, 1)),
        ("4B", (4, 0)),
        ("3W", (0, 3)),
        ("B0", (0, 0)),
        ("0B0W", (0, 0)),
        ("4B0W", (4, 0)),
    ],
)
def test_replies_parse(text: str, pegs: tuple[int, int]) -> None:
    assert CLASSIC.parse_reply(text) == pegs[0] * 5 + pegs[1]


def test_every_possible_reply_round_trips() -> None:
    for game in (CLASSIC, Mastermind(2), Mastermind(7, 9), Mastermind(12, 26)):
        k = game.length
        codes = [b * (k + 1) + w for b in range(k + 1) for w in range(k + 1 - b)]
        codes.remove((k - 1) * (k + 1) + 1)
        assert len(codes) == game.distinct_replies
        for code in codes:
            text = game.format_reply(code)
            assert game.parse_reply(text) == code
            assert game.parse_reply(text.lower()) == code
            black, white = divmod(code, k + 1)
            assert game.parse_reply(f"{black} {white}") == code
            assert game.parse_reply("B" * black + "W" * white or "B0") == code
            assert game.parse_reply(f"B{black}W{white}") == code


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty Mastermind reply"),
        ("   ", "empty Mastermind reply"),
        ("2", "is not a count of pegs"),
        ("21", "is not a count of pegs"),
        ("2 1 0", "is not a count of pegs"),
        ("2B1X", "is not a count of pegs"),
        ("BBX", "is not a count of pegs"),
        ("2B W1", "is not a count of pegs"),  # count-first and letter-first mixed
        ("B2W", "is not a count of pegs"),
        ("-1B", "is not a count of pegs"),
        ("2.5B", "is not a count of pegs"),
        ("GGY..", "is not a count of pegs"),  # a Wordle reply
        ("\u0662B", "is not a count of pegs"),  # Arabic-Indic digit two
        ("2B3B", "gives the black pegs twice"),
        ("W1W2", "gives the white pegs twice"),
        ("5B", "make 5, but codes have only 4 pegs"),
        ("3B2W", "make 5, but codes have only 4 pegs"),
        ("0 5", "make 5, but codes have only 4 pegs"),
        ("BBBBB", "make 5, but codes have only 4 pegs"),
        ("99999999999999999999B", "but codes have only 4 pegs"),
        ("3B1W", "when 3 pegs are black the last cannot be white"),
        ("BBBW", "when 3 pegs are black the last cannot be white"),
        ("3,1", "when 3 pegs are black the last cannot be white"),
    ],
)
def test_bad_replies_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidReplyError, match=message):
        CLASSIC.parse_reply(text)


def test_impossible_replies_are_their_own_class() -> None:
    with pytest.raises(ImpossibleReplyError):
        CLASSIC.parse_reply("3B1W")
    with pytest.raises(ImpossibleReplyError):
        CLASSIC.parse_reply("0B5W")
    with pytest.raises(InvalidReplyError) as error:
        CLASSIC.parse_reply("2Q")
    assert not isinstance(error.value, ImpossibleReplyError)


@pytest.mark.parametrize(("colours", "length"), [(2, 2), (2, 4), (3, 3), (6, 4), (4, 5), (3, 6)])
def test_replies_for_a_guess_are_exactly_those_some_secret_gives(colours: int, length: int) -> None:
    game = Mastermind(length, colours)
    codes = all_codes(colours, length)
    every = [b * (length + 1) + w for b in range(length + 1) for w in range(length + 1)]
    checked = set()
    for guess in codes:
        if shape_of(guess) in checked:
            continue
        checked.add(shape_of(guess))
        occurring = {game.reply(guess, target) for target in codes}
        for code in every:
            text = game.format_reply(code)
            if code in occurring:
                assert game.parse_reply(text, guess.lower()) == code
            else:
                with pytest.raises(ImpossibleReplyError):
                    game.parse_reply(text, guess)


def test_replies_impossible_for_the_guess_name_it() -> None:
    with pytest.raises(ImpossibleReplyError, match="one colour never gets white pegs"):
        CLASSIC.parse_reply("1B1W", "AAAA")
    with pytest.raises(ImpossibleReplyError, match="for guess 'AAAB'"):
        CLASSIC.parse_reply("0B4W", "aaab")
    assert CLASSIC.parse_reply("0B4W", "AABB") == 4
    with pytest.raises(InvalidReplyError, match="is not a valid mastermind code: uses colour 'G'"):
        CLASSIC.parse_reply("1B", "ABCG")
    with pytest.raises(InvalidReplyError, match="has 5 letters, not 4"):
        CLASSIC.parse_reply("1B", "ABCDE")


def test_code_validity() -> None:
    assert CLASSIC.normalise_word(" fade ") == "FADE"
    assert CLASSIC.word_problem("ABCG") == "uses colour 'G'; this game has 6 colours A-F"
    assert CLASSIC.word_problem("abcg") == "uses colour 'G'; this game has 6 colours A-F"
    assert CLASSIC.word_problem("ABC") == "has 3 letters, not 4"
    assert CLASSIC.word_problem("AB1D") == "not made only of letters A-Z"
    assert Mastermind(4, 26).word_problem("ZZZZ") is None
    assert Mastermind(3, 2).word_problem("ABC") == "uses colour 'C'; this game has 2 colours A-B"
    with pytest.raises(InvalidWordError, match="uses colour 'H'"):
        Mastermind(5, 7).normalise_word("ABCDH")
    assert all(CLASSIC.word_problem(code) is None for code in CODES)


@pytest.mark.parametrize(
    ("length", "colours", "message"),
    [
        (4, 1, "colours must be between 2 and 26, not 1"),
        (4, 27, "colours must be between 2 and 26, not 27"),
        (4, 0, "colours must be between 2 and 26"),
        (1, 6, "word length must be between 2 and 12, not 1"),
        (13, 6, "word length must be between 2 and 12, not 13"),
    ],
)
def test_bad_games_are_refused(length: int, colours: int, message: str) -> None:
    with pytest.raises(InvalidWordError, match=message):
        Mastermind(length, colours)
    with pytest.raises(InvalidWordError, match=message):
        make_game("mastermind", length, colours)


def test_names_and_make_game() -> None:
    assert GAMES["mastermind"] is Mastermind
    assert CLASSIC.name == "mastermind"
    assert Mastermind(5, 8).name == "mastermind-8x5"
    assert Mastermind(4, 8).name == "mastermind-8x4"
    assert Mastermind(5).name == "mastermind-6x5"
    assert make_game("mastermind") == CLASSIC == Mastermind(4, 6)
    assert make_game("mastermind", 4, 6) == CLASSIC
    assert make_game("mastermind", 5) == Mastermind(5, 6)
    assert make_game("mastermind", colours=8) == Mastermind(4, 8)
    assert make_game("mastermind", 5, 8) != make_game("mastermind", 5, 7)
    # Other games keep their defaults, and refuse colours.
    assert make_game("wordle") == Wordle(5)
    assert make_game("jotto", 6).length == 6
    with pytest.raises(InvalidWordError, match="only mastermind has a number of colours"):
        make_game("wordle", 5, 6)
    assert issubclass(InvalidReplyError, GuessworkError)


def test_mastermind_is_hashable_and_frozen() -> None:
    assert len({Mastermind(), Mastermind(4, 6), Mastermind(4, 7)}) == 2
    with pytest.raises(AttributeError):
        CLASSIC.colours = 8  # type: ignore[misc]


# The policy format: the game map carries colours for Mastermind only.


@pytest.fixture(scope="module")
def jotto_policy() -> Policy:
    with open_catalog() as catalog:
        return catalog.policy("jotto-2309-hard-max")


def _game_map(core: bytes) -> dict[str, object]:
    game: dict[str, object] = msgpack.unpackb(core, raw=False)["game"]
    return game


def _with_game_map(core: bytes, game: dict[str, object]) -> bytes:
    top = msgpack.unpackb(core, raw=False)
    top["game"] = game
    packed: bytes = msgpack.packb(top, use_bin_type=True)
    return packed


def test_other_games_store_no_colours(jotto_policy: Policy) -> None:
    assert _game_map(jotto_policy.core) == {"id": "jotto", "length": 5}
    assert encode_core(jotto_policy.data) == jotto_policy.core


@pytest.mark.parametrize("game", [Mastermind(), Mastermind(5, 8), Mastermind(12, 26)])
def test_mastermind_games_round_trip(jotto_policy: Policy, game: Mastermind) -> None:
    # The Jotto tree's replies (0..5) are valid Mastermind codes: only the game matters here.
    core = encode_core(replace(jotto_policy.data, game=game))
    assert _game_map(core) == {"id": "mastermind", "length": game.length, "colours": game.colours}
    assert list(_game_map(core)) == ["id", "length", "colours"]
    decoded = decode_core(core, "test")
    assert decoded.game == game
    assert encode_core(decoded) == core


def test_stored_colours_are_checked(jotto_policy: Policy) -> None:
    core = encode_core(replace(jotto_policy.data, game=Mastermind(4, 8)))
    missing = _with_game_map(core, {"id": "mastermind", "length": 4})
    assert decode_core(missing, "test").game == Mastermind(4, 6)
    for colours in ("8", 8.0, True, [8], {"n": 8}):
        bad = _with_game_map(core, {"id": "mastermind", "length": 4, "colours": colours})
        with pytest.raises(
            PolicyFormatError, match=r"game\.colours is missing or of the wrong type"
        ):
            decode_core(bad, "test")
    for colours in (1, 27, -6):
        bad = _with_game_map(core, {"id": "mastermind", "length": 4, "colours": colours})
        with pytest.raises(PolicyFormatError, match="colours must be between 2 and 26"):
            decode_core(bad, "test")
    jotto = _with_game_map(jotto_policy.core, {"id": "jotto", "length": 5, "colours": 6})
    with pytest.raises(PolicyFormatError, match="only mastermind has a number of colours"):
        decode_core(jotto, "test")


def test_replies_of_all_pairs_of_a_small_game_match_the_format() -> None:
    game = Mastermind(3, 3)
    for guess, target in itertools.product(all_codes(3, 3), repeat=2):
        code = game.reply(guess, target)
        assert 0 <= code < game.reply_space
        assert game.parse_reply(game.format_reply(code), guess) == code
