"""Spelling Bee rules: the seed's mini list, scores, honeycomb errors, ranks, hints."""

from __future__ import annotations

import pytest

from guesswork.client.spelling_bee import (
    Honeycomb,
    InvalidHoneycombError,
    hints,
    letterset,
    make_honeycomb,
    rank_thresholds,
    score_honeycomb,
    valid_words,
    word_score,
)

MINI = valid_words(
    [
        "amalgam",
        "amalgamation",
        "cacciatore",
        "erotica",
        "em",
        "game",
        "gem",
        "gems",
        "glam",
        "megaplex",
    ]
)


def test_the_seeds_mini_list() -> None:
    assert MINI == ["AMALGAM", "CACCIATORE", "EROTICA", "GAME", "GLAM", "MEGAPLEX"]
    assert letterset("AMALGAM") == letterset("GLAM") == "AGLM"
    assert make_honeycomb("megaplex"[:0] + "AEGLMPX", "g") == Honeycomb("AEGLMPX", "G")
    assert [word_score(w) for w in MINI] == [7, 17, 14, 1, 1, 15]
    best = score_honeycomb(Honeycomb("ACEIORT", "T"), MINI)
    assert (best.score, best.words, best.pangrams) == (
        31,
        ("CACCIATORE", "EROTICA"),
        ("CACCIATORE", "EROTICA"),
    )
    assert best.groups == {"ACEIORT": ("CACCIATORE", "EROTICA")}


def test_s_words_need_permission() -> None:
    assert valid_words(["gems", "games"]) == []
    assert valid_words(["gems", "games"], allow_s=True) == ["GEMS", "GAMES"]


@pytest.mark.parametrize(
    ("letters", "center", "allow_s", "message"),
    [
        ("AEGLMPA", "G", False, "repeats A"),
        ("AEGLMP", "G", False, "7 letters, not 6"),
        ("AEGLMPXZ", "G", False, "7 letters, not 8"),
        ("AEGLMPX", "Z", False, "centre 'Z' must be one of the letters"),
        ("AEGLMPX", "GL", False, "must be one of the letters"),
        ("AEGLMPS", "G", False, "has an S, which is excluded"),
        ("AEG1MPX", "G", False, "letters A-Z only"),
    ],
)
def test_bad_honeycombs(letters: str, center: str, allow_s: bool, message: str) -> None:
    with pytest.raises(InvalidHoneycombError, match=message):
        make_honeycomb(letters, center, allow_s)


def test_s_honeycomb_allowed_when_asked() -> None:
    assert make_honeycomb("aeinrst", "e", allow_s=True) == Honeycomb("AEINRST", "E")


def test_rank_thresholds_follow_the_nyt_fractions() -> None:
    ranks = rank_thresholds(3898)
    assert ranks["Beginner"] == 0 and ranks["Queen Bee"] == 3898
    assert ranks["Genius"] == round(0.7 * 3898) == 2729
    assert ranks["Good Start"] == 78 and ranks["Solid"] == 585
    assert list(ranks) == [
        "Beginner",
        "Good Start",
        "Moving Up",
        "Good",
        "Solid",
        "Nice",
        "Great",
        "Amazing",
        "Genius",
        "Queen Bee",
    ]


def test_hint_tables() -> None:
    words = valid_words(["game", "gamma", "mega", "magma", "agama", "emmeg"])
    result = score_honeycomb(Honeycomb("AEGLMPX", "G"), words)
    tables = hints(result)
    assert tables.grid == {"A": {5: 1}, "E": {5: 1}, "G": {4: 1, 5: 1}, "M": {4: 1, 5: 1}}
    assert tables.two_letter == {"AG": 1, "EM": 1, "GA": 2, "MA": 1, "ME": 1}
