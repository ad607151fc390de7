"""Mastermind: secret codes of pegs in colours, replies of black and white pegs.

The rule is here in both forms: one pair at a time (:func:`mastermind_reply`,
the definition) and over arrays of colour counts
(:meth:`Mastermind.pair_replies`, the replay's). The builder's matrices use a
compiled kernel (builder/_replies.c, reached through
:attr:`Mastermind.reply_kernel`); ``tests/test_reply_rules.py`` checks both
against the definition.
"""

from __future__ import annotations

import itertools
import string
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .. import replies
from ..errors import ImpossibleReplyError, InvalidReplyError, InvalidWordError
from .base import Game, PairRule, ReplyCode, Word

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MIN_COLOURS = 2
MAX_COLOURS = 26


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
class Mastermind(Game):
    """Mastermind: secret codes of ``length`` pegs in ``colours`` colours.

    Codes are words of the first ``colours`` letters (A = the first colour), so
    the classic game (6 colours, 4 pegs) has the 1296 codes AAAA .. FFFF.
    Repeated colours are allowed. The reply is the black and white pegs of
    :func:`mastermind_reply`, as the code ``black * (length + 1) + white``: for
    four pegs ``0B0W`` is 0, ``0B4W`` is 4, ``2B1W`` is 11 and the win ``4B0W``
    is 20.
    """

    length: int = 4
    colours: int = 6

    id: ClassVar[str] = "mastermind"
    any_script: ClassVar[bool] = False
    fixed_words: ClassVar[bool] = True
    reply_kernel: ClassVar[str | None] = "mastermind"

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_colours(self.colours)

    @classmethod
    def from_options(
        cls, length: int | None = None, colours: int | None = None, variant: str | None = None
    ) -> Game:
        """Return the game of ``length`` pegs (default 4) and ``colours`` colours
        (default 6).

        Raises:
            InvalidWordError: a variant was given, or the pegs or colours are
                outside the supported range.
        """
        if variant is not None:
            raise InvalidWordError(f"{cls.id}: only guess-my-word has a variant")
        return cls(
            length=Mastermind.length if length is None else length,
            colours=Mastermind.colours if colours is None else colours,
        )

    @property
    def name(self) -> str:
        """Return ``mastermind`` (6 colours, 4 pegs) or e.g. ``mastermind-8x5``."""
        if (self.colours, self.length) == (6, 4):
            return self.id
        return f"{self.id}-{self.colours}x{self.length}"

    def stored(self) -> dict[str, Any]:
        return {**super().stored(), "colours": self.colours}

    @property
    def interchangeable_colours(self) -> int | None:
        return self.colours

    def all_words(self) -> tuple[Word, ...]:
        """Return every code, sorted (:func:`all_codes`)."""
        return all_codes(self.colours, self.length)

    @property
    def all_words_name(self) -> str:
        """Return ``mastermind-<colours>x<pegs>``, e.g. ``mastermind-6x4``."""
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

    def pair_replies(self, vocabulary: tuple[Word, ...], targets: tuple[Word, ...]) -> PairRule:
        import numpy as np  # the array form only: a stored answer needs no numpy

        from .arrays import letter_matrix

        left, right = letter_matrix(vocabulary), letter_matrix(targets)
        colours = ord("A") + np.arange(self.colours)

        def counts(letters: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
            """Return how many pegs of each colour every row has ((rows, colours))."""
            return np.asarray((letters[:, :, None] == colours).sum(axis=1), np.int64)

        def replies(
            guess: npt.NDArray[np.int64], target: npt.NDArray[np.int64]
        ) -> npt.NDArray[np.int64]:
            g, t = left[guess], right[target]
            black = (g == t).sum(axis=1)
            shared = np.minimum(counts(g), counts(t)).sum(axis=1)
            return np.asarray(black * (self.length + 1) + shared - black, np.int64)

        return replies

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
