"""Picking up a republished catalog without a restart.

A :class:`CatalogWatcher` owns a thread that, every ``interval`` seconds and
whenever :meth:`CatalogWatcher.request` is called (guesswork-serve calls it
on SIGHUP), compares the catalogs' identity with what was loaded: a file's
device, inode, modification time and size; a PostgreSQL catalog's generation
and seal (meta rows every publish changes, read with one small query). When
they differ it opens and verifies the new catalog on that thread, off the
serving path, and only a catalog that passes every check is handed to
``install`` (which swaps it in atomically). Publishing replaces a catalog with
one rename (a file) or one transaction (a database), so it is never seen half
written; a file copied in place by other means fails its seal until the copy
is complete, and is picked up when the copy finishes. A catalog that fails
verification (or a database that cannot be reached) is logged once and the
previous one kept.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from ..client.catalog import Catalog, catalog_files, open_catalog
from ..client.catalog_sql import server_signature
from ..client.errors import GuessworkError
from .local import builder_proof
from .options import DEFAULT_RELOAD_INTERVAL

log = logging.getLogger("guesswork.service")

#: A catalog's identity: a file's (device, inode, mtime in ns, size), a database
#: catalog's (generation, seal); None when it is absent or cannot be read.
Signature = tuple[int, int, int, int] | tuple[str, str] | None


def file_signature(path: Path) -> Signature:
    """Return ``path``'s identity, or None if there is no such file."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)


def source_signature(source: Path | str) -> Signature:
    """Return the identity of a catalog file (a Path) or database (its URL)."""
    return file_signature(source) if isinstance(source, Path) else server_signature(source)


class CatalogWatcher:
    """Reloads a catalog (a location, or None: shipped + user) when its files change.

    Thread-safe: :meth:`check` may be called from any thread; :meth:`request`
    only sets an event, so a signal handler may call it.
    """

    def __init__(
        self,
        location: str | None,
        install: Callable[[Catalog], None],
        interval: float = DEFAULT_RELOAD_INTERVAL,
    ) -> None:
        """Watch the catalogs of ``location``; take their identity now, before the first open.

        ``install`` receives each new verified catalog; ``interval`` <= 0 looks
        only when asked (:meth:`request`).
        """
        self.location = location
        self.files = catalog_files(location)
        self._install = install
        self._interval = interval
        self._seen = self._signature()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._forced = False
        self._thread = threading.Thread(target=self._run, name="guesswork-reload", daemon=True)
        #: Catalogs installed since start-up.
        self.reloads = 0

    def start(self) -> None:
        """Start looking for changes in the background."""
        self._thread.start()

    def stop(self) -> None:
        """Stop looking (a reload in progress finishes first)."""
        self._stopped.set()
        self._wake.set()

    def request(self) -> None:
        """Ask for a reload now, even if the files look unchanged (SIGHUP)."""
        self._forced = True
        self._wake.set()

    def _signature(self) -> tuple[Signature, ...]:
        return tuple(source_signature(source) for source in self.files)

    def check(self, force: bool = False) -> bool:
        """Reload if the catalogs changed (or ``force``); return True if a catalog was installed.

        A catalog that fails to open or verify is logged at ERROR, and not
        tried again until it changes or a reload is forced.
        """
        with self._lock:
            signature = self._signature()
            if signature == self._seen and not force:
                return False
            # Taken before opening: a publish landing during the open changes
            # the files again, and the next look reloads once more.
            self._seen = signature
            try:
                catalog = open_catalog(self.location, prover=builder_proof)
                # A file seen changing may be one still being copied into place by
                # hand: only a whole, sealed one replaces what is served.
                catalog.check_seals()
            except GuessworkError as error:
                log.error("catalog not reloaded, still serving the previous one: %s", error)
                return False
            # Counted first: whoever sees the new catalog served sees it counted.
            self.reloads += 1
            self._install(catalog)
            log.info("catalog reloaded: %s (%d policies)", catalog.location, len(catalog))
            return True

    def _run(self) -> None:
        timeout = self._interval if self._interval > 0 else None
        while True:
            self._wake.wait(timeout)
            self._wake.clear()
            if self._stopped.is_set():
                return
            forced, self._forced = self._forced, False
            try:
                self.check(force=forced)
            except Exception:  # a bug: keep serving the catalog we have, and keep watching
                log.exception("catalog reload failed")
