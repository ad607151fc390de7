"""Live answers: the policy's greedy step over the targets a history leaves.

:class:`GreedyLiveSolver` is the :class:`~guesswork.client.lookup.LiveSolver`
that the service (and the in-process ``guesswork`` command line) give the
lookup core. It ranks guesses with :class:`~guesswork.builder.greedy.GreedyStep`,
the same step that grows greedy trees and ranks stored alternatives, so a
live answer is what the builder would have stored. It computes only the reply
block it needs (candidates x remaining targets) with the compiled kernel,
never a policy's whole reply matrix, so an answer costs milliseconds even on
long word lists.

:meth:`GreedyLiveSolver.rank_words` answers a history no target fits: the
same step with the possible words of the policy's open words (its guess list,
widened; see client.lookup) in the place of the remaining targets, the
candidates being the policy's guess list inside the window as always.

A policy weighted by a prior ranks by the weighted metric, the remaining
targets weighed by its stored target weights; off its answer list, the
possible words are weighed by a shipped prior (builder.priors.open_word_weights:
the policy's own when shipped, else the default one), so an unlikely word
such as AALII counts for less than SNAFU, as the NYT's answers do.

A Guess My Word policy (strategy ``word-tree``) has no greedy step: its
answer is the first guess of the same kind of tree (builder.guess_my_word)
built over the words left, weighted by the stored target weights, as the
tree itself was built over the whole list. It ranks that one guess only.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from ..client.errors import GuessMyWordError
from ..client.live_solver import Ranking
from ..client.probe import Policy
from ..client.strategy import OptimalStrategy, WordTreeStrategy
from .absurdle_policy import AbsurdleContinuation
from .greedy import GreedyStep, greedy_step
from .guess_my_word import build_tree
from .matrices import alphabet_of, letter_array, reply_block
from .metrics import METRIC_NEG_ENTROPY
from .multiboard import joint_step, rank_boards
from .nyt_hard import legal_after
from .priors import open_word_weights
from .weighted_lists import WeightedList

#: Policies whose letter arrays are kept (a few MB for the longest lists).
_POLICIES_KEPT = 64
#: One board's values: (its targets left, the candidates or None for every word) ->
#: the joint step's neg_entropy value of each candidate (GreedyLiveSolver.board_values).
BoardValuesOver = Callable[[np.ndarray, "np.ndarray | None"], np.ndarray]
#: Absurdle policies whose line search is kept (its refuted sets grow with use).
_ABSURDLE_KEPT = 4
#: Guess My Word answers kept (a tree over thousands of words takes a second).
_WORD_TREE_ANSWERS_KEPT = 10_000
#: Letter arrays of open word lists kept (one per policy answering off-list games).
_OPEN_WORDS_KEPT = 16


def word_tree_guess(policy: Policy, remaining: np.ndarray) -> int:
    """Return the vocabulary index of a Guess My Word policy's live answer: the first
    guess of its kind of tree over the ``remaining`` targets and their weights.

    Raises:
        GuessMyWordError: not a Guess My Word policy.
    """
    strategy, game, weights = policy.data.strategy, policy.game, policy.data.numpy_weights()
    if not isinstance(strategy, WordTreeStrategy) or not game.alphabetical_replies:
        raise GuessMyWordError(f"policy {policy.name!r} is not a Guess My Word tree")
    if weights is None:
        raise GuessMyWordError(f"policy {policy.name!r} has no target weights")
    chosen = remaining.tolist()
    left = WeightedList(tuple(policy.targets[i] for i in chosen), tuple(weights[chosen].tolist()))
    tree = build_tree(left, strategy.tree, "deduce" if game.deduces else "live")
    return policy.vocabulary.index(tree.first_guess)


class GreedyLiveSolver:
    """Ranks guesses for the remaining targets of any policy. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._prepared: OrderedDict[str, tuple[GreedyStep, np.ndarray, np.ndarray, str]] = (
            OrderedDict()
        )
        self._word_tree_answers: OrderedDict[tuple[str, bytes], int] = OrderedDict()
        self._absurdle: OrderedDict[str, AbsurdleContinuation] = OrderedDict()
        self._open_letters: OrderedDict[tuple[str, tuple[str, ...]], tuple[np.ndarray, str]] = (
            OrderedDict()
        )

    def prepared(self, policy: Policy) -> tuple[GreedyStep, np.ndarray, np.ndarray, str]:
        """Return the policy's step, vocabulary letters, each target's vocabulary index
        and the alphabet coding the letters (builder.matrices.alphabet_of)."""
        with self._lock:
            prepared = self._prepared.get(policy.content_hash)
            if prepared is not None:
                self._prepared.move_to_end(policy.content_hash)
                return prepared
        position = {word: i for i, word in enumerate(policy.vocabulary)}
        alphabet = alphabet_of(policy.vocabulary)
        prepared = (
            greedy_step(policy),
            letter_array(policy.vocabulary, policy.game.length, alphabet),
            np.array([position[word] for word in policy.targets], dtype=np.int64),
            alphabet,
        )
        with self._lock:
            self._prepared[policy.content_hash] = prepared
            if len(self._prepared) > _POLICIES_KEPT:
                self._prepared.popitem(last=False)
        return prepared

    def rank(
        self,
        policy: Policy,
        remaining: np.ndarray,
        count: int,
        history: Sequence[tuple[str, int]] = (),
    ) -> Ranking:
        """Return up to ``count`` vocabulary indices, best first, with their metric values,
        for the ``remaining`` targets.

        ``remaining`` holds target indices in target-list order; ``history``
        the (guess, reply code) turns so far, which an NYT hard-mode policy's
        step needs (only guesses the NYT rule allows after them are ranked).
        A Guess My Word policy gets one index, its tree's live answer, and no value.
        """
        if isinstance(policy.data.strategy, WordTreeStrategy):
            return Ranking((self._word_tree_answer(policy, remaining),))
        step, letters, target_to_vocabulary, alphabet = self.prepared(policy)
        weights = policy.data.numpy_weights()
        ranking = _ranked(
            policy,
            step,
            (letters, alphabet),
            target_to_vocabulary[remaining],
            count,
            history,
            None if weights is None else weights[remaining],
        )
        strategy = policy.data.strategy
        if isinstance(strategy, OptimalStrategy) and strategy.absurdle and len(remaining) > 1:
            secrets = target_to_vocabulary[remaining]

            def value_of(guess: int) -> float:
                """The step's own value of one guess (the line's may be unranked)."""
                values = step.values(
                    secrets,
                    np.array([guess], dtype=np.int64),
                    lambda rows: reply_block(policy.game, letters[rows], letters[secrets]),
                    None if weights is None else weights[remaining],
                )
                return float(values[0])

            return self._absurdle_first(policy, remaining, history, ranking, value_of)
        return ranking

    def _absurdle_first(
        self,
        policy: Policy,
        remaining: np.ndarray,
        history: Sequence[tuple[str, int]],
        ranking: Ranking,
        value_of: Callable[[int], float],
    ) -> Ranking:
        """Return ``ranking`` (the greedy step's) led by the first guess of the shortest
        line that beats Absurdle from this position: an Absurdle policy's answer off
        its stored line. The alternatives stay the step's, with their values; the
        line's guess has its own value under the step (``value_of``)."""
        with self._lock:
            continuation = self._absurdle.get(policy.content_hash)
        if continuation is None:
            continuation = AbsurdleContinuation(policy)
            with self._lock:
                self._absurdle[policy.content_hash] = continuation
                if len(self._absurdle) > _ABSURDLE_KEPT:
                    self._absurdle.popitem(last=False)
        best = continuation.first_guess(remaining, history)
        if best is None or (ranking.indices and ranking.indices[0] == best):
            return ranking
        # The line's guess first, then the step's others, as many as were ranked.
        keep = [(i, v) for i, v in zip(ranking.indices, ranking.values, strict=True) if i != best]
        keep = keep[: len(ranking.indices) - 1]
        return Ranking((best, *(i for i, _ in keep)), (value_of(best), *(v for _, v in keep)))

    def rank_words(
        self,
        policy: Policy,
        words: tuple[str, ...],
        possible: np.ndarray,
        count: int,
        history: Sequence[tuple[str, int]] = (),
    ) -> Ranking:
        """Return up to ``count`` indices into ``words``, best first, with their values,
        when the secret is one of ``words[possible]`` (client.lookup.LiveSolver.rank_words).

        Raises:
            GuessMyWordError: a Guess My Word policy (its secrets are its targets).
        """
        step = self.prepared(policy)[0]  # a Guess My Word policy has none: it raises
        key = (policy.content_hash, words)
        with self._lock:
            coded = self._open_letters.get(key)
            if coded is not None:
                self._open_letters.move_to_end(key)
        if coded is None:
            alphabet = alphabet_of(words)
            coded = (letter_array(words, policy.game.length, alphabet), alphabet)
            with self._lock:
                self._open_letters[key] = coded
                if len(self._open_letters) > _OPEN_WORDS_KEPT:
                    self._open_letters.popitem(last=False)
        weights = open_word_weights(policy.data.prior, words)
        return _ranked(
            policy,
            step,
            coded,
            possible.astype(np.int64),
            count,
            history,
            None if weights is None else weights[possible],
        )

    def rank_boards(self, policy: Policy, boards: Sequence[np.ndarray], count: int) -> Ranking:
        """Return up to ``count`` vocabulary indices, best first, with their joint values,
        for a multi-board position (client.lookup.LiveSolver.rank_boards): the joint
        step (builder.multiboard) over the unsolved ``boards``, each the target
        indices (ascending) still possible on one board.

        Raises:
            GuessMyWordError: a Guess My Word policy (no greedy step).
        """
        step, values_over = self.board_values(policy)
        target_to_vocabulary = self.prepared(policy)[2]
        weights = policy.data.numpy_weights()
        ranked = rank_boards(
            step,
            [target_to_vocabulary[board] for board in boards],
            count,
            lambda number, candidates: values_over(boards[number], candidates),
            [None if weights is None else weights[board] for board in boards],
        )
        return Ranking(
            tuple(int(i) for i in ranked.guesses), tuple(float(v) for v in ranked.values)
        )

    def board_values(self, policy: Policy) -> tuple[GreedyStep, BoardValuesOver]:
        """Return the joint step of ``policy`` (builder.multiboard.joint_step) and the
        function giving one board's values: ``values_over(targets, candidates)``, the
        step's neg_entropy values of the ``candidates`` (vocabulary indices; None: the
        whole vocabulary) when ``targets`` (target indices, ascending) are the board's
        targets left. The stored openings (builder.multiboard_openings) read the
        same values as the live answers do.

        Raises:
            GuessMyWordError: a Guess My Word policy (no greedy step).
        """
        own_step, letters, target_to_vocabulary, _ = self.prepared(policy)
        step = joint_step(own_step)
        weights = policy.data.numpy_weights()
        everything = np.arange(len(policy.vocabulary), dtype=np.int64)

        def values_over(targets: np.ndarray, candidates: np.ndarray | None = None) -> np.ndarray:
            secrets = target_to_vocabulary[targets]
            secret_letters = letters[secrets]
            return step.values(
                secrets,
                everything if candidates is None else candidates,
                lambda rows: reply_block(policy.game, letters[rows], secret_letters),
                None if weights is None else weights[targets],
                METRIC_NEG_ENTROPY,
            )

        return step, values_over

    def target_replies(self, policy: Policy, guess: int) -> np.ndarray:
        """Return the reply each of ``policy``'s targets gives to vocabulary word ``guess``."""
        _, letters, target_to_vocabulary, _ = self.prepared(policy)
        codes: np.ndarray = reply_block(
            policy.game, letters[[guess]], letters[target_to_vocabulary]
        )[0]
        return codes

    def _word_tree_answer(self, policy: Policy, remaining: np.ndarray) -> int:
        """Return :func:`word_tree_guess`, remembered for the last many positions."""
        digest = hashlib.sha256(np.ascontiguousarray(remaining, dtype="<i8").tobytes()).digest()
        key = (policy.content_hash, digest)
        with self._lock:
            cached = self._word_tree_answers.get(key)
            if cached is not None:
                self._word_tree_answers.move_to_end(key)
                return cached
        answer = word_tree_guess(policy, remaining)
        with self._lock:
            self._word_tree_answers[key] = answer
            if len(self._word_tree_answers) > _WORD_TREE_ANSWERS_KEPT:
                self._word_tree_answers.popitem(last=False)
        return answer


def _ranked(
    policy: Policy,
    step: GreedyStep,
    coded: tuple[np.ndarray, str],
    consistent: np.ndarray,
    count: int,
    history: Sequence[tuple[str, int]],
    weights: np.ndarray | None = None,
) -> Ranking:
    """Return the step's best ``count`` word indices and their values when
    ``letters[consistent]`` are the possible secrets, ``coded`` being (``letters``,
    the alphabet coding them):
    indices into the words ``letters`` spells, in their order, the guess list
    first. Under NYT hard mode only the guesses the rule allows after ``history``
    are candidates. ``weights`` (one per entry of ``consistent``): how likely
    each is the secret (None: alike)."""
    letters, alphabet = coded
    secret_letters = letters[consistent]
    legal = (
        legal_after(letters[: step.guess_count], history, alphabet)
        if step.options.nyt_hard
        else None
    )
    ranked = step.rank(
        consistent,
        count,
        lambda candidates: reply_block(policy.game, letters[candidates], secret_letters),
        legal,
        letters=letters,
        weights=weights,
    )
    return Ranking(tuple(int(i) for i in ranked.guesses), tuple(float(v) for v in ranked.values))
