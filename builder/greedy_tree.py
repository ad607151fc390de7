"""Growing a whole greedy tree (builder.greedy's step at every node), compiled.

This is the seeds' ``minimizing_tree``/``make_tree``: a node's guess is
``min(candidates, key=metric(partition_counts(guess, targets)))``, the first
candidate (in list order) winning ties; the candidates follow
:func:`~guesswork.builder.greedy.considers_every_guess`. The tree is grown
breadth-first by a compiled kernel that works on a permutation of target
indices: each node owns a slice, and partitioning a node stably reorders its
slice into its children's slices (so each slice stays in target-list order,
which the seeds' tie-breaking and arithmetic depend on). The kernel works in
bounded chunks so the caller can show progress. With target weights (a prior)
each node ranks guesses by the weighted metric (builder.partitions).
"""

from __future__ import annotations

import time

import numba
import numpy as np

from ..client.games import Game, GuessMyWord, Wordle
from .errors import IndistinguishableTargetsError
from .greedy import (
    GreedyOptions,
    check_approx_entropy,
    considers_every_guess,
)
from .matrices import letter_array, letter_count, reply_matrix
from .metrics import METRIC_APPROX_ENTROPY, METRIC_NEG_ENTROPY, METRIC_RANDOM, METRICS
from .nyt_hard import empty_state
from .nyt_hard_jit import advance_state, is_legal
from .partitions import (
    count_replies,
    fill_terms,
    metric_of_counts,
    metric_of_masses,
    retried_candidates,
    weigh_replies,
)
from .progress import Progress
from .tree import GuessTree
from .wordlists import WordList, guess_vocabulary

#: Work units (candidates x targets) per kernel call, so progress can update.
_CHUNK_WORK = 20_000_000
_OK = 0
_STUCK = 1


@numba.njit(cache=True)
def _approx_entropy_guess(
    matrix: np.ndarray,
    target_to_guess: np.ndarray,
    targets: np.ndarray,
    everything: bool,
    n_guesses: int,
    letters: np.ndarray,
    retry_percent: float,
    arithmetic: int,
    counts: np.ndarray,
    order: np.ndarray,
    sizes: np.ndarray,
    terms: np.ndarray,
    nyt: bool,
    nyt_letters: np.ndarray,
    nyt_state: np.ndarray,
) -> tuple[int, int]:
    """Return approx_entropy's guess for the node holding ``targets``, and the work done.

    The candidates are the whole guess list (``everything``; under NYT hard
    mode only its legal words) or the node's targets; the exact
    ``neg_entropy`` is computed only for those :func:`retried_candidates`
    keeps, ties going to the earlier candidate, as in :meth:`GreedyStep.rank`.
    """
    consistent = target_to_guess[targets]
    if everything:
        candidates = np.empty(n_guesses, np.int64)
        n_candidates = 0
        for guess in range(n_guesses):
            if not nyt or is_legal(nyt_letters[guess], nyt_state):
                candidates[n_candidates] = guess
                n_candidates += 1
        candidates = candidates[:n_candidates]
    else:
        candidates = consistent
    retried = retried_candidates(letters, candidates, consistent, retry_percent)
    size = targets.shape[0]
    fill_terms(size, METRIC_NEG_ENTROPY, arithmetic, terms)
    best = -1
    best_value = np.inf
    for position in retried:
        guess = candidates[position]
        n_codes = count_replies(matrix, guess, targets, counts, order)
        value = metric_of_counts(
            counts, order, n_codes, METRIC_NEG_ENTROPY, arithmetic, terms, sizes, best_value
        )
        for i in range(n_codes):
            counts[order[i]] = 0
        if value < best_value:
            best_value = value
            best = guess
    work = candidates.shape[0] * letters.shape[1] + retried.shape[0] * size
    return best, work


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
    nyt: bool,
    nyt_letters: np.ndarray,
    nyt_states: np.ndarray,
    letters: np.ndarray,
    retry_percent: float,
    weights: np.ndarray,
    mass: np.ndarray,
) -> None:
    """Expand nodes breadth-first from ``state[0]`` until done or out of budget.

    ``state`` holds [next node to expand, node count, edge count, targets
    scored, status, stuck node]; the kernel updates it in place. With
    ``nyt`` (NYT hard mode), ``nyt_states[i]`` is node i's constraint state
    (builder.nyt_hard) over the vocabulary's letters ``nyt_letters``: a
    candidate from the guess list must be legal in it, and each child's
    state is written when the child is made. ``letters`` (the vocabulary's
    letter array) and ``retry_percent`` serve ``approx_entropy``. A non-empty
    ``weights`` (float64, one per target) ranks guesses by the weighted metric
    (partitions.metric_of_masses), with ``mass`` as scratch.
    """
    weighted = weights.shape[0] > 0
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
        elif metric == METRIC_APPROX_ENTROPY:
            best, done = _approx_entropy_guess(
                matrix,
                target_to_guess,
                targets,
                considers_every_guess(size, hard, window_low, window_high),
                n_guesses,
                letters,
                retry_percent,
                arithmetic,
                counts,
                order,
                sizes,
                terms,
                nyt,
                nyt_letters,
                nyt_states[node if nyt else 0],
            )
            work += done
        else:
            everything = considers_every_guess(size, hard, window_low, window_high)
            n_candidates = n_guesses if everything else size
            work += n_candidates * size
            fill_terms(size, metric, arithmetic, terms)
            best = -1
            best_value = np.inf
            node_weights = weights[targets] if weighted else weights
            node_mass = node_weights.sum()
            for c in range(n_candidates):
                guess = c if everything else target_to_guess[targets[c]]
                if nyt and everything and not is_legal(nyt_letters[guess], nyt_states[node]):
                    continue
                if weighted:
                    n_codes = weigh_replies(
                        matrix, False, guess, targets, node_weights, counts, order, mass
                    )
                    value = metric_of_masses(mass, order, n_codes, metric, node_mass, win_reply)
                else:
                    n_codes = count_replies(matrix, guess, targets, counts, order)
                    value = metric_of_counts(
                        counts, order, n_codes, metric, arithmetic, terms, sizes, best_value
                    )
                for i in range(n_codes):
                    counts[order[i]] = 0
                    mass[order[i]] = 0.0
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
                if nyt:
                    advance_state(nyt_states[node], nyt_letters[best], code, nyt_states[n_nodes])
                edge_reply[n_edges] = code
                edge_child[n_edges] = n_nodes
                n_nodes += 1
                n_edges += 1
            position += branch
            counts[code] = 0
    edge_offsets[cursor] = n_edges
    state[0], state[1], state[2], state[3] = cursor, n_nodes, n_edges, scored


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
    weights: np.ndarray | None = None,
) -> GuessTree:
    """Return the greedy tree for ``targets`` guessing from ``guesses``.

    ``weights`` (one positive number per target: how likely it is the secret)
    makes each node rank guesses by the weighted metric; None, every target alike.

    Raises:
        ValueError: unknown metric, an invalid window, or NYT hard mode for a
            game that is not Wordle-like (or with ``hard``), or approx_entropy
            for a game that is not Wordle-like or with a retry percent
            outside (0, 100], or weights with approx_entropy or the random
            guesser, or not one positive weight per target.
        IndistinguishableTargetsError: two targets cannot be told apart.
    """
    if weights is not None:
        if options.metric in ("approx_entropy", "random"):
            raise ValueError(f"target weights do not apply to the {options.metric} step")
        if len(weights) != len(targets) or (np.asarray(weights) <= 0).any():
            raise ValueError("target weights must be one positive number per target")
    if options.metric not in METRICS:
        raise ValueError(f"unknown metric {options.metric!r}; known: {', '.join(METRICS)}")
    if options.nyt_hard and (options.hard or not isinstance(game, Wordle)):
        raise ValueError(f"NYT hard mode applies to Wordle's normal guessing, not {game.id}")
    approx = METRICS[options.metric] == METRIC_APPROX_ENTROPY
    check_approx_entropy(options, game)
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
    # NYT hard mode: the vocabulary's letters and each node's constraint state
    # (placeholders of the same types otherwise, so the kernel compiles once).
    nyt_letters, nyt_states = np.zeros((1, 1), np.uint8), np.zeros((1, 1), np.int8)
    if options.nyt_hard:
        nyt_letters = letter_array(vocabulary.words, game.length)
        nyt_states = np.zeros((capacity, game.length + letter_count(nyt_letters)), np.int8)
        nyt_states[0] = empty_state(game.length, letter_count(nyt_letters))
    # approx_entropy: the vocabulary's letters (a placeholder otherwise).
    letters = letter_array(vocabulary.words, game.length) if approx else np.zeros((1, 1), np.uint8)
    weight_array = np.zeros(0, np.float64) if weights is None else np.asarray(weights, np.float64)
    mass = np.zeros(game.reply_space, np.float64)
    started = time.perf_counter()
    while state[0] < state[1] and state[4] == _OK:
        _grow(
            matrix,
            target_to_guess,
            METRICS[options.metric],
            options.arithmetic,
            options.hard,
            low,
            -1 if high is None else high,
            randoms,
            game.win_reply,
            len(guesses),
            perm,
            scratch,
            counts,
            order,
            fill,
            sizes,
            terms,
            node["guess"],
            node["size"],
            node["depth"],
            node["start"],
            node["edge_offsets"],
            node["reply"],
            node["child"],
            scores,
            state,
            _CHUNK_WORK,
            options.nyt_hard,
            nyt_letters,
            nyt_states,
            letters,
            options.retry_percent,
            weight_array,
            mass,
        )
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
