"""Evaluating multi-board play: every secret combination, or a fixed random sample.

Two strategies play the same games over a policy's lists:

* ``joint``: the joint greedy step (builder.multiboard.rank_boards), every
  unsolved board looked at together;
* ``one-at-a-time``: the baseline, the single-board policy solving the boards
  in order. The first unsolved board is played as the policy plays it alone,
  from its stored tree while that board's history stays on it, else by the
  policy's own live step over the board's targets left (which knows every
  reply the board has had, to guesses made for the boards before it).

A game's score is the number of guesses until every board is solved; play
goes on past the game's guess limit (client.multiboard.MultiBoard), so the
mean counts every game, and the share solved within the limit is reported
beside it. The secrets of one game are distinct, as in the games themselves.

:meth:`BoardsEvaluator.every_pair` scores all ``n (n - 1)`` ordered pairs of a
two-board game exactly without playing them one by one: it walks the joint
positions, each board's targets split by the guess's replies, counting the
games of a whole product of sets at once (the pairs with the same secret on
both boards are then played alone and taken off). :meth:`BoardsEvaluator.sample`
plays a fixed random sample of distinct secret tuples, game by game.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..client.errors import BadRequestError, OffTreeError
from ..client.interrupt import still_wanted
from ..client.multiboard import multi_board
from ..client.probe import SOLVED, Policy
from .greedy import GreedyStep, ReplyColumns, greedy_step
from .matrices import alphabet_of, letter_array, reply_block
from .metrics import METRIC_NEG_ENTROPY
from .multiboard import joint_step, rank_boards

JOINT = "joint"
ONE_AT_A_TIME = "one-at-a-time"
STRATEGIES = (JOINT, ONE_AT_A_TIME)

#: A board's tree node once its history has left the stored tree.
OFF_TREE = -2
#: Guesses after which a game is taken to loop (no strategy here needs nearly as many).
_MOST_GUESSES = 64
#: Positions whose guess is remembered, and boards whose values over the whole
#: guess list are (about 100 KB each on the 12,972 guesses).
_DECISIONS_KEPT = 400_000
_VALUES_KEPT = 512


@dataclass(frozen=True)
class BoardsScore:
    """How a strategy did over a set of games: guesses to solve every board."""

    strategy: str
    boards: int
    limit: int
    #: guesses -> games, in increasing order of guesses.
    histogram: dict[int, int]

    @property
    def games(self) -> int:
        """Return the number of games."""
        return sum(self.histogram.values())

    @property
    def mean(self) -> float:
        """Return the mean number of guesses."""
        return sum(g * n for g, n in self.histogram.items()) / self.games

    @property
    def worst(self) -> int:
        """Return the most guesses any game took."""
        return max(self.histogram)

    @property
    def within_limit(self) -> float:
        """Return the share of games solved within the guess limit (0 to 1)."""
        return sum(n for g, n in self.histogram.items() if g <= self.limit) / self.games

    def to_json(self) -> dict[str, Any]:
        """Return the score as a JSON-ready dict."""
        return {
            "strategy": self.strategy,
            "boards": self.boards,
            "guess_limit": self.limit,
            "games": self.games,
            "mean": self.mean,
            "worst": self.worst,
            "within_limit": self.within_limit,
            "histogram": [[g, n] for g, n in self.histogram.items()],
        }


@dataclass(frozen=True)
class _Board:
    """One unsolved board: its targets left (target indices, ascending) and tree node."""

    targets: np.ndarray
    node: int


class BoardsEvaluator:
    """Plays multi-board games over one policy's lists with either strategy.

    Args:
        policy: a Wordle policy (its targets are the secrets, its vocabulary the guesses).
        boards: how many boards a game has (at least 1).
        limit: the game's guess limit (default: client.multiboard.guess_limit).

    Raises:
        ValueError: not a Wordle policy, boards outside 1..32, or a limit below
            the boards.
    """

    def __init__(self, policy: Policy, boards: int, limit: int | None = None) -> None:
        if not policy.game.multi_board:
            raise ValueError(f"multi-board games are Wordle's, not {policy.game.id}'s")
        try:
            self.rules = multi_board(boards, policy.game, limit)
        except BadRequestError as error:
            raise ValueError(str(error)) from None
        self.limit = self.rules.limit
        self.policy, self.boards = policy, boards
        vocabulary = policy.vocabulary
        position = {word: i for i, word in enumerate(vocabulary)}
        self._vocabulary_index = position
        self.target_words = np.array([position[word] for word in policy.targets], dtype=np.int64)
        alphabet = alphabet_of(vocabulary)
        letters = letter_array(vocabulary, policy.game.length, alphabet)
        self.matrix = np.ascontiguousarray(
            reply_block(policy.game, letters, letters[self.target_words])
        )
        self.by_target = np.ascontiguousarray(self.matrix.T)
        self.win = policy.game.win_reply
        self.own_step: GreedyStep = greedy_step(policy)
        self.step = joint_step(self.own_step)
        self.weights = policy.data.numpy_weights()
        self._decisions: dict[str, OrderedDict[tuple[bytes | int, ...], int]] = {
            name: OrderedDict() for name in STRATEGIES
        }
        self._values: OrderedDict[bytes, np.ndarray] = OrderedDict()

    # -- the strategies -------------------------------------------------------

    def _columns(self, targets: np.ndarray) -> ReplyColumns:
        return ReplyColumns(self.matrix, targets, self.by_target)

    def _weights_of(self, targets: np.ndarray) -> np.ndarray | None:
        return None if self.weights is None else self.weights[targets]

    def _board_values(self, targets: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Return one board's neg_entropy values, those over the whole vocabulary remembered."""
        whole = len(candidates) == len(self.policy.vocabulary)
        key = targets.tobytes()
        if whole and key in self._values:
            self._values.move_to_end(key)
            return self._values[key]
        values = self.step.values(
            self.target_words[targets],
            candidates,
            self._columns(targets),
            self._weights_of(targets),
            METRIC_NEG_ENTROPY,
        )
        if whole:
            self._values[key] = values
            if len(self._values) > _VALUES_KEPT:
                self._values.popitem(last=False)
        return values

    def _joint_guess(self, boards: Sequence[_Board]) -> int:
        sets = [board.targets for board in boards]
        ranked = rank_boards(
            self.step,
            [self.target_words[targets] for targets in sets],
            1,
            lambda number, candidates: self._board_values(sets[number], candidates),
            [self._weights_of(targets) for targets in sets],
        )
        return int(ranked.guesses[0])

    def _one_at_a_time_guess(self, boards: Sequence[_Board]) -> int:
        first = boards[0]
        if first.node >= 0:
            return self._vocabulary_index[self.policy.guess(first.node)]
        ranked = self.own_step.rank(
            self.target_words[first.targets],
            1,
            self._columns(first.targets),
            weights=self._weights_of(first.targets),
        )
        return int(ranked.guesses[0])

    def guess(self, strategy: str, boards: Sequence[_Board]) -> int:
        """Return the vocabulary index ``strategy`` plays at a position (remembered).

        Raises:
            ValueError: an unknown strategy.
        """
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
        key: tuple[bytes | int, ...] = tuple(board.targets.tobytes() for board in boards)
        if strategy == ONE_AT_A_TIME:
            key += (boards[0].node,)  # the stored tree's guess while the board is on it
        memo = self._decisions[strategy]
        found = memo.get(key)
        if found is not None:
            return found
        chosen = (
            self._joint_guess(boards) if strategy == JOINT else self._one_at_a_time_guess(boards)
        )
        memo[key] = chosen
        if len(memo) > _DECISIONS_KEPT:
            memo.popitem(last=False)
        return chosen

    def _next_node(self, node: int, guess: int, code: int) -> int:
        """Return a board's tree node after ``guess`` got ``code`` (OFF_TREE once it left)."""
        if node < 0 or self.policy.guess(node) != self.policy.vocabulary[guess]:
            return OFF_TREE
        try:
            child = self.policy.step(node, code)
        except OffTreeError:
            return OFF_TREE
        return OFF_TREE if child == SOLVED else child

    def _start(self) -> _Board:
        return _Board(np.arange(len(self.policy.targets), dtype=np.int64), self.policy.root)

    # -- playing games --------------------------------------------------------

    def play(self, strategy: str, secrets: Sequence[int]) -> list[int]:
        """Return the guesses (vocabulary indices) ``strategy`` makes until every board
        of the game with these secrets (target indices, one per board) is solved.

        Raises:
            ValueError: an unknown strategy, or secrets not one per board.
            RuntimeError: the game went on past any sensible length.
        """
        if len(secrets) != self.boards:
            raise ValueError(f"{len(secrets)} secrets for {self.boards} boards")
        open_boards = [(secret, self._start()) for secret in secrets]
        played: list[int] = []
        while open_boards:
            if len(played) >= _MOST_GUESSES:
                raise RuntimeError(f"{strategy} play did not end within {_MOST_GUESSES} guesses")
            guess = self.guess(strategy, [board for _, board in open_boards])
            played.append(guess)
            still = []
            for secret, board in open_boards:
                code = int(self.matrix[guess, secret])
                if code != self.win:
                    targets = board.targets[self.matrix[guess, board.targets] == code]
                    still.append(
                        (secret, _Board(targets, self._next_node(board.node, guess, code)))
                    )
            open_boards = still
        return played

    def sample(self, strategy: str, games: int, seed: int = 0) -> BoardsScore:
        """Return ``strategy``'s score over ``games`` random games of distinct secrets,
        drawn uniformly with ``seed`` (the same games for every strategy)."""
        counts: Counter[int] = Counter()
        for secrets in self.sample_secrets(games, seed):
            counts[len(self.play(strategy, secrets))] += 1
        return self._score(strategy, counts)

    def sample_secrets(self, games: int, seed: int = 0) -> Iterator[list[int]]:
        """Yield ``games`` tuples of distinct target indices, one per board, from ``seed``."""
        generator = np.random.default_rng(seed)
        for _ in range(games):
            yield [
                int(i)
                for i in generator.choice(len(self.policy.targets), self.boards, replace=False)
            ]

    def every_pair(
        self, strategy: str, progress: Callable[[int], None] | None = None
    ) -> BoardsScore:
        """Return ``strategy``'s score over every ordered pair of distinct secrets
        (a two-board game: ``n (n - 1)`` games), counted exactly.

        ``progress(games)``, if given, is told the games counted so far now and then.

        Raises:
            ValueError: the game does not have two boards.
        """
        if self.boards != 2:
            raise ValueError(f"every_pair counts two-board games, not {self.boards}-board ones")
        counts: Counter[int] = Counter()
        start = self._start()
        self._count_products([start, start], 0, counts, strategy, progress)
        # The product counted the pairs with one secret on both boards: take them off.
        for secret in range(len(self.policy.targets)):
            counts[len(self.play(strategy, [secret, secret]))] -= 1
        return self._score(strategy, +counts)

    def _count_products(
        self,
        boards: list[_Board],
        played: int,
        counts: Counter[int],
        strategy: str,
        progress: Callable[[int], None] | None,
    ) -> None:
        """Add to ``counts`` the games of every secret tuple in the product of the
        boards' target sets, ``played`` guesses having been made."""
        if played >= _MOST_GUESSES:
            raise RuntimeError(f"{strategy} play did not end within {_MOST_GUESSES} guesses")
        guess = self.guess(strategy, boards)
        splits = [self._split(board, guess) for board in boards]
        for combination in _product(splits):
            still_wanted()
            alive = [board for board in combination if board is not None]
            if alive:
                self._count_products(alive, played + 1, counts, strategy, None)
            else:
                counts[played + 1] += 1  # every board solved: one game, its secrets the guesses
            if progress is not None:
                progress(sum(counts.values()))

    def _split(self, board: _Board, guess: int) -> list[_Board | None]:
        """Return the board after each reply ``guess`` can get: None for the win."""
        codes = self.matrix[guess, board.targets]
        parts: list[_Board | None] = []
        for code in np.unique(codes):
            if code == self.win:
                parts.append(None)
            else:
                node = self._next_node(board.node, guess, int(code))
                parts.append(_Board(board.targets[codes == code], node))
        return parts

    def _score(self, strategy: str, counts: Counter[int]) -> BoardsScore:
        return BoardsScore(strategy, self.boards, self.limit, dict(sorted(counts.items())))


def _product(splits: list[list[_Board | None]]) -> Iterator[list[_Board | None]]:
    """Yield every choice of one part per board (the boards' replies to one guess)."""
    if not splits:
        yield []
        return
    for rest in _product(splits[1:]):
        for part in splits[0]:
            yield [part, *rest]
