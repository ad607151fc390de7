"""Subtrees as guess lists: what checkpoints, workers and clusters send of a search.

A subtree is the chosen guess of each of its sets of three or more targets, in
preorder (classes largest first, the order of :meth:`.problem.Problem.split`);
:func:`install_subtree` records such a list in another search's memo, checking
every guess, so a worker's or a checkpoint's result serves as if found there.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..errors import SearchError
from .search import Search


def subtree_guesses(
    search: Search, targets: np.ndarray, depth: int, state: bytes = b""
) -> list[int]:
    """Return the chosen guesses of ``search``'s subtree of ``targets`` (in ``state``) in
    preorder.

    Sets of one or two targets are implied and left out; classes are
    visited largest first (the order of :meth:`~.problem.Problem.split`).

    Raises:
        InfeasibleCapError: a set has no tree that meets the worst-case cap.
    """
    out: list[int] = []
    stack = [(targets, depth, state)]
    while stack:
        node, left, node_state = stack.pop()
        if len(node) <= 2:
            continue
        _, guess = search.choice(node, left, node_state)
        out.append(guess)
        stack.extend(
            (part, left - 1, search.values.child_state(node_state, guess, part))
            for part in reversed(search.problem.split(guess, node))
        )
    return out


def install_subtree(
    search: Search, targets: np.ndarray, depth: int, guesses: Iterator[int], state: bytes = b""
) -> int:
    """Record a subtree given in :meth:`subtree_guesses` order.

    Recursive, with no budget: every set of the subtree gets its exact
    value (and guess) memoised.

    Returns:
        The subtree's value.

    Raises:
        SearchError: the guesses name no valid guess or do not split a set.
    """
    size = len(targets)
    if size <= 2:
        return search.values.trivial_of(targets)
    guess = next(guesses, -1)
    if not 0 <= guess < search.problem.search_guesses:
        raise SearchError("a recorded subtree names no valid guess (damaged checkpoint?)")
    classes = search.problem.split(guess, targets)
    if any(len(part) == size for part in classes):
        raise SearchError("a recorded subtree does not split its targets (damaged checkpoint?)")
    if search.values.rule is not None and guess not in search.candidates(targets, None, state):
        raise SearchError("a recorded subtree breaks the NYT hard rule (damaged checkpoint?)")
    values = [
        install_subtree(
            search, part, depth - 1, guesses, search.values.child_state(state, guess, part)
        )
        for part in classes
    ]
    value = (
        1 + max(values, default=0)
        if search.values.minimax
        else search.values.mass(targets) + sum(values)
    )
    search.exact[search.values.key(targets, depth, state)] = (value, guess)
    return value
