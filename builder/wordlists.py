"""Word lists: the shipped, registered lists and users' own lists.

A :class:`WordList` is an ordered tuple of upper-case words with a name and the
SHA-256 of its normalised content (the words joined by newlines, with a final
newline, in UTF-8: A-Z lists are the ASCII bytes they always were). Order
matters: the seeds break ties by list order.

Shipped lists are registered with their hash and count, and every load checks
both, so a seed list can never change silently. A user's list (a path, or
``-`` for standard input) may use any alphabet: each entry is put in NFC and
upper case, its accents folded or kept by a letter rule (client.letters:
``--language`` and ``--fold-accents``); entries that are not valid for the
game are reported by line, never silently dropped (see :class:`LoadReport`
and :func:`load_wordlist`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from ..client.games import Game, Jotto
from ..client.letters import KEEP_ACCENTS, LetterRule, upper_word
from ..client.text import plural
from .errors import WordListError

_DATA_PACKAGE = "guesswork.builder.data.wordlists"


@dataclass(frozen=True)
class ShippedList:
    """A word list shipped with the builder: file name, hash and word count."""

    file: str
    sha256: str
    count: int
    #: True for dictionaries of many word lengths (enable1): a game takes only
    #: its own length from them instead of refusing the other lengths.
    mixed_lengths: bool = False
    #: For an official list: the date it took effect (ISO), or "" when not dated.
    as_of: str = ""


SHIPPED: dict[str, ShippedList] = {
    "wordle-answers-2309": ShippedList(
        "wordle-answers-2309.txt",
        "66d2f19d4543833517c79aafa44a6582251c21618157bffcd9e453daf405d4ff",
        2309,
    ),
    "wordle-answers-2315": ShippedList(
        "wordle-answers-2315.txt",
        "9b31fd85051e0db5765a9bb94a3df0866bccb71f3984d17d646e4bb6d5d39ead",
        2315,
    ),
    "wordle-guesses-12972": ShippedList(
        "wordle-guesses-12972.txt",
        "1189f6673121519ae859d9e7009ab710d00584789a1825a8ca76c8691d0f2bac",
        12972,
    ),
    # The NYT's lists today (alex1770/wordle's wordlist_nyt20230701_hidden and
    # wordlist_all): the answers as of 2023-07-01 and the guesses allowed
    # since 2022-08-30.
    "wordle-answers-3158": ShippedList(
        "wordle-answers-3158.txt",
        "56bf0c5c782ccc6a9877232af98882e6717bfbd8b5258f502f4e45d73bfc563e",
        3158,
        as_of="2023-07-01",
    ),
    "wordle-guesses-14855": ShippedList(
        "wordle-guesses-14855.txt",
        "48f15a8b12abdb143d74c20dbbed7e6535e7e7d87e2728067bbe3584b5ed1811",
        14855,
        as_of="2022-08-30",
    ),
    "sgb-words": ShippedList(
        "sgb-words.txt",
        "5edecb67ce3449391ef92c93bee681a42d713daf0d3a23ca38f923cc3063f691",
        5756,
    ),
    "enable1": ShippedList(
        "enable1.txt.gz",
        "b819e7b67f8f2c80640ae76f0edbe59a4a1befb6de0f348463642ad49bdd2ad3",
        172820,
        mixed_lengths=True,
    ),
    # Five-letter lists per language: builder.language_lists (guesswork-build
    # wordlist) made them from wordfreq 3.1.1, and a test makes es's again.
    **{
        name: ShippedList(f"{name}.txt", sha256, 2000)
        for name, sha256 in (
            ("es-5-top2000", "e9abb6e468fb9d0b45a7f2af356b7ffbb7b8343b1eef45f6d64f1b4105991d44"),
            ("de-5-top2000", "fe89af25a298a888e0697c9f9de81f7b4455fd434ca47742b8e97d3bbc3ca110"),
            ("fr-5-top2000", "905a0922dd2b4a078615bdbbc82b6a11f0a5ec27a3f2089c8ac26d94975c0dec"),
            ("el-5-top2000", "752bac1ffb3ab38fe9b309518177f09c6ece48e82656d8169cabb2532120a190"),
            ("ru-5-top2000", "33f9fa77e4cb2d3b3bef2d17da0c8f44ec2e0a4c86445a8be297b9f872c53c60"),
        )
    },
}


def content_sha256(words: Iterable[str]) -> str:
    """Return the SHA-256 (hex) identifying an ordered list of words."""
    digest = hashlib.sha256()
    for word in words:
        digest.update(word.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


@dataclass(frozen=True)
class WordList:
    """An ordered, duplicate-free list of upper-case words with its identity."""

    name: str
    words: tuple[str, ...]
    sha256: str

    @classmethod
    def from_words(cls, name: str, words: Iterable[str]) -> WordList:
        """Return a list named ``name`` holding ``words`` in order."""
        kept = tuple(words)
        return cls(name, kept, content_sha256(kept))

    def __len__(self) -> int:
        return len(self.words)

    def index(self) -> dict[str, int]:
        """Return a map from word to its position in the list."""
        return {word: i for i, word in enumerate(self.words)}


def guess_vocabulary(targets: WordList, guesses: WordList) -> tuple[WordList, np.ndarray]:
    """Return the words a tree may name, and each target's index among them.

    The vocabulary is the guess list followed by any targets missing from it
    (the seeds allow that: their ``-AILS`` example guesses from a list that
    lacks the targets). Only the guess list proper is searched in normal mode.
    """
    position = guesses.index()
    extra = [word for word in targets.words if word not in position]
    vocabulary = (
        WordList.from_words(f"{guesses.name}+{targets.name}", guesses.words + tuple(extra))
        if extra
        else guesses
    )
    position = vocabulary.index()
    return vocabulary, np.array([position[word] for word in targets.words], dtype=np.int64)


@dataclass
class LoadReport:
    """What loading a list kept and what it dropped, and why."""

    source: str
    kept: list[str] = field(default_factory=list)
    #: (line number, entry, reason) for each entry that was not kept.
    invalid: list[tuple[int, str, str]] = field(default_factory=list)
    duplicates: list[tuple[int, str]] = field(default_factory=list)

    def describe_invalid(self, limit: int = 3) -> str:
        """Return a one-line summary of the invalid entries."""
        shown = "; ".join(
            f"line {line}: {entry!r} {reason}" for line, entry, reason in self.invalid[:limit]
        )
        more = f" (and {len(self.invalid) - limit} more)" if len(self.invalid) > limit else ""
        return f"{plural(len(self.invalid), 'invalid entry')} in {self.source}: {shown}{more}"


def shipped_words(name: str) -> tuple[str, ...]:
    """Return the words of the shipped list ``name``, after checking its hash.

    Raises:
        WordListError: the name is not registered, or the shipped file does
            not match its registered hash or count (a damaged installation).
    """
    try:
        entry = SHIPPED[name]
    except KeyError:
        known = ", ".join(sorted(SHIPPED))
        raise WordListError(f"unknown word list {name!r}; shipped lists: {known}") from None
    raw = resources.files(_DATA_PACKAGE).joinpath(entry.file).read_bytes()
    if entry.file.endswith(".gz"):
        raw = gzip.decompress(raw)
    # Generated lists open with a comment naming their source; words are lower
    # case in the files and upper case (client.letters) in the game.
    lines = raw.decode("utf-8").splitlines()
    words = tuple(upper_word(w) for line in lines for w in line.split("#", 1)[0].split())
    if len(words) != entry.count or content_sha256(words) != entry.sha256:
        raise WordListError(
            f"shipped word list {name!r} ({entry.file}) does not match its registered "
            f"SHA-256/count; reinstall the package"
        )
    return words


#: The registry of lists registered by ``lists update`` (builder.list_registry), in
#: the user's list folder.
REGISTRY = "registry.json"


@dataclass(frozen=True)
class RegisteredList:
    """A registered list: its name, kind, word count, SHA-256, as-of date and source."""

    name: str
    kind: str
    count: int
    sha256: str
    as_of: str
    source: str
    file: str


def lists_home() -> Path:
    """Return the user's list folder: ``$GUESSWORK_LISTS``, else
    ``$XDG_DATA_HOME/guesswork/lists`` (``~/.local/share`` when unset or relative)."""
    named = os.environ.get("GUESSWORK_LISTS")
    if named:
        return Path(named)
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "guesswork" / "lists"


def registered_lists(home: Path | None = None) -> dict[str, RegisteredList]:
    """Return the registered lists by name (none when nothing was registered).

    Raises:
        WordListError: the registry exists but cannot be read or is malformed.
    """
    path = (home or lists_home()) / REGISTRY
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise WordListError(f"cannot read the list registry {path}: {error.strerror}") from None
    try:
        entries = json.loads(text)
        return {entry["name"]: RegisteredList(**entry) for entry in entries}
    except (ValueError, TypeError, KeyError):
        raise WordListError(
            f"the list registry {path} is damaged; remove it and register the lists again"
        ) from None


def registered_words(name: str, home: Path | None = None) -> tuple[str, ...] | None:
    """Return the words of the registered list ``name`` after checking its SHA-256 and
    count, or None if no list of that name is registered.

    Raises:
        WordListError: the registry is damaged, or the list's file is missing or
            no longer matches what was registered.
    """
    folder = home or lists_home()
    entry = registered_lists(folder).get(name)
    if entry is None:
        return None
    try:
        lines = (folder / entry.file).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise WordListError(
            f"registered list {name!r} ({folder / entry.file}) cannot be read: {error.strerror}"
        ) from None
    words = tuple(w for line in lines for w in line.split("#", 1)[0].split())
    if len(words) != entry.count or content_sha256(words) != entry.sha256:
        raise WordListError(
            f"registered list {name!r} ({folder / entry.file}) no longer matches its "
            f"registered SHA-256 and count; register it again"
        )
    return words


def parse_words(text: str, game: Game, source: str, rule: LetterRule = KEEP_ACCENTS) -> LoadReport:
    """Return a report of the valid, unique words of ``text`` (one or more a line).

    Words are written as ``rule`` says (NFC, upper case, accents folded or
    kept); blank lines and ``#`` comments are ignored. Two entries that fold
    to one word are a duplicate.
    """
    report = LoadReport(source)
    seen: set[str] = set()
    for line_number, line in enumerate(text.splitlines(), start=1):
        for entry in line.split("#", 1)[0].split():
            word = rule.word(entry)
            problem = game.word_problem(word)
            if problem is not None:
                report.invalid.append((line_number, entry, problem))
            elif word in seen:
                report.duplicates.append((line_number, entry))
            else:
                seen.add(word)
                report.kept.append(word)
    return report


def _read_source(spec: str) -> tuple[str, str]:
    """Return (text, display name) for a path or ``-`` (standard input)."""
    if spec == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(spec)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise WordListError(
            f"word list {spec!r} is neither a shipped list ({', '.join(sorted(SHIPPED))}) "
            f"nor an existing file"
        ) from None
    except OSError as error:
        raise WordListError(f"cannot read word list {spec!r}: {error.strerror}") from None
    try:
        return data.decode("utf-8"), spec
    except UnicodeDecodeError:
        raise WordListError(f"word list {spec!r} is not UTF-8 text") from None


#: Shipped lists already loaded, by (name, game): immutable, so shared.
_shipped_lists: dict[tuple[str, Game], WordList] = {}


def load_wordlist(spec: str, game: Game, rule: LetterRule = KEEP_ACCENTS) -> WordList:
    """Return the list named ``spec`` (shipped or registered name, path, or ``-``) for
    ``game`` (a path that exists wins over a registered name).

    A user's list is read with the letter ``rule`` (client.letters); shipped
    lists are stored as their rule wrote them and are read as they are.

    A shipped list must be entirely valid for the game, except that a
    mixed-length dictionary (enable1) contributes its words of the game's
    length. A user's list must be entirely valid: any invalid entry is an error
    (naming the first few), because building on a silently shrunk list would
    give a policy for a different list than the user meant. Duplicates keep
    their first occurrence.

    Raises:
        WordListError: unknown name, missing/unreadable file, invalid entries,
            or no words left.
    """
    if spec in SHIPPED:
        cached = _shipped_lists.get((spec, game))
        if cached is not None:
            return cached
        words = shipped_words(spec)
        if SHIPPED[spec].mixed_lengths:
            words = tuple(w for w in words if game.word_problem(w) is None)
            report = LoadReport(spec, kept=list(words))
            # A length's words are another list than the dictionary: a catalog
            # stores both (Spelling Bee reads the whole of enable1 by name).
            name = f"{spec}-{game.length}"
        else:
            report = parse_words("\n".join(words), game, spec)
            name = spec
    else:
        # A list registered by ``lists update`` (builder.list_registry registers it).
        registered = None if spec == "-" or Path(spec).exists() else registered_words(spec)
        if registered is not None:
            report = parse_words("\n".join(registered), game, spec)
            name = spec
        else:
            text, source = _read_source(spec)
            report = parse_words(text, game, source, rule)
            name = source
    if report.invalid:
        raise WordListError(report.describe_invalid())
    if not report.kept:
        raise WordListError(f"word list {report.source!r} has no {game.name} words")
    loaded = WordList.from_words(name, report.kept)
    if spec in SHIPPED:
        # Installed files do not change while a process runs: parse and hash them once.
        _shipped_lists[(spec, game)] = loaded
    return loaded


def jotto_allowable(words: Iterable[str], length: int = 5, order: str = "sorted") -> list[str]:
    """Return the seeds' Jotto list: words of distinct letters, one per anagram.

    As in both seeds, the *last* word seen for each set of letters is kept.
    ``order="sorted"`` sorts the result (2022 notebook); ``"first-seen"``
    keeps the position where each set of letters first appeared (2020
    notebook's dict insertion order).

    Raises:
        ValueError: ``order`` is neither ``sorted`` nor ``first-seen``.
    """
    if order not in ("sorted", "first-seen"):
        raise ValueError(f"unknown Jotto order {order!r}; use 'sorted' or 'first-seen'")
    game = Jotto(length)
    by_letters: dict[frozenset[str], str] = {}
    for word in words:
        if game.word_problem(word) is None:
            by_letters[frozenset(word)] = word
    kept = list(by_letters.values())
    return sorted(kept) if order == "sorted" else kept


def fixed_words(game: Game) -> WordList:
    """Return every word of a game without word lists (``game.fixed_words``) in order,
    named as the game says, e.g. ``mastermind-6x4``.

    Mastermind has no dictionary: every code is both a guess and a possible
    secret, so this one list serves as both (6 colours, 4 pegs: 1296 codes).

    Raises:
        TypeError: the game reads its words from lists.
    """
    return WordList.from_words(game.all_words_name, game.all_words())
