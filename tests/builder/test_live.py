"""Live answers (builder.live) are the greedy step the builder stores."""

from __future__ import annotations

import numpy as np
import pytest

from guesswork.builder.live import GreedyLiveSolver, _ranked
from guesswork.builder.priors import open_word_weights
from guesswork.client.catalog import open_catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.client.probe import Policy

GREEDY = [
    "wordle-2309-normal-neg-entropy",
    "wordle-2309-hard-max",
    "jotto-2309-normal-expectation",
    "wordle-2315-g12972-normal-neg-entropy",
    "antiwordle-2309-hard-entropy",
]


def remaining_of(policy: Policy, node: int) -> np.ndarray:
    arrays = policy.data.numpy_arrays()
    first, size = int(arrays["node_first"][node]), int(arrays["node_size"][node])
    return np.sort(arrays["target_order"][first : first + size]).astype(np.int64)


@pytest.mark.parametrize("name", GREEDY)
def test_live_ranking_reproduces_each_stored_node(name: str) -> None:
    """At a stored node, the live step ranks the node's guess first, then its alternatives."""
    solver = GreedyLiveSolver()
    with open_catalog() as catalog:
        policy = catalog.policy(name)
        checked = 0
        for node in range(0, policy.data.node_count, 41):
            if policy.remaining_count(node) < 2:
                continue
            ranking = solver.rank(policy, remaining_of(policy, node), 11)
            ranked = [policy.vocabulary[i] for i in ranking.indices]
            assert ranked == [policy.guess(node), *policy.alternatives(node)][: len(ranked)]
            # The values too: the stored ones are what the same step computed at build.
            stored = policy.alternative_values(node)[: len(ranked) - 1]
            assert ranking.values[1:] == pytest.approx(stored, rel=1e-12, abs=1e-12)
            checked += 1
        assert checked >= 5


def test_optimal_policy_alternatives_follow_its_live_step() -> None:
    """An optimised tree's node guess may not rank first; its alternatives are the rest."""
    solver = GreedyLiveSolver()
    with open_catalog() as catalog:
        policy = catalog.policy("wordle-2309-hard-optimal-first-slate")
        for node in range(0, policy.data.node_count, 53):
            if policy.remaining_count(node) < 2:
                continue
            ranking = solver.rank(policy, remaining_of(policy, node), 12)
            ranked = [policy.vocabulary[i] for i in ranking.indices]
            expected = [word for word in ranked if word != policy.guess(node)][:10]
            assert list(policy.alternatives(node))[:10] == expected


@pytest.mark.parametrize("name", GREEDY[:4])
def test_ranking_over_words_is_the_same_step(name: str) -> None:
    """rank_words over the vocabulary, the targets' words as the possible secrets, is
    rank's step with those words weighted by the shipped prior (off the answer list
    a word is as likely as the prior says): the same as rank over the same targets
    weighted alike, and as the step itself given those weights."""
    solver = GreedyLiveSolver()
    with open_catalog() as catalog:
        policy = catalog.policy(name)
        position = {word: i for i, word in enumerate(policy.vocabulary)}
        vocabulary = tuple(policy.vocabulary)
        weights = open_word_weights(policy.data.prior, vocabulary)
        assert weights is not None
        step, letters, _, alphabet = solver.prepared(policy)
        differs = 0
        for node in range(0, policy.data.node_count, 211):
            remaining = remaining_of(policy, node)
            if len(remaining) < 2:
                continue
            words = np.array([position[policy.targets[t]] for t in remaining], dtype=np.int64)
            ranked = solver.rank_words(policy, vocabulary, words, 6)
            expected = _ranked(policy, step, (letters, alphabet), words, 6, (), weights[words])
            assert ranked == expected
            differs += ranked.indices != solver.rank(policy, remaining, 6).indices
        assert differs  # the prior changes some rankings


def test_off_list_answers_rank_the_guess_list_words_that_fit() -> None:
    """Secret TACOS after ARISE, SLANT, HASTY: no answer fits; every possible word of
    the 12,972 is ranked by the policy's hard-mode step (candidates: those words)."""
    solver = GreedyLiveSolver()
    with open_catalog() as catalog:
        lookup = CatalogLookup(catalog, solver).policy("wordle-2309-hard-max")
        game = lookup.game
        history = [
            (w, game.format_reply(game.reply(w, "TACOS"))) for w in ("ARISE", "SLANT", "HASTY")
        ]
        turns = lookup.turns(history)
        possible = lookup.possible_words(turns)
        ranked = solver.rank_words(lookup.policy, lookup.open_words, possible, 50).indices
        assert sorted(ranked) == possible.tolist()  # hard mode: the possible words only
        answer = lookup.suggest(history, 3)
        assert answer.source == "live-guess-list" and answer.remaining == len(possible)
        assert answer.guess == lookup.open_words[ranked[0]]
        assert "TACOS" in [lookup.open_words[i] for i in possible]
