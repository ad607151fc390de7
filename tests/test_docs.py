"""The README and docs/: short README, every runnable example runs as shown, and the
documentation site builds with warnings as errors, its references written from the code."""

from __future__ import annotations

import argparse
import html
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import guesswork.client
from guesswork.builder.cli import build_parser as builder_parser
from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog
from guesswork.client.cli import build_parser as client_parser
from guesswork.client.core import Guesswork
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.service.cli import build_parser as service_parser

from .runnable_docs import Example, console_steps, examples, run_examples

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The environment's bin folder: make test runs .venv/bin/python, so .venv/bin.
BIN = Path(sys.executable).parent


def test_the_readme_is_a_readme() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "../shared" not in text  # a clone has no ../shared
    for target in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / target).is_file(), f"the README links {target}, which is not there"


def test_the_readme_examples_run_as_shown(tmp_path: Path) -> None:
    found = examples(README)
    assert len(found) >= 6 and {example.language for example in found} == {"console", "pycon"}
    assert run_examples(found, BIN, tmp_path) == []


@pytest.mark.parametrize(
    "page", sorted(path.name for path in DOCS.glob("*.rst") if examples(path)), ids=str
)
def test_the_docs_examples_run_as_shown(page: str, tmp_path: Path) -> None:
    assert run_examples(examples(DOCS / page), BIN, tmp_path) == []


def test_a_wrong_output_or_a_failing_command_is_reported(tmp_path: Path) -> None:
    """The runner is a check that can fail: output unlike the shown, or a failing command."""
    wrong = Example(README, 1, "console", "$ echo one\ntwo\n$ false")
    problems = run_examples([wrong], BIN, tmp_path)
    assert len(problems) == 2 and "--- shown\ntwo\n--- printed\none\n" in problems[0]
    assert "$ false\n(exit 1)" in problems[1]
    failing = Example(README, 1, "pycon", ">>> 1 + 1\n3")
    assert "the doctest failed" in run_examples([failing], BIN, tmp_path)[0]
    script = Example(README, 1, "shell", "true\nfalse\necho never")
    (problem,) = run_examples([script], BIN, tmp_path)
    assert "the commands failed (exit 1)" in problem and "never" not in problem


def test_examples_run_with_progress_off(tmp_path: Path) -> None:
    """No progress line in an example's output, however slow the machine (issue #43)."""
    shown = Example(README, 1, "console", "$ echo ${GUESSWORK_PROGRESS-unset}\n0")
    assert run_examples([shown], BIN, tmp_path) == []


def test_a_transcript_feeds_what_is_typed_at_the_prompt() -> None:
    steps = console_steps("$ guesswork play\nGuess 1: SALET\nreply> .G..G\nGuess 2: THING\n")
    assert len(steps) == 1 and steps[0].typed == [".G..G"]
    assert steps[0].shown == ["Guess 1: SALET", "reply> \0", "Guess 2: THING"]


#: How a measurement story reads: the machine and its load, a same-run comparison, a
#: speed-up ratio, seconds on so many cores. Such figures belong on benchmarks.rst.
MEASUREMENT = re.compile(
    r"2-core machine|shared with other work|other work beside it|ran beside it"
    r"|in the same run|\(same runs?[;)]"
    r"|\d(\.\d+)? ?(s|ms|min) (on|of) (one|two)( shared)? cores?"
    r"|\d(\.\d+)?x faster|\(\d+(\.\d+)?x[;),]",
    re.IGNORECASE,
)
#: The pages that may tell them: the figures' own page, and the development page's
#: account of the benchmarks and of the suite's own timings.
MEASUREMENT_PAGES = ("benchmarks.rst", "development.rst")


def measurement_stories(text: str) -> list[str]:
    """Return each measurement story in ``text`` (its whitespace runs read as one
    space, as a sentence wraps anywhere), with a few words either side."""
    flat = " ".join(text.split())
    return [flat[max(0, m.start() - 30) : m.end() + 10] for m in MEASUREMENT.finditer(flat)]


def test_measurement_stories_are_told_on_the_benchmarks_page() -> None:
    """A user-facing page states the claim and links its figures (issue #45): timings
    on this machine, same-run ratios and their load stay on benchmarks.rst."""
    stories = [
        f"{page.name}: {story}"
        for page in sorted(DOCS.glob("*.rst"))
        if page.name not in MEASUREMENT_PAGES
        for story in measurement_stories(page.read_text(encoding="utf-8"))
    ]
    assert stories == []
    labels = re.findall(
        r"^\.\. _(bench-[\w-]+):$", (DOCS / "benchmarks.rst").read_text("utf-8"), re.M
    )
    cited = "".join(
        page.read_text(encoding="utf-8")
        for page in DOCS.glob("*.rst")
        if page.name != "benchmarks.rst"
    )
    # Every section of figures is cited by the page whose claim it backs.
    assert len(labels) >= 20
    assert [label for label in labels if not re.search(rf"[`<]{label}[`>]", cited)] == []


def test_the_measurement_check_can_fail() -> None:
    text = "proven in 56 s on one\n   core, (3.8x; compiled) and 82 s against 101 s in the same run"
    assert len(measurement_stories(text)) == 3
    assert measurement_stories("another FILE of the same run) is refused") == []


def _option_anchors(parser: argparse.ArgumentParser, prog: str) -> set[str]:
    """Return the anchor Sphinx gives every option of ``parser`` and its subcommands
    (``guesswork-suggest-server`` for ``guesswork suggest --server``)."""
    found = {
        re.sub(r"[^a-z0-9]+", "-", f"{prog} {name.lstrip('-')}".lower())
        for action in parser._actions
        if action.help != argparse.SUPPRESS  # a renamed flag kept for old scripts
        for name in action.option_strings
    }
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= _option_anchors(sub, f"{prog} {name}")
    return found


def test_option_tables_are_written_once_from_the_parsers() -> None:
    """The pages link the command-line reference (cli.rst, written from the parsers)
    rather than repeating its options in tables of their own, which drifted."""
    repeated = [
        f"{page.name}:{number}"
        for page in DOCS.glob("*.rst")
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if re.fullmatch(r"   \* - (option|options)", line)
    ]
    assert repeated == []


def build_docs(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Build the Sphinx site at ``source`` into ``out`` as ``make docs`` does: warnings
    are errors and references nitpicky (``-W -n``)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-n",
            "-q",
            "-b",
            "html",
            str(source),
            str(out),
            "-d",
            str(out.parent / "doctrees"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_docs_build_without_a_warning_and_document_everything(tmp_path: Path) -> None:
    out = tmp_path / "html"
    result = build_docs(DOCS, out)
    assert result.returncode == 0, result.stderr
    cli = (out / "cli.html").read_text(encoding="utf-8")
    # Sphinx gives each documented option an anchor: cmdoption-PROG-SUBCOMMAND-OPTION.
    anchors = set(re.findall(r'id="cmdoption-([^"]+)"', cli))
    parsers = [
        (client_parser(), "guesswork"),
        (builder_parser(), "guesswork-build"),
        (service_parser()[0], "guesswork-serve"),
    ]
    for parser, prog in parsers:
        missing = _option_anchors(parser, prog) - anchors
        assert not missing, f"options not in the CLI reference: {sorted(missing)}"
    grpc = html.unescape(re.sub(r"<[^>]+>", "", (out / "grpc.html").read_text(encoding="utf-8")))
    for method in pb.DESCRIPTOR.services_by_name["Guesswork"].methods:
        assert f"rpc {method.name}(" in grpc, method.name
    for message in pb.DESCRIPTOR.message_types_by_name:
        assert f"\n{message}¶" in grpc, message  # its heading
    # The size report, as scripts/structure_report.py computes it now.
    printed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "structure_report.py"), "--top", "10"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    largest = re.findall(r"^ +(\d+) (\S+)$", printed, re.MULTILINE)
    modules = figure_of(printed, r"^modules: (\d+)$")
    lines = figure_of(printed, r"^lines: (\d+)$")
    development = html.unescape(
        re.sub(r"<[^>]+>", "", (out / "development.html").read_text(encoding="utf-8"))
    )
    assert len(largest) == 10
    assert f"{modules} modules, {lines} lines; the 10 largest:" in development
    shown = re.findall(r"^(\S+\.py)\n(\d+)$", development, re.MULTILINE)
    assert shown == [(name, size) for size, name in largest]
    # builder.rst's "Every word length" table, read from the shipped catalog.
    builder = html.unescape(re.sub(r"<[^>]+>", "", (out / "builder.html").read_text("utf-8")))
    with open_catalog(SHIPPED_CATALOG) as catalog:
        enable1 = [row for row in catalog.list() if row.targets.startswith("enable1-")]
        assert len(enable1) == 8  # 4 to 11 letters
        for row in enable1:
            first = catalog.policy(row.name).next_guess([])
            cells = [row.length, f"{row.count:,}", f"{row.mean:.4f}", row.worst, first, row.name]
            assert "\n".join(map(str, cells)) in builder, row.name
    # The API reference, from the docstrings: every name the embedding API exports, at
    # the module that defines it, and every call of the application core.
    api = set(re.findall(r'id="(guesswork\.[\w.]+)"', (out / "api.html").read_text("utf-8")))
    for name in guesswork.client.__all__:
        exported = getattr(guesswork.client, name)
        assert f"{exported.__module__}.{exported.__qualname__}" in api, name
    calls = [name for name in vars(Guesswork) if not name.startswith("_")]
    assert len(calls) >= 10
    for call in calls:
        assert f"guesswork.client.core.Guesswork.{call}" in api, call


def figure_of(text: str, pattern: str) -> str:
    """Return the first group of ``pattern`` (multi-line) in ``text``."""
    match = re.search(pattern, text, re.MULTILINE)
    assert match is not None, f"no {pattern!r} in {text!r}"
    return match[1]


def docs_extension() -> ModuleType:
    """Return the documentation's Sphinx extension (docs/_ext), imported from its file."""
    spec = importlib.util.spec_from_file_location(
        "guesswork_docs", DOCS / "_ext" / "guesswork_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docstring_sections_become_lists_that_name_their_exceptions() -> None:
    sections = docs_extension().docstring_sections
    docstring = [
        "Return the guess.",
        "",
        "Raises:",
        "    OffTreeError: the history left the tree, as",
        "        ``KeyError`` says; see :exc:`GameOverError`.",
        "    HistoryTooLongError, InvalidReplyError (or ImpossibleReplyError).",
        "Said after.",
    ]
    assert sections(docstring) == [
        "Return the guess.",
        "",
        "Raises:",
        "    * :exc:`OffTreeError`: the history left the tree, as",
        "      ``KeyError`` says; see :exc:`GameOverError`.",
        "    * :exc:`HistoryTooLongError`, :exc:`InvalidReplyError` (or :exc:`ImpossibleReplyError`).",
        "Said after.",
    ]


#: Two planted modules for the check below: ``planted`` names what ``planted_kinds``
#: defines, by short names no module scope resolves (an annotation imported only for
#: type checking among them).
PLANTED_KINDS = '''"""Kinds."""


class Kind:
    """A kind."""

    def go(self) -> None:
        """Go."""


class KindError(Exception):
    """An error."""
'''
PLANTED = '''"""Names :class:`Kind` and :meth:`Kind.go`.

Raises:
    KindError: never.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from planted_kinds import Kind


def make() -> Kind:
    """Return a kind."""
    raise NotImplementedError


class Other:
    """Another, that can go too."""

    def go(self) -> None:
        """Go."""
'''


def test_a_docstring_naming_what_does_not_exist_fails_the_build(tmp_path: Path) -> None:
    """The nitpicky build is a check that can fail: a stale name in a documented
    docstring (a ``Raises:`` section's included), or a short name that two documented
    objects end with, is an error; a short name of one documented object is found."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text(
        f"import sys\nsys.path[:0] = [{str(DOCS / '_ext')!r}, {str(tmp_path)!r}]\n"
        "extensions = ['sphinx.ext.autodoc', 'guesswork_docs']\nnitpicky = True\n",
        encoding="utf-8",
    )
    page = "Planted\n=======\n\n.. automodule:: planted\n   :members:\n\n"
    page += ".. automodule:: planted_kinds\n   :members:\n"
    (site / "index.rst").write_text(page, encoding="utf-8")
    (tmp_path / "planted_kinds.py").write_text(PLANTED_KINDS, encoding="utf-8")

    def build(name: str, module: str) -> subprocess.CompletedProcess[str]:
        (tmp_path / "planted.py").write_text(module, encoding="utf-8")
        return build_docs(site, tmp_path / name / "html")

    good = build("good", PLANTED)
    assert good.returncode == 0, good.stderr
    stale = build("stale", PLANTED.replace(":meth:`Kind.go`", ":meth:`Kind.gone`"))
    assert stale.returncode != 0 and "target not found: Kind.gone" in stale.stderr
    raises = build("raises", PLANTED.replace("KindError: never", "KinderError: never"))
    assert raises.returncode != 0 and "target not found: KinderError" in raises.stderr
    ambiguous = build("ambiguous", PLANTED.replace(":meth:`Kind.go`", ":meth:`go`"))
    assert ambiguous.returncode != 0 and "target not found: go" in ambiguous.stderr
