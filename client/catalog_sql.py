"""The catalog's tables, and catalogs kept on a PostgreSQL server.

The one definition of the catalog's schema (:data:`metadata` and its four
tables) serves both kinds of location: a SQLite file (client.catalog reads it,
builder.publish writes it) and a PostgreSQL database, named by a SQLAlchemy URL
(``postgresql+psycopg://USER@HOST:PORT/DATABASE``; ``postgresql://`` and
``postgres://`` mean the same, with psycopg 3). :func:`server_url` is the one
place that tells the two apart.

On PostgreSQL, what the SQLite file keeps outside its tables is kept in
``meta`` rows: ``application_id`` (the file header's, ``GWPC``), the schema
version (a row the file has too), ``generation`` (raised by every publish, so
a server polling the catalog notices a republish cheaply) and ``seal``: the
SHA-256 of every other row of every table in a canonical encoding
(:func:`content_seal`), as strong as the file's seal over its bytes. A reader
(:func:`read_server_tables`) takes every table in one REPEATABLE READ, read-only
transaction, so it sees one published catalog whole, checks the header rows and
the seal, and hands the rows to client.catalog for the same per-row checks a
file gets. Publishing (builder.publish) replaces every row in one transaction.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import struct
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from guesswork import install_hint

from .catalog_location import (
    check_header,
    hide_password,
    is_file_location,
)
from .errors import PolicyError, PolicyFormatError

#: Seconds to wait for a database server before giving up (libpq's connect_timeout):
#: an unreachable or silent server is an error, never a hang.
CONNECT_TIMEOUT = 5
#: URL driver names taken as PostgreSQL through psycopg 3 (SQLAlchemy reads bare
#: ``postgresql`` as psycopg2 in some versions, and refuses ``postgres``).
_POSTGRES_NAMES = ("postgresql", "postgres", "postgresql+psycopg")
#: Meta rows the seal leaves out: the seal itself, and the publish counter, so
#: the same content always has the same seal.
UNSEALED_META = ("seal", "generation")

metadata = sa.MetaData()
meta_table = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
wordlists_table = sa.Table(
    "wordlists",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("name", sa.String, nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("words", sa.LargeBinary, nullable=False),
)
policies_table = sa.Table(
    "policies",
    metadata,
    sa.Column("name", sa.String, primary_key=True),
    sa.Column("game", sa.String, nullable=False),
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("mode", sa.String, nullable=False),
    sa.Column("metric", sa.String, nullable=False),
    sa.Column("targets_name", sa.String, nullable=False),
    sa.Column("targets_sha256", sa.String(64), nullable=False),
    sa.Column("guesses_name", sa.String, nullable=False),
    sa.Column("guesses_sha256", sa.String(64), nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("mean", sa.Float, nullable=False),
    sa.Column("worst", sa.Integer, nullable=False),
    sa.Column("content_hash", sa.String(64), nullable=False),
    sa.Column("blob", sa.LargeBinary, nullable=False),
)
honeycombs_table = sa.Table(
    "honeycombs",
    metadata,
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("list_name", sa.String, nullable=False),
    sa.Column("list_sha256", sa.String(64), nullable=False),
    sa.Column("allow_s", sa.Integer, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
)
#: The tables in the order they are read, written and sealed.
TABLES = (meta_table, wordlists_table, policies_table, honeycombs_table)

#: What a catalog's tables hold: meta as a dict, then the rows of the other three.
TableRows = tuple[dict[str, str], list[Any], list[Any], list[Any]]


def server_url(location: str | Path) -> sa.URL | None:
    """Return the SQLAlchemy URL (psycopg 3) of a PostgreSQL location; None for a SQLite one.

    A location without ``://``, or a ``sqlite:///`` URL, is a SQLite file.

    Raises:
        PolicyFormatError: a URL that cannot be parsed, of another database,
            of another PostgreSQL driver; or psycopg is not installed.
    """
    if is_file_location(location):
        return None
    text = str(location)
    shown = hide_password(text)
    try:
        url = sa.make_url(text)
        url.port  # noqa: B018 (parsed lazily: a port that is not a number fails here)
    except (ArgumentError, ValueError):
        raise PolicyFormatError(f"{shown}: not a catalog URL") from None
    if url.drivername not in _POSTGRES_NAMES:
        raise PolicyFormatError(
            f"{shown}: unsupported catalog URL; give a SQLite file (a path or sqlite:///PATH) "
            f"or postgresql+psycopg://USER@HOST:PORT/DATABASE"
        )
    try:
        importlib.import_module("psycopg")
    except ImportError:
        raise PolicyFormatError(
            f"{shown}: a PostgreSQL catalog needs psycopg 3: {install_hint('postgres')}"
        ) from None
    return url.set(drivername="postgresql+psycopg")


@functools.lru_cache(maxsize=16)
def server_engine(url: sa.URL) -> sa.Engine:
    """Return the engine for ``url``: one per URL, which opens a connection per use.

    Kept, not made per call: a new engine's first connection asks the server
    several questions (version, settings), which would triple the cost of the
    service's poll. It pools nothing, so keeping it holds no connection.
    """
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT
    if "application_name" not in url.query:
        connect_args["application_name"] = "guesswork"  # who is connected, in pg_stat_activity
    # NullPool: readers connect once per open, and a pooled connection would
    # hold a server slot for as long as a service runs, between polls.
    return sa.create_engine(url, poolclass=sa.pool.NullPool, connect_args=connect_args)


def database_reason(error: BaseException) -> str:
    """Return the first line of a database error's own message, whitespace tidied."""
    text = str(getattr(error, "orig", None) or error)
    return " ".join((text.splitlines() or ["unknown error"])[0].split())


@contextlib.contextmanager
def connected(
    where: str,
    url: sa.URL,
    failure: str = "not a readable Guesswork catalog",
    error: type[PolicyError] = PolicyFormatError,
) -> Iterator[sa.Connection]:
    """Yield a connection to ``url``; turn any database error into one ``error`` line.

    Raises:
        PolicyError: ``error`` (default PolicyFormatError): ``WHERE: cannot
            connect (REASON)`` when the server cannot be reached, refuses the
            credentials or lacks the database; ``WHERE: FAILURE (REASON)`` for
            an error after connecting.
    """
    try:
        connection = server_engine(url).connect()
    except SQLAlchemyError as problem:
        raise error(f"{where}: cannot connect ({database_reason(problem)})") from None
    with connection:
        try:
            yield connection
        except SQLAlchemyError as problem:
            raise error(f"{where}: {failure} ({database_reason(problem)})") from None


def has_catalog_tables(connection: sa.Connection) -> set[str]:
    """Return which of the catalog's table names the database has (in its current schema,
    where a publish creates them)."""
    names = {table.name for table in TABLES}
    return names & set(sa.inspect(connection).get_table_names())


def meta_header(meta: Mapping[str, str]) -> tuple[int | None, int | None]:
    """Return the (application id, schema version) a PostgreSQL catalog's meta rows hold."""

    def number(key: str) -> int | None:
        with contextlib.suppress(ValueError):
            return int(meta.get(key, ""))
        return None

    return number("application_id"), number("schema_version")


def _field(value: object) -> bytes:
    """Return one value in the seal's encoding: a type tag, a length, the bytes."""
    if isinstance(value, bytes):
        tag, data = b"b", value
    elif isinstance(value, str):
        tag, data = b"s", value.encode("utf-8", "surrogatepass")
    elif isinstance(value, int) and not isinstance(value, bool):
        tag, data = b"i", str(value).encode()
    elif isinstance(value, float):
        tag, data = b"f", value.hex().encode()  # exact: every bit of the double
    else:  # NULL or a foreign type: sealed as such, so it cannot match a proper seal
        tag, data = b"?", f"{type(value).__name__}:{value!r}".encode()
    return tag + struct.pack(">Q", len(data)) + data


def content_seal(
    meta: Mapping[str, str],
    wordlists: Iterable[Mapping[Any, Any]],
    policies: Iterable[Mapping[Any, Any]],
    honeycombs: Iterable[Mapping[Any, Any]],
) -> str:
    """Return the seal (SHA-256, hex) of a catalog's rows, the way a PostgreSQL catalog stores it.

    Every column of every row counts, in key order (compared in Python, not by
    the server's collation), each value tagged with its type and length; meta
    rows in :data:`UNSEALED_META` are left out.
    """
    sealed_meta = [{"key": k, "value": v} for k, v in meta.items() if k not in UNSEALED_META]
    digest = hashlib.sha256(b"guesswork catalog seal 1\n")
    for table, rows in zip(TABLES, (sealed_meta, wordlists, policies, honeycombs), strict=True):
        (key,) = (column.name for column in table.primary_key.columns)
        ordered = sorted(rows, key=lambda row: str(row[key]))
        digest.update(_field(table.name) + _field(len(ordered)))
        for row in ordered:
            digest.update(b"".join(_field(row[column.name]) for column in table.columns))
    return digest.hexdigest()


def read_server_tables(where: str, url: sa.URL) -> TableRows:
    """Return (meta, word-list, policy, honeycomb rows) of the PostgreSQL catalog at ``url``,
    all read in one snapshot, after checking its header rows and its seal.

    Raises:
        PolicyFormatError: the server cannot be reached or refuses; the
            database holds no Guesswork catalog, one of another schema, or one
            whose rows fail the seal (named in the message).
    """
    with connected(where, url) as connection:
        # One snapshot for every table (REPEATABLE READ): a publish committing
        # meanwhile is invisible, so the rows are one catalog, old or new.
        snapshot = connection.execution_options(
            isolation_level="REPEATABLE READ", postgresql_readonly=True
        )
        with snapshot.begin():
            if meta_table.name not in has_catalog_tables(snapshot):
                raise PolicyFormatError(
                    f"{where}: not a Guesswork catalog (the database has no Guesswork tables)"
                )
            meta = {str(r.key): str(r.value) for r in snapshot.execute(sa.select(meta_table))}
            check_header(where, *meta_header(meta), kept_in="meta")
            wordlists, policies, honeycombs = (
                list(snapshot.execute(sa.select(table))) for table in TABLES[1:]
            )
    sealed = content_seal(
        meta, *([row._mapping for row in rows] for rows in (wordlists, policies, honeycombs))
    )
    if meta.get("seal") != sealed:
        raise PolicyFormatError(
            f"{where}: catalog checksum mismatch (a row differs from what was published; "
            f"the catalog is corrupt)"
        )
    return meta, wordlists, policies, honeycombs


def server_catalog_exists(where: str, url: sa.URL) -> bool:
    """Return True if the database at ``url`` has a catalog's ``meta`` table (any content).

    Raises:
        PolicyFormatError: the server cannot be reached or refuses.
    """
    with connected(where, url) as connection:
        return meta_table.name in has_catalog_tables(connection)


def server_signature(location: str) -> tuple[str, str] | None:
    """Return the (generation, seal) of the PostgreSQL catalog at ``location``: they change
    with every publish. ("", "") when the database has no catalog; None when it cannot be
    read (unreachable, refused, not a PostgreSQL URL)."""
    try:
        url = server_url(location)
        if url is None:
            return None
        with connected(location, url) as connection:
            if meta_table.name not in has_catalog_tables(connection):
                return ("", "")
            keys = meta_table.c.key.in_(UNSEALED_META)
            query = sa.select(meta_table.c.key, meta_table.c.value).where(keys)
            rows = {str(key): str(value) for key, value in connection.execute(query)}
    except PolicyError:
        return None
    return (str(rows.get("generation", "")), str(rows.get("seal", "")))


class ServerRows:
    """A PostgreSQL catalog's rows, all read in one snapshot at open (its seal covers every
    row, so it is checked whole), then served by key like a file's (client.catalog_file).

    Unlike a file, the whole catalog is held in memory while open: a later
    read could see another publish, which the seal read at open would not vouch for.
    """

    def __init__(self, where: str, url: sa.URL) -> None:
        """Read the catalog at ``url`` (see :func:`read_server_tables`, whose errors it raises)."""
        self.where = where
        meta, wordlists, policies, honeycombs = read_server_tables(where, url)
        self.meta = meta
        self._tables: dict[str, dict[str, dict[str, Any]]] = {}
        for table, rows in zip(TABLES[1:], (wordlists, policies, honeycombs), strict=True):
            (key,) = (column.name for column in table.primary_key.columns)
            self._tables[table.name] = {str(row._mapping[key]): dict(row._mapping) for row in rows}

    def row(self, table: str, key: str) -> Mapping[str, Any] | None:
        """Return the row of ``table`` whose key is ``key``; None if there is none.

        Raises:
            PolicyFormatError: the catalog is closed.
        """
        if not self._tables:
            raise PolicyFormatError(f"{self.where}: the catalog is closed")
        return self._tables[table].get(key)

    def close(self) -> None:
        """Drop the rows; later reads raise PolicyFormatError."""
        self._tables = {}
