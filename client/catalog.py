"""The policy catalog: word lists and policies in one SQLite file, or a PostgreSQL database.

Tables (schema version 6; defined once, in client.catalog_sql, for both kinds
of location; 6 made the manifest's summaries whole, 5 put each policy's
summary in the manifest, 4 Guess My Word's trees among the policies):

The SQLite header's application id is ``GWPC`` (0x47575043) and its user
version the schema version; both are checked before anything else.

* ``meta(key, value)``: ``schema_version``, and ``manifest``, the catalog's
  index (client.catalog_manifest: every policy's summary and content hash,
  every word list's name and count, every honeycomb table's payload hash),
  guarded by ``manifest_sha256``.
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

What is checked when:

* **At open**: the header (magic and schema) and the manifest (its checksum
  and shape). That is all a listing needs, so opening costs the same however
  many policies the catalog holds.
* **When a policy is first asked for** (:meth:`Catalog.policy`): its blob's
  SHA-256 against the manifest and its row, its structure (client.policy_format),
  its summary columns and manifest summary against the blob, and each word
  list it names: the list's SHA-256, name and count. A word list and a
  honeycomb table are checked the same way when first read. The decoded
  policy is kept; later lookups are dictionary steps.
* **Then, for a catalog other than the shipped one**: the policy's proof
  (client.trust: every edge replayed, everything it claims derived again) by
  the prover the opener hands in (``prover``; by default the one this
  installation names, client.trust.installed_proof), unless its content hash is
  in the proof record; opened with ``prove=False`` (``verify``), not.
* **By** ``guesswork-build verify``: everything above for every policy, list
  and table, then the file's seal (the SHA-256 of every byte, which notices a
  flip even where SQLite keeps nothing) and every policy's proof.

A catalog on PostgreSQL (``postgresql+psycopg://USER@HOST:PORT/DATABASE``) is
read whole at open, in one snapshot, and checked against its seal, a meta row
over every other row (client.catalog_sql); its policies are then decoded on
first use like a file's. Any fault raises :class:`~client.errors.PolicyFormatError`
naming the catalog and the fault. A catalog is opened read-only. A
standalone policy file (:func:`open_policy_file`), which no seal vouches
for, is read and checked whole at open, every target replayed through its
tree (client.replay), and proven (client.trust).

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

# The builtin, spelled out where Catalog.list would shadow it in annotations.
import builtins
import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from .catalog_file import FileRows
from .catalog_location import SHIPPED_CATALOG as SHIPPED_CATALOG
from .catalog_location import (
    describe_location,
    is_file_location,
    sqlite_path,
)
from .catalog_manifest import read_manifest
from .catalog_reader import CatalogRows, StoredCatalog
from .errors import (
    MalformedPolicyError,
    PolicyFormatError,
    PolicyNotFoundError,
    WordListNotFoundError,
)
from .policy_file import (
    FILE_MAGIC,
    decode_file,
    decode_words,
    read_file_bytes,
)
from .policy_format import (
    content_hash,
    decode_core,
)
from .policy_info import PolicyInfo
from .probe import Policy
from .text import shown
from .trust import Prover, installed_proof, is_proven
from .trust import prove as prove_policy

if TYPE_CHECKING:
    from .spelling_bee import BeeTable  # loaded with the first honeycomb table

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
    if is_file_location(location):
        return sqlite_path(location).exists()
    from .catalog_sql import server_catalog_exists, server_url

    url = server_url(location)
    assert url is not None  # not a file location, so a database URL or an error
    return server_catalog_exists(describe_location(location), url)


class Catalog:
    """A set of policies: stored catalogs (layered, the last winning a name clash), read
    policy by policy, and policies read whole (a policy file).

    Opening reads each catalog's manifest only; :meth:`policy` reads and checks
    a policy on first use and keeps it. Use as a context manager or call
    :meth:`close`. Safe to share between threads.
    """

    def __init__(
        self,
        location: str,
        stored: list[StoredCatalog] | None = None,
        policies: list[Policy] | None = None,
    ) -> None:
        self.location = location
        self._stored = stored or []
        self._lock = threading.Lock()
        self._loaded: dict[str, Policy] = {}
        #: name -> (summary, the catalog holding it; None: read whole, in _loaded).
        self._index: dict[str, tuple[PolicyInfo, StoredCatalog | None]] = {}
        #: name -> the origin of the policy a later layer's policy of that name hides.
        self._hidden: dict[str, str] = {}
        for source in self._stored:
            for name, info in source.manifest.policies.items():
                if name in self._index:
                    self._hidden[name] = self._index[name][0].catalog
                # Already so unless layered under another name (replace costs 25 us).
                if info.catalog != source.origin:
                    info = replace(info, catalog=source.origin)
                self._index[name] = (info, source)
        for policy in policies or []:
            self._index[policy.name] = (replace(policy.info, catalog=USER), None)
            self._loaded[policy.name] = policy

    def policy(self, name: str) -> Policy:
        """Return the policy called ``name``, read and checked on first use.

        Raises:
            PolicyNotFoundError: no such policy (a ``KeyError``); the message
                lists a few names that do exist.
            PolicyFormatError: its stored form fails a check, or its proof
                (InconsistentPolicyError).
            ProverUnavailableError: it must be proven and the default prover is
                not installed (client.trust.installed_prover).
        """
        with self._lock:
            loaded = self._loaded.get(name)
            entry = self._index.get(name)
        if loaded is not None:
            return loaded
        if entry is None or entry[1] is None:
            raise self._not_found(name)
        policy = entry[1].policy(name)
        with self._lock:
            return self._loaded.setdefault(name, policy)

    def get_policy(self, name: str, default: Policy | None = None) -> Policy | None:
        """Return the policy called ``name``, or ``default`` if there is none.

        Raises:
            PolicyFormatError: its stored form fails a check.
        """
        return self.policy(name) if name in self._index else default

    def info(self, name: str) -> PolicyInfo:
        """Return the summary of the policy ``name`` (no policy is read).

        Raises:
            PolicyNotFoundError: no such policy.
        """
        entry = self._index.get(name)
        if entry is None:
            raise self._not_found(name)
        return entry[0]

    def _not_found(self, name: str) -> PolicyNotFoundError:
        known = ", ".join(self.names()[:5])
        return PolicyNotFoundError(
            f"no policy {shown(name)} in {self.location} (it has {len(self)}: {known}...)"
        )

    def list(self) -> list[PolicyInfo]:
        """Return every policy's summary (its ``catalog`` filled in), sorted by name.
        No policy is read."""
        return [self._index[name][0] for name in self.names()]

    def names(self) -> builtins.list[str]:
        """Return the policy names, sorted."""
        return sorted(self._index)

    def hides(self, name: str) -> str:
        """Return the origin (SHIPPED or USER) of the policy that the policy ``name``
        answers in place of, in a layered catalog; "" where it hides none."""
        return self._hidden.get(name, "")

    def origin(self, name: str) -> str:
        """Return which catalog the policy ``name`` came from: SHIPPED or USER."""
        entry = self._index.get(name)
        return entry[0].catalog if entry is not None else USER

    def __iter__(self) -> Iterator[Policy]:
        """Yield every policy, sorted by name (reading each: see :meth:`list` for summaries)."""
        return iter(self.policy(name) for name in self.names())

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def word_lists(self) -> dict[str, str]:
        """Return the SHA-256 -> name of every stored word list (none is read)."""
        named = {
            ref.sha256: ref.name
            for policy in self._loaded.values()
            for ref in (policy.data.targets, policy.data.guesses)
        }
        for source in self._stored:
            named |= {sha: name for sha, (name, _) in source.manifest.wordlists.items()}
        return named

    def word_list(self, sha256: str) -> tuple[str, ...]:
        """Return the words of the stored list whose SHA-256 is ``sha256``.

        Raises:
            WordListNotFoundError: no such list.
            PolicyFormatError: its stored form fails a check.
        """
        for source in reversed(self._stored):
            if sha256 in source.manifest.wordlists:
                return source.words(sha256)
        for policy in self._loaded.values():
            for ref, words in (
                (policy.data.targets, policy.targets),
                (policy.data.guesses, policy.guesses),
            ):
                if ref.sha256 == sha256:
                    return words
        raise WordListNotFoundError(
            f"no word list {sha256[:12]}... in {self.location}", metadata={"word_list": sha256}
        )

    def words(self, name: str) -> tuple[str, ...]:
        """Return the stored word list called ``name``.

        Raises:
            WordListNotFoundError: the catalog has no list of that name.
            PolicyFormatError: its stored form fails a check.
        """
        named = self.word_lists()
        for sha256, list_name in named.items():
            if list_name == name:
                return self.word_list(sha256)
        raise WordListNotFoundError(
            f"no word list {shown(name)} in the catalog; it has: "
            f"{', '.join(sorted(set(named.values())))}",
            metadata={"word_list": name},
        )

    def bee_table(self, name: str, allow_s: bool) -> BeeTable | None:
        """Return the stored top-honeycomb table of list ``name``, if there is one.

        Raises:
            PolicyFormatError: its stored form fails a check.
        """
        return self._bee_by_key(f"{name}/{'s' if allow_s else 'no-s'}")

    def bee_tables(self) -> builtins.list[BeeTable]:
        """Return every stored honeycomb table (an upper catalog's winning a clash), by key.

        Raises:
            PolicyFormatError: one fails a check.
        """
        keys = sorted({key for source in self._stored for key in source.manifest.honeycombs})
        tables = {key: table for key in keys if (table := self._bee_by_key(key)) is not None}
        return list(tables.values())

    def _bee_by_key(self, key: str) -> BeeTable | None:
        for source in reversed(self._stored):
            table = source.bee_table(key)
            if table is not None:
                return table
        return None

    def check_seals(self) -> None:
        """Check each catalog file's seal: every byte is as published (a file half
        copied, or damaged anywhere, fails). Reads each file whole, once.

        Raises:
            PolicyFormatError: a file fails.
        """
        for source in self._stored:
            source.check_seal()

    def check_all(self) -> None:
        """Read and check everything the catalog holds: every policy, word list and
        honeycomb table, and each file's seal (what ``guesswork-build verify`` adds
        to the checks made on use).

        Raises:
            PolicyFormatError: anything fails a check.
        """
        for source in self._stored:
            source.check_all()
            for name in source.manifest.policies:
                source.policy(name)

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
        """Close the catalog's files and forget its policies (Policy objects already
        handed out stay usable)."""
        for source in self._stored:
            source.close()
        with self._lock:
            self._index, self._loaded = {}, {}


def _open_rows(where: str, location: str | Path) -> CatalogRows:
    """Return the rows of the catalog at ``location``: a file's, read on demand, or a
    database's, read whole (client.catalog_sql, imported only for a database)."""
    if is_file_location(location):
        return FileRows(where, location)
    from .catalog_sql import ServerRows, server_url

    url = server_url(location)
    assert url is not None  # not a file location, so a database URL or an error
    return ServerRows(where, url)


def open_catalog(
    location: str | Path | None = None, *, prove: bool = True, prover: Prover = installed_proof
) -> Catalog:
    """Open a catalog: a file (a path or ``sqlite:///`` URL) or a PostgreSQL database
    (``postgresql+psycopg://USER@HOST:PORT/DATABASE``, see client.catalog_sql).

    None opens the shipped catalog layered with the user's (:func:`open_layered`);
    a location given is read alone. The catalog's ``location`` is the one
    given, a URL's password hidden. Opening checks the header and the manifest;
    each policy is checked when first read (see the module doc) and, unless the
    catalog is the shipped one or ``prove`` is False (``verify``, which proves
    every policy itself), proven then by ``prover`` (client.trust; the default,
    :func:`~guesswork.client.trust.installed_proof`, is the builder's proof,
    loaded on the first proof).

    Raises:
        PolicyFormatError: the catalog is missing, unreachable, unreadable, of
            another schema version, or its manifest fails a check (named in the message).
    """
    if location is None:
        return open_layered(prove=prove, prover=prover)
    where = describe_location(location)
    rows = _open_rows(where, location)
    origin = SHIPPED if is_shipped(where) else USER
    try:
        manifest = read_manifest(where, rows.meta, origin)
    except PolicyFormatError:
        rows.close()
        raise
    proves = prove and origin != SHIPPED
    stored = StoredCatalog(where, origin, rows, manifest, prover=prover if proves else None)
    return Catalog(where, [stored])


def open_layered(
    user: str | Path | None = None,
    *,
    skip_damaged: bool = False,
    prove: bool = True,
    prover: Prover = installed_proof,
) -> Catalog:
    """Open the shipped catalog and, over it, the user's (default :func:`user_catalog`).

    A user's policy replaces a shipped one of the same name; a user catalog
    that does not exist yet (no file; a database without the catalog's tables)
    is simply absent. With ``skip_damaged`` (the player CLI and the server), a
    user catalog that fails its checks at open, or whose server cannot be
    reached, is left out and said so in one WARNING line of the
    ``guesswork.catalog`` logger (on standard error where logging is not set
    up): the shipped policies are still answered. ``prove`` and ``prover``: as for
    :func:`open_catalog`.

    Raises:
        PolicyFormatError: the shipped catalog fails its checks at open, or,
            without ``skip_damaged``, the user's does or cannot be reached.
    """
    shipped = open_catalog(SHIPPED_CATALOG)
    mine = user if user is not None else user_catalog()
    if is_shipped(mine):
        return shipped
    # A dangling link is opened, and reported, rather than taken for "none yet".
    dangling = is_file_location(mine) and sqlite_path(mine).is_symlink()
    try:
        if not (dangling or catalog_exists(mine)):
            return shipped
        return layered(shipped, open_catalog(mine, prove=prove, prover=prover))
    except PolicyFormatError as error:
        if not skip_damaged:
            raise
        logging.getLogger("guesswork.catalog").warning(
            "user catalog left out: %s; answering from the shipped policies", error
        )
        return shipped


def layered(lower: Catalog, upper: Catalog) -> Catalog:
    """Return one catalog of ``lower``'s contents overlaid by ``upper``'s (upper wins)."""
    return Catalog(
        f"{lower.location} + {upper.location}",
        lower._stored + upper._stored,
        list(lower._loaded.values()) + list(upper._loaded.values()),
    )


def load_policy_bytes(
    data: bytes, where: str, *, prove: bool = True, prover: Prover = installed_proof
) -> Policy:
    """Return the policy in the bytes of a standalone policy file, after every check
    a reader makes (docs/policy-format.rst): header, checksum, content hash,
    structure, word lists, and the replay of every target (client.replay); then,
    with ``prove``, its proof by ``prover`` (client.trust.prove: everything it claims
    derived again; the default as for :func:`open_catalog`), unless a proof of its
    content hash is recorded (then the replay too is skipped: the proof made it).

    Raises:
        PolicyFormatError: the file fails any check (named in the message), as
            the subclass of its kind: NotAPolicyFileError, UnsupportedVersionError,
            CorruptFileError, MalformedPolicyError or InconsistentPolicyError.
        ProverUnavailableError: a proof is needed and the default prover is not
            installed (client.trust.installed_prover).
    """
    core, stored_words = decode_file(data, where)
    policy = decode_core(core, where)
    words = {}
    for ref in (policy.targets, policy.guesses):
        if ref.sha256 not in stored_words:
            raise MalformedPolicyError(f"{where}: word list {ref.name!r} is missing from the file")
        words[ref.sha256] = decode_words(stored_words[ref.sha256], ref, where)
    targets, guesses = words[policy.targets.sha256], words[policy.guesses.sha256]
    loaded = Policy(policy, targets, guesses, core, content_hash(core))
    if prove and is_proven(loaded.content_hash):
        return loaded
    # Imported here: the replay computes with numpy, which a catalog's stored
    # answers never need (a policy file is replayed whole when it is read).
    from .replay import check_consistency

    check_consistency(loaded, where)
    if prove:
        prove_policy(loaded, where, prover)
    return loaded


def open_policy_file(
    path: str | Path, *, prove: bool = True, prover: Prover = installed_proof
) -> Catalog:
    """Open and verify a standalone policy file, as a catalog of one policy (proven by
    ``prover`` unless ``prove`` is False: see :func:`load_policy_bytes`).

    Raises:
        PolicyFormatError: the file is missing, unreadable or fails any check
            (see :func:`load_policy_bytes`).
    """
    where = str(path)
    policy = load_policy_bytes(read_file_bytes(Path(path)), where, prove=prove, prover=prover)
    return Catalog(where, policies=[policy])


def _is_policy_file(path: str) -> bool:
    """Return True if ``path`` starts with the policy-file magic (else: a catalog)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(FILE_MAGIC)) == FILE_MAGIC
    except OSError:
        return False  # open_catalog reports the missing file


def open_store(
    location: str | Path | None = None, *, prove: bool = True, prover: Prover = installed_proof
) -> Catalog:
    """Open a catalog or a standalone policy file, whichever ``location`` holds.

    None means the shipped catalog layered with the user's (:func:`open_layered`).
    ``prove`` False opens it to be verified: no policy is proven on reading
    (``verify`` and ``import`` prove every one themselves); ``prover`` proves
    otherwise (as for :func:`open_catalog`).

    Raises:
        PolicyFormatError: as :func:`open_catalog` or :func:`open_policy_file`.
    """
    if location is None:
        return open_layered(prove=prove, prover=prover)
    where = str(location)
    policy_file = is_file_location(where) and _is_policy_file(where)
    if policy_file:
        return open_policy_file(where, prove=prove, prover=prover)
    return open_catalog(where, prove=prove, prover=prover)
