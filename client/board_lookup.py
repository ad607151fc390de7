"""Multi-board positions answered for one policy: :func:`suggest_boards`.

Each board's history is checked as a single-board one is (client.lookup), its
errors tagged with the board; the boards' guesses must tell one game
(client.multiboard.MultiBoard.progress); each unsolved board's targets left are
found by the game's rules, and the live solver ranks guesses for them together
(builder.multiboard's joint step); the openings a policy stores (its first
guesses, and Dordle's second) are looked up instead (client.board_openings).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .board_openings import Ranked
from .core import DEFAULT_ALTERNATIVES
from .errors import BadRequestError, GuessworkError, LiveAnswerUnavailableError
from .lookup import PolicyLookup, Turn, check_alternatives
from .multiboard import (
    JOINT_METRIC,
    BoardsSuggestion,
    BoardState,
    check_board_count,
    multi_board,
)
from .progress import tell
from .suggestion import LIVE, STORED
from .text import plural, with_article

if TYPE_CHECKING:
    import numpy as np


@contextmanager
def on_board(number: int) -> Iterator[None]:
    """Tag an error raised inside with the board it is about (0-based ``number``): its
    message says "board N:" (1-based) and its field is ``boards[N]``, before any
    turn's (``boards[N].history[T].reply``)."""
    try:
        yield
    except GuessworkError as error:
        field = error.metadata.get("field", "")
        error.metadata["field"] = f"boards[{number}]" + (f".{field}" if field else "")
        error.args = (f"board {number + 1}: {error}", *error.args[1:])
        raise


def suggest_boards(
    lookup: PolicyLookup,
    histories: Sequence[Sequence[tuple[str, str]]],
    alternatives: int = DEFAULT_ALTERNATIVES,
) -> BoardsSuggestion:
    """Return the next guess for a multi-board position (client.multiboard): one
    history per board, each as :meth:`PolicyLookup.suggest` takes it, over the policy's targets.

    Raises:
        BadRequestError: not a Wordle policy, a bad board count, or histories
            that do not tell one game (client.multiboard.MultiBoard.progress).
        ContradictoryHistoryError: no target fits a board (the error names it).
        LiveAnswerUnavailableError: no live solver.
        and the errors of :meth:`PolicyLookup.turns`, tagged with the board (``boards[i]``).
    """
    check_alternatives(alternatives)
    check_board_count(len(histories))
    if not lookup.game.multi_board:
        raise BadRequestError(
            f"{lookup.name} is {with_article(lookup.game.id)} policy: multi-board games "
            f"are played over a Wordle policy's lists",
            metadata={"field": "policy", "policy": lookup.name},
        )
    game = multi_board(len(histories), lookup.game)
    boards: list[list[Turn]] = []
    for number, history in enumerate(histories):
        with on_board(number):
            boards.append(lookup.turns(history))
    progress = game.progress([[(turn.word, turn.code) for turn in turns] for turns in boards])
    left: list[np.ndarray] = []
    states = []
    for number, (turns, solved) in enumerate(zip(boards, progress.solved, strict=True)):
        if solved:
            states.append(BoardState(1, True))
            continue
        with on_board(number):
            remaining = lookup.consistent(turns)
        left.append(remaining)
        states.append(BoardState(len(remaining), False))
    limit = game.limit
    if not left:
        return BoardsSuggestion(
            progress.guesses[-1], tuple(states), True, (), LIVE, len(progress.guesses), limit
        )
    stored = _stored_opening(lookup, boards)
    if stored is not None:
        chosen = [lookup.policy.vocabulary[i] for i in stored.guesses[: alternatives + 1]]
        others, values = distinct_alternatives(chosen, stored.values[1 : alternatives + 1])
        return BoardsSuggestion(
            chosen[0],
            tuple(states),
            False,
            others,
            STORED,
            len(progress.guesses),
            limit,
            values,
            JOINT_METRIC if values else "",
        )
    if lookup.live is None:
        raise LiveAnswerUnavailableError(
            "a multi-board position is answered live, which needs guesswork.builder "
            "(use guesswork.service.local, or the service)"
        )
    counts = ", ".join(f"{len(remaining):,}" for remaining in left)
    boards_left = plural(len(left), "board")
    tell(f"computing the next guess live over {boards_left} ({counts} possible answers)")
    ranked = lookup.live.rank_boards(lookup.policy, left, alternatives + 1)
    chosen = [lookup.policy.vocabulary[i] for i in ranked.indices]
    others, values = distinct_alternatives(chosen, ranked.values[1:])
    return BoardsSuggestion(
        chosen[0],
        tuple(states),
        False,
        others,
        LIVE,
        len(progress.guesses),
        limit,
        values,
        JOINT_METRIC if alternatives else "",
    )


def _stored_opening(lookup: PolicyLookup, boards: Sequence[Sequence[Turn]]) -> Ranked | None:
    """Return the policy's stored ranking for this position (client.board_openings): the
    first guess of a game of as many boards, or Dordle's second guess after the
    first guess's two replies; None when the policy stores none for it."""
    openings = lookup.policy.data.openings
    if openings is None:
        return None
    played = max(len(turns) for turns in boards)
    if played == 0:
        return openings.first.get(len(boards))
    if played == 1 and len(boards) == 2:
        (first, *_), (second, *_) = boards
        return openings.second(first.index, first.code, second.code)
    return None


def distinct_alternatives(
    chosen: Sequence[str], values: Sequence[float]
) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Return the alternatives of a joint ranking (``chosen[1:]``, ``values`` theirs),
    without a word ranked before (the suggestion itself included).

    The joint ranking puts a board's known word first and sets it aside with an
    infinite value; with fewer candidates left than alternatives asked for, its tail
    reaches that word again ("Guess CRIMP (or FJORD, HYDRO, CRIMP)"). The ranking
    stays as the builder stores it (board openings hold it as ranked, and proofs
    derive it again); only what a player is shown drops the repeats.
    """
    seen = {chosen[0]} if chosen else set()
    words: list[str] = []
    kept: list[float] = []
    for at, word in enumerate(chosen[1:]):
        if word not in seen:
            seen.add(word)
            words.append(word)
            if at < len(values):  # values may be absent (empty), never partial
                kept.append(float(values[at]))
    return tuple(words), tuple(kept)
