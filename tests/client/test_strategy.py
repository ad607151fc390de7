"""Stored strategies as typed values (client.strategy): the same maps, read and written."""

from __future__ import annotations

import msgpack
import pytest

from guesswork.client.catalog import open_catalog
from guesswork.client.errors import PolicyFormatError
from guesswork.client.strategy import (
    GreedyStrategy,
    OptimalStrategy,
    WordTreeStrategy,
    strategy_from_map,
)


def test_every_shipped_strategy_reads_back_to_its_stored_map() -> None:
    with open_catalog() as catalog:
        kinds = set()
        for policy in catalog:
            stored = msgpack.unpackb(policy.core, raw=False)["strategy"]
            typed = strategy_from_map(stored, policy.name)
            assert typed == policy.data.strategy
            assert typed.to_map() == stored
            assert list(typed.to_map()) == list(stored)  # key order: the bytes are the same
            kinds.add(typed.kind)
        assert {"greedy", "optimal", "word-tree"} <= kinds


def test_guess_my_word_trees_name_their_tree() -> None:
    tree = WordTreeStrategy("adjacent-merge")
    assert tree.label == "adjacent-merge"
    assert tree.to_map() == {"kind": "word-tree", "tree": "adjacent-merge"}
    assert strategy_from_map(tree.to_map(), "test") == tree


def test_labels_and_fallbacks() -> None:
    greedy = GreedyStrategy(metric="max", window=None)
    assert greedy.label == "max" and greedy.fallback is greedy
    assert OptimalStrategy(beam=4).label == "lookahead-4"
    assert OptimalStrategy(objective="minimax").label == "minimax"
    optimal = OptimalStrategy(fallback=GreedyStrategy(window=(4, 125)))
    assert optimal.label == "optimal" and optimal.fallback.metric == "neg_entropy"


@pytest.mark.parametrize(
    "stored",
    [
        {"kind": "clairvoyant"},
        {"kind": "greedy", "metric": 3, "arithmetic": "2022"},
        {"kind": "greedy", "metric": "max", "arithmetic": "2022", "window": [4]},
        {"kind": "greedy", "arithmetic": "2022"},
        {"kind": "optimal", "metric": "neg_entropy", "arithmetic": "2022"},
        {"kind": "word-tree"},
        {"kind": "word-tree", "tree": 7},
    ],
)
def test_malformed_strategies_are_format_errors(stored: dict[str, object]) -> None:
    with pytest.raises(PolicyFormatError, match="strategy"):
        strategy_from_map(stored, "test")
