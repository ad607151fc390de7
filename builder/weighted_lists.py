"""Weighted word lists for Guess My Word: words in alphabetical order with counts.

The shipped list (``builder/data/guess_my_word/common-words.txt``) comes from
``guesswork-build gmw-list`` (builder/gmw_list.py; wordfreq, an optional extra); its SHA-256 and
size are checked on every load so it never changes silently.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ..client.errors import GuessworkError
from ..client.text import plural
from .errors import WeightedListError

#: Counts add up in int64 arrays and become float64 probabilities; below
#: 2**53 both are exact.
MAX_TOTAL_COUNT = 2**53

_DATA_PACKAGE = "guesswork.builder.data.guess_my_word"
#: The shipped list: file, word count and SHA-256 of the file's bytes, checked
#: on every load so that it never changes silently (regenerate it with
#: guesswork-build gmw-list and update these together).
SHIPPED_LIST = (
    "common-words.txt",
    4788,
    "64e16caba9ae35216fdc7e030094a0b7ce05e27a8b5f73d10b6cd551fe1907b6",
)


# ---------------------------------------------------------------- weighted lists


def _word_problem(word: str) -> str | None:
    """Return why ``word`` cannot be in a weighted list, or None if it can."""
    if not word:
        return "is empty"
    if not (word.isascii() and word.isalpha() and word.islower()):
        return "is not made only of lower-case letters a-z"
    return None


@dataclass(frozen=True)
class WeightedList:
    """Words in strictly increasing alphabetic order, each with a positive integer count.

    Raises (on construction):
        WeightedListError: no words, lengths differ, a word is not lower-case
            a-z, the words are not strictly increasing (unsorted or repeated),
            a count is not a positive integer, or the counts add up to
            :data:`MAX_TOTAL_COUNT` or more.
    """

    words: tuple[str, ...]
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        # Lists would compare unequal to the tuples of a tree's words.
        object.__setattr__(self, "words", tuple(self.words))
        object.__setattr__(self, "counts", tuple(self.counts))
        if not self.words:
            raise WeightedListError("a weighted word list needs at least one word")
        if len(self.words) != len(self.counts):
            raise WeightedListError(
                f"{plural(len(self.words), 'word')} but {plural(len(self.counts), 'count')}; "
                "they must pair up"
            )
        for i, (word, count) in enumerate(zip(self.words, self.counts, strict=True)):
            problem = _word_problem(word)
            if problem is not None:
                raise WeightedListError(f"word {i} {word!r} {problem}")
            if i and word <= self.words[i - 1]:
                order = "repeats" if word == self.words[i - 1] else "comes before"
                raise WeightedListError(
                    f"word {i} {word!r} {order} word {i - 1} {self.words[i - 1]!r}: "
                    f"words must be unique and sorted (WeightedList.from_counts sorts)"
                )
            # bool is an int subclass, but True is no count.
            if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
                raise WeightedListError(
                    f"count of {word!r} must be a positive integer, not {count!r}"
                )
        if sum(self.counts) >= MAX_TOTAL_COUNT:
            raise WeightedListError("counts add up to 2**53 or more; scale them down")

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> WeightedList:
        """Return the list of ``counts``' words in alphabetic order with their counts.

        Raises:
            WeightedListError: as for the constructor.
        """
        words = tuple(sorted(counts))
        return cls(words, tuple(counts[word] for word in words))

    def __len__(self) -> int:
        return len(self.words)

    @property
    def total(self) -> int:
        """Return the sum of the counts."""
        return sum(self.counts)

    def count_array(self) -> np.ndarray:
        """Return the counts as an int64 array, in word order."""
        return np.array(self.counts, dtype=np.int64)

    def probabilities(self) -> np.ndarray:
        """Return each word's probability of being the target, in word order."""
        counts = self.count_array()
        return np.asarray(counts / counts.sum(), dtype=np.float64)


def count_lines(
    lines: Iterable[str], source: str, error: type[Exception], expected: str = "word count"
) -> Iterator[tuple[int, str, str, str]]:
    """Yield ``(line number, "SOURCE line N", word, count)`` for each line of two
    fields, as written; blank lines and ``#`` comments (whole or trailing) are skipped.

    Shared by the readers of ``word count`` files (this module's and builder.priors').

    Raises:
        error: a line that is not two fields, naming ``source``, the line and
            ``expected`` (the fields' names, e.g. ``word count``).
    """
    for number, line in enumerate(lines, start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{source} line {number}"
        if len(fields) != 2:
            raise error(f"{where}: expected {expected!r}, got {line.strip()!r}")
        yield number, where, fields[0], fields[1]


def is_positive_count(text: str) -> bool:
    """Return whether ``text`` is a positive integer in plain ASCII digits.

    int() would also accept ``+3``, `` 3``, ``3_000`` and other scripts' digits;
    a count is none of those.
    """
    return text.isascii() and text.isdigit() and int(text) > 0


def parse_weighted_list(lines: Iterable[str], source: str = "<lines>") -> WeightedList:
    """Return the weighted list written as ``word count`` lines.

    Words are lower-cased and may come in any order; blank lines and ``#``
    comments are ignored.

    Raises:
        WeightedListError: a line that is not ``word count``, a word that is not
            letters a-z, a count that is not a positive integer, a repeated word
            (naming both lines), or no words at all. The message names
            ``source`` and the line.
    """
    counts: dict[str, int] = {}
    first_line: dict[str, int] = {}
    for number, where, written, count_text in count_lines(lines, source, WeightedListError):
        word = written.lower()
        problem = _word_problem(word)
        if problem is not None:
            raise WeightedListError(f"{where}: word {written!r} {problem}")
        if not is_positive_count(count_text):
            raise WeightedListError(
                f"{where}: count {count_text!r} of {word!r} is not a positive integer"
            )
        if word in counts:
            raise WeightedListError(f"{where}: {word!r} repeats line {first_line[word]}")
        counts[word] = int(count_text)
        first_line[word] = number
    if not counts:
        raise WeightedListError(f"{source}: no 'word count' lines")
    try:
        return WeightedList.from_counts(counts)
    except WeightedListError as error:  # only the total can still be wrong
        raise WeightedListError(f"{source}: {error}") from None


def read_utf8(path: str | Path, what: str, error: type[GuessworkError]) -> str:
    """Return the UTF-8 text of the file at ``path``, a ``what`` (e.g. "prior").

    Raises:
        ``error``: the file does not exist, cannot be read or is not UTF-8; the
            message names ``what`` and the path.
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} {str(path)!r} does not exist") from None
    except UnicodeDecodeError:
        raise error(f"{what} {str(path)!r} is not UTF-8 text") from None
    except OSError as problem:
        raise error(f"cannot read {what} {str(path)!r}: {problem.strerror}") from None


def load_weighted_list(path: str | Path) -> WeightedList:
    """Return the weighted list in the text file at ``path`` (see :func:`parse_weighted_list`).

    Raises:
        WeightedListError: the file cannot be read, is not UTF-8, or is malformed.
    """
    text = read_utf8(path, "weighted word list", WeightedListError)
    return parse_weighted_list(text.splitlines(), str(path))


def shipped_weighted_list() -> WeightedList:
    """Return the shipped list (common English words weighted by wordfreq frequency).

    Raises:
        WeightedListError: the shipped file does not match its registered
            size and SHA-256 (a damaged installation).
    """
    name, count, sha256 = SHIPPED_LIST
    raw = resources.files(_DATA_PACKAGE).joinpath(name).read_bytes()
    if hashlib.sha256(raw).hexdigest() != sha256:
        raise WeightedListError(
            f"shipped list {name} does not match its registered SHA-256; reinstall the package"
        )
    weights = parse_weighted_list(raw.decode("ascii").splitlines(), name)
    if len(weights) != count:
        raise WeightedListError(
            f"shipped list {name} has {plural(len(weights), 'word')}, not {count}"
        )
    return weights
