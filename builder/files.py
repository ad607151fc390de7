"""File utilities every writing command shares: a leaf (it imports nothing of ours).

:func:`replace_file` is how the builder writes the files a reader may open at
any moment (word lists, priors, registries, reports, policy files): whole or
not at all.
"""

from __future__ import annotations

import os
from pathlib import Path


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file beside it,
    moved over it (a reader never sees half a file).

    Raises:
        OSError: the file cannot be written (the temporary file is removed).
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
