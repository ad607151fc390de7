"""The replay: checking that a policy's tree agrees with its game's own rules.

Decoding a policy (client.policy_format) checks its *structure*: indices in
range, children after parents, sizes that add up. This checks its *meaning*,
as if every target were played through the tree with the game's reply rule
(client.games):

* every word of the guess list and ``extra_words`` is a valid word of the game,
  in its case, and every target is one of them (it must be won by guessing it);
* at every node, each target of the node's slice gets, from the node's guess,
  either the winning reply, and is then the guess itself, or a reply that
  has an edge, whose child's slice holds it; and each child's slice holds
  exactly the targets sent to it (so every target reaches the node that wins
  it, and every slice lists exactly the targets that pass through its node);
* in a game that deduces (Guess My Word's ``deduce`` variant) a node without
  edges holds one target, its own guess (the known word);
* the stored statistics equal those of the replay's scores (client.stats).

It is done for all targets at once, node by node, with vectorised reply rules
that tests check against the scalar ones of client.games; the cost is one
reply per (node, target on its path) pair, about the number of targets
times the mean score. :func:`check_consistency` is what every policy-file
reader runs (client.catalog); builder.verify adds its own checks to the same
faults (:func:`consistency_faults`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .errors import InconsistentPolicyError
from .probe import Policy
from .stats import policy_stats, stats_faults
from .text import with_article

#: Pairs of (node, target) whose replies are computed at once (bounds memory).
_BATCH = 1 << 20


def _batches(sizes: np.ndarray) -> Iterator[tuple[int, int]]:
    """Yield node ranges [start, stop) whose slices hold about _BATCH targets in all."""
    ends = np.cumsum(sizes)
    start = 0
    while start < len(sizes):
        base = int(ends[start - 1]) if start else 0
        stop = max(int(np.searchsorted(ends, base + _BATCH, side="right")), start + 1)
        yield start, stop
        start = stop


def _word_faults(policy: Policy) -> list[str]:
    """Return the first vocabulary word that is not a word of the policy's game, in
    the game's case (upper; lower for Guess My Word), as a one-item list."""
    game = policy.game
    found = game.first_word_problem(policy.vocabulary)
    if found is None:
        return []
    word, problem = found
    return [f"word {word!r} of its lists is not {with_article(game.name)} word: {problem}"]


def replay_scores(policy: Policy) -> tuple[np.ndarray | None, list[str]]:
    """Return (each target's score in target-list order, []) when every target plays
    through the tree as the rules say, else (None, [the first fault])."""
    faults = _word_faults(policy)
    if faults:
        return None, faults
    a = policy.data.numpy_arrays()
    game, n, n_targets = policy.game, policy.data.node_count, len(policy.targets)
    offsets, size, first = a["edge_offsets"], a["node_size"].astype(np.int64), a["node_first"]
    order, node_guess = a["target_order"].astype(np.int64), a["node_guess"].astype(np.int64)
    leaf = np.diff(offsets) == 0
    parent = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
    keys = parent * game.reply_space + a["edge_reply"]
    by_key = np.argsort(keys, kind="stable")
    sorted_keys = keys[by_key]
    position = np.empty(n_targets, dtype=np.int64)
    position[order] = np.arange(n_targets)
    # Words are compared, not indices: each word's first index in the vocabulary.
    index = {word: i for i, word in reversed(list(enumerate(policy.vocabulary)))}
    word_of = np.array([index[w] for w in policy.vocabulary], dtype=np.int64)
    in_vocabulary = np.array([index.get(t, -1) for t in policy.targets], dtype=np.int64)
    if (in_vocabulary < 0).any():  # then it could never be won, nor its replies computed
        stray = policy.targets[int(np.flatnonzero(in_vocabulary < 0)[0])]
        return None, [f"target {stray!r} is neither in the guess list nor an extra word"]
    replies = game.pair_replies(policy.vocabulary, policy.targets)
    sent = np.zeros(n, dtype=np.int64)
    path_length = np.zeros(n_targets, dtype=np.int64)
    for start, stop in _batches(size):
        nodes = np.arange(start, stop, dtype=np.int64)
        node = np.repeat(nodes, size[start:stop])
        base = np.cumsum(size[start:stop]) - size[start:stop]
        slot = np.arange(len(node), dtype=np.int64) - np.repeat(base, size[start:stop])
        target = order[first[node] + slot]
        path_length += np.bincount(target, minlength=n_targets)
        known = leaf[node] & game.deduces
        if known.any():
            bad = np.flatnonzero(known & (in_vocabulary[target] != word_of[node_guess[node]]))
            if len(bad):
                return None, [_fault(policy, int(node[bad[0]]), int(target[bad[0]]), "known")]
        node, target = node[~known], target[~known]
        code = replies(node_guess[node], target)
        won = code == game.win_reply
        bad = np.flatnonzero(won & (in_vocabulary[target] != word_of[node_guess[node]]))
        if len(bad):
            return None, [_fault(policy, int(node[bad[0]]), int(target[bad[0]]), "won")]
        node, target, code = node[~won], target[~won], code[~won]
        wanted = node * game.reply_space + code
        at = np.minimum(np.searchsorted(sorted_keys, wanted), max(len(keys) - 1, 0))
        missing = np.flatnonzero(sorted_keys[at] != wanted if len(keys) else wanted >= 0)
        if len(missing):
            i = int(missing[0])
            return None, [_fault(policy, int(node[i]), int(target[i]), "off", int(code[i]))]
        child = a["edge_child"][by_key[at]].astype(np.int64)
        outside = np.flatnonzero(
            (position[target] < first[child]) | (position[target] >= first[child] + size[child])
        )
        if len(outside):
            i = int(outside[0])
            return None, [_fault(policy, int(child[i]), int(target[i]), "slice")]
        sent += np.bincount(child, minlength=n)
    if not np.array_equal(sent[1:], size[1:]):
        return None, ["node sizes disagree with the targets that reach them"]
    return path_length - 1 if game.deduces else path_length, []


def _fault(policy: Policy, node: int, target: int, kind: str, code: int = 0) -> str:
    """Return the one-line fault of ``target`` at ``node`` (``code``: its reply there)."""
    word, guess = policy.targets[target], policy.guess(node)
    if kind == "known":
        return f"target {word} ends at node {node}, a deduced leaf that names {guess}"
    if kind == "won":
        return f"target {word} is 'won' by guessing {guess}"
    if kind == "slice":
        return f"target {word} passes node {node}, which does not list it"
    reply = policy.game.format_reply(code)
    return (
        f"target {word} falls off the tree: node {node} ({guess}) has no branch for "
        f"its reply {reply!r}"
    )


def consistency_faults(policy: Policy) -> list[str]:
    """Return the first way ``policy`` disagrees with its game's rules, or its
    statistics with its replay (empty when it checks out)."""
    scores, faults = replay_scores(policy)
    if scores is None:
        return faults
    weights = policy.data.weights
    recomputed = policy_stats(
        scores.tolist(),
        None if weights is None else weights.tolist(),
        prior=policy.data.prior is not None,
    )
    return stats_faults(policy.stats, recomputed)


def check_consistency(policy: Policy, where: str) -> None:
    """Replay every target of ``policy`` (see the module docstring).

    Raises:
        InconsistentPolicyError: the first fault found, naming ``where``.
    """
    faults = consistency_faults(policy)
    if faults:
        raise InconsistentPolicyError(f"{where}: policy {policy.name!r}: {faults[0]}")
