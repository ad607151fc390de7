"""The ``guesswork-build`` command line (also ``python -m builder``).

Data goes to standard output (``--json`` for machines), progress and errors to
standard error. A bad option, list or file ends the command with one line
``guesswork-build: error: ...`` and exit status 2 (usage) or 1 (input).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

from builder.evaluate import (
    FIRST_GUESS_METRICS,
    evil_game,
    first_guess_values,
    format_cumulative,
    score_stats,
)
from builder.greedy import DEFAULT_WINDOW, GreedyOptions, build_greedy_tree, warm_up
from builder.partitions import ARITHMETIC, METRICS
from builder.progress import Progress
from builder.wordlists import SHIPPED, WordList, jotto_allowable, load_wordlist, shipped_words
from client.errors import GuessworkError
from client.games import GAMES, Game, Jotto, Wordle, make_game

PROG = "guesswork-build"


class UsageError(Exception):
    """A command-line option is malformed or options contradict each other."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, without the usage text."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def parse_window(text: str) -> tuple[int, int | None]:
    """Return (low, high) from ``LOW:HIGH`` or ``LOW:`` (no upper bound).

    Raises:
        UsageError: the text is not of that form, or low > high, or low < 1.
    """
    low_text, sep, high_text = text.partition(":")
    try:
        if not sep:
            raise ValueError
        low = int(low_text) if low_text.strip() else 1
        high = int(high_text) if high_text.strip() else None
    except ValueError:
        raise UsageError(f"--window {text!r} is not MIN:MAX or MIN: (e.g. 4:125 or 4:)") from None
    if low < 1 or (high is not None and high < low):
        raise UsageError(f"--window {text!r} must satisfy 1 <= MIN <= MAX")
    return low, high


def resolve_arithmetic(args: argparse.Namespace) -> str:
    """Return the seed arithmetic to use: explicit, or inferred from the other options.

    The seeds' tables differ in floating-point details (see builder.partitions),
    and ties in Jotto's six-reply partitions are common enough that the
    notebook's own arithmetic is needed to reproduce its trees exactly.
    """
    if args.arithmetic != "auto":
        return str(args.arithmetic)
    window = getattr(args, "window", DEFAULT_WINDOW)
    follows_2020 = args.jotto_order == "first-seen" or window[1] is None
    return "2020" if follows_2020 else "2022"


def _add_list_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="wordle", choices=sorted(GAMES), help="game id")
    parser.add_argument("--length", type=int, default=5, help="word length (default 5)")
    parser.add_argument(
        "--targets", default="wordle-answers-2309",
        help="target list: a shipped list name, a file path, or - for stdin",
    )  # fmt: skip
    parser.add_argument("--guesses", help="guess list (default: the target list)")
    parser.add_argument(
        "--jotto-order", default="sorted", choices=("sorted", "first-seen"),
        help="order of the derived Jotto list: sorted (2022 seed) or first-seen (2020 seed)",
    )  # fmt: skip
    parser.add_argument(
        "--arithmetic", default="auto", choices=["auto", *sorted(ARITHMETIC)],
        help="seed notebook whose float arithmetic breaks metric near-ties; auto (default): "
        "2020 when the other options follow the 2020 notebook (--jotto-order first-seen or "
        "a window without upper bound), else 2022",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for every subcommand."""
    parser = _Parser(prog=PROG, description="Build and evaluate Guesswork policies.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    evaluate = commands.add_parser("evaluate", help="build a greedy tree and report its scores")
    _add_list_options(evaluate)
    evaluate.add_argument("--mode", default="normal", choices=("hard", "normal"))
    evaluate.add_argument("--metric", default="neg_entropy", choices=list(METRICS))
    evaluate.add_argument(
        "--window", type=parse_window, default=DEFAULT_WINDOW,
        help="normal mode: consider every guess when MIN <= remaining <= MAX (default 4:125)",
    )  # fmt: skip
    evaluate.add_argument("--seed", type=int, default=0, help="seed of the random guesser")
    evaluate.add_argument("--quiet", action="store_true", help="no progress bar")

    first = commands.add_parser("first-guesses", help="rank every first guess by each metric")
    _add_list_options(first)
    first.add_argument(
        "--metric", action="append", choices=[m for m in METRICS if m != "random"],
        help="metric to rank by (repeatable; default max, expectation, neg_entropy)",
    )  # fmt: skip
    first.add_argument("--top", type=int, default=10, help="how many best and worst to show")

    lists = commands.add_parser("lists", help="show the shipped word lists")
    lists.add_argument("--json", action="store_true", help="print a JSON array")
    return parser


def _load_list(spec: str, game: Game, jotto_order: str) -> WordList:
    """Return the list ``spec`` for ``game``; Jotto's is derived as the seeds do."""
    if not isinstance(game, Jotto):
        return load_wordlist(spec, game)
    source = load_wordlist(spec, Wordle(game.length))
    return WordList.from_words(
        f"jotto({source.name},{jotto_order})",
        jotto_allowable(source.words, game.length, jotto_order),
    )


def _load_lists(args: argparse.Namespace) -> tuple[Game, WordList, WordList]:
    """Return the game and its target and guess lists from the options."""
    game = make_game(args.game, args.length)
    if args.guesses == "-" and args.targets == "-":
        raise UsageError("standard input can supply only one of --targets and --guesses")
    targets = _load_list(args.targets, game, args.jotto_order)
    if args.guesses is None or args.guesses == args.targets:
        return game, targets, targets
    return game, targets, _load_list(args.guesses, game, args.jotto_order)


def _evaluate(args: argparse.Namespace) -> tuple[dict[str, object], list[str]]:
    """Build the tree the options describe; return its JSON report and text lines."""
    hard = args.mode == "hard"
    if args.metric == "random" and not hard:
        raise UsageError("the random guesser makes only consistent guesses; use --mode hard")
    game, targets, guesses = _load_lists(args)
    if game.consistent_only and not hard:
        raise UsageError(f"{game.id} allows only consistent guesses; use --mode hard")
    arithmetic = resolve_arithmetic(args)
    options = GreedyOptions(
        metric=args.metric,
        hard=hard,
        window=args.window,
        arithmetic=ARITHMETIC[arithmetic],
        seed=args.seed,
    )
    progress = Progress(f"{game.name} {args.mode} {args.metric}", enabled=not args.quiet)
    warm_up(game)
    started = time.perf_counter()
    try:
        tree = build_greedy_tree(game, targets, guesses, options, progress=progress)
    finally:
        progress.close()
    seconds = time.perf_counter() - started
    stats = score_stats(tree.target_scores)
    evil = evil_game(tree)
    low, high = args.window
    report = {
        "game": game.id,
        "length": game.length,
        "targets": len(targets),
        "guesses": len(guesses),
        "targets_list": targets.name,
        "guesses_list": guesses.name,
        "targets_sha256": targets.sha256,
        "guesses_sha256": guesses.sha256,
        "mode": args.mode,
        "metric": args.metric,
        "window": None if hard else [low, high],
        "arithmetic": arithmetic,
        "seed": args.seed if args.metric == "random" else None,
        "first_guess": tree.first_guess,
        **stats.to_json(),
        "nodes": tree.node_count,
        "evil_game": [list(move) for move in evil],
        "seconds": round(seconds, 4),
    }
    consider = (
        "consistent guesses only"
        if hard
        else f"any guess when {low} <= remaining{'' if high is None else f' <= {high}'}"
    )
    lines = [
        f"{game.name}: {len(targets):,} targets ({targets.name}), {len(guesses):,} guesses "
        f"({guesses.name}); mode {args.mode} ({consider}); minimising {args.metric}",
        f'first guess: "{tree.first_guess}"',
        f"median: {stats.median:.0f} guesses, mean: {stats.mean:.2f} ± {stats.stdev:.2f}, "
        f"worst: {stats.worst}, best: {stats.best}",
        f"cumulative: {format_cumulative(stats)}",
        "evil replier's game: " + ", ".join(f"{guess} {reply}" for guess, reply in evil),
        f"built in {seconds:.3f} s ({tree.node_count:,} nodes)",
    ]
    return report, lines


def _first_guesses(args: argparse.Namespace) -> tuple[dict[str, object], list[str]]:
    """Rank every guess by each metric; return the JSON report and text lines."""
    if args.top < 1:
        raise UsageError("--top must be at least 1")
    game, targets, guesses = _load_lists(args)
    tables: dict[str, object] = {}
    lines = []
    for metric in args.metric or FIRST_GUESS_METRICS:
        ranked = first_guess_values(game, targets, guesses, metric, resolve_arithmetic(args))
        best, worst = ranked[: args.top], ranked[-args.top :]
        tables[metric] = {
            "best": [{"word": w, "value": v} for v, w in best],
            "worst": [{"word": w, "value": v} for v, w in worst],
        }
        places = {"max": 0, "expectation": 2}.get(metric, 3)

        def cells(rows: list[tuple[float, str]], places: int = places) -> str:
            return " ".join(f"{word}:{value:.{places}f}" for value, word in rows)

        lines.append(f"{metric:>11}: {cells(best)} | {cells(worst)}")
    report = {
        "game": game.id,
        "targets": len(targets),
        "guesses": len(guesses),
        "targets_list": targets.name,
        "guesses_list": guesses.name,
        "metrics": tables,
    }
    return report, lines


def _lists() -> tuple[list[dict[str, object]], list[str]]:
    """Return the shipped lists as JSON rows and text lines."""
    rows: list[dict[str, object]] = [
        {"name": name, "count": len(shipped_words(name)), "sha256": entry.sha256}
        for name, entry in SHIPPED.items()
    ]
    lines = [f"{r['name']:<22} {r['count']:>7,}  sha256 {r['sha256']}" for r in rows]
    return rows, lines


_COMMANDS = {"evaluate": _evaluate, "first-guesses": _first_guesses}


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv``; return the exit status.

    Bad input raises nothing: it is reported as one line on stderr.
    """
    try:
        args = build_parser().parse_args(argv)
        data, lines = _COMMANDS[args.command](args) if args.command in _COMMANDS else _lists()
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except GuessworkError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    print(json.dumps(data, indent=2) if args.json else "\n".join(lines))
    return 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
