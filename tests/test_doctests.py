"""Every example in a docstring runs, under the module's real name.

pytest's ``--doctest-modules`` would import ``client/games/`` as a package
named ``client.games`` (by its folder), a second copy beside
``guesswork.client.games`` whose relative imports of ``..builder`` cannot
resolve; so the examples are run here through the package mapping instead.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {
    "guesswork.builder": "builder",
    "guesswork.client": "client",
    "guesswork.service": "service",
}


def _modules_with_examples() -> list[str]:
    names = []
    for package, folder in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ">>> " not in path.read_text(encoding="utf-8"):
                continue
            inner = path.relative_to(ROOT / folder).with_suffix("").parts
            names.append(".".join([package, *inner]).removesuffix(".__init__"))
    return names


MODULES = _modules_with_examples()


def test_the_scan_found_the_documented_modules() -> None:
    assert {"guesswork.client.games", "guesswork.client.replies"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has '>>> ' but no example ran"
    assert result.failed == 0
