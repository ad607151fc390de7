"""The full proof of a policy from outside: everything it claims, derived again.

A policy's checksums and content hash say its bytes are the ones its writer
sealed, not that its writer was honest: anyone can seal a tree. Reading a
policy checks its structure and (for a policy file) replays every target
(client.replay); :func:`proof_faults` goes on to derive again what the policy
claims of itself, so that a re-sealed forgery is refused on every path that
serves it (the trust boundary, client.trust, runs this once per content hash):

* every edge replayed and the statistics recomputed, the NYT rule on every
  path, stored values of alternatives and multi-board openings
  (builder.verify.verify_policy);
* a greedy strategy's step at every node (builder.alternatives.step_rankings):
  each node's guess must be the one the named step picks there, the first of
  the candidates of best value (the step's own tie-break: an equal-partition
  word stored in its place is refused); a ``random`` strategy's pick is its
  seeded draw (builder.greedy_tree), drawn again;
* every stored alternative: each node's list must be the step's ranking
  there, without the node's guess, best first, its values bit for bit, and as
  long as the builder stores (client.core.MAX_ALTERNATIVES; fewer only where
  fewer guesses are ranked). A policy of format 1, written before
  alternatives existed, stores none and is accepted without them;
* an optimised tree's certificate (builder.verify.verify_certificate): its
  values and bounds recomputed from the tree and the reply matrix.

The cost is about that of ranking the alternatives when the policy was built
(one greedy ranking per node) plus one reply matrix (cached on disk,
builder.matrix_cache).
"""

from __future__ import annotations

import msgpack
import numpy as np

from ..client.core import MAX_ALTERNATIVES
from ..client.probe import Policy
from ..client.strategy import GreedyStrategy, OptimalStrategy, WordTreeStrategy

# The version of what proof_faults checks: client.trust keys its records by it.
from ..client.trust import PROOF_VERSION
from .alternatives import step_rankings
from .greedy import greedy_step
from .metrics import METRIC_RANDOM, METRICS
from .verify import verify_certificate, verify_policy
from .wordlists import WordList

__all__ = ["PROOF_VERSION", "derivation_faults", "proof_faults"]


def proof_faults(policy: Policy) -> list[str]:
    """Return the first fault of ``policy`` against everything it claims (the module
    doc), as a one-item list; empty when every claim is derived again."""
    return verify_policy(policy) or derivation_faults(policy) or verify_certificate(policy)


def _core_format(policy: Policy) -> int:
    """Return the format number of the policy's core (decoding checked it is an int)."""
    top = msgpack.unpackb(policy.core, raw=False)
    return int(top["format"])


def derivation_faults(policy: Policy) -> list[str]:
    """Return the first node whose guess or alternatives are not what the policy's
    greedy step derives there (a one-item list; empty when all are).

    A greedy policy's guesses are checked against its step; an optimised
    tree's guesses are its search's (its certificate proves them), and only its
    alternatives, ranked by its fallback step, are derived here. A Guess My
    Word tree has neither (builder.verify checks it stores no alternatives).
    """
    strategy = policy.data.strategy
    if isinstance(strategy, WordTreeStrategy):
        return []
    data = policy.data
    step = greedy_step(policy)
    arrays = data.numpy_arrays()
    targets = WordList(data.targets.name, policy.targets, data.targets.sha256)
    guesses = WordList(data.guesses.name, policy.guesses, data.guesses.sha256)
    expected, picks = step_rankings(
        policy.game,
        targets,
        guesses,
        arrays,
        step,
        MAX_ALTERNATIVES,
        data.numpy_weights(),
    )
    node_guess = arrays["node_guess"].astype(np.int64)
    if isinstance(strategy, GreedyStrategy):
        if METRICS[strategy.metric] == METRIC_RANDOM:
            picks = _random_picks(policy, strategy, arrays, picks)
        wrong = np.flatnonzero(picks != node_guess)
        if len(wrong):
            node = int(wrong[0])
            return [
                f"node {node}: the stored guess {policy.vocabulary[int(node_guess[node])]} is "
                f"not the {strategy.label} step's choice there, "
                f"{policy.vocabulary[int(picks[node])]}"
            ]
    else:
        assert isinstance(strategy, OptimalStrategy)
    return _alternative_faults(policy, arrays, expected)


def _random_picks(
    policy: Policy,
    strategy: GreedyStrategy,
    arrays: dict[str, np.ndarray],
    picks: np.ndarray,
) -> np.ndarray:
    """Return the random guesser's picks: at a node of several targets, the target at
    the node's seeded draw among them (builder.greedy_tree draws ``randoms[node]``
    from ``default_rng(seed)`` for node ``node``, over the node's targets in
    target-list order: each parent splits its targets stably)."""
    sizes, firsts = arrays["node_size"].astype(np.int64), arrays["node_first"].astype(np.int64)
    order = arrays["target_order"].astype(np.int64)
    randoms = np.random.default_rng(strategy.seed or 0).random(len(sizes))
    position = {word: i for i, word in reversed(list(enumerate(policy.vocabulary)))}
    target_to_guess = np.array([position[word] for word in policy.targets], dtype=np.int64)
    drawn = picks.copy()
    for node in np.flatnonzero(sizes > 1).tolist():
        remaining = np.sort(order[firsts[node] : firsts[node] + sizes[node]])
        drawn[node] = target_to_guess[remaining[int(randoms[node] * sizes[node])]]
    return drawn


def _alternative_faults(
    policy: Policy, arrays: dict[str, np.ndarray], expected: dict[str, np.ndarray]
) -> list[str]:
    """Return the first node whose stored alternatives differ from ``expected`` (the
    step's ranking there), as a one-item list; empty when all agree."""
    stored_offsets = arrays["alt_offsets"].astype(np.int64)
    if len(arrays["alt_guess"]) == 0 and _core_format(policy) == 1:
        return []  # written before alternatives existed: it claims none
    want_offsets = expected["alt_offsets"].astype(np.int64)
    stored_guess, want_guess = arrays["alt_guess"], expected["alt_guess"]
    stored_value, want_value = arrays["alt_value"], expected["alt_value"]
    for node in range(len(want_offsets) - 1):
        start, stop = int(stored_offsets[node]), int(stored_offsets[node + 1])
        low, high = int(want_offsets[node]), int(want_offsets[node + 1])
        if stop - start != high - low:
            return [
                f"node {node}: {stop - start} alternatives are stored where the step ranks "
                f"{high - low}"
            ]
        if not np.array_equal(stored_guess[start:stop], want_guess[low:high]):
            at = int(np.flatnonzero(stored_guess[start:stop] != want_guess[low:high])[0])
            stored_word = policy.vocabulary[int(stored_guess[start + at])]
            return [
                f"node {node}: alternative {at + 1} is {stored_word}, where the step ranks "
                f"{policy.vocabulary[int(want_guess[low + at])]}"
            ]
        # Bit for bit: the values are the step's, as the builder stored them.
        if not np.array_equal(
            stored_value[start:stop].view(np.int64), want_value[low:high].view(np.int64)
        ):
            return [f"node {node}: an alternative's stored value is not its value there"]
    return []
