"""The flat arrays of a stored tree: their types, their bytes, and the structure check.

A policy's tree is seven int32 arrays (client.policy_format names them), the
per-node alternatives and optional int64 target weights. Decoding gives
``array.array``s, so walking a tree (client.probe) and checking its structure
need no numpy: a stored answer from the command line never pays numpy's import.
The builder makes numpy arrays; both index and ``len`` alike, and code that
computes over whole trees views them with :func:`as_numpy`.
"""

from __future__ import annotations

import array
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, pairwise, repeat
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from .errors import MalformedPolicyError
from .text import plural

if TYPE_CHECKING:
    import numpy.typing as npt

#: A tree array. Decoding gives ``array.array`` (int32, int64 or float64): walking
#: and checking a tree needs no numpy, so a stored answer from the command line
#: does not pay numpy's import. The builder hands in numpy arrays. Both index and
#: ``len`` alike; code that computes over whole arrays takes :func:`as_numpy`.
TreeArray: TypeAlias = "array.array[Any] | npt.NDArray[Any]"

#: array's type codes for the stored widths (C int and long long are 4 and 8
#: bytes wherever Python runs; checked here so a surprise fails loudly).
INT32, INT64, FLOAT64 = "i", "q", "d"
if [array.array(code).itemsize for code in (INT32, INT64, FLOAT64)] != [4, 8, 8]:
    raise ImportError("this platform's array type codes i, q, d are not 4, 8 and 8 bytes")


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


def from_little_endian(code: str, data: bytes) -> array.array[Any]:
    """Return the little-endian values in ``data`` as an array of type ``code``."""
    values = array.array(code)
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def to_little_endian(code: str, values: TreeArray) -> bytes:
    """Return ``values`` as little-endian bytes of ``code``'s width (numpy's or array's)."""
    if isinstance(values, array.array) and values.typecode == code:
        own = values
    else:  # a numpy array (the builder's) or another width: one value at a time
        own = array.array(code, values.tolist())
    if sys.byteorder == "big":
        own = array.array(code, own)
        own.byteswap()
    return own.tobytes()


def as_numpy(values: TreeArray) -> npt.NDArray[Any]:
    """Return ``values`` as a numpy array (a view of a decoded ``array.array``, no copy).

    For code that computes over whole trees (the builder, deep replays); the
    walk itself never needs it. Imports numpy on first use.
    """
    import numpy as np

    return np.asarray(values)


def no_alternatives(node_count: int) -> dict[str, array.array[Any]]:
    """Return the alternative arrays of a tree whose nodes have none."""
    return {
        "alt_offsets": array.array(INT32, bytes(4 * (node_count + 1))),
        "alt_guess": array.array(INT32),
        "alt_value": array.array(FLOAT64),
    }


def edge_parents(offsets: TreeArray | Sequence[int]) -> Iterator[int]:
    """Yield each edge's parent node, in edge order, from a tree's ``edge_offsets``."""
    return chain.from_iterable(
        repeat(node, int(offsets[node + 1]) - int(offsets[node]))
        for node in range(len(offsets) - 1)
    )


def check_tree(a: Mapping[str, array.array[Any]], shape: TreeShape, where: str) -> None:
    """Check that the decoded arrays ``a`` form a well-formed tree of ``shape``.

    Raises:
        MalformedPolicyError: naming the first problem found (``where`` first).
    """

    def fail(problem: str) -> NoReturn:
        raise MalformedPolicyError(f"{where}: malformed tree: {problem}")

    n, m = shape.nodes, shape.edges
    if not isinstance(n, int) or not isinstance(m, int) or n < 1 or m != n - 1:
        fail("node and edge counts are inconsistent")
    n_targets, vocabulary = shape.targets, shape.vocabulary
    expected = {
        "node_guess": n,
        "node_size": n,
        "node_first": n,
        "edge_offsets": n + 1,
        "edge_reply": m,
        "edge_child": m,
        "target_order": n_targets,
    }
    for name, length in expected.items():
        if len(a[name]) != length:
            fail(f"{name} has {plural(len(a[name]), 'entry')}, expected {length}")
    # Plain Python over the decoded arrays: linear, and it needs no numpy (a
    # 30,000-node tree takes a few tens of milliseconds, once per policy).
    offsets, child, size = a["edge_offsets"], a["edge_child"], a["node_size"]
    if offsets[0] != 0 or offsets[-1] != m or not _increasing(offsets):
        fail("edge offsets are not increasing from 0 to the edge count")
    parent = list(edge_parents(offsets))
    if any(c <= p or c >= n for p, c in zip(parent, child, strict=True)):
        fail("a child does not come after its parent")
    if sorted(child) != list(range(1, n)):  # n - 1 edges, children after parents
        fail("a node is not reached by exactly one edge")
    if not _within(a["node_guess"], vocabulary):
        fail("a guess index is outside the word lists")
    replies = shape.reply_space
    if not _within(a["edge_reply"], replies):
        fail("a reply code is outside the game's replies")
    if len({p * replies + r for p, r in zip(parent, a["edge_reply"], strict=True)}) != m:
        fail("a node has two edges for one reply")
    if min(size) < 1 or size[0] != n_targets:
        fail("node sizes do not cover the targets")
    if any(f < 0 or f + s > n_targets for f, s in zip(a["node_first"], size, strict=True)):
        fail("a node's targets lie outside the target list")
    if sorted(a["target_order"]) != list(range(n_targets)):
        fail("target order is not a permutation of the targets")
    alt_offsets, alt_guess = a["alt_offsets"], a["alt_guess"]
    if len(alt_offsets) != n + 1 or alt_offsets[0] != 0 or alt_offsets[-1] != len(alt_guess):
        fail("alternative offsets do not cover the alternatives")
    if not _increasing(alt_offsets) or len(a["alt_value"]) != len(alt_guess):
        fail("alternative offsets are not increasing, or values do not match guesses")
    if not _within(alt_guess, vocabulary):
        fail("an alternative's guess index is outside the word lists")
    below = [0] * n
    for p, c in zip(parent, child, strict=True):
        below[p] += size[c]
    for node in range(n):
        won_here = size[node] - below[node]
        leaf = offsets[node + 1] == offsets[node]
        if won_here not in (0, 1) or (leaf and size[node] != 1):
            fail("node sizes do not add up along the edges")
        if shape.deduces and won_here != leaf:
            fail("a node of a deduced tree wins a target, or a leaf wins none")


def _increasing(values: Sequence[int]) -> bool:
    """Return True when ``values`` never decrease."""
    return all(a <= b for a, b in pairwise(values))


def _within(values: Sequence[int], bound: int) -> bool:
    """Return True when every one of ``values`` is in ``range(bound)`` (or there are none)."""
    return not values or (min(values) >= 0 and max(values) < bound)
