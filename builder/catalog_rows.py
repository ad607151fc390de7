"""The rows of a whole catalog, as builder.publish makes them and writes them.

A leaf: builder.publish fills it and writes a file through builder.publish_sql,
which it loads only then (SQLAlchemy), and which writes it to a file or a
database without needing builder.publish back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CatalogRows:
    """A whole catalog's rows, in key order, as both kinds of location store them."""

    #: The meta rows a SQLite file holds (a database adds its header rows and seal).
    meta: list[dict[str, str]]
    wordlists: list[dict[str, object]]
    policies: list[dict[str, object]]
    honeycombs: list[dict[str, object]]
