"""The structure check every decoded tree passes before it is walked.

A policy read from a file or a catalog is untrusted: a crafted tree could send
a walk round a cycle or index past a word list. :func:`check_tree` refuses any
tree whose arrays do not fit together (docs/policy-format.rst lists the rules).

It has two implementations that say the same thing about every tree (the same
first problem, in the same words; tests/client/test_tree_check.py holds them to
it): plain Python over the decoded ``array.array``s, so a stored answer from
the command line never pays numpy's import (a 30,000-node tree takes a few tens
of milliseconds), and numpy, about ten times faster, used whenever numpy is
already imported (the server, ``verify``, the builder), where it costs nothing
extra.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, NoReturn

from .errors import MalformedPolicyError
from .text import plural
from .tree_arrays import TreeArray, as_numpy, edge_parents


@dataclass(frozen=True)
class TreeShape:
    """What a tree's arrays must fit: its stored node and edge counts (any type, as
    read), the target count, the vocabulary size (guesses and extra words), the
    game's reply codes and whether its leaves are deduced."""

    nodes: object
    edges: object
    targets: int
    vocabulary: int
    reply_space: int
    deduces: bool


Fail = Callable[[str], NoReturn]

# The problems, one constant each, so the two implementations cannot drift apart in wording.
COUNTS = "node and edge counts are inconsistent"
OFFSETS = "edge offsets are not increasing from 0 to the edge count"
CHILD_ORDER = "a child does not come after its parent"
ONE_EDGE = "a node is not reached by exactly one edge"
GUESS_INDEX = "a guess index is outside the word lists"
REPLY_CODE = "a reply code is outside the game's replies"
TWO_EDGES = "a node has two edges for one reply"
SIZES_COVER = "node sizes do not cover the targets"
TARGET_RANGE = "a node's targets lie outside the target list"
PERMUTATION = "target order is not a permutation of the targets"
ALT_COVER = "alternative offsets do not cover the alternatives"
ALT_ORDER = "alternative offsets are not increasing, or values do not match guesses"
ALT_INDEX = "an alternative's guess index is outside the word lists"
SIZES_ADD = "node sizes do not add up along the edges"
DEDUCED = "a node of a deduced tree wins a target, or a leaf wins none"
ALT_RANK = "a node's alternatives are not ranked best first (their values decrease)"
ALT_OWN = "a node's alternatives repeat a guess, or hold the node's own guess"


def check_tree(
    a: Mapping[str, TreeArray], shape: TreeShape, where: str, *, with_numpy: bool | None = None
) -> None:
    """Check that the decoded arrays ``a`` form a well-formed tree of ``shape``.

    ``with_numpy`` picks the implementation; None (the default) uses numpy when
    it is already imported, so the check never imports it.

    Raises:
        MalformedPolicyError: naming the first problem found (``where`` first).
    """

    def fail(problem: str) -> NoReturn:
        raise MalformedPolicyError(f"{where}: malformed tree: {problem}")

    n, m = shape.nodes, shape.edges
    if not isinstance(n, int) or not isinstance(m, int) or n < 1 or m != n - 1:
        fail(COUNTS)
    expected = {
        "node_guess": n,
        "node_size": n,
        "node_first": n,
        "edge_offsets": n + 1,
        "edge_reply": m,
        "edge_child": m,
        "target_order": shape.targets,
    }
    for name, length in expected.items():
        if len(a[name]) != length:
            fail(f"{name} has {plural(len(a[name]), 'entry')}, expected {length}")
    if with_numpy is None:
        with_numpy = "numpy" in sys.modules
    (_check_with_numpy if with_numpy else _check_in_python)(a, shape, n, fail)


def _check_in_python(a: Mapping[str, TreeArray], shape: TreeShape, n: int, fail: Fail) -> None:
    """Check the arrays (of the right lengths) in plain Python; ``fail`` the first problem."""
    m, n_targets, vocabulary = n - 1, shape.targets, shape.vocabulary
    offsets, child, size = a["edge_offsets"], a["edge_child"], a["node_size"]
    if offsets[0] != 0 or offsets[-1] != m or not _increasing(offsets):
        fail(OFFSETS)
    parent = list(edge_parents(offsets))
    if any(c <= p or c >= n for p, c in zip(parent, child, strict=True)):
        fail(CHILD_ORDER)
    if sorted(child) != list(range(1, n)):  # n - 1 edges, children after parents
        fail(ONE_EDGE)
    if not _within(a["node_guess"], vocabulary):
        fail(GUESS_INDEX)
    replies = shape.reply_space
    if not _within(a["edge_reply"], replies):
        fail(REPLY_CODE)
    if len({p * replies + r for p, r in zip(parent, a["edge_reply"], strict=True)}) != m:
        fail(TWO_EDGES)
    if min(size) < 1 or size[0] != n_targets:
        fail(SIZES_COVER)
    if any(f < 0 or f + s > n_targets for f, s in zip(a["node_first"], size, strict=True)):
        fail(TARGET_RANGE)
    if sorted(a["target_order"]) != list(range(n_targets)):
        fail(PERMUTATION)
    alt_offsets, alt_guess = a["alt_offsets"], a["alt_guess"]
    if len(alt_offsets) != n + 1 or alt_offsets[0] != 0 or alt_offsets[-1] != len(alt_guess):
        fail(ALT_COVER)
    if not _increasing(alt_offsets) or len(a["alt_value"]) != len(alt_guess):
        fail(ALT_ORDER)
    if not _within(alt_guess, vocabulary):
        fail(ALT_INDEX)
    alt_value, node_guess = a["alt_value"], a["node_guess"]
    for node in range(n):
        start, end = alt_offsets[node], alt_offsets[node + 1]
        # Ranked by the builder's step, smallest value (best) first (builder.alternatives).
        if any(alt_value[i] > alt_value[i + 1] for i in range(start, end - 1)):
            fail(ALT_RANK)
        chosen = alt_guess[start:end]
        if len(set(chosen)) != len(chosen) or node_guess[node] in chosen:
            fail(ALT_OWN)
    below = [0] * n
    for p, c in zip(parent, child, strict=True):
        below[p] += size[c]
    for node in range(n):
        won_here = size[node] - below[node]
        leaf = offsets[node + 1] == offsets[node]
        if won_here not in (0, 1) or (leaf and size[node] != 1):
            fail(SIZES_ADD)
        if shape.deduces and won_here != leaf:
            fail(DEDUCED)


def _increasing(values: TreeArray) -> bool:
    """Return True when ``values`` never decrease."""
    return all(a <= b for a, b in pairwise(values))


def _within(values: TreeArray, bound: int) -> bool:
    """Return True when every one of ``values`` is in ``range(bound)`` (or there are none)."""
    return not values or (min(values) >= 0 and max(values) < bound)


def _check_with_numpy(a: Mapping[str, TreeArray], shape: TreeShape, n: int, fail: Fail) -> None:
    """Check the arrays (of the right lengths) with numpy; ``fail`` the first problem.

    The same checks in the same order as :func:`_check_in_python`; values are
    widened to int64 first, so no sum below can overflow.
    """
    import numpy as np

    def wide(name: str) -> Any:
        return as_numpy(a[name]).astype(np.int64)

    def within(values: Any, bound: int) -> bool:
        return values.size == 0 or bool(values.min() >= 0 and values.max() < bound)

    m, n_targets, vocabulary = n - 1, shape.targets, shape.vocabulary
    offsets, child, size = wide("edge_offsets"), wide("edge_child"), wide("node_size")
    steps = np.diff(offsets)
    if offsets[0] != 0 or offsets[-1] != m or np.any(steps < 0):
        fail(OFFSETS)
    parent = np.repeat(np.arange(n, dtype=np.int64), steps)
    if np.any((child <= parent) | (child >= n)):
        fail(CHILD_ORDER)
    if not np.array_equal(np.sort(child), np.arange(1, n)):
        fail(ONE_EDGE)
    if not within(wide("node_guess"), vocabulary):
        fail(GUESS_INDEX)
    reply = wide("edge_reply")
    if not within(reply, shape.reply_space):
        fail(REPLY_CODE)
    if np.unique(parent * shape.reply_space + reply).size != m:
        fail(TWO_EDGES)
    if size.min() < 1 or size[0] != n_targets:
        fail(SIZES_COVER)
    first = wide("node_first")
    if np.any((first < 0) | (first + size > n_targets)):
        fail(TARGET_RANGE)
    if not np.array_equal(np.sort(wide("target_order")), np.arange(n_targets)):
        fail(PERMUTATION)
    alt_offsets, alt_guess = wide("alt_offsets"), wide("alt_guess")
    if len(alt_offsets) != n + 1 or alt_offsets[0] != 0 or alt_offsets[-1] != len(alt_guess):
        fail(ALT_COVER)
    if np.any(np.diff(alt_offsets) < 0) or len(a["alt_value"]) != len(alt_guess):
        fail(ALT_ORDER)
    if not within(alt_guess, vocabulary):
        fail(ALT_INDEX)
    alt_node = np.repeat(np.arange(n, dtype=np.int64), np.diff(alt_offsets))
    alt_value = as_numpy(a["alt_value"])
    same = alt_node[1:] == alt_node[:-1]
    # The Python check stops at the first node with either problem: so does this.
    bad_rank = alt_node[1:][same & (alt_value[1:] < alt_value[:-1])]
    keys = alt_node * vocabulary + alt_guess
    order = np.argsort(keys, kind="stable")
    repeated = alt_node[order[1:][keys[order][1:] == keys[order][:-1]]]
    own = alt_node[alt_guess == wide("node_guess")[alt_node]]
    bad_own = np.concatenate([repeated, own])
    if bad_rank.size and (not bad_own.size or bad_rank.min() <= bad_own.min()):
        fail(ALT_RANK)
    if bad_own.size:
        fail(ALT_OWN)
    below = np.zeros(n, dtype=np.int64)
    np.add.at(below, parent, size[child])
    won_here, leaf = size - below, steps == 0
    # The Python check stops at the first node with either problem: so does this.
    bad_sizes = np.flatnonzero(((won_here != 0) & (won_here != 1)) | (leaf & (size != 1)))
    bad_deduced = np.flatnonzero(won_here != leaf) if shape.deduces else bad_sizes[:0]
    if bad_sizes.size and (not bad_deduced.size or bad_sizes[0] <= bad_deduced[0]):
        fail(SIZES_ADD)
    if bad_deduced.size:
        fail(DEDUCED)
