"""Typed commands (issue #45): each guesswork-build command takes one frozen dataclass
of options, built from the command line at the edge (builder.cli) and nowhere else."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

from guesswork.builder.cli import COMMANDS, build_parser, options_from
from guesswork.builder.command_types import Naming, PublishTarget

ROOT = Path(__file__).resolve().parents[2]

#: The least each command's line needs (its required arguments), after its name.
REQUIRED: dict[str, list[str]] = {
    "export": ["some-policy"],
    "import": ["some.gwp"],
    "remove": ["some-policy"],
    "report": ["some-policy", "--output", "report.html"],
    "boards": ["--policy", "some-policy", "--boards", "2"],
    "backtest": ["--from", "2024-01-01", "--to", "2024-01-02"],
    "wordlist": ["--language", "es"],
    "cache": ["clean"],
}

#: What the edge itself reads: the command's name and whether to print JSON.
EDGE_OPTIONS = {"command", "json"}
#: Every command accepts ``--catalog`` (builder.cli_options.add_common); those that
#: read or write no catalog (evaluate, first-guesses, lists, history, wordlist,
#: gmw-list, priors) leave it unread.
COMMON_OPTIONS = {"catalog"}

#: The modules of guesswork-build's commands and what they share.
COMMAND_MODULES = (
    "absurdle_command",
    "calendar_commands",
    "catalog_build",
    "catalog_commands",
    "catalog_writes",
    "cli",
    "cli_options",
    "command_types",
    "commands",
    "multiboard_command",
    "report",
    "search_commands",
    "today_commands",
)


def field_names(kind: type) -> set[str]:
    """Return the options a dataclass of options reads, its groups' included."""
    hints = typing.get_type_hints(kind)
    names: set[str] = set()
    for field in dataclasses.fields(kind):
        hint = hints[field.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            names |= field_names(hint)
        else:
            names.add(field.name)
    return names


def test_every_command_is_in_the_table_and_the_table_only_names_commands() -> None:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    assert isinstance(sub.choices, dict)
    assert set(sub.choices) == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_commands_options_read_exactly_the_options_it_parses(name: str) -> None:
    """No option is parsed and then dropped, and no field reads an option the command
    lacks: the dataclass's fields (its groups' included) are the parser's destinations
    (but ``--catalog`` where the command has no catalog to read)."""
    args = build_parser().parse_args([name, *REQUIRED.get(name, [])])
    command = COMMANDS[name]
    parsed = set(vars(args)) - EDGE_OPTIONS
    read = field_names(command.options)
    assert read <= parsed
    assert parsed - read <= COMMON_OPTIONS
    options = options_from(command.options, args)
    assert dataclasses.is_dataclass(options) and type(options) is command.options
    first = dataclasses.fields(options)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(options, first, None)


def test_cache_info_and_clean_give_the_same_options() -> None:
    parser = build_parser()
    info = options_from(COMMANDS["cache"].options, parser.parse_args(["cache", "info"]))
    clean = options_from(
        COMMANDS["cache"].options, parser.parse_args(["cache", "clean", "--proofs"])
    )
    assert (info.cache_command, info.matrices, info.proofs, info.older_than) == (
        "info",
        False,
        False,
        None,
    )
    assert (clean.cache_command, clean.proofs, clean.matrices) == ("clean", True, False)


def test_groups_are_read_from_the_same_line_and_repeated_options_are_tuples() -> None:
    parser = build_parser()
    line = ["optimize", "--publish", "--name", "my-tree", "--replace", "--catalog", "c.sqlite"]
    optimize = options_from(COMMANDS["optimize"].options, parser.parse_args(line))
    assert optimize.target == PublishTarget(
        catalog="c.sqlite", publish=True, naming=Naming(name="my-tree", replace=True), output=None
    )
    # The renamed flag still publishes.
    stored = options_from(COMMANDS["optimize"].options, parser.parse_args(["optimize", "--store"]))
    assert stored.target.publish is True
    verify = options_from(
        COMMANDS["verify"].options, parser.parse_args(["verify", "--policy", "a", "--policy", "b"])
    )
    assert verify.policy == ("a", "b")
    built = options_from(
        COMMANDS["build"].options, parser.parse_args(["build", "--window", "3:", "--length", "6"])
    )
    assert (built.tree.window, built.tree.lists.length, built.naming) == (
        (3, None),
        6,
        Naming(None, False),
    )


def _tree(module: str) -> ast.Module:
    path = ROOT / "builder" / f"{module}.py"
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_only_the_edge_sees_argparse(module: str) -> None:
    """The commands take their options' dataclass: only the CLI module and its
    options module import argparse."""
    imported = {
        alias.name
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert ("argparse" in imported) == (module in ("cli", "cli_options")), module


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_no_command_module_imports_anothers_private_names(module: str) -> None:
    """What commands share is public, in the module it belongs to (builder.catalog_writes,
    builder.command_types), not a private helper of another command's module."""
    private = [
        (node.module, alias.name)
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert private == [], module
