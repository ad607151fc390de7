"""What answers a history that leaves a stored tree: the :class:`LiveSolver` interface.

client.lookup answers stored positions itself; a position off the tree is
ranked by a live solver, which the builder provides
(guesswork.builder.live.GreedyLiveSolver: the policy's own greedy step), so
that client imports neither builder nor service. A solver returns a
:class:`Ranking`: the guesses best first, with each one's metric value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from .probe import Policy


@dataclass(frozen=True)
class Ranking:
    """Guesses a live solver ranked, best first: indices, and each one's metric value
    (lower is better; empty where the strategy has none, e.g. a Guess My Word tree)."""

    indices: tuple[int, ...]
    values: tuple[float, ...] = ()


class LiveSolver(Protocol):
    """Ranks guesses for a set of remaining targets, as the policy's strategy would."""

    def rank(
        self,
        policy: Policy,
        remaining: np.ndarray,
        count: int,
        history: Sequence[tuple[str, int]] = (),
    ) -> Ranking:
        """Return up to ``count`` vocabulary indices, best first, with their values.

        ``remaining`` holds the indices (in target-list order) of the targets
        still possible; there is at least one. ``history`` holds the turns so
        far as (guess, reply code): an NYT hard-mode policy (mode
        ``nyt-hard``) ranks only the guesses the NYT rule allows after them.
        """
        ...

    def rank_words(
        self,
        policy: Policy,
        words: tuple[str, ...],
        possible: np.ndarray,
        count: int,
        history: Sequence[tuple[str, int]] = (),
    ) -> Ranking:
        """Return up to ``count`` indices into ``words``, best first, with their values,
        when the secret is one of ``words[possible]`` (a history no target fits).

        ``words`` is :attr:`~guesswork.client.lookup.PolicyLookup.open_words`: the
        policy's vocabulary first, so indices below the guess list's length are its guess list,
        then the wider list's other words. ``possible`` is ascending and not
        empty. The same strategy as :meth:`rank`, with ``words[possible]`` in
        the place of the remaining targets.
        """
        ...

    def rank_boards(self, policy: Policy, boards: Sequence[np.ndarray], count: int) -> Ranking:
        """Return up to ``count`` vocabulary indices, best first, with their joint values,
        for a multi-board position (client.multiboard): ``boards`` holds each unsolved
        board's remaining targets (target indices, ascending, at least one each).
        A board known to one word gets that word first.
        """
        ...
