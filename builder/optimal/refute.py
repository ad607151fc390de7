"""Refuting one opener under a cap and a ceiling, before its full search.

A search under a cap with a value to beat (a tie-break's capped search, one
opener asked whether it beats a known value: ``optimize --ceiling``, or the
survivors of a search over every opener, which must beat the best opener so
far) mostly refutes. Two ways are tried before the opener's full capped
search (:meth:`.root.RootSearch.evaluate_root`), cheapest first:

* :func:`capped_probe`: the capped search itself, each class of the opener
  smallest first, stopped after :data:`PROBE_EXPANSIONS` sets expanded. When
  an opener cannot finish within the cap the dead end is nearly always in a
  small class, found within a few dozen sets (NYT hard, cap 6, 3158 x 14855:
  SAPID in 75, URENT in 120, where the uncapped search took 6 s and 3 s);
  what it proved stays in the memo for the full search;
* :func:`uncapped_search`'s twin (``RootSearch._uncapped_refutation``): a tree
  within the cap is a tree, and where the ceiling is the uncapped optimum + 1
  (a tie-break) nearly every opener's uncapped tree reaches it, which the
  uncapped search proves far faster than the capped one.
"""

from __future__ import annotations

import dataclasses
import weakref

import numpy as np

from .search import Search

#: Sets a capped probe may expand before it gives up (see :func:`capped_probe`):
#: past the few dozen a dead end in a small class takes, and few enough that a
#: probe that finds none costs seconds where the uncapped refutation then pays.
PROBE_EXPANSIONS = 256

#: Each capped search's uncapped twin (see :func:`uncapped_search`), kept while it lives.
_UNCAPPED: weakref.WeakKeyDictionary[Search, Search] = weakref.WeakKeyDictionary()


def uncapped_search(search: Search) -> Search:
    """Return the search of ``search``'s problem without its cap or ceiling (in process,
    no bound store), made on first use and kept with its memo beside ``search`` (on a
    cluster worker too); it polls as ``search`` does (a worker's budget)."""
    free = _UNCAPPED.get(search)
    if free is None:
        options = dataclasses.replace(
            search.options,
            max_guesses=None,
            ceiling=None,
            bound_store=None,
            workers=1,
            scheduler=None,
        )
        free = _UNCAPPED[search] = Search(search.problem, options, search.symmetry)
        owner = weakref.ref(search)

        def poll() -> None:
            capped = owner()
            if capped is not None and capped.poll is not None:
                capped.poll()

        free.poll = poll
    return free


class _ProbeSpentError(Exception):
    """Raised from a search's poll once a probe has expanded its sets."""


def capped_probe(
    search: Search,
    guess: int,
    everything: np.ndarray,
    classes: list[np.ndarray],
    states: list[bytes],
    bounds: list[int],
    best: int,
    depth: int,
    limit: int | None = None,
    *,
    out: list[int] | None = None,
) -> int | None:
    """Return a bound >= ``best`` refuting opener ``guess``, or None if the probe finds none.

    ``classes``, ``states`` and ``bounds`` are the opener's classes of
    ``everything``, their constraint states and proven lower bounds
    (:meth:`.Search.class_bounds`); ``depth`` the guesses left after the opener.
    Classes of three or more targets are solved in process, smallest first,
    each under the budget the others' bounds and values leave, until one
    refutes (the opener is then refuted: its total reaches ``best``) or
    ``limit`` sets (default :data:`PROBE_EXPANSIONS`) have been expanded (None:
    nothing is known, though what was
    proven is memoised). None too when every class was solved and the total is
    below ``best``: the full search then finds it in the memo. ``out``, if
    given (a list as long as ``classes``), receives each class's bound or value
    when the probe refutes: what the refutation's witness is made of
    (:func:`.witness.witness_of`).

    Raises:
        SearchError: as the search (its own poll, e.g. a cluster worker's, still runs).
    """
    limit = PROBE_EXPANSIONS if limit is None else limit
    values = list(bounds)
    jobs = sorted(
        (i for i, part in enumerate(classes) if len(part) > 2), key=lambda i: len(classes[i])
    )
    previous = search.poll
    start = search.stats.expanded

    def poll() -> None:
        if previous is not None:
            previous()
        if search.stats.expanded - start > limit:
            raise _ProbeSpentError

    search.poll = poll
    try:
        for index in jobs:
            budget = best - (search.values.combine(everything, values) - values[index])
            values[index] = search.solve(classes[index], budget, depth, (guess,), states[index])
            if values[index] >= budget:
                if out is not None:
                    out[:] = values
                return max(search.values.combine(everything, values), best)
    except _ProbeSpentError:
        return None
    finally:
        search.poll = previous
    return None
