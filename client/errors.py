"""The Guesswork error hierarchy.

Every error a library user can see derives from :class:`GuessworkError`, so a
caller that wants to catch "anything Guesswork refused" needs one ``except``.
Errors caused by bad input also derive from ``ValueError`` (or ``KeyError``
for lookups that miss), so generic code that already catches those keeps
working. The service maps these classes to gRPC status codes in one table.
"""

from __future__ import annotations


class GuessworkError(Exception):
    """Base class of every error raised by Guesswork."""


class InvalidWordError(GuessworkError, ValueError):
    """A word is not valid for a game (wrong length, non-letters, repeats)."""


class InvalidReplyError(GuessworkError, ValueError):
    """A reply text cannot be parsed, or describes an impossible reply."""


class UnknownGameError(GuessworkError, KeyError):
    """No game is registered under the requested id."""

    def __str__(self) -> str:  # KeyError would quote the message.
        return str(self.args[0]) if self.args else ""


class WordListError(GuessworkError, ValueError):
    """A word list is missing, empty, malformed or fails its checksum."""


class PolicyError(GuessworkError):
    """Base class of errors about policies, catalogs and walking a policy."""


class PolicyNotFoundError(PolicyError, KeyError):
    """No policy of that name is in the catalog."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class OffTreeError(PolicyError, KeyError):
    """A history leaves the stored tree (another guess, or a reply it never gets).

    A ``KeyError``, like a miss in a mapping: ``get_next_guess`` returns a
    default instead, and the service computes an answer live.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class GameOverError(PolicyError, ValueError):
    """The history already ends with the winning reply: there is no next guess."""


class PolicyFormatError(PolicyError):
    """A catalog or policy file is corrupt, truncated, crafted or of another version."""
