"""The client library imports neither builder nor service (bots embed only client)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ["client.games", "client.replies", "client.errors", "client.policy_format",
           "client.catalog", "client.probe", "client.remote", "client.suggestion"]  # fmt: skip


def test_client_library_does_not_import_builder_or_service() -> None:
    code = (
        "import sys\n"
        f"for name in {LIBRARY!r}: __import__(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('builder', 'service', 'numba'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert result.stdout.strip() == ""
