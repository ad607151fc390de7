"""NYT hard mode as arrays: which guesses a history of replies allows.

The NYT rule (:func:`guesswork.client.rules.nyt_hard_problem` states it one
word at a time): every green letter stays in its place, and every revealed
letter (green or yellow) is used again, at least as often as one earlier
reply revealed it. A history therefore reduces to a *constraint state*: the
required letter of each position (or none) and the least count of each
letter. This module is the one vectorised form of the rule in the builder:
the greedy kernel (builder.greedy), the ranked alternatives and live answers,
and the optimal search (builder.optimal) all ask it, and the tests check it
against ``nyt_hard_problem`` on random histories.

A state is an int8 array of ``length + L`` entries, ``L`` the number of
letter codes (26 for A-Z words; more for a larger alphabet, see
builder.matrices.letter_count): for each position the letter code (A=0..Z=25)
a green fixed there, or :data:`FREE`; then for each letter the least number
of times a guess must hold it. Two greens of different
letters in one place (a history no secret can give) mark the place
:data:`CONFLICT`, and then no word is legal. The state's bytes are its
canonical key (the optimal search memoises by them). The rule's loops are C
(``builder/_nyt.c``), so a search in NYT hard mode needs no JIT.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _nyt
from .matrices import alphabet_of, letter_array, letter_count

#: A position no green has fixed.
FREE = -1
#: A position two greens fixed to different letters: nothing is legal.
CONFLICT = -2
_LETTERS = 26  # letter codes of A-Z words; larger alphabets size their states
_MISS = 0
_GREEN = 2


def empty_state(length: int, letters: int = _LETTERS) -> np.ndarray:
    """Return the state before any guess: every place free, no letter required
    (``letters``: how many letter codes the words use)."""
    state = np.zeros(length + letters, dtype=np.int8)
    state[:length] = FREE
    return state


def advance_state(state: np.ndarray, guess: np.ndarray, code: int, out: np.ndarray) -> None:
    """Write into ``out`` the state after ``guess`` (letter codes) got reply ``code``.

    ``out`` may be ``state`` itself. Colours are the base-3 digits of
    ``code``, the first letter most significant (see client.games).

    Raises:
        ValueError: the guess's letters or length do not fit the state, or the
            code is negative.
    """
    _nyt.advance_state(state, guess, code, out)


def is_legal(word: np.ndarray, state: np.ndarray) -> bool:
    """Return True when ``word`` (letter codes) meets the NYT rule in ``state``.

    Raises:
        ValueError: the word's letters or length do not fit the state.
    """
    legal: bool = _nyt.is_legal(word, state)
    return legal


def legal_mask(letters: np.ndarray, state: np.ndarray) -> np.ndarray:
    """Return a boolean array: which rows of ``letters`` (words x length) are legal.

    Raises:
        ValueError: the words' letters or length do not fit the state.
    """
    out = np.zeros(letters.shape[0], dtype=np.bool_)
    _nyt.legal_mask(np.ascontiguousarray(letters, dtype=np.uint8), state, out)
    return out


def state_after(
    turns: Sequence[tuple[str, int]],
    length: int,
    alphabet: str | None = None,
    letters: int = _LETTERS,
) -> np.ndarray:
    """Return the state after ``turns``, (guess word in upper case, reply code) pairs.

    ``alphabet`` codes the words' letters: builder.matrices.alphabet_of of the
    words the state is checked against (default: the turns' own). The state
    has room for ``letters`` letter codes, or the alphabet's, if more.
    """
    alphabet = alphabet_of([word for word, _ in turns]) if alphabet is None else alphabet
    state = empty_state(length, max(letters, len(alphabet)))
    for word, code in turns:
        advance_state(state, letter_array([word], length, alphabet)[0], int(code), state)
    return state


def legal_after(
    letters: np.ndarray, turns: Sequence[tuple[str, int]], alphabet: str | None = None
) -> np.ndarray:
    """Return which rows of ``letters`` (words x length) the NYT rule allows after ``turns``.

    ``alphabet`` is the one ``letters`` are coded in (builder.matrices.alphabet_of;
    default: the turns' own, right for A-Z words).
    """
    state = state_after(turns, int(letters.shape[1]), alphabet, letter_count(letters))
    mask: np.ndarray = legal_mask(letters, state)
    return mask


class NytRule:
    """The NYT rule over one vocabulary, with states as bytes (the search's memo keys).

    The empty state (nothing required: the root, or a path of misses only) is
    ``b""``, so a search that starts every node at ``b""`` needs no rule there.
    Thread-compatible: it holds only read-only arrays.
    """

    def __init__(self, letters: np.ndarray) -> None:
        """Take the vocabulary's letters: a (words, length) uint8 array of letter
        codes (A=0..Z=25 for A-Z words)."""
        self.letters = letters
        #: The letters as the compiled rule reads them (uint8, C-contiguous rows).
        self._rows = np.ascontiguousarray(letters, dtype=np.uint8)
        self.length = int(letters.shape[1])
        self._empty = empty_state(self.length, letter_count(letters))
        #: The empty state's bytes: a state is compared as bytes, far cheaper than
        #: as arrays in the search's hottest NYT-hard loop (a class's state).
        self._empty_bytes = self._empty.tobytes()

    def array(self, state: bytes) -> np.ndarray:
        """Return ``state`` as a new int8 array."""
        return np.frombuffer(state, dtype=np.int8).copy() if state else self._empty.copy()

    def key(self, state: np.ndarray) -> bytes:
        """Return the bytes of a state array (``b""`` for the empty state)."""
        body = state.astype(np.int8, copy=False).tobytes()
        return b"" if body == self._empty_bytes else body

    def child(self, state: bytes, guess: int, code: int) -> bytes:
        """Return the state after vocabulary row ``guess`` got reply ``code`` in ``state``."""
        out = self.array(state)
        advance_state(out, self.letters[guess], int(code), out)
        return self.key(out)

    def children(self, state: bytes, guess: int, codes: np.ndarray) -> list[bytes]:
        """Return the state after vocabulary row ``guess`` got each reply of ``codes``
        (int64) in ``state``: :meth:`child` for many replies in one compiled call (the
        search's NYT-hard hot loop: every class of every guess it tries)."""
        base = np.frombuffer(state, dtype=np.int8) if state else self._empty
        return _nyt.child_keys(base, self._rows[guess], codes, self._empty)

    def legal(self, state: bytes) -> np.ndarray:
        """Return the vocabulary rows (ascending) the NYT rule allows in ``state``."""
        rows: np.ndarray = np.flatnonzero(legal_mask(self.letters, self.array(state)))
        return rows.astype(np.int64)

    def path_state(self, path: Sequence[tuple[int, int]]) -> bytes:
        """Return the state after ``path``, (vocabulary row, reply code) pairs from the root."""
        state = b""
        for guess, code in path:
            state = self.child(state, guess, code)
        return state


def node_states(
    letters: np.ndarray,
    node_guess: np.ndarray,
    edge_offsets: np.ndarray,
    edge_reply: np.ndarray,
    edge_child: np.ndarray,
) -> np.ndarray:
    """Return each node's state in a stored tree (node 0 the root; children follow parents).

    ``letters`` are the vocabulary's letters; the other arrays are the
    tree's (see client.policy_format).

    Returns:
        An int8 array (nodes x (length + L)), row i the state at node i, ``L``
        the letter codes (26 for A-Z words).
    """
    length = int(letters.shape[1])
    states = np.zeros((len(node_guess), length + letter_count(letters)), dtype=np.int8)
    states[0] = empty_state(length, letter_count(letters))
    for node in range(len(node_guess)):
        for edge in range(int(edge_offsets[node]), int(edge_offsets[node + 1])):
            child = int(edge_child[edge])
            advance_state(
                states[node], letters[int(node_guess[node])], int(edge_reply[edge]), states[child]
            )
    return states
