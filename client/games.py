"""Game rules as values: Wordle (any word length), Antiwordle, Jotto and Mastermind.

A game is an immutable object, never a global switch, so two games can be used
side by side. Every game defines which words are valid, the reply to a
(guess, target) pair as a small integer *reply code*, the winning reply, how
many reply codes exist, and how replies are written as text.

Reply codes
-----------
* Wordle-like games: each position is a base-3 digit, miss=0, yellow=1,
  green=2, the first letter being the most significant digit. So for five
  letters ``'.....'`` is 0, ``'....G'`` is 2 and ``'GGGGG'`` is 242. Sorting
  codes sorts replies as their digit strings ``'00000'`` .. ``'22222'``.
* Jotto: the number of letters the guess and the target share (0..k).
* Mastermind (``k`` pegs): ``black * (k + 1) + white``, where black pegs count
  the right colour in the right place and white pegs the right colour in the
  wrong place. So for four pegs ``0B0W`` is 0, ``0B4W`` is 4, ``2B1W`` is 11
  and the win ``4B0W`` is 20; there are ``(k + 1) ** 2`` codes, of which only
  ``black + white <= k`` (and never ``k-1`` black with one white) can occur.
  Codes are words of the first ``colours`` letters, so a 6-colour game's codes
  are ``AAAA`` .. ``FFFF``.

The Wordle reply rule lives in :func:`wordle_reply` and the Mastermind rule in
:func:`mastermind_reply`; everything else (the vectorised matrices in
``builder``, the service) is checked against them.
"""

from __future__ import annotations

import functools
import itertools
import re
import string
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from client import replies
from client.errors import (
    ImpossibleReplyError,
    InvalidReplyError,
    InvalidWordError,
    UnknownGameError,
)

Word = str
ReplyCode = int

MIN_LENGTH = 2
MAX_LENGTH = 12

MISS, YELLOW, GREEN = 0, 1, 2

MIN_COLOURS = 2
MAX_COLOURS = 26


def wordle_reply(guess: Word, target: Word) -> tuple[int, ...]:
    """Return the Wordle colours (MISS/YELLOW/GREEN per position) of ``guess``.

    The NYT rule: greens are matched first; then, left to right, a letter is
    yellow only while the target still has an unmatched copy of it. So
    ``NINNY`` against ``ANNEX`` is ``Y.G..``: one N is green and only one more
    N exists in the target, so only the leftmost other N is yellow.
    Both words must have the same length (not checked here: hot path).
    """
    colours = [MISS] * len(guess)
    unmatched: dict[str, int] = {}  # target letters not matched by a green
    for i, (g, t) in enumerate(zip(guess, target, strict=False)):
        if g == t:
            colours[i] = GREEN
        else:
            unmatched[t] = unmatched.get(t, 0) + 1
    for i, letter in enumerate(guess):
        if colours[i] == MISS and unmatched.get(letter, 0) > 0:
            unmatched[letter] -= 1
            colours[i] = YELLOW
    return tuple(colours)


def colours_to_code(colours: tuple[int, ...] | list[int]) -> ReplyCode:
    """Return the reply code of a sequence of colours (first = most significant)."""
    code = 0
    for colour in colours:
        code = code * 3 + colour
    return code


def code_to_colours(code: ReplyCode, length: int) -> tuple[int, ...]:
    """Return the colours of a Wordle reply code, first position first."""
    digits = []
    for _ in range(length):
        code, digit = divmod(code, 3)
        digits.append(digit)
    return tuple(reversed(digits))


def jotto_reply(guess: Word, target: Word) -> int:
    """Return the number of letters ``guess`` and ``target`` have in common."""
    return len(set(guess) & set(target))


def mastermind_reply(guess: Word, target: Word) -> tuple[int, int]:
    """Return the (black, white) pegs ``guess`` gets when the secret is ``target``.

    Black pegs count the places where the two codes have the same colour. White
    pegs count the colours they share in other places, each peg of either code
    used at most once: the sum over colours of the smaller of the two counts,
    minus the black pegs. Both codes must have the same length (not checked
    here: hot path).

    >>> mastermind_reply("AABB", "ABBA")
    (2, 2)
    >>> mastermind_reply("ABCD", "DCBA")
    (0, 4)
    """
    black = sum(g == t for g, t in zip(guess, target, strict=False))
    shared = sum((Counter(guess) & Counter(target)).values())
    return black, shared - black


def _check_colours(colours: int) -> None:
    if not MIN_COLOURS <= colours <= MAX_COLOURS:
        raise InvalidWordError(
            f"mastermind: the number of colours must be between {MIN_COLOURS} and "
            f"{MAX_COLOURS}, not {colours}"
        )


def all_codes(colours: int, length: int) -> tuple[Word, ...]:
    """Return every Mastermind code of ``length`` pegs and ``colours`` colours, sorted.

    Colours are the letters A, B, ...; there are ``colours ** length`` codes.

    >>> all_codes(2, 2)
    ('AA', 'AB', 'BA', 'BB')

    Raises:
        InvalidWordError: the number of colours is outside 2..26.
    """
    _check_colours(colours)
    letters = string.ascii_uppercase[:colours]
    return tuple("".join(code) for code in itertools.product(letters, repeat=length))


def _fewest_whites(kept: tuple[int, ...], rest: int) -> int:
    """Return the fewest white pegs over the ``rest`` non-black places.

    ``kept[c]`` is how many non-black places of the guess have colour ``c``;
    every colour of the game is among them. A secret puts in each such place a
    colour other than the guess's there, so at most ``rest - kept[c]`` places
    get colour ``c``, and colour ``c`` earns ``min(kept[c], placed)`` whites.
    """
    fewest = {0: 0}  # places filled so far -> fewest whites
    for count in kept:
        following: dict[int, int] = {}
        for filled, whites in fewest.items():
            for placed in range(min(rest - count, rest - filled) + 1):
                total = whites + min(count, placed)
                if total < following.get(filled + placed, rest + 1):
                    following[filled + placed] = total
        fewest = following
    return fewest[rest]


@functools.lru_cache(maxsize=256)
def _possible_pegs(guess_counts: tuple[int, ...], colours: int) -> frozenset[tuple[int, int]]:
    """Return every (black, white) some secret gives a guess with these colour counts.

    ``guess_counts`` holds how often the guess uses each of its colours (in a
    canonical order: only the counts matter). For each choice of how many pegs
    of each colour are *not* black (``kept``), the secret's other places each
    take a colour other than the guess's there. The most whites is
    ``min(rest, 2 * (rest - max(kept)))`` (a matching of places to guess pegs
    of another colour), the fewest is 0 when some colour is absent from those
    places (fill them with it), else :func:`_fewest_whites`. Changing one
    place changes the whites by at most one and every filling can reach every
    other, so every count in between occurs too.
    """
    length = sum(guess_counts)
    lacks_a_colour = colours > len(guess_counts)
    possible: set[tuple[int, int]] = set()
    for kept in itertools.product(*(range(count + 1) for count in guess_counts)):
        rest = sum(kept)
        most = min(rest, 2 * (rest - max(kept)))
        fewest = 0 if lacks_a_colour or 0 in kept else _fewest_whites(kept, rest)
        possible.update((length - rest, white) for white in range(fewest, most + 1))
    return frozenset(possible)


@dataclass(frozen=True)
class Game:
    """Rules shared by every word game: the word length and word validity."""

    length: int = 5

    id: ClassVar[str] = ""
    #: True when every guess must be consistent with all replies so far.
    consistent_only: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not MIN_LENGTH <= self.length <= MAX_LENGTH:
            raise InvalidWordError(
                f"{self.id}: word length must be between {MIN_LENGTH} and "
                f"{MAX_LENGTH}, not {self.length}"
            )

    @property
    def name(self) -> str:
        """Return the game id with its length, e.g. ``wordle`` or ``wordle-6``."""
        return self.id if self.length == 5 else f"{self.id}-{self.length}"

    def word_problem(self, word: str) -> str | None:
        """Return why ``word`` is not valid for this game, or None if it is."""
        if not word.isascii() or not word.isalpha():
            return "not made only of letters A-Z"
        if len(word) != self.length:
            return f"has {len(word)} letters, not {self.length}"
        return None

    def normalise_word(self, word: str) -> Word:
        """Return ``word`` in canonical (upper) case.

        Raises:
            InvalidWordError: the word is not valid for this game.
        """
        canonical = word.strip().upper()
        problem = self.word_problem(canonical)
        if problem is not None:
            raise InvalidWordError(f"{word!r} is not a valid {self.name} word: {problem}")
        return canonical

    @property
    def reply_space(self) -> int:
        """Return how many reply codes exist (codes are 0..reply_space-1)."""
        raise NotImplementedError

    @property
    def win_reply(self) -> ReplyCode:
        """Return the reply code meaning the guess is the target."""
        raise NotImplementedError

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        """Return the reply code for ``guess`` when the secret is ``target``."""
        raise NotImplementedError

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        """Return the reply code written in ``text``.

        When ``guess`` is given, replies impossible for that guess are refused.

        Raises:
            InvalidReplyError: the text is malformed or the reply is impossible.
        """
        raise NotImplementedError

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        """Return reply ``code`` as text in the given style."""
        raise NotImplementedError


@dataclass(frozen=True)
class Wordle(Game):
    """Wordle for words of ``length`` letters, with the NYT duplicate rule."""

    id: ClassVar[str] = "wordle"

    @property
    def reply_space(self) -> int:
        return int(3**self.length)

    @property
    def win_reply(self) -> ReplyCode:
        return int(3**self.length) - 1

    @property
    def distinct_replies(self) -> int:
        """Return how many codes can occur: all but "k-1 greens and a yellow"."""
        return int(3**self.length) - self.length

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        return colours_to_code(wordle_reply(guess, target))

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        colours = replies.parse_colours(text, self.length, guess)
        return colours_to_code(colours)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        return replies.format_colours(code_to_colours(code, self.length), style)


@dataclass(frozen=True)
class Antiwordle(Wordle):
    """Antiwordle: Wordle replies, but the guesser tries to *avoid* the target.

    Only guesses consistent with every reply so far are allowed.
    """

    id: ClassVar[str] = "antiwordle"
    consistent_only: ClassVar[bool] = True


@dataclass(frozen=True)
class Jotto(Game):
    """Jotto: the reply is how many letters guess and target share.

    Words must have ``length`` distinct letters, and a word list must not hold
    two anagrams (otherwise a full-count reply would not mean a win).
    """

    id: ClassVar[str] = "jotto"

    def word_problem(self, word: str) -> str | None:
        problem = super().word_problem(word)
        if problem is None and len(set(word.upper())) != len(word):
            return "repeats a letter"
        return problem

    @property
    def reply_space(self) -> int:
        return self.length + 1

    @property
    def win_reply(self) -> ReplyCode:
        return self.length

    @property
    def distinct_replies(self) -> int:
        """Return how many codes can occur (0..length shared letters)."""
        return self.length + 1

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        return jotto_reply(guess, target)

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        return replies.parse_count(text, self.length)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        return str(code)


_PEG_NUMBERS = re.compile(r"([0-9]+)\s*(?:,\s*|\s+)([0-9]+)")  # "2 1", "2,1"
_PEG_LETTERS = re.compile(r"[BW]+")  # "BBW"
_PEG_COUNT_FIRST = re.compile(r"(?:[0-9]+[BW])+")  # "2B1W"
_PEG_LETTER_FIRST = re.compile(r"(?:[BW][0-9]+)+")  # "B2W1"
_PEG_HINT = "write the black then the white pegs, e.g. '2B1W', 'BBW', '2 1' or 'B2W1'"


def _parse_pegs(text: str) -> tuple[int, int]:
    """Return the (black, white) pegs written in ``text`` (not checked against a game)."""
    stripped = text.strip()
    if not stripped:
        raise InvalidReplyError(f"empty Mastermind reply: {_PEG_HINT}")
    numbers = _PEG_NUMBERS.fullmatch(stripped)
    if numbers is not None:
        return int(numbers.group(1)), int(numbers.group(2))
    compact = re.sub(r"[\s,]", "", stripped).upper()
    if _PEG_LETTERS.fullmatch(compact):
        return compact.count("B"), compact.count("W")
    if _PEG_COUNT_FIRST.fullmatch(compact):
        pairs = [(letter, int(n)) for n, letter in re.findall(r"([0-9]+)([BW])", compact)]
    elif _PEG_LETTER_FIRST.fullmatch(compact):
        pairs = [(letter, int(n)) for letter, n in re.findall(r"([BW])([0-9]+)", compact)]
    else:
        raise InvalidReplyError(
            f"Mastermind reply {stripped!r} is not a count of pegs; {_PEG_HINT}"
        )
    counts = dict(pairs)
    if len(counts) != len(pairs):
        twice = "black" if [letter for letter, _ in pairs].count("B") > 1 else "white"
        raise InvalidReplyError(
            f"Mastermind reply {stripped!r} gives the {twice} pegs twice; {_PEG_HINT}"
        )
    return counts.get("B", 0), counts.get("W", 0)


@dataclass(frozen=True)
class Mastermind(Game):
    """Mastermind: secret codes of ``length`` pegs in ``colours`` colours.

    Codes are words of the first ``colours`` letters (A = the first colour), so
    the classic game (6 colours, 4 pegs) has the 1296 codes AAAA .. FFFF.
    Repeated colours are allowed. The reply is the black and white pegs of
    :func:`mastermind_reply`, as the code ``black * (length + 1) + white``.
    """

    length: int = 4
    colours: int = 6

    id: ClassVar[str] = "mastermind"

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_colours(self.colours)

    @property
    def name(self) -> str:
        """Return ``mastermind`` (6 colours, 4 pegs) or e.g. ``mastermind-8x5``."""
        if (self.colours, self.length) == (6, 4):
            return self.id
        return f"{self.id}-{self.colours}x{self.length}"

    def word_problem(self, word: str) -> str | None:
        problem = super().word_problem(word)
        if problem is not None:
            return problem
        last = string.ascii_uppercase[self.colours - 1]
        for letter in word.upper():
            if ord(letter) - ord("A") >= self.colours:
                return f"uses colour {letter!r}; this game has {self.colours} colours A-{last}"
        return None

    @property
    def reply_space(self) -> int:
        return (self.length + 1) ** 2

    @property
    def win_reply(self) -> ReplyCode:
        return self.length * (self.length + 1)

    @property
    def distinct_replies(self) -> int:
        """Return how many codes can occur: black + white <= length, except k-1 B 1 W.

        All of them occur with three or more colours (6 colours, 4 pegs: 14);
        with two colours fewer do (2 colours, 2 pegs: 4, never ``0B1W``).
        """
        return (self.length + 1) * (self.length + 2) // 2 - 1

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        black, white = mastermind_reply(guess, target)
        return black * (self.length + 1) + white

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        """Return the reply code of pegs written as ``2B1W``, ``BBW``, ``2 1`` or ``B2W1``.

        Case and spaces do not matter; counts are black first. When ``guess``
        is given, pegs no secret could give it are refused too (a guess of
        one colour, for instance, never gets a white peg).

        Raises:
            InvalidReplyError: malformed text, or pegs that cannot occur
                (:class:`ImpossibleReplyError` for the latter).
        """
        black, white = _parse_pegs(text)
        shown = text.strip()
        k = self.length
        if black + white > k:
            raise ImpossibleReplyError(
                f"impossible Mastermind reply {shown!r}: {black} black and {white} white "
                f"pegs make {black + white}, but codes have only {k} pegs"
            )
        if (black, white) == (k - 1, 1):
            raise ImpossibleReplyError(
                f"impossible Mastermind reply {shown!r}: when {k - 1} pegs are black the "
                "last cannot be white (its colour would have to be in another place, but "
                "every other place is already black)"
            )
        if guess is not None:
            code = guess.strip().upper()
            problem = self.word_problem(code)
            if problem is not None:
                raise InvalidReplyError(
                    f"guess {guess!r} is not a valid {self.name} code: {problem}"
                )
            counts = tuple(sorted(Counter(code).values()))
            if (black, white) not in _possible_pegs(counts, self.colours):
                why = " (a guess of one colour never gets white pegs)" if len(counts) == 1 else ""
                raise ImpossibleReplyError(
                    f"impossible Mastermind reply {shown!r} for guess {code!r}: no secret "
                    f"code gives it {black} black and {white} white pegs{why}"
                )
        return black * (k + 1) + white

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        """Return reply ``code`` as black and white pegs, e.g. ``2B1W`` (any style)."""
        black, white = divmod(code, self.length + 1)
        return f"{black}B{white}W"


def partition(game: Game, guess: Word, targets: list[Word]) -> dict[ReplyCode, list[Word]]:
    """Return the targets grouped by the reply ``guess`` gets from each.

    Groups appear in order of their first target, and keep the targets' order.
    """
    branches: dict[ReplyCode, list[Word]] = {}
    for target in targets:
        branches.setdefault(game.reply(guess, target), []).append(target)
    return branches


def consistent_targets(
    game: Game, targets: list[Word], guess: Word, reply: ReplyCode
) -> list[Word]:
    """Return the targets that would give ``reply`` to ``guess``, in order."""
    return [target for target in targets if game.reply(guess, target) == reply]


GAMES: dict[str, type[Game]] = {cls.id: cls for cls in (Wordle, Antiwordle, Jotto, Mastermind)}


def make_game(game_id: str, length: int | None = None, colours: int | None = None) -> Game:
    """Return the rules object for ``game_id`` with words of ``length`` letters.

    ``length`` defaults to the game's own default: 5 letters, or 4 pegs for
    Mastermind. ``colours`` is for Mastermind only (default 6), so
    ``make_game("mastermind")`` is the classic 6-colour, 4-peg game and
    ``make_game("mastermind", 5, 8)`` has 8 colours and 5 pegs.

    Raises:
        UnknownGameError: no such game (the message lists the known ones).
        InvalidWordError: the length or number of colours is outside the
            supported range, or colours were given for another game.
    """
    try:
        cls = GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None
    if issubclass(cls, Mastermind):
        return cls(
            length=Mastermind.length if length is None else length,
            colours=Mastermind.colours if colours is None else colours,
        )
    if colours is not None:
        raise InvalidWordError(f"{game_id}: only mastermind has a number of colours")
    return cls() if length is None else cls(length=length)
