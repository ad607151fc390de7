"""Game analysis: how well a finished (or unfinished) game was played, move by move.

:meth:`GameAnalyzer.analyze` takes a policy's lookup (client.lookup, which
parses and checks the history exactly as SuggestGuess does) and a history,
and returns a :class:`~guesswork.client.analysis.GameAnalysis`. At each move,
with ``S`` the targets still possible:

* the player's guess gets E(S, guess) (builder.game_values: every class it
  leaves valued exactly, from the tree or by the greedy estimate);
* the best guess is the best of the player's own, the policy's tree guess
  (on the tree) and the guess that achieves the set's own value (the exact
  search's, or the greedy step's), by that same E; a tie keeps the player's;
* skill, luck and the totals follow client.analysis's definitions.

The targets are the policy's, each equally likely, or as likely as its prior
weighs it (a weighted policy: E, luck and the totals are then expectations
under the prior). A history that no target fits is refused
(CONTRADICTORY_HISTORY), as is an answer that does not fit it; the service
then analyses the game under a policy whose targets are the whole guess list
(client.catalog_lookup.CatalogLookup.off_list_policy), as live answers play on over it.
Wordle (every length), Jotto and Mastermind policies are analysed;
Antiwordle (whose player avoids the target) and Guess My Word are not.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..client.analysis import GameAnalysis, MoveAnalysis, weakest
from ..client.errors import BadRequestError, ContradictoryHistoryError
from ..client.lookup import PolicyLookup, Turn, at_field
from ..client.probe import SOLVED
from ..client.rules import HARD, NYT_HARD, consistency_problem, nyt_hard_problem
from ..client.text import with_article
from .game_values import Budget, GameValues, PolicyModel
from .live import GreedyLiveSolver

#: Policies whose analysis data (tree values, letters) are kept.
_MODELS_KEPT = 8


@dataclass(frozen=True)
class _Guess:
    """A guess's figures at one position: E, its source, the classes and their mean size."""

    word: str
    expected: float
    source: str
    classes: dict[int, np.ndarray]
    expected_remaining: float


@dataclass
class _Position:
    """Where the game stands before a move: the targets possible, the NYT constraint
    state, the tree node (None off the tree) and the turns so far."""

    targets: np.ndarray
    state: bytes
    node: int | None
    played: list[tuple[str, int]]


class GameAnalyzer:
    """Analyses games of any policy. Thread-safe: each analysis has its own search and
    memo; the per-policy data is computed once and only read."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        self._live = GreedyLiveSolver()
        self._lock = threading.Lock()
        self._models: OrderedDict[str, PolicyModel] = OrderedDict()

    def _model(self, lookup: PolicyLookup) -> PolicyModel:
        key = lookup.policy.content_hash
        with self._lock:
            model = self._models.get(key)
            if model is not None:
                self._models.move_to_end(key)
                return model
        model = PolicyModel(lookup.policy)
        with self._lock:
            self._models[key] = model
            if len(self._models) > _MODELS_KEPT:
                self._models.popitem(last=False)
        return model

    def analyze(
        self, lookup: PolicyLookup, history: Sequence[tuple[str, str]], answer: str = ""
    ) -> GameAnalysis:
        """Return the analysis of ``history`` (guess, reply text) under ``lookup``'s policy;
        ``answer`` (optional) is the game's secret.

        Raises:
            BadRequestError: an empty history, or a game that is not analysed.
            HistoryTooLongError, InvalidWordError, UnknownWordError (a guess
                outside the policy's lists, or an answer outside its targets),
                InvalidReplyError, GameOverError: as SuggestGuess.
            ContradictoryHistoryError: no target gives every reply, or the
                answer would not have (metadata ``field`` ``answer``).
        """
        policy, game = lookup.policy, lookup.game
        if not game.analysable:
            raise BadRequestError(
                f"{policy.name} is {with_article(game.id)} policy: games are analysed for "
                "Wordle, Jotto and Mastermind",
                metadata={"field": "policy", "policy": policy.name},
            )
        if not history:
            raise BadRequestError(
                "the history is empty: give the turns of the game to analyse",
                metadata={"field": "history"},
            )
        turns = lookup.turns(history)
        lookup.consistent(turns)  # the first turn no target fits is the fault
        secret = _checked_answer(lookup, turns, answer)
        values = GameValues(self._model(lookup), self.budget, self._live)
        position = _Position(np.arange(len(policy.targets), dtype=np.int64), b"", policy.root, [])
        moves = []
        for number, turn in enumerate(turns, start=1):
            move, classes = _move(values, lookup, position, turn, number, secret)
            moves.append(move)
            position = _next(values, lookup, position, turn, classes[turn.code])
        solved = turns[-1].code == game.win_reply
        left = 0.0
        if not solved:
            final = values.value(position.targets, position.state, position.node)
            left = final.total / values.model.mass(position.targets)
        start = moves[0].best_expected
        lost = sum(move.expected - move.best_expected for move in moves)
        return GameAnalysis(
            policy=policy.name,
            mode=policy.data.mode,
            answer=secret,
            solved=solved,
            moves=tuple(moves),
            expected_start=start,
            expected_left=left,
            lost_to_choices=lost,
            gained_by_luck=start + lost - (len(moves) + left),
            skill=float(np.mean([move.skill for move in moves])),
            luck=float(np.mean([move.luck for move in moves])),
            weights=policy.data.prior.name if policy.data.prior is not None else "",
        )


def _checked_answer(lookup: PolicyLookup, turns: Sequence[Turn], answer: str) -> str:
    """Return the game's answer: ``answer`` once checked, else the winning guess, else "".

    Raises:
        InvalidWordError, UnknownWordError: ``answer`` is not one of the targets.
        ContradictoryHistoryError: ``answer`` would not have got every reply.
    """
    game = lookup.game
    if not answer.strip():
        won = turns[-1].code == game.win_reply
        return turns[-1].word if won else ""
    with at_field("answer"):
        word, _ = lookup.word_index(answer, targets_only=True)
    for number, turn in enumerate(turns, start=1):
        got = game.reply(turn.word, word)
        if got != turn.code:
            raise ContradictoryHistoryError(
                f"the answer {word} would have got {game.format_reply(got)} to turn {number} "
                f"({turn.word}), not {game.format_reply(turn.code)}",
                metadata={"turn": number, "field": "answer", "policy": lookup.name},
            )
    return word


def _evaluate(values: GameValues, position: _Position, word: str) -> _Guess:
    """Return E(S, ``word``) and its figures at ``position``."""
    model = values.model
    policy = model.policy
    targets, win = position.targets, policy.game.win_reply
    mass = model.mass(targets)
    classes = values.split(word, targets)
    # The classes of the tree's own guess are its child nodes.
    on_tree = position.node is not None and word == policy.guess(position.node)
    total, sources, remaining = mass, [], 0.0
    for code, members in classes.items():
        if code == win:
            continue
        child = policy.step(position.node, code) if on_tree and position.node is not None else None
        found = values.value(members, values.child_state(position.state, word, code), child)
        total += found.total
        sources.append(found.source)
        # The targets this reply leaves, times the chance that it comes.
        remaining += len(members) * model.mass(members)
    return _Guess(word, total / mass, weakest(sources), classes, remaining / mass)


def _luck(
    classes: dict[int, np.ndarray], came: int, win: int, model: PolicyModel | None = None
) -> float:
    """Return the luck of reply ``came`` (see client.analysis): its mid-rank among the other
    replies by the targets each would have left (a win leaves none), weighted by
    their probability (the share of targets giving each, or of their weight under a
    prior), scaled so that 100 means every other reply leaves more."""

    def chance(members: np.ndarray) -> float:
        return float(len(members)) if model is None else model.mass(members)

    size = sum(chance(members) for members in classes.values())
    left = {code: 0 if code == win else len(members) for code, members in classes.items()}
    others = 1.0 - chance(classes[came]) / size
    if others <= 0:
        return 50.0  # no other reply could have come
    larger = sum(chance(classes[c]) for c in classes if c != came and left[c] > left[came])
    equal = sum(chance(classes[c]) for c in classes if c != came and left[c] == left[came])
    return 100.0 * (larger + equal / 2) / size / others


def _legal(lookup: PolicyLookup, position: _Position, word: str) -> bool:
    """Return True when ``word`` meets the policy mode's hard rule after the turns so far."""
    mode, game = lookup.policy.data.mode, lookup.game
    if mode == HARD:
        return consistency_problem(game, position.played, word) is None
    if mode == NYT_HARD and game.coloured_replies:
        return nyt_hard_problem(game, position.played, word) is None
    return True


def _move(
    values: GameValues,
    lookup: PolicyLookup,
    position: _Position,
    turn: Turn,
    number: int,
    answer: str,
) -> tuple[MoveAnalysis, dict[int, np.ndarray]]:
    """Return the analysis of ``turn``, played at ``position``, and the classes its guess
    splits the targets into (by reply code)."""
    values.enter(position.targets)
    policy, game = lookup.policy, lookup.game
    player = _evaluate(values, position, turn.word)
    candidates = []
    if position.node is not None:
        candidates.append(policy.guess(position.node))
    own = values.value(position.targets, position.state, position.node)
    if own.guess is not None:
        candidates.append(policy.vocabulary[own.guess])
    elif position.node is None:
        candidates.append(values.guess_for(position.targets, position.state, position.played))
    best = player  # kept on a tie: a guess as good as any known is a best guess
    for word in dict.fromkeys(candidates):  # the policy's first: it wins ties after that
        figures = player if word == player.word else _evaluate(values, position, word)
        if figures.expected < best.expected:
            best = figures
    best_remaining = None
    if answer:
        code = game.reply(best.word, answer)
        best_remaining = 0 if code == game.win_reply else len(best.classes[code])
    came = turn.code
    analysis = MoveAnalysis(
        turn=number,
        guess=turn.word,
        reply=game.format_reply(came),
        legal=_legal(lookup, position, turn.word),
        remaining_before=len(position.targets),
        remaining_after=0 if came == game.win_reply else len(player.classes[came]),
        best_guess=best.word,
        best_expected=best.expected,
        best_source=best.source,
        expected=player.expected,
        source=player.source,
        skill=100.0 * max(0.0, 1.0 - (player.expected - best.expected)),
        luck=_luck(player.classes, came, game.win_reply, values.model),
        expected_remaining=player.expected_remaining,
        best_expected_remaining=best.expected_remaining,
        best_remaining=best_remaining,
    )
    return analysis, player.classes


def _next(
    values: GameValues, lookup: PolicyLookup, position: _Position, turn: Turn, targets: np.ndarray
) -> _Position:
    """Return the position after ``turn``, which left ``targets``."""
    policy = lookup.policy
    node = position.node
    if node is not None and node != SOLVED:
        node = policy.step(node, turn.code) if turn.word == policy.guess(node) else None
    if turn.code == policy.game.win_reply:
        targets = targets[:0]
    return _Position(
        targets,
        values.child_state(position.state, turn.word, turn.code),
        node,
        [*position.played, (turn.word, turn.code)],
    )
