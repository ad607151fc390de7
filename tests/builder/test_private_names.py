"""No module of the builder imports another module's private name (issue #45).

A leading underscore says "this module's own": a name another module needs is
public where it belongs. Read with the standard library's :mod:`ast`, relative
imports included. Private *modules* of a package (the compiled kernels,
``builder/_partitions`` and the like, each with its ``.pyi``) are imported by
name from their package: the module is the package's, its names its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

BUILDER = Path(__file__).resolve().parents[2] / "builder"


def is_private(name: str) -> bool:
    """Return whether ``name`` is private by convention (one leading underscore)."""
    return name.startswith("_") and not name.startswith("__")


def private_imports(root: Path) -> list[str]:
    """Return ``file:line: module.name`` for each private name imported from another
    module under ``root``: a private module imported from its package by a relative
    import is allowed, ``import a._b`` (another package's private module) is not."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [
                    (alias.name, part) for alias in node.names for part in alias.name.split(".")
                ]
                found += [
                    f"{path.relative_to(root.parent)}:{node.lineno}: {name}"
                    for name, part in names
                    if is_private(part)
                ]
            elif isinstance(node, ast.ImportFrom):
                package = path.parent
                for _ in range(max(node.level - 1, 0)):
                    package = package.parent
                source = package.joinpath(*(node.module or "").split(".")) if node.level else None
                for alias in node.names:
                    if not is_private(alias.name):
                        continue
                    module = None if source is None else source / alias.name
                    if module is not None and any(
                        module.with_name(module.name + suffix).exists()
                        for suffix in (".py", ".pyi")
                    ):
                        continue  # a private module of its package, not a private name
                    found.append(
                        f"{path.relative_to(root.parent)}:{node.lineno}: "
                        f"{'.' * node.level}{node.module or ''}.{alias.name}"
                    )
    return found


def test_no_builder_module_imports_another_modules_private_name() -> None:
    assert private_imports(BUILDER) == []


def test_the_check_finds_a_private_name_and_allows_a_private_module(tmp_path: Path) -> None:
    # Not vacuous: a planted private-name import is found, in both import forms, while
    # a private module imported from its package (as the kernels are) is not.
    package = tmp_path / "builder"
    (package / "inner").mkdir(parents=True)
    (package / "_kernel.pyi").write_text("def run() -> None: ...\n", encoding="utf-8")
    (package / "inner" / "rules.py").write_text("def _helper() -> int:\n    return 1\n")
    (package / "x.py").write_text(
        "from . import _kernel\nfrom .inner.rules import _helper\nimport os._exit\n",
        encoding="utf-8",
    )
    assert private_imports(package) == [
        "builder/x.py:2: .inner.rules._helper",
        "builder/x.py:3: os._exit",
    ]
