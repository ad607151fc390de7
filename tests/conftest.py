"""Shared test set-up: an isolated reply-matrix cache and user catalog for the whole session,
and progress off (``GUESSWORK_PROGRESS=0``) for every test but those marked ``progress``."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest


def scratch_folder(prefix: str) -> str:
    """Return a new temporary folder, removed when this process exits.

    The session's controller makes them before it starts its workers, which inherit
    the environment and so share them; removing them at exit matters: a session's
    reply-matrix cache reaches 3.8 GB, and a machine that runs the suite often would
    otherwise fill its disk with them.
    """
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(functools.partial(shutil.rmtree, folder, ignore_errors=True))
    return folder


# Set before any builder module computes a matrix, so tests never write to
# the user's real cache and always exercise the disk cache from empty.
if "GUESSWORK_CACHE" not in os.environ:
    os.environ["GUESSWORK_CACHE"] = scratch_folder("guesswork-test-cache-")
# Default lookups read the user catalog over the shipped one, and builds write
# it: the tests get an empty one of their own, never the developer's. Inherited
# by the workers as the cache is (a worker's own would be left behind by its exit).
os.environ.pop("GUESSWORK_CATALOG", None)
if not os.environ.get("XDG_DATA_HOME", "").startswith(
    os.path.join(tempfile.gettempdir(), "guesswork-test-data-")
):
    os.environ["XDG_DATA_HOME"] = scratch_folder("guesswork-test-data-")
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
