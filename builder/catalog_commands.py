"""The catalog-keeping commands of guesswork-build: list, verify, export,
import, remove, upgrade, lists and cache, with the helpers every publishing command
shares (where to write, name clashes, renaming) and their :class:`Outcome`.

builder.commands holds the commands that build policies and the command table.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..client import trust
from ..client.catalog import (
    SHIPPED_CATALOG,
    Catalog,
    is_shipped,
    open_catalog,
    open_policy_file,
    open_store,
    user_catalog,
)
from ..client.errors import (
    InconsistentPolicyError,
    PolicyFormatError,
    PolicyNotFoundError,
    UsageError,
)
from ..client.games import Wordle
from ..client.messages import policy_json
from ..client.policy_format import encode_core
from ..client.progress import Progress, say
from ..client.text import plural
from ..client.trust import remember
from . import caches, matrix_cache
from .files import replace_file
from .list_registry import register
from .proof import derivation_faults, proof_faults
from .publish import (
    StoredPolicy,
    export_bytes,
    kept_bee_tables,
    merged,
    publish_catalog,
)
from .publish_lock import publishing
from .upgrade import upgrade_catalog
from .verify import verify_certificate, verify_policy
from .wordlists import SHIPPED, registered_lists, shipped_words

if TYPE_CHECKING:
    from ..client.probe import Policy
    from .policies import BuiltPolicy


@dataclass(frozen=True)
class Outcome:
    """What a command prints: JSON data, or text lines; and its exit status."""

    data: Any
    lines: list[str]
    status: int = 0


def lists(args: argparse.Namespace) -> Outcome:
    """Show the shipped and registered word lists, or register newer ones (``update``).

    Raises:
        UsageError: ``update`` without files, ``--kind`` or ``--as-of``, or ``show``
            with any of them.
        WordListError: a file cannot be registered (builder.list_registry.register).
    """
    if args.action == "update":
        if not args.files or args.kind is None or args.as_of is None:
            raise UsageError("lists update needs FILE..., --kind answers|guesses and --as-of DATE")
        if args.name is not None and len(args.files) > 1:
            raise UsageError("--name names one list: give one FILE with it")
        lines, rows = [], []
        for path in args.files:
            entry, new = register(path, args.kind, args.as_of, Wordle(), args.name)
            rows.append({**asdict(entry), "new": new})
            lines.append(
                f"{'registered' if new else 'already known:'} {entry.name}: "
                f"{plural(entry.count, 'word', grouped=True)}, {entry.kind} "
                f"{f'as of {entry.as_of}' if entry.as_of else '(shipped)'}, sha256 {entry.sha256}"
            )
        return Outcome(rows, lines)
    if args.files or args.kind or args.as_of or args.name:
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


def _write_location(args: argparse.Namespace) -> str:
    """Return the catalog a command writes: ``--catalog``, else the user catalog.

    Raises:
        UsageError: no ``--catalog`` and $GUESSWORK_CATALOG names the shipped
            catalog, which only an explicit ``--catalog`` may write.
    """
    if args.catalog is not None:
        return str(args.catalog)
    user = user_catalog()
    if is_shipped(user):
        raise UsageError(
            f"$GUESSWORK_CATALOG names the shipped catalog {SHIPPED_CATALOG}, which is written "
            f"only when named with --catalog (as `make catalog` does); point it at a file of "
            f"your own"
        )
    return str(user)


def _check_name_free(catalog: Catalog | None, location: str, name: str, overwrite: bool) -> None:
    """Refuse to overwrite a policy silently (two lists with one file stem, stdin builds),
    or to hide a shipped policy silently (a user catalog's policy answers in its place).

    Raises:
        UsageError: ``name`` is already in the catalog, or is a shipped policy's and
            the catalog is the user's (layered over the shipped one), and ``overwrite``
            is False.
    """
    if overwrite:
        return
    if catalog is not None and name in catalog.names():
        raise UsageError(
            f"policy {name!r} is already in {location}: give this one another name with "
            f"--name NAME, or pass --replace to overwrite it"
        )
    # The user's own catalog is layered over the shipped one wherever a catalog is not
    # named; a catalog named with --catalog is the caller's own business.
    if str(location) == str(user_catalog()):
        with open_catalog(SHIPPED_CATALOG) as shipped:
            if name in shipped.names():
                raise UsageError(
                    f"policy {name!r} is a shipped policy's name, and yours would answer in "
                    f"its place: give this one another name with --name NAME, or pass "
                    f"--replace to answer with yours"
                )


def _renamed(stored: StoredPolicy, name: str | None) -> StoredPolicy:
    """Return ``stored`` under ``name`` (the name is part of the core, so it is re-encoded)."""
    if name is None or name == stored.data.name:
        return stored
    data = replace(stored.data, name=name)
    # Only the name differs from what was built or proven: so does the proof.
    return StoredPolicy(encode_core(data), data, stored.words, stored.proven)


def check_publish(args: argparse.Namespace, name: str) -> str:
    """Return the catalog ``--publish`` writes to ("" without it), after checking that
    ``name`` is free there (before a search, so that a taken name fails at once).

    Raises:
        UsageError: the name is taken (without ``--replace``), or no catalog can be written.
    """
    location = _write_location(args) if args.publish else ""
    if args.publish:
        with publishing(location) as catalog:
            _check_name_free(catalog, location, name, args.replace)
    return location


def store_built(
    args: argparse.Namespace,
    built: BuiltPolicy,
    location: str,
    info: dict[str, Any],
    lines: list[str],
) -> None:
    """Publish ``built`` to ``location`` (``--publish``) and write it to ``--output``,
    as asked; add what was written to the report's ``info`` and ``lines``.

    Raises:
        UsageError: the name was taken meanwhile; OSError: the file cannot be written.
    """
    stored = StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)
    stored = _renamed(stored, args.name)
    name = stored.data.name
    if args.publish:
        with publishing(location) as catalog:  # read again: another publish may have landed
            _check_name_free(catalog, location, name, args.replace)
            path = publish_catalog(location, merged(catalog, [stored]), kept_bee_tables(catalog))
        info["catalog"] = str(path)
        lines.append(f"stored {name} in {path}")
    if args.output:
        path = Path(args.output)
        _write_atomically(path, export_bytes(stored))
        info["file"] = str(path)
        lines.append(f"wrote {path}")


def list_policies(args: argparse.Namespace) -> Outcome:
    """List the catalog's policies; ``--json``: each as ``guesswork policies --json``
    lists it (client.messages.policy_json), with ``hides`` on a user policy named as
    a shipped one."""
    with open_store(args.catalog) as catalog:
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


def verify(args: argparse.Namespace) -> Outcome:
    """Check the whole catalog (every row, the file's seal: Catalog.check_all) and prove
    every stored policy (or those named by ``--policy``, after only their own checks):
    every edge replayed and everything it claims derived again (builder.proof), whatever
    the proof record says; exit 1 on any fault. A policy proven is recorded (client.trust).

    Raises:
        PolicyNotFoundError: a ``--policy`` name is not in the catalog.
        PolicyFormatError: the catalog fails a check.
    """

    # Not proven on reading: each policy is proven below, and a fault is a FAULT line.
    with open_store(args.catalog, prove=False) as catalog:
        if not args.policy:
            say("verify: checking every row of the catalog")
            catalog.check_all()
        chosen = [catalog.policy(name) for name in args.policy] if args.policy else list(catalog)
        progress = Progress("verify", unit="policy")  # minutes for a whole catalog
        progress.say(f"proving {plural(len(chosen), 'policy')}, one by one")
        results: list[dict[str, Any]] = []
        for p in chosen:
            progress.update(len(results), len(chosen), progress.elapsed(), f"now {p.name}")
            faults = verify_policy(p) or derivation_faults(p)
            faults = faults or verify_certificate(
                p, prove=args.prove, workers=args.workers, scheduler=args.scheduler
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


def export(args: argparse.Namespace) -> Outcome:
    """Write one policy as a standalone policy file (atomically)."""
    say(f"export: reading {args.name}")
    with open_store(args.catalog) as catalog:
        data = export_bytes(catalog.policy(args.name))
    path = Path(args.output or f"{args.name}.gwp")
    _write_atomically(path, data)
    return Outcome(
        {"name": args.name, "file": str(path), "bytes": len(data)},
        [f"exported {args.name} to {path} ({len(data):,} bytes)"],
    )


def import_policy(args: argparse.Namespace) -> Outcome:
    """Prove a policy file completely (builder.proof, whatever the proof record says),
    then publish the catalog with it added, and record its proof (client.trust)."""

    with open_policy_file(args.file, prove=False) as single:
        (policy,) = list(single)
        say(f"import: proving {policy.name} (every edge replayed)")
        faults = proof_faults(policy)
        if faults:
            raise InconsistentPolicyError(f"{args.file}: policy {policy.name!r}: {faults[0]}")
        remember(policy.content_hash)
        location = _write_location(args)
        name = args.name or policy.name
        proven = replace(StoredPolicy.from_policy(policy), proven=True)
        additions = [_renamed(proven, args.name)]
        with publishing(location) as catalog:
            _check_name_free(catalog, location, name, args.replace)
            path = publish_catalog(location, merged(catalog, additions), kept_bee_tables(catalog))
    return Outcome({"name": name, "catalog": str(path)}, [f"imported {name} into {path}"])


def remove(args: argparse.Namespace) -> Outcome:
    """Remove one policy from the user catalog (or ``--catalog``) and publish the rest.

    Raises:
        PolicyNotFoundError: the catalog has no such policy; the message says
            when the name is a shipped policy, which ``remove`` never changes.
    """
    location = _write_location(args)
    with publishing(location) as catalog:
        if catalog is None or catalog.get_policy(args.name) is None:
            _not_there(args, location, catalog)
        kept = [StoredPolicy.from_policy(p) for p in catalog if p.name != args.name]
        say(f"remove: writing {location} without {args.name}")
        path = publish_catalog(location, kept, kept_bee_tables(catalog))
    return Outcome({"name": args.name, "catalog": str(path)}, [f"removed {args.name} from {path}"])


def _not_there(args: argparse.Namespace, location: str, catalog: Catalog | None) -> NoReturn:
    """Raise the error for ``remove`` of a policy that ``catalog`` does not hold.

    Raises:
        PolicyNotFoundError: always; saying so when the name is a shipped policy.
    """
    if args.catalog is None:
        with open_catalog(SHIPPED_CATALOG) as shipped:
            if shipped.get_policy(args.name) is not None:
                raise PolicyNotFoundError(
                    f"{args.name!r} is a shipped policy, not one of the user catalog "
                    f"({location}); remove changes only the user catalog"
                )
    held = "does not exist yet" if catalog is None else f"has {plural(len(catalog), 'policy')}"
    raise PolicyNotFoundError(f"no policy {args.name!r} in {location} (it {held})")


def upgrade(args: argparse.Namespace) -> Outcome:
    """Rewrite the user catalog (or ``--catalog``) in this version's schema (builder.upgrade)."""
    location = _write_location(args)
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


def cache(args: argparse.Namespace) -> Outcome:
    """Show (``info``) or empty (``clean``) the caches this project keeps (builder.caches):
    the reply matrices and the proof record."""
    size = matrix_cache.format_bytes
    if args.cache_command == "info":
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
    chosen = [name for name in caches.CACHES if getattr(args, name)] or list(caches.CACHES)
    say(f"cache: removing the {' and '.join(chosen)} cached in {matrix_cache.cache_dir()}")
    removed = matrix_cache.clean(older_than_days=args.older_than) if "matrices" in chosen else []
    records = caches.clean_proofs(older_than_days=args.older_than) if "proofs" in chosen else 0
    freed = sum(entry.bytes for entry in removed)
    outcome = {
        "directory": str(matrix_cache.cache_dir()),
        "removed_files": len(removed),
        "freed_bytes": freed,
        "older_than_days": args.older_than,
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


def _write_atomically(path: Path, data: bytes) -> None:
    """Write a policy file with :func:`replace_file`.

    Raises:
        PolicyFormatError: the file cannot be written.
    """
    try:
        replace_file(path, data)
    except OSError as error:
        raise PolicyFormatError(f"{path}: cannot write ({error.strerror})") from None
