"""The service's answers: the lookup core with the builder's live answers.

It knows nothing about gRPC (service.server maps its errors to status codes)
and holds no lookup logic of its own: every policy, Guess My Word's trees
included, is answered by :class:`guesswork.client.lookup.CatalogLookup` (the
probe's walk, stored alternatives), with :class:`GreedyLiveSolver` for the
histories that leave a stored tree, and for those that leave the answer list
(ranked over the policy's guess list as possible secrets; see client.lookup).
Finished games are analysed by builder.analysis over the same lookups; a game
whose secret is none of the policy's targets is analysed under the catalog's
policy of the same game and mode whose targets are every word live answers
take for possible there, a weighted one first (:meth:`Engine.off_list_policy`).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence

from guesswork.builder.analysis import GameAnalyzer
from guesswork.builder.live import GreedyLiveSolver
from guesswork.client.analysis import GameAnalysis
from guesswork.client.catalog import Catalog
from guesswork.client.errors import ContradictoryHistoryError, UnknownWordError
from guesswork.client.lookup import DEFAULT_ALTERNATIVES, CatalogLookup, PolicyLookup

__all__ = ["DEFAULT_ALTERNATIVES", "Engine", "PolicyLookup"]


class Engine(CatalogLookup):
    """Answers for every policy of a catalog, off-tree histories answered live."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog, GreedyLiveSolver())
        self.analyzer = GameAnalyzer()
        self._lock = threading.Lock()
        #: Each policy's off-list policy (off_list_policy), found on first use.
        self._off_list: dict[str, PolicyLookup | None] = {}

    def analyze(
        self, policy: str, history: Sequence[tuple[str, str]], answer: str = ""
    ) -> GameAnalysis:
        """Return the analysis of a game (see builder.analysis.GameAnalyzer.analyze).

        Raises:
            PolicyNotFoundError: no such policy; and the errors of GameAnalyzer.analyze.
        """
        lookup = self.policy(policy)
        try:
            return self.analyzer.analyze(lookup, history, answer)
        except (ContradictoryHistoryError, UnknownWordError) as error:
            # A secret outside the answer list: value the game over every allowed
            # guess, as live answers play on over them.
            if isinstance(error, UnknownWordError) and error.metadata.get("field") != "answer":
                raise
            wider = self.off_list_policy(lookup)
            if wider is None:
                raise
            try:
                analysis = self.analyzer.analyze(wider, history, answer)
            except (ContradictoryHistoryError, UnknownWordError):
                raise error from None  # no allowed word fits either: the request's fault
        return dataclasses.replace(analysis, off_list_policy=lookup.name)

    def off_list_policy(self, lookup: PolicyLookup) -> PolicyLookup | None:
        """Return the policy that values a game whose secret left ``lookup``'s answer list:
        of the same game and mode, with every word live answers take for a possible
        secret there (:attr:`PolicyLookup.open_words`) among its targets;
        a weighted one (a prior) first, then the fewest targets, then by name. None if
        the catalog has none.
        """
        policy = lookup.policy
        with self._lock:
            if policy.name in self._off_list:
                return self._off_list[policy.name]
        needed = frozenset(lookup.open_words)
        fits = [
            other for other in self
            if other.name != policy.name
            and other.game == policy.game
            and other.policy.data.mode == policy.data.mode
            and other.policy.data.targets.count >= len(needed)
            and needed <= frozenset(other.policy.targets)
        ]  # fmt: skip
        chosen = min(
            fits,
            key=lambda other: (
                other.policy.data.prior is None,
                other.policy.data.targets.count,
                other.name,
            ),
            default=None,
        )
        with self._lock:
            self._off_list[policy.name] = chosen
        return chosen
