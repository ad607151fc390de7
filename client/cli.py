"""``guesswork`` (also ``python -m client``): suggestions for players and bots.

    guesswork suggest --policy NAME --history "RAISE:.Y...,CLOUT:G...." [--json]
    guesswork play --policy NAME          # an interactive helper
    guesswork policies [--json]

Each works against a service (``--server HOST:PORT``) or directly on a
catalog or policy file (``--store PATH``, default: the shipped catalog), with
the same output. Errors: one line on stderr, exit status 1 (2 for usage).

``--store`` answers off-tree histories with the service's engine in process
(it needs the builder's compiled search); this command is the one place in
``client`` that loads it, and only for ``--store``. The client library itself
(probe, remote client) imports neither ``builder`` nor ``service``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from client.errors import GuessworkError
from client.policy_format import FILE_MAGIC
from client.suggestion import Suggestion

PROG = "guesswork"
History = list[tuple[str, str]]


class UsageError(GuessworkError):
    """A command-line option is malformed."""


class Backend(Protocol):
    """What the commands need: a service or a local store answer the same."""

    def suggest(self, policy: str, history: History, alternatives: int) -> Suggestion: ...

    def policies(self) -> list[dict[str, Any]]: ...


class RemoteBackend:
    """Answers from a running service."""

    def __init__(self, address: str, timeout: float) -> None:
        from client.remote import RemoteClient

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


class LocalBackend:
    """Answers from a catalog or policy file, computing off-tree answers in process."""

    def __init__(self, path: str | None) -> None:
        from client.catalog import default_catalog, open_catalog, open_policy_file
        from service.engine import Engine  # the deliberate exception: see the module docstring

        location = path or default_catalog()
        opener = open_policy_file if _is_policy_file(location) else open_catalog
        self._engine = Engine(opener(location))

    def suggest(self, policy: str, history: History, alternatives: int) -> Suggestion:
        return self._engine.policy(policy).suggest(history, alternatives)

    def policies(self) -> list[dict[str, Any]]:
        return [info.to_json() for info in self._engine.catalog.list()]


def _is_policy_file(path: str) -> bool:
    """Return True if ``path`` starts with the policy-file magic (else: a catalog)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(FILE_MAGIC)) == FILE_MAGIC
    except OSError:
        return False  # open_catalog reports the missing file


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
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (errors: one line on stderr)."""
    try:
        args = build_parser().parse_args(argv)
        backend: Backend = (
            RemoteBackend(args.server, args.timeout) if args.server else LocalBackend(args.store)
        )
        if args.command == "suggest":
            status = _suggest(backend, args)
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


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
