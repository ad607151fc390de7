"""Each node's ranked alternatives, as a policy stores them (format 2).

A stored suggestion offers the next-best guesses without the builder; they
are ranked here, once, by the policy's own greedy step (builder.greedy).
"""

from __future__ import annotations

import numpy as np

from .greedy import (
    GreedyStep,
    ReplyColumns,
)
from .greedy_tree import guess_vocabulary
from .matrices import letter_array, reply_matrix
from .nyt_hard import legal_mask, node_states
from .optimal.problem import target_major
from .tree import GuessTree


def node_alternatives(
    tree: GuessTree, step: GreedyStep, count: int, weights: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """Return each node's ``count`` next-best guesses by ``step``, as the policy stores them.

    The alternatives of a node are the step's ranking at that node without the
    node's own guess (which an optimised tree may not rank first), best first:
    what a player is offered when the game refuses the suggested word. Returns
    the format's ``alt_offsets``, ``alt_guess`` and ``alt_value`` arrays.
    Under NYT hard mode only guesses the NYT rule allows on the node's path
    are ranked; under approx_entropy, only the guesses it retries (by their
    exact entropy). ``weights`` (one per target: a prior's likelihoods) ranks by
    the weighted metric, as a weighted tree was grown.
    """
    vocabulary, target_to_guess = guess_vocabulary(tree.targets, tree.guesses)
    matrix = reply_matrix(tree.game, vocabulary, tree.targets)
    # Most nodes hold a few targets: ranked through the transposed matrix (made once).
    by_target = target_major(matrix)
    # The NYT rule and approx_entropy's estimate read the vocabulary's letters.
    letters = letter_array(vocabulary.words, tree.game.length)
    states = None
    if step.options.nyt_hard:
        states = node_states(
            letters, tree.node_guess, tree.edge_offsets, tree.edge_reply, tree.edge_child
        )
    offsets = np.zeros(tree.node_count + 1, np.int32)
    guesses: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for node in range(tree.node_count):
        size = int(tree.node_size[node])
        kept = 0
        if size > 1:
            first = int(tree.node_first[node])
            remaining = np.sort(tree.target_order[first : first + size]).astype(np.int64)
            legal = None if states is None else legal_mask(letters, states[node])
            columns = ReplyColumns(matrix, remaining, by_target)
            ranked = step.rank(
                target_to_guess[remaining],
                count + 1,
                columns,
                legal,
                letters=letters,
                weights=None if weights is None else weights[remaining],
            )
            keep = ranked.guesses != tree.node_guess[node]
            chosen, chosen_values = ranked.guesses[keep][:count], ranked.values[keep][:count]
            guesses.append(chosen)
            values.append(chosen_values)
            kept = len(chosen)
        offsets[node + 1] = offsets[node] + kept
    return {
        "alt_offsets": offsets,
        "alt_guess": np.concatenate(guesses).astype(np.int32) if guesses else np.zeros(0, np.int32),
        "alt_value": np.concatenate(values).astype(np.float64) if values else np.zeros(0),
    }
