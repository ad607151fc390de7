"""The ``guesswork-build`` command line (also ``python -m builder``).

Data goes to standard output (``--json`` for machines), progress and errors to
standard error. A bad option, list or file ends the command with one line
``guesswork-build: error: ...`` and exit status 2 (usage) or 1 (input or a
failed check).

This module is the edge: it parses the command line (the options are in
builder.cli_options), builds the command's frozen dataclass of options from
it (:func:`options_from`) and runs the command (:data:`COMMANDS`), which
returns an Outcome to print. No command sees argparse. The commands are in
builder.commands (building), builder.catalog_commands (keeping the catalog),
builder.search_commands (optimize), builder.today_commands (today, backtest),
builder.calendar_commands (history), builder.multiboard_command (boards) and
builder.report.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from guesswork import __version__, install_hint

from ..client.cli import report_error
from ..client.errors import GuessworkError, UsageError
from .calendar_commands import HistoryOptions, history
from .catalog_commands import (
    CacheOptions,
    ExportOptions,
    ImportOptions,
    ListPoliciesOptions,
    ListsOptions,
    RemoveOptions,
    UpgradeOptions,
    VerifyOptions,
    cache,
    export,
    import_policy,
    list_policies,
    lists,
    remove,
    upgrade,
    verify,
)
from .cli_options import (
    Parser,
    add_backtest_options,
    add_boards_options,
    add_cache_command,
    add_common,
    add_letter_options,
    add_list_options,
    add_naming,
    add_optimize_options,
    add_priors_options,
    add_today_options,
    add_tree_options,
    positive,
)
from .command_types import OptimizeOptions, Outcome
from .commands import (
    BuildAllOptions,
    BuildOptions,
    EvaluateOptions,
    FirstGuessesOptions,
    GmwListOptions,
    PriorsOptions,
    WordlistOptions,
    build,
    build_all,
    evaluate,
    first_guesses,
    gmw_list,
    priors,
    wordlist,
)
from .errors import SpecError
from .metrics import METRICS
from .multiboard_command import BoardsOptions, boards
from .report import ReportOptions, report
from .search_commands import optimize
from .today_commands import BacktestOptions, TodayOptions, run_backtest, today

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Options = TypeVar("Options", bound="DataclassInstance")

PROG = "guesswork-build"


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for every subcommand."""
    parser = Parser(prog=PROG, description="Build, evaluate and store Guesswork policies.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        subparser = sub.add_parser(name, help=help_text, description=help_text)
        add_common(subparser)
        return subparser

    add_tree_options(command("evaluate", "build a tree and report its scores"), guess_my_word=True)
    first = command("first-guesses", "rank every first guess by each metric")
    add_list_options(first)
    first.add_argument(
        "--metric",
        action="append",
        # approx_entropy ranks only the guesses it retries: no whole table to show.
        choices=[m for m in METRICS if m not in ("random", "approx_entropy")],
        help="metric to rank by (repeatable; default max, expectation, neg_entropy)",
    )
    first.add_argument("--top", type=positive, default=10, help="how many best and worst to show")
    listed = command(
        "lists", "show the word lists (shipped and registered), or register newer ones"
    )
    listed.add_argument(
        "action",
        nargs="?",
        choices=("show", "update"),
        default="show",
        help="show (default): every list; update: register FILE... as newer official lists",
    )
    listed.add_argument("files", nargs="*", metavar="FILE", help="update: the list files")
    listed.add_argument(
        "--kind",
        choices=("answers", "guesses"),
        help="update: the NYT's answers or its allowed guesses (names wordle-KIND-COUNT)",
    )
    listed.add_argument(
        "--as-of", metavar="DATE", help="update: when the list took effect (YYYY-MM-DD)"
    )
    listed.add_argument("--name", help="update: the list's name (default wordle-KIND-COUNT)")
    dated = command(
        "history",
        "show the NYT's answer calendar (shipped and added days), or add newer days to it",
    )
    dated.add_argument(
        "action",
        nargs="?",
        choices=("show", "add"),
        default="show",
        help="show (default): the calendar's days, sources and gaps; add: merge FILE... into "
        "the user's calendar ($GUESSWORK_CALENDAR or $XDG_DATA_HOME/guesswork/nyt-answers.csv)",
    )
    dated.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="add: calendar CSVs (date,number,word) or NYT per-day JSON files "
        "(/svc/wordle/v2/YYYY-MM-DD.json)",
    )
    built = command("build", "build one policy into the catalog (default: the user catalog)")
    add_tree_options(built)
    add_naming(built)
    build_all = command("build-all", "build the default catalog (every seed-table policy)")
    build_all.add_argument("--quiet", action="store_true", help="no progress on stderr")
    build_all.add_argument(
        "--reuse",
        action="append",
        default=[],
        metavar="CATALOG",
        help="take the slow policies (long enable1 words, the global Wordle optima) from this "
        "catalog file after checking them, instead of building them again (repeatable; the "
        "first file that has one wins)",
    )
    build_all.add_argument(
        "--checkpoints",
        type=Path,
        metavar="DIR",
        help="a reused optimum's tie-break search (a global optimum stored before its worst "
        "case was proven least) resumes from and records in DIR/NAME.ckpt.total-capC-belowV "
        "(default: none, it starts afresh)",
    )
    build_all.add_argument(
        "--workers",
        type=positive,
        default=1,
        help="processes for each optimised tree's search (default 1; the trees are the same)",
    )
    command("list", "list the catalog's policies")
    checked = command("verify", "replay every target through every stored policy")
    checked.add_argument(
        "--prove",
        action="store_true",
        help="also run each optimised policy's search again and compare with its certificate",
    )
    checked.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="NAME",
        help="verify only this policy (repeatable; default: every policy)",
    )
    checked.add_argument(
        "--workers",
        type=positive,
        default=1,
        help="processes for --prove's searches (more than 1: a local Dask cluster)",
    )
    checked.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run --prove's searches on this Dask cluster (tcp://HOST:PORT)",
    )
    optimize = command(
        "optimize", "search for an optimal, capped, minimax or lookahead tree, with a certificate"
    )
    add_optimize_options(optimize)
    add_naming(optimize)
    export = command("export", "write one policy as a standalone policy file")
    export.add_argument("name", help="policy name (see list)")
    export.add_argument("--output", help="file to write (default: NAME.gwp)")
    words = command("wordlist", "a language's most frequent words of one length (needs wordfreq)")
    add_letter_options(words, language_required=True)
    words.add_argument("--length", type=positive, default=5, help="word length (default 5)")
    words.add_argument("--top", type=positive, default=2000, help="how many words (default 2000)")
    words.add_argument("--output", help="file to write (default: standard output)")
    gmw = command("gmw-list", "regenerate the shipped Guess My Word list (needs wordfreq)")
    gmw.add_argument("--top", type=positive, default=5000, help="wordfreq words to consider")
    gmw.add_argument("--output", help="file to write (default: the shipped list)")
    add_priors_options(
        command(
            "priors",
            "answer likelihoods of a word list from wordfreq, plurals and past tenses "
            "down-weighted (needs wordfreq)",
        )
    )
    add_today_options(
        command(
            "today",
            "build a day's policies (normal and NYT hard, within 6 guesses) under its calendar "
            "prior into the user catalog",
        )
    )
    add_backtest_options(
        command(
            "backtest",
            "play each day's real answer with that day's calendar policy and with the uniform "
            "optimum; means and lost days per year",
        )
    )
    imported = command("import", "add a policy file to the catalog, after verifying it")
    imported.add_argument("file", help="policy file (.gwp or .msgpack)")
    add_naming(imported)
    removed = command("remove", "remove a policy from the user catalog (or --catalog)")
    removed.add_argument("name", help="policy name (see list)")
    command(
        "upgrade",
        "rewrite the user catalog (or --catalog) from an older schema, keeping the old file",
    )
    drawn = command(
        "report",
        "draw policies: guess histograms side by side, solved-within-n curves, and "
        f"one policy's first two tree levels (needs matplotlib: {install_hint('plots')})",
    )
    drawn.add_argument("policy", nargs="+", help="policy names (see list)")
    drawn.add_argument(
        "--output",
        required=True,
        help="report.html (self-contained, pictures embedded) or report.png (one figure)",
    )
    add_boards_options(
        command(
            "boards", "play multi-board Wordle (Dordle, Quordle, ...) against one board at a time"
        )
    )
    add_cache_command(sub)
    return parser


def options_from(kind: type[Options], args: argparse.Namespace) -> Options:
    """Return the options ``kind`` (a frozen dataclass) read from the parsed command line
    ``args``: each field from the option of its name (a repeated option's list as a
    tuple), a field whose type is itself such a dataclass (an option group of
    builder.command_types) read from the same ``args``.

    Raises:
        AttributeError: a field names no option of the command (a mistake in the
            code, which tests/builder/test_cli_options.py catches for every command).
    """
    hints = typing.get_type_hints(kind)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(kind):
        hint = hints[field.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            values[field.name] = options_from(hint, args)
            continue
        value = getattr(args, field.name)
        values[field.name] = tuple(value) if isinstance(value, list) else value
    return kind(**values)


@dataclass(frozen=True)
class Command(Generic[Options]):
    """A subcommand: the dataclass of its options, and the function that runs it."""

    options: type[Options]
    run: Callable[[Options], Outcome]

    def __call__(self, args: argparse.Namespace) -> Outcome:
        """Run the command with its options read from ``args``; return its Outcome."""
        return self.run(options_from(self.options, args))


#: Every subcommand, by name: its options and the function that runs it.
COMMANDS: dict[str, Command[Any]] = {
    "evaluate": Command(EvaluateOptions, evaluate),
    "first-guesses": Command(FirstGuessesOptions, first_guesses),
    "lists": Command(ListsOptions, lists),
    "history": Command(HistoryOptions, history),
    "build": Command(BuildOptions, build),
    "build-all": Command(BuildAllOptions, build_all),
    "list": Command(ListPoliciesOptions, list_policies),
    "verify": Command(VerifyOptions, verify),
    "optimize": Command(OptimizeOptions, optimize),
    "export": Command(ExportOptions, export),
    "wordlist": Command(WordlistOptions, wordlist),
    "gmw-list": Command(GmwListOptions, gmw_list),
    "priors": Command(PriorsOptions, priors),
    "today": Command(TodayOptions, today),
    "backtest": Command(BacktestOptions, run_backtest),
    "import": Command(ImportOptions, import_policy),
    "remove": Command(RemoveOptions, remove),
    "upgrade": Command(UpgradeOptions, upgrade),
    "report": Command(ReportOptions, report),
    "boards": Command(BoardsOptions, boards),
    "cache": Command(CacheOptions, cache),
}


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv``; return the exit status.

    Bad input raises nothing: it is reported as one line on stderr (under
    ``--json``, a JSON object ``{"error": ..., "reason": ...}``; see
    guesswork.client.cli.report_error).
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in arguments  # read before parsing: a usage error is JSON too
    try:
        args = build_parser().parse_args(arguments)
        outcome = COMMANDS[args.command](args)
        print(json.dumps(outcome.data, indent=2) if args.json else "\n".join(outcome.lines))
        sys.stdout.flush()
        return outcome.status
    except (UsageError, SpecError) as error:
        return report_error(PROG, error, 2, as_json)
    except GuessworkError as error:
        return report_error(PROG, error, 1, as_json)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
