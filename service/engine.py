"""The service's answers: the lookup core with the builder's live answers.

It knows nothing about gRPC (service.server maps its errors to status codes)
and holds no lookup logic of its own: every policy, Guess My Word's trees
included, is answered by :class:`guesswork.client.lookup.CatalogLookup` (the
probe's walk, stored alternatives), with :class:`GreedyLiveSolver` for the
histories that leave a stored tree, and for those that leave the answer list
(ranked over the policy's guess list as possible secrets; see client.lookup).
Finished games are analysed by builder.analysis over the same lookups.
"""

from __future__ import annotations

from collections.abc import Sequence

from guesswork.builder.analysis import GameAnalyzer
from guesswork.builder.live import GreedyLiveSolver
from guesswork.client.analysis import GameAnalysis
from guesswork.client.catalog import Catalog
from guesswork.client.lookup import DEFAULT_ALTERNATIVES, CatalogLookup, PolicyLookup

__all__ = ["DEFAULT_ALTERNATIVES", "Engine", "PolicyLookup"]


class Engine(CatalogLookup):
    """Answers for every policy of a catalog, off-tree histories answered live."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog, GreedyLiveSolver())
        self.analyzer = GameAnalyzer()

    def analyze(
        self, policy: str, history: Sequence[tuple[str, str]], answer: str = ""
    ) -> GameAnalysis:
        """Return the analysis of a game (see builder.analysis.GameAnalyzer.analyze).

        Raises:
            PolicyNotFoundError: no such policy; and the errors of GameAnalyzer.analyze.
        """
        return self.analyzer.analyze(self.policy(policy), history, answer)
