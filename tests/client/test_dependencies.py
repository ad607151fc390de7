"""The client library imports neither builder nor service (bots embed only client)."""

from __future__ import annotations

import ast
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


def imported_modules(source: str, package: str) -> list[tuple[int, str]]:
    """Return (line, absolute module name) for every import statement in ``source``, a
    module of ``package``, wherever it stands (inside functions too), relative imports
    resolved (``from ..builder import x`` in guesswork.client is guesswork.builder)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return sorted(found)


def forbidden(module: str) -> bool:
    """Return whether ``module`` is outside what the client may import."""
    return module.split(".")[:2] in (["guesswork", "builder"], ["guesswork", "service"]) or (
        module.split(".")[0] in ("builder", "service", "client")
    )


def test_the_source_check_resolves_every_import_form() -> None:
    """The check below must catch the relative form pyproject mandates, inside a
    function as at the top, and leave the client's own imports alone."""
    planted = (
        "from ..builder import matrices\n"
        "def f():\n    from ..service.local import LocalGuesswork\n"
        "import guesswork.builder.cli\n"
        "from . import games\n"
        "from .games import Wordle\n"
        "from ..client import lookup\n"
    )
    modules = imported_modules(planted, "guesswork.client")
    assert [m for _, m in modules if forbidden(m)] == [
        "guesswork.builder",
        "guesswork.service.local",
        "guesswork.builder.cli",
    ]
    assert [m for _, m in modules if not forbidden(m)] == [
        "guesswork.client",
        "guesswork.client.games",
        "guesswork.client",
    ]


#: The one named boundary where the client reaches into the builder, at run time only
#: (never at import): proving a policy from outside this installation recomputes its
#: statistics with the builder's kernels (client/trust.py; the same distribution).
ALLOWED = {("trust.py", "guesswork.builder.proof")}


def test_no_client_source_names_builder_or_service() -> None:
    """A lazy import inside a function would escape the import test above."""
    offenders = []
    for path in sorted((ROOT / "client").rglob("*.py")):
        relative = path.relative_to(ROOT / "client").with_suffix("")
        parts = ["guesswork", "client", *relative.parts]
        package = ".".join(parts[:-1])  # a module's package; __init__'s is itself
        for number, module in imported_modules(path.read_text(), package):
            if forbidden(module) and (path.name, module) not in ALLOWED:
                offenders.append(f"{path.name}:{number}: {module}")
    assert offenders == []
