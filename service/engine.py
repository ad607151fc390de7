"""The lookup engine behind the service: stored-tree walks and live answers.

It knows nothing about gRPC: it takes histories of (guess, reply text) pairs,
checks them, and raises typed errors from client.errors; service.server maps
those to status codes. A history that stays on the stored tree is answered by
walking it (one dictionary lookup per turn). A history that leaves the tree
(the player guessed another word) is answered live: the targets consistent
with every turn are found from the reply matrix, and the policy's own greedy
strategy (metric, mode, window, arithmetic) picks the guess with the builder's
compiled metric kernel, so a live answer is the guess the builder would have
stored had the tree gone that way. Live answers and each node's ranked
alternatives are cached.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from builder.guess_my_word import build_tree
from builder.matrices import reply_matrix
from builder.partitions import ARITHMETIC, METRIC_RANDOM, METRICS, metric_values
from builder.weighted_lists import WeightedList
from builder.wordlists import WordList
from client.catalog import Catalog
from client.errors import (
    ContradictoryHistoryError,
    GameOverError,
    GuessworkError,
    HistoryTooLongError,
    ImpossibleReplyError,
    InvalidReplyError,
    InvalidWordError,
    OffTreeError,
    PolicyNotFoundError,
    UnknownWordError,
)
from client.games import GREEN, MISS, Wordle, code_to_colours
from client.guess_my_word import REPLIES, StoredTree, subtree_words, walk
from client.guess_my_word import reply as guess_my_word_reply
from client.probe import SOLVED, Policy
from client.suggestion import LIVE, STORED, Suggestion

#: Longest history accepted: longer than any stored game (Jotto's worst is 19).
MAX_TURNS = 64
#: Most alternatives a caller may ask for.
MAX_ALTERNATIVES = 50
DEFAULT_ALTERNATIVES = 5
_LIVE_CACHE_SIZE = 10_000
_TURN_CACHE_SIZE = 100_000
_ORDINALS = ("1st", "2nd", "3rd", *(f"{n}th" for n in range(4, 16)))


class BadRequestError(GuessworkError, ValueError):
    """A request field is out of range (e.g. a negative number of alternatives)."""


def _check_length(history: Sequence[tuple[str, str]]) -> None:
    """Raise HistoryTooLongError for a history longer than any game lasts."""
    if len(history) > MAX_TURNS:
        raise HistoryTooLongError(
            f"history has {len(history)} turns; at most {MAX_TURNS} are accepted"
        )


@dataclass(frozen=True)
class Turn:
    """One checked turn: the guess's index in the vocabulary and the reply code."""

    word: str
    index: int
    code: int


class PolicyEngine:
    """Answers for one policy. Thread-safe."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.game = policy.game
        self._vocabulary_index = {word: i for i, word in enumerate(policy.vocabulary)}
        self._target_index = {word: i for i, word in enumerate(policy.targets)}
        self._target_to_vocabulary = np.array(
            [self._vocabulary_index[word] for word in policy.targets], dtype=np.int64
        )
        strategy = policy.data.strategy
        self._metric = METRICS[str(strategy["metric"])]
        self._arithmetic = ARITHMETIC[str(strategy["arithmetic"])]
        window = strategy.get("window")
        self._window = (int(window[0]), window[1]) if window else None
        self._matrix: np.ndarray | None = None
        self._lock = threading.Lock()
        self._alternatives: dict[int, tuple[str, ...]] = {}
        # Parsing reply text dominates a stored lookup, and players repeat turns.
        self._turn_cache: dict[tuple[str, str], Turn] = {}
        self._live: OrderedDict[tuple[tuple[int, int], ...], Suggestion] = OrderedDict()

    # -- checking input ---------------------------------------------------

    def word_index(self, text: str, *, targets_only: bool = False) -> tuple[str, int]:
        """Return (canonical word, vocabulary index) of a guess.

        Raises:
            InvalidWordError: not a word of the game's shape.
            UnknownWordError: not in the policy's lists.
        """
        word = self.game.normalise_word(text)
        index = self._vocabulary_index.get(word)
        if index is None or (targets_only and word not in self._target_index):
            which = "targets" if targets_only else "guess list"
            raise UnknownWordError(f"{word} is not in the {which} of policy {self.policy.name!r}")
        return word, index

    def turns(self, history: Sequence[tuple[str, str]]) -> list[Turn]:
        """Return the checked turns of a history of (guess, reply text) pairs.

        Raises:
            HistoryTooLongError, InvalidWordError, UnknownWordError,
            InvalidReplyError (or ImpossibleReplyError), GameOverError.
        """
        _check_length(history)
        checked = []
        for number, (guess, reply) in enumerate(history, start=1):
            turn = self._turn_cache.get((guess, reply))
            if turn is None:
                word, index = self.word_index(guess)
                turn = Turn(word, index, self.game.parse_reply(reply, word))
                if len(self._turn_cache) >= _TURN_CACHE_SIZE:
                    self._turn_cache.clear()  # crude but bounded; parsing is cheap to redo
                self._turn_cache[(guess, reply)] = turn
            if turn.code == self.game.win_reply and number < len(history):
                raise GameOverError(f"turn {number} ({turn.word}) already won; the history goes on")
            checked.append(turn)
        return checked

    # -- the reply matrix and live ranking --------------------------------

    def matrix(self) -> np.ndarray:
        """Return the (vocabulary x targets) reply matrix, computed on first use."""
        if self._matrix is None:
            with self._lock:
                if self._matrix is None:
                    vocabulary = WordList.from_words("vocabulary", self.policy.vocabulary)
                    targets = WordList.from_words(
                        self.policy.data.targets.name, self.policy.targets
                    )
                    self._matrix = reply_matrix(self.game, vocabulary, targets)
        return self._matrix

    def consistent(self, turns: Sequence[Turn]) -> np.ndarray:
        """Return the indices of the targets consistent with every turn.

        Raises:
            ContradictoryHistoryError: naming the first turn no target can follow.
        """
        matrix = self.matrix()
        alive = np.ones(len(self.policy.targets), dtype=bool)
        for number, turn in enumerate(turns, start=1):
            alive &= matrix[turn.index] == turn.code
            if not alive.any():
                reply = self.game.format_reply(turn.code)
                before = "the turns before it" if number > 1 else "the target list"
                raise ContradictoryHistoryError(
                    f"turn {number} ({turn.word} {reply}) contradicts {before}: no target of "
                    f"policy {self.policy.name!r} gives all these replies"
                )
        return np.flatnonzero(alive)

    def ranked(self, remaining: np.ndarray, count: int) -> list[int]:
        """Return the best ``count`` guesses (vocabulary indices) for ``remaining`` targets.

        The same choice as the builder's greedy step: candidates are the
        remaining targets (hard mode, or outside the window) or the whole
        guess list, ranked by the policy's metric, ties to the earlier word.
        """
        size = len(remaining)
        consistent = self._target_to_vocabulary[remaining]
        if size == 1 or self._metric == METRIC_RANDOM:
            # A live random guesser: the remaining targets in list order.
            return [int(i) for i in consistent[:count]]
        window = self._window
        everything = (
            window is not None and window[0] <= size and (window[1] is None or size <= window[1])
        )
        candidates = (
            np.arange(self.policy.data.guesses.count, dtype=np.int64) if everything else consistent
        )
        values = metric_values(
            self.matrix(), candidates, remaining.astype(np.int64), self._metric,
            self._arithmetic, self.game.reply_space,
        )  # fmt: skip
        best = np.argsort(values, kind="stable")[:count]
        return [int(i) for i in candidates[best]]

    # -- the calls ----------------------------------------------------------

    def suggest(self, history: Sequence[tuple[str, str]], alternatives: int) -> Suggestion:
        """Return the next guess for ``history``, from the tree or computed live.

        Raises:
            BadRequestError, HistoryTooLongError, InvalidWordError,
            UnknownWordError, InvalidReplyError, GameOverError,
            ContradictoryHistoryError.
        """
        if not 0 <= alternatives <= MAX_ALTERNATIVES:
            raise BadRequestError(f"alternatives must be between 0 and {MAX_ALTERNATIVES}")
        turns = self.turns(history)
        node = self._walk(turns)
        if node == SOLVED:
            return Suggestion(turns[-1].word, 1, True, (), STORED, len(turns))
        if node is not None:
            guess = self.policy.guess(node)
            return Suggestion(
                guess, self.policy.remaining_count(node), False,
                self._node_alternatives(node)[:alternatives], STORED, len(turns),
            )  # fmt: skip
        return self._live_answer(turns, alternatives)

    def _walk(self, turns: Sequence[Turn]) -> int | None:
        """Return the node the turns reach in the stored tree, or None if they leave it."""
        policy, node = self.policy, self.policy.root
        for turn in turns:
            if node == SOLVED or policy.guess(node) != turn.word:
                return None
            try:
                node = policy.step(node, turn.code)
            except OffTreeError:
                return None
        return node

    def _node_alternatives(self, node: int) -> tuple[str, ...]:
        cached = self._alternatives.get(node)
        if cached is None:
            arrays = self.policy.data.arrays
            first, size = int(arrays["node_first"][node]), int(arrays["node_size"][node])
            remaining = np.sort(arrays["target_order"][first : first + size])
            guess = self.policy.guess(node)
            ranked = self.ranked(remaining, MAX_ALTERNATIVES + 1)
            words = [self.policy.vocabulary[i] for i in ranked]
            cached = tuple(word for word in words if word != guess)[:MAX_ALTERNATIVES]
            self._alternatives[node] = cached
        return cached

    def _live_answer(self, turns: Sequence[Turn], alternatives: int) -> Suggestion:
        key = tuple((turn.index, turn.code) for turn in turns)
        with self._lock:
            cached = self._live.get(key)
            if cached is not None:
                self._live.move_to_end(key)
        if cached is None:
            remaining = self.consistent(turns)
            if turns and turns[-1].code == self.game.win_reply:
                cached = Suggestion(turns[-1].word, 1, True, (), LIVE, len(turns))
            else:
                words = [
                    self.policy.vocabulary[i] for i in self.ranked(remaining, MAX_ALTERNATIVES + 1)
                ]
                cached = Suggestion(
                    words[0], len(remaining), False, tuple(words[1:]), LIVE, len(turns)
                )
            with self._lock:
                self._live[key] = cached
                if len(self._live) > _LIVE_CACHE_SIZE:
                    self._live.popitem(last=False)
        if len(cached.alternatives) > alternatives:
            cached = Suggestion(
                cached.guess, cached.remaining, cached.solved,
                cached.alternatives[:alternatives], cached.source, cached.turn,
            )  # fmt: skip
        return cached

    def score(self, guess: str, target: str) -> tuple[str, int, bool]:
        """Return (reply text, reply code, solved) for ``guess`` against ``target``.

        Raises:
            InvalidWordError, UnknownWordError.
        """
        guess_word, _ = self.word_index(guess)
        target_word, _ = self.word_index(target, targets_only=True)
        code = self.game.reply(guess_word, target_word)
        return self.game.format_reply(code), code, code == self.game.win_reply

    def check(
        self, history: Sequence[tuple[str, str]], guess: str, nyt: bool
    ) -> tuple[bool, str, int]:
        """Return (legal, reason, remaining) for ``guess`` under a hard-mode rule.

        Raises:
            BadRequestError: the NYT rule asked for a game that is not Wordle-like.
            and the errors of :meth:`turns` and :meth:`consistent`.
        """
        turns = self.turns(history)
        if turns and turns[-1].code == self.game.win_reply:
            raise GameOverError("the game is already won; no guess is needed")
        remaining = self.consistent(turns)
        word, _ = self.word_index(guess)
        if nyt:
            if not isinstance(self.game, Wordle):
                raise BadRequestError(f"the NYT hard rule applies to Wordle, not {self.game.id}")
            return (*_nyt_problem(self.game, turns, word), len(remaining))
        for number, turn in enumerate(turns, start=1):
            got = self.game.reply(turn.word, word)
            if got != turn.code:
                reason = (
                    f"{word} is not consistent with turn {number}: {turn.word} would get "
                    f"{self.game.format_reply(got)}, not {self.game.format_reply(turn.code)}"
                )
                return False, reason, len(remaining)
        return True, "", len(remaining)

    def evil_reply(
        self, history: Sequence[tuple[str, str]], guess: str
    ) -> tuple[str, int, int, bool]:
        """Return the Evil replier's (reply text, code, remaining, solved) to ``guess``.

        The seed's greedy adversary: the reply whose branch keeps the most
        targets (the winning reply counts as none), ties to the branch whose
        first target comes first.
        """
        turns = self.turns(history)
        if turns and turns[-1].code == self.game.win_reply:
            raise GameOverError("the game is already won")
        remaining = self.consistent(turns)
        _, index = self.word_index(guess)
        codes = self.matrix()[index, remaining]
        values, first, counts = np.unique(codes, return_index=True, return_counts=True)
        counts = np.where(values == self.game.win_reply, 0, counts)
        best = max(range(len(values)), key=lambda i: (counts[i], -first[i]))
        code = int(values[best])
        solved = code == self.game.win_reply
        return self.game.format_reply(code), code, 1 if solved else int(counts[best]), solved


def _nyt_problem(game: Wordle, turns: Sequence[Turn], word: str) -> tuple[bool, str]:
    """Return (legal, reason) under the NYT rule: greens stay, revealed letters reused."""
    for turn in turns:
        colours = code_to_colours(turn.code, game.length)
        for position, colour in enumerate(colours):
            if colour == GREEN and word[position] != turn.word[position]:
                return False, f"{_ORDINALS[position]} letter must be {turn.word[position]}"
        for letter in sorted({turn.word[i] for i, c in enumerate(colours) if c != MISS}):
            needed = sum(1 for i, c in enumerate(colours) if c != MISS and turn.word[i] == letter)
            if word.count(letter) < needed:
                return False, f"guess must contain {letter}" + (
                    f" {needed} times" if needed > 1 else ""
                )
    return True, ""


class Engine:
    """Answers for every policy and Guess My Word tree of a catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._engines: dict[str, PolicyEngine | WordTreeEngine] = {
            policy.name: PolicyEngine(policy) for policy in catalog
        }
        for name, stored in catalog.word_trees.items():
            self._engines[name] = WordTreeEngine(stored)

    def names(self) -> list[str]:
        """Return every policy and tree name, sorted."""
        return sorted(self._engines)

    def policy(self, name: str) -> PolicyEngine | WordTreeEngine:
        """Return the engine of the policy ``name`` (``policies/`` prefix allowed).

        Raises:
            PolicyNotFoundError: no such policy.
        """
        short = name.removeprefix("policies/")
        engine = self._engines.get(short)
        if engine is None:
            raise PolicyNotFoundError(
                f"no policy {short!r} in the catalog; ListPolicies shows the {len(self._engines)} "
                f"there are"
            )
        return engine


class WordTreeEngine:
    """Answers for a stored Guess My Word tree (replies before/after/correct). Thread-safe.

    A history that follows the tree is answered from it; one that leaves it (the
    player guessed another word) is answered live: the words consistent with
    every reply, and the first guess of the same strategy's tree over them.
    """

    def __init__(self, stored: StoredTree) -> None:
        self.stored = stored
        self.name = stored.name
        self._sizes = subtree_words(stored.tree)
        self._known = frozenset(stored.tree.words)
        self._live: dict[tuple[tuple[str, str], ...], Suggestion] = {}

    def _turns(self, history: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
        turns: list[tuple[str, str]] = []
        _check_length(history)
        for number, (guess, reply_text) in enumerate(history, start=1):
            word = guess.strip().lower()
            if not word.isascii() or not word.isalpha():
                raise InvalidWordError(f"turn {number}: {guess!r} is not a word of letters a-z")
            if word not in self._known:
                raise UnknownWordError(
                    f"turn {number}: {word!r} is not in the word list {self.stored.list_name!r}"
                )
            answer = reply_text.strip().lower()
            if answer not in REPLIES:
                raise InvalidReplyError(
                    f"turn {number}: reply {reply_text!r} is not one of {', '.join(REPLIES)}"
                )
            turns.append((word, answer))
        return turns

    def suggest(self, history: Sequence[tuple[str, str]], alternatives: int) -> Suggestion:
        """Return the next guess after ``history`` (alternatives are not ranked here).

        Raises:
            BadRequestError, HistoryTooLongError, InvalidWordError,
            InvalidReplyError, ImpossibleReplyError, GameOverError,
            ContradictoryHistoryError.
        """
        if not 0 <= alternatives <= MAX_ALTERNATIVES:
            raise BadRequestError(f"alternatives must be between 0 and {MAX_ALTERNATIVES}")
        turns = self._turns(history)
        tree = self.stored.tree
        try:
            node, solved = walk(tree, turns, self.stored.variant)
        except OffTreeError:
            return self._live_answer(turns)
        if solved:
            word = turns[-1][0] if turns and turns[-1][1] == "correct" else tree.word(node)
            return Suggestion(word, 1, True, (), STORED, len(turns))
        return Suggestion(tree.word(node), int(self._sizes[node]), False, (), STORED, len(turns))

    def _live_answer(self, turns: list[tuple[str, str]]) -> Suggestion:
        key = tuple(turns)
        cached = self._live.get(key)
        if cached is not None:
            return cached
        variant, words = self.stored.variant, self.stored.tree.words
        if any(answer == "correct" for _, answer in turns[:-1]):
            raise GameOverError("a turn was 'correct': the game is over, no turn follows")
        if variant == "deduce" and any(answer == "correct" for _, answer in turns):
            raise ImpossibleReplyError("the deduce variant never answers 'correct'")
        alive = list(range(len(words)))
        for number, (guess, answer) in enumerate(turns, start=1):
            alive = [i for i in alive if guess_my_word_reply(guess, words[i], variant) == answer]
            if not alive:
                raise ContradictoryHistoryError(
                    f"turn {number} ({guess} {answer}) contradicts "
                    f"{'the turns before it' if number > 1 else 'the word list'}: no word of "
                    f"{self.stored.list_name!r} gives all these replies"
                )
        if turns and turns[-1][1] == "correct":
            answer_text = Suggestion(turns[-1][0], 1, True, (), LIVE, len(turns))
        elif variant == "deduce" and len(alive) == 1:
            answer_text = Suggestion(words[alive[0]], 1, True, (), LIVE, len(turns))
        else:
            left = WeightedList(
                tuple(words[i] for i in alive), tuple(self.stored.counts[i] for i in alive)
            )
            guess = build_tree(left, self.stored.strategy, variant).first_guess
            answer_text = Suggestion(guess, len(alive), False, (), LIVE, len(turns))
        if len(self._live) < _LIVE_CACHE_SIZE:
            self._live[key] = answer_text
        return answer_text

    def _not_here(self) -> BadRequestError:
        return BadRequestError(f"{self.name} is a Guess My Word tree: only suggestions apply")

    def score(self, guess: str, target: str) -> tuple[str, int, bool]:
        """Refuse: scoring is for word-list policies."""
        raise self._not_here()

    def check(
        self, history: Sequence[tuple[str, str]], guess: str, nyt: bool
    ) -> tuple[bool, str, int]:
        """Refuse: hard-mode rules are for word-list policies."""
        raise self._not_here()

    def evil_reply(
        self, history: Sequence[tuple[str, str]], guess: str
    ) -> tuple[str, int, int, bool]:
        """Refuse: the Evil replier is for word-list policies."""
        raise self._not_here()
