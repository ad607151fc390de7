"""Writing catalogs and policy files, and publishing them atomically.

A catalog file is always written whole into a new file next to the target, then
moved over it with one ``os.replace``: a build killed at any moment leaves the
previous catalog complete (and at worst a stray ``.<name>.<pid>.tmp`` file and
SQLite's ``-journal``, ``-wal`` or ``-shm`` beside it, all removed by the next
publish once that process is gone). Rows are written in sorted order and the file is
vacuumed, so the same policies give the same file bytes.

A catalog on PostgreSQL (client.catalog_sql) has the same rows, replaced in
one transaction: readers see the previous catalog until it commits, and a
publish that fails or is killed changes nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..client.catalog import Catalog
from ..client.catalog_file import seal
from ..client.catalog_location import (
    describe_location,
    is_file_location,
    sqlite_path,
)
from ..client.catalog_manifest import manifest_rows, manifest_text, payload_sha256
from ..client.catalog_reader import summary_columns
from ..client.policy_file import (
    encode_file,
    encode_words,
)
from ..client.policy_format import (
    PolicyData,
    content_hash,
    encode_core,
    info_of,
)
from ..client.probe import Policy
from ..client.spelling_bee import BeeTable
from ..client.trust import remember
from .catalog_rows import CatalogRows
from .errors import CatalogWriteError


@dataclass(frozen=True)
class StoredPolicy:
    """A policy ready to store: its core bytes and the word lists it names."""

    core: bytes
    data: PolicyData
    #: sha256 -> (list name, words) for the target and guess lists.
    words: dict[str, tuple[str, tuple[str, ...]]]
    #: Built by this installation (:meth:`from_data`), or proven by it (``import``):
    #: publishing it records it as proven (client.trust). A policy merely read from
    #: a catalog is not: it is proven when first read, wherever it came from.
    proven: bool = False

    @property
    def content_hash(self) -> str:
        """Return the SHA-256 (hex) of the core."""
        return content_hash(self.core)

    @classmethod
    def from_data(
        cls, data: PolicyData, targets: tuple[str, ...], guesses: tuple[str, ...]
    ) -> StoredPolicy:
        """Return the stored form of a freshly built policy."""
        words = {
            data.targets.sha256: (data.targets.name, targets),
            data.guesses.sha256: (data.guesses.name, guesses),
        }
        return cls(encode_core(data), data, words, proven=True)

    @classmethod
    def from_policy(cls, policy: Policy) -> StoredPolicy:
        """Return the stored form of a policy read from a catalog or file."""
        data = policy.data
        words = {
            data.targets.sha256: (data.targets.name, policy.targets),
            data.guesses.sha256: (data.guesses.name, policy.guesses),
        }
        return cls(policy.core, data, words)


@dataclass(frozen=True)
class StoredBeeTable:
    """A top-honeycomb table ready to store, with the words of its list."""

    table: BeeTable
    words: tuple[str, ...]


def kept_bee_tables(catalog: Catalog | None) -> list[StoredBeeTable]:
    """Return a catalog's honeycomb tables, to carry over into a new publish."""
    if catalog is None:
        return []
    return [
        StoredBeeTable(table, catalog.word_list(table.list_sha256))
        for table in catalog.bee_tables()
    ]


def catalog_path(location: str) -> Path:
    """Return the file a SQLite catalog location (path or sqlite:/// URL) writes: its
    links followed, so that a catalog reached through a symbolic link is written
    (and locked) where it is, not replaced by a file in the link's place.

    Raises:
        CatalogWriteError: the location is a database URL.
    """
    if not is_file_location(location):
        raise CatalogWriteError(f"{describe_location(location)}: not a catalog file")
    return sqlite_path(location).resolve()


def _catalog_rows(policies: list[StoredPolicy], bees: list[StoredBeeTable]) -> CatalogRows:
    """Return the rows of the catalog of ``policies`` and honeycomb tables ``bees``."""
    wordlists: dict[str, tuple[str, tuple[str, ...]]] = {}
    for policy in sorted(policies, key=lambda p: p.data.name):
        for sha, (name, words) in sorted(policy.words.items()):
            wordlists.setdefault(sha, (name, words))
    for bee in sorted(bees, key=lambda b: b.table.key):
        wordlists.setdefault(bee.table.list_sha256, (bee.table.list_name, bee.words))
    manifest = manifest_text(
        [info_of(p.data, p.content_hash) for p in policies],
        {sha: (name, len(words)) for sha, (name, words) in wordlists.items()},
        {bee.table.key: payload_sha256(bee.table.payload()) for bee in bees},
    )
    return CatalogRows(
        meta=[{"key": key, "value": value} for key, value in manifest_rows(manifest).items()],
        wordlists=[
            {"sha256": sha, "name": name, "count": len(words), "words": encode_words(words)}
            for sha, (name, words) in sorted(wordlists.items())
        ],
        policies=[
            {**summary_columns(info_of(p.data, p.content_hash)), "blob": p.core}
            for p in sorted(policies, key=lambda p: p.data.name)
        ],
        honeycombs=[
            {
                "key": bee.table.key,
                "list_name": bee.table.list_name,
                "list_sha256": bee.table.list_sha256,
                "allow_s": int(bee.table.allow_s),
                "payload": bee.table.payload(),
            }
            for bee in sorted(bees, key=lambda b: b.table.key)
        ],
    )


#: What SQLite may create beside a database file while writing it.
_SQLITE_SIDE_FILES = ("", "-journal", "-wal", "-shm")


def _temporary_files(temporary: Path) -> list[Path]:
    """Return a temporary database and every SQLite side file it may have."""
    return [temporary.with_name(temporary.name + side) for side in _SQLITE_SIDE_FILES]


def _remove_stale_temporaries(path: Path) -> None:
    """Delete temporary files, SQLite's journals included, left by killed publishes of ``path``.

    Only files of processes that are gone: a publish still running elsewhere
    keeps its own.
    """
    prefix = f".{path.name}."
    for stray in path.parent.glob(f"{prefix}*.tmp*"):
        pid, tmp, side = stray.name.removeprefix(prefix).partition(".tmp")
        if tmp and side in _SQLITE_SIDE_FILES and pid.isdigit() and not _process_alive(int(pid)):
            with contextlib.suppress(OSError):
                stray.unlink()


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def publish_catalog(
    location: str,
    policies: Iterable[StoredPolicy],
    bees: Iterable[StoredBeeTable] = (),
) -> Path | str:
    """Write ``policies`` and honeycomb tables as the whole catalog at ``location``, atomically.

    ``location`` is a file (path or ``sqlite:///`` URL), replaced by one
    rename, or a PostgreSQL URL, whose rows are replaced in one transaction.

    Returns the catalog's path (a file), or its URL with any password hidden.

    Raises:
        CatalogWriteError: the file cannot be written; the database cannot be
            reached or written, or holds tables that are not a catalog.
        PolicyFormatError: a URL that is not a catalog location (see
            client.catalog_sql.server_url).
    """
    items, bee_items = list(policies), list(bees)
    names = [p.data.name for p in items]
    if len(set(names)) != len(names):
        raise CatalogWriteError(f"{describe_location(location)}: two policies share a name")
    for item in items:
        if item.proven:
            remember(item.content_hash)
    # SQLAlchemy is loaded here, by the commands that write (builder.publish_sql):
    # the others, optimize without --publish among them, start without it.
    from . import publish_sql

    url = publish_sql.server_url(location)
    if url is not None:
        rows = _catalog_rows(items, bee_items)
        return publish_sql.publish_to_server(describe_location(location), url, rows)
    path = catalog_path(location)
    if path.is_dir():
        raise CatalogWriteError(f"{location}: is a directory, not a catalog file")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_temporaries(path)
        for stale in _temporary_files(temporary):
            stale.unlink(missing_ok=True)
        publish_sql.write_database(temporary, _catalog_rows(items, bee_items))
        with temporary.open("r+b") as handle:
            handle.seek(0, os.SEEK_END)
            handle.write(seal(temporary.read_bytes()))
        _fsync(temporary)
        os.replace(temporary, path)
        _fsync(path.parent)
    except (OSError, publish_sql.SQLAlchemyError) as error:
        raise CatalogWriteError(f"{location}: cannot write the catalog ({error})") from None
    finally:
        for leftover in _temporary_files(temporary):
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)
    return path


def merged(catalog: Catalog | None, additions: Iterable[StoredPolicy]) -> list[StoredPolicy]:
    """Return the catalog's policies with ``additions`` added or replacing same names."""
    by_name = {p.name: StoredPolicy.from_policy(p) for p in catalog} if catalog else {}
    for policy in additions:
        by_name[policy.data.name] = policy
    return [by_name[name] for name in sorted(by_name)]


def export_bytes(policy: Policy | StoredPolicy) -> bytes:
    """Return the standalone policy file of ``policy`` (word lists embedded)."""
    stored = policy if isinstance(policy, StoredPolicy) else StoredPolicy.from_policy(policy)
    return encode_file(
        stored.core, {sha: encode_words(words) for sha, (_, words) in stored.words.items()}
    )
