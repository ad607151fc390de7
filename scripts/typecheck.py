"""Type-check the guesswork package with ``mypy --strict``, module names from pyproject's mapping.

The import root ``guesswork`` has no folder of its own for its subpackages:
``[tool.setuptools.package-dir]`` maps ``guesswork.builder`` to ``builder/`` and
so on. An editable install reaches them through setuptools' import hook, which
mypy cannot follow, and ``mypy -p guesswork`` would look for
``guesswork/builder/``. So this script lists every module under the mapped
folders, names each by the mapping (``builder/optimal/search.py`` is
``guesswork.builder.optimal.search``) and hands mypy those sources; mypy's own
settings come from pyproject.toml as usual. Errors name the real files.

Usage: ``python scripts/typecheck.py [mypy options]``; exits with mypy's status.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parents[1]


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Return pyproject's ``[tool.setuptools.package-dir]`` as package name -> folder."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return {package: root / folder for package, folder in mapping.items()}


def sources(root: Path = ROOT) -> list[BuildSource]:
    """Return one mypy source per module under the mapped folders, named by the mapping.

    The generated protobuf modules are among them; pyproject's overrides ignore
    their errors, as they did when mypy found them by path.
    """
    found: list[BuildSource] = []
    for package, folder in package_dirs(root).items():
        for path in sorted(folder.rglob("*.py*")):
            if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" and path.with_suffix(".pyi").exists():
                continue  # the stub stands for it, as in mypy's own search
            inner = path.relative_to(folder).with_suffix("").parts
            parts = [*package.split("."), *inner]
            if parts[-1] == "__init__":
                parts.pop()
            found.append(BuildSource(str(path), ".".join(parts)))
    return found


def main(argv: list[str]) -> int:
    """Run mypy over :func:`sources` with ``argv``'s options; return its exit status."""
    modules = sources()
    # process_options reads pyproject's [tool.mypy]; the file list only satisfies
    # its "what to check" requirement and is replaced by the mapped sources.
    _, options = process_options([*argv, *(source.path or "" for source in modules)])
    try:
        result = build.build(modules, options, stdout=sys.stdout, stderr=sys.stderr)
    except CompileError as error:
        print("\n".join(error.messages), file=sys.stderr)
        return 2
    for line in result.errors:
        print(line)
    files = len({source.path for source in modules})
    if result.errors:
        count = sum(": error:" in line for line in result.errors)
        print(f"Found {count} errors (checked {files} source files)")
        return 1
    print(f"Success: no issues found in {files} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
