"""The compiled reply kernels behind builder.matrices (numba): Wordle's duplicate
rule and Mastermind's pegs over letter codes, on every core.

Imported only when a matrix is computed (a cache miss, or an uncached block
for a live answer), so reading cached matrices, e.g. for an exact proof,
loads no JIT. :func:`reply_block` here is the one implementation;
builder.matrices.reply_block calls it.
"""

from __future__ import annotations

import numba
import numpy as np

from ..client.games import Game, Jotto, Mastermind, Wordle
from ..client.wordle_arrays import wordle_codes
from .matrices import code_dtype, letter_count

_WORDLE_BLOCK = 64  # guesses per parallel work item (one set of scratch rows each)
#: Blocks of at most this many replies are computed on the calling thread: a
#: parallel launch costs more than they take (a node's few alternatives, a live
#: answer near the end of a game), and a process forked from one that ran the
#: parallel kernels can still compute them (OpenMP does not survive a fork).
SERIAL_CELLS = 1 << 16


@numba.njit(cache=True, nogil=True)
def _target_bits(targets: np.ndarray, letter_bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the targets transposed to one row per position, and each of their
    letters as its bit (``letter_bits[letter]``), laid out alike."""
    length, n_targets = targets.shape[1], targets.shape[0]
    by_position = np.ascontiguousarray(targets.T)
    bits = np.empty((length, n_targets), letter_bits.dtype)
    for p in range(length):
        for t in range(n_targets):
            bits[p, t] = letter_bits[by_position[p, t]]
    return by_position, bits


@numba.njit(cache=True, nogil=True, inline="always")
def _wordle_rows(
    guesses: np.ndarray,
    by_position: np.ndarray,
    bits: np.ndarray,
    letter_bits: np.ndarray,
    first: int,
    stop: int,
    out: np.ndarray,
) -> None:
    """Fill rows ``first:stop`` of ``out[g, t]`` with the Wordle reply code (see
    client.games.wordle_reply), the targets given as by :func:`_target_bits`.

    One guess at a time against all targets, one position at a time: every
    inner loop runs over the targets, branch-free and contiguous, so it is
    vectorised (SIMD). Targets are transposed once, to one row per position,
    with each target letter also as a bit (``letter_bits[letter]``, one bit
    per letter code: uint32 for up to 32 letters, so A-Z keeps its 32-bit
    lanes, uint64 for up to 64).

    For a guess, ``not_green[p, t]`` says target ``t`` differs from the guess
    at ``p``, and ``present[t]`` has the bits of the letters at the target's
    non-green positions. The NYT rule, greens first, then yellows left to
    right while the target has an unmatched copy of the letter, becomes:

    * a letter that the guess holds once is yellow at a non-green position
      when its bit is in ``present``;
    * a repeated letter ``L`` at a non-green position ``p`` is yellow when
      the target's non-green positions hold more copies of ``L`` than the
      guess's non-green positions before ``p`` (each of which took one).
    """
    length, n_targets = by_position.shape
    nothing = letter_bits[0] & ~letter_bits[0]  # a zero of the bits' type
    not_green = np.empty((length, n_targets), np.bool_)
    present = np.empty(n_targets, letter_bits.dtype)
    copies = np.empty(n_targets, np.uint8)
    taken = np.empty(n_targets, np.uint8)
    code = np.empty(n_targets, np.uint32)
    for g in range(first, stop):
        guess = guesses[g]
        present[:] = 0
        for p in range(length):
            letter, target_p, bits_p = guess[p], by_position[p], bits[p]
            not_green_p = not_green[p]
            for t in range(n_targets):
                differs = target_p[t] != letter
                not_green_p[t] = differs
                present[t] |= bits_p[t] if differs else nothing
        code[:] = 0
        for p in range(length):
            letter, not_green_p = guess[p], not_green[p]
            repeated = False
            for q in range(length):
                repeated |= q != p and guess[q] == letter
            if not repeated:
                bit = letter_bits[letter]
                for t in range(n_targets):
                    yellow = (present[t] & bit) != 0
                    code[t] = code[t] * 3 + (2 if not not_green_p[t] else (1 if yellow else 0))
                continue
            copies[:] = 0
            taken[:] = 0
            for q in range(length):
                target_q, not_green_q = by_position[q], not_green[q]
                for t in range(n_targets):
                    copies[t] += (target_q[t] == letter) & not_green_q[t]
                if q < p and guess[q] == letter:
                    for t in range(n_targets):
                        taken[t] += not_green_q[t]
            for t in range(n_targets):
                yellow = copies[t] > taken[t]
                code[t] = code[t] * 3 + (2 if not not_green_p[t] else (1 if yellow else 0))
        row = out[g]
        for t in range(n_targets):
            row[t] = code[t]


@numba.njit(parallel=True, cache=True, nogil=True)
def _wordle_kernel(
    guesses: np.ndarray, targets: np.ndarray, letter_bits: np.ndarray, out: np.ndarray
) -> None:
    """Fill ``out[g, t]`` with the Wordle reply code (:func:`_wordle_rows`), blocks of
    guesses on every core."""
    by_position, bits = _target_bits(targets, letter_bits)
    n_guesses = guesses.shape[0]
    n_blocks = (n_guesses + _WORDLE_BLOCK - 1) // _WORDLE_BLOCK
    for block in numba.prange(n_blocks):
        stop = min(n_guesses, (block + 1) * _WORDLE_BLOCK)
        _wordle_rows(guesses, by_position, bits, letter_bits, block * _WORDLE_BLOCK, stop, out)


@numba.njit(cache=True, nogil=True)
def _wordle_serial(
    guesses: np.ndarray, targets: np.ndarray, letter_bits: np.ndarray, out: np.ndarray
) -> None:
    """:func:`_wordle_kernel` on the calling thread alone (small blocks)."""
    by_position, bits = _target_bits(targets, letter_bits)
    _wordle_rows(guesses, by_position, bits, letter_bits, 0, guesses.shape[0], out)


@numba.njit(cache=True, nogil=True, inline="always")
def _mastermind_row(guess: np.ndarray, targets: np.ndarray, row: np.ndarray) -> None:
    """Fill ``row[t]`` with the Mastermind reply code of ``guess`` to each target (see
    client.games.mastermind_reply): ``black * (length + 1) + white``. White pegs are
    counted over the non-black places only: there, each colour shared ``min`` times."""
    length = guess.shape[0]
    guess_left = np.zeros(26, np.int32)
    target_left = np.zeros(26, np.int32)
    for t in range(targets.shape[0]):
        target = targets[t]
        black = 0
        for p in range(length):
            if guess[p] == target[p]:
                black += 1
            else:
                guess_left[guess[p]] += 1
                target_left[target[p]] += 1
        white = 0
        for p in range(length):
            colour = guess[p]
            if guess_left[colour] > 0:
                white += min(guess_left[colour], target_left[colour])
                guess_left[colour] = 0
        for p in range(length):
            target_left[target[p]] = 0
        row[t] = black * (length + 1) + white


@numba.njit(parallel=True, cache=True, nogil=True)
def _mastermind_kernel(guesses: np.ndarray, targets: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out[g, t]`` with the Mastermind reply code (:func:`_mastermind_row`),
    guesses on every core."""
    for g in numba.prange(guesses.shape[0]):
        _mastermind_row(guesses[g], targets, out[g])


@numba.njit(cache=True, nogil=True)
def _mastermind_serial(guesses: np.ndarray, targets: np.ndarray, out: np.ndarray) -> None:
    """:func:`_mastermind_kernel` on the calling thread alone (small blocks)."""
    for g in range(guesses.shape[0]):
        _mastermind_row(guesses[g], targets, out[g])


def _letter_bits(letters: int) -> np.ndarray | None:
    """Return one bit per letter code, in the narrowest unsigned type that holds
    ``letters`` bits (uint32, else uint64), or None past 64 letters."""
    if letters > 64:
        return None
    dtype = np.uint32 if letters <= 32 else np.uint64
    return np.left_shift(dtype(1), np.arange(letters, dtype=dtype))


def _letter_masks(letters: np.ndarray, letter_bits: np.ndarray) -> np.ndarray:
    """Return one bit per letter present in each word (one ``letter_bits`` word each)."""
    masks: np.ndarray = np.bitwise_or.reduce(letter_bits[letters], axis=1)
    return masks


def reply_block(game: Game, guess_letters: np.ndarray, target_letters: np.ndarray) -> np.ndarray:
    """Return the replies of every guess to every target, given as letter arrays.

    The uncached kernel behind builder.matrices.compute_reply_matrix: on every
    core, or, up to :data:`SERIAL_CELLS` replies, on the calling thread alone; the compiled
    kernels release the GIL, so other threads (stored answers) go on meanwhile.
    Both arrays must code letters with one alphabet (builder.matrices.alphabet_of).

    Raises:
        TypeError: the game has no vectorised reply rule.
    """
    dtype = code_dtype(game.reply_space)
    letter_bits = _letter_bits(letter_count(guess_letters, target_letters))
    if isinstance(game, Wordle):
        out = np.empty((len(guess_letters), len(target_letters)), dtype=dtype)
        if letter_bits is None:  # over 64 letters: no letter sets, one guess at a time
            for row, guess in enumerate(guess_letters):
                word = "".join(chr(int(c) + 0x100) for c in guess)  # distinct per code
                out[row] = wordle_codes(word, target_letters.astype(np.uint32) + 0x100)
            return out
        kernel = _wordle_kernel if out.size > SERIAL_CELLS else _wordle_serial
        kernel(  # one compiled signature per bit width: C-ordered uint8 letters
            np.ascontiguousarray(guess_letters, dtype=np.uint8),
            np.ascontiguousarray(target_letters, dtype=np.uint8),
            letter_bits,
            out,
        )
        return out
    if isinstance(game, Mastermind):
        out = np.empty((len(guess_letters), len(target_letters)), dtype=dtype)
        codes = _mastermind_kernel if out.size > SERIAL_CELLS else _mastermind_serial
        codes(guess_letters, target_letters, out)
        return out
    if isinstance(game, Jotto):
        if letter_bits is None:  # over 64 letters: count shared letters pair by pair
            sets = [frozenset(row.tolist()) for row in target_letters]
            return np.array(
                [[len(frozenset(g.tolist()) & t) for t in sets] for g in guess_letters],
                dtype=dtype,
            ).reshape(len(guess_letters), len(target_letters))
        shared = (
            _letter_masks(guess_letters, letter_bits)[:, None]
            & _letter_masks(target_letters, letter_bits)[None, :]
        )
        counts: np.ndarray = np.bitwise_count(shared).astype(dtype)
        return counts
    raise TypeError(f"no reply matrix for game {game.name!r}")
