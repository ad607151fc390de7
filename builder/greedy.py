"""Greedy guess trees: at every node, the guess minimising a one-step metric.

This is the seeds' ``minimizing_tree``/``make_tree``: a node's guess is
``min(candidates, key=metric(partition_counts(guess, targets)))``, the first
candidate (in list order) winning ties. The candidates are the node's
remaining targets (hard mode), or the whole guess list when the node's size
lies inside the *inconsistent-guess window* (normal mode): the 2022 notebook
uses ``3 < n <= 125``, the 2020 notebook ``n > 3``.

The tree is grown breadth-first by a compiled kernel that works on a
permutation of target indices: each node owns a slice, and partitioning a node
stably reorders its slice into its children's slices (so each slice stays in
target-list order, which the seeds' tie-breaking and arithmetic depend on).
The kernel works in bounded chunks so the caller can show progress.

:class:`GreedyStep` is the one greedy step outside the kernel: it ranks the
guesses for a set of remaining targets with the same candidate rule
(:func:`considers_every_guess`) and the same metric arithmetic, best first.
The builder uses it to store each node's ranked alternatives, and live
answers (builder.live) use it when a history leaves a stored tree, so a live
answer is the guess the builder would have stored had the tree gone that way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from guesswork.builder.errors import IndistinguishableTargetsError
from guesswork.builder.matrices import reply_matrix
from guesswork.builder.partitions import (
    ARITHMETIC,
    METRIC_RANDOM,
    METRICS,
    SEED_2022,
    count_replies,
    fill_terms,
    metric_of_counts,
    metric_values,
)
from guesswork.builder.progress import Progress
from guesswork.builder.tree import GuessTree
from guesswork.builder.wordlists import WordList
from guesswork.client.games import Game, GuessMyWord
from guesswork.client.strategy import GreedyStrategy

#: The 2022 notebook's window: inconsistent guesses when 3 < n <= 125.
DEFAULT_WINDOW = (4, 125)
#: Work units (candidates x targets) per kernel call, so progress can update.
_CHUNK_WORK = 20_000_000

_OK = 0
_STUCK = 1


@dataclass(frozen=True)
class GreedyOptions:
    """How a greedy tree chooses guesses.

    Attributes:
        metric: one of ``max``, ``expectation``, ``neg_entropy``, ``entropy``,
            ``random``.
        hard: only consistent guesses (the remaining targets) are considered.
        window: (low, high) node sizes at which normal mode considers every
            word of the guess list; ``high=None`` means no upper bound.
        arithmetic: the seed notebook whose floating-point arithmetic breaks
            near-ties, ``2022`` or ``2020`` (see builder.partitions).
        seed: random seed for the ``random`` guesser.
    """

    metric: str = "neg_entropy"
    hard: bool = False
    window: tuple[int, int | None] = DEFAULT_WINDOW
    arithmetic: int = SEED_2022
    seed: int = 0


@numba.njit(cache=True)
def considers_every_guess(size: int, hard: bool, window_low: int, window_high: int) -> bool:
    """Return True when a node of ``size`` targets considers the whole guess list.

    The candidate rule of every greedy step: hard mode only ever considers the
    remaining targets; normal mode considers every guess inside the window
    ``window_low <= size <= window_high`` (``window_high < 0``: no upper bound).
    """
    return (not hard) and size >= window_low and (window_high < 0 or size <= window_high)


@dataclass(frozen=True)
class Ranked:
    """Guesses ranked by a greedy step, best first: vocabulary indices and metric values."""

    guesses: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class GreedyStep:
    """One greedy step: rank the guesses for a set of remaining targets.

    Attributes:
        options: the metric, mode, window and arithmetic.
        guess_count: size of the guess list proper (vocabulary indices below it
            are the words normal mode may try inside the window).
        reply_space: the game's number of reply codes.
    """

    options: GreedyOptions
    guess_count: int
    reply_space: int

    def candidates(self, consistent: np.ndarray) -> np.ndarray:
        """Return the vocabulary indices considered when ``consistent`` are the words left.

        ``consistent`` holds the remaining targets' vocabulary indices in
        target-list order; they are the candidates unless the window applies.
        """
        low, high = self.options.window
        if considers_every_guess(
            len(consistent), self.options.hard, low, -1 if high is None else high
        ):
            return np.arange(self.guess_count, dtype=np.int64)
        return consistent.astype(np.int64)

    def rank(
        self,
        consistent: np.ndarray,
        count: int,
        replies: Callable[[np.ndarray], np.ndarray],
    ) -> Ranked:
        """Return the best ``count`` guesses when ``consistent`` are the words left.

        ``consistent`` holds the remaining targets' vocabulary indices in
        target-list order (the seeds' arithmetic sums in that order).
        ``replies(candidates)`` must return the reply block: row i, column j is
        the reply of ``candidates[i]`` to the j-th remaining target. Ties go
        to the earlier candidate. The random guesser (and a lone target)
        ranks the consistent words in list order, with value 0.
        """
        if len(consistent) == 1 or self.options.metric == "random":
            chosen = consistent[:count].astype(np.int64)
            return Ranked(chosen, np.zeros(len(chosen)))
        candidates = self.candidates(consistent)
        block = np.ascontiguousarray(replies(candidates))
        values = metric_values(
            block, np.arange(len(candidates), dtype=np.int64),
            np.arange(len(consistent), dtype=np.int64),
            METRICS[self.options.metric], self.options.arithmetic, self.reply_space,
        )  # fmt: skip
        best = np.argsort(values, kind="stable")[:count]
        return Ranked(candidates[best], values[best])


@numba.njit(cache=True)
def _grow(
    matrix: np.ndarray,
    target_to_guess: np.ndarray,
    metric: int,
    arithmetic: int,
    hard: bool,
    window_low: int,
    window_high: int,
    randoms: np.ndarray,
    win_reply: int,
    n_guesses: int,
    perm: np.ndarray,
    scratch: np.ndarray,
    counts: np.ndarray,
    order: np.ndarray,
    fill: np.ndarray,
    sizes: np.ndarray,
    terms: np.ndarray,
    node_guess: np.ndarray,
    node_size: np.ndarray,
    node_depth: np.ndarray,
    node_start: np.ndarray,
    edge_offsets: np.ndarray,
    edge_reply: np.ndarray,
    edge_child: np.ndarray,
    target_scores: np.ndarray,
    state: np.ndarray,
    work_budget: int,
) -> None:
    """Expand nodes breadth-first from ``state[0]`` until done or out of budget.

    ``state`` holds [next node to expand, node count, edge count, targets
    scored, status, stuck node]; the kernel updates it in place.
    """
    cursor, n_nodes, n_edges, scored = state[0], state[1], state[2], state[3]
    work = 0
    while cursor < n_nodes and work < work_budget:
        node = cursor
        cursor += 1
        start = node_start[node]
        size = node_size[node]
        depth = node_depth[node]
        targets = perm[start : start + size]
        edge_offsets[node] = n_edges
        if size == 1:
            node_guess[node] = target_to_guess[targets[0]]
            target_scores[targets[0]] = depth
            scored += 1
            continue
        # Choose the guess.
        if metric == METRIC_RANDOM:
            best = target_to_guess[targets[int(randoms[node] * size)]]
        else:
            everything = considers_every_guess(size, hard, window_low, window_high)
            n_candidates = n_guesses if everything else size
            work += n_candidates * size
            fill_terms(size, metric, arithmetic, terms)
            best = -1
            best_value = np.inf
            for c in range(n_candidates):
                guess = c if everything else target_to_guess[targets[c]]
                n_codes = count_replies(matrix, guess, targets, counts, order)
                value = metric_of_counts(
                    counts, order, n_codes, metric, arithmetic, terms, sizes, best_value
                )
                for i in range(n_codes):
                    counts[order[i]] = 0
                if value < best_value:
                    best_value = value
                    best = guess
        node_guess[node] = best
        # Partition the slice stably by reply, branches in first-appearance order.
        n_codes = count_replies(matrix, best, targets, counts, order)
        if n_codes == 1 and order[0] != win_reply:
            state[4] = _STUCK
            state[5] = node
            return
        position = start
        for i in range(n_codes):
            fill[order[i]] = position
            position += counts[order[i]]
        row = matrix[best]
        for i in range(size):
            target = targets[i]
            code = row[target]
            scratch[fill[code]] = target
            fill[code] += 1
        perm[start : start + size] = scratch[start : start + size]
        position = start
        for i in range(n_codes):
            code = order[i]
            branch = counts[code]
            if code == win_reply:
                if branch != 1:
                    state[4] = _STUCK
                    state[5] = node
                    return
                target_scores[perm[position]] = depth
                scored += 1
            else:
                node_start[n_nodes] = position
                node_size[n_nodes] = branch
                node_depth[n_nodes] = depth + 1
                edge_reply[n_edges] = code
                edge_child[n_edges] = n_nodes
                n_nodes += 1
                n_edges += 1
            position += branch
            counts[code] = 0
    edge_offsets[cursor] = n_edges
    state[0], state[1], state[2], state[3] = cursor, n_nodes, n_edges, scored


def guess_vocabulary(targets: WordList, guesses: WordList) -> tuple[WordList, np.ndarray]:
    """Return the words a tree may name, and each target's index among them.

    The vocabulary is the guess list followed by any targets missing from it
    (the seeds allow that: their ``-AILS`` example guesses from a list that
    lacks the targets). Only the guess list proper is searched in normal mode.
    """
    position = guesses.index()
    extra = [word for word in targets.words if word not in position]
    vocabulary = (
        WordList.from_words(f"{guesses.name}+{targets.name}", guesses.words + tuple(extra))
        if extra
        else guesses
    )
    position = vocabulary.index()
    return vocabulary, np.array([position[word] for word in targets.words], dtype=np.int64)


def warm_up(game: Game) -> None:
    """Load (or compile, on first use) the kernels for ``game``'s reply codes.

    Callers that time a build call this first, so the timing measures the
    search rather than the one-off loading of compiled code. Guess My Word
    has no kernels (its trees are builder.guess_my_word's): nothing to load.
    """
    if isinstance(game, GuessMyWord):
        return
    word = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: game.length]
    only = WordList.from_words("warm-up", [word])
    build_greedy_tree(game, only, only, GreedyOptions())


def build_greedy_tree(
    game: Game,
    targets: WordList,
    guesses: WordList,
    options: GreedyOptions,
    *,
    progress: Progress | None = None,
) -> GuessTree:
    """Return the greedy tree for ``targets`` guessing from ``guesses``.

    Raises:
        ValueError: unknown metric or an invalid window.
        IndistinguishableTargetsError: two targets cannot be told apart.
    """
    if options.metric not in METRICS:
        raise ValueError(f"unknown metric {options.metric!r}; known: {', '.join(METRICS)}")
    low, high = options.window
    if low < 1 or (high is not None and high < low):
        raise ValueError(f"invalid window {low}:{'' if high is None else high}")
    vocabulary, target_to_guess = guess_vocabulary(targets, guesses)
    matrix = reply_matrix(game, vocabulary, targets)
    n_targets = len(targets)
    capacity = 2 * n_targets + 1
    randoms = np.random.default_rng(options.seed).random(capacity)
    perm = np.arange(n_targets, dtype=np.int64)
    node = {
        name: np.zeros(capacity, np.int64)
        for name in ("guess", "size", "depth", "start", "edge_offsets", "reply", "child")
    }
    node["size"][0], node["depth"][0] = n_targets, 1
    scores = np.zeros(n_targets, np.int64)
    counts = np.zeros(game.reply_space, np.int64)
    order = np.zeros(game.reply_space, np.int64)
    fill = np.zeros(game.reply_space, np.int64)
    sizes = np.zeros(game.reply_space, np.int64)
    terms = np.zeros(n_targets + 1, np.float64)
    scratch = np.zeros(n_targets, np.int64)
    state = np.array([0, 1, 0, 0, _OK, -1], dtype=np.int64)
    started = time.perf_counter()
    while state[0] < state[1] and state[4] == _OK:
        _grow(
            matrix, target_to_guess, METRICS[options.metric], options.arithmetic,
            options.hard, low, -1 if high is None else high, randoms, game.win_reply, len(guesses),
            perm, scratch, counts, order, fill, sizes, terms,
            node["guess"], node["size"], node["depth"], node["start"],
            node["edge_offsets"], node["reply"], node["child"], scores, state, _CHUNK_WORK,
        )  # fmt: skip
        if progress is not None:
            progress.update(int(state[3]), n_targets, time.perf_counter() - started)
    if state[4] == _STUCK:
        stuck = int(state[5])
        words = [targets.words[t] for t in perm[node["start"][stuck] :][: node["size"][stuck]]]
        raise IndistinguishableTargetsError(
            f"targets {', '.join(words[:5])} give the same reply to every guess; "
            f"remove all but one of them"
        )
    n_nodes, n_edges = int(state[1]), int(state[2])
    return GuessTree(
        game=game,
        targets=targets,
        guesses=guesses,
        vocabulary=vocabulary.words,
        node_guess=node["guess"][:n_nodes].astype(np.int32),
        node_size=node["size"][:n_nodes].astype(np.int32),
        node_depth=node["depth"][:n_nodes].astype(np.int32),
        node_first=node["start"][:n_nodes].astype(np.int32),
        edge_offsets=node["edge_offsets"][: n_nodes + 1].astype(np.int32),
        edge_reply=node["reply"][:n_edges].astype(np.int32),
        edge_child=node["child"][:n_edges].astype(np.int32),
        target_scores=scores.astype(np.int32),
        target_order=perm.astype(np.int32),
    )


def step_of(strategy: GreedyStrategy, guess_count: int, game: Game) -> GreedyStep:
    """Return the step a stored greedy strategy describes, for a guess list of ``guess_count``."""
    options = GreedyOptions(
        metric=strategy.metric,
        hard=strategy.window is None,
        window=DEFAULT_WINDOW if strategy.window is None else strategy.window,
        arithmetic=ARITHMETIC[strategy.arithmetic],
        seed=strategy.seed or 0,
    )
    return GreedyStep(options, guess_count, game.reply_space)


def _block_of(matrix: np.ndarray, remaining: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """Return the reply-block reader of ``matrix`` for the ``remaining`` target columns."""

    def block(candidates: np.ndarray) -> np.ndarray:
        rows: np.ndarray = matrix[np.ix_(candidates, remaining)]
        return rows

    return block


def node_alternatives(tree: GuessTree, step: GreedyStep, count: int) -> dict[str, np.ndarray]:
    """Return each node's ``count`` next-best guesses by ``step``, as the policy stores them.

    The alternatives of a node are the step's ranking at that node without the
    node's own guess (which an optimised tree may not rank first), best first:
    what a player is offered when the game refuses the suggested word. Returns
    the format's ``alt_offsets``, ``alt_guess`` and ``alt_value`` arrays.
    """
    vocabulary, target_to_guess = guess_vocabulary(tree.targets, tree.guesses)
    matrix = reply_matrix(tree.game, vocabulary, tree.targets)
    offsets = np.zeros(tree.node_count + 1, np.int32)
    guesses: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for node in range(tree.node_count):
        size = int(tree.node_size[node])
        kept = 0
        if size > 1:
            first = int(tree.node_first[node])
            remaining = np.sort(tree.target_order[first : first + size]).astype(np.int64)
            ranked = step.rank(target_to_guess[remaining], count + 1, _block_of(matrix, remaining))
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
