"""The answer to "what should I guess next?", shared by the service, the remote
client and the command line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STORED = "stored"
LIVE = "live"


@dataclass(frozen=True)
class Suggestion:
    """A suggested next guess.

    Attributes:
        guess: the word to guess next (upper case); the solution once solved.
        remaining: targets still possible (1 once solved).
        solved: the history's last reply was the winning one.
        alternatives: next-best guesses, best first, for when a game refuses
            the suggestion.
        source: ``"stored"`` (read from the tree) or ``"live"`` (computed,
            because the history left the tree).
        turn: number of turns in the history.
    """

    guess: str
    remaining: int
    solved: bool
    alternatives: tuple[str, ...]
    source: str
    turn: int

    def to_json(self) -> dict[str, Any]:
        """Return the suggestion as the CLI's JSON object."""
        return {
            "guess": self.guess,
            "remaining": self.remaining,
            "solved": self.solved,
            "alternatives": list(self.alternatives),
            "source": self.source,
            "turn": self.turn,
        }
