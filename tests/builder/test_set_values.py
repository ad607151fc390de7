"""A set's worth without search is one component that a search holds (issue #45).

:class:`SetValues` keeps no memo and scans nothing: built alone for a problem, it
gives the memo keys, constraint states and node values that a
:class:`~guesswork.builder.optimal.search.Search` over the same problem stores and
that the search's callers (root, subtrees, certificates) read its memo with.
"""

from __future__ import annotations

import numpy as np
import pytest

from guesswork.builder.optimal import SearchError, SearchOptions, make_problem
from guesswork.builder.optimal.bounds import INFEASIBLE
from guesswork.builder.optimal.problem import NO_CAP
from guesswork.builder.optimal.search import Search
from guesswork.builder.optimal.set_values import SetValues
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2315", WORDLE).words


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(),
        SearchOptions(nyt_hard=True, max_guesses=6),
        SearchOptions(objective="minimax"),
    ],
)
def test_set_values_alone_key_and_value_what_the_search_proves(options: SearchOptions) -> None:
    targets = WordList.from_words("t", ANSWERS[:80])
    problem, _ = make_problem(WORDLE, targets, targets)
    values = SetValues(problem, options)
    search = Search(problem, options)
    assert isinstance(search.values, SetValues) and not isinstance(search, SetValues)
    assert not hasattr(values, "exact") and not hasattr(values, "lower")  # no memo here
    depth = NO_CAP if options.max_guesses is None else options.max_guesses
    everything = np.arange(problem.n_targets, dtype=np.int64)
    value = search.solve(everything, INFEASIBLE, depth)
    assert value < INFEASIBLE
    # The search memoised the root under the key the rules give, with its guess...
    found, guess = search.exact[values.key(everything, depth, b"")]
    assert found == value
    # ...and its value is its classes' values (in their constraint states) combined.
    classes, states = values.split_states(guess, everything, b"")
    parts = [
        search.choice(part, depth - 1, state)[0]
        for part, state in zip(classes, states, strict=True)
    ]
    assert values.combine(everything, parts) == value
    # A set of one or two targets is valued by the rules alone.
    assert values.small(everything[:2], depth) == search.choice(everything[:2], depth)[0]
    assert values.floor(everything) <= value


def test_set_values_refuse_what_no_search_can_take() -> None:
    targets = WordList.from_words("t", ANSWERS[:30])
    weighted, _ = make_problem(WORDLE, targets, targets, np.arange(1, 31))
    with pytest.raises(SearchError, match="total objective"):
        SetValues(weighted, SearchOptions(objective="minimax"))
