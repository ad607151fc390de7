"""The in-process backend of the ``guesswork`` command line (``--store``).

The same answers as the service, without a server: policies through the
lookup core with live answers and game analysis (service.engine), Spelling
Bee through service.bee. guesswork.__main__ hands :class:`LocalBackend` to
guesswork.client.cli, which cannot import it (client imports neither builder
nor service).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..client.analysis import GameAnalysis
from ..client.catalog import open_store
from ..client.suggestion import Suggestion
from .engine import Engine

if TYPE_CHECKING:
    from .bee import BeeEngine


class LocalBackend:
    """Answers from a catalog or policy file, computing off-tree answers in process."""

    def __init__(self, path: str | None) -> None:
        """Open ``path`` (a catalog or a policy file; None: the shipped catalog and the user's).

        Raises:
            PolicyFormatError: the store is missing, unreadable or corrupt.
        """
        self._engine = Engine(open_store(path))

    @cached_property
    def _bee(self) -> BeeEngine:
        """The Spelling Bee engine, made on first use: it loads the builder's bee
        code (numpy), which a Wordle answer never needs."""
        from .bee import BeeEngine

        return BeeEngine(self._engine.catalog)

    def suggest(self, policy: str, history: list[tuple[str, str]], alternatives: int) -> Suggestion:
        """Return the next guess (see guesswork.client.lookup.PolicyLookup.suggest)."""
        return self._engine.policy(policy).suggest(history, alternatives)

    def analyze(self, policy: str, history: list[tuple[str, str]], answer: str) -> GameAnalysis:
        """Return a game's analysis (see guesswork.builder.analysis.GameAnalyzer.analyze)."""
        return self._engine.analyze(policy, history, answer)

    def policies(self) -> list[dict[str, Any]]:
        """Return every policy's summary as JSON-ready rows, sorted by name."""
        return [info.to_json() for info in self._engine.catalog.list()]

    def policy_summary(self, policy: str) -> dict[str, Any]:
        """Return one policy's summary row with its ``histogram`` (guesses -> targets).

        Raises:
            PolicyNotFoundError: no such policy.
        """
        stored = self._engine.policy(policy).policy
        histogram = {int(n): int(count) for n, count in stored.stats["histogram"]}
        return {**stored.info.to_json(), "histogram": histogram}

    def bee_top(self, word_list: str, allow_s: bool, count: int) -> list[dict[str, Any]]:
        """Return the ``count`` best honeycombs of ``word_list`` as rows."""
        return [dict(row) for row in self._bee.top(word_list, allow_s, count).top]

    def bee_score(self, letters: str, center: str, word_list: str, allow_s: bool) -> dict[str, Any]:
        """Return a honeycomb's score, words, pangrams, ranks and hints."""
        from ..client.spelling_bee import hints

        result = self._bee.score(letters, center, word_list, allow_s)
        return {
            "letters": result.honeycomb.letters,
            "center": result.honeycomb.center,
            "score": result.score,
            "words": list(result.words),
            "pangrams": list(result.pangrams),
            "ranks": result.ranks,
            "hints": hints(result).to_json(),
        }
