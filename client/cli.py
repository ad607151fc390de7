"""``guesswork`` (also ``python -m guesswork``): suggestions for players and bots.

    guesswork suggest [--policy NAME] --history "RAISE:.Y...,CLOUT:G...." [--json]
    guesswork play [--hard] [--date D]    # today's game (TODAY); --policy NAME: another
                                          # (an interactive helper: guesswork.client.play)
    guesswork play --language es          # Wordle in Spanish (--length K: other lengths)
    guesswork play --boards 4             # Quordle (2: Dordle, 8: Octordle; any N to 32)
    guesswork suggest --board "RAISE:..Y.." --board "RAISE:G...." [--json]   # Dordle
    guesswork policies [--json]
    guesswork analyze --policy NAME --history "..." [--answer WORD] [--json] [--plot FILE]
    guesswork bee top [--words enable1] [--allow-s] [-n N] [--json]
    guesswork bee score --letters AEGINRT --center R [--json]     (also: bee hints)

Each works against a service (``--server HOST:PORT``) or directly on a
catalog or policy file (``--store PATH``; or a catalog database, ``--store
postgresql+psycopg://...``; default: the shipped catalog under the user's, see
guesswork.client.catalog), with
the same output. Errors: one line on stderr, exit status 1 (2 for usage);
under ``--json``, that line is a JSON object ``{"error": ..., "reason": ...}``
(the reason is client.errors.reason_of's: the service's stable reason where
the error has one, e.g. ``IMPOSSIBLE_REPLY``; ``USAGE`` for usage errors).
``--history`` also takes a pasted share text with its guesses (see
guesswork.client.replies.share_history).

With no ``--policy``, ``play`` and ``suggest`` say which policy they chose and
why (client.policy_choice.Choice): ``play`` at its start, ``suggest`` on
stderr before its answer (its stdout stays the answer alone) and under
``--json`` as ``policyReason``. ``policies`` and ``play`` say whether a
Wordle policy is guaranteed within the game's six guesses
(client.policy_info.guarantee).

``--json`` prints the answer's gRPC message in the proto's JSON mapping, the
JSON the HTTP edge answers (client.messages.json_text): lowerCamelCase keys,
enums by name (``"source": "SOURCE_STORED"``), a field at its default (0,
"", false, empty) left out. The command line adds only what the message
lacks: ``suggest`` the ``policy`` that answered (and ``policyReason``);
``analyze`` its ``policy`` as ``--policy`` takes it (the message's is
``policies/NAME``) and ``weights`` even when empty; ``policies`` prints one
``Policy`` message per policy with the listing's own keys
(client.messages.policy_json) and ``guarantee``. ``bee top`` prints a
TopHoneycombs response, ``bee score`` a ScoreHoneycomb response and ``bee
hints`` that response's ``grid`` and ``twoLetterStarts``.

Every command asks a client.core.Guesswork: ``--server`` a
client.remote.RemoteClient, ``--store`` the in-process one handed to
:func:`run` by the entry point (guesswork.__main__ passes
guesswork.service.local.LocalGuesswork.open, which answers off-tree histories
live with the builder's greedy step); this module, like all of ``client``,
imports neither ``builder`` nor ``service``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from guesswork import __version__, cli_args, install_hint
from guesswork.cli_args import whole

from .analysis import analysis_table
from .core import DEFAULT_ALTERNATIVES, MAX_ALTERNATIVES, Guesswork
from .errors import GuessworkError, UsageError, reason_of
from .games import MAX_LENGTH, MIN_LENGTH
from .letters import LANGUAGES
from .multiboard import MAX_BOARDS, VARIANTS
from .plots import picture_format, pyplot, save_analysis_plot
from .policy_choice import BUILD_TODAY, TODAY, choose_policy
from .policy_info import guarantee
from .progress import say, telling
from .replies import is_share_row, share_history
from .suggestion import LIVE_GUESS_LIST, Suggestion
from .text import plural, shown

# The interactive helpers (client.play, client.play_boards) are imported by the
# play command alone: a one-shot suggestion loads neither (a named boundary of
# tests/test_import_layers.py).
if TYPE_CHECKING:
    from .core import HoneycombReport
    from .multiboard import BoardsSuggestion

PROG = "guesswork"
#: The keys of a ScoreHoneycomb response's JSON that ``bee hints --json`` prints.
HINT_KEYS = ("grid", "twoLetterStarts")
History = list[tuple[str, str]]


#: Makes the in-process answers for ``--store``: given the path (None: the shipped
#: catalog and the user's over it), returns a client.core.Guesswork. They answer
#: off-tree histories live, which needs the builder, so they live in
#: guesswork.service.local and are handed in by the entry point
#: (guesswork.__main__) rather than imported here: client imports neither
#: builder nor service. ``--server`` answers through client.remote.RemoteClient.
LocalFactory = Callable[[str | None], Guesswork]


def parse_history(text: str) -> History:
    """Return the turns of ``"GUESS:REPLY,GUESS:REPLY"`` (empty text: no turns), or of
    a pasted share text given with its guesses (a line that is a row of coloured
    squares says which; see :func:`guesswork.client.replies.share_history`).

    Raises:
        UsageError: a turn lacks its colon, guess or reply; a share text's
            guesses are not as many as its rows.
        InvalidReplyError: a share text's row or header count is wrong.
    """
    if any(is_share_row(line) for line in text.splitlines()):
        return share_history(text)
    turns = []
    for number, item in enumerate(filter(None, (part.strip() for part in text.split(","))), 1):
        guess, colon, reply = item.partition(":")
        if not colon or not guess.strip() or not reply.strip():
            raise UsageError(f"--history turn {number} {shown(item)} is not GUESS:REPLY")
        turns.append((guess.strip(), reply.strip()))
    return turns


def describe(answer: Suggestion) -> str:
    """Return a one-line human description of a suggestion."""
    if answer.solved:
        return f"solved: {answer.guess} in {plural(answer.turn, 'guess')}"
    others = f"; or {' '.join(answer.alternatives)}" if answer.alternatives else ""
    source = answer.source
    if source == LIVE_GUESS_LIST:
        source += ": no target gives these replies, so the guess list's words are the secrets"
    return f"{answer.guess}  ({answer.remaining} possible, {source}){others}"


def describe_boards(answer: BoardsSuggestion) -> str:
    """Return a one-line human description of a multi-board suggestion."""
    counts = ", ".join(
        f"board {i}: {'solved' if board.solved else f'{board.remaining} possible'}"
        for i, board in enumerate(answer.boards, start=1)
    )
    if answer.solved:
        return f"solved: every board, in {plural(answer.turn, 'guess')} ({counts})"
    others = f"; or {' '.join(answer.alternatives)}" if answer.alternatives else ""
    turn = f"guess {answer.turn + 1} of {answer.guess_limit}, {answer.source}"
    return f"{answer.guess}  ({turn}; {counts}){others}"


def _suggest(backend: Guesswork, args: argparse.Namespace) -> int:
    if args.board is not None:
        boards = [parse_history(text) for text in args.board]
        several = backend.suggest_boards(args.policy, boards, args.alternatives)
        if args.json:
            from .messages import boards_suggestion_message, json_text

            print(json_text(boards_suggestion_message(several), {"policy": args.policy}))
        else:
            print(describe_boards(several))
        return 0
    answer = backend.suggest(args.policy, parse_history(args.history), args.alternatives)
    # The policy that answered: the one named, or the one today's game picked, and
    # why it was picked (no reason for a named one).
    reason = {} if args.policy_reason is None else {"policyReason": args.policy_reason}
    if args.json:
        from .messages import json_text, suggestion_message

        print(json_text(suggestion_message(answer), {"policy": args.policy, **reason}))
        return 0
    if args.policy_reason is not None:
        # On stderr, before the answer: scripts read the answer alone on stdout.
        print(f"Default policy {args.policy}: {args.policy_reason}", file=sys.stderr)
    print(describe(answer))
    return 0


def _policies(backend: Guesswork, args: argparse.Namespace) -> int:
    infos = backend.policies()
    if args.json:
        from .messages import policy_json

        rows = [{**policy_json(info), "guarantee": guarantee(info)} for info in infos]
        print(json.dumps(rows, indent=2))
        return 0
    for info in infos:
        language = f"  {info.language}" if info.language else ""
        # A weighted policy's mean is its expected guesses under its weights.
        weights = f"  weighted by {info.weights}" if info.weights else ""
        count = plural(info.count, "target")
        # Beside the worst case it follows from; the catalog, language and prior
        # stay last, where scripts (and grep) find them.
        guaranteed = guarantee(info)
        within = f"  {guaranteed}" if guaranteed else ""
        print(
            f"{info.name:<48} {count:>13}  mean {info.mean:.2f} worst {info.worst}{within}  "
            f"{info.catalog}{language}{weights}"
        )
    return 0


def _analyze(backend: Guesswork, args: argparse.Namespace) -> int:
    history = parse_history(args.history)
    if not history:
        raise UsageError("--history is empty: give the turns of the game to analyse")
    if args.plot:  # a wrong name, or no matplotlib, is refused before the work
        picture_format(args.plot)
        pyplot()
    # Seconds: each move's best guess and expected guesses, most of them computed live.
    say(f"analysing {plural(len(history), 'move')} against the best guess at each")
    analysis = backend.analyze(args.policy, history, args.answer or "")
    if args.plot:
        save_analysis_plot(analysis, args.plot)
    if args.json:
        # The policy's name as --policy takes it (the message's is policies/NAME), and
        # the weights even when none (the message leaves an empty one out).
        kept = {"policy": analysis.policy, "weights": analysis.weights}
        from .messages import analysis_message, json_text

        print(json_text(analysis_message(analysis), kept))
    else:
        print("\n".join(analysis_table(analysis)))
    if args.plot:
        # Said after the table; on stderr under --json, whose stdout is one JSON object.
        told = sys.stderr if args.json else sys.stdout
        print(f"wrote {args.plot}: the targets left per move", file=told)
    return 0


def _bee(backend: Guesswork, args: argparse.Namespace) -> int:
    # A second or so in process (the list read, its words scored; a list with no stored
    # table searched): said first.
    if args.bee_command == "top":
        say(f"bee: the best honeycombs of {args.words}")
        table = backend.top_honeycombs(args.words, args.allow_s, args.n)
        if args.json:
            from .messages import json_text, top_message

            print(json_text(top_message(table), indent=2))
            return 0
        for row in table.top:
            score, words = plural(row.score, "point"), plural(row.words, "word")
            pangrams = plural(row.pangrams, "pangram")
            print(f"{row.letters}/{row.center}  {score:>13}  {words:>11}  {pangrams:>12}")
        return 0
    say(f"bee: scoring {args.letters.upper()}/{args.center.upper()} over {args.words}")
    report = backend.score_honeycomb(args.letters, args.center, args.words, args.allow_s)
    if args.bee_command == "hints":
        _print_hints(report, args.json)
        return 0
    if args.json:
        from .messages import honeycomb_message, json_text

        print(json_text(honeycomb_message(report), indent=2))
        return 0
    comb = report.honeycomb
    print(
        f"{comb.letters}/{comb.center}: {plural(comb.score, 'point')}, "
        f"{plural(comb.words, 'word')}, {plural(comb.pangrams, 'pangram')} "
        f"({', '.join(report.pangrams)})"
    )
    print("ranks: " + ", ".join(f"{name} {points}" for name, points in report.ranks.items()))
    return 0


def _print_hints(report: HoneycombReport, as_json: bool) -> None:
    """Print a honeycomb's hint tables: JSON (its ScoreHoneycomb response's ``grid``
    and ``twoLetterStarts``), or the grid players know and the starts."""
    if as_json:
        from .messages import honeycomb_message, json_object

        answer = json_object(honeycomb_message(report))
        print(json.dumps({key: answer[key] for key in HINT_KEYS if key in answer}, indent=2))
        return
    hints = report.hints
    lengths = sorted({n for row in hints.grid.values() for n in row})
    print("     " + "".join(f"{n:>4}" for n in lengths) + "   all")
    for letter, row in hints.grid.items():
        cells = "".join(f"{row.get(n, '-'):>4}" for n in lengths)
        print(f"  {letter}: {cells}  {sum(row.values()):>4}")
    print("  " + "  ".join(f"{start}-{n}" for start, n in hints.two_letter.items()))


LENGTH_HELP = (
    "Wordle with words of this many letters: the catalog's policy for that length "
    "(4 to 11 are shipped, over enable1; 5 is the default policy)"
)


LANGUAGE_HELP = (
    "Wordle in this language: es, de, fr, el, ru (shipped), en, it, pt: the catalog's "
    "policy over a list of that language, e.g. wordle-es-5-top2000-normal-neg-entropy"
)


def _length(text: str) -> int:
    """Parse ``--length``: a Wordle word length the game allows (MIN_LENGTH to MAX_LENGTH)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not MIN_LENGTH <= value <= MAX_LENGTH:
        raise argparse.ArgumentTypeError(
            f"Wordle words have {MIN_LENGTH} to {MAX_LENGTH} letters, not {text!r}"
        )
    return value


def _boards(text: str) -> int:
    """Parse ``--boards``: a count from 1 to MAX_BOARDS, or a variant's name (dordle ...)."""
    if text.lower() in VARIANTS:
        return VARIANTS[text.lower()]
    if text.isdigit() and 1 <= int(text) <= MAX_BOARDS:
        return int(text)
    names = ", ".join(f"{name} ({count})" for name, count in VARIANTS.items())
    raise argparse.ArgumentTypeError(f"a game has 1 to {MAX_BOARDS} boards ({names}), not {text!r}")


POLICY_HELP = (
    "policy name (default: today's policy, see --date; else today's game's proven "
    f"optimum, guaranteed within 6 guesses, as --hard's default is; today's game: {TODAY})"
)
HARD_HELP = (
    "NYT hard mode (greens stay, yellows are used again): today's NYT-hard policy, the "
    "proven optimum within 6 guesses (wordle-3158-g14855-nyt-hard-optimal-cap6: TARSE, "
    "every opener settled), guaranteed within 6 as the normal-mode default is (a catalog without "
    "one: the greedy tree, which is not; play says which); with --length/--language a "
    "hard-mode one"
)
DATE_HELP = (
    "the day whose policy to follow, YYYY-MM-DD: the one built for it under that day's "
    f"answer calendar (`{BUILD_TODAY} --date D`), else today's game's (default: today)"
)


def _language(text: str) -> str:
    if text not in LANGUAGES:
        known = ", ".join(f"{code} ({language.name})" for code, language in LANGUAGES.items())
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {known}")
    return text


class Parser(cli_args.Parser):
    """The guesswork parser: one-line errors raised as UsageError (exit status 2)."""

    failure = UsageError


def _add_backend_options(parser: argparse.ArgumentParser, store: str) -> None:
    """Add where the answers come from (--server or --store) and --timeout to ``parser``."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--server", type=cli_args.server_address, help="HOST:PORT of a running guesswork-serve"
    )
    where.add_argument(
        "--store",
        help=f"{store}, or catalog database URL (postgresql+psycopg://...; "
        "default: the shipped catalog and the user's)",
    )
    parser.add_argument(
        "--timeout", type=cli_args.seconds(zero=False), default=5.0, help="seconds per call"
    )


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for every subcommand."""

    parser = Parser(
        prog=PROG,
        description="Next-guess suggestions from Guesswork policies.",
        epilog=f"With no --policy, play and suggest follow today's policy, built for the day "
        f"by `{BUILD_TODAY}` (--date: another day's), else today's game: {TODAY} (--hard: "
        "in NYT hard mode), each default guaranteed within 6 guesses; they say which and "
        "why. The 2022 game's policies stay, by name.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        subparser = sub.add_parser(name, help=help_text, description=help_text)
        _add_backend_options(subparser, "catalog or policy file")
        return subparser

    suggest = command("suggest", "suggest the next guess for a history")
    which = suggest.add_mutually_exclusive_group()
    which.add_argument("--policy", help=POLICY_HELP)
    which.add_argument("--length", type=_length, help=LENGTH_HELP)
    which.add_argument("--language", type=_language, help=LANGUAGE_HELP)
    turns = suggest.add_mutually_exclusive_group()
    turns.add_argument("--history", default="", help='turns "GUESS:REPLY,GUESS:REPLY"')
    turns.add_argument(
        "--board",
        action="append",
        metavar="HISTORY",
        help="a multi-board game (Dordle, Quordle, ...): one --board per board, each its "
        'turns as --history takes them ("" for a board not played yet)',
    )
    suggest.add_argument(
        "--alternatives",
        type=whole(0, MAX_ALTERNATIVES),
        default=DEFAULT_ALTERNATIVES,
        help="how many next-best guesses to rank",
    )
    suggest.add_argument("--json", action="store_true", help="print one JSON object")
    interactive = command("play", "an interactive helper: it guesses, you type the replies")
    which = interactive.add_mutually_exclusive_group()
    which.add_argument("--policy", help=POLICY_HELP)
    which.add_argument("--length", type=_length, help=LENGTH_HELP)
    which.add_argument("--language", type=_language, help=LANGUAGE_HELP)
    interactive.add_argument(
        "--boards",
        type=_boards,
        help=f"a multi-board game: 2 (Dordle), 4 (Quordle), 8 (Octordle), up to {MAX_BOARDS}, "
        "or the game's name; normal mode, the policy's lists",
    )
    for chooser in (suggest, interactive):
        chooser.add_argument("--hard", action="store_true", help=HARD_HELP)
        chooser.add_argument("--date", type=cli_args.day, metavar="D", help=DATE_HELP)
    policies = command("policies", "list the policies")
    analyze = command("analyze", "analyse a game: each move's skill and luck, and the totals")
    analyze.add_argument("--policy", required=True, help="policy name (see `guesswork policies`)")
    analyze.add_argument(
        "--history",
        required=True,
        help='the turns "GUESS:REPLY,GUESS:REPLY", or a share text with its guesses',
    )
    analyze.add_argument("--answer", help="the game's answer, if known (a won game's is its last)")
    analyze.add_argument("--json", action="store_true", help="print one JSON object")
    analyze.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the targets left per move against the best guess's (.png, .svg, .pdf; "
        f"needs matplotlib: {install_hint('plots')})",
    )
    analyze.set_defaults(timeout=60.0)  # an analysis may take seconds
    policies.add_argument("--json", action="store_true", help="print a JSON array")
    bee = sub.add_parser("bee", help="Spelling Bee: top honeycombs, scores and hints")
    bee_sub = bee.add_subparsers(dest="bee_command", required=True, parser_class=Parser)
    bee_commands = {
        "top": "the best honeycombs of a word list",
        "score": "a honeycomb's score, words, pangrams and ranks",
        "hints": "a honeycomb's hint grid and two-letter starts",
    }
    for name, help_text in bee_commands.items():
        sub_bee = bee_sub.add_parser(name, help=help_text, description=help_text)
        _add_backend_options(sub_bee, "catalog file")
        sub_bee.add_argument("--words", default="enable1", help="word list name")
        sub_bee.add_argument(
            "--allow-s", action="store_true", help="allow S in words and honeycombs"
        )
        sub_bee.add_argument("--json", action="store_true", help="print JSON")
        if name == "top":
            sub_bee.add_argument("-n", type=whole(1), default=10, help="how many")
        else:
            sub_bee.add_argument("--letters", required=True, help="the seven letters")
            sub_bee.add_argument("--center", required=True, help="the centre letter")
    return parser


def report_error(prog: str, error: GuessworkError, status: int, as_json: bool) -> int:
    """Print ``error`` as the command lines do and return ``status``: one line on
    stderr, ``PROG: error: MESSAGE``, or under ``--json`` the JSON object
    ``{"error": MESSAGE, "reason": REASON}`` (see client.errors.reason_of), with
    ``"metadata"`` added when the error carries any (the turn, field, limit ...
    as the service sends them)."""
    if as_json:
        report: dict[str, object] = {"error": str(error), "reason": reason_of(error)}
        if error.metadata:
            report["metadata"] = error.metadata
        print(json.dumps(report), file=sys.stderr)
    else:
        print(f"{prog}: error: {error}", file=sys.stderr)
    return status


def run(argv: Sequence[str] | None = None, local: LocalFactory | None = None) -> int:
    """Run the command line; return the exit status (errors: one line on stderr).

    ``local`` makes the in-process answers for ``--store`` (and the default, the shipped
    catalog and the user's); without it only ``--server`` works.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in arguments  # read before parsing: a usage error is JSON too
    try:
        args = build_parser().parse_args(arguments)
        if args.server:
            from .remote import RemoteClient

            backend: Guesswork = RemoteClient(args.server, timeout=args.timeout)
        elif local is not None:
            backend = local(args.store)
        else:
            raise UsageError(
                "answering in process needs guesswork.service: run `guesswork` or "
                "`python -m guesswork`, or give --server"
            )
        several = getattr(args, "boards", None) is not None or getattr(args, "board", None)
        if several and args.hard:
            raise UsageError("multi-board games are played in normal mode: drop --hard")
        if args.command in ("suggest", "play"):
            # A multi-board game's secrets are not one day's answer: no calendar policy.
            choice = choose_policy(
                backend.policies(),
                args.policy,
                args.length,
                args.language,
                args.hard,
                args.date,
                calendar=not several,
            )
            args.policy = choice.name
            # Said for a one-board game only: a multi-board one plays today's lists.
            args.policy_reason = None if several else choice.reason
        if args.command == "suggest":
            with telling():  # a next guess computed live is said first (client.progress)
                status = _suggest(backend, args)
        elif args.command == "bee":
            status = _bee(backend, args)
        elif args.command == "analyze":
            status = _analyze(backend, args)
        elif args.command == "policies":
            status = _policies(backend, args)
        elif args.boards is not None:
            from .play_boards import play_boards

            with telling():
                status = play_boards(backend, args.policy, args.boards)
        else:
            from .play import play

            with telling():
                status = play(backend, args.policy, reason=args.policy_reason)
        sys.stdout.flush()  # surface a closed pipe here, inside the handler
        return status
    except UsageError as error:
        return report_error(PROG, error, 2, as_json)
    except GuessworkError as error:
        return report_error(PROG, error, 1, as_json)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def main(local: LocalFactory | None = None) -> None:
    """Run the command line and exit with its status (see :func:`run`)."""
    sys.exit(run(local=local))
