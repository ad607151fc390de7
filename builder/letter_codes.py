"""Letter codes: words as rows of small integers, and the dtype that holds reply codes.

A leaf of the builder (it imports nothing of ours): builder.matrices computes
reply matrices over these codes with the kernels of builder.reply_kernels, and
both, with the NYT hard-mode rule and the live answers, code words the same way.
Words of A-Z have the codes A=0..Z=25; words of any other alphabet have the
index of each letter in their lists' :func:`alphabet_of`.
"""

from __future__ import annotations

import numpy as np


def code_dtype(reply_space: int) -> type[np.unsignedinteger]:
    """Return the smallest unsigned dtype holding codes ``0..reply_space-1``."""
    if reply_space <= 1 << 8:
        return np.uint8
    if reply_space <= 1 << 16:
        return np.uint16
    return np.uint32


#: The letters of A-Z words, coded A=0..Z=25 (every English list's alphabet).
ASCII_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def alphabet_of(*word_lists: tuple[str, ...] | list[str]) -> str:
    """Return the letters that code the words of ``word_lists``, in code order.

    A-Z words give :data:`ASCII_ALPHABET` (codes A=0..Z=25, whatever letters
    occur); words of any other letters give their distinct letters sorted by
    code point. Every letter array compared with another (guesses with
    targets, a history with its policy's words) must use one alphabet.
    """
    joined = "".join("".join(words) for words in word_lists)
    if joined.isascii():
        return ASCII_ALPHABET
    return "".join(sorted(set(joined)))


def letter_array(
    words: tuple[str, ...] | list[str], length: int, alphabet: str | None = None
) -> np.ndarray:
    """Return words as a (len(words), length) uint8 array of letter codes.

    A letter's code is its index in ``alphabet`` (default: :func:`alphabet_of`
    the words themselves), so A-Z words have A=0..Z=25.

    Raises:
        ValueError: a letter is not in ``alphabet``, or it has over 256 letters.
    """
    joined = "".join(words)
    alphabet = alphabet_of(words) if alphabet is None else alphabet
    if alphabet == ASCII_ALPHABET and joined.isascii():
        flat = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
        return (flat.reshape(len(words), length) - ord("A")).astype(np.uint8)
    if len(alphabet) > 256:
        raise ValueError(f"an alphabet of {len(alphabet)} letters does not fit letter codes")
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    order = np.frombuffer(alphabet.encode("utf-32-le"), dtype=np.uint32)
    sorter = np.argsort(order, kind="stable")
    found = np.searchsorted(order, points, sorter=sorter).clip(0, max(len(order) - 1, 0))
    codes = sorter[found] if len(order) else found
    if len(points) and (len(order) == 0 or (order[codes] != points).any()):
        raise ValueError("a word has a letter outside the alphabet it is coded in")
    return codes.astype(np.uint8).reshape(len(words), length)


def letter_count(*arrays: np.ndarray) -> int:
    """Return how many letter codes ``arrays`` may hold: 26, or more for larger alphabets."""
    largest = max((int(a.max()) for a in arrays if a.size), default=0)
    return max(26, largest + 1)
