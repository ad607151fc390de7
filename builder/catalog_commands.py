"""The catalog-keeping commands of guesswork-build: list, verify, export,
import, remove, upgrade, lists and cache, each with its options' dataclass.

builder.commands holds the commands that build policies; builder.catalog_writes
the checks every publishing command shares (where to write, name clashes,
renaming); builder.cli builds each command's options and runs it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..client import trust
from ..client.catalog import (
    SHIPPED_CATALOG,
    Catalog,
    open_catalog,
    open_policy_file,
    open_store,
)
from ..client.errors import InconsistentPolicyError, PolicyNotFoundError, UsageError
from ..client.games import Wordle
from ..client.messages import policy_json
from ..client.progress import Progress, say
from ..client.text import plural
from ..client.trust import remember
from . import caches, matrix_cache
from .catalog_writes import check_name_free, renamed, write_location, write_policy_file
from .command_types import Naming, Outcome
from .list_registry import register
from .proof import derivation_faults, proof_faults
from .publish import StoredPolicy, export_bytes, kept_bee_tables, merged, publish_catalog
from .publish_lock import publishing
from .upgrade import upgrade_catalog
from .verify import verify_certificate, verify_policy
from .wordlists import SHIPPED, registered_lists, shipped_words

if TYPE_CHECKING:
    from ..client.probe import Policy


@dataclass(frozen=True)
class ListsOptions:
    """``lists``' options: ``show`` or ``update`` (``action``) and update's files,
    ``--kind``, ``--as-of`` and ``--name``."""

    action: str
    files: tuple[str, ...]
    kind: str | None
    as_of: str | None
    name: str | None


def lists(options: ListsOptions) -> Outcome:
    """Show the shipped and registered word lists, or register newer ones (``update``).

    Raises:
        UsageError: ``update`` without files, ``--kind`` or ``--as-of``, or ``show``
            with any of them.
        WordListError: a file cannot be registered (builder.list_registry.register).
    """
    if options.action == "update":
        if not options.files or options.kind is None or options.as_of is None:
            raise UsageError("lists update needs FILE..., --kind answers|guesses and --as-of DATE")
        if options.name is not None and len(options.files) > 1:
            raise UsageError("--name names one list: give one FILE with it")
        lines, rows = [], []
        for path in options.files:
            entry, new = register(path, options.kind, options.as_of, Wordle(), options.name)
            rows.append({**asdict(entry), "new": new})
            lines.append(
                f"{'registered' if new else 'already known:'} {entry.name}: "
                f"{plural(entry.count, 'word', grouped=True)}, {entry.kind} "
                f"{f'as of {entry.as_of}' if entry.as_of else '(shipped)'}, sha256 {entry.sha256}"
            )
        return Outcome(rows, lines)
    if options.files or options.kind or options.as_of or options.name:
        raise UsageError("lists show takes no FILE, --kind, --as-of or --name (see lists update)")
    say("lists: reading every word list")
    rows = [
        {
            "name": name,
            "count": len(shipped_words(name)),
            "sha256": entry.sha256,
            "as_of": entry.as_of,
            "source": "shipped",
        }
        for name, entry in SHIPPED.items()
    ]
    rows += [
        {
            "name": e.name,
            "count": e.count,
            "sha256": e.sha256,
            "as_of": e.as_of,
            "source": "registered",
            "kind": e.kind,
            "file": e.source,
        }
        for e in registered_lists().values()
    ]
    lines = [
        f"{r['name']:<22} {r['count']:>7,}  sha256 {r['sha256']}  {r['source']}"
        + (f", as of {r['as_of']}" if r["as_of"] else "")
        for r in rows
    ]
    return Outcome(rows, lines)


@dataclass(frozen=True)
class ListPoliciesOptions:
    """``list``'s options: the catalog (None: the user's over the shipped one)."""

    catalog: str | None


def list_policies(options: ListPoliciesOptions) -> Outcome:
    """List the catalog's policies; ``--json``: each as ``guesswork policies --json``
    lists it (client.messages.policy_json), with ``hides`` on a user policy named as
    a shipped one."""
    with open_store(options.catalog) as catalog:
        # A user policy named as a shipped one answers in its place: said on its row.
        listed = [(info, catalog.hides(info.name)) for info in catalog.list()]
    rows = [
        {**policy_json(info), **({"hides": hidden} if hidden else {})} for info, hidden in listed
    ]
    lines = [
        f"{info.name:<48} {info.game:<10} {info.mode:<6} {info.metric:<11} "
        f"{info.count:>5} {info.mean:.2f} ({info.worst})  {info.catalog}"
        + (f" (answers in place of the {hidden} one)" if hidden else "")
        + (f"  {info.language}" if info.language else "")
        for info, hidden in listed
    ]
    return Outcome(rows, lines)


@dataclass(frozen=True)
class VerifyOptions:
    """``verify``'s options: the catalog, ``--prove``, the ``--policy`` names (none:
    every policy), and where ``--prove``'s searches run (``--workers``, ``--scheduler``)."""

    catalog: str | None
    prove: bool
    policy: tuple[str, ...]
    workers: int
    scheduler: str | None


def verify(options: VerifyOptions) -> Outcome:
    """Check the whole catalog (every row, the file's seal: Catalog.check_all) and prove
    every stored policy (or those named by ``--policy``, after only their own checks):
    every edge replayed and everything it claims derived again (builder.proof), whatever
    the proof record says; exit 1 on any fault. A policy proven is recorded (client.trust).

    Raises:
        PolicyNotFoundError: a ``--policy`` name is not in the catalog.
        PolicyFormatError: the catalog fails a check.
    """

    # Not proven on reading: each policy is proven below, and a fault is a FAULT line.
    with open_store(options.catalog, prove=False) as catalog:
        if not options.policy:
            say("verify: checking every row of the catalog")
            catalog.check_all()
        chosen = (
            [catalog.policy(name) for name in options.policy] if options.policy else list(catalog)
        )
        progress = Progress("verify", unit="policy")  # minutes for a whole catalog
        progress.say(f"proving {plural(len(chosen), 'policy')}, one by one")
        results: list[dict[str, Any]] = []
        for p in chosen:
            progress.update(len(results), len(chosen), progress.elapsed(), f"now {p.name}")
            faults = verify_policy(p) or derivation_faults(p)
            faults = faults or verify_certificate(
                p, prove=options.prove, workers=options.workers, scheduler=options.scheduler
            )
            results.append({"name": p.name, "faults": faults})
        progress.update(len(results), len(chosen), progress.elapsed(), "done")
        progress.close()
        for result, policy in zip(results, chosen, strict=True):
            if not result["faults"]:
                remember(policy.content_hash)
            claim = _least_worst_claim(policy)
            if claim is not None:  # what a tie-break record proves of the worst case
                result["least_worst"] = claim
    failed = [r for r in results if r["faults"]]
    lines = [
        f"{'FAULT' if r['faults'] else 'ok':<6}{r['name']}"
        + (f": {'; '.join(r['faults'])}" if r["faults"] else "")
        + (f" ({r['least_worst']})" if "least_worst" in r and not r["faults"] else "")
        for r in results
    ]
    lines.append(f"{len(results) - len(failed)} of {len(results)} policies verified")
    return Outcome(results, lines, 1 if failed else 0)


def _least_worst_claim(policy: Policy) -> str | None:
    """Return what a tie-break record proves of the policy's worst case, in words, or
    None when its certificate has none."""
    cert = policy.data.certificate or {}
    record = cert.get("tie_break")
    if record is None:
        return None
    among = "of its total" if cert.get("objective") == "total-then-worst" else "at all"
    return f"worst case {record['worst']}, the least of any tree {among}"


@dataclass(frozen=True)
class ExportOptions:
    """``export``'s options: the catalog, the policy's name and the file (None:
    ``NAME.gwp``)."""

    catalog: str | None
    name: str
    output: str | None


def export(options: ExportOptions) -> Outcome:
    """Write one policy as a standalone policy file (atomically)."""
    say(f"export: reading {options.name}")
    with open_store(options.catalog) as catalog:
        data = export_bytes(catalog.policy(options.name))
    path = Path(options.output or f"{options.name}.gwp")
    write_policy_file(path, data)
    return Outcome(
        {"name": options.name, "file": str(path), "bytes": len(data)},
        [f"exported {options.name} to {path} ({len(data):,} bytes)"],
    )


@dataclass(frozen=True)
class ImportOptions:
    """``import``'s options: the catalog written (None: the user's), the policy file,
    and its name there."""

    catalog: str | None
    file: str
    naming: Naming


def import_policy(options: ImportOptions) -> Outcome:
    """Prove a policy file completely (builder.proof, whatever the proof record says),
    then publish the catalog with it added, and record its proof (client.trust)."""

    with open_policy_file(options.file, prove=False) as single:
        (policy,) = list(single)
        say(f"import: proving {policy.name} (every edge replayed)")
        faults = proof_faults(policy)
        if faults:
            raise InconsistentPolicyError(f"{options.file}: policy {policy.name!r}: {faults[0]}")
        remember(policy.content_hash)
        location = write_location(options.catalog)
        name = options.naming.name or policy.name
        proven = replace(StoredPolicy.from_policy(policy), proven=True)
        additions = [renamed(proven, options.naming.name)]
        with publishing(location) as catalog:
            check_name_free(catalog, location, name, options.naming.replace)
            path = publish_catalog(location, merged(catalog, additions), kept_bee_tables(catalog))
    return Outcome({"name": name, "catalog": str(path)}, [f"imported {name} into {path}"])


@dataclass(frozen=True)
class RemoveOptions:
    """``remove``'s options: the catalog written (None: the user's) and the policy."""

    catalog: str | None
    name: str


def remove(options: RemoveOptions) -> Outcome:
    """Remove one policy from the user catalog (or ``--catalog``) and publish the rest.

    Raises:
        PolicyNotFoundError: the catalog has no such policy; the message says
            when the name is a shipped policy, which ``remove`` never changes.
    """
    location = write_location(options.catalog)
    with publishing(location) as catalog:
        if catalog is None or catalog.get_policy(options.name) is None:
            _not_there(options, location, catalog)
        kept = [StoredPolicy.from_policy(p) for p in catalog if p.name != options.name]
        say(f"remove: writing {location} without {options.name}")
        path = publish_catalog(location, kept, kept_bee_tables(catalog))
    return Outcome(
        {"name": options.name, "catalog": str(path)}, [f"removed {options.name} from {path}"]
    )


def _not_there(options: RemoveOptions, location: str, catalog: Catalog | None) -> NoReturn:
    """Raise the error for ``remove`` of a policy that ``catalog`` does not hold.

    Raises:
        PolicyNotFoundError: always; saying so when the name is a shipped policy.
    """
    if options.catalog is None:
        with open_catalog(SHIPPED_CATALOG) as shipped:
            if shipped.get_policy(options.name) is not None:
                raise PolicyNotFoundError(
                    f"{options.name!r} is a shipped policy, not one of the user catalog "
                    f"({location}); remove changes only the user catalog"
                )
    held = "does not exist yet" if catalog is None else f"has {plural(len(catalog), 'policy')}"
    raise PolicyNotFoundError(f"no policy {options.name!r} in {location} (it {held})")


@dataclass(frozen=True)
class UpgradeOptions:
    """``upgrade``'s options: the catalog rewritten (None: the user's)."""

    catalog: str | None


def upgrade(options: UpgradeOptions) -> Outcome:
    """Rewrite the user catalog (or ``--catalog``) in this version's schema (builder.upgrade)."""
    location = write_location(options.catalog)
    say(f"upgrade: reading and rewriting {location}")
    done = upgrade_catalog(location)
    data = {
        "catalog": str(done.path),
        "old_schema": done.old_schema,
        "policies": done.policies,
        "honeycomb_tables": done.honeycomb_tables,
        "backup": None if done.backup is None else str(done.backup),
    }
    if done.backup is None:
        line = f"{done.path} already has schema {done.old_schema}: nothing to upgrade"
    else:
        line = (
            f"upgraded {done.path} from schema {done.old_schema}: "
            f"{plural(done.policies, 'policy')}, {plural(done.honeycomb_tables, 'honeycomb table')}"
            f"; the old file is kept as {done.backup}"
        )
    return Outcome(data, [line])


@dataclass(frozen=True)
class CacheOptions:
    """``cache``'s options: ``info`` or ``clean`` (``cache_command``) and clean's
    ``--matrices``, ``--proofs`` (neither: both caches) and ``--older-than``."""

    cache_command: str
    matrices: bool
    proofs: bool
    older_than: float | None


def cache(options: CacheOptions) -> Outcome:
    """Show (``info``) or empty (``clean``) the caches this project keeps (builder.caches):
    the reply matrices and the proof record."""
    size = matrix_cache.format_bytes
    if options.cache_command == "info":
        say(f"cache: reading {matrix_cache.cache_dir()}")
        data = matrix_cache.describe()
        data["proofs"] = proofs = caches.describe_proofs()
        limit = data["limit_bytes"]
        lines = [
            f"directory  {data['directory']}",
            f"files      {data['files']} ({size(data['bytes'])})",
            f"limit      {size(limit) if limit else 'none: the disk cache is off'}"
            f" (${matrix_cache.LIMIT_VARIABLE})",
        ]
        if data["temporary_files"]:
            lines.append(
                f"temporary  {data['temporary_files']} ({size(data['temporary_bytes'])}; "
                "being written, or left by a killed build)"
            )
        older = proofs["older_version_files"]
        lines.append(
            f"proofs     {plural(proofs['files'], 'policy')} recorded as proven "
            f"(one empty file each, in {proofs['directory']}"
            + (f"; {older} of an older proof version" if older else "")
            + ")"
        )
        if data["entries"]:
            lines.append("  last used (UTC)         size  matrix  file")
        for row in data["entries"]:
            shape = "?" if row["shape"] is None else " x ".join(map(str, row["shape"]))
            lines.append(
                f"  {row['last_used'][:16].replace('T', ' ')}  {size(row['bytes']):>10}  "
                f"{shape} {row['dtype'] or ''}  {row['file']}"
            )
        return Outcome(data, lines)
    # No cache named: every cache is cleared.
    chosen = [name for name in caches.CACHES if getattr(options, name)] or list(caches.CACHES)
    say(f"cache: removing the {' and '.join(chosen)} cached in {matrix_cache.cache_dir()}")
    removed = matrix_cache.clean(older_than_days=options.older_than) if "matrices" in chosen else []
    records = caches.clean_proofs(older_than_days=options.older_than) if "proofs" in chosen else 0
    freed = sum(entry.bytes for entry in removed)
    outcome = {
        "directory": str(matrix_cache.cache_dir()),
        "removed_files": len(removed),
        "freed_bytes": freed,
        "older_than_days": options.older_than,
        "cleared": chosen,
        "proofs": {"directory": str(trust.proof_root()), "removed_files": records},
    }
    lines = []
    if "matrices" in chosen:
        noun = "file" if len(removed) == 1 else "files"
        lines.append(f"removed {len(removed)} {noun} ({size(freed)}) from {outcome['directory']}")
    if "proofs" in chosen:
        again = " (those policies are proven again on their next use)" if records else ""
        lines.append(f"removed {plural(records, 'proof record')} from {trust.proof_root()}{again}")
    return Outcome(outcome, lines)
