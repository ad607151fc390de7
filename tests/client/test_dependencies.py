"""The client library imports neither builder nor service (bots embed only client)."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import guesswork.client

ROOT = Path(__file__).resolve().parents[2]
#: Every module of guesswork.client, found on disk, so a new one cannot be missed.
LIBRARY = sorted(
    f"guesswork.client.{module.name}" for module in pkgutil.iter_modules(guesswork.client.__path__)
)


def test_every_client_module_is_covered() -> None:
    assert "guesswork.client.cli" in LIBRARY
    assert "guesswork.client.lookup" in LIBRARY
    assert len(LIBRARY) >= 12


def test_client_library_does_not_import_builder_or_service() -> None:
    code = (
        "import sys\n"
        f"for name in {LIBRARY!r}: __import__(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[:2] in "
        "(['guesswork', 'builder'], ['guesswork', 'service']) or m.split('.')[0] in "
        "('builder', 'service', 'client', 'numba'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.strip() == ""


def test_no_client_source_names_builder_or_service() -> None:
    """A lazy import inside a function would escape the import test above."""
    offenders = []
    for path in sorted((ROOT / "client").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                module = words[1]
                if module.startswith(
                    ("guesswork.builder", "guesswork.service", "builder", "service")
                ):
                    offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []
