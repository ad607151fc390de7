"""The reply matrices' disk cache: checked on read, bounded, least recently used out first.

One file per matrix in :func:`cache_dir`, named ``KEY-CRC.npy``: KEY hashes
the game and both lists (builder.matrices makes it), CRC is the CRC-32 of the
matrix bytes, checked on every read, so a damaged or truncated file is
recomputed, never used. A matrix read from the cache is memory-mapped
(read-only), not copied. The folder holds at most :func:`cache_limit` bytes
($GUESSWORK_CACHE_MAX_BYTES, default 4 GiB): after each write the least
recently used files go until the rest fits. "Used" is a file's modification
time, which every hit sets, because access times are not kept on ``noatime``
mounts. A matrix larger than the whole limit is not written (a warning on the
``guesswork.builder.matrix_cache`` logger says so).

Several processes may share the folder: a write goes to a temporary file in
the folder and is renamed into place, so a reader sees a whole file or none,
and eviction and :func:`clean` pass over files another process removed first.
Reads and writes never raise for I/O (the cache only saves time); only a
malformed $GUESSWORK_CACHE_MAX_BYTES raises, as :class:`CacheConfigError`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..client.trust import cache_root
from .errors import CacheConfigError

#: The environment variable that bounds the folder, and its default (4 GiB).
LIMIT_VARIABLE = "GUESSWORK_CACHE_MAX_BYTES"
DEFAULT_MAX_BYTES = 4 << 30

#: A temporary file this old belongs to a writer that was killed: no write
#: takes a day, so eviction may remove it.
_STALE_TEMP_SECONDS = 24 * 3600

_MATRIX_NAME = re.compile(r"[0-9a-f]{32}-[0-9a-f]{8}\.npy")
# Our writers' temporary files (".KEY-random.tmp"), and the plain "tmpXXXXXXXX.tmp"
# names earlier versions used. Nothing else in the folder is ever touched, in
# case $GUESSWORK_CACHE points at a folder that holds other files too.
_TEMP_NAME = re.compile(r"(\.[0-9a-f]{32}-|tmp)[a-z0-9_]+\.tmp")
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"(\d+)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)

_log = logging.getLogger(__name__)


def cache_dir() -> Path:
    """Return the on-disk cache folder: $GUESSWORK_CACHE, else the XDG cache's ``guesswork``
    (client.trust.cache_root, which the proof record shares; a relative $XDG_CACHE_HOME
    is ignored, as the XDG rule says)."""
    return cache_root()


def parse_size(text: str) -> int:
    """Return the bytes ``text`` names: a whole number, optionally K, M, G or T (powers of 1024).

    ``4G``, ``4GiB``, ``4gb`` and ``4294967296`` are all 4 GiB.

    Raises:
        CacheConfigError: the text is not of that form.
    """
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise CacheConfigError(
            f"${LIMIT_VARIABLE}={text!r} is not a size (bytes, or e.g. 500M, 4G; 0 turns "
            "the disk cache off)"
        )
    return int(match[1]) * _UNITS[match[2].upper()]


def cache_limit() -> int:
    """Return the most bytes the cache folder may hold; 0 means no disk cache.

    Raises:
        CacheConfigError: $GUESSWORK_CACHE_MAX_BYTES is set but is not a size.
    """
    text = os.environ.get(LIMIT_VARIABLE, "").strip()
    return parse_size(text) if text else DEFAULT_MAX_BYTES


def format_bytes(count: int) -> str:
    """Return ``count`` bytes for people: ``512 B``, ``1.5 KiB``, ``961.2 MiB``, ``4.0 GiB``."""
    if count < 1024:
        return f"{count} B"
    value = float(count)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            break
    return f"{value:.1f} {unit}"


@dataclass(frozen=True)
class CacheEntry:
    """One cached matrix file: its path, size, and when it was last used (Unix seconds)."""

    path: Path
    bytes: int
    last_used: float


def _scan(folder: Path, pattern: re.Pattern[str]) -> Iterator[CacheEntry]:
    """Yield the files in ``folder`` whose names match ``pattern``; none if there is no folder.

    A file removed by another process while the folder is read is skipped.
    """
    try:
        listing = list(os.scandir(folder))
    except OSError:
        return
    for item in listing:
        if not pattern.fullmatch(item.name):
            continue
        try:
            stat = item.stat(follow_symlinks=False)
        except OSError:
            continue
        yield CacheEntry(Path(item.path), stat.st_size, stat.st_mtime)


def entries(folder: Path | None = None) -> list[CacheEntry]:
    """Return the matrices cached in ``folder`` (default :func:`cache_dir`), latest used first."""
    found = list(_scan(cache_dir() if folder is None else folder, _MATRIX_NAME))
    return sorted(found, key=lambda entry: (-entry.last_used, entry.path.name))


def temporary_files(folder: Path | None = None) -> list[CacheEntry]:
    """Return the writers' temporary files in ``folder`` (default :func:`cache_dir`).

    They are either being written right now or left by a writer that was killed.
    """
    return list(_scan(cache_dir() if folder is None else folder, _TEMP_NAME))


def header(path: Path) -> tuple[tuple[int, ...], str] | None:
    """Return the (shape, dtype name) an ``.npy`` file's header declares, or None if unreadable."""
    try:
        with path.open("rb") as handle:
            major, _ = np.lib.format.read_magic(handle)
            read = (
                np.lib.format.read_array_header_1_0
                if major == 1
                else np.lib.format.read_array_header_2_0
            )
            shape, _, dtype = read(handle)
    except (OSError, ValueError, EOFError):
        return None
    return tuple(shape), str(dtype)


def _remove(path: Path) -> bool:
    """Remove ``path``; return False if it could not be (already gone counts as removed)."""
    try:
        path.unlink()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def load(key: str, shape: tuple[int, int], dtype: type) -> np.ndarray | None:
    """Return the cached matrix under ``key`` if a file of it is intact, else None.

    A hit marks the file as just used. A damaged file (wrong CRC, shape or
    dtype, truncated, unreadable) is removed so that it is written afresh.
    """
    folder = cache_dir()
    try:
        candidates = sorted(folder.glob(f"{key}-*.npy"))
    except OSError:
        return None
    for path in candidates:
        matrix = _read_checked(path, shape, dtype)
        if matrix is None:
            _remove(path)
            continue
        # Evicted meanwhile, or a read-only shared cache: the matrix is still good.
        with contextlib.suppress(OSError):
            os.utime(path)
        return matrix
    return None


def _read_checked(path: Path, shape: tuple[int, int], dtype: type) -> np.ndarray | None:
    """Return the matrix stored at ``path`` if it is intact, else None."""
    try:
        stored_crc = int(path.stem.rsplit("-", 1)[1], 16)
        # Mapped, not read into a copy: the CRC pass pages it in from the page cache
        # (1 s for a 1.6 GB matrix, where reading a copy took 2 to 7 s, and held the
        # matrix twice in memory, in the page cache and in the copy). Files are only
        # ever replaced whole (renamed into place), so a mapped one never changes.
        matrix: np.ndarray = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, IndexError, EOFError):
        return None
    if matrix.shape != shape or matrix.dtype != dtype:
        return None
    if zlib.crc32(_in_memory_order(matrix).data) != stored_crc:
        return None
    return matrix


def _in_memory_order(matrix: np.ndarray) -> np.ndarray:
    """Return ``matrix``'s elements as a C-contiguous array in the order they lie in
    memory: itself, or its transpose when it is laid out column by column (a
    target-major matrix, see builder.matrices.reply_matrix), so neither is copied."""
    if matrix.flags.f_contiguous and not matrix.flags.c_contiguous:
        return matrix.T
    return np.ascontiguousarray(matrix)


def store(key: str, matrix: np.ndarray) -> None:
    """Write ``matrix`` under ``key`` atomically, then evict down to the limit.

    Nothing is written when the disk cache is off (limit 0) or the matrix
    alone exceeds the limit (logged as a warning). A folder that cannot be
    written is skipped silently.

    Raises:
        CacheConfigError: $GUESSWORK_CACHE_MAX_BYTES is malformed.
    """
    limit = cache_limit()
    if limit == 0:
        return
    if matrix.nbytes > limit:
        _too_large(matrix, matrix.nbytes, limit)
        return
    # np.save keeps a column-major matrix column-major: written as it lies, no copy.
    contiguous = matrix if matrix.flags.f_contiguous else np.ascontiguousarray(matrix)
    folder = cache_dir()
    final = folder / f"{key}-{zlib.crc32(_in_memory_order(contiguous).data):08x}.npy"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            dir=folder, prefix=f".{key}-", suffix=".tmp", delete=False
        ) as handle:
            np.save(handle, contiguous, allow_pickle=False)
        size = os.stat(handle.name).st_size
        if size > limit:
            # Only the header tipped it over; same rule as above.
            _remove(Path(handle.name))
            _too_large(matrix, size, limit)
            return
        os.replace(handle.name, final)
    except OSError:
        # The cache only saves time; a read-only or full disk must not fail a build.
        return
    evict(folder, limit, keep=final)


def _too_large(matrix: np.ndarray, size: int, limit: int) -> None:
    _log.warning(
        "guesswork: the %s x %s reply matrix (%s) is larger than the whole cache limit "
        "(%s, $%s): computed, not cached",
        *matrix.shape,
        format_bytes(size),
        format_bytes(limit),
        LIMIT_VARIABLE,
    )


def evict(folder: Path, limit: int, *, keep: Path | None = None) -> int:
    """Remove least recently used matrices until those left total at most ``limit`` bytes.

    ``keep`` (the file just written) is never removed; temporary files older
    than a day (writers that were killed) are removed too. Files another
    process removes meanwhile count as gone. Returns the bytes freed.
    """
    freed = 0
    now = time.time()
    for temp in _scan(folder, _TEMP_NAME):
        if now - temp.last_used > _STALE_TEMP_SECONDS and _remove(temp.path):
            freed += temp.bytes
    cached = list(_scan(folder, _MATRIX_NAME))
    total = sum(entry.bytes for entry in cached)
    for entry in sorted(cached, key=lambda entry: (entry.last_used, entry.path.name)):
        if total <= limit:
            break
        if entry.path == keep:
            continue
        if _remove(entry.path):
            total -= entry.bytes
            freed += entry.bytes
    return freed


def clean(folder: Path | None = None, *, older_than_days: float | None = None) -> list[CacheEntry]:
    """Remove every cached matrix and temporary file; return those removed.

    With ``older_than_days``, only files not used (or, for temporary files,
    not written) for that many days. ``folder`` defaults to :func:`cache_dir`.
    A file another process removed first is not reported; one that cannot be
    removed (permissions) is left and not reported.
    """
    where = cache_dir() if folder is None else folder
    cutoff = None if older_than_days is None else time.time() - older_than_days * 86400
    removed = []
    for pattern in (_MATRIX_NAME, _TEMP_NAME):
        for entry in _scan(where, pattern):
            if cutoff is not None and entry.last_used >= cutoff:
                continue
            try:
                entry.path.unlink()
            except OSError:
                continue
            removed.append(entry)
    return removed


def describe(folder: Path | None = None) -> dict[str, Any]:
    """Return what ``guesswork-build cache info --json`` prints about ``folder``.

    Keys: ``directory``, ``files`` and ``bytes`` (the cached matrices),
    ``limit_bytes``, ``temporary_files`` and ``temporary_bytes``, and
    ``entries``, latest used first, each with ``file``, ``bytes``,
    ``last_used`` (UTC, ISO 8601), ``shape`` and ``dtype`` (None if the
    header is unreadable).

    Raises:
        CacheConfigError: $GUESSWORK_CACHE_MAX_BYTES is malformed.
    """
    where = cache_dir() if folder is None else folder
    cached = entries(where)
    temporary = temporary_files(where)
    rows = []
    for entry in cached:
        declared = header(entry.path)
        rows.append(
            {
                "file": entry.path.name,
                "bytes": entry.bytes,
                "last_used": datetime.fromtimestamp(entry.last_used, UTC).isoformat(
                    timespec="seconds"
                ),
                "shape": None if declared is None else list(declared[0]),
                "dtype": None if declared is None else declared[1],
            }
        )
    return {
        "directory": str(where),
        "files": len(cached),
        "bytes": sum(entry.bytes for entry in cached),
        "limit_bytes": cache_limit(),
        "temporary_files": len(temporary),
        "temporary_bytes": sum(entry.bytes for entry in temporary),
        "entries": rows,
    }
