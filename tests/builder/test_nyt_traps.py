"""The trap-family bound of NYT hard mode (builder.optimal.traps) against brute force.

Lists built around two trap families of the 3158 answers, _ATED (DATED's D is
also the pattern's) and _ATER (RATER, TATER and EATER repeat pattern letters),
with openers such as DEALT and ROATE that leave NYT-hard states where every
legal guess holds one free letter. Every class (and, for some, every class
of a second guess) is checked: the bound never exceeds the least total brute
force finds by trying every legal guess, it is INFEASIBLE only where no tree
meets the guesses left, and it does decide some sets (above the bound table,
and some cap refutations). Then whole searches with the bound on and off
give every opener the same value.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from guesswork.builder.errors import InfeasibleCapError
from guesswork.builder.optimal import INFEASIBLE, Search, SearchOptions, make_problem
from guesswork.builder.optimal import optimize as optimal_search
from guesswork.builder.optimal.bounds import total_bound_table
from guesswork.builder.optimal.traps import TrapBound
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle

WORDLE = Wordle()
ALLOWED = load_wordlist("wordle-guesses-12972", WORDLE).words
FAMILIES = (
    ("BATED", "DATED", "GATED", "HATED", "MATED"),
    ("EATER", "HATER", "LATER", "RATER", "WATER"),
)
#: Openers that leave trap states, and guesses that split the families fast.
OPENERS = ("DEALT", "ROATE", "TREAD", "STEAD", "CRATE")
BREAKERS = ("BAGHS", "GAMBS", "CHAWS", "CLEWS", "BELCH")


def trap_lists(seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two families and three more answers; the guesses add the openers, the
    breakers and 8 words drawn by ``seed``."""
    rng = random.Random(seed)
    targets = FAMILIES[0] + FAMILIES[1]
    targets += tuple(rng.sample(["CRANE", "SLOTH", "PIOUS", "DWARF", "GLYPH", "ADEPT"], 3))
    guesses = set(targets) | set(OPENERS) | set(BREAKERS) | set(rng.sample(ALLOWED, 8))
    return tuple(sorted(targets)), tuple(sorted(guesses))


def brute_force(search: Search) -> Callable[[tuple[int, ...], bytes, int], int]:
    """Return ``best(targets, state, depth)``: the least NYT-hard total of a target set
    (a tuple of indices) in ``state`` within ``depth`` guesses, INFEASIBLE if none,
    trying every legal guess at every node."""
    problem = search.problem

    @functools.cache
    def best(targets: tuple[int, ...], state: bytes, depth: int) -> int:
        if len(targets) == 1:
            return 1 if depth >= 1 else INFEASIBLE
        if depth < 2:
            return INFEASIBLE
        members = np.array(targets, dtype=np.int64)
        least = INFEASIBLE
        for guess in search.candidates(members, None, state).tolist():
            classes = problem.split(guess, members)
            if len(classes) == 1 and len(classes[0]) == len(targets):
                continue  # no progress: never part of a least tree
            total = len(targets)
            for part in classes:
                child = search.values.child_state(state, guess, part)
                total += best(tuple(part.tolist()), child, depth - 1)
            least = min(least, total)
        return least

    return best


def nodes(search: Search, cap: int, rng: random.Random) -> Iterator[tuple[np.ndarray, bytes, int]]:
    """Yield (targets, state, depth) for every class of three or more after each
    guess from the root, and after a second guess drawn for some of them."""
    everything = np.arange(search.problem.n_targets, dtype=np.int64)
    for first in range(search.problem.search_guesses):
        classes, states = search.values.split_states(first, everything, b"")
        for part, state in zip(classes, states, strict=True):
            if len(part) < 3:
                continue
            yield part, state, cap - 1
            second = rng.randrange(search.problem.search_guesses)
            deeper, deeper_states = search.values.split_states(second, part, state)
            for inner, inner_state in zip(deeper, deeper_states, strict=True):
                if len(inner) >= 3 and len(inner) < len(part):
                    yield inner, inner_state, cap - 2


@pytest.mark.parametrize(("seed", "cap"), [(0, 4), (1, 5), (2, 6), (3, 5)])
def test_the_trap_bound_never_exceeds_brute_force(seed: int, cap: int) -> None:
    targets, guesses = trap_lists(seed)
    lists = WordList.from_words("t", targets), WordList.from_words("g", guesses)
    problem, _ = make_problem(WORDLE, *lists)
    search = Search(problem, SearchOptions(nyt_hard=True, max_guesses=cap))
    uncapped = Search(problem, SearchOptions(nyt_hard=True))
    loose = Search(problem, SearchOptions(nyt_hard=True, max_guesses=8))
    truth = brute_force(search)
    table = total_bound_table(problem.n_targets, problem.replies)
    above_table = cuts = 0
    for part, state, depth in nodes(search, cap, random.Random(seed)):
        value = truth(tuple(part.tolist()), state, depth)
        bound = search.trap_bound(part, depth, state)
        assert bound <= value, (part.tolist(), depth, bound, value)
        cuts += bound >= INFEASIBLE
        # Past the cap the bound is one of the total: at most the least total of any
        # depth (8 guesses: more than these lists ever need).
        free = loose.trap_bound(part, 8, state)
        assert free < INFEASIBLE and free <= truth(tuple(part.tolist()), state, 8)
        above_table += free > table[len(part)]
    assert uncapped.trap_bound(part, depth, state) == 0  # no cap: not used (see Search)
    # Not vacuous: the families decide some sets.
    assert above_table > 0
    assert cuts > 0 or cap == 6


def test_with_no_family_the_bound_adds_nothing_to_the_table() -> None:
    targets = ("CRANE", "SLOTH", "PIOUS", "DWARF", "GLYPH", "ADEPT", "BATED")
    lists = WordList.from_words("t", targets), WordList.from_words("g", targets)
    problem, _ = make_problem(WORDLE, *lists)
    search = Search(problem, SearchOptions(nyt_hard=True, max_guesses=3))
    everything = np.arange(len(targets), dtype=np.int64)
    state = search.values.child_state(b"", 0, everything[1:2])  # some constraint state
    assert search.trap_bound(everything, 3, state) == 0
    assert search.trap_bound(everything, 3, b"") == 0  # the empty state: every guess


@pytest.mark.parametrize(("seed", "cap"), [(1, 5), (3, 5)])
def test_searches_with_and_without_the_bound_agree_on_every_opener(
    seed: int, cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets, guesses = trap_lists(seed)
    lists = WordList.from_words("t", targets), WordList.from_words("g", guesses)

    def values() -> dict[str, int]:
        found = {}
        for word in guesses:
            options = SearchOptions(nyt_hard=True, max_guesses=cap, first_guess=word)
            try:
                found[word] = optimal_search(WORDLE, *lists, options).certificate.value
            except InfeasibleCapError:  # no tree within the cap under this opener
                found[word] = INFEASIBLE
        return found

    with_bound = values()
    monkeypatch.setattr(TrapBound, "bound", lambda *args: 0)
    assert values() == with_bound
    assert any(v < INFEASIBLE for v in with_bound.values())
    assert any(v >= INFEASIBLE for v in with_bound.values())
