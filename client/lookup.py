"""The lookup core: every answer about one policy, from its stored data or live.

This is what the service serves and the ``guesswork`` command line answers
with in process; bots may use it directly. A :class:`PolicyLookup` parses a
history of (guess, reply text) pairs into checked turns, walks the stored tree
with the probe (:meth:`Policy.walk`, the one tree walk), and answers a history
that stays on the tree from the policy data alone: guess, remaining count and
the ranked alternatives the builder stored at that node. A history that leaves
the tree (the player guessed another word) is answered by a
:class:`LiveSolver`: the targets consistent with every turn are found by the
game's rules here, and the solver ranks guesses for them with the policy's own
strategy (its greedy step; for a Guess My Word tree, the same kind of tree over
the words left). ``guesswork.builder.live`` provides one; without it such
histories raise :class:`~guesswork.client.errors.LiveAnswerUnavailableError`.
Guess My Word policies answer suggestions only (its game is ``suggestions_only``).

Real games leave the answer list: a history that contradicts every target is
answered live over the policy's *open words* (:attr:`PolicyLookup.open_words`)
as possible secrets, with source ``live-guess-list``: its vocabulary, widened
by the :class:`WiderList` it is handed. Which list that is, and which policy
values an analysis off the answer list, is the catalog's to say: the one rule
of off-list answers is in :mod:`guesswork.client.catalog_lookup`, whose
:class:`~guesswork.client.catalog_lookup.CatalogLookup` makes a catalog's
lookups. The request checks every call shares (history length, the
alternatives asked, errors tagged with the turn and field at fault) are here
too; client.board_lookup and builder.analysis use them.

Lookups are stateless and thread-safe: callers pass the whole history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from .core import (
    DEFAULT_ALTERNATIVES,
    MAX_ALTERNATIVES,
    RULE_CONSISTENT,
    RULE_NYT,
    EvilAnswer,
    GuessCheck,
    GuessScore,
    History,
)
from .errors import (
    BadRequestError,
    ContradictoryHistoryError,
    GameOverError,
    GuessworkError,
    HistoryTooLongError,
    LiveAnswerUnavailableError,
    OffTreeError,
    UnknownWordError,
)
from .letters import accent_index, resolve
from .live_solver import LiveSolver as LiveSolver  # re-exported
from .probe import SOLVED, Policy
from .progress import tell
from .remaining import Ints, candidate_list, check_candidates, solved
from .rules import consistency_problem, evil_reply, nyt_hard_problem
from .strategy import ranking_metric
from .suggestion import LIVE, LIVE_GUESS_LIST, STORED, Suggestion
from .text import shown, with_article

if TYPE_CHECKING:
    import numpy as np


#: Longest history accepted: longer than any stored game (Jotto's worst is 19).
MAX_TURNS = 64


@dataclass(frozen=True)
class WiderList:
    """A guess list that holds a policy's whole guess list and more: words its game
    also accepts, so possible secrets once no target fits (see
    :meth:`~guesswork.client.catalog_lookup.CatalogLookup.wider_list`)."""

    name: str
    words: tuple[str, ...]


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
            f"history has {len(history)} turns; at most {MAX_TURNS} are accepted",
            metadata={"field": "history", "limit": MAX_TURNS, "value": len(history)},
        )


def check_alternatives(count: int) -> None:
    """Raise BadRequestError unless 0 <= ``count`` <= MAX_ALTERNATIVES."""
    if not 0 <= count <= MAX_ALTERNATIVES:
        raise BadRequestError(
            f"alternatives must be between 0 and {MAX_ALTERNATIVES}, not {count}",
            metadata={"field": "max_alternatives", "limit": MAX_ALTERNATIVES, "value": count},
        )


@contextmanager
def at_turn(number: int, part: str) -> Iterator[None]:
    """Tag an error raised inside with the turn it is about (1-based ``number``) and
    its field, ``history[N].guess`` or ``history[N].reply`` (0-based, as the request
    indexes it)."""
    try:
        yield
    except GuessworkError as error:
        error.add_metadata(turn=number, field=f"history[{number - 1}].{part}")
        raise


@contextmanager
def at_field(name: str) -> Iterator[None]:
    """Tag an error raised inside with the request field it is about."""
    try:
        yield
    except GuessworkError as error:
        error.add_metadata(field=name)
        raise


class PolicyLookup:
    """Answers for one policy. Thread-safe (its only state is computed once, on first
    use, and never changes)."""

    def __init__(
        self,
        policy: Policy,
        live: LiveSolver | None = None,
        wider: WiderList | Callable[[], WiderList | None] | None = None,
    ) -> None:
        """``wider``: the policy's wider list
        (:meth:`~guesswork.client.catalog_lookup.CatalogLookup.wider_list`), or what
        finds it when first needed."""
        self.policy = policy
        self.game = policy.game
        self.live = live
        self._wider = wider
        self._vocabulary_index = {word: i for i, word in enumerate(policy.vocabulary)}
        self._targets = frozenset(policy.targets)

    @cached_property
    def wider(self) -> WiderList | None:
        """Return the policy's wider list (see
        :meth:`~guesswork.client.catalog_lookup.CatalogLookup.wider_list`), if any."""
        return self._wider() if callable(self._wider) else self._wider

    @cached_property
    def open_words(self) -> tuple[str, ...]:
        """Return the possible secrets once no target fits a history: the vocabulary,
        then the wider list's words it lacks (in that list's order)."""
        vocabulary = tuple(self.policy.vocabulary)
        if self.wider is None:
            return vocabulary
        return vocabulary + tuple(w for w in self.wider.words if w not in self._vocabulary_index)

    @cached_property
    def _open_index(self) -> dict[str, int]:
        """Return the index in :attr:`open_words` of each word beyond the vocabulary."""
        start = len(self.policy.vocabulary)
        return {word: start + i for i, word in enumerate(self.open_words[start:])}

    @cached_property
    def _accent_index(self) -> dict[str, list[str]]:
        """Return the open words by their accent-free key (client.letters.resolve)."""
        if not self.game.any_script:
            return {}  # A-Z or a-z words: no accents to drop
        return accent_index(self.open_words)

    @property
    def name(self) -> str:
        """Return the policy's name."""
        return self.policy.name

    # -- checking input ---------------------------------------------------

    def word_index(self, text: str, *, targets_only: bool = False) -> tuple[str, int]:
        """Return (canonical word, index in :attr:`open_words`) of a guess.

        A guess may be any open word (the vocabulary, or a word of the wider
        list); with ``targets_only``, only a target.

        Raises:
            InvalidWordError: not a word of the game's shape.
            UnknownWordError: not in the policy's lists.
        """
        word = self.game.normalise_word(text)
        if (
            not word.isascii()  # dropping accents from A-Z finds no other word
            and word not in self._vocabulary_index
            and word not in self._open_index
        ):
            # A list with its accents folded (client.letters) lists ARBOL for
            # ÁRBOL typed: the word typed with the fewest accents dropped.
            word = resolve(word, self._accent_index) or word
        index = self._vocabulary_index.get(word)
        if index is None and not targets_only:
            index = self._open_index.get(word)  # allowed by the game: answered live
        if index is None or (targets_only and word not in self._targets):
            which = "targets" if targets_only else "guess list"
            facts = {"word": word, "policy": self.name}
            if self.game.one_word_list:  # one list, of lower-case words
                raise UnknownWordError(
                    f"{shown(word)} is not in the word list {self.policy.data.targets.name!r} "
                    f"of policy {self.name!r}",
                    metadata=facts,
                )
            also = f" nor in {self.wider.name}" if self.wider and not targets_only else ""
            raise UnknownWordError(
                f"{word} is not in the {which} of policy {self.name!r}{also}", metadata=facts
            )
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
            with at_turn(number, "guess"):
                word, index = self.word_index(guess)
            with at_turn(number, "reply"):
                turn = Turn(word, index, self.game.parse_reply(reply, word))
            if turn.code == self.game.win_reply and number < len(history):
                raise GameOverError(
                    f"turn {number} ({turn.word}) already won: the game is over, no turn follows",
                    metadata={"turn": number, "field": f"history[{number}]"},
                )
            checked.append(turn)
        return checked

    def consistent(self, turns: Sequence[Turn]) -> np.ndarray:
        """Return the indices (ascending) of the targets consistent with every turn.

        Raises:
            ContradictoryHistoryError: naming the first turn no target can follow.
        """
        import numpy as np  # off the stored tree only: a stored answer needs no numpy

        alive = np.arange(len(self.policy.targets), dtype=np.int64)
        for number, turn in enumerate(turns, start=1):
            codes = self.game.reply_codes(turn.word, tuple(self.policy.targets))
            alive = alive[codes[alive] == turn.code]
            if not len(alive):
                reply = self.game.format_reply(turn.code)
                before = "the turns before it" if number > 1 else "the target list"
                raise ContradictoryHistoryError(
                    f"turn {number} ({turn.word} {reply}) contradicts {before}: no target of "
                    f"policy {self.name!r} gives all these replies",
                    metadata={"turn": number, "policy": self.name},
                )
        return alive

    def possible_words(self, turns: Sequence[Turn]) -> np.ndarray:
        """Return the indices (ascending) into :attr:`open_words` of the words
        consistent with every turn: the possible secrets once no target fits.

        Raises:
            ContradictoryHistoryError: naming the first turn no open word can follow.
        """
        import numpy as np  # off the stored tree only, as in consistent()

        words = tuple(self.open_words)
        alive = np.arange(len(words), dtype=np.int64)
        for number, turn in enumerate(turns, start=1):
            alive = alive[self.game.reply_codes(turn.word, words)[alive] == turn.code]
            if not len(alive):
                reply = self.game.format_reply(turn.code)
                before = "the turns before it" if number > 1 else "every word"
                lists = f"its guess list and {self.wider.name}" if self.wider else "its guess list"
                raise ContradictoryHistoryError(
                    f"turn {number} ({turn.word} {reply}) contradicts {before}: no target of "
                    f"policy {self.name!r}, and no word of {lists}, gives all these replies",
                    metadata={"turn": number, "policy": self.name},
                )
        return alive

    def _possible(self, turns: Sequence[Turn]) -> tuple[str, tuple[str, ...], np.ndarray]:
        """Return (source, words, indices into words) of the secrets still possible:
        the targets if any fits every turn, else the open words that do.

        Raises:
            ContradictoryHistoryError: no target, and no open word, fits.
        """
        try:
            return LIVE, self.policy.targets, self.consistent(turns)
        except ContradictoryHistoryError:
            if len(self.open_words) == len(self.policy.targets):  # no word beyond the targets
                raise
        return LIVE_GUESS_LIST, self.open_words, self.possible_words(turns)

    # -- the calls ----------------------------------------------------------

    def suggest(
        self,
        history: Sequence[tuple[str, str]],
        alternatives: int = DEFAULT_ALTERNATIVES,
        candidates: int = 0,
    ) -> Suggestion:
        """Return the next guess for ``history``, from the stored tree or computed live,
        listing up to ``candidates`` of the secrets still possible (client.remaining).

        Raises:
            BadRequestError, HistoryTooLongError, InvalidWordError,
            UnknownWordError, InvalidReplyError, GameOverError,
            ContradictoryHistoryError (no target and no open word fits),
            LiveAnswerUnavailableError (off the tree with no live solver).
        """
        check_alternatives(alternatives)
        check_candidates(candidates)
        turns = self.turns(history)
        try:
            node = self.policy.walk((turn.word, turn.code) for turn in turns).node
        except OffTreeError:
            return self._live_answer(turns, alternatives, candidates)
        # The tree's worst case and mean from here, the turns played counted.
        outlook = self.policy.outlook(node, len(turns))
        if node == SOLVED or self.policy.known(node):  # known: named at no cost
            word = turns[-1].word if node == SOLVED else self.policy.guess(node)
            return solved(word, STORED, len(turns), candidates, self._weighted(STORED), *outlook)
        listed = self._candidates(STORED, self.policy.remaining_indices(node), candidates)
        return Suggestion(
            self.policy.guess(node),
            self.policy.remaining_count(node),
            False,
            self.policy.alternatives(node)[:alternatives],
            STORED,
            len(turns),
            values := self.policy.alternative_values(node)[:alternatives],
            self._ranking_metric(alternatives) if values else "",
            *listed,
            *outlook,
        )

    def _candidates(
        self, source: str, indices: Ints, count: int
    ) -> tuple[tuple[str, ...], tuple[float, ...]]:
        """Return up to ``count`` of the secrets at ``indices`` with their probabilities
        (client.remaining.candidate_list): indices of the targets, weighted as the
        policy weighs them, or (LIVE_GUESS_LIST) of the open words, unweighted."""
        words = self.open_words if source == LIVE_GUESS_LIST else self.policy.targets
        weights = self.policy.data.weights if self._weighted(source) else None
        return candidate_list(words, indices, weights, count)

    def _weighted(self, source: str) -> bool:
        """Return whether the secrets possible by ``source`` are weighted (the targets
        of a weighted policy; the open words never are)."""
        return source != LIVE_GUESS_LIST and self.policy.data.weights is not None

    def _ranking_metric(self, alternatives: int) -> str:
        """Return the metric of the alternatives' values ("" when none are asked for;
        callers also give "" where there are no values)."""
        return ranking_metric(self.policy.data.strategy) if alternatives else ""

    def _live_answer(self, turns: Sequence[Turn], alternatives: int, candidates: int) -> Suggestion:
        source, words, remaining = self._possible(turns)
        if turns and turns[-1].code == self.game.win_reply:
            return solved(turns[-1].word, source, len(turns), candidates, self._weighted(source))
        if self.game.deduces and len(remaining) == 1:
            return solved(
                words[int(remaining[0])], source, len(turns), candidates, self._weighted(source)
            )
        if self.live is None:
            raise LiveAnswerUnavailableError(
                f"the history leaves the stored tree of policy {self.name!r}, and answering it "
                f"live needs guesswork.builder (use guesswork.service.local, or the service)"
            )
        played = [(turn.word, turn.code) for turn in turns]  # NYT hard mode's rule needs them
        # Seconds on a long list or an Absurdle line: said first, on a command line.
        secrets = "possible answers" if source == LIVE else "possible words of the guess list"
        tell(f"computing the next guess live over {len(remaining):,} {secrets}")
        if source == LIVE:
            ranked = self.live.rank(self.policy, remaining, alternatives + 1, played)
            chosen = [self.policy.vocabulary[i] for i in ranked.indices]
        else:
            ranked = self.live.rank_words(
                self.policy, self.open_words, remaining, alternatives + 1, played
            )
            chosen = [self.open_words[i] for i in ranked.indices]
        return Suggestion(
            chosen[0],
            len(remaining),
            False,
            tuple(chosen[1 : alternatives + 1]),
            source,
            len(turns),
            tuple(ranked.values[1 : alternatives + 1]),
            self._ranking_metric(alternatives) if ranked.values else "",
            *self._candidates(source, remaining, candidates),
        )

    def score(self, guess: str, target: str) -> GuessScore:
        """Return the reply ``guess`` gets when the secret is ``target``.

        Raises:
            BadRequestError: the game answers suggestions only.
            InvalidWordError, UnknownWordError.
        """
        self._word_list_call()
        with at_field("guess"):
            guess_word, _ = self.word_index(guess)
        with at_field("target"):
            target_word, _ = self.word_index(target, targets_only=True)
        code = self.game.reply(guess_word, target_word)
        return GuessScore(self.game.format_reply(code), code, code == self.game.win_reply)

    def _word_list_call(self) -> None:
        """Raise BadRequestError if the policy's game answers suggestions only."""
        if self.game.suggestions_only:
            raise BadRequestError(
                f"{self.name} is {with_article(self.game.id)} policy: only suggestions apply",
                metadata={"field": "policy", "policy": self.name},
            )

    def _open_position(
        self, history: Sequence[tuple[str, str]]
    ) -> tuple[list[Turn], tuple[str, ...], np.ndarray]:
        """Return the turns and the possible secrets (words, indices into them) of a
        game still in progress: the targets that fit, else the open words that do,
        as :meth:`suggest` finds them, so the same history is the same fault in
        every call.

        Raises:
            BadRequestError: the game answers suggestions only.
            ContradictoryHistoryError: no target and no open word fits (checked
                before the game's end, as :meth:`suggest` does).
            GameOverError: the history ends with the winning reply.
            and the errors of :meth:`turns`.
        """
        self._word_list_call()
        turns = self.turns(history)
        _, words, remaining = self._possible(turns)
        if turns and turns[-1].code == self.game.win_reply:
            raise GameOverError(
                "the game is already won; no guess follows",
                metadata={"turn": len(turns), "field": f"history[{len(turns) - 1}].reply"},
            )
        return turns, words, remaining

    def check(self, history: History, guess: str, rule: str = RULE_CONSISTENT) -> GuessCheck:
        """Return whether ``guess`` is allowed after ``history`` under a hard-mode ``rule``
        (client.core's RULE_CONSISTENT or RULE_NYT), and the targets possible before it.

        Raises:
            BadRequestError: the NYT rule asked for a game that is not Wordle-like.
            and the errors of :meth:`turns` and :meth:`consistent`.
        """
        turns, _, remaining = self._open_position(history)
        with at_field("guess"):
            word, _ = self.word_index(guess)
        played = [(turn.word, turn.code) for turn in turns]
        if rule not in (RULE_CONSISTENT, RULE_NYT):
            raise BadRequestError(
                f"rule must be {RULE_CONSISTENT!r} or {RULE_NYT!r}", metadata={"field": "rule"}
            )
        if rule == RULE_NYT:
            if not self.game.coloured_replies:
                raise BadRequestError(
                    f"the NYT hard rule applies to Wordle, not {self.game.id}",
                    metadata={"field": "rule", "policy": self.name},
                )
            problem = nyt_hard_problem(self.game, played, word)
        else:
            problem = consistency_problem(self.game, played, word)
        return GuessCheck(problem is None, problem or "", len(remaining))

    def evil_reply(self, history: History, guess: str) -> EvilAnswer:
        """Return the Evil replier's reply to ``guess``: the one that keeps the most targets.

        Raises:
            GameOverError, and the errors of :meth:`turns` and :meth:`consistent`.
        """
        _, words, remaining = self._open_position(history)
        with at_field("guess"):
            word, _ = self.word_index(guess)
        targets = [words[t] for t in remaining]
        code, kept = evil_reply(self.game, word, targets)
        return EvilAnswer(self.game.format_reply(code), code, kept, code == self.game.win_reply)
