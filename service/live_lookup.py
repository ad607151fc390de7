"""The service's answers: the lookup core with the builder's live answers.

It knows nothing about gRPC (service.server maps its errors to status codes)
and holds no lookup logic of its own: every policy, Guess My Word's trees
included, is answered by :class:`guesswork.client.lookup.CatalogLookup` (the
probe's walk, stored alternatives), with the builder's GreedyLiveSolver for the
histories that leave a stored tree, and for those that leave the answer list
(ranked over the policy's guess list as possible secrets; see client.lookup).
Finished games are analysed by builder.analysis over the same lookups; a game
whose secret is none of the policy's targets is analysed under the catalog's
policy of the same game and mode whose targets are every word live answers
take for possible there, a weighted one first: the lookup core's one rule for
off-list answers (:meth:`~guesswork.client.lookup.CatalogLookup.off_list_policy`).

Every live answer runs through the live gate: the lookups' live solver is
:class:`~guesswork.service.live_gate.GatedLiveSolver` (the builder's, made on
first use, a multi-board ranking through the gate's expensive lane after its
cost limit); an analysis runs through the gate too.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..client.analysis import GameAnalysis
from ..client.catalog import SHIPPED, Catalog
from ..client.core import DEFAULT_ALTERNATIVES
from ..client.errors import (
    ContradictoryHistoryError,
    GuessworkError,
    PolicyFormatError,
    UnknownWordError,
)
from ..client.games import GuessMyWord
from ..client.lookup import CatalogLookup, PolicyLookup
from ..client.probe import Policy
from ..client.trust import is_proven
from .live_gate import UNLIMITED, GatedLiveSolver, LiveGate

if TYPE_CHECKING:
    from ..builder.analysis import GameAnalyzer


__all__ = ["DEFAULT_ALTERNATIVES", "LiveCatalogLookup", "PolicyLookup"]


class LiveCatalogLookup(CatalogLookup):
    """Answers for every policy of a catalog, off-tree histories answered live."""

    def __init__(self, catalog: Catalog, gate: LiveGate = UNLIMITED) -> None:
        super().__init__(catalog, GatedLiveSolver(gate))
        #: Admits the live computations (service.live_gate).
        self.gate = gate
        self._analyzer: GameAnalyzer | None = None
        self._lock = threading.Lock()

    def check_served(self, policy: Policy) -> None:
        """Check what reading a policy does not, before serving it, as ``import`` does, so
        that a re-sealed file or catalog row with tampered contents is refused on every
        reading path: an optimised policy's certificate (builder.verify.verify_certificate:
        0.1-0.5 s, and the reply matrix of its lists) and every policy's stored
        alternatives and their values (builder.alternatives.alternative_faults: about
        45 ms per 1,000 targets), once per policy and process. Policies of the shipped
        catalog are not checked here: its byte-for-byte rebuild checks them
        (tests/builder/test_publish.py), and a stored answer from it stays a lookup.
        Nor are policies proven (client.trust: a catalog opened to be served proves
        each policy it reads, which covers these checks, and remembers it by content
        hash): this check is for a Catalog handed in unproven (``prove=False``).

        Raises:
            PolicyFormatError: the certificate or an alternative does not match the tree.
        """
        if self.catalog.origin(policy.name) == SHIPPED or is_proven(policy.content_hash):
            return
        from ..builder.alternatives import alternative_faults
        from ..builder.verify import verify_certificate

        faults = alternative_faults(policy)
        if not faults and policy.data.certificate is not None:
            faults = verify_certificate(policy)
        if faults:
            raise PolicyFormatError(f"policy {policy.name!r}: {faults[0]}")

    def warm_up(self) -> int:
        """Compute one live answer for a policy of each kind the catalog holds (game,
        mode, metric, weighted or not: what selects the kernels; a word length
        does not), so that the modules and kernels live answers need are loaded
        (and a catalog from outside proven, client.trust) before a request waits
        on them. Reads one policy per kind,
        the one with the fewest targets. Returns how many kinds were warmed.

        A kind whose answer fails (a tree with a single target, say) is passed
        over: warming is an optimisation, and such an answer fails the same way later.
        So is a policy that fails its checks (logged at ERROR): the server starts and
        refuses that policy alone (BAD_POLICY_DATA) when it is asked for.
        """
        kinds: dict[tuple[object, ...], str] = {}
        for info in sorted(self.catalog.list(), key=lambda info: (info.count, info.name)):
            if info.game != GuessMyWord.id:  # its live answers need no compiled kernel
                kinds.setdefault(
                    (info.game, info.mode, info.metric, info.weights is None), info.name
                )
        for name in kinds.values():
            try:
                lookup = self.policy(name)
            except GuessworkError as error:  # a damaged policy: refused when asked for
                logging.getLogger("guesswork.service").error("not warmed: %s", error)
                continue
            policy, game = lookup.policy, lookup.game
            guess = next((w for w in policy.targets if w != policy.guess(policy.root)), None)
            secret = next((w for w in reversed(policy.targets) if w != guess), None)
            if guess is None or secret is None:
                continue
            reply = game.format_reply(game.reply(guess, secret))
            with contextlib.suppress(GuessworkError):
                lookup.suggest([(guess, reply)], alternatives=1)
        return len(kinds)

    @property
    def analyzer(self) -> GameAnalyzer:
        """Return the game analyser (builder.analysis), imported and made on first use."""
        with self._lock:
            if self._analyzer is None:
                from ..builder.analysis import GameAnalyzer

                self._analyzer = GameAnalyzer()
            return self._analyzer

    def analyze(
        self, policy: str, history: Sequence[tuple[str, str]], answer: str = ""
    ) -> GameAnalysis:
        """Return the analysis of a game (see builder.analysis.GameAnalyzer.analyze).

        Raises:
            PolicyNotFoundError: no such policy; and the errors of GameAnalyzer.analyze.
        """
        lookup = self.policy(policy)
        return self.gate.run(lambda: self._analyze(lookup, history, answer))

    def _analyze(
        self, lookup: PolicyLookup, history: Sequence[tuple[str, str]], answer: str
    ) -> GameAnalysis:
        """Return :meth:`analyze`'s analysis of ``lookup``'s game."""
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
