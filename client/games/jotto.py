"""Jotto: the reply is how many letters the guess and the target share.

The rule is here in both forms: one pair at a time (:func:`jotto_reply`) and
over arrays of letter sets (:meth:`Jotto.pair_replies` for the replay,
:meth:`Jotto.letter_replies` for the builder's matrices: bit counts of
client.games.arrays.letter_masks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .. import replies
from ..letters import upper_word
from .base import Game, PairRule, ReplyCode, Word

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def jotto_reply(guess: Word, target: Word) -> int:
    """Return the number of letters ``guess`` and ``target`` have in common."""
    return len(set(guess) & set(target))


@dataclass(frozen=True)
class Jotto(Game):
    """Jotto: the reply is how many letters guess and target share.

    Words must have ``length`` distinct letters, and a word list must not hold
    two anagrams (otherwise a full-count reply would not mean a win). Reply
    codes are the count itself, 0..length.
    """

    id: ClassVar[str] = "jotto"
    target_weights: ClassVar[bool] = True
    letter_set_lists: ClassVar[bool] = True

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

    def pair_replies(self, vocabulary: tuple[Word, ...], targets: tuple[Word, ...]) -> PairRule:
        import numpy as np  # the array form only: a stored answer needs no numpy

        from .arrays import letter_masks, letter_matrix

        masks = letter_masks(letter_matrix(vocabulary), letter_matrix(targets))
        if masks is None:  # over 64 letters: the rule pair by pair
            return super().pair_replies(vocabulary, targets)
        left, right = masks

        def replies(
            guess: npt.NDArray[np.int64], target: npt.NDArray[np.int64]
        ) -> npt.NDArray[np.int64]:
            return np.asarray(np.bitwise_count(left[guess] & right[target]), np.int64)

        return replies

    def letter_replies(
        self, guess_letters: npt.NDArray[np.integer], target_letters: npt.NDArray[np.integer]
    ) -> npt.NDArray[np.integer]:
        """Return the shared letters of every guess and every target: bit counts of
        their letter sets, or, over 64 letters, sets pair by pair."""
        import numpy as np  # the array form only: a stored answer needs no numpy

        from .arrays import letter_masks

        masks = letter_masks(guess_letters, target_letters)
        if masks is None:
            sets = [frozenset(row.tolist()) for row in target_letters]
            return np.array(
                [[len(frozenset(g.tolist()) & t) for t in sets] for g in guess_letters],
                dtype=np.int64,
            ).reshape(len(guess_letters), len(target_letters))
        guesses, targets = masks
        counts: npt.NDArray[np.integer] = np.bitwise_count(guesses[:, None] & targets[None, :])
        return counts

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        return replies.parse_count(text, self.length)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        return str(code)

    def reply_caption(self, code: ReplyCode) -> str:
        return f"{code} in common"
