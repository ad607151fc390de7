"""Every repository file a text names exists: docs, comments and docstrings drift
when files move (20 references to docs/policy-format.md outlived its move to .rst)."""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The repository's top-level folders: a path that starts with one of them names a file
#: here (not guesswork/: that prefix names installed paths, a wheel's or a data folder's).
FOLDERS = (
    *("benchmarks", "builder", "client", "docs", "examples"),
    *("policies", "protos", "scripts", "service", "tests"),
)
#: Where a named path may be relative to besides the root: the naming file's own folder
#: (tests/vectors/README.md names policies/...), the proto import root, and the vectors'
#: folder (a vectors reader prints its files' paths relative to it).
BASES = ("protos", "tests/vectors")
#: A placeholder in a path (policies/proofs/NAME.ckpt, LANG-5-top2000.txt, builder/x.py).
PLACEHOLDER = re.compile(r"(?:^|[/-])(?:[A-Z]{3,}|x\.py$)")
#: A path of a file in one of the folders, with a known extension.
REFERENCE = re.compile(
    r"(?<![\w./-])(?:\.\./)*((?:" + "|".join(FOLDERS) + r")/[\w./-]*?\.(?:"
    r"rst|md|py|proto|c|h|pyi|js|json|txt|toml|sqlite|ckpt|gwp|html|css))(?![\w-])"
)
#: Paths made at run time or by a build, named on purpose where they appear.
GENERATED = ("docs/_build/",)


def references(text: str) -> list[str]:
    """Return every repository path ``text`` names (see :data:`REFERENCE`)."""
    return REFERENCE.findall(text)


def test_the_pattern_finds_paths_in_every_form() -> None:
    text = (
        "see docs/policy-format.md section 4; (builder/_replies.c) and "
        "`client/trust.py`, ../../docs/http.rst, https://x.org/docs/a.rst "
        "and my_docs/a.rst are not ours"
    )
    assert references(text) == [
        "docs/policy-format.md",
        "builder/_replies.c",
        "client/trust.py",
        "docs/http.rst",
    ]


def test_every_named_repository_file_exists() -> None:
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(tracked) > 300  # git listed the real repository
    texts = [
        name
        for name in tracked
        if name.endswith((".py", ".rst", ".md", ".proto", ".c", ".h", ".js", ".toml", ".pyi"))
        or name in ("Makefile", ".ci/run")
    ]
    texts.remove("tests/test_references.py")  # it names the old spec file on purpose
    missing = []
    for name in texts:
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for path in references(line):
                if path.startswith(GENERATED) or PLACEHOLDER.search(path):
                    continue
                bases = [ROOT, (ROOT / name).parent, *(ROOT / base for base in BASES)]
                if not any((base / path).exists() for base in bases):
                    missing.append(f"{name}:{number}: {path}")
    assert missing == [], "\n".join(missing)


#: A module of ours named with dots in prose (client.policy_format,
#: guesswork.service.web); not a call (``client.suggest(...)`` in an example).
MODULE = re.compile(
    r"(?<![\w./-])(?:guesswork\.)?(builder|client|service)\.([a-z_][a-z0-9_]*)\b(?![(\w])"
)


#: What follows a folder's name when a file is meant (``builder.rst``, a docs test's id).
FILE_TYPES = ("rst", "md", "py", "txt", "json")


def prose(name: str, text: str) -> list[tuple[int, str]]:
    """Return (line, text) of what ``text`` (the file ``name``) says in words: every line
    of a document, and a Python file's docstrings and comments (its code names objects,
    ``client.close()``, not modules)."""
    if not name.endswith(".py"):
        return list(enumerate(text.splitlines(), start=1))
    found: list[tuple[int, str]] = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                first = node.body[0].lineno
                found.extend((first + i, line) for i, line in enumerate(docstring.splitlines()))
    return found


def module_exists(package: str, module: str) -> bool:
    """Return whether ``package.module`` is a module here: a .py file, a package, or a
    compiled extension (its .so built in place, or its .pyi stub)."""
    where = ROOT / package / module
    compiled = any((ROOT / package).glob(f"{module}.*.so")) or where.with_suffix(".pyi").exists()
    return where.with_suffix(".py").exists() or (where / "__init__.py").exists() or compiled


def test_the_module_pattern_skips_calls_and_finds_prose() -> None:
    text = "client.lookup and guesswork.service.web, not client.close() or myclient.x"
    assert MODULE.findall(text) == [("client", "lookup"), ("service", "web")]


def test_every_named_module_exists() -> None:
    """Module docstrings and docs name modules as ``client.lookup``: each must exist
    (six named modules that had moved)."""
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    texts = [name for name in tracked if name.endswith((".py", ".rst", ".md", ".proto"))]
    missing = []
    for name in texts:
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for number, line in prose(name, text):
            for package, module in MODULE.findall(line):
                if module not in FILE_TYPES and not module_exists(package, module):
                    missing.append(f"{name}:{number}: {package}.{module}")
    assert missing == [], "\n".join(missing)


def test_no_tracked_text_holds_a_merge_marker() -> None:
    """A conflict's markers left in a document build and pass unnoticed (one did)."""
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    # Not "=======" alone: rst underlines a seven-letter title with it.
    marker = re.compile(r"^(?:<{7}|>{7}) ", re.MULTILINE)
    found = []
    for name in tracked:
        if name.endswith((".py", ".rst", ".md", ".proto", ".c", ".h", ".js", ".css", ".html")):
            text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
            found.extend(f"{name}: {hit.group(0)!r}" for hit in marker.finditer(text))
    assert found == [], "\n".join(found)


#: A Sphinx cross-reference role in a docstring (``:class:`~.search.Search```), its
#: target without the ``~`` and leading dots.
ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|attr|mod|exc|data|obj):`(?:[^`<]*<)?[~.]*([\w.]+)>?`"
)
#: The packages of ours a role's target may start with (``client.errors.X`` or the full
#: ``guesswork.client.errors.X``).
PACKAGES = ("builder", "client", "service")


def bound_names(tree: ast.Module) -> set[str]:
    """Return every name ``tree`` binds anywhere: imports (under TYPE_CHECKING too),
    functions, classes, assignments, ``self.`` attributes and arguments."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.add(node.attr)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
    return found


def instance_attribute(found: object, name: str) -> bool:
    """Return whether ``found`` is a class whose methods assign ``self.NAME``."""
    if not isinstance(found, type):
        return False
    return any(
        f"self.{name} =" in inspect.getsource(klass) or f"self.{name}: " in inspect.getsource(klass)
        for klass in found.__mro__
        if klass.__module__.startswith("guesswork.")
    )


def importable(target: str) -> bool:
    """Return whether the dotted ``target`` (a module of ours, then attributes) exists:
    the longest importable prefix, then each attribute (a dataclass field by its
    annotation, an instance's by its assignment)."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            annotations: dict[str, object] = {}
            for klass in reversed(getattr(found, "__mro__", ())):
                annotations.update(getattr(klass, "__annotations__", {}))
            if hasattr(found, part):
                found = getattr(found, part)
            elif part in annotations or instance_attribute(found, part):
                break
            else:
                return False
        return True
    return False


def role_target_exists(name: str, text: str, target: str, names: set[str]) -> bool:
    """Return whether the role ``target`` in the docstrings of the module file ``name``
    (its source ``text``, the names it binds ``names``) names something that exists."""
    folder = Path(name).parent
    package = "guesswork." + ".".join(folder.parts)
    first, *rest = target.split(".")
    if first == "guesswork":
        return importable(target)
    if first in PACKAGES:
        return importable(f"guesswork.{target}")
    if any((ROOT / folder / f"{first}{suffix}").exists() for suffix in (".py", ".pyi", "/")):
        return importable(f"{package}.{target}")  # a sibling module (``search.Search``)
    if first in dir(builtins) or first in sys.stdlib_module_names:
        return True
    module = f"{package}.{Path(name).stem}".removesuffix(".__init__")
    if first in names:
        return not rest or all(part in names for part in rest) or importable(f"{module}.{target}")
    # A member a class of the module inherits (``class_states`` in a Search method).
    classes = [node.name for node in ast.parse(text).body if isinstance(node, ast.ClassDef)]
    return any(importable(f"{module}.{klass}.{target}") for klass in classes)


def test_the_role_pattern_finds_targets() -> None:
    text = "see :class:`~.search.Search`, :meth:`Policy.walk` and :func:`x <guesswork.y.z>`"
    assert ROLE.findall(text) == ["search.Search", "Policy.walk", "guesswork.y.z"]


def test_every_docstring_role_names_what_exists() -> None:
    """A docstring's ``:class:`` / ``:func:`` / ``:meth:`` ... reference names an object
    that exists, in every module of ours: the docs build checks the modules it documents
    (docs/api.rst), this the rest, which no build reads (one named a function of
    client.games that had moved to client.rules)."""
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    sources = [
        name
        for name in tracked
        if name.endswith(".py") and name.split("/")[0] in PACKAGES and "/protos/" not in name
    ]
    assert len(sources) > 100
    checked = 0
    missing = []
    for name in sources:
        text = (ROOT / name).read_text(encoding="utf-8")
        names = bound_names(ast.parse(text))
        for number, line in prose(name, text):
            for target in ROLE.findall(line):
                checked += 1
                if not role_target_exists(name, text, target, names):
                    missing.append(f"{name}:{number}: {target}")
    assert checked > 500  # the pattern found the roles
    assert missing == [], "\n".join(missing)
