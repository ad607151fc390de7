"""Spelling Bee rules: honeycombs, valid words, scores, ranks and hint tables.

A honeycomb is seven distinct letters, one of them the centre. A word counts
for it when it has at least four letters, uses only the honeycomb's letters
and contains the centre. A four-letter word scores 1, a longer word its
length, and a *pangram* (all seven letters) 7 more. As in the seed, S is
excluded unless allowed, and a valid honeycomb makes at least one pangram.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from .errors import InvalidHoneycombError
from .text import shown

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MIN_WORD = 4

#: NYT ranks: the fraction of the puzzle's maximum score each one needs.
RANKS: tuple[tuple[str, float], ...] = (
    ("Beginner", 0.0),
    ("Good Start", 0.02),
    ("Moving Up", 0.05),
    ("Good", 0.08),
    ("Solid", 0.15),
    ("Nice", 0.25),
    ("Great", 0.40),
    ("Amazing", 0.50),
    ("Genius", 0.70),
    ("Queen Bee", 1.0),
)


def letterset(word: str) -> str:
    """Return the distinct letters of ``word``, sorted (the seed's Letterset)."""
    return "".join(sorted(set(word)))


def is_valid_word(word: str, allow_s: bool = False) -> bool:
    """Return True if ``word`` (upper case) can be a Spelling Bee word at all."""
    return (
        len(word) >= MIN_WORD
        and word.isascii()
        and word.isalpha()
        and word.isupper()
        and (allow_s or "S" not in word)
        and len(set(word)) <= 7
    )


def is_pangram(word: str) -> bool:
    """Return True if ``word`` uses seven distinct letters."""
    return len(set(word)) == 7


def word_score(word: str) -> int:
    """Return a word's points: 1 for four letters, else its length, +7 for a pangram."""
    return (1 if len(word) == MIN_WORD else len(word)) + (7 if is_pangram(word) else 0)


def valid_words(words: Iterable[str], allow_s: bool = False) -> list[str]:
    """Return the valid Spelling Bee words of ``words`` (upper-cased), in order."""
    allowed = frozenset(ALPHABET if allow_s else ALPHABET.replace("S", ""))
    kept = []
    for word in words:
        upper = word.upper()
        if len(upper) >= MIN_WORD:
            letters = set(upper)
            if len(letters) <= 7 and letters <= allowed:
                kept.append(upper)
    return kept


@dataclass(frozen=True, order=True)
class Honeycomb:
    """Seven distinct letters (sorted) and the centre letter."""

    letters: str
    center: str

    def can_make(self, word: str) -> bool:
        """Return True if ``word`` contains the centre and only honeycomb letters."""
        return self.center in word and set(word) <= set(self.letters)


def make_honeycomb(letters: str, center: str, allow_s: bool = False) -> Honeycomb:
    """Return the honeycomb of ``letters`` (any order and case) and ``center``.

    Raises:
        InvalidHoneycombError: not 7 letters, a repeated letter, a non-letter,
            a centre not among the letters, or an S when S is excluded.
    """
    upper, middle = letters.strip().upper(), center.strip().upper()
    if not upper.isascii() or not upper.isalpha():
        raise InvalidHoneycombError(
            f"honeycomb {shown(letters)} must be letters A-Z only", metadata={"field": "letters"}
        )
    if len(upper) != 7:
        raise InvalidHoneycombError(
            f"a honeycomb has 7 letters, not {len(upper)} ({upper})", metadata={"field": "letters"}
        )
    repeated = sorted(letter for letter, n in Counter(upper).items() if n > 1)
    if repeated:
        raise InvalidHoneycombError(
            f"honeycomb {upper} repeats {', '.join(repeated)}", metadata={"field": "letters"}
        )
    if len(middle) != 1 or middle not in upper:
        raise InvalidHoneycombError(
            f"the centre {shown(center)} must be one of the letters {upper}",
            metadata={"field": "center"},
        )
    if "S" in upper and not allow_s:
        raise InvalidHoneycombError(
            f"honeycomb {upper} has an S, which is excluded (allow S)",
            metadata={"field": "letters"},
        )
    return Honeycomb(letterset(upper), middle)


def rank_thresholds(maximum: int) -> dict[str, int]:
    """Return rank name -> points needed, for a puzzle worth ``maximum`` points."""
    return {name: round(fraction * maximum) for name, fraction in RANKS}


@dataclass(frozen=True)
class HoneycombScore:
    """Everything a honeycomb makes from a word list."""

    honeycomb: Honeycomb
    score: int
    words: tuple[str, ...]
    pangrams: tuple[str, ...]
    #: letterset -> the words with exactly those letters, as the seed's report groups them.
    groups: dict[str, tuple[str, ...]] = field(repr=False)

    @property
    def ranks(self) -> dict[str, int]:
        """Return the NYT rank thresholds in points."""
        return rank_thresholds(self.score)


def score_honeycomb(honeycomb: Honeycomb, words: Iterable[str]) -> HoneycombScore:
    """Return the score, words, pangrams and letterset groups of ``honeycomb``."""
    made = sorted(word for word in words if honeycomb.can_make(word))
    groups: dict[str, list[str]] = defaultdict(list)
    for word in made:
        groups[letterset(word)].append(word)
    return HoneycombScore(
        honeycomb=honeycomb,
        score=sum(map(word_score, made)),
        words=tuple(made),
        pangrams=tuple(word for word in made if is_pangram(word)),
        groups={key: tuple(group) for key, group in sorted(groups.items())},
    )


@dataclass(frozen=True)
class Hints:
    """The hint tables players use for a honeycomb."""

    #: first letter -> word length -> number of words.
    grid: dict[str, dict[int, int]]
    #: two-letter start -> number of words.
    two_letter: dict[str, int]


def hints(result: HoneycombScore) -> Hints:
    """Return the hint tables: words by first letter and length, and two-letter starts."""
    grid: dict[str, dict[int, int]] = defaultdict(dict)
    for word in result.words:
        row = grid[word[0]]
        row[len(word)] = row.get(len(word), 0) + 1
    starts = Counter(word[:2] for word in result.words)
    return Hints(
        grid={letter: dict(sorted(row.items())) for letter, row in sorted(grid.items())},
        two_letter=dict(sorted(starts.items())),
    )


@dataclass(frozen=True)
class HoneycombSummary:
    """A honeycomb's totals over a word list, as top tables rank them."""

    letters: str
    center: str
    score: int
    #: How many words it makes, and how many of them are pangrams.
    words: int
    pangrams: int


@dataclass(frozen=True)
class BeeTable:
    """A table of a word list's top honeycombs, best first, with the search's counts
    (stored in a catalog, or searched live: then ``list_sha256`` is empty)."""

    list_name: str
    list_sha256: str
    allow_s: bool
    counts: dict[str, int]
    top: tuple[HoneycombSummary, ...]

    @property
    def key(self) -> str:
        """Return the table's catalog key, e.g. ``enable1/no-s``."""
        return f"{self.list_name}/{'s' if self.allow_s else 'no-s'}"

    def payload(self) -> str:
        """Return the canonical JSON stored in the catalog."""
        return json.dumps(
            {"counts": self.counts, "top": [asdict(row) for row in self.top]},
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def from_payload(
        cls, list_name: str, list_sha256: str, allow_s: bool, payload: str
    ) -> BeeTable:
        """Return the table stored as ``payload``.

        Raises:
            ValueError: the payload is not a table (JSON or shape).
        """
        data = json.loads(payload)
        top = data["top"]
        fields = {"letters": str, "center": str, "score": int, "words": int, "pangrams": int}
        if (
            not isinstance(data["counts"], dict)
            or not isinstance(top, list)
            or not all(
                isinstance(row, dict)
                and row.keys() == fields.keys()
                and all(type(row[k]) is t for k, t in fields.items())
                for row in top
            )
        ):
            raise ValueError("malformed honeycomb table")
        rows = tuple(HoneycombSummary(**row) for row in top)
        return cls(list_name, list_sha256, allow_s, dict(data["counts"]), rows)
