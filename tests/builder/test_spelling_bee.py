"""The top honeycombs on enable1: every Spelling Bee figure of REFERENCE.md."""

from __future__ import annotations

from itertools import combinations

import pytest

from guesswork.builder.spelling_bee import points_table, top_honeycombs
from guesswork.builder.wordlists import shipped_words
from guesswork.client.spelling_bee import Honeycomb, score_honeycomb, valid_words

ENABLE1 = list(shipped_words("enable1"))


def test_without_s() -> None:
    top, counts = top_honeycombs(ENABLE1)
    assert top == [(3898, Honeycomb("AEGINRT", "R"))]
    assert (counts.valid_words, counts.pangram_words, counts.pangram_lettersets) == (
        44_585,
        14_741,
        7_986,
    )
    assert counts.candidate_honeycombs == 55_902
    assert counts.honeycombs_examined == 8_084  # the seed's branch and bound count
    best = score_honeycomb(top[0][1], valid_words(ENABLE1))
    assert (best.score, len(best.words), len(best.pangrams)) == (3898, 537, 50)


def test_with_s() -> None:
    top, counts = top_honeycombs(ENABLE1, allow_s=True)
    assert top == [(8681, Honeycomb("AEINRST", "E"))]
    assert counts.valid_words == 98_141
    best = score_honeycomb(top[0][1], valid_words(ENABLE1, allow_s=True))
    assert (best.score, len(best.words), len(best.pangrams)) == (8681, 1179, 86)


def test_top_n_is_sorted_and_agrees_with_direct_scoring() -> None:
    top, _ = top_honeycombs(ENABLE1, n=12)
    scores = [score for score, _ in top]
    assert scores == sorted(scores, reverse=True) and len(top) == 12
    words = valid_words(ENABLE1)
    for score, honeycomb in top[:3]:
        assert score_honeycomb(honeycomb, words).score == score
    # Brute force, as the seed's top_honeycomb2: every candidate from the points table.
    table, _, _ = points_table(words)
    every = []
    for key in (k for k in table if k.bit_count() == 7):
        bits = [1 << i for i in range(26) if key >> i & 1]
        subsets = [sum(c) for n in range(2, 8) for c in combinations(bits, n)]
        for center in bits:
            every.append(sum(table.get(s, 0) for s in subsets if s & center))
    assert sorted(every, reverse=True)[:12] == scores


def test_the_mini_list_and_bad_n() -> None:
    mini = "amalgam amalgamation cacciatore erotica em game gem gems glam megaplex".upper().split()
    table, valid, pangrams = points_table(mini)
    assert (valid, pangrams) == (6, 3)
    assert sorted(table.values()) == [1, 8, 15, 31]
    # Every centre of ACEIORT scores 31. The seed's branch and bound keeps the first
    # it meets (A); its brute-force max() would pick the largest tuple (T).
    top, _ = top_honeycombs(mini, n=7)
    assert top[0] == (31, Honeycomb("ACEIORT", "A"))
    assert {honeycomb.center for score, honeycomb in top} == set("ACEIORT")
    with pytest.raises(ValueError, match="at least 1"):
        top_honeycombs(mini, n=0)
