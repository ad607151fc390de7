"""What the three command lines share: one-line parse errors, defaults in ``--help``,
option values checked as they are parsed, and environment variables that are
checked and named like the options they stand for.

Only the standard library is imported: ``guesswork-serve`` parses its options
and refuses a bad one before it loads gRPC, numpy and the catalog reader.

Every check names what was wrong: an option's error reads ``argument
--processes: must be a whole number of at least 1, not '0'`` (argparse puts
the option's name first), an environment variable's ``$GUESSWORK_PROCESSES:
must be a whole number of at least 1, not 'abc'``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

#: Where a parse error goes when the command line does not choose (guesswork-serve).
EXIT_USAGE = 2


class OptionError(ValueError):
    """A command-line option, or the environment variable standing for it, is malformed."""


class DefaultsFormatter(argparse.HelpFormatter):
    """Help that ends each option's line with its default, where it has one worth saying.

    A default of None or False (an option that is off unless given) is not
    shown, nor one the help text already states.
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            default is None
            or default is False
            or default == ""
            or default == argparse.SUPPRESS
            or "default" in text
            or not action.option_strings
        ):
            return text
        # %% because argparse formats the help text with the action's fields.
        shown = str(default).replace("%", "%%")
        return f"{text} (default: {shown})" if text else f"default: {shown}"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, without the usage text.

    :meth:`error` raises :attr:`failure` (OptionError here; the guesswork and
    guesswork-build command lines raise their UsageError) with argparse's
    message, which names the option; the command line prints it and exits 2.
    Help shows defaults (:class:`DefaultsFormatter`).
    """

    failure: type[Exception] = OptionError

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Raise :attr:`failure` with ``message`` (argparse calls this on a bad command line)."""
        raise self.failure(message)


def whole(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """Return an argparse type: a whole number of at least ``minimum`` (and at most
    ``maximum``, if given).

    The returned function raises argparse.ArgumentTypeError naming the bounds
    and the text given.
    """
    bounds = f"of at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = minimum - 1
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"must be a whole number {bounds}, not {text!r}")
        return value

    parse.__name__ = f"whole number {bounds}"
    return parse


def day(text: str) -> datetime.date:
    """Parse a day option (``--date``, ``--from``, ``--to``): written YYYY-MM-DD, and
    only so (20260601 is refused).

    Raises:
        argparse.ArgumentTypeError: another form, or no such day (2026-02-30).
    """
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(
            f"a day is written YYYY-MM-DD, e.g. 2026-11-27, not {text[:40]!r}"
        )
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:  # the month or day is out of range: 2026-02-30
        raise argparse.ArgumentTypeError(f"{text!r} is not a day of the calendar") from None


def seconds(*, zero: bool) -> Callable[[str], float]:
    """Return an argparse type: a finite number of seconds, above 0 (or 0 too, if ``zero``).

    The returned function raises argparse.ArgumentTypeError naming the bound
    and the text given (nan and inf are refused).
    """
    bound = "0 or more" if zero else "more than 0"

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = float("nan")
        if not (0 <= value < float("inf")) or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"must be a number of seconds, {bound}, not {text!r}")
        return value

    parse.__name__ = f"seconds, {bound}"
    return parse


def host_port_problem(address: str, option: str, *, any_port: bool) -> str | None:
    """Return why ``address`` is not HOST:PORT, in one line naming ``option``; None if it is.

    The port is a number up to 65535, from 0 (any free port) when
    ``any_port`` (binding a server), else from 1 (reaching one). An IPv6 host
    is written in brackets. The host is not resolved here.
    """
    host, colon, port_text = address.rpartition(":")
    if not colon or not host or not port_text:
        return f"{option} {address!r} is not HOST:PORT (e.g. 127.0.0.1:50051)"
    lowest = 0 if any_port else 1
    if not port_text.isdigit() or not lowest <= int(port_text) <= 65535:
        span = "0 (any free port) to 65535" if any_port else "1 to 65535"
        return f"{option} {address!r}: the port must be a number from {span}"
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        return f"{option} {address!r}: write an IPv6 host in brackets, e.g. [::1]:{port_text}"
    return None


def server_address(text: str) -> str:
    """An argparse type for ``--server``: HOST:PORT of a running server (port 1 to 65535).

    Raises:
        argparse.ArgumentTypeError: it is not; the message says why.
    """
    problem = host_port_problem(text, "", any_port=False)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem.lstrip())
    return text


@dataclass(frozen=True)
class EnvironmentOption:
    """An option that an environment variable sets when the flag is not given."""

    flag: str
    dest: str
    variable: str
    parse: Callable[[str], Any]
    default: Any


def add_environment_option(
    parser: argparse.ArgumentParser,
    table: list[EnvironmentOption],
    flag: str,
    variable: str,
    parse: Callable[[str], Any],
    default: Any,
    help_text: str,
    shown_default: str | None = None,
) -> None:
    """Add ``flag`` to ``parser``, settable by ``$variable`` too; record it in ``table``.

    The parser's own default stays None, so :func:`settle_environment` can
    tell a flag given from one left out; the help names the variable and the
    default (``shown_default`` if given, else ``default`` unless it is None).
    """
    if shown_default is None and default is not None:
        shown_default = str(default)
    said = f"${variable}" + (f"; default: {shown_default}" if shown_default else "")
    action = parser.add_argument(
        flag, type=parse, default=None, help=f"{help_text} ({said})".replace("%", "%%")
    )
    table.append(EnvironmentOption(flag, action.dest, variable, parse, default))


def settle_environment(args: argparse.Namespace, table: list[EnvironmentOption]) -> dict[str, str]:
    """Fill each option of ``table`` left out on the command line: its variable, else its default.

    Returns {flag: variable} for the options a variable set, so a later check
    of their values can name the variable rather than the flag
    (:func:`as_given`).

    Raises:
        OptionError: a variable's value is malformed; the message names the
            variable and says what it must be.
    """
    from_environment: dict[str, str] = {}
    for option in table:
        if getattr(args, option.dest) is not None:
            continue
        text = os.environ.get(option.variable)
        if text is None or text == "":
            setattr(args, option.dest, option.default)
            continue
        try:
            setattr(args, option.dest, option.parse(text))
        except (argparse.ArgumentTypeError, ValueError) as error:
            raise OptionError(f"${option.variable}: {error}") from None
        from_environment[option.flag] = option.variable
    return from_environment


def as_given(problem: str, from_environment: dict[str, str]) -> str:
    """Return ``problem`` with each flag a variable set (:func:`settle_environment`)
    named as that variable: ``--address 'x' is not HOST:PORT`` becomes
    ``$GUESSWORK_ADDRESS 'x' is not HOST:PORT`` when the address came from it."""
    for flag, variable in from_environment.items():
        problem = re.sub(rf"{re.escape(flag)}(?=[ :]|$)", f"${variable}", problem)
    return problem
