"""What a search is asked: its options, its errors and the numbers it works on."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ...client.games import Game
from ..errors import SearchError
from ..matrices import letter_array, memory_limit, reply_matrix, transposed
from ..wordlists import WordList, guess_vocabulary
from ._scan import group, labels
from .memo import DEFAULT_MEMO_LIMIT

OBJECTIVES = ("total", "minimax", "total-then-worst", "worst-then-total")
#: Objectives with a tie-break: the least total, then among those trees the least
#: worst case; or the least worst case, then the least total. optimize() runs
#: them as a sequence of total and minimax searches (see .tie_break).
TIE_BREAK_OBJECTIVES = ("total-then-worst", "worst-then-total")
#: Largest reply matrix a search builds (one copy, target-major; two while it is first
#: made from the guess-major matrix).
MAX_MATRIX_CELLS = 1 << 29
#: Depth used when there is no cap (no game tree here is deeper).
NO_CAP = 64


@dataclass(frozen=True)
class SearchOptions:
    """What to optimise and how hard to look.

    Attributes:
        objective: ``total`` (minimum sum of guesses), ``minimax`` (minimum
            worst case), ``total-then-worst`` (minimum total, then the least
            worst case among trees of that total) or ``worst-then-total``
            (minimum worst case, then the least total among those trees).
        hard: guesses only from the targets still possible.
        nyt_hard: NYT hard mode: any guess the NYT rule allows after the
            replies on the node's path (builder.nyt_hard); exact values and
            bounds are then memoised per target set and constraint state.
        max_guesses: for the objectives with a total, every target must be
            solved within this many guesses.
        first_guess: the root's guess is fixed to this word.
        beam: lookahead: only the best ``beam`` guesses (greedy ranking) of
            each node are searched. None searches every guess.
        workers: processes for the root's branches (1 = in process).
        bound_store: a bound store file (see :mod:`.bound_store`) the search reads
            and adds to; None keeps nothing between runs. Like ``workers``, it
            changes how fast a result comes, never the result's value.
        memo_limit: estimated bytes each search process's memo may hold (see
            :mod:`.memo`); None: no limit. Eviction costs time, never changes a result.
        scheduler: the address of a Dask scheduler to run the units on (see
            :mod:`.dask_engine`); None: a local cluster when ``workers`` > 1.
        lead_opener: a search over every opener searches this word first, for a
            value to beat (default: the opener of least static bound). A good one
            (the best known) makes the first pass refute far more openers; the
            tree and its value, ties included, are the same with any lead or none,
            but the bounds that refuted the other openers (the certificate's
            ``roots``) depend on it, so a certificate records its lead.
        ceiling: look only for a tree of value below this (the total objectives):
            every opener that cannot get below it is refuted, and a search that
            finds none raises NoTreeBelowCeilingError, which proves the ceiling
            a lower bound. A tie-break asks "is there a tree within one guess
            fewer of at most this total?" this way, far faster than finding the
            capped optimum. None: no ceiling.
    """

    objective: str = "total"
    hard: bool = False
    nyt_hard: bool = False
    max_guesses: int | None = None
    first_guess: str | None = None
    beam: int | None = None
    workers: int = 1
    bound_store: str | None = None
    memo_limit: int | None = DEFAULT_MEMO_LIMIT
    scheduler: str | None = None
    lead_opener: str | None = None
    ceiling: int | None = None

    def check(self) -> None:
        """Check that the options agree with each other.

        Raises:
            SearchError: the options contradict each other or are out of range.
        """
        if self.objective not in OBJECTIVES:
            raise SearchError(
                f"unknown objective {self.objective!r}; use one of {', '.join(OBJECTIVES)}"
            )
        if self.max_guesses is not None and self.max_guesses < 1:
            raise SearchError(f"--max-guesses must be at least 1, not {self.max_guesses}")
        if self.max_guesses is not None and self.objective == "minimax":
            raise SearchError("--max-guesses does not apply to --objective minimax")
        if self.beam is not None and self.objective in TIE_BREAK_OBJECTIVES:
            raise SearchError(
                f"--beam does not apply to --objective {self.objective}: its tie-break is "
                "proven, so its searches are exact"
            )
        if self.beam is not None and self.beam < 1:
            raise SearchError(f"--beam must be at least 1, not {self.beam}")
        if self.workers < 1:
            raise SearchError(f"workers must be at least 1, not {self.workers}")
        if self.memo_limit is not None and self.memo_limit < 1:
            raise SearchError(f"the memo limit must be at least 1 byte, not {self.memo_limit}")
        if self.ceiling is not None and (self.ceiling < 1 or self.objective == "minimax"):
            raise SearchError(
                f"a ceiling ({self.ceiling}) needs a total objective and a value of at least 1"
            )
        if self.hard and self.nyt_hard:
            raise SearchError("hard and NYT hard mode exclude each other")
        if self.lead_opener is not None and self.first_guess is not None:
            raise SearchError(
                "--lead-opener leads a search over every opener; --first-guess fixes one"
            )

    @property
    def tree_objective(self) -> str:
        """Return the objective a single search runs for: the tree of a tie-break
        objective comes from a total search (capped at its worst case)."""
        return "minimax" if self.objective == "minimax" else "total"

    @property
    def root_depth(self) -> int:
        """Return the guesses allowed from the root: the cap, or :data:`NO_CAP`."""
        return self.max_guesses if self.max_guesses is not None else NO_CAP


@dataclass(frozen=True)
class Problem:
    """The numbers a search needs: the reply matrix and how targets map to guesses."""

    #: ``matrix[g, t]``: the reply to vocabulary row ``g`` when the secret is target
    #: ``t`` (in a search, a view of ``by_target``: see make_problem).
    matrix: np.ndarray
    #: The matrix target-major and C-contiguous (``by_target[t, g]``), as scans read it.
    by_target: np.ndarray
    target_guess: np.ndarray
    win: int
    #: The replies other than the win (:func:`non_winning_replies`).
    replies: int
    search_guesses: int
    #: The vocabulary's letters (words x length, A=0..Z=25) for Wordle-like
    #: games, which NYT hard mode needs; None for other games.
    letters: np.ndarray | None = None
    #: Each target's weight (how likely it is the secret; positive int64), or None:
    #: every target equally likely. The total objective is then the weighted sum
    #: of guesses (:func:`check_weights` bounds it below 2**31).
    weights: np.ndarray | None = None

    @property
    def n_targets(self) -> int:
        """Return the number of targets."""
        return int(self.matrix.shape[1])

    def signature(self, guess: int, targets: np.ndarray) -> bytes:
        """Return the partition of ``targets`` by ``guess`` in canonical form.

        Classes are labelled by first appearance (the win apart: it takes its
        label's turn, then reads 255), so two guesses that split the targets
        identically have equal signatures. uint8 labels while there are fewer
        than 255 classes, int32 beyond.
        """
        out = np.empty(len(targets), dtype=np.int32)
        count = labels(self.by_target, guess, targets, self.win, out)
        return (out.astype(np.uint8) if count < 255 else out).tobytes()

    def split(self, guess: int, targets: np.ndarray) -> list[np.ndarray]:
        """Return the non-winning classes of ``targets`` under ``guess``, largest first.

        Each class keeps list order; ties keep reply-code order.
        """
        size = len(targets)
        ordered = np.empty(size, dtype=np.int64)
        starts = np.empty(size + 1, dtype=np.int64)
        codes = np.empty(size, dtype=np.int64)
        groups = group(self.by_target, guess, targets, ordered, starts, codes)
        bounds = starts[: groups + 1].tolist()
        classes = [
            ordered[bounds[i] : bounds[i + 1]]
            for i, code in enumerate(codes[:groups].tolist())
            if code != self.win
        ]
        classes.sort(key=len, reverse=True)
        return classes


#: Each recent matrix with its transpose, least recently used first, bounded as the
#: matrices themselves are (builder.matrices.memory_limit): kept for ever, they held
#: every matrix a process used and its copy (12.6 GB proving the shipped catalog).
_transposed: OrderedDict[int, tuple[np.ndarray, np.ndarray]] = OrderedDict()
_transposed_lock = threading.Lock()


def target_major(matrix: np.ndarray) -> np.ndarray:
    """Return ``matrix`` transposed and contiguous, computed once per recent matrix
    (no copy when ``matrix`` is laid out target-major already; else copied tile by
    tile, builder.matrices.transposed)."""
    key = id(matrix)
    with _transposed_lock:
        hit = _transposed.get(key)
        if hit is not None and hit[0] is matrix:
            _transposed.move_to_end(key)
            return hit[1]
    flipped = matrix.T if matrix.flags.f_contiguous else transposed(matrix)
    flipped.setflags(write=False)
    limit = memory_limit()
    with _transposed_lock:
        _transposed[key] = (matrix, flipped)
        _transposed.move_to_end(key)
        held = sum(kept.nbytes + copy.nbytes for kept, copy in _transposed.values())
        while held > limit and len(_transposed) > 1:
            _, (kept, copy) = _transposed.popitem(last=False)
            held -= kept.nbytes + copy.nbytes
    return flipped


def non_winning_replies(game: Game) -> int:
    """Return the number of replies ``game`` can give other than the win (at least 1):
    a :class:`Problem`'s ``replies``, the branching its bound tables assume."""
    distinct = getattr(game, "distinct_replies", game.reply_space)
    return max(int(distinct) - 1, 1)


#: A weighted total must fit the certificate's int32 node values with room to spare:
#: the weights times the deepest tree any search here builds stay below 2**31.
MAX_WEIGHTED_DEPTH = 16


def check_weights(weights: np.ndarray | None, count: int) -> np.ndarray | None:
    """Return ``weights`` as a read-only int64 array after checking them, or None when
    there are none or they are all equal (equal weights are the unweighted problem,
    whose trees and values they give exactly).

    Raises:
        SearchError: not one positive weight per target, or weights so large that a
            weighted total could overflow (scale them down).
    """
    if weights is None:
        return None
    array = np.asarray(weights, dtype=np.int64)
    if array.shape != (count,) or (array < 1).any():
        raise SearchError(f"the weights must be {count:,} positive integers, one per target")
    if len(array) and (array == array[0]).all():
        return None
    if int(array.sum()) * MAX_WEIGHTED_DEPTH >= 2**31:
        raise SearchError(
            f"the weights add up to {int(array.sum()):,}: scale them down below "
            f"{2**31 // MAX_WEIGHTED_DEPTH:,} in all so that weighted totals fit"
        )
    array = array.copy()
    array.setflags(write=False)
    return array


def _check_no_anagrams(targets: WordList) -> None:
    """Refuse Jotto targets with two anagrams: a guess would get the winning count
    from both, so the search would count the other one solved.

    Raises:
        SearchError: naming the first two anagrams found.
    """
    seen: dict[frozenset[str], str] = {}
    for word in targets.words:
        other = seen.setdefault(frozenset(word), word)
        if other != word:
            raise SearchError(
                f"Jotto targets {other} and {word} are anagrams: the full count would not "
                "tell them apart from a win; keep one of each (as the Jotto lists built "
                "from a spec do)"
            )


def check_matrix_size(guess_count: int, target_count: int) -> None:
    """Refuse a search whose reply matrix, ``guess_count`` x ``target_count``, would be
    over :data:`MAX_MATRIX_CELLS`: checked by :func:`make_problem` on the vocabulary,
    and before anything costly on the guess list alone (a lower bound of it).

    Raises:
        SearchError: too large to search, the sizes and the limit named.
    """
    cells = guess_count * target_count
    if cells > MAX_MATRIX_CELLS:
        raise SearchError(
            f"{guess_count:,} guesses x {target_count:,} targets is too large to search "
            f"(the reply matrix would hold {cells:,} replies; the limit is "
            f"{MAX_MATRIX_CELLS:,})"
        )


def make_problem(
    game: Game, targets: WordList, guesses: WordList, weights: np.ndarray | None = None
) -> tuple[Problem, WordList]:
    """Return the search problem for ``targets`` guessed from ``guesses``, and the vocabulary.

    ``weights``: each target's weight (see :func:`check_weights`), or None.

    Raises:
        SearchError: the lists are too large for the reply matrix to fit in memory,
            the weights are not usable, or Jotto targets include two anagrams.
    """
    checked = check_weights(weights, len(targets))
    if game.letter_set_lists:
        _check_no_anagrams(targets)
    vocabulary, target_guess = guess_vocabulary(targets, guesses)
    check_matrix_size(len(vocabulary), len(targets))
    # Target-major (what the scan reads); ``matrix`` is the same memory, transposed.
    matrix = reply_matrix(game, vocabulary, targets, target_major=True)
    problem = Problem(
        matrix=matrix,
        by_target=target_major(matrix),
        target_guess=target_guess.astype(np.int64),
        win=game.win_reply,
        replies=non_winning_replies(game),
        search_guesses=len(vocabulary),
        letters=letter_array(vocabulary.words, game.length) if game.coloured_replies else None,
        weights=checked,
    )
    return problem, vocabulary
