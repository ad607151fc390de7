"""The lookup core: every answer about one policy, from its stored data or live.

This is what the service serves and the ``guesswork`` command line answers
with in process; bots may use it directly. It parses a history of (guess,
reply text) pairs into checked turns, walks the stored tree with the probe
(:meth:`Policy.walk`, the one tree walk), and answers a history that stays on
the tree from the policy data alone: guess, remaining count and the ranked
alternatives the builder stored at that node. A history that leaves the tree
(the player guessed another word) is answered by a :class:`LiveSolver`: the
targets consistent with every turn are found by the game's rules here, and
the solver ranks guesses for them with the policy's own strategy (its greedy
step; for a Guess My Word tree, the same kind of tree over the words left).
``guesswork.builder.live`` provides one; without it such histories raise
:class:`~guesswork.client.errors.LiveAnswerUnavailableError`. Guess My Word
policies answer suggestions only (its game is ``suggestions_only``).

Lookups are stateless and thread-safe: callers pass the whole history.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from guesswork.client.catalog import Catalog
from guesswork.client.errors import (
    BadRequestError,
    ContradictoryHistoryError,
    GameOverError,
    HistoryTooLongError,
    LiveAnswerUnavailableError,
    OffTreeError,
    PolicyNotFoundError,
    UnknownWordError,
)
from guesswork.client.games import (
    GuessMyWord,
    Wordle,
    consistency_problem,
    evil_reply,
    nyt_hard_problem,
)
from guesswork.client.probe import SOLVED, Policy
from guesswork.client.suggestion import LIVE, STORED, Suggestion

#: Longest history accepted: longer than any stored game (Jotto's worst is 19).
MAX_TURNS = 64
#: Most alternatives a caller may ask for (and a policy stores per node).
MAX_ALTERNATIVES = 50
DEFAULT_ALTERNATIVES = 5
#: Hard-mode rules for check(): the seeds' (guess a possible secret) and the NYT's.
RULE_CONSISTENT = "consistent"
RULE_NYT = "nyt"


class LiveSolver(Protocol):
    """Ranks guesses for a set of remaining targets, as the policy's strategy would."""

    def rank(self, policy: Policy, remaining: np.ndarray, count: int) -> Sequence[int]:
        """Return up to ``count`` vocabulary indices, best first.

        ``remaining`` holds the indices (in target-list order) of the targets
        still possible; there is at least one.
        """
        ...


@dataclass(frozen=True)
class Turn:
    """One checked turn: the guess (canonical), its vocabulary index and the reply code."""

    word: str
    index: int
    code: int


def check_history_length(history: Sequence[object]) -> None:
    """Raise HistoryTooLongError for a history longer than any game lasts."""
    if len(history) > MAX_TURNS:
        raise HistoryTooLongError(
            f"history has {len(history)} turns; at most {MAX_TURNS} are accepted"
        )


def check_alternatives(count: int) -> None:
    """Raise BadRequestError unless 0 <= ``count`` <= MAX_ALTERNATIVES."""
    if not 0 <= count <= MAX_ALTERNATIVES:
        raise BadRequestError(f"alternatives must be between 0 and {MAX_ALTERNATIVES}")


class PolicyLookup:
    """Answers for one policy. Thread-safe (it holds no mutable state)."""

    def __init__(self, policy: Policy, live: LiveSolver | None = None) -> None:
        self.policy = policy
        self.game = policy.game
        self.live = live
        self._vocabulary_index = {word: i for i, word in enumerate(policy.vocabulary)}
        self._targets = frozenset(policy.targets)

    @property
    def name(self) -> str:
        """Return the policy's name."""
        return self.policy.name

    # -- checking input ---------------------------------------------------

    def word_index(self, text: str, *, targets_only: bool = False) -> tuple[str, int]:
        """Return (canonical word, vocabulary index) of a guess.

        Raises:
            InvalidWordError: not a word of the game's shape.
            UnknownWordError: not in the policy's lists.
        """
        word = self.game.normalise_word(text)
        index = self._vocabulary_index.get(word)
        if index is None or (targets_only and word not in self._targets):
            which = "targets" if targets_only else "guess list"
            if isinstance(self.game, GuessMyWord):  # one list, of lower-case words
                raise UnknownWordError(
                    f"{word!r} is not in the word list {self.policy.data.targets.name!r} "
                    f"of policy {self.name!r}"
                )
            raise UnknownWordError(f"{word} is not in the {which} of policy {self.name!r}")
        return word, index

    def turns(self, history: Sequence[tuple[str, str]]) -> list[Turn]:
        """Return the checked turns of a history of (guess, reply text) pairs.

        Raises:
            HistoryTooLongError, InvalidWordError, UnknownWordError,
            InvalidReplyError (or ImpossibleReplyError), GameOverError.
        """
        check_history_length(history)
        checked = []
        for number, (guess, reply) in enumerate(history, start=1):
            word, index = self.word_index(guess)
            turn = Turn(word, index, self.game.parse_reply(reply, word))
            if turn.code == self.game.win_reply and number < len(history):
                raise GameOverError(
                    f"turn {number} ({turn.word}) already won: the game is over, no turn follows"
                )
            checked.append(turn)
        return checked

    def consistent(self, turns: Sequence[Turn]) -> np.ndarray:
        """Return the indices (ascending) of the targets consistent with every turn.

        Raises:
            ContradictoryHistoryError: naming the first turn no target can follow.
        """
        targets = self.policy.targets
        alive = list(range(len(targets)))
        for number, turn in enumerate(turns, start=1):
            alive = [t for t in alive if self.game.reply(turn.word, targets[t]) == turn.code]
            if not alive:
                reply = self.game.format_reply(turn.code)
                before = "the turns before it" if number > 1 else "the target list"
                raise ContradictoryHistoryError(
                    f"turn {number} ({turn.word} {reply}) contradicts {before}: no target of "
                    f"policy {self.name!r} gives all these replies"
                )
        return np.array(alive, dtype=np.int64)

    # -- the calls ----------------------------------------------------------

    def suggest(
        self, history: Sequence[tuple[str, str]], alternatives: int = DEFAULT_ALTERNATIVES
    ) -> Suggestion:
        """Return the next guess for ``history``, from the stored tree or computed live.

        Raises:
            BadRequestError, HistoryTooLongError, InvalidWordError,
            UnknownWordError, InvalidReplyError, GameOverError,
            ContradictoryHistoryError, LiveAnswerUnavailableError (off the
            tree with no live solver).
        """
        check_alternatives(alternatives)
        turns = self.turns(history)
        try:
            node = self.policy.walk((turn.word, turn.code) for turn in turns).node
        except OffTreeError:
            return self._live_answer(turns, alternatives)
        if node == SOLVED:
            return Suggestion(turns[-1].word, 1, True, (), STORED, len(turns))
        if self.policy.known(node):  # deduced: the target is named at no cost
            return Suggestion(self.policy.guess(node), 1, True, (), STORED, len(turns))
        return Suggestion(
            self.policy.guess(node), self.policy.remaining_count(node), False,
            self.policy.alternatives(node)[:alternatives], STORED, len(turns),
        )  # fmt: skip

    def _live_answer(self, turns: Sequence[Turn], alternatives: int) -> Suggestion:
        remaining = self.consistent(turns)
        if turns and turns[-1].code == self.game.win_reply:
            return Suggestion(turns[-1].word, 1, True, (), LIVE, len(turns))
        if self.game.deduces and len(remaining) == 1:
            known = self.policy.targets[int(remaining[0])]
            return Suggestion(known, 1, True, (), LIVE, len(turns))
        if self.live is None:
            raise LiveAnswerUnavailableError(
                f"the history leaves the stored tree of policy {self.name!r}, and answering it "
                f"live needs guesswork.builder (use guesswork.service.local, or the service)"
            )
        ranked = self.live.rank(self.policy, remaining, alternatives + 1)
        words = [self.policy.vocabulary[i] for i in ranked]
        return Suggestion(
            words[0], len(remaining), False, tuple(words[1 : alternatives + 1]), LIVE, len(turns)
        )

    def score(self, guess: str, target: str) -> tuple[str, int, bool]:
        """Return (reply text, reply code, solved) for ``guess`` against ``target``.

        Raises:
            BadRequestError: the game answers suggestions only.
            InvalidWordError, UnknownWordError.
        """
        self._word_list_call()
        guess_word, _ = self.word_index(guess)
        target_word, _ = self.word_index(target, targets_only=True)
        code = self.game.reply(guess_word, target_word)
        return self.game.format_reply(code), code, code == self.game.win_reply

    def _word_list_call(self) -> None:
        """Raise BadRequestError if the policy's game answers suggestions only."""
        if self.game.suggestions_only:
            raise BadRequestError(f"{self.name} is a {self.game.id} policy: only suggestions apply")

    def _open_position(self, history: Sequence[tuple[str, str]]) -> tuple[list[Turn], np.ndarray]:
        """Return the turns and remaining targets of a game still in progress.

        Raises:
            BadRequestError: the game answers suggestions only.
            GameOverError: the history ends with the winning reply.
            and the errors of :meth:`turns` and :meth:`consistent`.
        """
        self._word_list_call()
        turns = self.turns(history)
        if turns and turns[-1].code == self.game.win_reply:
            raise GameOverError("the game is already won; no guess follows")
        return turns, self.consistent(turns)

    def check(
        self, history: Sequence[tuple[str, str]], guess: str, rule: str = RULE_CONSISTENT
    ) -> tuple[bool, str, int]:
        """Return (legal, reason, remaining) for ``guess`` under a hard-mode ``rule``.

        Raises:
            BadRequestError: the NYT rule asked for a game that is not Wordle-like.
            and the errors of :meth:`turns` and :meth:`consistent`.
        """
        turns, remaining = self._open_position(history)
        word, _ = self.word_index(guess)
        played = [(turn.word, turn.code) for turn in turns]
        if rule == RULE_NYT:
            if not isinstance(self.game, Wordle):
                raise BadRequestError(f"the NYT hard rule applies to Wordle, not {self.game.id}")
            problem = nyt_hard_problem(self.game, played, word)
        else:
            problem = consistency_problem(self.game, played, word)
        return problem is None, problem or "", len(remaining)

    def evil_reply(
        self, history: Sequence[tuple[str, str]], guess: str
    ) -> tuple[str, int, int, bool]:
        """Return the Evil replier's (reply text, code, remaining, solved) to ``guess``.

        Raises:
            GameOverError, and the errors of :meth:`turns` and :meth:`consistent`.
        """
        _, remaining = self._open_position(history)
        word, _ = self.word_index(guess)
        targets = [self.policy.targets[t] for t in remaining]
        code, kept = evil_reply(self.game, word, targets)
        solved = code == self.game.win_reply
        return self.game.format_reply(code), code, kept, solved


class CatalogLookup:
    """Answers for every policy of a catalog (see :class:`PolicyLookup`). Thread-safe."""

    def __init__(self, catalog: Catalog, live: LiveSolver | None = None) -> None:
        self.catalog = catalog
        self._lookups = {policy.name: PolicyLookup(policy, live) for policy in catalog}

    def __iter__(self) -> Iterator[PolicyLookup]:
        return iter(self._lookups[name] for name in sorted(self._lookups))

    def names(self) -> list[str]:
        """Return every policy name, sorted."""
        return sorted(self._lookups)

    def policy(self, name: str) -> PolicyLookup:
        """Return the lookup of policy ``name`` (a ``policies/`` prefix is allowed).

        Raises:
            PolicyNotFoundError: no such policy.
        """
        short = name.removeprefix("policies/")
        lookup = self._lookups.get(short)
        if lookup is None:
            raise PolicyNotFoundError(
                f"no policy {short!r} in the catalog; ListPolicies shows the "
                f"{len(self._lookups)} there are"
            )
        return lookup
