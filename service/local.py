"""The application core answered in process: :class:`LocalGuesswork`.

It implements client.core's :class:`~guesswork.client.core.Guesswork` over one
catalog: policies through the lookup core with live answers and game
analysis (service.live_lookup), Spelling Bee through service.bee. The command
line's ``--store`` uses it (guesswork.__main__ hands it to
guesswork.client.cli, which cannot import it: client imports neither builder
nor service), and so does the gRPC servicer (service.server), one per loaded
catalog.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from ..client.board_lookup import suggest_boards
from ..client.catalog import Catalog, open_layered, open_store
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
from ..client.spelling_bee import BeeTable, HoneycombSummary, hints
from .bee import BeeAnswers
from .live_gate import UNLIMITED, LiveGate
from .live_lookup import LiveCatalogLookup

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..client.analysis import GameAnalysis
    from ..client.multiboard import BoardsSuggestion
    from ..client.policy_info import PolicyInfo
    from ..client.suggestion import Suggestion


class LocalGuesswork:
    """Every answer of client.core.Guesswork, from one catalog, computed in this process.
    Thread-safe."""

    def __init__(self, catalog: Catalog, gate: LiveGate = UNLIMITED) -> None:
        self.catalog = catalog
        #: Admits live computations (service.live_gate): a server's limit, or none.
        self.gate = gate
        self.lookups = LiveCatalogLookup(catalog, gate)

    @classmethod
    def open(cls, location: str | None) -> LocalGuesswork:
        """Return the answers of the catalog or policy file at ``location`` (None: the
        shipped catalog and the user's over it, a damaged user catalog left out with
        a warning; see client.catalog.open_store and open_layered).

        Raises:
            PolicyFormatError: the store is missing, unreadable or corrupt.
        """
        return cls(open_layered(skip_damaged=True) if location is None else open_store(location))

    @cached_property
    def bee(self) -> BeeAnswers:
        """The Spelling Bee answers, made on first use (service.bee loads the builder's
        bee search, numpy, only when it first searches)."""
        return BeeAnswers(self.catalog, self.gate)

    def policies(self, game: str = "") -> list[PolicyInfo]:
        """Return every policy's summary, sorted by name (``game``: of that game only).
        No policy is read."""
        return [info for info in self.catalog.list() if not game or info.game == game]

    def policy_info(self, name: str) -> PolicyInfo:
        """Return one policy's summary (a ``policies/`` prefix is allowed); none is read.

        Raises:
            PolicyNotFoundError: no such policy.
        """
        return self.lookups.info(name)

    def suggest(
        self,
        policy: str,
        history: History = (),
        alternatives: int = DEFAULT_ALTERNATIVES,
        candidates: int = 0,
    ) -> Suggestion:
        """Return the next guess (see client.lookup.PolicyLookup.suggest)."""
        return self.lookups.policy(policy).suggest(history, alternatives, candidates)

    def suggest_boards(
        self,
        policy: str,
        boards: Sequence[History],
        alternatives: int = DEFAULT_ALTERNATIVES,
    ) -> BoardsSuggestion:
        """Return the next guess of a multi-board position (see
        client.board_lookup.suggest_boards)."""
        return suggest_boards(self.lookups.policy(policy), boards, alternatives)

    def score(self, policy: str, guess: str, target: str) -> GuessScore:
        """Return the reply ``guess`` gets from ``target`` (client.lookup.PolicyLookup.score)."""
        return self.lookups.policy(policy).score(guess, target)

    def check(
        self, policy: str, history: History, guess: str, rule: str = RULE_CONSISTENT
    ) -> GuessCheck:
        """Return whether ``guess`` is allowed (client.lookup.PolicyLookup.check)."""
        return self.lookups.policy(policy).check(history, guess, rule)

    def evil_reply(self, policy: str, history: History, guess: str) -> EvilAnswer:
        """Return the Evil replier's reply (client.lookup.PolicyLookup.evil_reply)."""
        return self.lookups.policy(policy).evil_reply(history, guess)

    def analyze(self, policy: str, history: History, answer: str = "") -> GameAnalysis:
        """Return a game's analysis (service.live_lookup.LiveCatalogLookup.analyze)."""
        return self.lookups.analyze(policy, history, answer)

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
        summary = HoneycombSummary(
            result.honeycomb.letters,
            result.honeycomb.center,
            result.score,
            len(result.words),
            len(result.pangrams),
        )
        return HoneycombReport(summary, result.words, result.pangrams, result.ranks, hints(result))
