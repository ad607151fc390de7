"""Shared test set-up: an isolated reply-matrix cache and user catalog for the whole session."""

from __future__ import annotations

import os
import tempfile

# Set before any builder module computes a matrix, so tests never write to
# the user's real cache and always exercise the disk cache from empty.
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-test-cache-"))
# Default lookups read the user catalog over the shipped one, and builds write
# it: the tests get an empty one of their own, never the developer's.
os.environ.pop("GUESSWORK_CATALOG", None)
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="guesswork-test-data-")

# The fixtures `postgres` (a real PostgreSQL server, started on first use) and `pg_url`.
pytest_plugins = ["tests.pg"]
