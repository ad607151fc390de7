"""The Wordle reply rule over arrays: every pair of a batch at once (numpy).

:func:`~guesswork.client.games.wordle_reply` defines the rule, one pair at a
time; this is the same rule, vectorised, for code that replies to many
targets at once: the lookup core's remaining targets
(:meth:`~guesswork.client.games.Wordle.reply_codes`), the replay's
(node, target) pairs (client.replay) and reply matrices of alphabets too big
for the compiled kernel's letter sets (builder.matrices). The compiled kernel
is its own code for speed; ``tests/test_reply_rules.py`` checks this module
against ``wordle_reply`` and the kernel against this module, in one place.

It lives apart from client.games so that games, and a stored answer, need no
numpy: games imports it on first use.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .games import GREEN, MISS, YELLOW, Word

Codes = npt.NDArray[np.int64]


def wordle_pair_codes(guesses: npt.NDArray[np.integer], targets: npt.NDArray[np.integer]) -> Codes:
    """Return the Wordle reply code of each row of ``guesses`` against the same row of
    ``targets`` (both (P, k) letter codes, one alphabet; rows may broadcast).

    Greens first; then, left to right, a guess letter off green is yellow while
    the target holds more unmatched copies of it than the guess's earlier
    yellows of that letter took. Codes are int64, first letter most significant
    (client.games.colours_to_code).
    """
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


def wordle_codes(guess: Word, letters: npt.NDArray[np.integer]) -> Codes:
    """Return the reply codes of ``guess`` against every row of ``letters`` ((N, k)
    code points, as :func:`letter_matrix` gives)."""
    guess_letters = np.array([[ord(c) for c in guess]], dtype=np.uint32)
    if not len(letters):
        return np.zeros(0, np.int64)
    return wordle_pair_codes(guess_letters, letters)


@lru_cache(maxsize=8)
def letter_matrix(words: tuple[Word, ...]) -> npt.NDArray[np.uint32]:
    """Return the (N, k) uint32 code points of equal-length ``words`` (cached:
    a policy asks for the same lists on every turn)."""
    if not words:
        return np.zeros((0, 0), dtype=np.uint32)
    joined = "".join(words).encode("utf-32-le")
    return np.frombuffer(joined, dtype=np.uint32).reshape(len(words), len(words[0]))
