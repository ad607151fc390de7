"""Sphinx directives that write the reference pages from the code, so they cannot drift.

``.. argparse-reference:: guesswork.client.cli:build_parser`` documents a
command line from its argparse parser: each (sub)command's usage, description
and every option with its help and default, as the command's own ``--help``
shows them. ``.. proto-reference:: protos/guesswork/v1/guesswork.proto``
documents the gRPC contract from the proto's comments: protoc (grpcio-tools)
compiles it with its source info, and every service, method, message, field,
enum and value is listed with the comment written above it.
``.. structure-report::`` lists the largest modules as
``scripts/structure_report.py`` counts them, at every build, and
``.. catalog-table:: REGEX`` the shipped catalog's policies whose names match,
with their figures read from the catalog.

Each produces reStructuredText that Sphinx then parses like any page, so a
broken reference in a help text or a comment fails the ``-W`` build.

For autodoc (docs/api.rst), a name that no scope resolves (an annotation
imported only for type checking, ``BeeTable``; a docstring's
``:class:`client.errors.OffTreeError```) resolves to the one documented
object whose full name ends so, as ``.BeeTable`` would: none, or several,
still fails the nitpicky build.
A docstring's ``Raises:`` and ``Attributes:`` sections become lists, each
exception named in a ``Raises:`` section a reference (a stale one fails).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles

from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog

ROOT = Path(__file__).resolve().parents[2]


def _literal(text: str) -> str:
    """Return ``text`` escaped for reST running text (no markup is meant in help texts)."""
    text = text.replace("\\", "\\\\")
    text = re.sub(r"([*`|])", r"\\\1", text)
    return re.sub(r"(?<=\w)_(?=\W|$)", r"\\_", text)


def _block(text: str, indent: str = "   ") -> list[str]:
    return [indent + line if line.strip() else "" for line in text.splitlines()]


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def argparse_lines(parser: argparse.ArgumentParser, prog: str, level: int) -> list[str]:
    """Return reST for ``parser`` and its subcommands, titled ``prog``, at section ``level``,
    each section labelled ``cli-PROG`` (``cli-guesswork-build-optimize``) for ``:ref:``."""
    underline = '=-~^"'[level]
    label = "cli-" + "-".join(prog.split())
    lines = [f".. _{label}:", "", prog, underline * len(prog), ""]
    if parser.description:
        lines += [_literal(parser.description), ""]
    usage = parser.format_usage().removeprefix("usage: ").strip()
    lines += [".. code-block:: text", "", *_block(usage), "", f".. program:: {prog}", ""]
    formatter = parser._get_formatter()
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        metavar = ""
        if action.nargs != 0:
            metavar = " " + formatter._format_args(action, action.dest.upper())
        names = ", ".join(f"{name}{metavar}" for name in action.option_strings)
        help_text = formatter._expand_help(action) if action.help else ""
        if action.choices and "{" not in metavar:
            help_text += f" (one of: {', '.join(map(str, action.choices))})"
        lines += [f".. option:: {names}", "", *_block(_literal(help_text) or "(no help)"), ""]
    if parser.epilog:
        lines += [_literal(parser.epilog), ""]
    for name, sub in _subcommands(parser):
        lines += argparse_lines(sub, f"{prog} {name}", level + 1)
    return lines


class ArgparseReference(SphinxDirective):
    """``.. argparse-reference:: module:function`` (the function returns the parser)."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"prog": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        module_name, _, function = self.arguments[0].partition(":")
        made: Any = getattr(importlib.import_module(module_name), function)()
        parser = made[0] if isinstance(made, tuple) else made  # guesswork-serve's adds its table
        prog = self.options.get("prog", parser.prog)
        container = nodes.section()
        lines = argparse_lines(parser, prog, 1)
        nested_parse_with_titles(self.state, StringList(lines, self.arguments[0]), container)
        return list(container.children)


def _descriptor_set(proto: Path) -> Any:
    """Return the FileDescriptorSet of ``proto`` (under protos/) with its source info."""
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    include = Path(protoc.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "set.pb"
        status = protoc.main(
            [
                "protoc",
                f"-I{ROOT / 'protos'}",
                f"-I{include}",
                "--include_source_info",
                f"--descriptor_set_out={out}",
                str(proto),
            ]
        )
        if status != 0:
            raise RuntimeError(f"protoc failed on {proto} with status {status}")
        found = descriptor_pb2.FileDescriptorSet()
        found.ParseFromString(out.read_bytes())
    return found


_TYPES = {
    1: "double",
    2: "float",
    3: "int64",
    4: "uint64",
    5: "int32",
    8: "bool",
    9: "string",
    12: "bytes",
    13: "uint32",
    17: "sint32",
    18: "sint64",
    6: "fixed64",
    7: "fixed32",
}


def proto_lines(proto: Path) -> list[str]:
    """Return reST for the services, messages and enums of ``proto``, from its comments."""
    file = _descriptor_set(proto).file[-1]
    comments: dict[tuple[int, ...], str] = {}
    header = ""
    for location in file.source_code_info.location:
        path = tuple(location.path)
        if location.leading_comments:
            comments[path] = location.leading_comments
        if path == (12,) and location.leading_detached_comments:  # above "syntax"
            header = "\n\n".join(location.leading_detached_comments)

    def said(path: tuple[int, ...]) -> list[str]:
        text = comments.get(path, "").rstrip()
        if not text:
            return []
        dedented = "\n".join(
            line[1:] if line.startswith(" ") else line for line in text.split("\n")
        )
        return [".. code-block:: text", "", *_block(dedented), ""]

    def type_name(field: Any) -> str:
        name = field.type_name.lstrip(".").removeprefix(f"{file.package}.")
        base = name or _TYPES.get(field.type, "?")
        return f"repeated {base}" if field.label == 3 else base

    lines = [f"The contract: ``{file.name}``, package ``{file.package}``.", ""]
    if header:
        lines += [".. code-block:: text", "", *_block(header), ""]
    lines += ["Services", "--------", ""]
    for s, service in enumerate(file.service):
        lines += [f"service {service.name}", "~" * (8 + len(service.name)), "", *said((6, s))]
        for m, method in enumerate(service.method):
            arrow = "stream " if method.server_streaming else ""
            request = method.input_type.removeprefix(f".{file.package}.")
            response = method.output_type.removeprefix(f".{file.package}.")
            lines += [f"``rpc {method.name}({request}) returns ({arrow}{response})``", ""]
            lines += [*_block("\n".join(said((6, s, 2, m))) or "(no comment)"), ""]

    def message(index_path: tuple[int, ...], described: Any, prefix: str) -> list[str]:
        out = [
            f"{prefix}{described.name}",
            "~" * len(prefix + described.name),
            "",
            *said(index_path),
        ]
        for f, field in enumerate(described.field):
            out += [f"``{type_name(field)} {field.name} = {field.number}``", ""]
            out += [*_block("\n".join(said((*index_path, 2, f))) or "(no comment)"), ""]
        for e, enum in enumerate(described.enum_type):
            out += enum_lines((*index_path, 4, e), enum, f"{prefix}{described.name}.")
        for n, nested in enumerate(described.nested_type):
            if nested.options.map_entry:
                continue
            out += message((*index_path, 3, n), nested, f"{prefix}{described.name}.")
        return out

    def enum_lines(index_path: tuple[int, ...], enum: Any, prefix: str) -> list[str]:
        out = [f"enum {prefix}{enum.name}", "~" * (5 + len(prefix + enum.name)), ""]
        out += said(index_path)
        for v, value in enumerate(enum.value):
            out += [f"``{value.name} = {value.number}``", ""]
            out += [*_block("\n".join(said((*index_path, 2, v))) or "(no comment)"), ""]
        return out

    lines += ["Messages", "--------", ""]
    for m, described in enumerate(file.message_type):
        lines += message((4, m), described, "")
    if file.enum_type:
        lines += ["Enums", "-----", ""]
        for e, enum in enumerate(file.enum_type):
            lines += enum_lines((5, e), enum, "")
    return lines


class ProtoReference(SphinxDirective):
    """``.. proto-reference:: PATH`` (under the repository root)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        proto = ROOT / self.arguments[0]
        self.env.note_dependency(str(proto))
        container = nodes.section()
        lines = proto_lines(proto)
        nested_parse_with_titles(self.state, StringList(lines, str(proto)), container)
        return list(container.children)


def structure_report() -> Any:
    """Return scripts/structure_report.py as a module (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(
        "structure_report", ROOT / "scripts" / "structure_report.py"
    )
    if spec is None or spec.loader is None:
        raise RuntimeError("scripts/structure_report.py cannot be loaded")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def structure_lines(top: int) -> list[str]:
    """Return reST for the size report: how many modules and lines, and a table of the
    ``top`` largest modules, as ``python scripts/structure_report.py --top N`` prints."""
    report = structure_report()
    sizes: dict[str, int] = report.module_lines()
    largest: list[tuple[str, int]] = report.largest_modules(top)
    lines = [
        f"{len(sizes)} modules, {sum(sizes.values())} lines; the {top} largest:",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :align: left",
        "",
        "   * - Module",
        "     - Lines",
    ]
    for name, size in largest:
        lines += [f"   * - ``{name}``", f"     - {size}"]
    return [*lines, ""]


class StructureReport(SphinxDirective):
    """``.. structure-report::`` with ``:top: N`` (default 10)."""

    option_spec: ClassVar[dict[str, Any]] = {"top": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()  # the code changes without this page changing
        container = nodes.section()
        lines = structure_lines(self.options.get("top", 10))
        nested_parse_with_titles(self.state, StringList(lines, "structure-report"), container)
        return list(container.children)


def catalog_lines(pattern: str) -> list[str]:
    """Return reST for a table of the shipped policies whose names match ``pattern``
    (a full match), by word length: targets, mean guesses, worst case, first guess."""
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :align: left",
        "",
        "   * - letters",
        "     - words",
        "     - mean",
        "     - worst",
        "     - first guess",
        "     - policy",
    ]
    with open_catalog(SHIPPED_CATALOG) as catalog:
        rows = [row for row in catalog.list() if re.fullmatch(pattern, row.name)]
        if not rows:
            raise ValueError(f"no shipped policy matches {pattern!r}")
        for row in sorted(rows, key=lambda row: (row.length, row.name)):
            first = catalog.policy(row.name).next_guess([])
            lines += [f"   * - {row.length}", f"     - {row.count:,}", f"     - {row.mean:.4f}"]
            lines += [f"     - {row.worst}", f"     - {first}", f"     - ``{row.name}``"]
    return [*lines, ""]


class CatalogTable(SphinxDirective):
    """``.. catalog-table:: REGEX`` (a shipped policy name pattern)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(SHIPPED_CATALOG))
        container = nodes.section()
        lines = catalog_lines(self.arguments[0])
        nested_parse_with_titles(self.state, StringList(lines, "catalog-table"), container)
        return list(container.children)


#: A docstring section whose entries become a list (the code's docstrings are Google style).
SECTION = re.compile(r"^(\s*)(Raises|Attributes):$")
#: An exception's name in a Raises section, not already inside markup.
EXCEPTION = re.compile(r"(?<![`\w.~])([A-Z]\w*(?:Error|Exception))(?![`\w])")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def docstring_sections(lines: list[str]) -> list[str]:
    """Return ``lines`` (a docstring) with each ``Raises:`` / ``Attributes:`` section's
    entries as a bullet list, and the exceptions a ``Raises:`` section names as
    ``:exc:`` references.

    An entry is a line at the section's first indentation; deeper lines continue it.
    The section ends at the first line indented no deeper than its title.
    """
    out: list[str] = []
    index = 0
    while index < len(lines):
        title = SECTION.match(lines[index])
        out.append(lines[index])
        index += 1
        if title is None:
            continue
        depth = len(title[1])
        entry = -1
        while index < len(lines) and (not lines[index].strip() or _indent(lines[index]) > depth):
            line = lines[index]
            index += 1
            if not line.strip():
                out.append("")
                continue
            if entry < 0:
                entry = _indent(line)
            text = line.strip()
            if title[2] == "Raises":
                text = EXCEPTION.sub(r":exc:`\1`", text)
            prefix = "* " if _indent(line) <= entry else "  "
            out.append(" " * entry + prefix + text)
    return out


def format_sections(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Rewrite ``lines`` in place with :func:`docstring_sections` (autodoc's
    ``autodoc-process-docstring`` event)."""
    lines[:] = docstring_sections(lines)


def resolve_short_name(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Return a link for a Python reference that names one documented object by the end
    of its full name, or None (Sphinx then warns, an error under ``-W -n``).

    Annotations under ``if TYPE_CHECKING:`` reach autodoc as bare names
    (``BeeTable``) that no module scope resolves, and docstrings name objects
    from their package (``client.errors.OffTreeError``, ``Policy.walk``): this
    finds them as Sphinx finds ``.BeeTable`` (any kind of object, so a type
    alias too), so the stale and the ambiguous still fail. A full name
    (``guesswork.client...``) must be exact.
    """
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target or target.startswith("guesswork."):
        return None
    domain: Any = env.get_domain("py")
    found = domain.find_obj(env, "", "", target, None, 1)
    if len(found) != 1:
        return None
    name, entry = found[0]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, name)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the four directives, the short-name resolver and the docstring sections
    (Sphinx calls this for ``extensions``)."""
    app.add_directive("argparse-reference", ArgparseReference)
    app.add_directive("proto-reference", ProtoReference)
    app.add_directive("structure-report", StructureReport)
    app.add_directive("catalog-table", CatalogTable)
    app.connect("missing-reference", resolve_short_name)
    app.connect("autodoc-process-docstring", format_sections)
    return {"parallel_read_safe": True, "version": "1"}
