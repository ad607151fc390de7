"""Where a ``guesswork-build`` command writes a policy, and the checks every such
command shares: the catalog it writes (``--catalog``, else the user catalog), a
name already taken (``--replace``), renaming (``--name``), publishing and
writing a policy file (``--output``).

The commands that publish (build, import, optimize, today; builder.commands,
builder.catalog_commands, builder.search_commands, builder.absurdle_command,
builder.today_commands) call these; none of them reaches into another's module.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..client.catalog import (
    SHIPPED_CATALOG,
    Catalog,
    is_shipped,
    open_catalog,
    user_catalog,
)
from ..client.errors import PolicyFormatError, UsageError
from ..client.policy_format import encode_core
from .command_types import PublishTarget
from .files import replace_file
from .publish import StoredPolicy, export_bytes, kept_bee_tables, merged, publish_catalog
from .publish_lock import publishing

if TYPE_CHECKING:
    from .policies import BuiltPolicy


def write_location(catalog: str | None) -> str:
    """Return the catalog a command writes: ``catalog`` (``--catalog``), else the user
    catalog.

    Raises:
        UsageError: no ``--catalog`` and $GUESSWORK_CATALOG names the shipped
            catalog, which only an explicit ``--catalog`` may write.
    """
    if catalog is not None:
        return str(catalog)
    user = user_catalog()
    if is_shipped(user):
        raise UsageError(
            f"$GUESSWORK_CATALOG names the shipped catalog {SHIPPED_CATALOG}, which is written "
            f"only when named with --catalog (as `make catalog` does); point it at a file of "
            f"your own"
        )
    return str(user)


def check_name_free(catalog: Catalog | None, location: str, name: str, overwrite: bool) -> None:
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


def renamed(stored: StoredPolicy, name: str | None) -> StoredPolicy:
    """Return ``stored`` under ``name`` (the name is part of the core, so it is re-encoded;
    None: ``stored`` as it is)."""
    if name is None or name == stored.data.name:
        return stored
    data = replace(stored.data, name=name)
    # Only the name differs from what was built or proven: so does the proof.
    return StoredPolicy(encode_core(data), data, stored.words, stored.proven)


def check_publish(target: PublishTarget, name: str) -> str:
    """Return the catalog ``target`` publishes to ("" when it does not publish), after
    checking that ``name`` is free there (before a search, so that a taken name fails
    at once).

    Raises:
        UsageError: the name is taken (without ``--replace``), or no catalog can be written.
    """
    location = write_location(target.catalog) if target.publish else ""
    if target.publish:
        with publishing(location) as catalog:
            check_name_free(catalog, location, name, target.naming.replace)
    return location


def store_built(
    target: PublishTarget,
    built: BuiltPolicy,
    location: str,
    info: dict[str, Any],
    lines: list[str],
) -> None:
    """Publish ``built`` to ``location`` (``--publish``) and write it to ``--output``,
    as ``target`` asks; add what was written to the report's ``info`` and ``lines``.

    Raises:
        UsageError: the name was taken meanwhile; PolicyFormatError: the file cannot
            be written.
    """
    stored = StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)
    stored = renamed(stored, target.naming.name)
    name = stored.data.name
    if target.publish:
        with publishing(location) as catalog:  # read again: another publish may have landed
            check_name_free(catalog, location, name, target.naming.replace)
            path = publish_catalog(location, merged(catalog, [stored]), kept_bee_tables(catalog))
        info["catalog"] = str(path)
        lines.append(f"stored {name} in {path}")
    if target.output:
        path = Path(target.output)
        write_policy_file(path, export_bytes(stored))
        info["file"] = str(path)
        lines.append(f"wrote {path}")


def write_policy_file(path: Path, data: bytes) -> None:
    """Write a policy file whole or not at all (:func:`~guesswork.builder.files.replace_file`).

    Raises:
        PolicyFormatError: the file cannot be written.
    """
    try:
        replace_file(path, data)
    except OSError as error:
        raise PolicyFormatError(f"{path}: cannot write ({error.strerror})") from None
