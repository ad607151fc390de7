"""Live answers (builder.live) are the greedy step the builder stores."""

from __future__ import annotations

import numpy as np
import pytest

from guesswork.builder.live import GreedyLiveSolver
from guesswork.client.catalog import open_catalog
from guesswork.client.probe import Policy

GREEDY = [
    "wordle-2309-normal-neg-entropy",
    "wordle-2309-hard-max",
    "jotto-2309-normal-expectation",
    "wordle-2315-g12972-normal-neg-entropy",
    "antiwordle-2309-hard-entropy",
]


def remaining_of(policy: Policy, node: int) -> np.ndarray:
    arrays = policy.data.arrays
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
            ranked = [
                policy.vocabulary[i] for i in solver.rank(policy, remaining_of(policy, node), 11)
            ]
            assert ranked == [policy.guess(node), *policy.alternatives(node)][: len(ranked)]
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
            ranked = [
                policy.vocabulary[i] for i in solver.rank(policy, remaining_of(policy, node), 12)
            ]
            expected = [word for word in ranked if word != policy.guess(node)][:10]
            assert list(policy.alternatives(node))[:10] == expected
