"""Reply matrices: the reply code of every (guess, target) pair, computed once.

``reply_matrix(game, guesses, targets)[g, t]`` is ``game.reply(guesses[g],
targets[t])`` for every pair, as the smallest unsigned dtype that holds the
game's reply codes. Tree search reads only this matrix, never the words.

Matrices are computed by compiled kernels (builder.reply_kernels: C,
builder/_replies.c, for Wordle's duplicate rule and Mastermind's pegs, numpy
bit counts for Jotto) over *letter codes* (builder.letter_codes): each
word a row of small integers, one per letter (:func:`letter_array`). Words of
A-Z have the codes A=0..Z=25; words of any other alphabet have the index of
each letter in their lists' :func:`alphabet_of`, so a Spanish list with Ñ,
or a Greek or Russian one, uses the same kernels (with 64-bit letter sets
past 32 letters, and a per-guess vectorised rule past 64).
They are cached twice: in memory (at most :data:`MEMORY_LIMIT` bytes,
``$GUESSWORK_MATRIX_MEMORY_BYTES``, least recently used out first: a process
that proves or answers over every shipped policy would otherwise hold every
matrix, 13.7 GB), and on disk (builder.matrix_cache: bounded, least recently used out
first), keyed by the game and the two lists' SHA-256 so a changed list can
never reuse a stale matrix. Each cached file carries a CRC-32 of its
contents; a damaged file is recomputed.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict

import numpy as np

from ..client.games import Game
from . import matrix_cache
from .errors import MatrixTooLargeError

# The letter coding and the kernels are their own modules (builder.letter_codes, the
# leaf both use; builder.reply_kernels); re-exported: most callers know them from here.
from .letter_codes import ASCII_ALPHABET as ASCII_ALPHABET
from .letter_codes import alphabet_of as alphabet_of
from .letter_codes import code_dtype as code_dtype
from .letter_codes import letter_array as letter_array
from .letter_codes import letter_count as letter_count
from .matrix_cache import format_bytes
from .reply_kernels import reply_block as reply_block
from .wordlists import WordList

_FORMAT = "replymatrix-v1"
#: The in-process matrices, least recently used first; at most MEMORY_LIMIT bytes
#: together, except that the newest stays whatever its size.
_memory_cache: OrderedDict[str, np.ndarray] = OrderedDict()
_memory_lock = threading.Lock()
#: The variable that bounds the in-process matrices' bytes (a size, as the disk cache's).
MEMORY_VARIABLE = "GUESSWORK_MATRIX_MEMORY_BYTES"
#: Its default: the largest shipped policy's matrix (28,420 x 28,420 two-byte codes,
#: 1.6 GB) fits, with room for the five-letter ones (3158 x 14855 bytes, 47 MB).
MEMORY_LIMIT = 2 << 30


def memory_limit() -> int:
    """Return the most bytes the in-process matrices may hold together.

    Raises:
        CacheConfigError: $GUESSWORK_MATRIX_MEMORY_BYTES is set but is not a size.
    """
    text = os.environ.get(MEMORY_VARIABLE, "").strip()
    return matrix_cache.parse_size(text) if text else MEMORY_LIMIT


def _remember(key: str, matrix: np.ndarray) -> None:
    """Keep ``matrix`` in memory under ``key``, dropping the least recently used
    matrices past :func:`memory_limit` (a caller holding one keeps it alive)."""
    limit = memory_limit()
    with _memory_lock:
        _memory_cache[key] = matrix
        _memory_cache.move_to_end(key)
        held = sum(kept.nbytes for kept in _memory_cache.values())
        while held > limit and len(_memory_cache) > 1:
            _, dropped = _memory_cache.popitem(last=False)
            held -= dropped.nbytes


def _recalled(key: str) -> np.ndarray | None:
    """Return the matrix kept under ``key`` (now the most recently used), or None."""
    with _memory_lock:
        matrix = _memory_cache.get(key)
        if matrix is not None:
            _memory_cache.move_to_end(key)
        return matrix


def compute_reply_matrix(game: Game, guesses: WordList, targets: WordList) -> np.ndarray:
    """Return the reply matrix computed from scratch (no cache).

    Raises:
        TypeError: the game has no vectorised reply rule.
    """
    alphabet = alphabet_of(guesses.words, targets.words)  # one coding for both lists
    return reply_block(
        game,
        letter_array(guesses.words, game.length, alphabet),
        letter_array(targets.words, game.length, alphabet),
    )


#: Rows and columns of the tiles :func:`transposed` copies one at a time.
TRANSPOSE_TILE = 1024


def transposed(matrix: np.ndarray) -> np.ndarray:
    """Return a new C-contiguous copy of ``matrix.T`` (a two-dimensional array).

    Copied tile by tile (:data:`TRANSPOSE_TILE` square), the same elements as
    ``np.ascontiguousarray(matrix.T)``: that copies the whole transposed view
    element by element, each read (or write) a cache and TLB miss once the
    matrix outgrows the caches: 21 s for the 1.6 GB reply matrix of 28,420
    8-letter words, where the tiles take 2 s.

    Raises:
        ValueError: ``matrix`` is not two-dimensional.
    """
    rows, columns = matrix.shape
    out = np.empty((columns, rows), dtype=matrix.dtype)
    if rows * columns <= TRANSPOSE_TILE * TRANSPOSE_TILE:
        out[...] = matrix.T
        return out
    for row in range(0, rows, TRANSPOSE_TILE):
        for column in range(0, columns, TRANSPOSE_TILE):
            out[column : column + TRANSPOSE_TILE, row : row + TRANSPOSE_TILE] = matrix[
                row : row + TRANSPOSE_TILE, column : column + TRANSPOSE_TILE
            ].T
    return out


def _cache_key(game: Game, guesses: WordList, targets: WordList, target_major: bool) -> str:
    layout = "|target-major" if target_major else ""
    text = (
        f"{_FORMAT}|{type(game).__name__}|{game.length}|{guesses.sha256}|{targets.sha256}{layout}"
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def reply_matrix(
    game: Game,
    guesses: WordList,
    targets: WordList,
    *,
    use_disk: bool = True,
    target_major: bool = False,
) -> np.ndarray:
    """Return the (len(guesses), len(targets)) reply matrix, from cache if possible.

    The result is read-only: it may be shared with other callers. With
    ``use_disk``, the disk cache is read and written unless its limit is 0.
    ``target_major`` lays the same matrix out one target after another
    (column-major: its transpose, ``[target, guess]``, is C-contiguous), as the
    exact search reads it; it is cached under its own key, and made once from
    the guess-major matrix, which is then not kept in memory.

    Raises:
        TypeError: the game has no vectorised reply rule.
        CacheConfigError: ``use_disk`` and $GUESSWORK_CACHE_MAX_BYTES is malformed.
        MatrixTooLargeError: the matrix would not fit in this machine's memory.
    """
    key = _cache_key(game, guesses, targets, target_major)
    kept = _recalled(key)
    if kept is not None:
        return kept
    check_fits_in_memory(game, guesses, targets)
    try:
        matrix = _stored_or_made(game, guesses, targets, use_disk, target_major)
    except MemoryError:  # fits the machine, not the memory free now (or a process limit)
        raise MatrixTooLargeError(
            f"{_sizes(guesses, targets)} is too large: its reply matrix "
            f"({format_bytes(_matrix_bytes(game, guesses, targets))}) cannot be allocated "
            "now; use smaller lists, or free memory"
        ) from None
    matrix.setflags(write=False)
    _remember(key, matrix)
    return matrix


def _matrix_bytes(game: Game, guesses: WordList, targets: WordList) -> int:
    return len(guesses) * len(targets) * np.dtype(code_dtype(game.reply_space)).itemsize


def _sizes(guesses: WordList, targets: WordList) -> str:
    return f"{len(guesses):,} guesses x {len(targets):,} targets"


def physical_memory() -> int | None:
    """Return this machine's physical memory in bytes; None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        return None


def check_fits_in_memory(game: Game, guesses: WordList, targets: WordList) -> None:
    """Refuse a reply matrix larger than this machine's physical memory before allocating
    it: numpy refuses some such allocations at once (a traceback), and the system lets
    others through, the process then killed while filling them.

    Raises:
        MatrixTooLargeError: the sizes, the matrix's bytes and the machine's named.
    """
    needed, memory = _matrix_bytes(game, guesses, targets), physical_memory()
    if memory is not None and needed > memory:
        raise MatrixTooLargeError(
            f"{_sizes(guesses, targets)} is too large: its reply matrix would take "
            f"{format_bytes(needed)}, and this machine has {format_bytes(memory)} of "
            "memory; use smaller lists"
        )


def _stored_or_made(
    game: Game, guesses: WordList, targets: WordList, use_disk: bool, target_major: bool
) -> np.ndarray:
    """Return the matrix from the disk cache, or made (and stored there): computed,
    or for ``target_major`` transposed from the guess-major one (held in memory
    only if some caller asked for it)."""
    key = _cache_key(game, guesses, targets, target_major)
    use_disk = use_disk and matrix_cache.cache_limit() > 0
    shape = (len(guesses), len(targets))
    matrix = matrix_cache.load(key, shape, code_dtype(game.reply_space)) if use_disk else None
    if matrix is not None and not (
        matrix.flags.f_contiguous if target_major else matrix.flags.c_contiguous
    ):
        matrix = None  # laid out the other way: not what this key stores
    if matrix is None:
        if target_major:
            source = _recalled(_cache_key(game, guesses, targets, False))
            if source is None:
                source = _stored_or_made(game, guesses, targets, use_disk, False)
            matrix = transposed(source).T  # column-major: the same layout as asfortranarray
        else:
            matrix = compute_reply_matrix(game, guesses, targets)
        if use_disk:
            matrix_cache.store(key, matrix)
    return matrix
