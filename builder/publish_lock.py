"""One publisher at a time, from reading a catalog to its new version landing.

Adding or removing a policy is a read-modify-write: read the catalog, change
its policy list, publish the whole (builder.publish). Two such commands run
at once (two ``build``s into the user catalog, a ``build`` and an
``import``) would each publish what they read plus their own change, and the
second to land would drop the first's policy while both report success.
:func:`publishing` holds a lock from the read until the publish has landed;
the other publisher waits for it, then reads the catalog with the first's
change in it. Commands build their policy before taking the lock, so a long
search never holds it up.

- A file: an exclusive lock (``fcntl.lockf``; ``msvcrt.locking`` on Windows)
  on ``.NAME.lock`` beside it, left in place (creating and removing it would
  race). Locks on network file systems are only as good as the server's.
- PostgreSQL: a session advisory lock on a connection of its own, key
  :data:`PUBLISHER_LOCK`; builder.publish's transaction lock (the catalog's
  application id) still orders the writes themselves.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..client.catalog import Catalog, catalog_exists, open_catalog
from ..client.catalog_location import APPLICATION_ID, describe_location, is_file_location
from .errors import CatalogWriteError
from .publish import catalog_path

#: The advisory lock key a publisher holds from read to commit ("GWPL"; not the
#: application id, which builder.publish takes for the write transaction).
PUBLISHER_LOCK = 0x4757504C
assert PUBLISHER_LOCK != APPLICATION_ID


def existing_catalog(location: str) -> Catalog | None:
    """Return the catalog at ``location``, or None if there is none yet (no file; a
    database without the catalog's tables, which the first publish creates).

    Raises:
        PolicyFormatError: it exists but cannot be opened (see open_catalog).
    """
    if not catalog_exists(location):
        return None
    # Not proven on reading (client.trust): a publish copies the policies it does not
    # change, seals checked, as they are; proving is for what is served (a copied
    # policy is proven when first served, unless it was before). Proving every
    # policy of a catalog on each publish took minutes (69 shipped policies: 209 s).
    return open_catalog(location, prove=False)


@contextmanager
def publishing(location: str) -> Iterator[Catalog | None]:
    """Yield the catalog at ``location`` as it is now (None: none yet), holding the
    publisher lock until the block ends; publish inside the block.

    Raises:
        CatalogWriteError: the lock cannot be taken (the folder cannot be
            written, the database cannot be reached).
        PolicyFormatError: the catalog exists but cannot be opened.
    """
    with publisher_lock(location):
        current = existing_catalog(location)
        try:
            yield current
        finally:
            if current is not None:
                current.close()


@contextmanager
def publisher_lock(location: str) -> Iterator[None]:
    """Hold the publisher lock of ``location`` (waiting for it) for the block: for a
    read-modify-write of a catalog :func:`publishing` cannot open (builder.upgrade).

    Raises:
        CatalogWriteError: the lock cannot be taken.
    """
    if is_file_location(location):
        with _file_lock(catalog_path(location)):
            yield
        return
    # A database: SQLAlchemy is needed (and imported) only here.
    import sqlalchemy as sa

    from ..client.catalog_sql import connected, server_url

    url = server_url(location)
    if url is not None:
        where = describe_location(location)
        with connected(where, url, "cannot take the publisher lock", CatalogWriteError) as held:
            held.execute(sa.select(sa.func.pg_advisory_lock(PUBLISHER_LOCK)))
            held.commit()  # the lock is the session's: no transaction stays open
            try:
                yield
            finally:
                held.execute(sa.select(sa.func.pg_advisory_unlock(PUBLISHER_LOCK)))
                held.commit()
        return
    with _file_lock(catalog_path(location)):
        yield


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the lock file beside ``path`` for the block."""
    lock = path.with_name(f".{path.name}.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise CatalogWriteError(f"{lock}: cannot take the publisher lock ({error})") from None
    try:
        _lock_descriptor(descriptor)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _lock_descriptor(descriptor: int) -> None:
    """Block until ``descriptor``'s file is locked exclusively by this process."""
    if sys.platform == "win32":
        import msvcrt

        while True:  # LK_LOCK gives up after ten one-second tries: go on waiting
            try:
                msvcrt.locking(descriptor, msvcrt.LK_LOCK, 1)
                return
            except OSError:
                continue
    import fcntl

    fcntl.lockf(descriptor, fcntl.LOCK_EX)
