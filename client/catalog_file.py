"""Reading a catalog file: the standard library's sqlite3, one row when it is asked for.

The file is opened read-only and stays open while its catalog is: opening
reads the SQLite header (application id and schema version) and the ``meta``
rows; a policy, word list or honeycomb table is read by its key when first
needed (client.catalog checks it against the manifest then). Only the
catalog's own queries run here, over the table and column names that
client.catalog_sql defines for writing (a test checks they agree); reading
needs no SQLAlchemy, which alone costs a command several times a bare
interpreter's start.

A publish replaces the file by a rename (builder.publish), so an open catalog
goes on reading the file it opened, whole and unchanged.

The seal (:func:`check_seal`: a trailer holding the SHA-256 of every other
byte, which SQLite ignores) is checked by ``guesswork-build verify``, not at
open: it means reading the whole file, which grows with the catalog.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .catalog_location import check_header, sqlite_path
from .errors import PolicyFormatError

#: A catalog file ends with this and the SHA-256 of every byte before it.
SEAL_MAGIC = b"GWSEAL01"
_SEAL_SIZE = len(SEAL_MAGIC) + hashlib.sha256().digest_size
#: The key column of each table read by key.
_KEYS = {"policies": "name", "wordlists": "sha256", "honeycombs": "key"}


def seal(database: bytes) -> bytes:
    """Return the trailer that seals a finished SQLite catalog file's bytes."""
    return SEAL_MAGIC + hashlib.sha256(database).digest()


def check_seal(where: str, location: str | Path) -> None:
    """Raise PolicyFormatError unless the file ends with the seal of its other bytes.

    The seal covers every byte, so a flip even in space SQLite leaves unused
    is noticed. The file is hashed in pieces: memory stays flat however large
    the catalog.
    """
    path = sqlite_path(location)
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, 2)
            if size < _SEAL_SIZE:
                raise PolicyFormatError(f"{where}: not a sealed Guesswork catalog (truncated?)")
            handle.seek(0)
            left = size - _SEAL_SIZE
            while left:
                piece = handle.read(min(left, 1 << 20))
                if not piece:
                    raise PolicyFormatError(f"{where}: the catalog file shrank while being read")
                digest.update(piece)
                left -= len(piece)
            trailer = handle.read(_SEAL_SIZE)
    except OSError as error:
        raise PolicyFormatError(f"{where}: cannot read the catalog ({error.strerror})") from None
    if trailer[: len(SEAL_MAGIC)] != SEAL_MAGIC:
        raise PolicyFormatError(f"{where}: not a sealed Guesswork catalog (truncated?)")
    if trailer[len(SEAL_MAGIC) :] != digest.digest():
        raise PolicyFormatError(f"{where}: catalog checksum mismatch (the file is corrupt)")


def short_reason(error: Exception) -> str:
    """Return SQLite's reason for ``error`` in one short line.

    SQLite may quote the stored bytes it could not read: a line, not a dump.
    """
    reason = (str(error).splitlines() or ["unreadable"])[0]
    return reason if len(reason) <= 100 else reason[:100] + "..."


class FileRows:
    """A catalog file opened read-only: its ``meta`` rows at once, any other row by key.

    Safe to share between threads (one query at a time). Use :meth:`close`
    when done; a closed one refuses further reads.
    """

    def __init__(self, where: str, location: str | Path) -> None:
        """Open the catalog file at ``location`` (shown as ``where`` in messages).

        Raises:
            PolicyFormatError: no such file, a directory, not a SQLite database,
                not a Guesswork catalog of this schema, or unreadable.
        """
        self.where = where
        path = sqlite_path(location).resolve()
        #: The file opened (resolved).
        self.path = path
        if path.is_dir():
            raise PolicyFormatError(f"{where}: is a directory, not a catalog file")
        if not path.is_file():
            raise PolicyFormatError(f"{where}: no such catalog file")
        self._lock = threading.Lock()
        # mode=ro: lookups never write, and read-only files and folders still work.
        self._connection: sqlite3.Connection | None = sqlite3.connect(
            f"file:{quote(str(path))}?mode=ro", uri=True, check_same_thread=False
        )
        self._connection.row_factory = sqlite3.Row
        try:
            application_id = self._scalar("PRAGMA application_id")
            check_header(where, application_id, self._scalar("PRAGMA user_version"), "SQLite")
            rows = self._query("SELECT key, value FROM meta", ())
        except BaseException:
            self.close()
            raise
        #: The meta rows (values not text are left out: the manifest check refuses them).
        self.meta: dict[str, str] = {
            str(key): value for key, value in rows if isinstance(value, str)
        }

    def _scalar(self, sql: str) -> object:
        rows = self._query(sql, ())
        return rows[0][0] if rows else None

    def _query(self, sql: str, parameters: tuple[str, ...]) -> list[Any]:
        """Return every row of one query.

        Raises:
            PolicyFormatError: the file is closed, or SQLite cannot read it.
        """
        with self._lock:
            if self._connection is None:
                raise PolicyFormatError(f"{self.where}: the catalog is closed")
            try:
                return self._connection.execute(sql, parameters).fetchall()
            except (sqlite3.Error, UnicodeDecodeError) as error:
                raise PolicyFormatError(
                    f"{self.where}: not a readable Guesswork catalog ({short_reason(error)})"
                ) from None

    def row(self, table: str, key: str) -> Mapping[str, Any] | None:
        """Return the row of ``table`` (policies, wordlists or honeycombs) whose key is
        ``key``, as a column -> value mapping; None if there is none.

        Raises:
            PolicyFormatError: the file is closed or unreadable.
        """
        rows = self._query(f"SELECT * FROM {table} WHERE {_KEYS[table]} = ?", (key,))
        return dict(rows[0]) if rows else None

    def close(self) -> None:
        """Close the file; later reads raise PolicyFormatError."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
