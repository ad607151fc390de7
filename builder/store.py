"""Writing catalogs and policy files, and publishing them atomically.

A catalog is always written whole into a new file next to the target, then
moved over it with one ``os.replace``: a build killed at any moment leaves the
previous catalog complete (and at worst a stray ``.<name>.<pid>.tmp`` file and
SQLite's ``-journal``, ``-wal`` or ``-shm`` beside it, all removed by the next
publish once that process is gone). Rows are written in sorted order and the file is
vacuumed, so the same policies give the same file bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from guesswork.builder.errors import CatalogWriteError
from guesswork.client.catalog import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Catalog,
    honeycombs_table,
    manifest_text,
    meta_table,
    metadata,
    payload_sha256,
    policies_table,
    seal,
    summary_columns,
    wordlists_table,
)
from guesswork.client.policy_format import (
    PolicyData,
    content_hash,
    encode_core,
    encode_file,
    encode_words,
)
from guesswork.client.probe import Policy
from guesswork.client.spelling_bee import BeeTable


@dataclass(frozen=True)
class StoredPolicy:
    """A policy ready to store: its core bytes and the word lists it names."""

    core: bytes
    data: PolicyData
    #: sha256 -> (list name, words) for the target and guess lists.
    words: dict[str, tuple[str, tuple[str, ...]]]

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
        return cls(encode_core(data), data, words)

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
        StoredBeeTable(table, catalog.word_lists[table.list_sha256][1])
        for table in catalog.bee_tables.values()
    ]


def catalog_path(location: str) -> Path:
    """Return the file path of a SQLite catalog location (path or sqlite:/// URL).

    Raises:
        CatalogWriteError: the location is another kind of database URL.
    """
    if location.startswith("sqlite:///"):
        return Path(location.removeprefix("sqlite:///"))
    if "://" in location:
        raise CatalogWriteError(
            f"{location}: publishing is implemented for SQLite catalog files only"
        )
    return Path(location)


def _write_database(path: Path, policies: list[StoredPolicy], bees: list[StoredBeeTable]) -> None:
    """Write a complete catalog into the new file ``path``."""
    wordlists: dict[str, tuple[str, tuple[str, ...]]] = {}
    for policy in sorted(policies, key=lambda p: p.data.name):
        for sha, (name, words) in sorted(policy.words.items()):
            wordlists.setdefault(sha, (name, words))
    for bee in sorted(bees, key=lambda b: b.table.key):
        wordlists.setdefault(bee.table.list_sha256, (bee.table.list_name, bee.words))
    manifest = manifest_text(
        {p.data.name: p.content_hash for p in policies},
        {sha: len(words) for sha, (_, words) in wordlists.items()},
        {bee.table.key: payload_sha256(bee.table.payload()) for bee in bees},
    )
    manifest_sha256 = hashlib.sha256(manifest.encode()).hexdigest()
    engine = sa.create_engine(f"sqlite+pysqlite:///{path}", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            # Header fields: the file's magic and schema version, outside any table.
            connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.commit()
        with engine.begin() as connection:
            metadata.create_all(connection)
            connection.execute(
                meta_table.insert(),
                [
                    {"key": "schema_version", "value": str(SCHEMA_VERSION)},
                    {"key": "manifest", "value": manifest},
                    {"key": "manifest_sha256", "value": manifest_sha256},
                ],
            )
            wordlist_rows = [
                {"sha256": sha, "name": name, "count": len(words), "words": encode_words(words)}
                for sha, (name, words) in sorted(wordlists.items())
            ]
            # An empty list would insert one row of defaults (a catalog emptied by remove).
            if wordlist_rows:
                connection.execute(wordlists_table.insert(), wordlist_rows)
            rows = [
                {**summary_columns(p.data, p.content_hash), "blob": p.core}
                for p in sorted(policies, key=lambda p: p.data.name)
            ]
            if rows:
                connection.execute(policies_table.insert(), rows)
            honeycomb_rows = [
                {"key": bee.table.key, "list_name": bee.table.list_name,
                 "list_sha256": bee.table.list_sha256, "allow_s": int(bee.table.allow_s),
                 "payload": bee.table.payload()}
                for bee in sorted(bees, key=lambda b: b.table.key)
            ]  # fmt: skip
            if honeycomb_rows:
                connection.execute(honeycombs_table.insert(), honeycomb_rows)
        with engine.connect() as connection:
            connection.exec_driver_sql("VACUUM")
    finally:
        engine.dispose()


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
) -> Path:
    """Write ``policies`` and honeycomb tables as the whole catalog at ``location``, atomically.

    Returns the catalog's path.

    Raises:
        CatalogWriteError: not a SQLite location, or the file cannot be written.
    """
    path = catalog_path(location)
    items, bee_items = list(policies), list(bees)
    names = [p.data.name for p in items]
    if len(set(names)) != len(names):
        raise CatalogWriteError(f"{location}: two policies share a name")
    if path.is_dir():
        raise CatalogWriteError(f"{location}: is a directory, not a catalog file")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_temporaries(path)
        for stale in _temporary_files(temporary):
            stale.unlink(missing_ok=True)
        _write_database(temporary, items, bee_items)
        with temporary.open("r+b") as handle:
            handle.seek(0, os.SEEK_END)
            handle.write(seal(temporary.read_bytes()))
        _fsync(temporary)
        os.replace(temporary, path)
        _fsync(path.parent)
    except (OSError, sa.exc.SQLAlchemyError) as error:
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
