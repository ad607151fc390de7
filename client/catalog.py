"""The policy catalog: word lists and policies in one SQLite file, or a PostgreSQL database.

Tables (schema version 4; 4 stores Guess My Word trees as ordinary policies,
where 3 had a ``guess_my_word`` table of JSON trees; defined once, in
client.catalog_sql, for both kinds of location):

The SQLite header's application id is ``GWPC`` (0x47575043) and its user
version the schema version; both are checked before anything else.

* ``meta(key, value)``: ``schema_version``, and ``manifest``, a JSON object
  naming every policy with its content hash and every word list with its
  count, guarded by ``manifest_sha256``.
* ``wordlists(sha256, name, count, words)``: words joined by newlines.
* ``policies(name, game, length, mode, metric, targets_name, targets_sha256,
  guesses_name, guesses_sha256, count, mean, worst, content_hash, blob)``:
  the summary columns repeat what the blob (the policy core, see
  client.policy_format) says, for queries; the blob is authoritative. Every
  game's policies are here, Guess My Word's trees included (game
  ``guess-my-word``, length 0, mode the variant).

* ``honeycombs(key, list_name, list_sha256, allow_s, payload)``: a word
  list's top Spelling Bee honeycombs and search counts, as canonical JSON
  (client.spelling_bee.BeeTable), whose SHA-256 the manifest lists.

Opening verifies everything, because SQLite's own integrity check does not
notice a flipped byte inside stored data: the file's seal (a trailer holding
the SHA-256 of every other byte, which SQLite ignores), the manifest's
checksum, each word list's and each blob's SHA-256, each blob's structure, and
that every summary column agrees with its blob. A catalog on PostgreSQL
(``postgresql+psycopg://USER@HOST:PORT/DATABASE``) gets the same checks, its
seal being a meta row over every other row (client.catalog_sql). Any fault raises
:class:`~client.errors.PolicyFormatError` naming the catalog and the fault.
The catalog is opened read-only; everything is read once, at open. A
standalone policy file (:func:`open_policy_file`), which no seal vouches for,
is checked further: every target is replayed through its tree (client.replay).

Two catalogs, layered: the *shipped* one (``policies/catalog.sqlite``,
installed with Guesswork and written only when named explicitly, as ``make
catalog`` does) and the *user's* (:func:`user_catalog`: ``$GUESSWORK_CATALOG``,
else ``$XDG_DATA_HOME/guesswork/catalog.sqlite``), where builds and imports
go by default. Opening with no location (:func:`open_catalog`,
:func:`open_store`) reads both, the user's policy winning a name clash; each
listed policy says which it came from (``PolicyInfo.catalog``). A location
given explicitly is read alone.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from guesswork.client.catalog_sql import (
    SCHEMA_VERSION,
    TableRows,
    check_header,
    describe_location,
    honeycombs_table,
    is_file_location,
    meta_table,
    policies_table,
    read_server_tables,
    server_catalog_exists,
    server_url,
    sqlite_path,
    wordlists_table,
)
from guesswork.client.errors import (
    MalformedPolicyError,
    PolicyFormatError,
    PolicyNotFoundError,
    WordListNotFoundError,
)
from guesswork.client.policy_file import (
    FILE_MAGIC,
    decode_file,
    decode_words,
    read_file_bytes,
)
from guesswork.client.policy_format import (
    ListRef,
    PolicyData,
    content_hash,
    decode_core,
)
from guesswork.client.probe import Policy, PolicyInfo
from guesswork.client.replay import check_consistency
from guesswork.client.spelling_bee import BeeTable

#: A catalog file ends with this and the SHA-256 of every byte before it.
SEAL_MAGIC = b"GWSEAL01"

#: The catalog shipped with Guesswork: read by default lookups (under the user's),
#: written only when named explicitly (``make catalog``).
SHIPPED_CATALOG = Path(__file__).resolve().parents[1] / "policies" / "catalog.sqlite"
#: ``PolicyInfo.catalog`` of a policy from the shipped catalog.
SHIPPED = "shipped"
#: ``PolicyInfo.catalog`` of a policy from any other catalog or policy file.
USER = "user"


def user_catalog() -> Path | str:
    """Return the user's catalog: a file (it may not exist yet), or a database URL (a str).

    ``$GUESSWORK_CATALOG`` if set (a path, ``sqlite:///PATH`` or a PostgreSQL
    URL), else ``$XDG_DATA_HOME/guesswork/catalog.sqlite``, ``$XDG_DATA_HOME``
    defaulting to ``~/.local/share`` (the XDG base directory rule: per-user
    data that is not configuration and not a cache).
    """
    named = os.environ.get("GUESSWORK_CATALOG")
    if named:
        # A URL stays text: as a Path its "//" would collapse.
        return sqlite_path(named) if is_file_location(named) else named
    data_home = os.environ.get("XDG_DATA_HOME", "")
    # The XDG rule: a relative $XDG_DATA_HOME is invalid and is ignored.
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "guesswork" / "catalog.sqlite"


def is_shipped(location: str | Path) -> bool:
    """Return True if ``location`` (a path or ``sqlite:///`` URL) is the shipped catalog file."""
    if not is_file_location(location):
        return False
    path = sqlite_path(location)
    try:
        return path.resolve() == SHIPPED_CATALOG or path.samefile(SHIPPED_CATALOG)
    except OSError:
        return False


def catalog_files(location: str | Path | None = None) -> list[Path | str]:
    """Return the catalogs a lookup of ``location`` reads (None: the shipped and the user's):
    files as Paths, databases as their URLs (str).

    The user's catalog is listed even when it does not exist yet: a server
    watches it to notice the first publish.
    """
    if location is None:
        user = user_catalog()
        return [SHIPPED_CATALOG] if is_shipped(user) else [SHIPPED_CATALOG, user]
    return [sqlite_path(location) if is_file_location(location) else str(location)]


def catalog_exists(location: str | Path) -> bool:
    """Return True if ``location`` holds a catalog to open: an existing file (sound or
    not), or a database with a catalog's ``meta`` table.

    Raises:
        PolicyFormatError: a URL that is not a catalog location, or a database
            server that cannot be reached or refuses.
    """
    url = server_url(location)
    if url is None:
        return sqlite_path(location).exists()
    return server_catalog_exists(describe_location(location), url)


def summary_columns(policy: PolicyData, hash_hex: str) -> dict[str, Any]:
    """Return the summary column values a catalog row must hold for ``policy``."""
    return {
        "name": policy.name,
        "game": policy.game.id,
        "length": policy.game.length,
        "mode": policy.mode,
        "metric": policy.metric,
        "targets_name": policy.targets.name,
        "targets_sha256": policy.targets.sha256,
        "guesses_name": policy.guesses.name,
        "guesses_sha256": policy.guesses.sha256,
        "count": int(policy.stats["count"]),
        "mean": float(policy.stats["mean"]),
        "worst": int(policy.stats["worst"]),
        "content_hash": hash_hex,
    }


def manifest_text(
    policies: dict[str, str], wordlists: dict[str, int], honeycombs: dict[str, str]
) -> str:
    """Return the canonical manifest JSON: policy hashes, word-list counts, and the
    payload hashes of honeycomb tables."""
    return json.dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "policies": policies,
            "wordlists": wordlists,
            "honeycombs": honeycombs,
        },
        sort_keys=True,
        separators=(",", ":"),
    )


def payload_sha256(payload: str) -> str:
    """Return the SHA-256 (hex) of a honeycomb table's payload."""
    return hashlib.sha256(payload.encode()).hexdigest()


class Catalog:
    """A verified set of policies, read from a catalog or a policy file.

    Use as a context manager or call :meth:`close`. Lookups never touch the
    database again, so a Catalog may be shared between threads.
    """

    def __init__(
        self,
        location: str,
        policies: dict[str, Policy],
        word_lists: dict[str, tuple[str, tuple[str, ...]]] | None = None,
        bee_tables: dict[str, BeeTable] | None = None,
        origins: dict[str, str] | None = None,
    ) -> None:
        self.location = location
        self._policies = policies
        #: name -> SHIPPED or USER: the catalog each policy came from (default USER).
        self.origins = origins or {}
        #: sha256 -> (name, words) of every stored word list.
        self.word_lists = word_lists or {}
        #: key (e.g. "enable1/no-s") -> the stored top-honeycomb table.
        self.bee_tables = bee_tables or {}

    def words(self, name: str) -> tuple[str, ...]:
        """Return the stored word list called ``name``.

        Raises:
            WordListNotFoundError: the catalog has no list of that name.
        """
        for list_name, words in self.word_lists.values():
            if list_name == name:
                return words
        names = sorted({list_name for list_name, _ in self.word_lists.values()})
        raise WordListNotFoundError(
            f"no word list {name!r} in {self.location}; it has: {', '.join(names)}",
            metadata={"word_list": name},
        )

    def bee_table(self, name: str, allow_s: bool) -> BeeTable | None:
        """Return the stored top-honeycomb table of list ``name``, if there is one."""
        return self.bee_tables.get(f"{name}/{'s' if allow_s else 'no-s'}")

    def __enter__(self) -> Catalog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release the catalog (its data was read at open; nothing stays open)."""
        self._policies = {}

    def __iter__(self) -> Iterator[Policy]:
        return iter(self._policies[name] for name in sorted(self._policies))

    def __len__(self) -> int:
        return len(self._policies)

    def names(self) -> list[str]:
        """Return the policy names, sorted."""
        return sorted(self._policies)

    def origin(self, name: str) -> str:
        """Return which catalog the policy ``name`` came from: SHIPPED or USER."""
        return self.origins.get(name, USER)

    def list(self) -> list[PolicyInfo]:
        """Return every policy's summary (its ``catalog`` filled in), sorted by name."""
        return [replace(policy.info, catalog=self.origin(policy.name)) for policy in self]

    def policy(self, name: str) -> Policy:
        """Return the policy called ``name``.

        Raises:
            PolicyNotFoundError: no such policy (a ``KeyError``); the message
                lists a few names that do exist.
        """
        try:
            return self._policies[name]
        except KeyError:
            known = ", ".join(self.names()[:5])
            raise PolicyNotFoundError(
                f"no policy {name!r} in {self.location} (it has {len(self)}: {known}...)"
            ) from None

    def get_policy(self, name: str, default: Policy | None = None) -> Policy | None:
        """Return the policy called ``name``, or ``default`` if there is none."""
        return self._policies.get(name, default)


def seal(database: bytes) -> bytes:
    """Return the trailer that seals a finished SQLite catalog file's bytes."""
    return SEAL_MAGIC + hashlib.sha256(database).digest()


def _check_seal(location: str, path: Path) -> None:
    """Raise PolicyFormatError unless the file ends with the seal of its other bytes.

    The seal covers every byte, so a flip even in space SQLite leaves unused
    is noticed; SQLite itself ignores bytes past its last page.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PolicyFormatError(f"{location}: cannot read the catalog ({error.strerror})") from None
    size = len(SEAL_MAGIC) + hashlib.sha256().digest_size
    if len(data) < size or data[-size:-32] != SEAL_MAGIC:
        raise PolicyFormatError(f"{location}: not a sealed Guesswork catalog (truncated?)")
    if data[-size:] != seal(data[:-size]):
        raise PolicyFormatError(f"{location}: catalog checksum mismatch (the file is corrupt)")


def _engine_url(location: str) -> str:
    """Return a read-only SQLAlchemy URL for a catalog file, after checking its seal.

    Raises:
        PolicyFormatError: not an existing, sealed SQLite catalog file.
    """
    path = sqlite_path(location).resolve()
    if path.is_dir():
        raise PolicyFormatError(f"{location}: is a directory, not a catalog file")
    if not path.is_file():
        raise PolicyFormatError(f"{location}: no such catalog file")
    _check_seal(location, path)
    # mode=ro: lookups never write, and read-only files and folders still work.
    return f"sqlite+pysqlite:///file:{path}?mode=ro&uri=true"


def _read_tables(where: str, location: str | Path) -> TableRows:
    """Return (meta, word-list, policy, honeycomb rows) of the catalog at ``location``
    (a file, or a database: catalog_sql.read_server_tables), after its seal and header checks.
    """
    url = server_url(location)
    if url is not None:
        return read_server_tables(where, url)
    engine = sa.create_engine(_engine_url(where), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            check_header(
                where,
                connection.exec_driver_sql("PRAGMA application_id").scalar(),
                int(connection.exec_driver_sql("PRAGMA user_version").scalar() or 0),
                kept_in="SQLite",
            )
            meta = {str(row.key): row.value for row in connection.execute(sa.select(meta_table))}
            wordlists = list(connection.execute(sa.select(wordlists_table)))
            policies = list(connection.execute(sa.select(policies_table)))
            honeycombs = list(connection.execute(sa.select(honeycombs_table)))
    except (SQLAlchemyError, UnicodeDecodeError) as error:
        reason = (str(getattr(error, "orig", error)).splitlines() or ["unreadable"])[0]
        raise PolicyFormatError(f"{where}: not a readable Guesswork catalog ({reason})") from None
    finally:
        engine.dispose()
    return meta, wordlists, policies, honeycombs


def _check_manifest(location: str, meta: dict[str, str]) -> dict[str, Any]:
    if meta.get("schema_version") != str(SCHEMA_VERSION):
        raise PolicyFormatError(f"{location}: header and meta table disagree on the schema")
    text = meta.get("manifest")
    if not isinstance(text, str) or hashlib.sha256(text.encode()).hexdigest() != meta.get(
        "manifest_sha256"
    ):
        raise PolicyFormatError(f"{location}: manifest checksum mismatch (the catalog is corrupt)")
    try:
        manifest = json.loads(text)
        valid = (
            manifest["schema_version"] == SCHEMA_VERSION
            and isinstance(manifest["policies"], dict)
            and isinstance(manifest["wordlists"], dict)
            and isinstance(manifest["honeycombs"], dict)
        )
    except (ValueError, KeyError, TypeError):
        valid = False
    if not valid:
        raise PolicyFormatError(f"{location}: malformed manifest")
    result: dict[str, Any] = manifest
    return result


def open_catalog(location: str | Path | None = None) -> Catalog:
    """Open and verify a catalog: a file (a path or ``sqlite:///`` URL) or a PostgreSQL
    database (``postgresql+psycopg://USER@HOST:PORT/DATABASE``, see client.catalog_sql).

    None opens the shipped catalog layered with the user's (:func:`open_layered`);
    a location given is read alone. The catalog's ``location`` is the one
    given, a URL's password hidden.

    Raises:
        PolicyFormatError: the catalog is missing, unreachable, unreadable, of
            another schema version, or fails any check (named in the message).
    """
    if location is None:
        return open_layered()
    where = describe_location(location)
    meta, wordlist_rows, policy_rows, honeycomb_rows = _read_tables(where, location)
    manifest = _check_manifest(where, meta)
    words: dict[str, tuple[str, ...]] = {}
    names: dict[str, str] = {}
    for row in wordlist_rows:
        _check_types(where, row, {"sha256": str, "name": str, "count": int, "words": bytes})
        ref = ListRef(row.name, row.sha256, row.count)
        if manifest["wordlists"].get(row.sha256) != row.count:
            raise PolicyFormatError(f"{where}: word list {row.name!r} is not in the manifest")
        words[row.sha256] = decode_words(row.words, ref, where)
        names[row.sha256] = row.name
    if len(words) != len(manifest["wordlists"]):
        raise PolicyFormatError(f"{where}: word lists are missing")
    policies: dict[str, Policy] = {}
    for row in policy_rows:
        _check_types(where, row, {"name": str, "content_hash": str, "blob": bytes})
        label = f"{where}: policy {row.name!r}"
        hash_hex = content_hash(row.blob)
        if hash_hex != row.content_hash or manifest["policies"].get(row.name) != hash_hex:
            raise PolicyFormatError(f"{label}: checksum mismatch (the catalog is corrupt)")
        data = decode_core(row.blob, label)
        expected = summary_columns(data, hash_hex)
        if expected != {key: row._mapping[key] for key in expected}:
            raise PolicyFormatError(f"{label}: summary columns disagree with the stored policy")
        policies[row.name] = _make_policy(data, row.blob, hash_hex, words, label)
    if len(policies) != len(manifest["policies"]):
        raise PolicyFormatError(f"{where}: policies listed in the manifest are missing")
    tables = _bee_tables(where, honeycomb_rows, manifest, names)
    word_lists = {sha: (names[sha], listed) for sha, listed in words.items()}
    origin = SHIPPED if is_shipped(where) else USER
    return Catalog(where, policies, word_lists, tables, dict.fromkeys(policies, origin))


def open_layered(user: str | Path | None = None) -> Catalog:
    """Open the shipped catalog and, over it, the user's (default :func:`user_catalog`).

    A user's policy replaces a shipped one of the same name; a user catalog
    that does not exist yet (no file; a database without the catalog's tables)
    is simply absent. Both catalogs are verified.

    Raises:
        PolicyFormatError: either catalog exists but fails any check, or the
            user's database server cannot be reached.
    """
    shipped = open_catalog(SHIPPED_CATALOG)
    mine = user if user is not None else user_catalog()
    if is_shipped(mine):
        return shipped
    # A dangling link is opened, and reported, rather than taken for "none yet".
    dangling = is_file_location(mine) and sqlite_path(mine).is_symlink()
    if not (dangling or catalog_exists(mine)):
        return shipped
    return layered(shipped, open_catalog(mine))


def layered(lower: Catalog, upper: Catalog) -> Catalog:
    """Return one catalog of ``lower``'s contents overlaid by ``upper``'s (upper wins)."""
    policies = {**lower._policies, **upper._policies}
    origins = {name: (upper if name in upper._policies else lower).origin(name)
               for name in policies}  # fmt: skip
    return Catalog(
        f"{lower.location} + {upper.location}",
        policies,
        {**lower.word_lists, **upper.word_lists},
        {**lower.bee_tables, **upper.bee_tables},
        origins,
    )


def _bee_tables(
    where: str, rows: list[Any], manifest: dict[str, Any], names: dict[str, str]
) -> dict[str, BeeTable]:
    """Return the verified honeycomb tables."""
    tables: dict[str, BeeTable] = {}
    for row in rows:
        _check_types(where, row, {"key": str, "list_name": str, "list_sha256": str,
                                  "allow_s": int, "payload": str})  # fmt: skip
        if manifest["honeycombs"].get(row.key) != payload_sha256(row.payload):
            raise PolicyFormatError(f"{where}: honeycomb table {row.key!r} fails its checksum")
        if names.get(row.list_sha256) != row.list_name:
            raise PolicyFormatError(f"{where}: honeycomb table {row.key!r} lacks its word list")
        try:
            table = BeeTable.from_payload(
                row.list_name, row.list_sha256, bool(row.allow_s), row.payload
            )
        except (ValueError, KeyError, TypeError):
            raise PolicyFormatError(f"{where}: honeycomb table {row.key!r} is malformed") from None
        if table.key != row.key:
            raise PolicyFormatError(f"{where}: honeycomb table {row.key!r} has the wrong key")
        tables[row.key] = table
    if len(tables) != len(manifest["honeycombs"]):
        raise PolicyFormatError(f"{where}: honeycomb tables listed in the manifest are missing")
    return tables


def _check_types(where: str, row: Any, columns: dict[str, type]) -> None:
    """Raise PolicyFormatError if a column holds another type (SQLite allows any)."""
    for column, kind in columns.items():
        value = row._mapping[column]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise PolicyFormatError(f"{where}: a {column} value is corrupt (wrong type)")


def _make_policy(
    data: PolicyData, core: bytes, hash_hex: str, words: dict[str, tuple[str, ...]], label: str
) -> Policy:
    try:
        targets, guesses = words[data.targets.sha256], words[data.guesses.sha256]
    except KeyError:
        raise PolicyFormatError(f"{label}: a word list it needs is missing") from None
    if len(targets) != data.targets.count or len(guesses) != data.guesses.count:
        raise PolicyFormatError(f"{label}: word-list counts disagree")
    return Policy(data, targets, guesses, core, hash_hex)


def load_policy_bytes(data: bytes, where: str) -> Policy:
    """Return the policy in the bytes of a standalone policy file, after every check
    a reader makes (docs/policy-format.md): header, checksum, content hash,
    structure, word lists, and the replay of every target (client.replay).

    Raises:
        PolicyFormatError: the file fails any check (named in the message), as
            the subclass of its kind: NotAPolicyFileError, UnsupportedVersionError,
            CorruptFileError, MalformedPolicyError or InconsistentPolicyError.
    """
    core, stored_words = decode_file(data, where)
    policy = decode_core(core, where)
    words = {}
    for ref in (policy.targets, policy.guesses):
        if ref.sha256 not in stored_words:
            raise MalformedPolicyError(f"{where}: word list {ref.name!r} is missing from the file")
        words[ref.sha256] = decode_words(stored_words[ref.sha256], ref, where)
    loaded = _make_policy(policy, core, content_hash(core), words, where)
    check_consistency(loaded, where)
    return loaded


def open_policy_file(path: str | Path) -> Catalog:
    """Open and verify a standalone policy file, as a catalog of one policy.

    Raises:
        PolicyFormatError: the file is missing, unreadable or fails any check
            (see :func:`load_policy_bytes`).
    """
    where = str(path)
    policy = load_policy_bytes(read_file_bytes(Path(path)), where)
    return Catalog(where, {policy.name: policy})


def _is_policy_file(path: str) -> bool:
    """Return True if ``path`` starts with the policy-file magic (else: a catalog)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(FILE_MAGIC)) == FILE_MAGIC
    except OSError:
        return False  # open_catalog reports the missing file


def open_store(location: str | Path | None = None) -> Catalog:
    """Open a catalog or a standalone policy file, whichever ``location`` holds.

    None means the shipped catalog layered with the user's (:func:`open_layered`).

    Raises:
        PolicyFormatError: as :func:`open_catalog` or :func:`open_policy_file`.
    """
    if location is None:
        return open_layered()
    where = str(location)
    policy_file = is_file_location(where) and _is_policy_file(where)
    return open_policy_file(where) if policy_file else open_catalog(where)
