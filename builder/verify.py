"""Verifying stored policies by replaying every target through every tree.

Opening a catalog already checks checksums and tree structure; this goes
further and checks meaning: every target is reached and won, every node's
target slice holds exactly the targets that pass through it, and the stored
statistics equal the ones recomputed from the replay.
"""

from __future__ import annotations

import numpy as np

from builder.evaluate import score_stats
from builder.guess_my_word import entropy, expected_guesses, guess_counts
from builder.weighted_lists import WeightedList
from client.errors import GuessworkError, OffTreeError
from client.guess_my_word import StoredTree, play
from client.probe import SOLVED, Policy


def verify_policy(policy: Policy) -> list[str]:
    """Return the faults found in ``policy`` (an empty list when it checks out)."""
    arrays = policy.data.arrays
    position = np.empty(len(policy.targets), dtype=np.int64)
    position[arrays["target_order"]] = np.arange(len(policy.targets))
    first, size = arrays["node_first"], arrays["node_size"]
    visits = np.zeros(policy.data.node_count, dtype=np.int64)
    scores: list[int] = []
    for index, target in enumerate(policy.targets):
        node, turns = policy.root, 0
        try:
            while node != SOLVED:
                if not first[node] <= position[index] < first[node] + size[node]:
                    return [f"target {target} passes node {node}, which does not list it"]
                visits[node] += 1
                guess = policy.guess(node)
                turns += 1
                node = policy.step(node, policy.game.reply(guess, target))
        except OffTreeError as error:
            return [f"target {target} falls off the tree: {error}"]
        if guess != target:
            return [f"target {target} is 'won' by guessing {guess}"]
        scores.append(turns)
    faults = []
    if not np.array_equal(visits, size):
        faults.append("node sizes disagree with the targets that reach them")
    stored = policy.stats
    recomputed = score_stats(scores).to_policy_stats()
    for key, value in recomputed.items():
        if stored.get(key) != value:
            faults.append(f"stored {key} {stored.get(key)!r} differs from the replay's {value!r}")
    return faults


def verify_word_tree(stored: StoredTree) -> list[str]:
    """Return the faults of a stored Guess My Word tree: every word must be reached,
    and the stored figures must equal the ones recomputed from the tree."""
    weights = WeightedList(stored.tree.words, stored.counts)
    try:
        for word in stored.tree.words:
            played = play(stored.tree, word, stored.variant)
            if stored.variant == "live" and played[-1] != (word, "correct"):
                return [f"{word} is not won by the tree"]
        mean = expected_guesses(stored.tree, weights, stored.variant)
        counts = guess_counts(stored.tree, stored.variant)
    except GuessworkError as error:
        return [f"the tree does not play its words: {error}"]
    recomputed = {"mean": mean, "worst": float(counts.max()), "best": float(counts.min()),
                  "entropy": entropy(weights), "count": float(len(weights.words))}  # fmt: skip
    return [
        f"stored {key} {stored.stats.get(key)!r} differs from the replay's {value!r}"
        for key, value in recomputed.items()
        if stored.stats.get(key) != value
    ]
