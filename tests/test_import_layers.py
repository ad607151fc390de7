"""The layers hold: no import circle among our modules, no import a layer's rule
forbids, no private name imported from another module, and imports inside functions
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
moving code to the layer it belongs to, not by deferring the import. What a
layer must never import, at module level or inside a function, is the rule
table :data:`FORBIDDEN` (the client imports neither the builder nor the
service: bots embed it alone); a fresh interpreter that imports every client
module checks the same rules at run time, where an import by name would show.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Container, Iterable, Mapping
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


#: The folders pyproject maps under the guesswork root: a package only as guesswork.X.
FOLDERS = ("builder", "client", "policies", "protos", "service")

#: What a package of ours must never import, at module level or inside a function (a
#: deferred import is no way around a layer), each with its reason: (importer,
#: imported), by module prefix. Dependencies run one way, client <- builder <- service
#: (docs/development.rst).
FORBIDDEN: dict[tuple[str, str], str] = {
    ("guesswork.client", "guesswork.builder"): "bots embed the client alone, and a "
    "stored answer loads none of the builder's numpy and compiled kernels: what the "
    "client needs of the builder is handed in (a live solver, a prover: client.trust)",
    ("guesswork.client", "guesswork.service"): "the client is what the service's "
    "callers embed; the guesswork command's in-process service is handed to it by "
    "guesswork.__main__",
    ("guesswork.builder", "guesswork.service"): "the service serves what the builder "
    "writes; the builder runs without it",
    **{
        ("guesswork", folder): f"{folder}/ is a package only as guesswork.{folder} "
        f"(pyproject's package-dir): `import {folder}` finds it in a checkout's root "
        "alone, and there as another copy of the installed modules"
        for folder in FOLDERS
    },
}

#: No module of ours imports a private name (``_x``) of another: what modules share is
#: public, and documented, in the module that owns it. The packages not held to it yet,
#: by prefix, each with its reason (an exemption nobody needs any more fails a test);
#: none since the builder's last one went public (optimal.problem.non_winning_replies).
PRIVATE_EXEMPT: dict[str, str] = {}


@dataclass(frozen=True)
class Import:
    """One import statement's target, resolved to an absolute module name."""

    module: str  #: the importing module
    target: str  #: the module it names (a submodule where ``from X import y`` names one)
    line: int
    in_function: bool
    #: the name ``from X import name`` takes from module ``target`` (None: a module)
    name: str | None = None


@dataclass(frozen=True)
class Report:
    """What :func:`check` found."""

    inner: tuple[Import, ...]  #: imports inside functions that no boundary allows
    circles: tuple[tuple[str, ...], ...]  #: each circle's modules, in import order
    forbidden: tuple[Import, ...] = ()  #: imports a rule of the table forbids
    private: tuple[Import, ...] = ()  #: private names imported from another module


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


def compiled_modules(mapping: Mapping[str, Path]) -> set[str]:
    """Return the names of the compiled modules under the mapped folders, known by the
    type stubs (``.pyi``) mypy --strict needs beside each (builder/_partitions.pyi)."""
    found: set[str] = set()
    for package, folder in mapping.items():
        for stub in folder.rglob("*.pyi"):
            parts = stub.relative_to(folder).with_suffix("").parts
            found.add(".".join([*package.split("."), *parts]))
    return found


def imports_of(name: str, path: Path, known: Iterable[str]) -> list[Import]:
    """Return every import statement of module ``name`` (file ``path``), each target
    resolved to an absolute name; ``from X import y`` names ``X.y`` where that is a
    module in ``known``, else ``X`` (and the name ``y`` it takes from ``X``)."""
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
                    if sub in modules:
                        found.append(Import(name, sub, child.lineno, inner))
                    else:
                        found.append(Import(name, source, child.lineno, inner, alias.name))
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


def breaks(imp: Import, rules: Iterable[tuple[str, str]]) -> bool:
    """Return whether ``imp`` is one a rule (importer, imported) of ``rules`` forbids."""
    return any(
        within(imp.module, source) and within(imp.target, target) for source, target in rules
    )


def is_private(imp: Import, ours: Container[str]) -> bool:
    """Return whether ``imp`` takes a private name (``_x``, not ``__x__``) from another
    module among ``ours``."""
    name = imp.name or ""
    private = name.startswith("_") and not name.endswith("__")
    return private and imp.target != imp.module and imp.target in ours


def check(
    mapping: Mapping[str, Path],
    boundaries: Iterable[str] = BOUNDARIES,
    forbidden: Iterable[tuple[str, str]] = FORBIDDEN,
    private_exempt: Iterable[str] = PRIVATE_EXEMPT,
    skip: Iterable[str] = ("guesswork.protos",),
) -> Report:
    """Return what the modules under ``mapping`` break: imports inside functions that no
    boundary allows, the import circles (module-level and function-level imports
    both count), the imports a rule of ``forbidden`` forbids (wherever they stand),
    and the private names a module imports from another module of ours (outside
    the packages ``private_exempt``)."""
    files = module_files(mapping, skip)
    known = set(files) | compiled_modules(mapping)
    bounds, rules, exempt = tuple(boundaries), tuple(forbidden), tuple(private_exempt)
    graph: dict[str, set[str]] = {name: set() for name in files}
    found: dict[str, list[Import]] = {"inner": [], "forbidden": [], "private": []}
    for name, path in files.items():
        held = not any(within(name, prefix) for prefix in exempt)
        for imp in imports_of(name, path, known):
            if imp.in_function and not allowed(imp, bounds):
                found["inner"].append(imp)
            if breaks(imp, rules):
                found["forbidden"].append(imp)
            if held and is_private(imp, files):
                found["private"].append(imp)
            if imp.target in files and imp.target != name:
                graph[name].add(imp.target)
    return Report(
        tuple(found["inner"]),
        tuple(circles(graph)),
        tuple(found["forbidden"]),
        tuple(found["private"]),
    )


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


def test_no_layer_imports_what_the_rule_table_forbids() -> None:
    report = check(package_dirs())
    listed = [
        f"{i.module}:{i.line} imports {i.target}"
        + (" (inside a function)" if i.in_function else "")
        for i in report.forbidden
    ]
    assert not listed, "imports a rule of FORBIDDEN forbids:\n" + "\n".join(listed)


def test_every_rule_and_exemption_has_a_reason_and_every_exemption_is_used() -> None:
    """An exemption a package no longer needs is a stale allowance: drop it."""
    assert all(reason.strip() for reason in FORBIDDEN.values())
    files = module_files(package_dirs(), ("guesswork.protos",))
    known = set(files) | compiled_modules(package_dirs())
    taken = [imp for name, path in files.items() for imp in imports_of(name, path, known)]
    for prefix, reason in PRIVATE_EXEMPT.items():
        assert reason.strip(), prefix
        assert any(within(i.module, prefix) and is_private(i, files) for i in taken), (
            f"unused exemption: {prefix}"
        )


def test_no_private_name_is_imported_from_another_module() -> None:
    report = check(package_dirs())
    listed = [f"{i.module}:{i.line} imports {i.name} from {i.target}" for i in report.private]
    assert not listed, (
        "private names imported from another module (make the name public and "
        "documented in the module that owns it, or move it):\n" + "\n".join(listed)
    )


def test_importing_the_client_loads_nothing_its_rules_forbid() -> None:
    """The rules at run time: a fresh interpreter imports every client module, and
    no module a rule forbids the client is loaded then (an import by name, which the
    source check cannot read, would show here)."""
    files = module_files(package_dirs(), ("guesswork.protos",))
    client = sorted(name for name in files if within(name, "guesswork.client"))
    assert {"guesswork.client.cli", "guesswork.client.lookup", "guesswork.client.trust"} <= set(
        client
    )
    code = f"import sys\nfor name in {client!r}: __import__(name)\nprint('\\n'.join(sys.modules))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = done.stdout.split()
    assert set(client) <= set(loaded)
    rules = [target for source, target in FORBIDDEN if within("guesswork.client", source)]
    assert "guesswork.builder" in rules and "guesswork.service" in rules and "client" in rules
    assert [m for m in loaded if any(within(m, target) for target in rules)] == []


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


def test_the_checker_reports_a_planted_layer_rule_break(tmp_path: Path) -> None:
    """Every form an import of a forbidden layer takes is caught: relative (the form
    pyproject mandates), absolute, by the folder's bare name, at module level and
    inside a function; the client's own imports are left alone (issue #45, point 8:
    the guard it replaces matched absolute names only)."""
    mapping = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "builder/__init__.py": "",
            "builder/matrices.py": "m = 1\n",
            "builder/cli.py": "c = 1\n",
            "service/__init__.py": "",
            "service/local.py": "class LocalGuesswork: ...\n",
            "client/__init__.py": "",
            "client/rules.py": "HARD = 'hard'\n",
            "client/lookup.py": (
                "from ..builder import matrices\n"
                "def f():\n    from ..service.local import LocalGuesswork\n"
                "import planted.builder.cli\n"
                "import client.rules\n"
                "from . import rules\n"
                "from .rules import HARD\n"
                "from ..client import rules as r\n"
            ),
        },
    )
    rules = {
        ("planted.client", "planted.builder"): "",
        ("planted.client", "planted.service"): "",
        ("planted", "client"): "",
    }
    report = check(mapping, boundaries=("planted.service",), forbidden=rules)
    assert [(i.target, i.line, i.in_function) for i in report.forbidden] == [
        ("planted.builder.matrices", 1, False),
        ("planted.service.local", 3, True),
        ("planted.builder.cli", 4, False),
        ("client.rules", 5, False),
    ]
    assert report.inner == () and report.circles == () and report.private == ()
    # The same package under rules that allow it: nothing is reported.
    assert check(mapping, boundaries=("planted.service",), forbidden=()) == Report((), ())


def test_the_checker_reports_a_planted_private_import(tmp_path: Path) -> None:
    mapping = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "owner.py": "def _need(x):\n    return x\n\n__all__ = ['_need']\n",
            "_compiled.pyi": "def kernel() -> int: ...\n",
            "user.py": (
                "from .owner import _need, __all__\n"
                "from . import _compiled\n"
                "def f():\n    from .owner import _need as n\n    return n\n"
            ),
            "exempt/__init__.py": "",
            "exempt/user.py": "from ..owner import _need\n",
        },
    )
    report = check(mapping, boundaries=("planted.owner",), private_exempt=("planted.exempt",))
    assert [(i.module, i.name, i.line) for i in report.private] == [
        ("planted.user", "_need", 1),
        ("planted.user", "_need", 4),
    ]
    held = check(mapping, boundaries=("planted.owner",), private_exempt=())
    assert [i.module for i in held.private] == [
        "planted.exempt.user",
        "planted.user",
        "planted.user",
    ]
