"""The layers hold: no import circle among our modules, and imports inside functions
only at a few named heavy boundaries (issue #45, "a layered builder").

The sources are read with the standard library's :mod:`ast`, so the check sees
what a reader sees: every ``import`` and ``from ... import``, at module level and
inside functions, relative forms resolved through pyproject's
``[tool.setuptools.package-dir]`` mapping (``from ..client import games`` in
``builder/x.py`` is ``guesswork.client.games``). Imports under
``if TYPE_CHECKING:`` count too: a circle that only type hints close is still a
circle in the design.

An import inside a function is allowed only where :data:`BOUNDARIES` names what it
imports, each with its reason; anything else is a layering problem to solve by
moving code to the layer it belongs to, not by deferring the import.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What an import inside a function may name, by module prefix, and why it is deferred
#: there: the heavy or optional things a command loads only when it needs them. The
#: one place these are listed (docs/development.rst points here). A boundary of ours
#: is crossed from outside it only (a module of builder imports builder at the top).
BOUNDARIES: dict[str, str] = {
    "sqlalchemy": "SQLAlchemy: only a server catalog (PostgreSQL), a catalog write or "
    "the publisher's server lock needs it; the file catalog and a lookup never load it",
    "guesswork.client.catalog_sql": "the catalog's SQLAlchemy side (see sqlalchemy)",
    "guesswork.builder.publish_sql": "the publisher's SQLAlchemy side (see sqlalchemy)",
    "guesswork.builder.optimal.dask_engine": "Dask (the cluster extra): loaded only "
    "when optimize runs on a cluster",
    "matplotlib": "matplotlib (the plots extra): only for --plot and report pictures",
    "wordfreq": "wordfreq (the gmw-list extra): only to regenerate word lists and priors",
    "numpy": "the live engine: numpy, which a stored answer (a tree walk) never needs",
    "guesswork.client.games.arrays": "the games' array rules' words as numpy arrays "
    "(see numpy), loaded by a game's first array rule",
    "guesswork.client.replay": "numpy's replay of every target: only for a policy "
    "file given to --store, never for a catalog's stored answers",
    "guesswork.builder": "the live engine and the proof, from the service: the "
    "builder's numpy and compiled kernels, loaded by the first live answer, "
    "analysis, honeycomb search or proof only",
    "guesswork.service.local": "the in-process service behind the guesswork command: "
    "--server calls never load it",
    "guesswork.client.spelling_bee": "the Spelling Bee's tables and rules, loaded with "
    "the first honeycomb table or bee call: a Wordle answer never reads one",
    "guesswork.service.bee": "the service's Spelling Bee answers (see "
    "guesswork.client.spelling_bee)",
    "guesswork.client.messages": "protobuf: the guesswork command's --json answers "
    "(the proto's JSON mapping); a plain answer never loads it",
    "guesswork.client.play": "the interactive helper: only `guesswork play` loads it, "
    "never a one-shot suggestion (tests/client/test_game_capabilities.py refuses it there)",
    "guesswork.client.play_boards": "the multi-board interactive helper, which uses "
    "guesswork.client.play's line reader: only `guesswork play --boards` loads it",
    "guesswork.client.remote": "gRPC (grpc, protobuf): the guesswork command loads "
    "it for --server only",
    "guesswork.service.server": "gRPC (grpc, protobuf): the parent of "
    "guesswork-serve --processes N only supervises and never loads it",
    "tqdm": "tqdm: progress bars, loaded only when a bar is drawn",
    "importlib.metadata": "the installation's metadata (it loads email, zipfile and "
    "csv): read by the first proof of a policy from outside (client.trust), never by a "
    "stored answer",
    "uvicorn": "uvicorn: the HTTP server, loaded only when --http serves",
    "fcntl": "the publisher's file lock on POSIX (the module exists only there)",
    "msvcrt": "the publisher's file lock on Windows (the module exists only there)",
}


@dataclass(frozen=True)
class Import:
    """One import statement's target, resolved to an absolute module name."""

    module: str  #: the importing module
    target: str  #: the module it names (a submodule where ``from X import y`` names one)
    line: int
    in_function: bool


@dataclass(frozen=True)
class Report:
    """What :func:`check` found."""

    inner: tuple[Import, ...]  #: imports inside functions that no boundary allows
    circles: tuple[tuple[str, ...], ...]  #: each circle's modules, in import order


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Return pyproject's ``[tool.setuptools.package-dir]`` as package name -> folder."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return {package: root / folder for package, folder in mapping.items()}


def module_files(mapping: Mapping[str, Path], skip: Iterable[str] = ()) -> dict[str, Path]:
    """Return module name -> file for every ``.py`` file under the mapped folders,
    named by the mapping, leaving out the packages named in ``skip`` (and their
    subpackages)."""
    skipped = tuple(skip)
    found: dict[str, Path] = {}
    for package, folder in mapping.items():
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = [*package.split("."), *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if any(name == s or name.startswith(f"{s}.") for s in skipped):
                continue
            found[name] = path
    return found


def imports_of(name: str, path: Path, known: Iterable[str]) -> list[Import]:
    """Return every import statement of module ``name`` (file ``path``), each target
    resolved to an absolute name; ``from X import y`` names ``X.y`` where that is a
    module in ``known``, else ``X``."""
    modules = set(known)
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            if isinstance(child, ast.Import):
                found.extend(Import(name, a.name, child.lineno, inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - child.level + 1])
                    source = f"{base}.{child.module}" if child.module else base
                else:
                    source = child.module or ""
                for alias in child.names:
                    sub = f"{source}.{alias.name}"
                    target = sub if sub in modules else source
                    found.append(Import(name, target, child.lineno, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), False)
    return found


def within(module: str, prefix: str) -> bool:
    """Return whether ``module`` is ``prefix`` or inside it."""
    return module == prefix or module.startswith(f"{prefix}.")


def allowed(imp: Import, boundaries: Iterable[str]) -> bool:
    """Return whether ``imp`` crosses one of ``boundaries`` from outside it (a module
    inside a boundary imports its own neighbours at module level)."""
    return any(within(imp.target, b) and not within(imp.module, b) for b in boundaries)


def circles(graph: Mapping[str, set[str]]) -> list[tuple[str, ...]]:
    """Return one circle through each strongly connected group of ``graph`` (module ->
    modules it imports) that has one: the group's modules in an order where each
    imports the next and the last the first, starting from the smallest name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm, iteratively
        work = [(node, iter(sorted(graph.get(node, ()))))]
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        while work:
            current, edges = work[-1]
            advanced = False
            for succ in edges:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[current] = min(low[current], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[current])
            if low[current] == index[current]:
                group: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == current:
                        break
                if len(group) > 1 or current in graph.get(current, ()):
                    groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_circle_through(group, graph) for group in groups]


def _circle_through(group: set[str], graph: Mapping[str, set[str]]) -> tuple[str, ...]:
    """Return a shortest circle from the smallest module of ``group`` back to it."""
    start = min(group)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for succ in sorted(graph.get(node, ())):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return tuple(reversed(path))
                if succ in group and succ not in previous:
                    previous[succ] = node
                    following.append(succ)
        frontier = following
    return (start,)  # unreachable for a strongly connected group


def check(
    mapping: Mapping[str, Path],
    boundaries: Iterable[str] = BOUNDARIES,
    skip: Iterable[str] = ("guesswork.protos",),
) -> Report:
    """Return the imports inside functions that no boundary allows and the import
    circles among the modules under ``mapping`` (module-level and function-level
    imports both count)."""
    files = module_files(mapping, skip)
    bounds = tuple(boundaries)
    graph: dict[str, set[str]] = {name: set() for name in files}
    inner: list[Import] = []
    for name, path in files.items():
        for imp in imports_of(name, path, files):
            if imp.in_function and not allowed(imp, bounds):
                inner.append(imp)
            if imp.target in files and imp.target != name:
                graph[name].add(imp.target)
    return Report(tuple(inner), tuple(circles(graph)))


# The checks on our code.


def test_the_checker_sees_our_packages() -> None:
    files = module_files(package_dirs(), ("guesswork.protos",))
    assert "guesswork.builder.optimal.search" in files
    assert "guesswork.client.games" in files
    assert "guesswork.service.web" in files
    assert not any(name.startswith("guesswork.protos") for name in files)


def test_imports_inside_functions_only_at_named_boundaries() -> None:
    report = check(package_dirs())
    listed = [f"{i.module}:{i.line} imports {i.target}" for i in report.inner]
    assert not listed, (
        "imports inside functions outside the named boundaries "
        "(move the code to its layer, or name a heavy boundary in BOUNDARIES with "
        "its reason):\n" + "\n".join(listed)
    )


def test_no_import_circle_among_our_modules() -> None:
    report = check(package_dirs())
    listed = [" -> ".join([*circle, circle[0]]) for circle in report.circles]
    assert not listed, "import circles:\n" + "\n".join(listed)


def test_every_boundary_has_a_reason_and_is_used() -> None:
    """A boundary nobody crosses any more is a stale allowance: drop it."""
    files = module_files(package_dirs(), ("guesswork.protos",))
    crossed = [
        imp
        for name, path in files.items()
        for imp in imports_of(name, path, files)
        if imp.in_function
    ]
    for boundary, reason in BOUNDARIES.items():
        assert reason.strip(), boundary
        assert any(allowed(imp, [boundary]) for imp in crossed), f"unused: {boundary}"


# The checker fails where it should: planted faults in temporary packages.


def _plant(tmp_path: Path, files: Mapping[str, str]) -> dict[str, Path]:
    """Write ``files`` (path under a package folder -> source) and return the mapping
    that names the folder package ``planted`` (as pyproject maps ours)."""
    folder = tmp_path / "planted_src"
    for relative, source in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source, encoding="utf-8")
    return {"planted": folder}


def test_the_checker_reports_a_planted_circle(tmp_path: Path) -> None:
    mapping = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "alpha.py": "from .beta import b\n\ndef a() -> int:\n    return 1\n",
            "beta.py": "from . import alpha\n\nb = 2\n",
            "gamma.py": "from .alpha import a\n",
        },
    )
    report = check(mapping, boundaries=())
    assert report.circles == (("planted.alpha", "planted.beta"),)
    assert report.inner == ()


def test_the_checker_reports_a_circle_closed_inside_a_function(tmp_path: Path) -> None:
    """The circle #45 found: a module-level import one way, a deferred one back."""
    mapping = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "sub/__init__.py": "",
            "sub/low.py": "def f():\n    from ..high import g\n    return g\n",
            "high.py": "import planted.sub.low\n\ng = 1\n",
        },
    )
    report = check(mapping, boundaries=())
    assert report.circles == (("planted.high", "planted.sub.low"),)
    assert [(i.module, i.target, i.line) for i in report.inner] == [
        ("planted.sub.low", "planted.high", 2)
    ]
    # A named boundary allows the import, but the circle stays: a deferred import
    # is never a way around the layers.
    bounded = check(mapping, boundaries=("planted.high",))
    assert bounded == Report((), (("planted.high", "planted.sub.low"),))


def test_the_checker_reports_a_planted_function_level_import(tmp_path: Path) -> None:
    mapping = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "leaf.py": "x = 1\n",
            "user.py": (
                "import json\n\n"
                "class C:\n"
                "    async def m(self):\n"
                "        import numpy.linalg\n"
                "        f = lambda: __import__('os')\n"
                "        from . import leaf\n"
                "        return leaf.x\n"
            ),
        },
    )
    report = check(mapping, boundaries=("numpy",))
    assert [(i.module, i.target, i.line) for i in report.inner] == [
        ("planted.user", "planted.leaf", 7)
    ]
    assert report.circles == ()
    strict = check(mapping, boundaries=())
    assert [i.target for i in strict.inner] == ["numpy.linalg", "planted.leaf"]
