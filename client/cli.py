"""``guesswork`` (also ``python -m guesswork``): suggestions for players and bots.

    guesswork suggest --policy NAME --history "RAISE:.Y...,CLOUT:G...." [--json]
    guesswork play --policy NAME          # an interactive helper
    guesswork policies [--json]
    guesswork bee top [--words enable1] [--allow-s] [-n N] [--json]
    guesswork bee score --letters AEGINRT --center R [--json]     (also: bee hints)

Each works against a service (``--server HOST:PORT``) or directly on a
catalog or policy file (``--store PATH``, default: the shipped catalog), with
the same output. Errors: one line on stderr, exit status 1 (2 for usage).

``--store`` answers in process through a backend handed to :func:`run` by the
entry point (guesswork.__main__ passes guesswork.service.local.LocalBackend,
which answers off-tree histories live with the builder's greedy step); this
module, like all of ``client``, imports neither ``builder`` nor ``service``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from guesswork.client.errors import GuessworkError, UsageError
from guesswork.client.suggestion import Suggestion

PROG = "guesswork"
History = list[tuple[str, str]]


class Backend(Protocol):
    """What the commands need: a service or a local store answer the same."""

    def suggest(self, policy: str, history: History, alternatives: int) -> Suggestion: ...

    def policies(self) -> list[dict[str, Any]]: ...

    def bee_top(self, word_list: str, allow_s: bool, count: int) -> list[dict[str, Any]]: ...

    def bee_score(
        self, letters: str, center: str, word_list: str, allow_s: bool
    ) -> dict[str, Any]: ...


class RemoteBackend:
    """Answers from a running service."""

    def __init__(self, address: str, timeout: float) -> None:
        from guesswork.client.remote import RemoteClient

        self._client = RemoteClient(address, timeout=timeout)

    def suggest(self, policy: str, history: History, alternatives: int) -> Suggestion:
        return self._client.suggest(policy, history, alternatives)

    def policies(self) -> list[dict[str, Any]]:
        return [
            {"name": p.name.removeprefix("policies/"), "game": p.game, "mode": p.mode,
             "metric": p.metric, "targets": p.targets_list, "guesses": p.guesses_list,
             "count": p.target_count, "mean": p.mean, "worst": p.worst,
             "content_hash": p.content_hash}
            for p in self._client.list_policies()
        ]  # fmt: skip

    def bee_top(self, word_list: str, allow_s: bool, count: int) -> list[dict[str, Any]]:
        return self._client.top_honeycombs(word_list, allow_s, count)[0]

    def bee_score(self, letters: str, center: str, word_list: str, allow_s: bool) -> dict[str, Any]:
        return self._client.score_honeycomb(letters, center, word_list, allow_s)


#: Makes the in-process backend for ``--store``: given the path (None: the shipped
#: catalog), returns a Backend. The in-process backend answers off-tree
#: histories live, which needs the builder, so it lives in guesswork.service.local
#: and is handed in by the entry point (guesswork.__main__) rather than
#: imported here: client imports neither builder nor service.
LocalBackendFactory = Callable[[str | None], Backend]


def parse_history(text: str) -> History:
    """Return the turns of ``"GUESS:REPLY,GUESS:REPLY"`` (empty text: no turns).

    Raises:
        UsageError: a turn lacks its colon, guess or reply.
    """
    turns = []
    for number, item in enumerate(filter(None, (part.strip() for part in text.split(","))), 1):
        guess, colon, reply = item.partition(":")
        if not colon or not guess.strip() or not reply.strip():
            raise UsageError(f"--history turn {number} {item!r} is not GUESS:REPLY")
        turns.append((guess.strip(), reply.strip()))
    return turns


def describe(answer: Suggestion) -> str:
    """Return a one-line human description of a suggestion."""
    if answer.solved:
        return f"solved: {answer.guess} in {answer.turn} guesses"
    others = f"; or {' '.join(answer.alternatives)}" if answer.alternatives else ""
    return f"{answer.guess}  ({answer.remaining} possible, {answer.source}){others}"


def _suggest(backend: Backend, args: argparse.Namespace) -> int:
    answer = backend.suggest(args.policy, parse_history(args.history), args.alternatives)
    print(json.dumps(answer.to_json()) if args.json else describe(answer))
    return 0


def _policies(backend: Backend, args: argparse.Namespace) -> int:
    rows = backend.policies()
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for row in rows:
            print(f"{row['name']:<48} {row['count']:>5} targets  mean {row['mean']:.2f} "
                  f"worst {row['worst']}")  # fmt: skip
    return 0


def _bee(backend: Backend, args: argparse.Namespace) -> int:
    if args.bee_command == "top":
        rows = backend.bee_top(args.words, args.allow_s, args.n)
        if args.json:
            print(json.dumps(rows, indent=2))
        else:
            for row in rows:
                print(f"{row['letters']}/{row['center']}  {row['score']:>6} points  "
                      f"{row['words']:>5} words  {row['pangrams']:>3} pangrams")  # fmt: skip
        return 0
    result = backend.bee_score(args.letters, args.center, args.words, args.allow_s)
    if args.bee_command == "hints":
        hints = result["hints"]
        if args.json:
            print(json.dumps(hints, indent=2))
        else:
            lengths = sorted({int(n) for row in hints["grid"].values() for n in row})
            print("     " + "".join(f"{n:>4}" for n in lengths) + "   all")
            for letter, row in hints["grid"].items():
                cells = "".join(f"{row.get(str(n), '-'):>4}" for n in lengths)
                print(f"  {letter}: {cells}  {sum(row.values()):>4}")
            print("  " + "  ".join(f"{start}-{n}" for start, n in hints["two_letter"].items()))
        return 0
    summary = {
        "letters": result["letters"],
        "center": result["center"],
        "score": result["score"],
        "words": len(result["words"]),
        "pangrams": len(result["pangrams"]),
        "ranks": result["ranks"],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{summary['letters']}/{summary['center']}: {summary['score']} points, "
              f"{summary['words']} words, {summary['pangrams']} pangrams "
              f"({', '.join(result['pangrams'])})")  # fmt: skip
        print("ranks: " + ", ".join(f"{name} {points}" for name, points in result["ranks"].items()))
    return 0


PLAY_HELP = (
    "Type the reply your game gave (e.g. .Y..G, gybbb, 01002, coloured squares, or a Jotto "
    "count); a blank line if the game refused the guess (take the next one); "
    "'WORD REPLY' if you played another word; q to quit."
)


def play(backend: Backend, policy: str, read: Callable[[str], str] = input) -> int:
    """Run the interactive helper: suggest, read the reply, repeat until solved."""
    print(f"{policy}: {PLAY_HELP}")
    history: History = []
    while True:
        answer = backend.suggest(policy, history, 20)
        if answer.solved:
            print(f"Solved in {len(history)} guesses.")
            return 0
        choices = [answer.guess, *answer.alternatives]
        choice = 0
        print(f"Guess {len(history) + 1}: {choices[0]}  ({answer.remaining} possible)")
        while True:
            try:
                line = read("reply> ").strip()
            except EOFError:
                print()
                return 0
            if line.lower() in ("q", "quit", "exit"):
                return 0
            if not line:
                choice += 1
                if choice >= len(choices):
                    print("No more alternatives; type the reply, or 'WORD REPLY'.")
                    choice = len(choices) - 1
                else:
                    print(f"Guess {len(history) + 1}: {choices[choice]}  (alternative {choice})")
                continue
            words = line.split()
            turn = (words[0], " ".join(words[1:])) if len(words) > 1 else (choices[choice], line)
            try:
                backend.suggest(policy, [*history, turn], 0)
            except GuessworkError as error:
                print(f"Not accepted: {error}")
                continue
            history.append(turn)
            break


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for every subcommand."""

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise UsageError(message)

    parser = Parser(prog=PROG, description="Next-guess suggestions from Guesswork policies.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        subparser = sub.add_parser(name, help=help_text, description=help_text)
        where = subparser.add_mutually_exclusive_group()
        where.add_argument("--server", help="HOST:PORT of a running guesswork-serve")
        where.add_argument("--store", help="catalog or policy file (default: the shipped catalog)")
        subparser.add_argument("--timeout", type=float, default=5.0, help="seconds per call")
        return subparser

    suggest = command("suggest", "suggest the next guess for a history")
    suggest.add_argument("--policy", required=True, help="policy name (see `guesswork policies`)")
    suggest.add_argument("--history", default="", help='turns "GUESS:REPLY,GUESS:REPLY"')
    suggest.add_argument("--alternatives", type=int, default=5, help="how many to rank")
    suggest.add_argument("--json", action="store_true", help="print one JSON object")
    interactive = command("play", "an interactive helper: it guesses, you type the replies")
    interactive.add_argument("--policy", default="wordle-2309-normal-neg-entropy")
    policies = command("policies", "list the policies")
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
        where = sub_bee.add_mutually_exclusive_group()
        where.add_argument("--server", help="HOST:PORT of a running guesswork-serve")
        where.add_argument("--store", help="catalog file (default: the shipped catalog)")
        sub_bee.add_argument("--timeout", type=float, default=5.0, help="seconds per call")
        sub_bee.add_argument("--words", default="enable1", help="word list name (default enable1)")
        sub_bee.add_argument(
            "--allow-s", action="store_true", help="allow S in words and honeycombs"
        )
        sub_bee.add_argument("--json", action="store_true", help="print JSON")
        if name == "top":
            sub_bee.add_argument("-n", type=int, default=10, help="how many (default 10)")
        else:
            sub_bee.add_argument("--letters", required=True, help="the seven letters")
            sub_bee.add_argument("--center", required=True, help="the centre letter")
    return parser


def run(argv: Sequence[str] | None = None, local: LocalBackendFactory | None = None) -> int:
    """Run the command line; return the exit status (errors: one line on stderr).

    ``local`` makes the backend for ``--store`` (and the default, the shipped
    catalog); without it only ``--server`` works.
    """
    try:
        args = build_parser().parse_args(argv)
        if args.server:
            backend: Backend = RemoteBackend(args.server, args.timeout)
        elif local is not None:
            backend = local(args.store)
        else:
            raise UsageError(
                "answering in process needs guesswork.service: run `guesswork` or "
                "`python -m guesswork`, or give --server"
            )
        if args.command == "suggest":
            status = _suggest(backend, args)
        elif args.command == "bee":
            status = _bee(backend, args)
        elif args.command == "policies":
            status = _policies(backend, args)
        else:
            status = play(backend, args.policy)
        sys.stdout.flush()  # surface a closed pipe here, inside the handler
        return status
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except GuessworkError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def main(local: LocalBackendFactory | None = None) -> None:
    """Run the command line and exit with its status (see :func:`run`)."""
    sys.exit(run(local=local))
