"""Errors only the builder raises: building lists, trees, searches and catalogs.

Nothing here reaches a library user of ``guesswork.client`` or a client of the
service as its own kind of error (the service files any of them as INTERNAL);
errors they can see are in ``guesswork.client.errors``, which also has the
:class:`~guesswork.client.errors.UsageError` both command lines raise. Every
class keeps the bases it had where it was defined, so existing ``except
ValueError`` / ``except PolicyError`` clauses still catch it.
"""

from __future__ import annotations

from ..client.errors import GuessworkError, PolicyError


class WordListError(GuessworkError, ValueError):
    """A word list is missing, empty, malformed or fails its checksum."""


class WeightedListError(WordListError):
    """A weighted word list is empty or has a bad line, word or count."""


class PriorError(GuessworkError, ValueError):
    """A prior (answer likelihoods, builder.priors) cannot be made, read or used.

    For example: wordfreq is not installed, a parameter is out of range, a
    prior file has a bad line, word or weight, or the prior lacks a weight for
    some target.
    """


class GmwListError(GuessworkError):
    """The Guess My Word list cannot be made here (wordfreq is missing)."""


class SpecError(GuessworkError, ValueError):
    """A policy specification is contradictory (e.g. Antiwordle in normal mode)."""


class MatrixTooLargeError(GuessworkError, ValueError):
    """The reply matrix of the lists asked for (guesses x targets) would not fit in this
    machine's memory (builder.matrices.reply_matrix)."""


class IndistinguishableTargetsError(GuessworkError, ValueError):
    """Some targets give identical replies to every guess, so no tree can split them."""


class SearchError(GuessworkError, ValueError):
    """A search cannot run as asked, or its checkpoint cannot be used.

    For example: a worst-case cap no tree can meet, a reply matrix too large
    for memory, or a checkpoint that is unreadable, damaged or from another
    search.
    """


class InfeasibleCapError(SearchError):
    """No tree meets the worst-case cap (``--max-guesses``) asked for."""


class NoTreeBelowCeilingError(SearchError):
    """No tree has a value below the search's ceiling (``SearchOptions.ceiling``):
    every opener was refuted at the ceiling or above, which proves the ceiling a
    lower bound on the optimum."""

    def __init__(self, ceiling: int, bound: int | None = None) -> None:
        super().__init__(f"no tree has a value below {ceiling}")
        #: The ceiling, now a proven lower bound on every tree's value.
        self.ceiling = ceiling
        #: The best proven lower bound found on every tree's value: the ceiling or
        #: more (builder.optimal.INFEASIBLE, 2**40: no tree meets the cap at all).
        self.bound = ceiling if bound is None else max(bound, ceiling)


class BoundStoreError(SearchError):
    """A bound store (``optimize --bound-store``) cannot be used: it cannot be opened,
    read or written, is not a bound store, or has another format."""


class CatalogWriteError(PolicyError):
    """A catalog cannot be written where asked (not a file path, or I/O failed)."""


class CacheConfigError(GuessworkError, ValueError):
    """The reply-matrix cache's limit ($GUESSWORK_CACHE_MAX_BYTES) is not a size."""


class CalendarError(GuessworkError, ValueError):
    """An answer calendar (builder.calendar) cannot be read or merged.

    For example: a history file that is missing, unreadable or not a calendar
    CSV or NYT day, a row with a bad date, day number or word, a date twice in
    one file, or a date whose answer differs from the calendar's.
    """
