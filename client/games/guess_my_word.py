"""Guess My Word: each guess is answered by where the target lies alphabetically.

The rule is here in both forms: one pair at a time (:meth:`GuessMyWord.reply`)
and over arrays of alphabetical ranks (:meth:`GuessMyWord.pair_replies`, the
replay's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .. import replies
from ..errors import InvalidWordError
from .base import Game, PairRule, ReplyCode, Word

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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
    known and named at no cost (:attr:`deduces`). Reply codes: ``before`` (0),
    ``after`` (1), ``correct`` (2, the win; never given in ``deduce``).

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
    target_weights: ClassVar[bool] = True
    weighted_list: ClassVar[bool] = True
    any_script: ClassVar[bool] = False
    one_word_list: ClassVar[bool] = True
    alphabetical_replies: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.variant not in GUESS_MY_WORD_VARIANTS:
            raise InvalidWordError(f"{self.id}: unknown variant {self.variant!r} (deduce, live)")
        if self.length != 0:
            raise InvalidWordError(f"{self.id}: words have any length; length must be 0")

    @classmethod
    def from_options(
        cls, length: int | None = None, colours: int | None = None, variant: str | None = None
    ) -> Game:
        """Return the game of ``variant`` (default ``deduce``); ``length`` must be 0.

        Raises:
            InvalidWordError: a number of colours was given, the length is not 0
                or the variant is unknown.
        """
        if colours is not None:
            raise InvalidWordError(f"{cls.id}: only mastermind has a number of colours")
        return cls(length=0 if length is None else length, variant=variant or "deduce")

    @property
    def name(self) -> str:
        """Return ``guess-my-word-deduce`` or ``guess-my-word-live``."""
        return f"{self.id}-{self.variant}"

    def stored(self) -> dict[str, Any]:
        return {**super().stored(), "variant": self.variant}

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

    def pair_replies(self, vocabulary: tuple[Word, ...], targets: tuple[Word, ...]) -> PairRule:
        import numpy as np  # the array form only: a stored answer needs no numpy

        rank = {word: i for i, word in enumerate(sorted({*vocabulary, *targets}))}
        left = np.array([rank[w] for w in vocabulary], dtype=np.int64)
        right = np.array([rank[w] for w in targets], dtype=np.int64)
        live = self.variant == "live"

        def replies(
            guess: npt.NDArray[np.int64], target: npt.NDArray[np.int64]
        ) -> npt.NDArray[np.int64]:
            g, t = left[guess], right[target]
            codes = np.where(t >= g, AFTER, BEFORE).astype(np.int64)
            return np.asarray(np.where((t == g) & live, CORRECT, codes), np.int64)

        return replies

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        return replies.parse_position(text, correct_allowed=not self.deduces)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        """Return ``before``, ``after`` or ``correct`` (any style)."""
        return replies.POSITIONS[code]
