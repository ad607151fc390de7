"""Absurdle: the fewest guesses that beat qntm's adversary, found and proven.

Absurdle is Wordle against an adversary that keeps every target consistent with
its replies so far and answers each guess with the reply that keeps the most
of them (of equal classes, the one whose reply reveals least; see
client.rules.absurdle_reply). It is deterministic, so the guesser's best play
is a line, not a tree: the fewest guesses that guarantee a win is the length of
the shortest winning line.

The search deepens a bound ``k`` = 1, 2, ... and stops at the first ``k`` with a
winning line; every line of ``k - 1`` guesses was refuted on the way, so that
``k`` is proven least. At a set of targets with ``k`` guesses left:

- one guess left: only a set of one target is won (by guessing it);
- two left: a guess must split the set into classes of one (the adversary
  then keeps one word, guessed next); the compiled adversary kernel
  (builder/optimal/_scan.c) reads each guess only up to its first shared reply;
- more: every guess is tried in order of the class the adversary keeps,
  smallest first, skipping a class too large for ``k - 1`` guesses (the
  adversary keeps at least a ``1/R`` share of a set for ``R`` replies, so
  ``j`` guesses win at most ``R ** (j - 1)`` targets, the win counted among
  the replies).

Sets refuted with ``k`` guesses left are remembered for the rest of the search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..client.games import Game
from ..client.interrupt import still_wanted
from ..client.rules import absurdle_reply, nyt_hard_problem, reveal_order
from .errors import SearchError
from .nyt_hard import NytRule
from .optimal.bounds import ScanKernel
from .optimal.problem import make_problem
from .wordlists import WordList

#: Deepest line tried: no word list here needs more (2315 x 12972: 4).
MAX_GUESSES = 12


@dataclass(frozen=True)
class AbsurdleLine:
    """The shortest winning line against Absurdle's adversary.

    ``guesses`` and ``replies`` are the line (the last reply is the win);
    ``worst`` its length, the guesses the guesser can guarantee; ``proven``:
    every shorter line was refuted (always so without ``max_guesses``), and
    ``lower_bound`` the length below which none wins.
    """

    guesses: tuple[str, ...]
    replies: tuple[str, ...]
    worst: int
    lower_bound: int
    proven: bool
    sets_searched: int
    seconds: float


class AbsurdleSearch:
    """The search for the shortest winning line, over one pair of word lists."""

    def __init__(
        self,
        game: Game,
        targets: WordList,
        guesses: WordList,
        hard: bool = False,
        goal: int | None = None,
    ) -> None:
        """Search ``targets`` guessed from ``guesses``; ``hard``: every guess must
        meet the NYT hard rule after the replies before it (Absurdle's hard mode);
        ``goal`` (a target's index): challenge mode, where the line must end by
        guessing that target (the adversary keeping it to the last).

        Raises:
            SearchError: the lists are too large for a reply matrix in memory.
        """
        self.game = game
        self.problem, self.vocabulary = make_problem(game, targets, guesses)
        self.rule = (
            NytRule(self.problem.letters) if hard and self.problem.letters is not None else None
        )
        self.by_target = self.problem.by_target  # by_target[t, g]
        self.codes = 3**game.length
        # Lower reveals less; the adversary keeps the class of largest size, then
        # of least rank.
        order = sorted(range(self.codes), key=lambda code: reveal_order(code, game.length))
        self.rank = np.empty(self.codes, dtype=np.int64)
        self.rank[order] = np.arange(self.codes)
        self.all_guesses = np.arange(self.problem.search_guesses, dtype=np.int64)
        self.kernel = ScanKernel.for_problem(self.problem, minimax=False)
        self.goal = goal
        self.refuted: set[tuple[bytes, int]] = set()
        self.sets_searched = 0
        # Sets of more targets than this cannot be won with j guesses left.
        classes = self.problem.replies + 1  # the non-winning replies and the win
        self.most = [0, 1] + [classes ** (j - 1) for j in range(2, MAX_GUESSES + 1)]

    def adversary(
        self, targets: np.ndarray, guesses: np.ndarray, limit: int = 1 << 62
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return, for each of ``guesses``, the reply Absurdle gives on ``targets`` and
        how many targets that reply keeps (compiled: ScanKernel.adversary; a guess
        with a class over ``limit`` is read no further: -1 and ``limit + 1``)."""
        return self.kernel.adversary(guesses, targets, self.rank, limit)

    def _candidates(self, state: bytes) -> np.ndarray:
        """Return the guesses allowed in ``state`` (every guess outside hard mode)."""
        return self.all_guesses if self.rule is None or not state else self.rule.legal(state)

    def _splitter(self, targets: np.ndarray, allowed: np.ndarray) -> int:
        """Return the first guess of ``allowed`` that splits ``targets`` into classes of
        one (-1: none); each guess is read only up to its first shared reply."""
        _, kept = self.adversary(targets, allowed, 1)
        ones = np.flatnonzero(kept == 1)
        return int(allowed[ones[0]]) if len(ones) else -1

    def _kept(self, targets: np.ndarray, guess: int) -> np.ndarray:
        """Return the targets Absurdle keeps after ``guess``."""
        code, _ = self.adversary(targets, np.array([guess], dtype=np.int64))
        kept: np.ndarray = targets[self.by_target[targets, guess] == code[0]]
        return kept

    def line(
        self, targets: np.ndarray, left: int, first: int | None = None, state: bytes = b""
    ) -> list[int] | None:
        """Return a winning line (vocabulary rows) of at most ``left`` guesses from
        ``targets`` in hard-mode ``state`` (``first``: its first guess is fixed), or
        None if there is none."""
        size = len(targets)
        goal = self.goal
        if goal is not None and goal not in targets:
            return None
        if size == 1:
            last = int(self.problem.target_guess[targets[0]])
            if first is None or first == last:
                return [last]
            return [first, last] if left >= 2 else None
        if left <= 1 or size > self.most[left]:
            return None
        key = (targets.astype(np.int32).tobytes() + state, left)
        if first is None and key in self.refuted:
            return None
        self.sets_searched += 1
        still_wanted()  # a live answer (builder.live) stops once its caller has gone
        if left == 2 and first is None and goal is None:
            # The last guess but one must split the set into classes of one.
            guess = self._splitter(targets, self._candidates(state))
            if guess >= 0:
                (last,) = self._kept(targets, guess).tolist()
                return [guess, int(self.problem.target_guess[last])]
        else:
            guesses = self._candidates(state) if first is None else np.array([first], np.int64)
            # A class too large for the guesses after is not worth counting to the end.
            chosen, kept = self.adversary(targets, guesses, self.most[left - 1])
            # Kept classes that can still be won, smallest first (ties: list order);
            # in challenge mode, only those that keep the goal.
            hopeful = (kept < size) & (kept <= self.most[left - 1])
            if goal is not None:
                hopeful &= chosen == self.by_target[goal, guesses]
            for index in np.flatnonzero(hopeful)[np.argsort(kept[hopeful], kind="stable")].tolist():
                guess = int(guesses[index])
                code = int(chosen[index])
                rest = targets[self.by_target[targets, guess] == code]
                after = b"" if self.rule is None else self.rule.child(state, guess, code)
                found = self.line(rest, left - 1, None, after)
                if found is not None:
                    return [guess, *found]
        if first is None:
            self.refuted.add(key)
        return None


def absurdle_optimum(
    game: Game,
    targets: WordList,
    guesses: WordList,
    *,
    first_guess: str | None = None,
    hard: bool = False,
    challenge: str | None = None,
    max_guesses: int = MAX_GUESSES,
) -> AbsurdleLine:
    """Return the shortest line that beats Absurdle (``game``'s rules) on ``targets``, guessing from
    ``guesses`` (and the targets), its first guess ``first_guess`` if given; ``hard``:
    in hard mode (each guess meets the NYT hard rule after the replies before it);
    ``challenge``: challenge mode, the shortest line that ends by guessing that
    target.

    Raises:
        SearchError: ``first_guess`` is not a guess, ``challenge`` not a target,
            no line of at most
            ``max_guesses`` guesses wins, or the lists are too large.
    """
    started = time.perf_counter()
    goal: int | None = None
    if challenge is not None:
        goal = targets.index().get(challenge.upper())
        if goal is None:
            raise SearchError(f"challenge word {challenge!r} is not in the target list")
    search = AbsurdleSearch(game, targets, guesses, hard, goal)
    first: int | None = None
    if first_guess is not None:
        position = search.vocabulary.index()
        if first_guess.upper() not in position:
            raise SearchError(f"first guess {first_guess!r} is not in the guess list")
        first = position[first_guess.upper()]
    everything = np.arange(search.problem.n_targets, dtype=np.int64)
    for left in range(1, max_guesses + 1):
        found = search.line(everything, left, first)
        if found is not None:
            break
    else:
        raise SearchError(f"no line of at most {max_guesses} guesses beats Absurdle here")
    words = [search.vocabulary.words[guess] for guess in found]
    # Replayed against the plain adversary (and hard rule): the line must end in the win.
    replies, remaining = [], list(targets.words)
    turns: list[tuple[str, int]] = []
    for word in words:
        if hard and nyt_hard_problem(game, turns, word) is not None:
            raise SearchError("the line found breaks the hard-mode rule (internal error)")
        code, _ = absurdle_reply(game, word, remaining)
        turns.append((word, code))
        remaining = [t for t in remaining if game.reply(word, t) == code]
        replies.append(game.format_reply(code))
    if remaining != [words[-1]] or (challenge is not None and words[-1] != challenge.upper()):
        raise SearchError("the line found does not beat Absurdle's adversary (internal error)")
    return AbsurdleLine(
        guesses=tuple(words),
        replies=tuple(replies),
        worst=len(words),
        lower_bound=len(words),
        proven=True,
        sets_searched=search.sets_searched,
        seconds=time.perf_counter() - started,
    )
