"""Words as numpy arrays, for the games' array rules: letter matrices and letter sets.

The games' modules (client.games.wordle, .jotto, .mastermind) hold each reply
rule in both forms, one pair at a time and over arrays; this module holds what
their array forms share. It is loaded only by those array forms, when first
called, so games and a stored answer need no numpy.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .base import Word


@lru_cache(maxsize=8)
def letter_matrix(words: tuple[Word, ...]) -> npt.NDArray[np.uint32]:
    """Return the (N, k) uint32 code points of equal-length ``words`` (cached:
    a policy asks for the same lists on every turn)."""
    if not words:
        return np.zeros((0, 0), dtype=np.uint32)
    joined = "".join(words).encode("utf-32-le")
    return np.frombuffer(joined, dtype=np.uint32).reshape(len(words), len(words[0]))


def letter_masks(
    *letters: npt.NDArray[np.integer],
) -> tuple[npt.NDArray[np.unsignedinteger], ...] | None:
    """Return each row's set of letters as a bit mask, for each of the (N, k) arrays of
    letter codes ``letters`` (code points, or the builder's alphabet indices), or None
    when they hold over 64 letters (no mask holds them).

    The arrays share one bit per letter they hold, in code order (bit 0 is ``A`` in
    A-Z lists), so two rows share as many letters as their masks share bits; masks
    are uint32 up to 32 letters, else uint64.
    """
    alphabet = np.unique(np.concatenate([array.ravel() for array in letters]))
    if len(alphabet) > 64:
        return None
    dtype = np.uint32 if len(alphabet) <= 32 else np.uint64
    one = dtype(1)
    masks: list[npt.NDArray[np.unsignedinteger]] = [
        np.bitwise_or.reduce(
            np.left_shift(one, np.searchsorted(alphabet, array).astype(dtype)), axis=1
        ).reshape(len(array))
        for array in letters
    ]
    return tuple(masks)
