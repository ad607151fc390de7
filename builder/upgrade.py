"""``guesswork-build upgrade``: rewrite a catalog file of an older schema as this one's.

A catalog's schema changes when its manifest or columns do; the policies, word
lists and honeycomb tables it stores do not (for the schemas in
client.catalog_location's UPGRADABLE_SCHEMAS). So an older
file is upgraded by reading those rows as they are, checking each (the file's
seal, each policy's content hash and structure, each list's SHA-256, each
honeycomb table), and publishing them again through builder.publish, which
writes today's manifest and columns and replaces the file by one rename. The
old file is kept beside it as ``NAME.schema-N``; nothing is lost if anything
fails, as the original is only replaced once the new file is whole.

Only files are upgraded: a PostgreSQL catalog is published again from its
source (``guesswork-build build-all --catalog URL`` or ``import``).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..client.catalog import open_catalog
from ..client.catalog_file import check_seal, short_reason
from ..client.catalog_location import APPLICATION_ID, SCHEMA_VERSION, UPGRADABLE_SCHEMAS
from ..client.errors import PolicyFormatError
from ..client.policy_file import decode_words
from ..client.policy_format import ListRef, content_hash, decode_core
from ..client.spelling_bee import BeeTable
from .errors import CatalogWriteError
from .publish import StoredBeeTable, StoredPolicy, catalog_path, publish_catalog
from .publish_lock import publisher_lock


@dataclass(frozen=True)
class Upgrade:
    """What an upgrade did: the file, the schema it had, what it holds, and the backup."""

    path: Path
    old_schema: int
    policies: int
    honeycomb_tables: int
    #: The old file, kept; None when the file already had this version's schema.
    backup: Path | None


@contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """Yield a read-only connection to ``path`` (closed after)."""
    with closing(sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)) as connection:
        yield connection


def upgrade_catalog(location: str) -> Upgrade:
    """Rewrite the catalog file at ``location`` in this version's schema, keeping the old one.

    Returns:
        What was done; a file already of this schema is left alone (backup None).

    Raises:
        CatalogWriteError: ``location`` is a database URL, or the new file or
            the backup cannot be written (the backup already exists, say).
        PolicyFormatError: the file is missing, not a Guesswork catalog, of a
            schema that cannot be upgraded, or fails any check (named).
    """
    path = catalog_path(location)
    where = str(path)
    if not path.is_file():
        raise PolicyFormatError(f"{where}: no such catalog file")
    with publisher_lock(where):  # no other publish lands between the read and this one
        return _upgrade(path, where)


def _upgrade(path: Path, where: str) -> Upgrade:
    """Upgrade the catalog file at ``path`` (see :func:`upgrade_catalog`)."""
    try:
        with _read_only(path) as connection:
            application_id = connection.execute("PRAGMA application_id").fetchone()[0]
            schema = connection.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as error:
        raise PolicyFormatError(
            f"{where}: not a readable SQLite file ({short_reason(error)})"
        ) from None
    if application_id != APPLICATION_ID:
        raise PolicyFormatError(f"{where}: not a Guesswork catalog")
    if schema == SCHEMA_VERSION:
        with open_catalog(where) as current:  # the usual checks at open
            return Upgrade(path, schema, len(current), len(current.bee_tables()), None)
    if schema not in UPGRADABLE_SCHEMAS:
        raise PolicyFormatError(
            f"{where}: catalog schema {schema} cannot be upgraded (this Guesswork upgrades "
            f"schema {', '.join(map(str, UPGRADABLE_SCHEMAS))} to {SCHEMA_VERSION}); "
            f"rebuild the catalog"
        )
    check_seal(where, path)
    policies, bees = _read_rows(path, where)
    backup = path.with_name(f"{path.name}.schema-{schema}")
    if backup.exists():
        raise CatalogWriteError(
            f"{backup}: already exists; move it away to upgrade {where} (it would be the backup)"
        )
    try:
        shutil.copy2(path, backup)
    except OSError as error:
        raise CatalogWriteError(f"{backup}: cannot keep the old catalog ({error})") from None
    publish_catalog(where, policies, bees)
    with open_catalog(where) as upgraded:  # proof that it reads, and whole
        upgraded.check_all()
    return Upgrade(path, schema, len(policies), len(bees), backup)


def _read_rows(path: Path, where: str) -> tuple[list[StoredPolicy], list[StoredBeeTable]]:
    """Return every policy and honeycomb table of an older catalog file, each checked.

    Raises:
        PolicyFormatError: a row is unreadable or fails its check.
    """
    try:
        with _read_only(path) as connection:
            lists = connection.execute("SELECT sha256, name, count, words FROM wordlists")
            stored_lists = lists.fetchall()
            rows = connection.execute("SELECT name, content_hash, blob FROM policies").fetchall()
            combs = connection.execute(
                "SELECT list_name, list_sha256, allow_s, payload FROM honeycombs"
            ).fetchall()
    except sqlite3.Error as error:
        raise PolicyFormatError(f"{where}: a row cannot be read ({short_reason(error)})") from None
    words = {}
    for sha, name, count, data in stored_lists:
        if not (isinstance(name, str) and isinstance(count, int) and isinstance(data, bytes)):
            raise PolicyFormatError(f"{where}: a word list row is corrupt (wrong type)")
        words[sha] = (name, decode_words(data, ListRef(name, sha, count), where))
    policies = []
    for name, stored_hash, blob in rows:
        label = f"{where}: policy {name!r}"
        if not isinstance(blob, bytes) or content_hash(blob) != stored_hash:
            raise PolicyFormatError(f"{label}: checksum mismatch (the catalog is corrupt)")
        data = decode_core(blob, label)
        needed = {ref.sha256: ref for ref in (data.targets, data.guesses)}
        if any(sha not in words for sha in needed):
            raise PolicyFormatError(f"{label}: a word list it needs is missing")
        policies.append(StoredPolicy(blob, data, {sha: words[sha] for sha in needed}))
    bees = []
    for list_name, list_sha256, allow_s, payload in combs:
        if list_sha256 not in words:
            raise PolicyFormatError(f"{where}: honeycomb table of {list_name!r} lacks its list")
        try:
            table = BeeTable.from_payload(list_name, list_sha256, bool(allow_s), payload)
        except (ValueError, KeyError, TypeError):
            raise PolicyFormatError(f"{where}: a honeycomb table is malformed") from None
        bees.append(StoredBeeTable(table, words[list_sha256][1]))
    return policies, bees
