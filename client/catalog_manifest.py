"""A catalog's manifest: its index, read at open, before and instead of any policy.

The manifest is one canonical JSON text in the ``meta`` table, guarded by the
``manifest_sha256`` row::

    {"schema_version": 6,
     "policies":   {NAME: {summary: client.policy_info.PolicyInfo's fields but
                           "catalog", content_hash included}},
     "wordlists":  {SHA256: {"name": NAME, "count": N}},
     "honeycombs": {KEY: SHA-256 of the table's payload}}

Opening a catalog checks the manifest's checksum and shape, and nothing else
of its contents: listing needs nothing more, and each policy, word list and
honeycomb table is checked against the manifest when it is first read
(client.catalog). The manifest's size grows with the number of policies (a
few hundred bytes each); no tree is decoded until it is asked for.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .catalog_location import SCHEMA_VERSION
from .errors import PolicyFormatError
from .policy_info import PolicyInfo


@dataclass(frozen=True)
class Manifest:
    """What a catalog holds: every policy's summary, every word list, every honeycomb table."""

    #: name -> summary (its ``catalog`` empty: the manifest knows no layering).
    policies: dict[str, PolicyInfo]
    #: SHA-256 -> (name, word count) of every stored word list.
    wordlists: dict[str, tuple[str, int]]
    #: key (e.g. ``enable1/no-s``) -> the SHA-256 of the table's payload.
    honeycombs: dict[str, str]


def payload_sha256(payload: str) -> str:
    """Return the SHA-256 (hex) of a honeycomb table's payload."""
    return hashlib.sha256(payload.encode()).hexdigest()


def manifest_text(
    policies: Iterable[PolicyInfo],
    wordlists: Mapping[str, tuple[str, int]],
    honeycombs: Mapping[str, str],
) -> str:
    """Return the canonical manifest JSON of a catalog's contents (see the module doc)."""
    entries = {}
    for info in policies:
        entry = info.to_json()
        del entry["catalog"]
        entries[info.name] = entry
    return json.dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "policies": entries,
            "wordlists": {sha: {"name": n, "count": c} for sha, (n, c) in wordlists.items()},
            "honeycombs": dict(honeycombs),
        },
        sort_keys=True,
        separators=(",", ":"),
    )


def manifest_rows(text: str) -> dict[str, str]:
    """Return the ``meta`` rows that hold manifest ``text``: it, its checksum, the schema."""
    return {
        "schema_version": str(SCHEMA_VERSION),
        "manifest": text,
        "manifest_sha256": hashlib.sha256(text.encode()).hexdigest(),
    }


def read_manifest(where: str, meta: Mapping[str, str], origin: str = "") -> Manifest:
    """Return the manifest the ``meta`` rows hold, after its checksum and shape checks;
    its summaries say they come from ``origin`` (PolicyInfo.catalog).

    Raises:
        PolicyFormatError: the meta rows disagree with the header on the
            schema, or the manifest fails its checksum or is malformed.
    """
    if meta.get("schema_version") != str(SCHEMA_VERSION):
        raise PolicyFormatError(f"{where}: header and meta table disagree on the schema")
    text = meta.get("manifest")
    if not isinstance(text, str) or manifest_rows(text)["manifest_sha256"] != meta.get(
        "manifest_sha256"
    ):
        raise PolicyFormatError(f"{where}: manifest checksum mismatch (the catalog is corrupt)")
    try:
        return _parse(json.loads(text), origin)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise PolicyFormatError(f"{where}: malformed manifest") from None


def _parse(value: dict[str, object], origin: str) -> Manifest:
    """Return the manifest JSON ``value`` as a Manifest of ``origin``'s summaries; raise
    ValueError (or a lookup or type error) if it is not one."""
    if value["schema_version"] != SCHEMA_VERSION:
        raise ValueError("schema")
    raw_policies, raw_lists, raw_combs = (
        value["policies"],
        value["wordlists"],
        value["honeycombs"],
    )
    if not (
        isinstance(raw_policies, dict)
        and isinstance(raw_lists, dict)
        and isinstance(raw_combs, dict)
    ):
        raise ValueError("tables")
    policies = {}
    for name, entry in raw_policies.items():
        info = PolicyInfo.from_json({**entry, "catalog": origin})
        if info.name != name or "catalog" in entry:
            raise ValueError("policy entry")
        policies[name] = info
    wordlists = {}
    for sha, entry in raw_lists.items():
        list_name, count = entry["name"], entry["count"]
        if not (isinstance(list_name, str) and type(count) is int and len(entry) == 2):
            raise ValueError("word list entry")
        wordlists[sha] = (list_name, count)
    if not all(isinstance(digest, str) for digest in raw_combs.values()):
        raise ValueError("honeycomb entry")
    return Manifest(policies, wordlists, dict(raw_combs))
