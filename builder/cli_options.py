"""The options of ``guesswork-build``: value types and the option groups its commands share.

builder.cli assembles the commands from these groups and dispatches them;
here is what each option accepts and says. A value that does not parse is a
UsageError naming the option, so the command ends with one line and status 2.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable
from typing import Any

from guesswork import install_hint
from guesswork.cli_args import day, whole

from ..client import cli as client_cli
from ..client.errors import UsageError
from ..client.games import GAMES, GuessMyWord
from ..client.letters import LANGUAGES
from ..client.multiboard import MAX_BOARDS, VARIANTS
from ..client.rules import MODES
from . import prior_making
from .metrics import ARITHMETIC, DEFAULT_WINDOW, METRICS
from .optimal.memo import DEFAULT_MEMO_LIMIT
from .optimal.problem import OBJECTIVES

#: Games whose trees the greedy and optimal builders grow (Guess My Word's are
#: built by builder.guess_my_word; ``evaluate`` offers it too).
TREE_GAMES = sorted(game for game in GAMES if game != GuessMyWord.id)


MODE_HELP = (
    "hard: guesses from the targets still possible (the seeds'); normal: any guess; "
    "nyt-hard (Wordle): any guess the NYT hard rule allows (greens stay, yellows reused)"
)


#: guesswork's parser: one-line errors raised as UsageError, defaults in --help.
Parser = client_cli.Parser


class RenamedFlag(argparse.Action):
    """A flag renamed: it still sets its destination, and says on stderr what it is now."""

    def __init__(self, option_strings: list[str], dest: str, new_name: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)
        self.new_name = new_name

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(
            f"{parser.prog}: note: {option_string} is now {self.new_name}; the old name will go",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, True)


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


def policy_name(text: str) -> str:
    """Return ``text`` if it can name a policy: lower-case letters, digits and hyphens.

    Names are resource ids (``policies/NAME`` over gRPC) in the house
    vocabulary, so they follow the names the builder derives.

    Raises:
        UsageError: anything else, or over 100 characters.
    """
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", text) or len(text) > 100:
        raise UsageError(
            f"--name {text!r} must be lower-case letters and digits in hyphen-separated "
            f"words, at most 100 characters (e.g. my-list-normal-neg-entropy)"
        )
    return text


def percent(text: str) -> float:
    """Return ``--retry-percent``'s value.

    Raises:
        UsageError: not a number in (0, 100].
    """
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--retry-percent {text!r} is not a number") from None
    if not 0 < value <= 100:
        raise UsageError(f"--retry-percent {text!r} must be more than 0 and at most 100")
    return value


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalog",
        default=None,
        help="catalog file or database URL (postgresql+psycopg://USER@HOST:PORT/DATABASE), "
        "read or written alone (default: writes go to the user catalog, "
        "$GUESSWORK_CATALOG or $XDG_DATA_HOME/guesswork/catalog.sqlite; reads see it "
        "over the shipped one)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_naming(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name",
        type=policy_name,
        help="the policy's name in the catalog (default: from the options or the file)",
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="overwrite a policy of the same name already in the catalog",
    )


def add_mastermind_options(parser: argparse.ArgumentParser) -> None:
    """Add Mastermind's ``--colors``/``--colours`` and ``--pegs`` (its code length), the
    same in optimize and in the list options of the greedy commands."""
    parser.add_argument(
        "--colors",
        "--colours",
        dest="colours",
        type=positive,
        help="mastermind: number of colours (default 6)",
    )
    parser.add_argument("--pegs", type=positive, help="mastermind: code length (default 4)")


def add_list_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="wordle", choices=TREE_GAMES, help="game id")
    parser.add_argument("--length", type=positive, help="word length (default 5)")
    add_mastermind_options(parser)
    parser.add_argument(
        "--targets",
        default="wordle-answers-2309",
        help="target list: a shipped list name, a file path, or - for stdin",
    )
    parser.add_argument("--guesses", help="guess list (default: the target list)")
    parser.add_argument(
        "--jotto-order",
        default="sorted",
        choices=("sorted", "first-seen"),
        help="order of the derived Jotto list: sorted (2022 seed) or first-seen (2020 seed)",
    )
    add_letter_options(parser)
    parser.add_argument(
        "--arithmetic",
        default="auto",
        choices=["auto", *sorted(ARITHMETIC)],
        help="seed notebook whose float arithmetic breaks metric near-ties; auto (default): "
        "2020 when the other options follow the 2020 notebook (--jotto-order first-seen or "
        "a window without upper bound), else 2022",
    )


def add_letter_options(parser: argparse.ArgumentParser, *, language_required: bool = False) -> None:
    """Add ``--language`` and ``--fold-accents``/``--no-fold-accents``: how a list's
    letters are read (client.letters; shipped lists are read as they are)."""
    parser.add_argument(
        "--language",
        choices=sorted(LANGUAGES),
        required=language_required,
        help="the list's language: its letter rule (es: accents folded, Ñ kept; fr, it, pt, "
        "el: folded; de: kept; ru: folded, Й kept; default: accents kept)",
    )
    folding = parser.add_mutually_exclusive_group()
    folding.add_argument(
        "--fold-accents",
        dest="fold_accents",
        action="store_true",
        default=None,
        help="fold accents (á -> a) except the language's own letters (ñ, ä ö ü, й)",
    )
    folding.add_argument(
        "--no-fold-accents",
        dest="fold_accents",
        action="store_false",
        help="keep every accent as a letter of its own (á is not a)",
    )


WEIGHTS_HELP = (
    "how likely each target is the secret: a shipped prior (wordfreq) or a file of "
    "'WORD WEIGHT' lines, weights positive integers (guesswork-build priors makes one); "
    "the tree then minimises the expected guesses under it (default: targets alike)"
)


def add_tree_options(parser: argparse.ArgumentParser, *, guess_my_word: bool = False) -> None:
    add_list_options(parser)
    parser.add_argument("--weights", metavar="PRIOR", help=WEIGHTS_HELP)
    if guess_my_word:
        for action in parser._actions:
            if action.dest == "game":
                action.choices = [*TREE_GAMES, GuessMyWord.id]
        parser.add_argument(
            "--strategy",
            choices=("binary", "adjacent-merge", "optimal"),
            help="guess-my-word only: the tree (default optimal)",
        )
        parser.add_argument(
            "--variant",
            choices=("deduce", "live"),
            help="guess-my-word only: deduce (the seed's; default) or live (a right guess wins)",
        )
        parser.add_argument(
            "--samples",
            type=positive,
            default=100_000,
            help="guess-my-word only: games sampled for the seed's estimate (default 100000)",
        )
    parser.add_argument("--mode", default="normal", choices=MODES, help=MODE_HELP)
    parser.add_argument("--metric", default="neg_entropy", choices=list(METRICS))
    parser.add_argument(
        "--window",
        type=parse_window,
        default=DEFAULT_WINDOW,
        help="normal mode: consider every guess when MIN <= remaining <= MAX (default 4:125)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random guesser")
    parser.add_argument(
        "--retry-percent",
        type=percent,
        metavar="A",
        help="approx_entropy: compute the exact entropy of the best A%% of the guesses by "
        "their letter-entropy estimate (default 3, the Wordle-player seed's)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


#: A whole number of at least 1 (argparse names the option in its error).
positive = whole(1)


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def memory_size(text: str) -> int | None:
    """Return a size in bytes from ``512M``, ``2G``, ``1500000`` (binary units), or
    None for ``none`` (no limit)."""
    cleaned = text.strip().upper().removesuffix("B").removesuffix("I")
    if cleaned == "NONE":
        return None
    unit = cleaned[-1:] if cleaned[-1:] in _SIZE_UNITS else ""
    number = cleaned[: len(cleaned) - len(unit)]
    try:
        value = float(number) * _SIZE_UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size (e.g. 512M, 2G, or none)"
        ) from None
    if not 1 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1 byte")
    return int(value)


def add_optimize_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default="wordle",
        choices=(*TREE_GAMES, "absurdle"),
        help="game id; absurdle: the fewest guesses that beat its adversary (a line, proven)",
    )
    parser.add_argument("--length", type=positive, help="word length (default 5)")
    parser.add_argument(
        "--targets",
        default="wordle-answers-2309",
        help="target list: a shipped list name, a file path, or - for stdin",
    )
    parser.add_argument("--guesses", help="guess list (default: the target list)")
    parser.add_argument("--weights", metavar="PRIOR", help=WEIGHTS_HELP)
    parser.add_argument("--mode", default="normal", choices=MODES, help=MODE_HELP)
    parser.add_argument(
        "--jotto-order",
        default="sorted",
        choices=("sorted", "first-seen"),
        help="order of the derived Jotto list",
    )
    add_letter_options(parser)
    parser.add_argument(
        "--objective",
        default="total",
        choices=OBJECTIVES,
        help="total: least total (= mean) guesses; minimax: least worst case; "
        "total-then-worst: least total, then the least worst case among those trees; "
        "worst-then-total: least worst case, then the least total among those trees",
    )
    parser.add_argument(
        "--max-guesses",
        type=positive,
        help="not with minimax: every target must be solved within this many guesses",
    )
    parser.add_argument("--first-guess", help="fix the first guess (proof is then given it)")
    parser.add_argument(
        "--ceiling",
        type=positive,
        metavar="N",
        help="the total objectives: look only for a tree of value below N; if there is "
        "none (every opener, or the --first-guess, refuted at N or above) the command "
        "still succeeds and reports refuted with a proven lower bound of N or more",
    )
    parser.add_argument(
        "--challenge",
        metavar="WORD",
        help="absurdle: challenge mode, the fewest guesses that force WORD (a target) last",
    )
    parser.add_argument(
        "--lead-opener",
        metavar="WORD",
        help="a search over every first guess searches WORD first, for a value to beat "
        "(default: the guess of least static bound); a good one (the best known) lets the "
        "first pass refute far more openers; the tree and its proof are the same",
    )
    parser.add_argument(
        "--beam",
        type=positive,
        help="lookahead: search only the best K guesses (greedy ranking) at each node",
    )
    add_mastermind_options(parser)
    parser.add_argument(
        "--workers",
        type=positive,
        help="worker processes; more than 1 runs the search on a local Dask cluster "
        "(a process pool without Dask). Default: every core for a search over every "
        "first guess of at least 10 million targets x guesses when Dask is installed "
        "(smaller ones, like Mastermind 6x4, are faster in one process), else 1",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the search on the Dask cluster whose scheduler is at ADDRESS "
        f"(tcp://HOST:PORT), on all of its workers; needs {install_hint('cluster')}",
    )
    parser.add_argument(
        "--memo-limit",
        type=memory_size,
        default=DEFAULT_MEMO_LIMIT,
        metavar="SIZE",
        help="most memory each search process's memo may take (e.g. 512M, 2G, or none; "
        "default 1G); the oldest entries are evicted past it: slower, same tree",
    )
    parser.add_argument(
        "--checkpoint", help="file recording finished root branches; a rerun resumes from it"
    )
    parser.add_argument(
        "--bound-store",
        metavar="PATH",
        help="SQLite file of target sets' exact values and bounds, shared by the workers and "
        "kept between runs: a later search of the same lists and options (any first guess) "
        "reuses them; the tree is the same. Default $GUESSWORK_BOUND_STORE, else none. At "
        "most $GUESSWORK_BOUND_STORE_MAX_ROWS rows (default 2,000,000, ~80 bytes each), "
        "least recently used out first",
    )
    parser.add_argument("--publish", action="store_true", help="publish the tree into the catalog")
    # --store meant this before "store" came to mean only where answers are read
    # from (guesswork --store); kept working, with a line saying the new name.
    parser.add_argument(
        "--store", action=RenamedFlag, dest="publish", new_name="--publish", help=argparse.SUPPRESS
    )
    parser.add_argument("--output", help="also write the tree as a policy file (.gwp)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def prior_number(
    option: str, whole: bool, allowed: Callable[[float], bool], rule: str
) -> Callable[[str], float]:
    """Return the parser of one of ``priors``' numeric options: an int (``whole``)
    or a float for which ``allowed`` holds, else a one-line UsageError naming
    ``option`` and the ``rule``."""

    def parse(text: str) -> float:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            kind = "a whole number" if whole else "a number"
            raise UsageError(f"{option} {text!r} is not {kind}") from None
        if not (math.isfinite(value) and allowed(value)):
            raise UsageError(f"{option} {text!r} must be {rule}")
        return value

    return parse


def add_priors_options(parser: argparse.ArgumentParser) -> None:
    """Add ``priors``' options (builder.priors; the defaults are 3Blue1Brown's)."""
    parser.add_argument(
        "--words",
        default="wordle-guesses-14855",
        metavar="LIST",
        help="the words: a shipped list name, a file path, or - for stdin "
        "(default wordle-guesses-14855)",
    )
    parser.add_argument("--length", type=positive, default=5, help="word length (default 5)")
    parser.add_argument("--output", metavar="FILE", help="file to write (default: stdout)")
    parser.add_argument(
        "--language",
        default=prior_making.DEFAULT_LANGUAGE,
        metavar="CODE",
        help="wordfreq's language (default %(default)s)",
    )
    parser.add_argument(
        "--width",
        type=prior_number("--width", False, lambda v: v > 0, "above 0"),
        default=prior_making.DEFAULT_WIDTH,
        metavar="X",
        help="width of the sigmoid's stretch of the number line "
        f"(default {prior_making.DEFAULT_WIDTH:g})",
    )
    parser.add_argument(
        "--common",
        type=prior_number("--common", True, lambda v: v >= 1, "at least 1"),
        default=prior_making.DEFAULT_COMMON,
        metavar="N",
        help="about how many words land above likelihood 1/2 "
        f"(default {prior_making.DEFAULT_COMMON})",
    )
    for kind in ("plural", "past"):
        parser.add_argument(
            f"--{kind}-factor",
            default=prior_making.DEFAULT_PLURAL_FACTOR
            if kind == "plural"
            else prior_making.DEFAULT_PAST_FACTOR,
            metavar="F",
            type=prior_number(
                f"--{kind}-factor", False, lambda v: 0 < v <= 1, "more than 0 and at most 1"
            ),
            help=f"multiplies the likelihood of a word judged a {kind}"
            f"{' tense' if kind == 'past' else ''} (default %(default)g)",
        )
    parser.add_argument(
        "--scale",
        type=prior_number("--scale", True, lambda v: v >= 1, "at least 1"),
        default=prior_making.DEFAULT_SCALE,
        metavar="N",
        help=f"weight = max(1, round(likelihood * N)) (default {prior_making.DEFAULT_SCALE})",
    )
    parser.add_argument(
        "--calendar",
        action="store_true",
        help="instead, day --date's calendar prior over today's lists: unused answers, used "
        "ones and other words weighted by what the answers before that day show "
        "(builder.calendar_prior; no wordfreq needed)",
    )
    add_day_options(parser, "--calendar: the day whose answer it weighs")


def add_day_options(parser: argparse.ArgumentParser, date_help: str) -> None:
    """Add ``--date D`` and ``--history FILE`` (the calendar options)."""
    parser.add_argument("--date", type=day, metavar="D", help=date_help + " (YYYY-MM-DD)")
    parser.add_argument(
        "--history",
        metavar="FILE",
        help="a calendar CSV (date,number,word) that replaces the shipped calendar and your "
        "added days for this run",
    )


def add_today_options(parser: argparse.ArgumentParser) -> None:
    """Add ``today``'s options."""
    add_day_options(parser, "the day (default: today)")
    parser.add_argument(
        "--mode", choices=("normal", "nyt-hard"), help="build only this mode (default: both)"
    )
    parser.add_argument(
        "--workers",
        type=positive,
        default=1,
        help="processes for each search (default 1; the trees are the same)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def add_backtest_options(parser: argparse.ArgumentParser) -> None:
    """Add ``backtest``'s options."""
    parser.add_argument(
        "--from", dest="first", type=day, required=True, metavar="D1", help="first day"
    )
    parser.add_argument(
        "--to", dest="last", type=day, required=True, metavar="D2", help="last day (included)"
    )
    parser.add_argument(
        "--mode", choices=("normal", "nyt-hard"), default="normal", help="(default normal)"
    )
    parser.add_argument(
        "--history",
        metavar="FILE",
        help="a calendar CSV (date,number,word) that replaces the shipped calendar for the run",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def days(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--older-than {text!r} is not a number of days") from None
    if not 0 <= value < float("inf"):
        raise UsageError(f"--older-than {text!r} must be a finite number of days, at least 0")
    return value


def add_cache_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``cache info|clean``: the reply-matrix disk cache (no catalog involved)."""
    about = "show or empty the caches: reply matrices and the proof record ($GUESSWORK_CACHE)"
    cache = sub.add_parser("cache", help=about, description=about)
    actions = cache.add_subparsers(
        dest="cache_command", metavar="{info,clean}", required=True, parser_class=Parser
    )
    info = actions.add_parser(
        "info",
        help="the folder, its files, their size and the limit; the proof record's count",
        description="Show the cache folder, its reply matrices (latest used first), their "
        "size and the limit ($GUESSWORK_CACHE_MAX_BYTES), and how many policies the proof "
        "record holds.",
    )
    info.add_argument("--json", action="store_true", help="print JSON")
    # clean's options, as info has them: none given (the command's options are one type).
    info.set_defaults(matrices=False, proofs=False, older_than=None)
    clean = actions.add_parser(
        "clean",
        help="remove cached matrices and proof records",
        description="Remove every cached matrix and temporary file and every proof record "
        "(or only those unused, or recorded, DAYS days ago or more) and say what was freed; "
        "--matrices or --proofs clears only that cache. A policy whose proof record is "
        "removed is proven again on its next use.",
    )
    clean.add_argument(
        "--matrices",
        action="store_true",
        help="only the reply matrices (and their temporary files)",
    )
    clean.add_argument(
        "--proofs", action="store_true", help="only the proof record (policies proven here)"
    )
    clean.add_argument(
        "--older-than",
        type=days,
        metavar="DAYS",
        help="only files not used for DAYS days (may be fractional)",
    )
    clean.add_argument("--json", action="store_true", help="print JSON")


def add_boards_options(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``guesswork-build boards`` to ``parser``."""
    parser.add_argument("--policy", required=True, help="a Wordle policy: its lists are played")
    parser.add_argument(
        "--boards",
        required=True,
        help=f"boards per game: 1 to {MAX_BOARDS}, or {', '.join(VARIANTS)}",
    )
    parser.add_argument("--limit", type=int, help="guess limit (default: the boards plus five)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--every-pair",
        action="store_true",
        help="two boards: every ordered pair of distinct secrets, counted exactly",
    )
    which.add_argument("--games", type=int, default=10_000, help="games in the sample (10000)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (0)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
