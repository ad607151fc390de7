"""The application core answered in process: :class:`LocalGuesswork`.

It implements client.core's :class:`~guesswork.client.core.Guesswork` over one
catalog, and is that catalog's lookup core itself
(:class:`~guesswork.client.catalog_lookup.CatalogLookup`, which answers every policy,
Guess My Word's trees included: the probe's walk, stored alternatives, and
the one rule for secrets off the answer list) with what the service adds:

* live answers: the builder's live solver (builder.live.GreedyLiveSolver) for
  the histories that leave a stored tree and for those that leave the answer
  list, each call run through the live gate
  (:class:`~guesswork.service.live_gate.GatedLiveSolver`);
* game analysis (builder.analysis), through the gate too; a game whose secret
  is none of the policy's targets is analysed under the policy
  :meth:`~guesswork.client.catalog_lookup.CatalogLookup.off_list_policy` finds;
* the checks a policy read from outside passes before it is served
  (:meth:`LocalGuesswork.check_served`), and warming live answers before a
  server reports SERVING (:meth:`LocalGuesswork.warm_up`);
* Spelling Bee, through service.bee.

It knows nothing about gRPC (service.server maps its errors to status codes).
The command line's ``--store`` uses it (guesswork.__main__ hands it to
guesswork.client.cli, which cannot import it: client imports neither builder
nor service), and so does the servicer (service.servicer), one per loaded
catalog. A stored answer never loads the builder or numpy.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from ..client.board_lookup import suggest_boards
from ..client.catalog import SHIPPED, Catalog, open_layered, open_store
from ..client.catalog_lookup import CatalogLookup
from ..client.core import (
    DEFAULT_ALTERNATIVES,
    DEFAULT_HONEYCOMBS,
    DEFAULT_WORD_LIST,
    RULE_CONSISTENT,
    EvilAnswer,
    GuessCheck,
    GuessScore,
    History,
    HoneycombReport,
)
from ..client.errors import (
    ContradictoryHistoryError,
    GuessworkError,
    PolicyFormatError,
    UnknownWordError,
)
from ..client.games import GuessMyWord
from ..client.lookup import PolicyLookup
from ..client.trust import is_proven
from .builder_import import BUILDER_IMPORT
from .live_gate import UNLIMITED, GatedLiveSolver, LiveGate

if TYPE_CHECKING:
    from ..builder.analysis import GameAnalyzer
    from ..client.analysis import GameAnalysis
    from ..client.multiboard import BoardsSuggestion
    from ..client.policy_info import PolicyInfo
    from ..client.probe import Policy
    from ..client.spelling_bee import BeeTable
    from ..client.suggestion import Suggestion
    from .bee import BeeAnswers


def builder_proof(policy: Policy) -> list[str]:
    """Return the faults of ``policy`` by the builder's proof (builder.proof.proof_faults):
    the client.trust.Prover the service hands to every catalog it opens (the client
    cannot import the builder). Imported on the first proof: a stored answer from
    the shipped catalog never loads the builder or numpy."""
    with BUILDER_IMPORT:
        from ..builder.proof import proof_faults

    return proof_faults(policy)


class LocalGuesswork(CatalogLookup):
    """Every answer of client.core.Guesswork, from one catalog, computed in this process:
    the catalog's lookups (client.catalog_lookup.CatalogLookup) with live answers, game
    analysis and Spelling Bee. Thread-safe."""

    def __init__(self, catalog: Catalog, gate: LiveGate = UNLIMITED) -> None:
        super().__init__(catalog, GatedLiveSolver(gate))
        #: Admits live computations (service.live_gate): a server's limit, or none.
        self.gate = gate
        self._analyzer: GameAnalyzer | None = None
        self._analyzer_lock = threading.Lock()

    @classmethod
    def open(cls, location: str | None) -> LocalGuesswork:
        """Return the answers of the catalog or policy file at ``location`` (None: the
        shipped catalog and the user's over it, a damaged user catalog left out with
        a warning; see client.catalog.open_store and open_layered), its policies from
        outside proven by builder_proof (the builder's proof).

        Raises:
            PolicyFormatError: the store is missing, unreadable or corrupt.
        """
        if location is None:
            return cls(open_layered(skip_damaged=True, prover=builder_proof))
        return cls(open_store(location, prover=builder_proof))

    @property
    def lookups(self) -> LocalGuesswork:
        """Return the catalog's lookups: this object itself (a CatalogLookup), for
        callers written when the lookups were a layer of their own."""
        return self

    # -- the lookup core's hooks ---------------------------------------------

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
        with BUILDER_IMPORT:
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

    # -- client.core.Guesswork ----------------------------------------------

    def policies(self, game: str = "") -> list[PolicyInfo]:
        """Return every policy's summary, sorted by name (``game``: of that game only).
        No policy is read."""
        return [info for info in self.catalog.list() if not game or info.game == game]

    def policy_info(self, name: str) -> PolicyInfo:
        """Return one policy's summary (a ``policies/`` prefix is allowed); none is read.

        Raises:
            PolicyNotFoundError: no such policy.
        """
        return self.info(name)

    def suggest(
        self,
        policy: str,
        history: History = (),
        alternatives: int = DEFAULT_ALTERNATIVES,
        candidates: int = 0,
    ) -> Suggestion:
        """Return the next guess (see client.lookup.PolicyLookup.suggest)."""
        return self.policy(policy).suggest(history, alternatives, candidates)

    def suggest_boards(
        self,
        policy: str,
        boards: Sequence[History],
        alternatives: int = DEFAULT_ALTERNATIVES,
    ) -> BoardsSuggestion:
        """Return the next guess of a multi-board position (see
        client.board_lookup.suggest_boards)."""
        return suggest_boards(self.policy(policy), boards, alternatives)

    def score(self, policy: str, guess: str, target: str) -> GuessScore:
        """Return the reply ``guess`` gets from ``target`` (client.lookup.PolicyLookup.score)."""
        return self.policy(policy).score(guess, target)

    def check(
        self, policy: str, history: History, guess: str, rule: str = RULE_CONSISTENT
    ) -> GuessCheck:
        """Return whether ``guess`` is allowed (client.lookup.PolicyLookup.check)."""
        return self.policy(policy).check(history, guess, rule)

    def evil_reply(self, policy: str, history: History, guess: str) -> EvilAnswer:
        """Return the Evil replier's reply (client.lookup.PolicyLookup.evil_reply)."""
        return self.policy(policy).evil_reply(history, guess)

    def analyze(self, policy: str, history: History, answer: str = "") -> GameAnalysis:
        """Return the analysis of a game (see builder.analysis.GameAnalyzer.analyze),
        computed through the live gate.

        Raises:
            PolicyNotFoundError: no such policy; and the errors of GameAnalyzer.analyze.
        """
        lookup = self.policy(policy)
        return self.gate.run(lambda: self._analyze(lookup, history, answer))

    def top_honeycombs(
        self,
        word_list: str = DEFAULT_WORD_LIST,
        allow_s: bool = False,
        count: int = DEFAULT_HONEYCOMBS,
    ) -> BeeTable:
        """Return the ``count`` best honeycombs of ``word_list`` (service.bee.BeeAnswers.top)."""
        return self.bee.top(word_list, allow_s, count)

    def score_honeycomb(
        self, letters: str, center: str, word_list: str = DEFAULT_WORD_LIST, allow_s: bool = False
    ) -> HoneycombReport:
        """Return a honeycomb's score, words, pangrams, ranks and hints.

        Raises:
            InvalidHoneycombError: bad letters or centre.
            WordListNotFoundError: no such list in the catalog.
        """
        result = self.bee.score(letters, center, word_list, allow_s)
        from ..client.spelling_bee import HoneycombSummary, hints  # loaded with the bee

        summary = HoneycombSummary(
            result.honeycomb.letters,
            result.honeycomb.center,
            result.score,
            len(result.words),
            len(result.pangrams),
        )
        return HoneycombReport(summary, result.words, result.pangrams, result.ranks, hints(result))

    # -- what the answers above use -------------------------------------------

    @property
    def analyzer(self) -> GameAnalyzer:
        """Return the game analyser (builder.analysis), imported and made on first use."""
        with self._analyzer_lock:
            if self._analyzer is None:
                with BUILDER_IMPORT:
                    from ..builder.analysis import GameAnalyzer

                self._analyzer = GameAnalyzer()
            return self._analyzer

    @cached_property
    def bee(self) -> BeeAnswers:
        """The Spelling Bee answers, made on first use (service.bee loads the builder's
        bee search, numpy, only when it first searches; the module itself is loaded
        here, a named boundary: a Wordle answer never needs it)."""
        from .bee import BeeAnswers

        return BeeAnswers(self.catalog, self.gate)

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
