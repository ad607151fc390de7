"""Keeping a long-running server's heap from creeping (glibc's malloc only).

A server's live answers allocate and free working arrays of one to tens of MB
from many threads. glibc's defaults suit that poorly: each thread that
allocates may get an arena of its own (up to eight per core), and the
threshold above which an allocation is its own mapping (returned to the
system when freed) rises to the size of the largest block freed, up to 32 MB,
so later blocks come from the arenas instead, where freed memory is kept and
fragments. Under a soak the resident memory crept up and swung widely.

:func:`tune_allocator` fixes both, once, at start: at most
:data:`ARENAS` arenas, and blocks of :data:`MMAP_THRESHOLD` bytes or more
always mapped on their own (a fixed threshold also stops it rising). The cost
is a mapping and its page faults per large block, microseconds beside the
milliseconds a block is computed for. glibc's own variables
``MALLOC_ARENA_MAX`` and ``MALLOC_MMAP_THRESHOLD_`` still rule where set
(both are read by malloc itself, before this runs).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

#: mallopt's parameter numbers (glibc malloc.h).
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
#: Arenas at most: two, as the live gate runs about one live computation per core.
ARENAS = 2
#: Allocations of at least this many bytes are mappings of their own (glibc's
#: starting value, kept fixed).
MMAP_THRESHOLD = 128 * 1024


def tune_allocator() -> bool:
    """Set glibc malloc's arena count and mapping threshold for a long-running server,
    unless its environment sets them. Returns whether both were set (False: another
    C library, or the environment chose).
    """
    if "MALLOC_ARENA_MAX" in os.environ or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):  # no C library found, or not glibc's
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_ARENA_MAX, ARENAS)) and bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
