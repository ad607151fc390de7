"""Growing a whole greedy tree (builder.greedy's step at every node), compiled.

This is the seeds' ``minimizing_tree``/``make_tree``: a node's guess is
``min(candidates, key=metric(partition_counts(guess, targets)))``, the first
candidate (in list order) winning ties; the candidates follow
:func:`~guesswork.builder.greedy.considers_every_guess`. The tree is grown
breadth-first by a compiled kernel (C, ``builder/_partitions.c``: no JIT)
that works on a permutation of target indices: each node owns a slice, and
partitioning a node stably reorders its slice into its children's slices (so
each slice stays in target-list order, which the seeds' tie-breaking and
arithmetic depend on). The kernel works in
bounded chunks so the caller can show progress. With target weights (a prior)
each node ranks guesses by the weighted metric (builder.partitions).
"""

from __future__ import annotations

import time

import numpy as np

from ..client.games import Game
from ..client.progress import Progress
from . import _partitions
from .errors import IndistinguishableTargetsError
from .greedy import GreedyOptions, check_approx_entropy
from .matrices import letter_array, letter_count, reply_matrix
from .metrics import METRIC_APPROX_ENTROPY, METRICS
from .nyt_hard import empty_state
from .tree import GuessTree
from .wordlists import WordList, guess_vocabulary

#: Work units (candidates x targets) per kernel call, so progress can update.
_CHUNK_WORK = 20_000_000
_OK = 0
_STUCK = 1


def warm_up(game: Game) -> None:
    """Do nothing: the kernels are C, loaded with this module (there is nothing
    to compile on first use). Kept for callers that warm up before timing a build.
    """
    del game


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
    if options.nyt_hard and (options.hard or not game.coloured_replies):
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
    # (placeholders of the same types otherwise).
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
    # The kernel (builder/_partitions.c) expands nodes breadth-first from
    # state[0] until done or out of budget. ``state`` holds [next node to
    # expand, node count, edge count, targets scored, status, stuck node]; the
    # kernel updates it in place. With NYT hard mode, ``nyt_states[i]`` is node
    # i's constraint state (builder.nyt_hard) over the vocabulary's letters
    # ``nyt_letters``: a candidate from the guess list must be legal in it, and
    # each child's state is written when the child is made. ``letters`` and the
    # retry percent serve approx_entropy (the exact entropy only for the
    # candidates partitions.retried_candidates keeps, ties to the earlier one).
    # Non-empty weights rank by the weighted metric (partitions.metric_of_masses),
    # ``mass`` its scratch. The GIL is released while it runs.
    while state[0] < state[1] and state[4] == _OK:
        _partitions.grow(
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
