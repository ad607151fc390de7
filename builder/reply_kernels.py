"""The reply kernels behind builder.matrices: Wordle's duplicate rule and
Mastermind's pegs over letter codes (compiled C, builder/_replies.c), on every
core. A game names its kernel (``Game.reply_kernel``); a game without one, or
letters beyond a kernel's 64, has its own array form computed
(``Game.letter_replies``: Jotto's shared letters as numpy bit counts).

Nothing is compiled at run time: the first matrix costs what the later ones do.
:func:`reply_block` here is the one implementation (builder.matrices re-exports
it); the letter codes it reads are builder.letter_codes'.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..client.games import Game
from . import _replies
from .letter_codes import code_dtype, letter_count

#: Blocks of at most this many replies are computed on the calling thread: starting
#: threads costs more than they take (a node's few alternatives, a live answer near
#: the end of a game).
SERIAL_CELLS = 1 << 16
_SPANS_PER_THREAD = 4  # spans of guesses per thread: a thread that finds cheap rows takes more
_MIN_SPAN = 16  # guesses per span at least (each span transposes the targets once)

#: fills rows first:stop of out: (guesses, targets, out, first, stop)
Kernel = Callable[[np.ndarray, np.ndarray, np.ndarray, int, int], None]


def _threads() -> int:
    """Return how many threads a big block is split over: every core (os.cpu_count,
    as the service's live gate and the exact search's workers count them)."""
    return max(os.cpu_count() or 1, 1)


def _fill(
    kernel: Kernel,
    guesses: np.ndarray,
    targets: np.ndarray,
    out: np.ndarray,
    threads: int | None = None,
) -> None:
    """Fill ``out`` with ``kernel``: spans of guesses on a pool of ``threads``
    threads (default: :func:`_threads`; the C kernel releases the GIL, so they
    run at once, and other threads, e.g. stored answers, go on meanwhile), or on
    the calling thread alone up to :data:`SERIAL_CELLS` replies.

    The pool lives for this call only, so a process forked from one that used it
    starts its own.

    Raises:
        TypeError, ValueError: the arrays do not fit the kernel (builder/_replies.c).
    """
    rows = len(guesses)
    threads = min(threads or _threads(), -(-rows // _MIN_SPAN))
    if out.size <= SERIAL_CELLS or threads <= 1:
        kernel(guesses, targets, out, 0, rows)
        return
    step = max(_MIN_SPAN, -(-rows // (threads * _SPANS_PER_THREAD)))
    spans = [(first, min(rows, first + step)) for first in range(0, rows, step)]
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="guesswork-replies") as pool:
        for _ in pool.map(lambda span: kernel(guesses, targets, out, *span), spans):
            pass  # re-raises a span's error here


#: The compiled kernels by the name a game gives (``Game.reply_kernel``); they code
#: letter sets in 64 bits, so alphabets of more letters take the game's array form.
KERNELS: dict[str, Kernel] = {"wordle": _replies.wordle, "mastermind": _replies.mastermind}
_KERNEL_LETTERS = 64


def reply_block(game: Game, guess_letters: np.ndarray, target_letters: np.ndarray) -> np.ndarray:
    """Return the replies of every guess to every target, given as letter arrays.

    The uncached kernel behind builder.matrices.compute_reply_matrix: on every
    core, or, up to :data:`SERIAL_CELLS` replies, on the calling thread alone; the compiled
    kernels release the GIL, so other threads (stored answers) go on meanwhile.
    Replies are the game's integer codes (client.games), in the smallest unsigned
    dtype that holds them (builder.letter_codes.code_dtype).
    Both arrays must code letters with one alphabet (builder.letter_codes.alphabet_of).

    Raises:
        TypeError: the game has no vectorised reply rule.
    """
    dtype = code_dtype(game.reply_space)
    kernel = KERNELS.get(game.reply_kernel or "")
    if kernel is None or letter_count(guess_letters, target_letters) > _KERNEL_LETTERS:
        replies = game.letter_replies(guess_letters, target_letters)
        return replies.astype(dtype, copy=False)
    out = np.empty((len(guess_letters), len(target_letters)), dtype=dtype)
    _fill(
        kernel,  # C-ordered uint8 letters; sets of uint32 or uint64 as they need
        np.ascontiguousarray(guess_letters, dtype=np.uint8),
        np.ascontiguousarray(target_letters, dtype=np.uint8),
        out,
    )
    return out
