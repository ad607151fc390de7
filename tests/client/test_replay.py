"""The replay every policy-file reader runs (client.replay) and the stored statistics
(client.stats): the vectorised reply rules agree with the scalar ones, and the
replay accepts every shipped policy and refuses trees that contradict the rules."""

from __future__ import annotations

import dataclasses
import statistics

import numpy as np
import pytest

from guesswork.client.catalog import open_catalog
from guesswork.client.errors import InconsistentPolicyError
from guesswork.client.policy_format import decode_core, encode_core
from guesswork.client.probe import Policy
from guesswork.client.replay import check_consistency, consistency_faults
from guesswork.client.stats import policy_stats, stats_faults, weighted_stats


def test_every_shipped_policy_replays() -> None:
    with open_catalog() as catalog:
        for policy in catalog:
            assert consistency_faults(policy) == [], policy.name


def _changed(policy: Policy, **arrays: np.ndarray) -> Policy:
    data = dataclasses.replace(policy.data, arrays={**policy.data.numpy_arrays(), **arrays})
    core = encode_core(data)
    return Policy(decode_core(core, "t"), policy.targets, policy.guesses, core, "")


@pytest.fixture(scope="module")
def jotto() -> Policy:
    with open_catalog() as catalog:
        return catalog.policy("jotto-2309-hard-max")


def test_a_tree_that_breaks_the_rules_is_refused(jotto: Policy) -> None:
    a = jotto.data.numpy_arrays()
    leaf = int(np.flatnonzero(np.diff(a["edge_offsets"]) == 0)[0])
    guess = a["node_guess"].copy()
    guess[leaf] = (guess[leaf] + 1) % len(jotto.vocabulary)
    order = a["target_order"].copy()
    order[[0, -1]] = order[[-1, 0]]
    for change, message in [
        ({"node_guess": guess}, "falls off the tree"),
        ({"target_order": order}, "falls off the tree|does not list it|is 'won' by"),
    ]:
        with pytest.raises(InconsistentPolicyError, match=message):
            check_consistency(_changed(jotto, **change), "crafted.gwp")
    check_consistency(jotto, "shipped")


def test_words_must_be_words_of_the_game(jotto: Policy) -> None:
    vocabulary = list(jotto.guesses)
    vocabulary[3] = "AABBC"  # a repeated letter: not a Jotto word
    bad = Policy(jotto.data, jotto.targets, tuple(vocabulary), jotto.core, "")
    assert "is not a jotto word: repeats a letter" in consistency_faults(bad)[0]
    lower = Policy(
        jotto.data, jotto.targets, (jotto.guesses[0].lower(), *jotto.guesses[1:]), jotto.core, ""
    )
    assert "not in the game's case" in consistency_faults(lower)[0]
    targets = ("ABCDEFG", *jotto.targets[1:])  # a target no guess can win (nor score)
    stray = Policy(jotto.data, targets, jotto.guesses, jotto.core, "")
    assert "'ABCDEFG' is neither in the guess list" in consistency_faults(stray)[0]


def test_stats_are_the_builders_definitions() -> None:
    scores = [3, 4, 4, 5, 2, 4]
    stats = policy_stats(scores)
    assert stats["stdev"] == statistics.stdev(scores)  # the sample one
    assert stats["median"] == 4.0 and stats["mean"] == sum(scores) / 6
    assert stats["histogram"] == [[2, 1], [3, 1], [4, 3], [5, 1]]
    assert policy_stats([2, 3])["median"] == 2.5 and policy_stats([7])["stdev"] == 0.0
    weighted = weighted_stats([1, 2, 3], [1, 1, 2])
    assert weighted["mean"] == 9 / 4 and weighted["median"] == 2.0  # 2 * (1 + 1) >= 4
    assert weighted["stdev"] == pytest.approx(np.sqrt(np.cov([1, 2, 3, 3], bias=True)))
    assert weighted["entropy"] == pytest.approx(1.5)
    # stdev and entropy within a relative 1e-9 (their last bits depend on the
    # arithmetic library); the rest exactly, types included.
    assert stats_faults({**stats, "stdev": stats["stdev"] * (1 + 1e-12)}, stats) == []
    assert stats_faults({**stats, "stdev": stats["stdev"] * (1 + 1e-6)}, stats)
    assert stats_faults({**stats, "mean": float(np.nextafter(stats["mean"], 9))}, stats)
    assert stats_faults({**stats, "worst": 5.0}, stats)
    assert stats_faults({**stats, "extra": 1}, stats) == []
