"""The entry point: search, lay the chosen guesses out as a tree, certify it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...client.games import Game
from ...client.progress import Progress
from ..errors import SearchError
from ..tree import GuessTree, lay_out_tree
from ..wordlists import WordList
from .certificate import Certificate, Optimized, node_bounds_of, node_values
from .checkpoint import Checkpoint, fingerprint
from .cluster import root_search
from .problem import TIE_BREAK_OBJECTIVES, SearchOptions, make_problem
from .search import Search
from .symmetry import SymmetryHook
from .tie_break import optimize_tie_break


def optimize(
    game: Game,
    targets: WordList,
    guesses: WordList,
    options: SearchOptions,
    *,
    symmetry: SymmetryHook | None = None,
    checkpoint: Path | None = None,
    progress: Progress | None = None,
    weights: np.ndarray | None = None,
) -> Optimized:
    """Search for the best tree for ``targets`` guessed from ``guesses``.

    ``weights`` (one positive integer per target, the total objectives only) makes
    the objective the weighted total: the tree of least expected guesses when the
    secret is drawn by the weights (see :mod:`.search`). A tie-break objective
    runs as several searches (:mod:`.tie_break`).

    Returns:
        The tree, its certificate and the search outcome.

    Raises:
        SearchError: contradictory options, an unknown first guess, a cap no
            tree meets (InfeasibleCapError), or a checkpoint from another search.
        BoundStoreError: ``options.bound_store`` names a file that cannot be used.
    """
    options.check()
    if options.objective in TIE_BREAK_OBJECTIVES:
        return optimize_tie_break(
            optimize,
            game,
            targets,
            guesses,
            options,
            symmetry=symmetry,
            checkpoint=checkpoint,
            progress=progress,
            weights=weights,
        )
    problem, vocabulary = make_problem(game, targets, guesses, weights)
    first: int | None = None
    if options.first_guess is not None:
        word = options.first_guess.upper()
        position = vocabulary.index()
        if word not in position or (options.hard and word not in targets.index()):
            where = "targets" if options.hard else "guess list"
            raise SearchError(f"first guess {options.first_guess!r} is not in the {where}")
        first = position[word]
    root = root_search(  # in process, or on a cluster (see .cluster)
        problem,
        options,
        symmetry=symmetry,
        checkpoint=Checkpoint(
            checkpoint, fingerprint(game, targets, guesses, options, problem.weights)
        ),
        progress=progress,
        words=vocabulary.words,
    )
    try:
        outcome = root.run(first)
        tree, values, bounds = build_tree(root.search, game, targets, guesses, vocabulary)
    finally:
        try:
            root.close()  # raises KeyboardInterrupt if Ctrl-C came while closing
        finally:
            root.search.flush()  # what was proven stays proven, even if the run stopped
    names = vocabulary.words
    # A search over every opener records each opener and what settled it, so the
    # certificate proves the choice; otherwise the first 64 roots tried suffice.
    everything = any(r.settled_by != "search" for r in outcome.roots)
    roots = outcome.roots if everything else outcome.roots[:64]
    settled_by = tuple(r.settled_by for r in roots) if everything else ()
    # What proves each opener the search settled, so `verify --prove` need not search
    # every one again (the tree's own opener needs none: the tree is its proof).
    witnesses = {
        names[r.guess]: r.witness
        for r in roots
        if everything and r.witness is not None and r.guess != outcome.first_guess
    }
    certificate = Certificate(
        objective=options.objective,
        value=outcome.value,
        lower_bound=outcome.lower_bound,
        proven=outcome.proven,
        beam=options.beam,
        max_guesses=options.max_guesses,
        first_guess=names[first] if first is not None else None,
        hard=options.hard,
        nyt_hard=options.nyt_hard,
        node_values=values,
        node_bounds=bounds,
        roots=[(names[r.guess], r.value, r.exact) for r in roots],
        settled_by=settled_by,
        lead_opener=options.lead_opener.upper() if everything and options.lead_opener else None,
        witnesses=witnesses,
    )
    return Optimized(tree, certificate, outcome)


def build_tree(
    search: Search, game: Game, targets: WordList, guesses: WordList, vocabulary: WordList
) -> tuple[GuessTree, np.ndarray, np.ndarray]:
    """Return the flat tree of the search's choices, each node's value and static bound.

    Nodes are breadth-first; a node's branches are in order of their first
    target in list order, as in the greedy trees (see :func:`lay_out_tree`).

    Returns:
        (tree, node values, node static bounds).

    Raises:
        SearchError: a node's set has no tree that meets the worst-case cap.
    """
    root_depth = search.options.root_depth

    states: list[bytes] = []

    def choose(members: np.ndarray, depth: int, path: tuple[tuple[int, int], ...]) -> int:
        states.append(search.values.path_state(path))  # called once per node, in node order
        return search.choice(members, root_depth - depth + 1, states[-1])[1]

    layout = lay_out_tree(game, targets, guesses, vocabulary.words, search.problem.matrix, choose)
    tree = layout.tree
    left = [root_depth - depth + 1 for depth in tree.node_depth.tolist()]
    values = node_values(tree, search.values.minimax, search.values.weights)
    bounds = node_bounds_of(
        search.problem, search.options, layout.node_targets, left, search.static, states
    )
    return tree, values, bounds
