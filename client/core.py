"""The application core: what Guesswork answers, as typed values, and the one interface
every transport adapts.

Each way in answers through an object of the :class:`Guesswork` protocol:

* in process, :class:`guesswork.service.local.LocalGuesswork` (the catalog's
  lookups with the builder's live answers and game analysis, and the
  Spelling Bee engine): the command line's ``--store`` and the embedding API;
* over gRPC, :class:`guesswork.client.remote.RemoteClient`;

and the gRPC servicer (service.server) is an adapter the other way: it
parses each request into the protocol's arguments, asks a LocalGuesswork,
and writes the result as a response. Requests are parsed once, at the edge:
a policy name (a ``policies/`` prefix is allowed), a history of (guess,
reply text) pairs in play order, and plain options; each result is a frozen
dataclass, made where it is computed (:class:`~client.suggestion.Suggestion`,
:class:`~client.analysis.GameAnalysis`, :class:`~client.policy_info.PolicyInfo`,
:class:`~client.spelling_bee.BeeTable`) or here. client.messages maps each to
and from protobuf, once for both ends, and prints a result as JSON through its
message (client.messages.json_text: the proto's JSON mapping, HTTP's and
``--json``'s alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .analysis import GameAnalysis
    from .multiboard import BoardsSuggestion
    from .policy_info import PolicyInfo
    from .spelling_bee import BeeTable, Hints, HoneycombSummary
    from .suggestion import Suggestion

#: A game so far: (guess, reply text) per turn, in play order.
History = Sequence[tuple[str, str]]
#: How many next-best guesses a suggestion ranks unless asked otherwise.
DEFAULT_ALTERNATIVES = 5
#: The most next-best guesses a suggestion ranks (and a policy stores per node).
MAX_ALTERNATIVES = 50
#: Hard-mode rules for :meth:`Guesswork.check`: the seeds' (every guess is a
#: possible secret) and the NYT's (greens stay in place, yellows are used again).
RULE_CONSISTENT = "consistent"
RULE_NYT = "nyt"
#: The word list Spelling Bee calls use unless asked otherwise.
DEFAULT_WORD_LIST = "enable1"
#: How many honeycombs :meth:`Guesswork.top_honeycombs` ranks unless asked otherwise.
DEFAULT_HONEYCOMBS = 10


@dataclass(frozen=True)
class GuessScore:
    """A guess scored against a known target."""

    #: The reply as text (client.replies), and as the game's reply code.
    reply: str
    reply_code: int
    #: The guess is the target.
    solved: bool


@dataclass(frozen=True)
class GuessCheck:
    """Whether a guess is allowed after a history under a hard-mode rule."""

    legal: bool
    #: Why it is not (empty when legal).
    reason: str
    #: Targets still possible before the guess.
    remaining: int


@dataclass(frozen=True)
class EvilAnswer:
    """The Evil replier's answer to a guess: the reply that keeps the most targets."""

    reply: str
    reply_code: int
    #: Targets still possible after the reply.
    remaining: int
    #: The reply is the winning one (one target was left, and it was guessed).
    solved: bool


@dataclass(frozen=True)
class HoneycombReport:
    """A honeycomb's score over a word list: its words, pangrams, rank thresholds and
    the hint tables players use."""

    honeycomb: HoneycombSummary
    #: The words it makes, and those using all seven letters, each sorted.
    words: tuple[str, ...]
    pangrams: tuple[str, ...]
    #: NYT rank name -> points needed, lowest first.
    ranks: dict[str, int]
    hints: Hints


class Guesswork(Protocol):
    """Everything Guesswork answers; every transport implements or adapts this.

    Each method raises the typed errors of client.errors (PolicyNotFoundError,
    InvalidReplyError, ContradictoryHistoryError, ...), the same whichever
    implementation answers.
    """

    def policies(self, game: str = "") -> list[PolicyInfo]:
        """Return every policy's summary, sorted by name (``game``: of that game only)."""
        ...

    def policy_info(self, name: str) -> PolicyInfo:
        """Return one policy's summary."""
        ...

    def suggest(
        self,
        policy: str,
        history: History = (),
        alternatives: int = DEFAULT_ALTERNATIVES,
        candidates: int = 0,
    ) -> Suggestion:
        """Return the next guess after ``history``, listing up to ``candidates`` of the
        secrets still possible."""
        ...

    def suggest_boards(
        self,
        policy: str,
        boards: Sequence[History],
        alternatives: int = DEFAULT_ALTERNATIVES,
    ) -> BoardsSuggestion:
        """Return the next guess of a multi-board game (client.multiboard): one history
        per board, over the policy's lists."""
        ...

    def score(self, policy: str, guess: str, target: str) -> GuessScore:
        """Return the reply ``guess`` gets when the secret is ``target``."""
        ...

    def check(
        self, policy: str, history: History, guess: str, rule: str = RULE_CONSISTENT
    ) -> GuessCheck:
        """Return whether ``guess`` is allowed after ``history`` under a hard-mode ``rule``."""
        ...

    def evil_reply(self, policy: str, history: History, guess: str) -> EvilAnswer:
        """Return the Evil replier's reply to ``guess`` after ``history``."""
        ...

    def analyze(self, policy: str, history: History, answer: str = "") -> GameAnalysis:
        """Return each move's skill and luck, and the totals, of a finished or open game."""
        ...

    def top_honeycombs(
        self,
        word_list: str = DEFAULT_WORD_LIST,
        allow_s: bool = False,
        count: int = DEFAULT_HONEYCOMBS,
    ) -> BeeTable:
        """Return the ``count`` best Spelling Bee honeycombs of a word list, best first."""
        ...

    def score_honeycomb(
        self, letters: str, center: str, word_list: str = DEFAULT_WORD_LIST, allow_s: bool = False
    ) -> HoneycombReport:
        """Return a honeycomb's score, words, pangrams, ranks and hints over a word list."""
        ...
