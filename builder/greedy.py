"""The greedy step: at a node, the guess minimising a one-step metric.

A node's guess is ``min(candidates, key=metric(partition_counts(guess,
targets)))``, the first candidate (in list order) winning ties. The
candidates are the node's remaining targets (hard mode), or the whole guess
list when the node's size lies inside the *inconsistent-guess window* (normal
mode): the 2022 notebook uses ``3 < n <= 125``, the 2020 notebook ``n > 3``
(:func:`considers_every_guess`). builder.greedy_tree grows whole trees with
this rule in a compiled kernel.

:class:`GreedyStep` is the one greedy step outside the kernel: it ranks the
guesses for a set of remaining targets with the same candidate rule
(:func:`considers_every_guess`) and the same metric arithmetic, best first.
The builder uses it to store each node's ranked alternatives, and live
answers (builder.live) use it when a history leaves a stored tree, so a live
answer is the guess the builder would have stored had the tree gone that way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..client.errors import GuessMyWordError
from ..client.games import Game
from ..client.interrupt import still_wanted
from ..client.probe import Policy
from ..client.rules import NYT_HARD
from ..client.strategy import GreedyStrategy, WordTreeStrategy
from . import _partitions
from .metrics import (
    ARITHMETIC,
    DEFAULT_RETRY_PERCENT,
    DEFAULT_WINDOW,
    METRIC_APPROX_ENTROPY,
    METRIC_NEG_ENTROPY,
    METRICS,
    SEED_2022,
    smallest,
)
from .partitions import metric_values, metric_values_by_target, retried_candidates


@dataclass(frozen=True)
class GreedyOptions:
    """How a greedy tree chooses guesses.

    Attributes:
        metric: one of ``max``, ``expectation``, ``neg_entropy``, ``entropy``,
            ``random``, ``approx_entropy``.
        hard: only consistent guesses (the remaining targets) are considered.
        window: (low, high) node sizes at which normal mode considers every
            word of the guess list; ``high=None`` means no upper bound.
        nyt_hard: NYT hard mode: as normal mode (the window applies), but a
            word of the guess list is considered only while the NYT rule
            allows it after the node's replies (builder.nyt_hard).
        arithmetic: the seed notebook whose floating-point arithmetic breaks
            near-ties, ``2022`` or ``2020`` (see builder.partitions).
        seed: random seed for the ``random`` guesser.
        retry_percent: ``approx_entropy`` only: the share (percent) of the
            candidates, best by the letter-entropy estimate, whose exact
            entropy is computed (builder.partitions.retried_candidates).
    """

    metric: str = "neg_entropy"
    hard: bool = False
    window: tuple[int, int | None] = DEFAULT_WINDOW
    arithmetic: int = SEED_2022
    seed: int = 0
    nyt_hard: bool = False
    retry_percent: float = DEFAULT_RETRY_PERCENT


def considers_every_guess(size: int, hard: bool, window_low: int, window_high: int) -> bool:
    """Return True when a node of ``size`` targets considers the whole guess list.

    The candidate rule of every greedy step: hard mode only ever considers the
    remaining targets; normal mode considers every guess inside the window
    ``window_low <= size <= window_high`` (``window_high < 0``: no upper bound).
    The rule is written once, in C (builder/_partitions.h), for the tree grower
    and for these Python callers.
    """
    every: bool = _partitions.considers_every_guess(size, hard, window_low, window_high)
    return every


@dataclass(frozen=True)
class Ranked:
    """Guesses ranked by a greedy step, best first: vocabulary indices and metric values."""

    guesses: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class ReplyColumns:
    """A reply matrix read in place by :meth:`GreedyStep.rank`.

    Attributes:
        matrix: the reply matrix, vocabulary x targets.
        columns: the remaining targets' columns, in target-list order.
    """

    matrix: np.ndarray
    columns: np.ndarray
    #: The matrix transposed and contiguous, if the caller has it: small sets are
    #: then ranked through it (partitions.metric_values_by_target).
    by_target: np.ndarray | None = None


#: Reply cells (guess x target) a ranking through a reply function makes at once
#: (live answers): 4 MB of one-byte codes, tens of milliseconds of work.
BLOCK_CELLS = 1 << 22

#: Sets of at most this many targets are ranked through a target-major matrix
#: where one is given (as the optimal search's scan does).
TARGET_MAJOR_UP_TO = 48


@dataclass(frozen=True)
class GreedyStep:
    """One greedy step: rank the guesses for a set of remaining targets.

    Attributes:
        options: the metric, mode, window and arithmetic.
        guess_count: size of the guess list proper (vocabulary indices below it
            are the words normal mode may try inside the window).
        reply_space: the game's number of reply codes.
    """

    options: GreedyOptions
    guess_count: int
    reply_space: int
    #: The winning reply code (the weighted metrics' tie-break; -1: none).
    win_reply: int = -1

    def candidates(self, consistent: np.ndarray, legal: np.ndarray | None = None) -> np.ndarray:
        """Return the vocabulary indices considered when ``consistent`` are the words left.

        ``consistent`` holds the remaining targets' vocabulary indices in
        target-list order; they are the candidates unless the window applies.
        ``legal`` (NYT hard mode) marks the vocabulary words the NYT rule
        allows here: inside the window only those of the guess list are
        considered (the remaining targets always are legal).

        Raises:
            ValueError: an NYT-hard step was not given ``legal``.
        """
        if self.options.nyt_hard and legal is None:
            raise ValueError("an NYT hard-mode step needs the legal guesses of its node")
        low, high = self.options.window
        if considers_every_guess(
            len(consistent), self.options.hard, low, -1 if high is None else high
        ):
            if legal is not None:
                return np.flatnonzero(legal[: self.guess_count]).astype(np.int64)
            return np.arange(self.guess_count, dtype=np.int64)
        return consistent.astype(np.int64)

    def rank(
        self,
        consistent: np.ndarray,
        count: int,
        replies: Callable[[np.ndarray], np.ndarray] | ReplyColumns,
        legal: np.ndarray | None = None,
        letters: np.ndarray | None = None,
        weights: np.ndarray | None = None,
    ) -> Ranked:
        """Return the best ``count`` guesses when ``consistent`` are the words left.

        ``consistent`` holds the remaining targets' vocabulary indices in
        target-list order (the seeds' arithmetic sums in that order).
        ``replies(candidates)`` must return the reply block: row i, column j is
        the reply of ``candidates[i]`` to the j-th remaining target; or
        ``replies`` is a whole reply matrix read in place (:class:`ReplyColumns`,
        the builder's way: no block is copied). Ties go
        to the earlier candidate. The random guesser (and a lone target)
        ranks the consistent words in list order, with value 0. ``legal``:
        as for :meth:`candidates` (an NYT-hard step needs it). ``letters``
        (the vocabulary's :func:`~guesswork.builder.matrices.letter_array`)
        is needed by ``approx_entropy``, which ranks only the candidates it
        retries, by their exact entropy. ``weights`` (one per entry of
        ``consistent``: how likely each is the secret) ranks by the weighted
        metric (builder.partitions.metric_of_masses); None: every target alike.

        Raises:
            ValueError: an NYT-hard step was not given ``legal``, or an
                approx_entropy step not given ``letters``.
        """
        if len(consistent) == 1 or self.options.metric == "random":
            chosen = consistent[:count].astype(np.int64)
            return Ranked(chosen, np.zeros(len(chosen)))
        candidates = self.candidates(consistent, legal)
        metric = METRICS[self.options.metric]
        if metric == METRIC_APPROX_ENTROPY:
            if letters is None:
                raise ValueError("an approx_entropy step needs the vocabulary's letters")
            retried = retried_candidates(
                letters, candidates, consistent.astype(np.int64), self.options.retry_percent
            )
            candidates, metric = candidates[retried], METRIC_NEG_ENTROPY
        values = self.values(consistent, candidates, replies, weights, metric)
        best = smallest(values, count)
        return Ranked(candidates[best], values[best])

    def values(
        self,
        consistent: np.ndarray,
        candidates: np.ndarray,
        replies: Callable[[np.ndarray], np.ndarray] | ReplyColumns,
        weights: np.ndarray | None = None,
        metric: int | None = None,
    ) -> np.ndarray:
        """Return each of ``candidates``' metric values (lower is better) when
        ``consistent`` are the words left, read as :meth:`rank` reads them.

        ``metric`` (builder.metrics' code) overrides the step's own; an
        approx_entropy step must be given an exact one, as :meth:`rank` does
        for the candidates it retries. ``replies`` and ``weights``: as for
        :meth:`rank`.

        Raises:
            ValueError: the metric is approx_entropy (an estimate, not a value).
        """
        metric = METRICS[self.options.metric] if metric is None else metric
        if metric == METRIC_APPROX_ENTROPY:
            raise ValueError("approx_entropy ranks by estimate: ask for an exact metric's values")
        if not isinstance(replies, ReplyColumns):
            return _block_values(self, candidates, len(consistent), metric, replies, weights)
        if replies.by_target is not None and len(replies.columns) <= TARGET_MAJOR_UP_TO:
            return metric_values_by_target(
                replies.by_target,
                candidates,
                replies.columns,
                metric,
                self.options.arithmetic,
                self.reply_space,
                weights,
                self.win_reply,
            )
        return metric_values(
            replies.matrix,
            candidates,
            replies.columns,
            metric,
            self.options.arithmetic,
            self.reply_space,
            weights,
            self.win_reply,
        )


def _block_values(
    step: GreedyStep,
    candidates: np.ndarray,
    targets: int,
    metric: int,
    replies: Callable[[np.ndarray], np.ndarray],
    weights: np.ndarray | None,
) -> np.ndarray:
    """Return each candidate's metric value, from reply blocks of at most
    :data:`BLOCK_CELLS` cells made by ``replies``: a live answer's working memory
    stays bounded whatever the lists, and between blocks it stops if its call has
    ended (client.interrupt). Each value depends on its own row alone, so they
    are the values of one whole block, bit for bit."""
    rows_per_block = max(1, BLOCK_CELLS // max(1, targets))
    columns = np.arange(targets, dtype=np.int64)
    values = np.empty(len(candidates))
    for start in range(0, len(candidates), rows_per_block):
        still_wanted()
        block = np.ascontiguousarray(replies(candidates[start : start + rows_per_block]))
        values[start : start + len(block)] = metric_values(
            block,
            np.arange(len(block), dtype=np.int64),
            columns,
            metric,
            step.options.arithmetic,
            step.reply_space,
            weights,
            step.win_reply,
        )
    return values


def check_approx_entropy(options: GreedyOptions, game: Game) -> None:
    """Raise ValueError if ``options`` ask for approx_entropy where it does not apply.

    Its estimate scores letters by position (green, yellow, grey), so it
    needs Wordle-like replies; its retry percent must lie in (0, 100].
    Other metrics pass.
    """
    if options.metric != "approx_entropy":
        return
    if not game.coloured_replies:
        raise ValueError(f"approx_entropy estimates Wordle-like replies, not {game.id}'s")
    if not 0 < options.retry_percent <= 100:
        raise ValueError(f"retry percent {options.retry_percent:g} is not in (0, 100]")


def step_of(
    strategy: GreedyStrategy, guess_count: int, game: Game, *, nyt_hard: bool = False
) -> GreedyStep:
    """Return the step a stored greedy strategy describes, for a guess list of ``guess_count``.

    ``nyt_hard``: the policy's mode is NYT hard mode (the strategy's window
    then applies to the guesses the NYT rule allows).
    """
    options = GreedyOptions(
        metric=strategy.metric,
        hard=strategy.window is None,
        window=DEFAULT_WINDOW if strategy.window is None else strategy.window,
        arithmetic=ARITHMETIC[strategy.arithmetic],
        seed=strategy.seed or 0,
        nyt_hard=nyt_hard,
        retry_percent=(
            DEFAULT_RETRY_PERCENT if strategy.retry_percent is None else strategy.retry_percent
        ),
    )
    return GreedyStep(options, guess_count, game.reply_space, game.win_reply)


def greedy_step(policy: Policy) -> GreedyStep:
    """Return the greedy step that answers a policy's off-tree histories live.

    That is the strategy's fallback: the greedy strategy itself, or the step
    an optimised tree names. Hard mode (no window) considers only the
    remaining targets.
    """
    strategy = policy.data.strategy
    if isinstance(strategy, WordTreeStrategy):
        raise GuessMyWordError(f"policy {policy.name!r} is a Guess My Word tree: no greedy step")
    return step_of(
        strategy.fallback,
        policy.data.guesses.count,
        policy.game,
        nyt_hard=policy.data.mode == NYT_HARD,
    )
