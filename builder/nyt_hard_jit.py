"""NYT hard mode's rule for numba code: the C functions of builder/_nyt.c, bound by name.

The rule has one implementation, in C (see :mod:`.nyt_hard`). Compiled
callers (the greedy tree builder) call it through these two functions, which
numba compiles into direct calls of the C symbols: the extension's library
is loaded into the JIT's symbol table first, so code cached by numba finds
the symbols again in a new process. Arrays must be contiguous (rows of a
C-ordered 2-D array are), with the sizes :mod:`.nyt_hard` describes.
"""

from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm
import numba
import numpy as np
from numba import types

from . import _nyt

llvm.load_library_permanently(_nyt.__file__)

# Typed Any: mypy knows numba types, not the calls they make in compiled code.
_is_legal: Any = types.ExternalFunction(
    "guesswork_nyt_is_legal", types.intc(types.voidptr, types.int64, types.voidptr, types.int64)
)
_advance: Any = types.ExternalFunction(
    "guesswork_nyt_advance",
    types.void(types.voidptr, types.voidptr, types.int64, types.int64, types.int64, types.voidptr),
)


@numba.njit(cache=True)
def is_legal(word: np.ndarray, state: np.ndarray) -> bool:
    """Return True when ``word`` (letter codes, uint8) meets the NYT rule in ``state`` (int8)."""
    length = word.shape[0]
    legal: bool = (
        _is_legal(word.ctypes.data, length, state.ctypes.data, state.shape[0] - length) != 0
    )
    return legal


@numba.njit(cache=True)
def advance_state(state: np.ndarray, guess: np.ndarray, code: int, out: np.ndarray) -> None:
    """Write into ``out`` the state after ``guess`` got reply ``code`` in ``state``
    (``out`` may be ``state``)."""
    length = guess.shape[0]
    _advance(
        state.ctypes.data, guess.ctypes.data, length, state.shape[0] - length, code, out.ctypes.data
    )
