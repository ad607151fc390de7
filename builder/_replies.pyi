"""Types of the compiled reply kernels (builder/_replies.c); see builder.reply_kernels."""

import numpy as np

#: 1 if this CPU has AVX2, so the loops run their AVX2 copies (found at import), else 0.
AVX2: int

def wordle(
    guesses: np.ndarray, targets: np.ndarray, out: np.ndarray, first: int, stop: int, /
) -> None: ...
def mastermind(
    guesses: np.ndarray, targets: np.ndarray, out: np.ndarray, first: int, stop: int, /
) -> None: ...
def vector(on: bool, /) -> bool: ...
