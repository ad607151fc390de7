"""Mastermind's symmetry hook keeps exactly the smallest code of each orbit.

The orbits after a history are those of the peg permutations that fix every
guess made, combined with renamings of the colours no guess used; here they
are enumerated by brute force (every such permutation pair applied to every
code) and compared with what the hook keeps, whose results are shared between
histories with the same permutations and colours.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from guesswork.builder.optimal import CodeSymmetry


def _codes(colours: int, pegs: int) -> np.ndarray:
    return np.array(list(itertools.product(range(colours), repeat=pegs)), dtype=np.int64)


def _orbit_minima(codes: np.ndarray, colours: int, history: tuple[int, ...]) -> np.ndarray:
    """The rows that are the smallest code of their orbit, by brute force."""
    pegs = codes.shape[1]
    weights = colours ** np.arange(pegs - 1, -1, -1)
    numbers = codes @ weights
    used = {int(c) for row in history for c in codes[row]}
    free = [c for c in range(colours) if c not in used]
    smallest = numbers.copy()
    for perm in itertools.permutations(range(pegs)):
        if any((codes[row][list(perm)] != codes[row]).any() for row in history):
            continue
        for renamed in itertools.permutations(free):
            mapping = np.arange(colours)
            mapping[free] = renamed
            smallest = np.minimum(smallest, mapping[codes[:, list(perm)]] @ weights)
    return np.flatnonzero(smallest == numbers)


@pytest.mark.parametrize(("colours", "pegs"), [(4, 3), (5, 3), (3, 4)])
def test_the_hook_keeps_one_code_per_orbit(colours: int, pegs: int) -> None:
    codes = _codes(colours, pegs)
    hook = CodeSymmetry(codes.astype(np.uint8), colours)
    rng = np.random.default_rng(colours * 10 + pegs)
    histories = [()] + [
        tuple(int(g) for g in rng.choice(len(codes), length, replace=False))
        for length in (1, 1, 1, 2, 2, 2, 2, 2)
    ]
    for history in histories:
        kept = hook(history)
        assert kept is not None
        assert np.array_equal(kept, _orbit_minima(codes, colours, history)), history
        assert hook(history) is kept  # remembered
    assert hook((0, 1, 2)) is None  # past max_history: every guess is tried


def test_the_classic_game_opens_with_five_kinds_of_guess() -> None:
    # 6 colours x 4 pegs: AAAA, AAAB, AABB, AABC, ABCD (Knuth's five first guesses).
    codes = _codes(6, 4)
    kept = CodeSymmetry(codes.astype(np.uint8), 6)(())
    assert kept is not None
    names = ["".join("ABCDEF"[c] for c in codes[row]) for row in kept]
    assert names == ["AAAA", "AAAB", "AABB", "AABC", "ABCD"]
