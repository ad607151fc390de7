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
from guesswork.builder.optimal.bounds import INFEASIBLE, capacity
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


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(),
        SearchOptions(max_guesses=3),
        SearchOptions(nyt_hard=True, max_guesses=6),
        SearchOptions(objective="minimax"),
    ],
)
def test_the_small_sets_values_by_guesses_left_are_small_ones(options: SearchOptions) -> None:
    """small_bounds (which small reads unweighted) gives the values of one or two targets."""
    targets = WordList.from_words("t", ANSWERS[:30])
    problem, _ = make_problem(WORDLE, targets, targets)
    values = SetValues(problem, options)
    for depth in range(7):
        table = values.small_bounds(depth)
        assert table is not None
        for size in (1, 2):
            too_many = options.max_guesses is not None and size > capacity(depth, problem.replies)
            assert table[size] == (INFEASIBLE if too_many else values.trivial(size))
    weighted, _ = make_problem(WORDLE, targets, targets, np.arange(1, 31))
    if options.objective != "minimax":  # weights apply to the total objective only
        assert SetValues(weighted, options).small_bounds(3) is None


def test_nyt_partition_keys_are_equal_exactly_where_partition_and_states_are() -> None:
    """Two guesses share a NYT-hard partition key (the search then evaluates one of
    them) exactly where they split the targets alike and leave each class in the same
    constraint state: neither merging guesses whose values may differ nor missing
    guesses that cannot."""
    answers = WordList.from_words("t", ANSWERS[:400])
    guesses = WordList.from_words("g", ANSWERS)
    problem, vocabulary = make_problem(WORDLE, answers, guesses)
    values = SetValues(problem, SearchOptions(nyt_hard=True, max_guesses=6))
    opener = vocabulary.index()["SLATE"]
    everything = np.arange(problem.n_targets, dtype=np.int64)
    checked = merged = 0
    for part, state in zip(*values.split_states(opener, everything, b""), strict=True):
        if len(part) < 6 or not state:
            continue
        assert values.rule is not None
        legal = values.rule.legal(state)
        rows = legal[:: max(1, len(legal) // 300)]
        seen: dict[bytes, tuple[bytes, list[bytes]]] = {}
        for guess in rows.tolist():
            key = values.partition_key(guess, part, state)
            classes, states = values.split_states(guess, part, state)
            order = np.argsort([int(c[0]) for c in classes], kind="stable")
            exact = (problem.signature(guess, part), [states[i] for i in order])
            if key in seen:
                assert seen[key] == exact
                merged += 1
            else:
                assert exact not in seen.values()
                seen[key] = exact
            checked += 1
    assert checked > 300 and merged > 0
