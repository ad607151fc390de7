"""Tests for client.replies: parsing and formatting Wordle and Jotto replies."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guesswork.client import replies
from guesswork.client.errors import GuessworkError, InvalidReplyError
from guesswork.client.games import GREEN, MISS, YELLOW, Wordle, wordle_reply
from guesswork.client.replies import STYLES, format_colours, parse_colours, parse_count, parse_share

G, Y, M = GREEN, YELLOW, MISS
GREEN_SQ, YELLOW_SQ, BLACK_SQ, WHITE_SQ = "\U0001f7e9", "\U0001f7e8", "\u2b1b", "\u2b1c"
ORANGE_SQ, BLUE_SQ = "\U0001f7e7", "\U0001f7e6"
VS16, ZWJ = "\ufe0f", "\u200d"


def test_colour_values_match_games() -> None:
    assert (replies.MISS, replies.YELLOW, replies.GREEN) == (MISS, YELLOW, GREEN)


def test_error_is_a_value_error() -> None:
    assert issubclass(InvalidReplyError, ValueError)
    assert issubclass(InvalidReplyError, GuessworkError)


# --- parse_colours: accepted forms -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Y.G..",
        "y.g..",
        "Y-G--",
        "Y_G__",
        "ybgbb",
        "YBGBB",
        "yxgxx",
        "10200",
        "  Y . G . .  ",
        "\tY.G..\n",
        YELLOW_SQ + BLACK_SQ + GREEN_SQ + BLACK_SQ + BLACK_SQ,
        YELLOW_SQ + WHITE_SQ + GREEN_SQ + WHITE_SQ + WHITE_SQ,
        BLUE_SQ + BLACK_SQ + ORANGE_SQ + BLACK_SQ + BLACK_SQ,
        YELLOW_SQ + BLACK_SQ + VS16 + GREEN_SQ + ZWJ + BLACK_SQ + VS16 + " " + BLACK_SQ,
        "1b2.x",  # notations may be mixed
    ],
)
def test_parse_colours_forms(text: str) -> None:
    assert parse_colours(text, 5) == (Y, M, G, M, M)


def test_parse_colours_other_lengths() -> None:
    assert parse_colours("GGG", 3) == (G, G, G)
    assert parse_colours("." * 15, 15) == (M,) * 15
    assert parse_colours("yy", 2) == (Y, Y)


def test_parse_colours_with_guess_accepts_nyt_examples() -> None:
    # The rule's own example: NINNY against ANNEX.
    assert parse_colours("Y.G..", 5, "NINNY") == wordle_reply("NINNY", "ANNEX")
    assert parse_colours("GGGGG", 5, "crane") == (G,) * 5
    assert parse_colours("yy...", 5, " llama ") == (Y, Y, M, M, M)  # target e.g. "XXLLX"


# --- parse_colours: errors ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", VS16 + ZWJ])
def test_parse_colours_empty(text: str) -> None:
    with pytest.raises(InvalidReplyError, match="empty reply"):
        parse_colours(text, 5)


def test_parse_colours_unknown_character_names_it_and_its_position() -> None:
    with pytest.raises(InvalidReplyError) as info:
        parse_colours("GY Q..", 5)
    message = str(info.value)
    assert "'Q' at position 3 is not a reply colour" in message
    assert "G/Y/." in message and "\n" not in message


def test_parse_colours_unknown_emoji_is_named() -> None:
    red = "\U0001f7e5"
    with pytest.raises(InvalidReplyError, match=r"LARGE RED SQUARE.*position 2"):
        parse_colours(GREEN_SQ + red + GREEN_SQ * 3, 5)


@pytest.mark.parametrize("text, count", [("GY.", 3), ("GY...G", 6), ("2 1 0 0 0 0 0", 7)])
def test_parse_colours_wrong_length(text: str, count: int) -> None:
    with pytest.raises(InvalidReplyError) as info:
        parse_colours(text, 5)
    assert f"has {count} positions, but words have 5 letters" in str(info.value)


def test_parse_colours_wrong_guess_length() -> None:
    with pytest.raises(InvalidReplyError, match="guess 'CRANES' has 6 letters, but words have 5"):
        parse_colours(".....", 5, "CRANES")


@pytest.mark.parametrize("text", ["GGGGY", "ygggg", "GG1GG", "22221"])
def test_parse_colours_one_yellow_among_greens_is_impossible(text: str) -> None:
    with pytest.raises(InvalidReplyError) as info:
        parse_colours(text, 5)
    assert "impossible reply" in str(info.value)
    assert "when 4 letters are green the other letter cannot be yellow" in str(info.value)


def test_parse_colours_miss_before_yellow_of_same_letter() -> None:
    with pytest.raises(InvalidReplyError) as info:
        parse_colours(".Y...", 5, "llama")
    assert str(info.value) == (
        "impossible reply '.Y...' for guess 'LLAMA': the L at position 1 is a miss, "
        "so the L at position 2 cannot be yellow"
    )


def test_parse_colours_miss_before_yellow_ignores_greens() -> None:
    # The green A at position 3 is matched first, so ".YG" stays impossible ...
    with pytest.raises(InvalidReplyError, match="A at position 1 is a miss"):
        parse_colours(".YG", 3, "AAA")
    # ... while a yellow before a miss is fine: "AAB" vs "ZZA" gives "Y..".
    assert parse_colours("Y..", 3, "AAB") == wordle_reply("AAB", "ZZA")


def test_parse_colours_yellow_with_no_room() -> None:
    # Two yellow A's, but the only open position without an A in the guess is the B.
    with pytest.raises(InvalidReplyError) as info:
        parse_colours("YY.", 3, "AAB")
    message = str(info.value)
    assert message.startswith("impossible reply 'YY.' for guess 'AAB': ")
    assert "no room for the A that makes position 2 yellow" in message


def test_parse_colours_yellows_compete_for_positions() -> None:
    # Positions 1 and 2 (A, B) are the only open ones; both yellows need position 3.
    with pytest.raises(InvalidReplyError, match="no room for the"):
        parse_colours("YYY", 3, "AAB")
    # Both yellow A's first want position 3, so the matching must move one to 4.
    assert parse_colours("YY..", 4, "AAXB") == wordle_reply("AAXB", "ZZAA")


# --- the impossibility rule agrees with Wordle itself --------------------------------------


@cache
def reachable(guess: str) -> frozenset[tuple[int, ...]]:
    """Return every reply ``guess`` can get; 'Z' stands for any letter not in the guess."""
    letters = [*sorted(set(guess)), "Z"]
    return frozenset(
        wordle_reply(guess, "".join(target))
        for target in itertools.product(letters, repeat=len(guess))
    )


def accepted(colours: tuple[int, ...], guess: str) -> bool:
    try:
        assert parse_colours(format_colours(colours, "letters"), len(guess), guess) == colours
    except InvalidReplyError:
        return False
    return True


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["ABC", "ABCD"]).flatmap(
        lambda alphabet: st.integers(3, 5).flatmap(
            lambda n: st.text(alphabet, min_size=n, max_size=n)
        )
    )
)
def test_accepted_iff_some_target_gives_it(guess: str) -> None:
    possible = reachable(guess)
    for colours in itertools.product((MISS, YELLOW, GREEN), repeat=len(guess)):
        assert accepted(colours, guess) == (colours in possible), (guess, colours)


def test_accepted_iff_some_target_gives_it_exhaustive_small() -> None:
    for guess in map("".join, itertools.product("ABC", repeat=3)):
        for colours in itertools.product((MISS, YELLOW, GREEN), repeat=3):
            assert accepted(colours, guess) == (colours in reachable(guess)), (guess, colours)


def test_without_guess_only_one_yellow_among_greens_is_refused() -> None:
    # The games module counts 3**k - k possible replies; the parser must agree.
    game = Wordle(length=4)
    refused = 0
    for colours in itertools.product((MISS, YELLOW, GREEN), repeat=4):
        try:
            parse_colours(format_colours(colours, "digits"), 4)
        except InvalidReplyError:
            refused += 1
    assert 3**4 - refused == game.distinct_replies


# --- format_colours ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "style, text",
    [
        ("letters", "Y.G.."),
        ("gyb", "ybgbb"),
        ("gyx", "yxgxx"),
        ("digits", "10200"),
        ("emoji", YELLOW_SQ + BLACK_SQ + GREEN_SQ + BLACK_SQ + BLACK_SQ),
        ("emoji-light", YELLOW_SQ + WHITE_SQ + GREEN_SQ + WHITE_SQ + WHITE_SQ),
        ("emoji-contrast", BLUE_SQ + BLACK_SQ + ORANGE_SQ + BLACK_SQ + BLACK_SQ),
    ],
)
def test_format_colours(style: str, text: str) -> None:
    assert format_colours((Y, M, G, M, M), style) == text


def test_styles_lists_every_style() -> None:
    assert STYLES == ("letters", "gyb", "gyx", "digits", "emoji", "emoji-light", "emoji-contrast")


def test_format_colours_unknown_style() -> None:
    with pytest.raises(InvalidReplyError) as info:
        format_colours((G, G), "morse")
    assert isinstance(info.value, ValueError)
    assert "unknown reply style 'morse'" in str(info.value)
    assert all(style in str(info.value) for style in STYLES)


def test_format_colours_rejects_non_colours() -> None:
    with pytest.raises(InvalidReplyError, match="3 is not a colour"):
        format_colours((G, 3), "letters")


@given(
    st.lists(st.sampled_from((MISS, YELLOW, GREEN)), min_size=2, max_size=15).map(tuple),
    st.sampled_from(STYLES),
)
def test_every_style_parses_back(colours: tuple[int, ...], style: str) -> None:
    text = format_colours(colours, style)
    if [c for c in colours if c != GREEN] == [YELLOW]:
        with pytest.raises(InvalidReplyError, match="impossible reply"):
            parse_colours(text, len(colours))
    else:
        assert parse_colours(text, len(colours)) == colours


# --- parse_count ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, count",
    [("0", 0), ("3", 3), (" 5 ", 5), ("3 right", 3), ("3 letters", 3), ("2 in common", 2)],
)
def test_parse_count(text: str, count: int) -> None:
    assert parse_count(text, 5) == count


def test_parse_count_too_large() -> None:
    with pytest.raises(InvalidReplyError) as info:
        parse_count("7", 5)
    assert str(info.value) == "Jotto reply '7' is impossible: words have only 5 letters"


def test_parse_count_negative() -> None:
    with pytest.raises(InvalidReplyError, match="'-1' is impossible: counts cannot be negative"):
        parse_count("-1", 5)


@pytest.mark.parametrize("text", ["three", "3.5", "3/5", "x3", "3right", "3 letters!"])
def test_parse_count_not_a_count(text: str) -> None:
    with pytest.raises(InvalidReplyError, match=f"{text!r} is not a count"):
        parse_count(text, 5)


def test_parse_count_empty() -> None:
    with pytest.raises(InvalidReplyError, match="empty Jotto reply"):
        parse_count("  ", 5)


# --- parse_share ------------------------------------------------------------------------

SHARE = (
    "Wordle 1,234 4/6*\n"
    "\n"
    f"{BLACK_SQ}{YELLOW_SQ}{BLACK_SQ}{BLACK_SQ}{BLACK_SQ}\n"
    f"{GREEN_SQ}{BLACK_SQ}{YELLOW_SQ}{BLACK_SQ}{BLACK_SQ}\n"
    f"{GREEN_SQ}{GREEN_SQ}{GREEN_SQ}{BLACK_SQ}{GREEN_SQ}\n"
    f"{GREEN_SQ}{GREEN_SQ}{GREEN_SQ}{GREEN_SQ}{GREEN_SQ}\n"
)
SHARE_ROWS = [(M, Y, M, M, M), (G, M, Y, M, M), (G, G, G, M, G), (G, G, G, G, G)]


def test_parse_share() -> None:
    assert parse_share(SHARE) == SHARE_ROWS


def test_parse_share_light_and_contrast_with_selectors_and_trailer() -> None:
    text = (
        f"Wordle 1,234 2/6\r\n\r\n"
        f"{WHITE_SQ}{VS16}{BLUE_SQ}{ORANGE_SQ}{WHITE_SQ}{VS16}{WHITE_SQ}{VS16}\r\n"
        f"{ORANGE_SQ * 5}\r\n\r\nhttps://www.nytimes.com/games/wordle 1/2/2024\r\n"
    )
    assert parse_share(text) == [(M, Y, G, M, M), (G,) * 5]


def test_parse_share_without_header_and_other_length() -> None:
    assert parse_share(f"{GREEN_SQ * 6}", length=6) == [(G,) * 6]


def test_parse_share_lost_game() -> None:
    row = BLACK_SQ * 5 + "\n"
    assert parse_share("Wordle 1,235 X/6\n\n" + row * 6) == [(M,) * 5] * 6
    with pytest.raises(InvalidReplyError, match=r"X/6 \(a lost game, so 6 rows\).* 5 rows"):
        parse_share("Wordle 1,235 X/6\n\n" + row * 5)


def test_parse_share_count_mismatch() -> None:
    with pytest.raises(InvalidReplyError) as info:
        parse_share(SHARE.replace("4/6", "3/6"))
    assert str(info.value) == "share header says 3/6, but the text has 4 rows of squares"


def test_parse_share_no_rows() -> None:
    with pytest.raises(InvalidReplyError, match="no rows of coloured squares"):
        parse_share("Wordle 1,234 4/6*\n\n")


def test_parse_share_bad_row_names_the_line() -> None:
    text = SHARE.replace(GREEN_SQ * 5, GREEN_SQ * 4)
    with pytest.raises(InvalidReplyError, match=r"share text line 6: .*4 positions"):
        parse_share(text)
    with pytest.raises(InvalidReplyError, match=r"share text line 3: .*'Q' at position 6"):
        parse_share(SHARE.replace(f"{BLACK_SQ}\n", f"{BLACK_SQ} Q\n", 1))


# --- through the game objects -----------------------------------------------------------


def test_wordle_game_uses_the_parser() -> None:
    game = Wordle()
    assert game.parse_reply("Y.G..", "NINNY") == game.reply("NINNY", "ANNEX")
    assert game.format_reply(game.win_reply, "emoji") == GREEN_SQ * 5
    with pytest.raises(InvalidReplyError):
        game.parse_reply("GGGGY")
