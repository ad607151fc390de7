"""Game rules as values: Wordle (any word length), Antiwordle, Jotto, Mastermind
and Guess My Word.

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
* Guess My Word: where the target lies alphabetically, ``before`` (0) or
  ``after`` (1) the guess, or ``correct`` (2, the win; never given in the
  ``deduce`` variant). Its words are lower case, of any length.

Words of Wordle, Antiwordle and Jotto are letters of any one script (A-Z, Ñ,
ẞ, Greek, Cyrillic ...), in upper case as :mod:`guesswork.client.letters`
defines it; replies compare letters as they are written. Mastermind codes
stay A-Z, and Guess My Word words a-z.

The Wordle reply rule lives in :func:`wordle_reply` and the Mastermind rule in
:func:`mastermind_reply`; the vectorised rule (client.wordle_arrays) and the
compiled kernels (builder.matrices) are checked against them in one place,
``tests/test_reply_rules.py``.
"""

from __future__ import annotations

import itertools
import string
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from . import replies
from .errors import (
    ImpossibleReplyError,
    InvalidReplyError,
    InvalidWordError,
    UnknownGameError,
)
from .letters import letters_problem, upper_word
from .text import plural, shown

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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


@dataclass(frozen=True)
class Game:
    """Rules shared by every word game: the word length and word validity."""

    length: int = 5

    id: ClassVar[str] = ""
    #: True when every guess must be consistent with all replies so far.
    consistent_only: ClassVar[bool] = False
    #: True when a policy of the game answers suggestions only (no scoring,
    #: hard-mode checks or Evil replies).
    suggestions_only: ClassVar[bool] = False

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

    @property
    def deduces(self) -> bool:
        """Return True when one target left is known and named at no cost.

        Only Guess My Word's ``deduce`` variant, which never answers with the
        winning reply: a tree's leaf there ends the game without a guess.
        """
        return False

    def fold(self, word: str) -> Word:
        """Return ``word`` stripped, in the game's case: upper, letter by letter as
        client.letters says (ß -> ẞ), in NFC; lower for Guess My Word."""
        return upper_word(word.strip())

    def word_problem(self, word: str) -> str | None:
        """Return why ``word`` is not valid for this game, or None if it is.

        Words are letters of any one script (client.letters), counted in code
        points after NFC: ``ÑANDÚ`` has five.
        """
        problem = letters_problem(word)
        if problem is not None:
            return problem
        if len(word) != self.length:
            return f"has {plural(len(word), 'letter')}, not {self.length}"
        return None

    def normalise_word(self, word: str) -> Word:
        """Return ``word`` in canonical case (see :meth:`fold`).

        Raises:
            InvalidWordError: the word is not valid for this game.
        """
        canonical = self.fold(word)
        problem = self.word_problem(canonical)
        if problem is not None:
            raise InvalidWordError(f"{shown(word)} is not a valid {self.name} word: {problem}")
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

    def reply_codes(self, guess: Word, words: tuple[Word, ...]) -> npt.NDArray[np.int64]:
        """Return the int64 reply codes of ``guess`` against each of ``words``."""
        import numpy as np  # only for many targets at once: a stored answer needs none

        return np.fromiter((self.reply(guess, w) for w in words), np.int64, len(words))

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

    def reply_codes(self, guess: Word, words: tuple[Word, ...]) -> npt.NDArray[np.int64]:
        if not words or len(words[0]) != len(guess):
            return super().reply_codes(guess, words)
        from .wordle_arrays import letter_matrix, wordle_codes  # numpy, on first use

        return wordle_codes(guess, letter_matrix(words))

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
        if problem is None and len(set(upper_word(word))) != len(word):
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
        if not word.isascii() or not word.isalpha():
            return "not made only of letters A-Z"
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
        black, white = replies.parse_pegs(text, self.length)
        shown = text.strip()
        if guess is not None:
            code = guess.strip().upper()
            problem = self.word_problem(code)
            if problem is not None:
                raise InvalidReplyError(
                    f"guess {guess!r} is not a valid {self.name} code: {problem}"
                )
            counts = tuple(sorted(Counter(code).values()))
            if (black, white) not in replies.possible_pegs(counts, self.colours):
                why = " (a guess of one colour never gets white pegs)" if len(counts) == 1 else ""
                raise ImpossibleReplyError(
                    f"impossible Mastermind reply {shown!r} for guess {code!r}: no secret "
                    f"code gives it {black} black and {white} white pegs{why}"
                )
        return black * (self.length + 1) + white

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        """Return reply ``code`` as black and white pegs, e.g. ``2B1W`` (any style)."""
        black, white = divmod(code, self.length + 1)
        return f"{black}B{white}W"


BEFORE, AFTER, CORRECT = replies.BEFORE, replies.AFTER, replies.CORRECT
GUESS_MY_WORD_VARIANTS = ("deduce", "live")


@dataclass(frozen=True)
class GuessMyWord(Game):
    """Guess My Word: the target is a word of an alphabetical list, and each
    guess is answered by where the target lies relative to it.

    Words are lower case, of any length (``length`` is 0). ``variant="live"``
    (the real game) answers a right guess ``correct``, which ends the game.
    ``"deduce"`` (the seed's game) answers it ``after``, so a reply only says
    ``target >= guess`` or ``target < guess``: once one word is left it is
    known and named at no cost (:attr:`deduces`).

    >>> live, deduce = GuessMyWord(variant="live"), GuessMyWord(variant="deduce")
    >>> [g.format_reply(g.reply("cat", "cat")) for g in (deduce, live)]
    ['after', 'correct']
    >>> live.format_reply(live.reply("dog", "cat"))
    'before'
    """

    length: int = 0
    variant: str = "deduce"

    id: ClassVar[str] = "guess-my-word"
    suggestions_only: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.variant not in GUESS_MY_WORD_VARIANTS:
            raise InvalidWordError(f"{self.id}: unknown variant {self.variant!r} (deduce, live)")
        if self.length != 0:
            raise InvalidWordError(f"{self.id}: words have any length; length must be 0")

    @property
    def name(self) -> str:
        """Return ``guess-my-word-deduce`` or ``guess-my-word-live``."""
        return f"{self.id}-{self.variant}"

    @property
    def deduces(self) -> bool:
        return self.variant == "deduce"

    def fold(self, word: str) -> Word:
        return word.strip().lower()

    def word_problem(self, word: str) -> str | None:
        if not word.isascii() or not word.isalpha():
            return "not made only of letters a-z"
        return None

    @property
    def reply_space(self) -> int:
        return 3

    @property
    def win_reply(self) -> ReplyCode:
        return CORRECT

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        if guess == target and self.variant == "live":
            return CORRECT
        return AFTER if target >= guess else BEFORE

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        return replies.parse_position(text, correct_allowed=not self.deduces)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        """Return ``before``, ``after`` or ``correct`` (any style)."""
        return replies.POSITIONS[code]


GAMES: dict[str, type[Game]] = {
    cls.id: cls for cls in (Wordle, Antiwordle, Jotto, Mastermind, GuessMyWord)
}


def make_game(
    game_id: str, length: int | None = None, colours: int | None = None, variant: str | None = None
) -> Game:
    """Return the rules object for ``game_id`` with words of ``length`` letters.

    ``length`` defaults to the game's own default: 5 letters, 4 pegs for
    Mastermind, 0 (any) for Guess My Word. ``colours`` is for Mastermind only
    (default 6), so ``make_game("mastermind")`` is the classic 6-colour, 4-peg
    game and ``make_game("mastermind", 5, 8)`` has 8 colours and 5 pegs.
    ``variant`` is for Guess My Word only (default ``deduce``).

    Raises:
        UnknownGameError: no such game (the message lists the known ones).
        InvalidWordError: the length, number of colours or variant is outside
            the supported range, or was given for another game.
    """
    try:
        cls = GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(
            f"unknown game {game_id!r}; known games: {known}", metadata={"game": game_id}
        ) from None
    if issubclass(cls, GuessMyWord):
        if colours is not None:
            raise InvalidWordError(f"{game_id}: only mastermind has a number of colours")
        return cls(length=0 if length is None else length, variant=variant or "deduce")
    if variant is not None:
        raise InvalidWordError(f"{game_id}: only guess-my-word has a variant")
    if issubclass(cls, Mastermind):
        return cls(
            length=Mastermind.length if length is None else length,
            colours=Mastermind.colours if colours is None else colours,
        )
    if colours is not None:
        raise InvalidWordError(f"{game_id}: only mastermind has a number of colours")
    return cls() if length is None else cls(length=length)
