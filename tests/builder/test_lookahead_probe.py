"""A superset's scan only speeds a class's look-ahead bound: the bound is the same.

:meth:`Search.lookahead_bound` takes the scan of the node a class was split
from: that node's reply counts cap the class's, and its best splitters are
counted first for an early stop. In hard and NYT hard mode those splitters
need not be guesses the class may make; counted anyway, they gave replies no
legal guess gives, a bound still sound but weaker than the class's own scan
(issue #46). Here every class of every opener of a small list is bounded both
ways, by two fresh searches, and the bounds must agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from guesswork.builder.optimal import Search, SearchOptions, make_problem
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle

WORDLE = Wordle()


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(nyt_hard=True, max_guesses=6),
        SearchOptions(nyt_hard=True, max_guesses=4),
        SearchOptions(hard=True),
        SearchOptions(),
    ],
    ids=["nyt-hard-cap6", "nyt-hard-cap4", "hard", "normal"],
)
def test_a_class_bound_is_the_same_with_its_parents_scan_as_without(
    options: SearchOptions,
) -> None:
    answers = load_wordlist("wordle-answers-2315", WORDLE).words[::6]
    guesses = load_wordlist("wordle-guesses-12972", WORDLE).words[::8]
    lists = WordList.from_words("t", answers), WordList.from_words("g", sorted(set(guesses)))
    problem, _ = make_problem(WORDLE, *lists)
    everything = np.arange(problem.n_targets, dtype=np.int64)
    depth = options.root_depth
    with_parent, alone = Search(problem, options), Search(problem, options)
    root = with_parent.scan(everything, depth, ())
    compared = differed = 0
    for guess in root.guesses.tolist()[:60]:
        classes, states = with_parent.values.split_states(guess, everything, b"")
        for part, state in zip(classes, states, strict=True):
            if len(part) <= 2:
                continue
            fast = with_parent.lookahead_bound(part, depth - 1, (guess,), state, root)
            slow = alone.lookahead_bound(part, depth - 1, (guess,), state)
            compared += 1
            differed += fast != slow
            assert fast == slow, (guess, len(part), fast, slow)
    assert compared > 200 and differed == 0
