"""The joint greedy step of multi-board Wordle (Dordle, Quordle, Octordle, N boards).

Each guess is played on every unsolved board and each board replies by
Wordle's rule (client.multiboard). The step ranks guesses for all unsolved
boards together, scoring each candidate ``g`` by the joint partition it makes,
the boards taken as independent (:data:`~guesswork.client.multiboard.JOINT_METRIC`):

    value(g) = sum over boards b of neg_entropy_b(g)  -  SOLVE_BONUS * sum over b of p_b(g)

lower being better: ``neg_entropy_b`` is minus the bits ``g`` tells about
board ``b``'s secret (the single-board step's own metric values, same
arithmetic and weights: :meth:`GreedyStep.values`), so the sum is minus the
information about the joint secret; ``p_b(g)`` is the chance that ``g`` *is*
board ``b``'s secret (its weight over the board's, or one over the board's
size), so the second sum is the expected number of boards the guess solves,
each worth :data:`SOLVE_BONUS` bits: a guess that may solve a board saves a
turn that information alone does not count. A board known to one word gets
that word played first (of several, the first such board's).

The candidates are those of the single-board step (:meth:`GreedyStep.candidates`)
for each board, pooled: the whole guess list as soon as one board lies inside
the window, else every board's remaining targets. The step is always normal
mode and information-based whatever the policy's own metric and mode: the
policy gives the lists, the arithmetic and the weights.

Both the live answers (builder.live) and the evaluation (builder.multiboard_eval)
rank through :func:`rank_boards`; they differ only in how they read replies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from .greedy import GreedyStep, Ranked
from .metrics import DEFAULT_WINDOW, smallest

#: Bits one expected solved board is worth in the joint value, chosen by
#: measurement (builder.multiboard_eval, 2309 answers x 12972 guesses, sample seed
#: 1, the same games for each): Dordle, 3,000 games, mean guesses 4.810 at 0
#: (information alone), 4.783 at 1, 4.773 at 2, 4.773 at 2.5, 4.778 at 3, 4.786 at 4;
#: Quordle, 600 games: 6.942 at 1, 6.933 at 2, 6.923 at 3.
SOLVE_BONUS = 2.0

#: Returns one board's metric values for the candidates: (board number, candidates).
BoardValues = Callable[[int, np.ndarray], np.ndarray]


def joint_step(step: GreedyStep) -> GreedyStep:
    """Return the single-board step the joint step scores each board with: ``step``'s
    lists, arithmetic and window, in normal mode, ranking by information
    (neg_entropy) whatever ``step``'s own metric; a hard-mode step's boards
    consider the whole guess list inside the default window."""
    options = step.options
    return replace(
        step,
        options=replace(
            options,
            metric="neg_entropy",
            hard=False,
            nyt_hard=False,
            window=DEFAULT_WINDOW if options.hard else options.window,
        ),
    )


def joint_candidates(step: GreedyStep, boards: Sequence[np.ndarray]) -> np.ndarray:
    """Return the vocabulary indices (ascending) the joint step considers: each
    board's single-board candidates, pooled (see the module docstring).

    ``boards`` holds each unsolved board's remaining targets as vocabulary indices.
    """
    pooled = [step.candidates(board) for board in boards]
    if any(len(part) == step.guess_count and part[-1] == step.guess_count - 1 for part in pooled):
        # One board considers the whole guess list; the others' targets are in it
        # unless they lie past it (words the vocabulary adds), so keep those too.
        extra = [board[board >= step.guess_count] for board in boards]
        whole = np.arange(step.guess_count, dtype=np.int64)
        if not any(len(words) for words in extra):
            return whole
        return np.unique(np.concatenate([whole, *extra]))
    return np.unique(np.concatenate(pooled)).astype(np.int64)


def distinct_boards(boards: Sequence[np.ndarray]) -> list[int]:
    """Return, for each board, the number of the first board with the same targets left
    (its own number if none before it): boards alike have equal values, so each
    distinct board is valued once (a fresh game's boards are all alike)."""
    first: dict[bytes, int] = {}
    return [
        first.setdefault(np.ascontiguousarray(board, dtype=np.int64).tobytes(), number)
        for number, board in enumerate(boards)
    ]


def joint_cost(step: GreedyStep, boards: Sequence[np.ndarray]) -> int:
    """Return the reply cells :func:`rank_boards` computes for ``boards`` (as it takes
    them): its candidates times the targets of every distinct board, what its time
    and the live answer's CPU grow with (about 70 million cells a second on two
    cores, builder.reply_kernels)."""
    owners = distinct_boards(boards)
    targets = sum(len(board) for number, board in enumerate(boards) if owners[number] == number)
    return len(joint_candidates(step, boards)) * targets


def rank_boards(
    step: GreedyStep,
    boards: Sequence[np.ndarray],
    count: int,
    values_of: BoardValues,
    weights: Sequence[np.ndarray | None],
) -> Ranked:
    """Return the best ``count`` guesses for the unsolved ``boards`` together, best
    first, with their joint values (lower is better).

    ``step`` is a :func:`joint_step`; ``boards[b]`` holds board ``b``'s remaining
    targets as vocabulary indices (in target-list order, at least one);
    ``values_of(b, candidates)`` returns board ``b``'s neg_entropy values for
    the candidates (:meth:`GreedyStep.values`); ``weights[b]`` the board's
    target weights in the order of ``boards[b]`` (None: alike). The words of
    boards known to one word come first, in board order, then the rest by value;
    ties go to the earlier candidate.

    Raises:
        ValueError: no boards, an empty board, or weights not one per board.
    """
    if not boards or any(len(board) == 0 for board in boards):
        raise ValueError("rank_boards needs at least one board, each with a target left")
    if len(weights) != len(boards):
        raise ValueError(f"{len(weights)} weight arrays for {len(boards)} boards")
    candidates = joint_candidates(step, boards)
    total = np.zeros(len(candidates))
    owners = distinct_boards(boards)
    valued: dict[int, np.ndarray] = {}
    for number, board in enumerate(boards):
        # Boards alike are valued once: 32 fresh boards cost one board's work, not 32.
        owner = owners[number]
        if owner not in valued:
            valued[owner] = values_of(owner, candidates)
        total += valued[owner]
        board_weights = weights[number]
        chance = (
            np.full(len(board), 1.0 / len(board))
            if board_weights is None
            else np.asarray(board_weights, np.float64) / float(np.sum(board_weights))
        )
        # Candidates are ascending, so each of the board's words is found by bisection.
        at = np.searchsorted(candidates, board)
        total[at] -= SOLVE_BONUS * chance
    known = [int(board[0]) for board in boards if len(board) == 1]
    if not known:
        chosen = smallest(total, count)
    else:
        at_known = np.searchsorted(candidates, list(dict.fromkeys(known)))
        rest = total.copy()
        rest[at_known] = np.inf
        chosen = np.concatenate([at_known, smallest(rest, count)])[:count]
    return Ranked(candidates[chosen], total[chosen])
