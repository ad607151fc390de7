"""The service's answers: the lookup core with the builder's live answers.

It knows nothing about gRPC (service.server maps its errors to status codes)
and holds no lookup logic of its own: every policy, Guess My Word's trees
included, is answered by :class:`guesswork.client.lookup.CatalogLookup` (the
probe's walk, stored alternatives), with :class:`GreedyLiveSolver` for the
histories that leave a stored tree, and for those that leave the answer list
(ranked over the policy's guess list as possible secrets; see client.lookup).
"""

from __future__ import annotations

from guesswork.builder.live import GreedyLiveSolver
from guesswork.client.catalog import Catalog
from guesswork.client.lookup import DEFAULT_ALTERNATIVES, CatalogLookup, PolicyLookup

__all__ = ["DEFAULT_ALTERNATIVES", "Engine", "PolicyLookup"]


class Engine(CatalogLookup):
    """Answers for every policy of a catalog, off-tree histories answered live."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog, GreedyLiveSolver())
