"""Where a catalog lives, and what marks it as ours: the parts every reader needs.

A catalog location is a SQLite file (a path, or a ``sqlite:///PATH`` URL) or a
PostgreSQL database URL (client.catalog_sql). This module imports neither
SQLAlchemy nor sqlite3: a stored answer from the command line pays only for
what it reads (client.catalog_file reads files with the standard library).
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import PolicyFormatError
from .text import version_refused

#: 4: Guess My Word trees became ordinary policies (3 had a guess_my_word table).
#: 5: the manifest lists each policy's summary and each word list's name, so a
#: catalog is listed, and opened, without reading a single policy.
#: 6: the manifest's summaries are whole (client.policy_info: the statistics, the
#: histogram, the word lists' hashes ...), so the service lists policies unread.
SCHEMA_VERSION = 6
#: The catalog's magic, "GWPC": the SQLite header's application id, a PostgreSQL meta row.
APPLICATION_ID = 0x47575043
#: Older schemas whose files ``guesswork-build upgrade`` converts (builder.upgrade).
UPGRADABLE_SCHEMAS = (4, 5)
#: The catalog shipped with Guesswork: read by default lookups (under the user's),
#: written only when named explicitly (``make catalog``); client.catalog names it too.
SHIPPED_CATALOG = Path(__file__).resolve().parents[1] / "policies" / "catalog.sqlite"


def check_header(location: str, application_id: object, version: object, kept_in: str) -> None:
    """Raise PolicyFormatError unless the catalog's magic and schema version are ours.

    ``kept_in`` says where they were read (``SQLite`` header, ``meta`` rows).
    """
    if application_id != APPLICATION_ID:
        shown = f"{application_id:#x}" if isinstance(application_id, int) else "none"
        raise PolicyFormatError(
            f"{location}: not a Guesswork catalog ({kept_in} application id {shown}, "
            f"expected {APPLICATION_ID:#x})"
        )
    number = version if isinstance(version, int) else 0
    if number != SCHEMA_VERSION:
        if number in UPGRADABLE_SCHEMAS and kept_in == "SQLite":
            remedy = "convert it with `guesswork-build upgrade --catalog FILE`, or rebuild it"
        else:
            remedy = "rebuild the catalog"
        raise PolicyFormatError(
            f"{location}: " + version_refused("catalog schema", number, (SCHEMA_VERSION,), remedy)
        )


def is_file_location(location: str | Path) -> bool:
    """Return True if ``location`` names a SQLite file: a path (no ``://``) or ``sqlite:///PATH``."""
    text = str(location)
    return "://" not in text or text.startswith("sqlite:///")


def sqlite_path(location: str | Path) -> Path:
    """Return the file of a SQLite location: a path, or a ``sqlite:///PATH`` URL."""
    return Path(str(location).removeprefix("sqlite:///")).expanduser()


def hide_password(text: str) -> str:
    """Return a URL text with any password replaced by ``***`` (for messages and logs)."""
    # Greedy to the last "@" of the authority: an unescaped "@" in a password stays hidden.
    return re.sub(r"(://[^:/@]*:)[^/]*@", r"\1***@", text)


def describe_location(location: str | Path) -> str:
    """Return ``location`` as messages show it: a path as given, a URL without its password."""
    return hide_password(str(location))
