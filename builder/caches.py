"""Every cache this project keeps on disk, for ``guesswork-build cache info|clean``.

Two caches, both under one folder (client.trust.cache_root: ``$GUESSWORK_CACHE``,
else ``$XDG_CACHE_HOME/guesswork``, i.e. ``~/.cache/guesswork``):

* the **reply matrices** (builder.matrix_cache): one ``.npy`` file per matrix,
  bounded by ``$GUESSWORK_CACHE_MAX_BYTES`` (default 4 GiB), least recently
  used out first;
* the **proof record** (client.trust): one empty file per proven policy's
  content hash under ``proven/vN``; it grows by one file per policy built,
  imported or proven here, and clearing it costs only proofs made again.

Nothing else is written there (the kernels are C, compiled at install; the
service's response cache is in memory, bounded by ``guesswork-serve
--cache-entries``). Only files named as each cache names them are counted or
removed, so a ``$GUESSWORK_CACHE`` shared with other files is safe.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from ..client import trust

#: The caches ``cache clean`` can clear, by the name its options and JSON use.
CACHES = ("matrices", "proofs")

_VERSION_FOLDER = re.compile(r"v\d+")
# A record, or the temporary file client.trust.remember writes before renaming it.
_RECORD_FILE = re.compile(rf"{trust.RECORD_NAME.pattern}|\.{trust.RECORD_NAME.pattern}\.\d+\.tmp")


def _records(root: Path) -> list[tuple[Path, float]]:
    """Return (path, modification time) of every proof-record file under ``root``, of
    every version; none if there is no folder. A file removed meanwhile is skipped."""
    found = []
    try:
        versions = [item for item in os.scandir(root) if _VERSION_FOLDER.fullmatch(item.name)]
    except OSError:
        return []
    for version in versions:
        try:
            listing = list(os.scandir(version.path))
        except OSError:
            continue
        for item in listing:
            if not _RECORD_FILE.fullmatch(item.name):
                continue
            try:
                found.append((Path(item.path), item.stat(follow_symlinks=False).st_mtime))
            except OSError:
                continue
    return found


def describe_proofs() -> dict[str, Any]:
    """Return what ``cache info --json`` prints under ``proofs``.

    Keys: ``directory`` (the current version's folder), ``version``, ``files``
    (the policies recorded as proven, this version) and ``older_version_files``
    (records an earlier proof version left, never read again; ``clean`` removes them).
    """
    current = trust.proof_folder()
    records = _records(trust.proof_root())
    mine = sum(
        1
        for path, _ in records
        if path.parent == current and trust.RECORD_NAME.fullmatch(path.name)
    )
    older = sum(1 for path, _ in records if path.parent != current)
    return {
        "directory": str(current),
        "version": trust.PROOF_VERSION,
        "files": mine,
        "older_version_files": older,
    }


def clean_proofs(*, older_than_days: float | None = None) -> int:
    """Remove the proof record's files, every version (with ``older_than_days``, only
    those recorded that many days ago or more); return how many were removed.

    A policy whose record is removed is proven again on its next use (time, never
    trust). A file that cannot be removed, or that another process removed first,
    is not counted.
    """
    cutoff = None if older_than_days is None else time.time() - older_than_days * 86400
    removed = 0
    for path, recorded in _records(trust.proof_root()):
        if cutoff is not None and recorded >= cutoff:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        removed += 1
    return removed
