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
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from builder.matrices import reply_matrix
from builder.partitions import (
    METRIC_RANDOM,
    METRICS,
    SEED_2022,
    count_replies,
    fill_terms,
    metric_of_counts,
)
from builder.progress import Progress
from builder.tree import GuessTree
from builder.wordlists import WordList
from client.errors import GuessworkError
from client.games import Game

#: The 2022 notebook's window: inconsistent guesses when 3 < n <= 125.
DEFAULT_WINDOW = (4, 125)
#: Work units (candidates x targets) per kernel call, so progress can update.
_CHUNK_WORK = 20_000_000

_OK = 0
_STUCK = 1


class IndistinguishableTargetsError(GuessworkError, ValueError):
    """Some targets give identical replies to every guess, so no tree can split them."""


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
            everything = (
                (not hard) and size >= window_low and (window_high < 0 or size <= window_high)
            )
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
    search rather than the one-off loading of compiled code.
    """
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
