"""Writing catalog rows with SQLAlchemy: a new SQLite file, or a PostgreSQL catalog
replaced in one transaction (builder.publish decides which and handles the files).

Kept apart so that SQLAlchemy is imported only by commands that write a
catalog: builder.publish loads this module when it publishes.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError as SQLAlchemyError  # re-exported

from ..client.catalog_location import APPLICATION_ID, SCHEMA_VERSION
from ..client.catalog_sql import (
    TABLES,
    connected,
    content_seal,
    has_catalog_tables,
    meta_header,
    meta_table,
    metadata,
)
from ..client.catalog_sql import server_url as server_url  # re-exported
from .catalog_rows import CatalogRows
from .errors import CatalogWriteError


def _insert_rows(connection: sa.Connection, rows: CatalogRows) -> None:
    """Insert every row of ``rows`` but the meta rows, table by table."""
    for table, values in zip(
        TABLES[1:], (rows.wordlists, rows.policies, rows.honeycombs), strict=True
    ):
        # An empty list would insert one row of defaults (a catalog emptied by remove).
        if values:
            connection.execute(table.insert(), values)


def write_database(path: Path, rows: CatalogRows) -> None:
    """Write a complete catalog into the new file ``path``."""
    engine = sa.create_engine(f"sqlite+pysqlite:///{path}", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            # Header fields: the file's magic and schema version, outside any table.
            connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.commit()
        with engine.begin() as connection:
            metadata.create_all(connection)
            connection.execute(meta_table.insert(), rows.meta)
            _insert_rows(connection, rows)
        with engine.connect() as connection:
            connection.exec_driver_sql("VACUUM")
    finally:
        engine.dispose()


def _replaceable(where: str, connection: sa.Connection) -> int:
    """Return the generation of the catalog a publish may replace (0: none yet).

    Raises:
        CatalogWriteError: the database holds tables of the catalog's names
            that are not a Guesswork catalog of this schema, which a publish
            would otherwise empty.
    """
    present = has_catalog_tables(connection)
    if not present:
        return 0
    refuse = f"{where}: refusing to replace tables that are not a Guesswork catalog"
    if meta_table.name not in present:
        raise CatalogWriteError(f"{refuse} ({', '.join(sorted(present))} but no meta)")
    query = sa.select(meta_table.c.key, meta_table.c.value)
    meta = {str(key): str(value) for key, value in connection.execute(query)}
    application_id, version = meta_header(meta)
    if application_id != APPLICATION_ID:
        raise CatalogWriteError(f"{refuse} (no Guesswork application id in meta)")
    if version != SCHEMA_VERSION:
        raise CatalogWriteError(
            f"{where}: holds a catalog of schema {version}; this Guesswork writes schema "
            f"{SCHEMA_VERSION} (drop its four tables to publish here)"
        )
    return int(meta["generation"]) if meta.get("generation", "").isdigit() else 0


def publish_to_server(where: str, url: sa.URL, rows: CatalogRows) -> str:
    """Replace the PostgreSQL catalog at ``url`` with ``rows`` in one transaction; return ``where``.

    Raises:
        CatalogWriteError: the server cannot be reached or refuses, the
            database holds other tables of these names, or a write fails
            (then nothing changed).
    """
    with (
        connected(where, url, "cannot write the catalog", CatalogWriteError) as connection,
        connection.begin(),
    ):
        # One publisher at a time per database, queued here (the lock ends with the
        # transaction): two interleaved would mix their rows. Readers are not
        # blocked: they go on reading the last committed catalog.
        connection.execute(sa.select(sa.func.pg_advisory_xact_lock(APPLICATION_ID)))
        generation = _replaceable(where, connection) + 1
        metadata.create_all(connection, checkfirst=True)
        meta = {row["key"]: row["value"] for row in rows.meta}
        meta |= {"application_id": str(APPLICATION_ID), "generation": str(generation)}
        meta["seal"] = content_seal(meta, rows.wordlists, rows.policies, rows.honeycombs)
        # DELETE, not TRUNCATE: TRUNCATE would wait for every reader and is not
        # MVCC-safe (a reader's older snapshot would see the tables empty).
        for table in reversed(TABLES):
            connection.execute(table.delete())
        connection.execute(meta_table.insert(), [{"key": k, "value": v} for k, v in meta.items()])
        _insert_rows(connection, rows)
    return where
