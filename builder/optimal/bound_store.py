"""The bound store: target sets' exact values and proven bounds, kept between runs.

``optimize --bound-store PATH`` (or $GUESSWORK_BOUND_STORE) names an SQLite
file that every process of a search reads and adds to: the main process and
each worker open it themselves (WAL mode, so readers never wait for a writer
and writers wait for each other up to two minutes; WAL needs the processes on
one machine, not a network file system). A later search of the same problem,
or of another opener of it, finds what earlier ones proved.

**What is kept.** One row per (identity, set): the set's exact value with
the guess chosen for it, or a proven lower bound (a refutation: merged by
keeping the larger). The *identity* (:func:`identity`) is a SHA-256 over
everything a value depends on: the reply matrix, the target-to-guess map, the
NYT letters, the win and reply counts, objective, hard, nyt_hard,
max_guesses, beam, whether a symmetry hook runs, and :data:`IDENTITY_FORMAT`.
It is taken from the numbers the search works on rather than from names, so
every process derives it alone and anything that could change a value
changes it: lookahead values (``beam``) are never mixed with optima, and
different lists or games never share rows. A set's key is a 128-bit BLAKE2b
digest of :meth:`SetValues.key <.set_values.SetValues.key>` (the set, and the depth and
NYT state where they count).

**What is looked up.** Only sets of at least :data:`MIN_STORED` targets, in
:meth:`~.search.Search.solve` on a memo miss (see :meth:`StoreLink.recall`); smaller
sets cost less to search again than to look up and keep.

**Determinism.** An exact row gives the value a search would find and, for
the guess, the one a search of the same identity chooses (it depends only on
the set), so trees are the same with or without a store. With a symmetry
hook (Mastermind) the chosen guess depends on the path, so only the value is
kept: on a hit below the budget the node is searched again under the budget
``value + 1``, which finds this path's own guess quickly. Lookahead runs with
a symmetry hook use no store (their values depend on the path too).

**Bounds.** New rows are buffered in memory (at most :data:`BUFFER_ENTRIES`)
and written in one transaction when the buffer fills, at the end of each root
branch and at the end of the search. The file holds at most ``max_rows`` rows
($GUESSWORK_BOUND_STORE_MAX_ROWS, default :data:`DEFAULT_MAX_ROWS`, about 80
bytes each): a write that would pass it first drops the least recently used
rows (a logical clock stamps each write and each hit) down to 90% of it.

**Errors.** A file that is not a bound store (not SQLite, or an SQLite file
with other tables), a store of another :data:`SCHEMA`, or one that cannot be
opened, read or written raises :class:`BoundStoreError` (one line); the file is
never rebuilt or overwritten, as it may be something else the user keeps. An
empty or missing file becomes a new store.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..errors import BoundStoreError
from .problem import Problem, SearchOptions
from .stats import SearchStats

if TYPE_CHECKING:
    from .symmetry import SymmetryHook


class Memo(Protocol):
    """What the store reads and fills of a search (.search.Search): its memo and figures."""

    stats: SearchStats
    exact: dict[bytes, tuple[int, int]]
    lower: dict[bytes, int]


#: The variable ``optimize`` reads a store's path from when ``--bound-store`` is not given
#: (nothing else reads it: ``build-all`` never uses a store).
BOUND_STORE_VARIABLE = "GUESSWORK_BOUND_STORE"
#: The file's schema; a store of another schema is refused.
SCHEMA = 1
#: Part of every identity: bump it when stored values would mean something else.
IDENTITY_FORMAT = "bound-store-v1"
#: Smallest set looked up and kept. Measured on the hard-mode search over every
#: opener (2315 answers): 4 doubles the rows of 8 for a rerun 6% faster, 16 keeps
#: 40% of them for one 1% slower.
MIN_STORED = 8
#: The most rows a file holds by default, and the variable that changes it.
DEFAULT_MAX_ROWS = 2_000_000
MAX_ROWS_VARIABLE = "GUESSWORK_BOUND_STORE_MAX_ROWS"
#: New rows (and hits) buffered before they are written.
BUFFER_ENTRIES = 20_000
#: How long a process waits for another's write before giving up (seconds).
BUSY_TIMEOUT = 120.0

#: An entry: (exact 0/1, value, guess; -1 where no guess is kept).
Entry = tuple[int, int, int]

_SCHEMA_SQL = (
    "CREATE TABLE bound_store_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "CREATE TABLE identities (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, "
    "about TEXT NOT NULL)",
    "CREATE TABLE entries (ident INTEGER NOT NULL, key BLOB NOT NULL, exact INTEGER NOT NULL, "
    "value INTEGER NOT NULL, guess INTEGER NOT NULL, used INTEGER NOT NULL, "
    "PRIMARY KEY (ident, key)) WITHOUT ROWID",
    "CREATE INDEX entries_used ON entries (used)",
)
# An exact value replaces a bound; bounds merge by keeping the larger.
_UPSERT = (
    "INSERT INTO entries (ident, key, exact, value, guess, used) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (ident, key) DO UPDATE SET "
    "value = CASE WHEN excluded.exact THEN excluded.value WHEN entries.exact THEN entries.value "
    "ELSE max(entries.value, excluded.value) END, "
    "guess = CASE WHEN excluded.exact THEN excluded.guess ELSE entries.guess END, "
    "exact = max(entries.exact, excluded.exact), used = excluded.used"
)


def max_rows_from_env() -> int:
    """Return the row bound $GUESSWORK_BOUND_STORE_MAX_ROWS names (default: DEFAULT_MAX_ROWS).

    Raises:
        BoundStoreError: the variable is set but is not a whole number of at least 1.
    """
    text = os.environ.get(MAX_ROWS_VARIABLE, "").strip().replace("_", "")
    if not text:
        return DEFAULT_MAX_ROWS
    if not text.isdigit() or int(text) < 1:
        raise BoundStoreError(f"${MAX_ROWS_VARIABLE}={text!r} is not a whole number of rows >= 1")
    return int(text)


class BoundStore:
    """One bound store file (see the module docstring); one connection, this process's."""

    def __init__(self, path: str | os.PathLike[str], max_rows: int | None = None) -> None:
        """Open the store at ``path``, making a new one if the file is missing or empty.

        Raises:
            BoundStoreError: the file cannot be opened, is not a bound store, has
                another schema, or ``max_rows`` is below 1.
        """
        self.path = Path(path)
        self.max_rows = max_rows_from_env() if max_rows is None else max_rows
        if self.max_rows < 1:
            raise BoundStoreError(f"a bound store holds at least 1 row, not {self.max_rows}")
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.Error as error:
            raise self._error("cannot open it", error) from None
        try:
            self._prepare()
        except sqlite3.Error as error:
            self._db.close()
            raise self._error("cannot use it", error) from None
        except BoundStoreError:
            self._db.close()
            raise

    def _error(self, what: str, error: BaseException) -> BoundStoreError:
        """Return the one-line error for ``error`` met while doing ``what``."""
        return BoundStoreError(f"bound store {self.path}: {what} ({error})")

    def _prepare(self) -> None:
        """Check the file is a store of this schema, making the tables in an empty one.

        Raises:
            BoundStoreError: another kind of file, or another schema.
            sqlite3.Error: the file cannot be read or written.
        """
        try:
            tables = self._tables()
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as error:  # not SQLite, or damaged
            raise BoundStoreError(
                f"bound store {self.path} is not a bound store ({error}); name another file"
            ) from None
        if not tables:
            with self._writing():
                if not self._tables():  # another process may have just made them
                    for statement in _SCHEMA_SQL:
                        self._db.execute(statement)
                    self._db.executemany(
                        "INSERT INTO bound_store_meta VALUES (?, ?)",
                        [("schema", SCHEMA), ("clock", 0), ("rows_bound", 0)],
                    )
            tables = self._tables()
        if "bound_store_meta" not in tables:
            raise BoundStoreError(
                f"bound store {self.path} is not a bound store (an SQLite file with other "
                "tables); name another file"
            )
        schema = self._meta("schema")
        if schema != SCHEMA:
            raise BoundStoreError(
                f"bound store {self.path} has schema {schema}, this version uses {SCHEMA}; "
                "remove it to start over"
            )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")

    def _tables(self) -> set[str]:
        """Return the names of the file's tables."""
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(name) for (name,) in rows}

    def _meta(self, name: str) -> int | None:
        """Return the meta value ``name`` (None if missing)."""
        row = self._db.execute("SELECT value FROM bound_store_meta WHERE name = ?", (name,))
        found = row.fetchone()
        return None if found is None else int(found[0])

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Run the body in one write transaction (waiting for other writers)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def identity_id(self, identity: str, about: str) -> int:
        """Return the row id of ``identity`` (described by ``about``), adding it if new.

        Raises:
            BoundStoreError: the file cannot be read or written.
        """
        try:
            with self._writing():
                self._db.execute(
                    "INSERT OR IGNORE INTO identities (identity, about) VALUES (?, ?)",
                    (identity, about),
                )
                row = self._db.execute("SELECT id FROM identities WHERE identity = ?", (identity,))
                return int(row.fetchone()[0])
        except sqlite3.Error as error:
            raise self._error("cannot write it", error) from None

    def get(self, ident: int, key: bytes) -> Entry | None:
        """Return the entry of ``key`` under identity ``ident``, or None.

        Raises:
            BoundStoreError: the file cannot be read.
        """
        try:
            row = self._db.execute(
                "SELECT exact, value, guess FROM entries WHERE ident = ? AND key = ?", (ident, key)
            ).fetchone()
        except sqlite3.Error as error:
            raise self._error("cannot read it", error) from None
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))

    def write(self, ident: int, entries: Mapping[bytes, Entry], touched: set[bytes]) -> None:
        """Add ``entries`` and mark ``touched`` keys used, in one transaction.

        Every row written or touched gets the next tick of the file's clock;
        if the file may now hold more than :attr:`max_rows` rows, the least
        recently used go until 90% of it is left.

        Raises:
            BoundStoreError: the file cannot be written.
        """
        try:
            with self._writing():
                clock = (self._meta("clock") or 0) + 1
                self._db.executemany(
                    _UPSERT,
                    ((ident, key, e[0], e[1], e[2], clock) for key, e in entries.items()),
                )
                self._db.executemany(
                    "UPDATE entries SET used = ? WHERE ident = ? AND key = ?",
                    ((clock, ident, key) for key in touched),
                )
                # An upper bound of the rows, so that they need counting only near the limit.
                rows = (self._meta("rows_bound") or 0) + len(entries)
                if rows > self.max_rows:
                    rows = self._evict()
                self._db.executemany(
                    "UPDATE bound_store_meta SET value = ? WHERE name = ?",
                    [(clock, "clock"), (rows, "rows_bound")],
                )
        except sqlite3.Error as error:
            raise self._error("cannot write it", error) from None

    def _evict(self) -> int:
        """Drop the least recently used rows if there are more than :attr:`max_rows`.

        Returns:
            The rows left.
        """
        count = int(self._db.execute("SELECT count(*) FROM entries").fetchone()[0])
        if count <= self.max_rows:
            return count
        keep = self.max_rows * 9 // 10
        self._db.execute(
            "DELETE FROM entries WHERE (ident, key) IN "
            "(SELECT ident, key FROM entries ORDER BY used LIMIT ?)",
            (count - keep,),
        )
        return keep

    def rows(self) -> int:
        """Return the rows the file holds, every identity's together.

        Raises:
            BoundStoreError: the file cannot be read.
        """
        try:
            return int(self._db.execute("SELECT count(*) FROM entries").fetchone()[0])
        except sqlite3.Error as error:
            raise self._error("cannot read it", error) from None

    def close(self) -> None:
        """Close the connection (buffered writes belong to links: flush them first)."""
        self._db.close()


def identity(problem: Problem, options: SearchOptions, symmetry: bool) -> tuple[str, str]:
    """Return the identity of a search's values (see the module docstring) and a description.

    Returns:
        (SHA-256 hex digest, a JSON description of the settings it covers).
    """
    arrays = [problem.matrix, problem.target_guess]
    if problem.letters is not None:
        arrays.append(problem.letters)
    if problem.weights is not None:  # weighted values are other values
        arrays.append(problem.weights)
    settings = {
        "format": IDENTITY_FORMAT,
        "objective": options.objective,
        "hard": options.hard,
        "nyt_hard": options.nyt_hard,
        "max_guesses": options.max_guesses,
        "beam": options.beam,
        "symmetry": symmetry,
        "win": problem.win,
        "replies": problem.replies,
        "search_guesses": problem.search_guesses,
        "arrays": [[str(a.dtype), list(a.shape)] for a in arrays],
    }
    about = json.dumps(settings, sort_keys=True)
    digest = hashlib.sha256(about.encode())
    for array in arrays:
        digest.update(np.ascontiguousarray(array).data)
    return digest.hexdigest(), about


def open_link(
    problem: Problem, options: SearchOptions, symmetry: SymmetryHook | None
) -> StoreLink | None:
    """Return a search's link to the store ``options.bound_store`` names, or None.

    None when no store is asked for, and for lookahead runs with a symmetry
    hook (their values depend on the path).

    Raises:
        BoundStoreError: the store cannot be used (see :class:`BoundStore`).
    """
    if options.bound_store is None or (symmetry is not None and options.beam is not None):
        return None
    return StoreLink(BoundStore(options.bound_store), problem, options, symmetry is not None)


def _digest(key: bytes) -> bytes:
    """Return the stored key of a memo key: its 128-bit BLAKE2b digest."""
    return hashlib.blake2b(key, digest_size=16).digest()


class StoreLink:
    """One search's use of a store: its identity, buffered rows and hits."""

    def __init__(
        self, store: BoundStore, problem: Problem, options: SearchOptions, symmetry: bool
    ) -> None:
        self.store = store
        #: With a symmetry hook, exact rows keep the value only (the guess depends on the path).
        self.value_only = symmetry
        self._identity = (problem, options, symmetry)
        self._ident: int | None = None
        self._pending: dict[bytes, Entry] = {}
        self._touched: set[bytes] = set()

    @property
    def ident(self) -> int:
        """Return the identity's row id, registering it on first use (hashes the matrix)."""
        if self._ident is None:
            self._ident = self.store.identity_id(*identity(*self._identity))
        return self._ident

    def recall(
        self, search: Memo, key: bytes, size: int, budget: int, known: int
    ) -> tuple[int | None, int, int]:
        """Consult the store for a set of ``size`` targets that the memo cannot answer.

        An exact row is memoised and answers; a bound (or a kept value without
        its guess) at or above ``budget`` is memoised as a bound and answers;
        a bound below it raises ``known``; a value without its guess below it
        becomes ``known`` and tightens ``budget`` to ``value + 1``. Counts
        lookups and hits in ``search.stats``.

        Returns:
            (the answer or None, the budget to search with, the best known lower bound).

        Raises:
            BoundStoreError: the file cannot be read.
        """
        if size < MIN_STORED:
            return None, budget, known
        search.stats.store_lookups += 1
        digest = _digest(key)
        found = self.store.get(self.ident, digest)
        if found is None:
            return None, budget, known
        search.stats.store_hits += 1
        self._touch(digest)
        exact, value, guess = found
        if exact and guess >= 0:
            search.exact[key] = (value, guess)
            return value, budget, known
        known = max(known, value)
        if known >= budget:
            search.lower[key] = known
            return known, budget, known
        return None, (value + 1 if exact else budget), known

    def keep(self, key: bytes, size: int, value: int, guess: int) -> None:
        """Buffer a search result: ``value`` exact with ``guess``, or a bound if ``guess`` < 0.

        Raises:
            BoundStoreError: the buffer was full and could not be written.
        """
        if size < MIN_STORED:
            return
        digest = _digest(key)
        if guess >= 0:
            entry = (1, value, -1 if self.value_only else guess)
        else:
            before = self._pending.get(digest)
            if before is not None and before[0]:
                return
            entry = (0, value if before is None else max(value, before[1]), -1)
        self._pending[digest] = entry
        if len(self._pending) >= BUFFER_ENTRIES:
            self.flush()

    def _touch(self, digest: bytes) -> None:
        """Note a hit, so that the row counts as recently used."""
        self._touched.add(digest)
        if len(self._touched) >= BUFFER_ENTRIES:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows and hits in one transaction.

        Raises:
            BoundStoreError: the file cannot be written.
        """
        if not self._pending and not self._touched:
            return
        self.store.write(self.ident, self._pending, self._touched - self._pending.keys())
        self._pending.clear()
        self._touched.clear()
