"""The trust boundary: which policies are proven, and the record of those that were.

A policy's seal (checksums, content hash) shows its bytes are whole, not that
what they claim is true: anyone can seal a worse tree under a good name. So a
policy is served only once it is *proven*:

* **Trusted without a proof**: the shipped catalog's policies (its
  byte-for-byte rebuild and ``verify`` are run by the project's tests before a
  release), wherever a policy of the same content hash comes from (an export of
  one imported into a user catalog, a copy of the catalog, the catalog
  published to PostgreSQL: the same core, byte for byte), and the policies
  this installation built or proved itself, whose content hashes are in the
  proof record below: ``guesswork-build`` records each policy it builds when
  it publishes it (builder.publish), and ``import`` and ``verify`` record each
  policy they prove.
* **Proven on first use**: anything else, that is a ``.gwp`` file given to
  ``--store`` and any policy of a catalog handed to ``--store`` /
  ``--catalog`` (or found as the user's catalog) that this installation did
  not write. The proof (builder.proof.proof_faults) replays every edge,
  recomputes the statistics, derives a greedy strategy's step at every node,
  the alternatives (values and order) and an optimum's certificate again. A
  policy that fails is refused (:class:`~client.errors.InconsistentPolicyError`,
  reason ``BAD_POLICY_DATA``); one that passes has its content hash recorded,
  so another process pays one ``stat`` for it, not the proof.

The proof is the builder's (numpy, the compiled kernels), and the client
imports neither builder nor service, so it is handed in: whatever proves takes
a :data:`Prover`. The service passes the builder's (service.local.builder_proof);
the embedding API's default, :func:`installed_proof`, is the one this
installation names in its metadata: the ``proof`` entry point of the group
``guesswork.prover`` (pyproject's ``[project.entry-points]``), which the
guesswork-solver distribution points at builder.proof.proof_faults. It is
looked up and loaded on the first proof only; a stored answer from the shipped
catalog never makes one.

The record is one empty-named file per proven content hash (the SHA-256 of
the policy's core, which names its word lists by their SHA-256 too) in
:func:`proof_folder`: ``$GUESSWORK_CACHE/proven/v1`` or
``$XDG_CACHE_HOME/guesswork/proven/v1`` (default ``~/.cache``), the version
being :data:`PROOF_VERSION`, so a stronger proof is made again. Deleting the
folder only costs proofs again.

What it protects against, honestly: files and catalogs from elsewhere (a
download, a shared folder, a database someone else writes) and anything
re-sealed after this installation wrote it. It does not protect against
someone who can write the user's own cache or the installed package: the
record is signed by nothing but the fact that it is there, and such a person
can change the code that reads it as easily.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from guesswork import DISTRIBUTION

from .catalog_file import FileRows
from .catalog_location import SHIPPED_CATALOG
from .catalog_manifest import read_manifest
from .errors import InconsistentPolicyError, PolicyFormatError, ProverUnavailableError

if TYPE_CHECKING:
    from .probe import Policy

#: A proof: return the faults of a policy (each one line, the first the one reported),
#: none when it proves everything it claims; builder.proof.proof_faults is one.
Prover = Callable[["Policy"], Sequence[str]]

#: The entry-point group, and the name in it, of the prover the distribution installs.
PROVER_GROUP = "guesswork.prover"
PROVER_NAME = "proof"

#: The version of the proof (builder.proof): records of an older one are not trusted.
PROOF_VERSION = 1

_HASH = re.compile(r"[0-9a-f]{64}")


#: The name of a record: a content hash in lower-case hex.
RECORD_NAME = _HASH


def cache_root() -> Path:
    """Return the folder every cache of this project lives in: ``$GUESSWORK_CACHE``, else
    ``$XDG_CACHE_HOME/guesswork`` (``~/.cache/guesswork`` when that is unset or relative).

    The proof record is kept under it, and builder.matrix_cache keeps the reply
    matrices in it, so one folder (and ``guesswork-build cache``) covers both.
    """
    explicit = os.environ.get("GUESSWORK_CACHE")
    if explicit:
        return Path(explicit)
    cache_home = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG rule: a relative $XDG_CACHE_HOME is invalid and is ignored.
    base = Path(cache_home) if os.path.isabs(cache_home) else Path.home() / ".cache"
    return base / "guesswork"


def proof_root() -> Path:
    """Return the folder that holds the proof record of every version (``proven``
    under :func:`cache_root`); only the current version's, :func:`proof_folder`, is read."""
    return cache_root() / "proven"


def proof_folder() -> Path:
    """Return the folder of the proof record: ``$GUESSWORK_CACHE/proven/vN``, else
    ``$XDG_CACHE_HOME/guesswork/proven/vN`` (``~/.cache`` when unset), beside the
    builder's matrix cache (:func:`cache_root`)."""
    return proof_root() / f"v{PROOF_VERSION}"


def is_proven(content_hash: str) -> bool:
    """Return True if the policy whose core has SHA-256 ``content_hash`` (hex) was proven
    here (or built here) before, or ships with this installation: one ``stat``, and
    the first time a hash is not in the record, one read of the shipped catalog's
    content hashes (:func:`shipped_content_hashes`)."""
    if not _HASH.fullmatch(content_hash):
        return False
    return (proof_folder() / content_hash).is_file() or content_hash in shipped_content_hashes()


@cache
def shipped_content_hashes() -> frozenset[str]:
    """Return the content hashes of the shipped catalog's policies (empty where it cannot
    be opened: then everything from outside is proven, which costs time, never trust).

    A policy from outside whose core is byte for byte a shipped one's (an export of a
    shipped policy imported into a user catalog, a copy of the shipped catalog, the
    shipped catalog published to PostgreSQL) is trusted as the shipped one is: the
    content hash is the SHA-256 of that core, word lists included by their SHA-256.
    """
    where = str(SHIPPED_CATALOG)
    try:
        rows = FileRows(where, SHIPPED_CATALOG)
        try:
            manifest = read_manifest(where, rows.meta)  # its checksum checked
        finally:
            rows.close()
    except (PolicyFormatError, OSError):
        return frozenset()
    return frozenset(info.content_hash for info in manifest.policies.values())


def remember(content_hash: str) -> bool:
    """Record that the policy with ``content_hash`` is proven; return True if recorded.

    A cache that cannot be written (read-only, full) records nothing: the proof
    is then made again by the next process, which costs time, never trust.
    """
    if not _HASH.fullmatch(content_hash):
        return False
    folder = proof_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Written under a name of its own and renamed: a reader never sees half a record.
        temporary = folder / f".{content_hash}.{os.getpid()}.tmp"
        temporary.write_bytes(b"")
        os.replace(temporary, folder / content_hash)
    except OSError:
        return False
    return True


@cache
def installed_prover() -> Prover:
    """Return the prover this installation names: the entry point ``proof`` of the group
    ``guesswork.prover`` (:data:`PROVER_NAME`, :data:`PROVER_GROUP`) in the metadata of
    the guesswork-solver distribution (builder.proof.proof_faults), loaded now with what
    it imports.
    Only that distribution's entry point is read: another installed package
    cannot put a prover of its own in the way.

    Raises:
        ProverUnavailableError: the distribution is not installed, or its metadata
            (written at install time) names no prover: an older install of it.
    """
    # Imported here: reading the metadata loads email, zipfile and csv (tens of
    # milliseconds), which a stored answer, never a proof, must not pay.
    import importlib.metadata as metadata

    try:
        entries = metadata.distribution(DISTRIBUTION).entry_points
    except metadata.PackageNotFoundError:
        entries = metadata.EntryPoints(())
    for entry in entries.select(group=PROVER_GROUP, name=PROVER_NAME):
        prover: Prover = entry.load()
        return prover
    raise ProverUnavailableError(
        f"a policy from outside this installation must be proven, and the metadata of "
        f"{DISTRIBUTION} names no prover (entry point {PROVER_GROUP}:{PROVER_NAME}): "
        f"install it again (pip install {DISTRIBUTION}; in a checkout, pip install -e .)"
    )


def installed_proof(policy: Policy) -> Sequence[str]:
    """Return the faults of ``policy`` by :func:`installed_prover`'s proof: the default
    :data:`Prover` of the embedding API, which finds and loads the prover on its
    first proof (the builder's numpy and compiled kernels with it), not before.

    Raises:
        ProverUnavailableError: no prover is installed (see :func:`installed_prover`).
    """
    return installed_prover()(policy)


def prove(policy: Policy, where: str, prover: Prover = installed_proof) -> None:
    """Prove ``policy`` (from outside this installation) with ``prover`` unless its proof
    is recorded, then record it: see the module doc.

    Raises:
        InconsistentPolicyError: the policy fails its proof (the first fault, one line,
            naming ``where`` and the policy).
        ProverUnavailableError: the default prover is asked for and none is installed.
    """
    if is_proven(policy.content_hash):
        return
    faults = prover(policy)
    if faults:
        raise InconsistentPolicyError(f"{where}: policy {policy.name!r}: {faults[0]}")
    remember(policy.content_hash)
