"""The flat arrays of a stored tree: their types and their bytes.

A policy's tree is seven int32 arrays (client.policy_format names them), the
per-node alternatives and optional int64 target weights. Decoding gives
``array.array``s, so walking a tree (client.probe) and checking its structure
need no numpy: a stored answer from the command line never pays numpy's import
(client.tree_check checks their structure).
The builder makes numpy arrays; both index and ``len`` alike, and code that
computes over whole trees views them with :func:`as_numpy`.
"""

from __future__ import annotations

import array
import sys
from collections.abc import Iterator, Sequence
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, TypeAlias

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


def edge_keys(offsets: TreeArray, replies: TreeArray, reply_space: int) -> list[int]:
    """Return each edge's key ``parent * reply_space + reply``, in edge order (the
    probe's step table), computed with numpy when it is already imported (ten
    times faster on a large tree) and in plain Python otherwise."""
    if "numpy" not in sys.modules:
        return [
            parent * reply_space + int(reply)
            for parent, reply in zip(edge_parents(offsets), replies, strict=True)
        ]
    import numpy as np

    counts = np.diff(as_numpy(offsets)).astype(np.int64)
    parents = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    keys: list[int] = (parents * reply_space + as_numpy(replies)).tolist()
    return keys
