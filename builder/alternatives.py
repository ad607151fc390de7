"""Each node's ranked alternatives, as a policy stores them (format 2).

A stored suggestion offers the next-best guesses without the builder; they
are ranked here, once, by the policy's own greedy step (builder.greedy).
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np

from ..client.core import MAX_ALTERNATIVES
from ..client.games import Game
from ..client.probe import Policy
from ..client.progress import Progress
from ..client.rules import NYT_HARD
from ..client.strategy import StepStrategy, WordTreeStrategy
from .greedy import (
    GreedyStep,
    ReplyColumns,
    considers_every_guess,
    greedy_step,
    step_of,
)
from .matrices import alphabet_of, letter_array, reply_block, reply_matrix
from .metrics import METRIC_APPROX_ENTROPY, METRIC_NEG_ENTROPY, METRIC_RANDOM, METRICS
from .nyt_hard import legal_mask, node_states
from .optimal.problem import target_major
from .partitions import metric_values
from .tree import GuessTree
from .wordlists import WordList, guess_vocabulary

#: Seconds between progress updates while ranking (a terminal's bar redraws on each).
_REPORT_EVERY = 0.25


def node_alternatives(
    tree: GuessTree,
    step: GreedyStep,
    count: int,
    weights: np.ndarray | None = None,
    progress: Progress | None = None,
) -> dict[str, np.ndarray]:
    """Return each node's ``count`` next-best guesses by ``step``, as the policy stores them.

    The alternatives of a node are the step's ranking at that node without the
    node's own guess (which an optimised tree may not rank first), best first:
    what a player is offered when the game refuses the suggested word. Returns
    the format's ``alt_offsets``, ``alt_guess`` and ``alt_value`` arrays.
    Under NYT hard mode only guesses the NYT rule allows on the node's path
    are ranked; under approx_entropy, only the guesses it retries (by their
    exact entropy). ``weights`` (one per target: a prior's likelihoods) ranks by
    the weighted metric, as a weighted tree was grown. ``progress`` counts the
    nodes ranked (a phase of its own: a long build spends a third of its time here).
    """
    arrays = {
        "node_guess": tree.node_guess,
        "node_size": tree.node_size,
        "node_first": tree.node_first,
        "target_order": tree.target_order,
        "edge_offsets": tree.edge_offsets,
        "edge_reply": tree.edge_reply,
        "edge_child": tree.edge_child,
    }
    alternatives, _ = step_rankings(
        tree.game, tree.targets, tree.guesses, arrays, step, count, weights, progress
    )
    return alternatives


def strategy_alternatives(
    tree: GuessTree,
    strategy: StepStrategy,
    mode: str,
    weights: np.ndarray | None = None,
    progress: Progress | None = None,
) -> dict[str, np.ndarray]:
    """Return each node's alternatives (:func:`node_alternatives`), ranked by
    ``strategy``'s fallback step under ``mode`` (the policy's)."""
    step = step_of(strategy.fallback, len(tree.guesses), tree.game, nyt_hard=mode == NYT_HARD)
    return node_alternatives(tree, step, MAX_ALTERNATIVES, weights, progress)


def step_rankings(
    game: Game,
    targets: WordList,
    guesses: WordList,
    arrays: Mapping[str, np.ndarray],
    step: GreedyStep,
    count: int,
    weights: np.ndarray | None = None,
    progress: Progress | None = None,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Return (each node's alternatives as :func:`node_alternatives` gives them, each
    node's own pick by ``step``: the vocabulary index the step ranks first there).

    ``arrays`` are a tree's (client.policy_format's names). The pick is what a
    greedy tree built by ``step`` guesses at the node (ties to the earlier
    candidate, as the step breaks them); a node of one target picks it.
    ``progress``, if given, counts the nodes done (see :func:`node_alternatives`).
    """
    vocabulary, target_to_guess = guess_vocabulary(targets, guesses)
    # The NYT rule and approx_entropy's estimate read the vocabulary's letters.
    letters = letter_array(vocabulary.words, game.length)
    matrix = reply_matrix(game, vocabulary, targets)
    # Most nodes hold a few targets: ranked through the transposed matrix (made once).
    by_target = target_major(matrix)
    node_guess, node_size = arrays["node_guess"], arrays["node_size"]
    node_first, target_order = arrays["node_first"], arrays["target_order"]
    node_count = len(node_guess)
    states = None
    if step.options.nyt_hard:
        states = node_states(
            letters, node_guess, arrays["edge_offsets"], arrays["edge_reply"], arrays["edge_child"]
        )
    offsets = np.zeros(node_count + 1, np.int32)
    picks = np.empty(node_count, np.int64)
    chosen_guesses: list[np.ndarray] = []
    values: list[np.ndarray] = []
    if progress is not None:
        # Nodes of very unequal work (the largest first): no estimate of the time left.
        progress.phase(progress.label, "node", node_count, estimate=False)
    reported = time.perf_counter()
    for node in range(node_count):
        if progress is not None and time.perf_counter() - reported >= _REPORT_EVERY:
            reported = time.perf_counter()
            progress.update(node, node_count, progress.elapsed())
        size, first = int(node_size[node]), int(node_first[node])
        remaining = np.sort(target_order[first : first + size]).astype(np.int64)
        kept = 0
        if size > 1:
            legal = None if states is None else legal_mask(letters, states[node])
            ranked = step.rank(
                target_to_guess[remaining],
                count + 1,
                ReplyColumns(matrix, remaining, by_target),
                legal,
                letters=letters,
                weights=None if weights is None else weights[remaining],
            )
            picks[node] = int(ranked.guesses[0])
            keep = ranked.guesses != node_guess[node]
            chosen, chosen_values = ranked.guesses[keep][:count], ranked.values[keep][:count]
            chosen_guesses.append(chosen)
            values.append(chosen_values)
            kept = len(chosen)
        else:
            picks[node] = int(target_to_guess[remaining[0]])
        offsets[node + 1] = offsets[node] + kept
    if progress is not None:
        progress.update(node_count, node_count, progress.elapsed())
    alternatives: dict[str, np.ndarray] = {
        "alt_offsets": offsets,
        "alt_guess": (
            np.concatenate(chosen_guesses).astype(np.int32)
            if chosen_guesses
            else np.zeros(0, np.int32)
        ),
        "alt_value": np.concatenate(values).astype(np.float64) if values else np.zeros(0),
    }
    return alternatives, picks


def alternative_faults(policy: Policy) -> list[str]:
    """Return the first fault of ``policy``'s stored alternatives (an empty list if none).

    Every stored alternative is checked against the tree, as it is served:
    it must be a guess the policy's greedy step considers at its node (a
    remaining target outside the step's window, a word of the guess list
    inside it), and its stored value must be the step's metric of that guess
    over the node's remaining targets (weighted by the policy's prior where it
    has one), bit for bit. The structure check (client.tree_check) has already
    ranked each node's values best first and kept its own guess out, and
    builder.verify checks the NYT rule, so a re-sealed file whose alternatives
    were changed or reordered is refused. Guess My Word trees store none.
    """
    arrays = policy.data.numpy_arrays()
    offsets, chosen, stored = arrays["alt_offsets"], arrays["alt_guess"], arrays["alt_value"]
    if len(chosen) == 0:
        return []
    if isinstance(policy.data.strategy, WordTreeStrategy):
        return ["a Guess My Word tree stores alternatives, which its strategy never ranks"]
    step = greedy_step(policy)
    game, options = policy.game, step.options
    metric = METRICS[options.metric]
    if metric == METRIC_APPROX_ENTROPY:  # its values are the exact entropies it retried
        metric = METRIC_NEG_ENTROPY
    alphabet = alphabet_of(policy.vocabulary)
    letters = letter_array(policy.vocabulary, game.length, alphabet)
    position = {word: i for i, word in enumerate(policy.vocabulary)}
    target_to_guess = np.array([position[word] for word in policy.targets], dtype=np.int64)
    weights = policy.data.numpy_weights()
    low, high = options.window
    sizes, firsts, order = arrays["node_size"], arrays["node_first"], arrays["target_order"]
    for node in np.flatnonzero(np.diff(offsets)).tolist():
        start, stop = int(offsets[node]), int(offsets[node + 1])
        guesses = chosen[start:stop].astype(np.int64)
        size, first = int(sizes[node]), int(firsts[node])
        remaining = np.sort(order[first : first + size]).astype(np.int64)
        consistent = target_to_guess[remaining]
        if considers_every_guess(size, options.hard, low, -1 if high is None else high):
            if int(guesses.max()) >= step.guess_count:
                return [f"node {node}: an alternative is not a word of the guess list"]
        elif not np.isin(guesses, consistent).all():
            return [f"node {node}: an alternative is not one of the node's remaining targets"]
        if metric == METRIC_RANDOM:
            values = np.zeros(len(guesses))
        else:
            block = reply_block(game, letters[guesses], letters[consistent])
            values = metric_values(
                block,
                np.arange(len(guesses), dtype=np.int64),
                np.arange(size, dtype=np.int64),
                metric,
                options.arithmetic,
                step.reply_space,
                None if weights is None else weights[remaining],
                step.win_reply,
            )
        wrong = np.flatnonzero(values != stored[start:stop])
        if len(wrong):
            at = int(wrong[0])
            return [
                f"node {node}: alternative {policy.vocabulary[int(guesses[at])]} is stored with "
                f"value {stored[start + at]:.6g}, but its value there is {values[at]:.6g}"
            ]
    return []
