"""Wordle and Antiwordle: replies that colour each letter, by the NYT duplicate rule.

The rule is here in both forms: one pair at a time (:func:`wordle_reply`, the
definition) and over arrays (:func:`wordle_pair_codes`, for the lookup core's
remaining targets, the replay's (node, target) pairs and the builder's
matrices of alphabets over 64 letters). The builder's compiled kernel
(builder/_replies.c, reached through :attr:`Wordle.reply_kernel`) is its own
code for speed; ``tests/test_reply_rules.py`` checks the array form against the
definition and the kernel against the array form, in one place. So is the NYT
hard rule (:meth:`ColouredGame.nyt_hard_problem`).

Wordle and Antiwordle share every rule (:class:`ColouredGame`) and differ in
what they declare: Antiwordle's player avoids the target, so its guesses must
be consistent and no exact search, analysis, weights, Absurdle or multi-board
game applies. Neither is the other's subclass: code asks what a game can do
(client.games.base), never whether it is a Wordle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .. import replies
from .base import Game, PairRule, ReplyCode, Word

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MISS, YELLOW, GREEN = 0, 1, 2

_ORDINALS = ("1st", "2nd", "3rd", *(f"{n}th" for n in range(4, 16)))


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


def wordle_pair_codes(
    guesses: npt.NDArray[np.integer], targets: npt.NDArray[np.integer]
) -> npt.NDArray[np.int64]:
    """Return the Wordle reply code of each row of ``guesses`` against the same row of
    ``targets`` (both (P, k) letter codes, one alphabet; rows may broadcast).

    :func:`wordle_reply` over arrays: greens first; then, left to right, a guess
    letter off green is yellow while the target holds more unmatched copies of
    it than the guess's earlier yellows of that letter took. Codes are int64,
    first letter most significant (:func:`colours_to_code`).
    """
    import numpy as np  # the array form only: a stored answer needs no numpy

    guesses, targets = np.broadcast_arrays(guesses, targets)
    green = guesses == targets
    colours = np.where(green, GREEN, MISS).astype(np.int64)
    k = guesses.shape[1]
    for i in range(k):
        letter = guesses[:, i : i + 1]
        unmatched = ((targets == letter) & ~green).sum(axis=1)
        if i:
            unmatched -= ((guesses[:, :i] == letter) & (colours[:, :i] == YELLOW)).sum(axis=1)
        colours[:, i] = np.where(~green[:, i] & (unmatched > 0), YELLOW, colours[:, i])
    return np.asarray(colours @ (3 ** np.arange(k - 1, -1, -1, dtype=np.int64)), np.int64)


def wordle_codes(guess: Word, letters: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Return the reply codes of ``guess`` against every row of ``letters`` ((N, k)
    code points, as client.games.arrays.letter_matrix gives)."""
    import numpy as np  # the array form only: a stored answer needs no numpy

    guess_letters = np.array([[ord(c) for c in guess]], dtype=np.uint32)
    if not len(letters):
        return np.zeros(0, np.int64)
    return wordle_pair_codes(guess_letters, letters)


@dataclass(frozen=True)
class ColouredGame(Game):
    """The rules Wordle and Antiwordle share: words of ``length`` letters, each
    reply a colour per letter by the NYT duplicate rule.

    Reply codes: each position is a base-3 digit, miss=0, yellow=1, green=2, the
    first letter being the most significant digit. So for five letters
    ``'.....'`` is 0, ``'....G'`` is 2 and ``'GGGGG'`` is 242.
    """

    coloured_replies: ClassVar[bool] = True
    reply_kernel: ClassVar[str | None] = "wordle"

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
        from .arrays import letter_matrix  # numpy, on first use

        return wordle_codes(guess, letter_matrix(words))

    def first_word_problem(self, words: Sequence[Word]) -> tuple[Word, str] | None:
        joined = "".join(words)  # the common case at C speed: A-Z letters, one length
        if (
            joined.isascii()
            and joined.isalpha()
            and joined.isupper()
            and set(map(len, words)) == {self.length}
        ):
            return None
        return super().first_word_problem(words)

    def pair_replies(self, vocabulary: tuple[Word, ...], targets: tuple[Word, ...]) -> PairRule:
        from .arrays import letter_matrix  # numpy, on first use

        left, right = letter_matrix(vocabulary), letter_matrix(targets)

        def replies(
            guess: npt.NDArray[np.int64], target: npt.NDArray[np.int64]
        ) -> npt.NDArray[np.int64]:
            return wordle_pair_codes(left[guess], right[target])

        return replies

    def letter_replies(
        self, guess_letters: npt.NDArray[np.integer], target_letters: npt.NDArray[np.integer]
    ) -> npt.NDArray[np.integer]:
        """Return the replies of every guess to every target, one guess at a time
        (the compiled kernel's letter sets hold 64 letters; this has no bound)."""
        import numpy as np  # the array form only: a stored answer needs no numpy

        out = np.empty((len(guess_letters), len(target_letters)), dtype=np.int64)
        if not len(target_letters):
            return out
        for row, guess in enumerate(guess_letters):
            out[row] = wordle_pair_codes(guess[None, :], target_letters)
        return out

    def nyt_hard_problem(self, turns: Sequence[tuple[Word, ReplyCode]], word: Word) -> str | None:
        """Return why ``word`` breaks the NYT hard mode after ``turns`` (None: it may).

        The NYT rule: every green letter stays in its place, and every revealed
        (green or yellow) letter is used again, as often as it was revealed.
        """
        for guessed, code in turns:
            colours = code_to_colours(code, self.length)
            for position, colour in enumerate(colours):
                if colour == GREEN and word[position] != guessed[position]:
                    return f"{_ORDINALS[position]} letter must be {guessed[position]}"
            for letter in sorted({guessed[i] for i, c in enumerate(colours) if c != MISS}):
                needed = sum(1 for i, c in enumerate(colours) if c != MISS and guessed[i] == letter)
                if word.count(letter) < needed:
                    return f"guess must contain {letter}" + (
                        f" {needed} times" if needed > 1 else ""
                    )
        return None

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        colours = replies.parse_colours(text, self.length, guess)
        return colours_to_code(colours)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        return replies.format_colours(code_to_colours(code, self.length), style)


@dataclass(frozen=True)
class Wordle(ColouredGame):
    """Wordle for words of ``length`` letters, with the NYT duplicate rule."""

    id: ClassVar[str] = "wordle"
    multi_board: ClassVar[bool] = True
    absurdle: ClassVar[bool] = True
    target_weights: ClassVar[bool] = True


@dataclass(frozen=True)
class Antiwordle(ColouredGame):
    """Antiwordle: Wordle replies, but the guesser tries to *avoid* the target.

    Only guesses consistent with every reply so far are allowed.
    """

    id: ClassVar[str] = "antiwordle"
    consistent_only: ClassVar[bool] = True
    minimises_guesses: ClassVar[bool] = False
