"""What the ``guesswork-build`` commands share as types: the :class:`Outcome` each
returns, and the option groups several commands take.

Each command takes one frozen dataclass of options (its own module defines it,
beside the command), built from the parsed command line by builder.cli, the one
place that reads argparse's namespace. A field is named as the option's
destination (``--jotto-order`` is ``jotto_order``); a field whose type is one of
the groups here (:class:`ListOptions`, :class:`TreeOptions`, :class:`Naming`,
:class:`PublishTarget`, :class:`DayOptions`) is filled from the same command line.
:class:`OptimizeOptions` is here too: ``optimize`` and its Absurdle form
(builder.search_commands, builder.absurdle_command) both take it. Repeated options
are tuples. What an option accepts and says is in builder.cli_options.

This module is at the bottom of the builder's command layer: it imports nothing
of the builder.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """What a command prints: JSON data, or text lines; and its exit status."""

    data: Any
    lines: list[str]
    status: int = 0


@dataclass(frozen=True)
class ListOptions:
    """The game and its word lists: ``--game``, ``--length`` (None: the game's own
    default), Mastermind's ``--colours`` and ``--pegs``, ``--targets``, ``--guesses``,
    ``--jotto-order``, ``--language``, ``--fold-accents`` and ``--arithmetic``
    (builder.cli_options.add_list_options)."""

    game: str
    length: int | None
    colours: int | None
    pegs: int | None
    targets: str
    guesses: str | None
    jotto_order: str
    language: str | None
    fold_accents: bool | None
    arithmetic: str


@dataclass(frozen=True)
class TreeOptions:
    """A greedy tree's options (builder.cli_options.add_tree_options): its lists,
    ``--weights``, ``--mode``, ``--metric``, ``--window``, ``--seed`` and
    ``--retry-percent``."""

    lists: ListOptions
    weights: str | None
    mode: str
    metric: str
    window: tuple[int, int | None]
    seed: int
    retry_percent: float | None


@dataclass(frozen=True)
class Naming:
    """``--name`` (None: the name the spec or file gives) and ``--replace``."""

    name: str | None
    replace: bool


@dataclass(frozen=True)
class PublishTarget:
    """Where a command stores a policy it built (builder.catalog_writes): into
    ``catalog`` (None: the user catalog) when ``publish``, under ``naming``, and
    into the policy file ``output`` when given."""

    catalog: str | None
    publish: bool
    naming: Naming
    output: str | None


@dataclass(frozen=True)
class DayOptions:
    """The calendar options (builder.cli_options.add_day_options): ``--date`` (None:
    not given) and ``--history``, a calendar CSV that replaces the calendar for the run."""

    date: datetime.date | None
    history: str | None


@dataclass(frozen=True)
class OptimizeOptions:
    """``optimize``'s options (builder.cli_options.add_optimize_options): the game, its
    lists and letter rule, the search's objective, cap, first guess, ceiling, beam and
    lead opener, Absurdle's challenge word, Mastermind's colours and pegs, where the
    search runs and what it keeps, and where the tree is stored (``target``)."""

    game: str
    length: int | None
    targets: str
    guesses: str | None
    weights: str | None
    mode: str
    jotto_order: str
    language: str | None
    fold_accents: bool | None
    objective: str
    max_guesses: int | None
    first_guess: str | None
    ceiling: int | None
    challenge: str | None
    lead_opener: str | None
    beam: int | None
    colours: int | None
    pegs: int | None
    workers: int | None
    scheduler: str | None
    memo_limit: int | None
    checkpoint: str | None
    bound_store: str | None
    target: PublishTarget
    quiet: bool
