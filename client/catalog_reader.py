"""One stored catalog, read and checked piece by piece: what client.catalog layers.

A :class:`StoredCatalog` holds a catalog's manifest (client.catalog_manifest)
and its rows' source (:class:`CatalogRows`: a file read on demand, or a
database read whole at open). A policy, word list or honeycomb table is read
and checked the first time it is asked for (the checks are listed in
client.catalog's module doc); word lists and tables are kept, policies are
kept by the Catalog that asked.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from .catalog_file import FileRows, check_seal
from .catalog_manifest import Manifest, payload_sha256
from .errors import PolicyFormatError
from .policy_file import decode_words
from .policy_format import (
    ListRef,
    content_hash,
    decode_core,
    info_of,
)
from .policy_info import PolicyInfo
from .probe import Policy
from .trust import Prover, is_proven, prove

if TYPE_CHECKING:
    from .spelling_bee import BeeTable


def summary_columns(info: PolicyInfo) -> dict[str, Any]:
    """Return the summary columns of a catalog's ``policies`` row (client.catalog_sql): a
    few of the summary's fields, repeated for SQL queries, under their column names."""
    return {
        "name": info.name,
        "game": info.game,
        "length": info.length,
        "mode": info.mode,
        "metric": info.metric,
        "targets_name": info.targets,
        "targets_sha256": info.targets_sha256,
        "guesses_name": info.guesses,
        "guesses_sha256": info.guesses_sha256,
        "count": info.count,
        "mean": info.mean,
        "worst": info.worst,
        "content_hash": info.content_hash,
    }


class CatalogRows(Protocol):
    """Where a stored catalog's rows come from: a file (client.catalog_file.FileRows) or a
    database read at open (client.catalog_sql.ServerRows)."""

    meta: dict[str, str]

    def row(self, table: str, key: str) -> Mapping[str, Any] | None: ...

    def close(self) -> None: ...


class StoredCatalog:
    """One opened catalog: its manifest, and each policy, word list and honeycomb table
    read and checked on first use (then kept). Safe to share between threads."""

    def __init__(
        self,
        where: str,
        origin: str,
        rows: CatalogRows,
        manifest: Manifest,
        *,
        prover: Prover | None = None,
    ) -> None:
        self.where = where
        #: SHIPPED or USER: what its policies' ``PolicyInfo.catalog`` say.
        self.origin = origin
        self.manifest = manifest
        #: What proves a policy before it is handed out (client.trust), None for no
        #: proof: every catalog but the shipped one proves, unless opened to be verified.
        self.prover = prover
        self._rows = rows
        # Re-entrant: reading a policy reads its word lists under the same lock.
        self._lock = threading.RLock()
        # One proof at a time (a proof is seconds of work and a reply matrix of memory);
        # reads, and policies proven before, go on meanwhile.
        self._proof_lock = threading.Lock()
        #: name -> why its proof failed: asked again, it is refused without a new proof.
        self._refused: dict[str, PolicyFormatError] = {}
        self._words: dict[str, tuple[str, ...]] = {}
        self._bees: dict[str, BeeTable] = {}

    def policy(self, name: str) -> Policy:
        """Return the policy ``name`` (listed in the manifest), read and checked now, and
        proven by the catalog's :attr:`prover`, if it has one (client.trust.prove).

        Raises:
            PolicyFormatError: its row is missing or fails a check (see the module doc);
                InconsistentPolicyError: it fails its proof.
            ProverUnavailableError: the default prover is not installed.
        """
        policy = self._read(name)
        # A policy proven before is one ``stat``, never held behind another's proof.
        prover = self.prover
        if prover is not None and (name in self._refused or not is_proven(policy.content_hash)):
            with self._proof_lock:
                refused = self._refused.get(name)
                if refused is not None:
                    raise refused
                try:
                    prove(policy, self.where, prover)
                except PolicyFormatError as error:
                    self._refused[name] = error
                    raise
        return policy

    def _read(self, name: str) -> Policy:
        """Return the policy ``name``, read and checked (not proven)."""
        label = f"{self.where}: policy {name!r}"
        with self._lock:
            row = self._rows.row("policies", name)
            if row is None:
                raise PolicyFormatError(f"{label}: listed in the manifest but missing")
            _check_types(self.where, row, {"name": str, "content_hash": str, "blob": bytes})
            blob, hash_hex = row["blob"], content_hash(row["blob"])
            listed = self.manifest.policies[name]
            if hash_hex != row["content_hash"] or hash_hex != listed.content_hash:
                raise PolicyFormatError(f"{label}: checksum mismatch (the catalog is corrupt)")
            data = decode_core(blob, label)
            summary = info_of(data, hash_hex)
            expected = summary_columns(summary)
            if expected != {key: row.get(key) for key in expected}:
                raise PolicyFormatError(f"{label}: summary columns disagree with the stored policy")
            if replace(summary, catalog=listed.catalog) != listed:  # the origin aside
                raise PolicyFormatError(f"{label}: the manifest's summary disagrees with it")
            targets, guesses = (self._list(ref, label) for ref in (data.targets, data.guesses))
            return Policy(data, targets, guesses, blob, hash_hex)

    def _list(self, ref: ListRef, label: str) -> tuple[str, ...]:
        """Return the words of ``ref``, a list a policy names, from this catalog."""
        # By SHA-256 and count: one list is stored once, under the first name it had.
        listed = self.manifest.wordlists.get(ref.sha256)
        if listed is None or listed[1] != ref.count:
            raise PolicyFormatError(f"{label}: a word list it needs is missing")
        return self.words(ref.sha256)

    def words(self, sha256: str) -> tuple[str, ...]:
        """Return the stored word list whose SHA-256 is ``sha256`` (listed in the manifest).

        Raises:
            PolicyFormatError: its row is missing or fails its checks.
        """
        with self._lock:
            if sha256 in self._words:
                return self._words[sha256]
            name, count = self.manifest.wordlists[sha256]
            row = self._rows.row("wordlists", sha256)
            if row is None:
                raise PolicyFormatError(f"{self.where}: word list {name!r} is missing")
            _check_types(
                self.where, row, {"sha256": str, "name": str, "count": int, "words": bytes}
            )
            if (row["name"], row["count"]) != (name, count):
                raise PolicyFormatError(f"{self.where}: word list {name!r} is not in the manifest")
            words = decode_words(row["words"], ListRef(name, sha256, count), self.where)
            self._words[sha256] = words
            return words

    def bee_table(self, key: str) -> BeeTable | None:
        """Return the honeycomb table ``key`` (e.g. ``enable1/no-s``); None if there is none.

        Raises:
            PolicyFormatError: it is listed but its row is missing or fails a check.
        """
        with self._lock:
            if key in self._bees or key not in self.manifest.honeycombs:
                return self._bees.get(key)
            where = self.where
            row = self._rows.row("honeycombs", key)
            if row is None:
                raise PolicyFormatError(
                    f"{where}: honeycomb tables listed in the manifest are missing"
                )
            _check_types(
                where,
                row,
                {"key": str, "list_name": str, "list_sha256": str, "allow_s": int, "payload": str},
            )
            if self.manifest.honeycombs[key] != payload_sha256(row["payload"]):
                raise PolicyFormatError(f"{where}: honeycomb table {key!r} fails its checksum")
            listed = self.manifest.wordlists.get(row["list_sha256"])
            if listed is None or listed[0] != row["list_name"]:
                raise PolicyFormatError(f"{where}: honeycomb table {key!r} lacks its word list")
            # The Spelling Bee's types, loaded with the first table: a Wordle answer
            # never reads one (a named boundary of tests/test_import_layers.py).
            from .spelling_bee import BeeTable

            try:
                table = BeeTable.from_payload(
                    row["list_name"], row["list_sha256"], bool(row["allow_s"]), row["payload"]
                )
            except (ValueError, KeyError, TypeError):
                raise PolicyFormatError(f"{where}: honeycomb table {key!r} is malformed") from None
            if table.key != key:
                raise PolicyFormatError(f"{where}: honeycomb table {key!r} has the wrong key")
            self._bees[key] = table
            return table

    def check_seal(self) -> None:
        """Check a file's seal (the SHA-256 of every byte: the file is whole, as published);
        a database's seal was checked at open.

        Raises:
            PolicyFormatError: the file is not whole or not as published.
        """
        if isinstance(self._rows, FileRows):
            check_seal(self.where, self._rows.path)

    def check_all(self) -> None:
        """Read and check every word list and honeycomb table (policies: see Catalog.check_all),
        and a file's seal.

        Raises:
            PolicyFormatError: any of them fails a check.
        """
        for sha256 in self.manifest.wordlists:
            self.words(sha256)
        for key in self.manifest.honeycombs:
            self.bee_table(key)
        self.check_seal()

    def close(self) -> None:
        """Close the rows' source; policies already read stay usable."""
        self._rows.close()


def _check_types(where: str, row: Mapping[str, Any], columns: dict[str, type]) -> None:
    """Raise PolicyFormatError if a column holds another type (SQLite allows any)."""
    for column, kind in columns.items():
        value = row.get(column)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise PolicyFormatError(f"{where}: a {column} value is corrupt (wrong type)")
