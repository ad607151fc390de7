"""Shared test set-up: an isolated reply-matrix cache and user catalog for the whole session,
and progress off (``GUESSWORK_PROGRESS=0``) for every test but those marked ``progress``."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

# Set before any builder module computes a matrix, so tests never write to
# the user's real cache and always exercise the disk cache from empty.
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-test-cache-"))
# Default lookups read the user catalog over the shipped one, and builds write
# it: the tests get an empty one of their own, never the developer's.
os.environ.pop("GUESSWORK_CATALOG", None)
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="guesswork-test-data-")
# No progress report or status line (client/progress.py) in any test's output,
# nor in that of the commands it starts (they inherit this environment): a report
# appears after 2 s, so with it on an output would depend on the machine's speed.
# Set, not defaulted: a developer's own GUESSWORK_PROGRESS=1 must not leak in.
PROGRESS_VARIABLE = "GUESSWORK_PROGRESS"
os.environ[PROGRESS_VARIABLE] = "0"

# The fixtures `postgres` (a real PostgreSQL server, started on first use) and `pg_url`.
pytest_plugins = ["tests.pg"]


@pytest.fixture(autouse=True)
def _progress_as_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """Unset GUESSWORK_PROGRESS for a test marked ``progress``, for that test only."""
    if request.node.get_closest_marker("progress") is None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(PROGRESS_VARIABLE, raising=False)
        yield
