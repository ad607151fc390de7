"""The top Spelling Bee honeycombs: the seed's points table and branch and bound,
extended to the top N honeycombs and vectorised.

The seed's ideas: a honeycomb's letters must be some pangram's letterset; a
*points table* maps each letterset to the points of all words with exactly
those letters, so a honeycomb's score is the sum over its letter subsets that
contain the centre; and *branch and bound*: a letterset's score with no centre
requirement bounds all seven of its honeycombs, so a letterset whose bound
cannot beat the N-th best score so far is skipped. Lettersets are visited in
the seed's order (first appearance in the word list), so the count of
honeycombs examined matches the seed's (every letterset's bound, plus seven
per letterset explored).

Lettersets are 26-bit masks. For every pangram letterset the points of all
its 127 letter subsets are looked up at once with numpy; each bound and each
centre's score is then a masked sum over those subsets.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from ..client.interrupt import still_wanted
from ..client.spelling_bee import (
    ALPHABET,
    MIN_WORD,
    BeeTable,
    Honeycomb,
    HoneycombSummary,
)
from .wordlists import SHIPPED, shipped_words

# SUBSETS[k, i]: does subset k (1..127) of a letterset's 7 letters include letter i?
_SUBSETS = ((np.arange(128)[:, None] >> np.arange(7)[None, :]) & 1).astype(bool)
# The seed's letter_subsets use subsets of 2 to 7 letters (a word has two or more).
_COUNTED = _SUBSETS.sum(axis=1) >= 2


@dataclass(frozen=True)
class SearchCounts:
    """The counts the seed reports for a word list."""

    valid_words: int
    pangram_words: int
    pangram_lettersets: int
    candidate_honeycombs: int
    honeycombs_examined: int


#: Words (or pangram lettersets) between two looks whether a live search is still wanted.
CHECK_EVERY = 4096
_BIT = {letter: 1 << i for i, letter in enumerate(ALPHABET)}


def points_table(words: list[str], allow_s: bool = False) -> tuple[dict[int, int], int, int]:
    """Return (letterset mask -> total points, valid words, pangram words) in one pass.

    Only valid Spelling Bee words count (client.spelling_bee rules); the table
    keeps the lettersets in order of first appearance, as the seed's dict does.
    """
    table, _, valid, pangrams = _letterset_tables(words, allow_s)
    return table, valid, pangrams


def _letterset_tables(
    words: list[str], allow_s: bool
) -> tuple[dict[int, int], dict[int, int], int, int]:
    """Return (letterset mask -> total points, letterset mask -> word count, valid
    words, pangram words), in one pass over ``words`` (see :func:`points_table`)."""
    allowed = frozenset(ALPHABET if allow_s else ALPHABET.replace("S", ""))
    table: dict[int, int] = {}
    counts: dict[int, int] = {}
    get, count_of = table.get, counts.get
    valid = pangrams = 0
    for seen, word in enumerate(words):
        if not seen % CHECK_EVERY:
            still_wanted()  # a live search whose call has ended stops (client.interrupt)
        if len(word) < MIN_WORD:
            continue
        letters = set(word.upper())
        if len(letters) > 7 or not letters <= allowed:
            continue
        key = 0
        for letter in letters:
            key |= _BIT[letter]
        pangram = len(letters) == 7
        # word_score, inlined: this loop is most of the search's time.
        points = 1 if len(word) == MIN_WORD else len(word) + (7 if pangram else 0)
        table[key] = get(key, 0) + points
        counts[key] = count_of(key, 0) + 1
        valid += 1
        pangrams += pangram
    return table, counts, valid, pangrams


def top_honeycombs(
    words: list[str], n: int = 1, allow_s: bool = False
) -> tuple[list[tuple[int, Honeycomb]], SearchCounts]:
    """Return the ``n`` best (score, honeycomb) pairs, best first, and the search counts.

    ``words`` may be any word list: only its valid Spelling Bee words count.
    Ties keep the order in which the search met them (the seed keeps the first).

    Raises:
        ValueError: ``n`` is less than 1.
    """
    table, valid, pangram_words = points_table(words, allow_s)
    return _top_of(table, valid, pangram_words, n)


def _top_of(
    table: dict[int, int], valid: int, pangram_words: int, n: int
) -> tuple[list[tuple[int, Honeycomb]], SearchCounts]:
    """Return :func:`top_honeycombs`'s answer for a points table (of ``valid`` words,
    ``pangram_words`` of them pangrams).

    Raises:
        ValueError: ``n`` is less than 1.
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    pangram_sets = np.array([key for key in table if key.bit_count() == 7], dtype=np.int64)
    keys = np.array(sorted(table), dtype=np.int64)
    values = np.array([table[key] for key in keys.tolist()], dtype=np.int64)
    # Each pangram letterset's 7 letter positions, lowest letter first (the seed's centre order).
    present = (pangram_sets[:, None] >> np.arange(26)[None, :]) & 1
    positions = np.nonzero(present)[1].reshape(-1, 7)
    bits = np.left_shift(1, positions).astype(np.int64)
    subset_masks = bits @ _SUBSETS.T.astype(np.int64)  # disjoint bits: the sum is the union
    found = np.searchsorted(keys, subset_masks).clip(max=len(keys) - 1)
    subset_points = np.where(keys[found] == subset_masks, values[found], 0) * _COUNTED
    bounds = subset_points.sum(axis=1)
    # by_center[l, i]: score of letterset l with its i-th letter as the centre.
    by_center = subset_points @ _SUBSETS.astype(np.int64)
    best: list[tuple[int, int, Honeycomb]] = []  # min-heap of (score, -order, honeycomb)
    explored = order = 0
    for index, bound in enumerate(bounds.tolist()):
        if not index % CHECK_EVERY:
            still_wanted()
        if len(best) == n and bound <= best[0][0]:
            continue
        explored += 1
        letters = "".join(ALPHABET[i] for i in positions[index].tolist())
        for position, score in enumerate(by_center[index].tolist()):
            order += 1
            entry = (score, -order, Honeycomb(letters, letters[position]))
            if len(best) < n:
                heapq.heappush(best, entry)
            elif score > best[0][0]:
                heapq.heapreplace(best, entry)
    ranked = [(score, honeycomb) for score, _, honeycomb in sorted(best, reverse=True)]
    counts = SearchCounts(
        valid_words=valid,
        pangram_words=pangram_words,
        pangram_lettersets=len(pangram_sets),
        candidate_honeycombs=7 * len(pangram_sets),
        honeycombs_examined=len(pangram_sets) + 7 * explored,
    )
    return ranked, counts


#: The shipped catalog's honeycomb tables: (word list, allow S).
DEFAULT_BEE_TABLES = (("enable1", False), ("enable1", True))
#: How many top honeycombs each stored table keeps.
DEFAULT_TOP = 50


def top_table(
    list_name: str, list_sha256: str, words: list[str], n: int, allow_s: bool
) -> BeeTable:
    """Return the table of the ``n`` best honeycombs of ``words`` (the list
    ``list_name``, whose SHA-256 is ``list_sha256``: empty for a list not stored
    as such), best first, with the search's counts.

    Raises:
        ValueError: ``n`` is less than 1.
    """
    points, word_counts, valid, pangram_words = _letterset_tables(words, allow_s)
    top, counts = _top_of(points, valid, pangram_words, n)
    rows = []
    for score, honeycomb in top:
        # Counted over the honeycomb's 127 letter subsets, not by reading every word
        # again for each row (which made a table of 1,000 rows cost 20-40 s).
        full = sum(_BIT[letter] for letter in honeycomb.letters)
        centre = _BIT[honeycomb.center]
        subsets = [mask for mask in _subset_masks(full) if mask & centre]
        made = sum(word_counts.get(mask, 0) for mask in subsets)
        rows.append(
            HoneycombSummary(
                honeycomb.letters, honeycomb.center, score, made, word_counts.get(full, 0)
            )
        )
    return BeeTable(list_name, list_sha256, allow_s, dict(counts.__dict__), tuple(rows))


def _subset_masks(letters: int) -> list[int]:
    """Return every non-empty subset of the letterset mask ``letters``."""
    subsets, subset = [], letters
    while subset:
        subsets.append(subset)
        subset = (subset - 1) & letters
    return subsets


def build_bee_table(
    list_name: str, allow_s: bool, n: int = DEFAULT_TOP
) -> tuple[BeeTable, tuple[str, ...]]:
    """Return the top-``n`` honeycomb table of a shipped word list, and the list's words.

    Raises:
        WordListError: unknown list name.
    """
    words = shipped_words(list_name)
    return top_table(list_name, SHIPPED[list_name].sha256, list(words), n, allow_s), words
