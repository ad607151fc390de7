"""Backtests against the real calendar: each day's answer played with the policy that
day would have had, beside the uniform optimum of the same lists and mode.

Day D's policy (``guesswork-build today``, builder.today) is the exact weighted
optimum under D's calendar prior (builder.calendar_prior, learned from the
days before D only), every answer within six guesses, given a fixed opener.
A backtest needs only the steps a day's game takes, so :class:`CalendarPlayer`
computes those and nothing else: one weighted, capped search per day over the
class the opener's reply leaves (its memo serves the later steps). The search
is the one that builds the whole tree, and a set's guess depends only on the
set (builder.optimal.search), so the path is the stored tree's path.

A day whose answer is not on the answer list (LORIS, KEFIR) leaves the tree
once no target fits the replies. Then, as a player would, the game goes on
over the allowed words that fit every reply, weighed by the same prior (its
off-list share: word frequency), each step the exact weighted optimum of those
words within the guesses left (or with no cap, where none is left).

The uniform side plays the stored policy as ``guesswork play`` does: the
tree, and live answers once a game leaves it (client.lookup with the greedy
live solver).

A game is played to :data:`PLAY_LIMIT` guesses at most; a day is lost when it
takes more than six (or is not solved by then, reported as null), and a lost
day counts :data:`LOST_VALUE` guesses in a mean, as the NYT's statistics and
WordleBot count an X.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..client.catalog_lookup import CatalogLookup
from ..client.games import Wordle
from ..client.policy_info import WORDLE_GUESS_LIMIT
from .calendar import AnswerCalendar, CalendarDay
from .calendar_prior import calendar_prior
from .errors import SearchError
from .optimal.bounds import INFEASIBLE
from .optimal.problem import NO_CAP, Problem, SearchOptions, check_weights, make_problem
from .optimal.search import Search
from .priors import Prior, weights_for
from .wordlists import WordList

#: How many guesses a backtest plays before it calls a game unsolved.
PLAY_LIMIT = 12
#: What a lost day counts in a mean (the NYT's and WordleBot's X).
LOST_VALUE = 7
WORDLE = Wordle()


def _reply(guess: str, answer: str) -> int:
    return WORDLE.reply(guess, answer)


class CalendarPlayer:
    """Plays answers with a day's weighted, capped optimum given a fixed opener, computing
    only the steps each game takes (see the module docstring)."""

    def __init__(
        self,
        answers: WordList,
        guesses: WordList,
        mode: str,
        opener: str,
        cap: int = WORDLE_GUESS_LIMIT,
        beam: int | None = None,
    ) -> None:
        """Prepare the search over ``answers`` guessed from ``guesses`` in ``mode``
        (``normal`` or ``nyt-hard``), opening with ``opener`` within ``cap`` guesses,
        each node searching its ``beam`` best guesses (None: every guess).

        Raises:
            SearchError: the opener is not an allowed guess, or a bad mode.
        """
        if mode not in ("normal", "nyt-hard"):
            raise SearchError(f"a calendar backtest plays normal or nyt-hard mode, not {mode!r}")
        self.answers, self.guesses, self.mode, self.cap = answers, guesses, mode, cap
        self.options = SearchOptions(max_guesses=cap, nyt_hard=mode == "nyt-hard", beam=beam)
        self.problem, self.vocabulary = make_problem(WORDLE, answers, guesses)
        self.position = self.vocabulary.index()
        word = opener.upper()
        if word not in self.position:
            raise SearchError(f"opener {opener!r} is not in {guesses.name}")
        self.opener = word
        #: Sets (with the guesses left and the NYT state) proven to have no tree within
        #: the cap: a fact about the lists, whatever the weights, so every day's search
        #: starts from what the days before proved (the costly part of NYT-hard mode).
        self.infeasible: dict[bytes, int] = {}

    def play(self, prior: Prior, answer: str) -> list[str]:
        """Return the guesses that day's policy (weighted by ``prior``) makes against
        ``answer``, the last one the answer when solved within :data:`PLAY_LIMIT`.

        Raises:
            InfeasibleCapError: no tree within the cap for a class (not on these lists).
        """
        weights = weights_for(prior, self.answers.words, self.answers.name)
        problem = dataclasses.replace(
            self.problem, weights=check_weights(weights, len(self.answers))
        )
        search = Search(problem, self.options)
        for key, bound in self.infeasible.items():
            search.lower[key] = bound
        try:
            return self._play(search, problem, answer.upper(), prior)
        finally:
            self.infeasible.update(
                (key, bound) for key, bound in search.lower.items() if bound >= INFEASIBLE
            )

    def _play(self, search: Search, problem: Problem, answer: str, prior: Prior) -> list[str]:
        """Return :meth:`play`'s guesses, searching with ``search`` over ``problem``."""
        played: list[str] = []
        turns: list[tuple[str, int]] = []
        targets = np.arange(len(self.answers), dtype=np.int64)
        state, depth, guess = b"", self.cap, self.opener
        while len(played) < PLAY_LIMIT:
            played.append(guess)
            code = _reply(guess, answer)
            if code == WORDLE.win_reply:
                return played
            turns.append((guess, code))
            index = self.position[guess]
            targets = targets[problem.matrix[index, targets] == code]
            depth -= 1
            if len(targets) == 0 or depth < 1:
                return played + self._off_list(prior, answer, turns, PLAY_LIMIT - len(played))
            state = search.values.child_state(state, index, targets)
            _, chosen = search.choice(targets, depth, state)
            guess = self.vocabulary.words[chosen]
        return played

    def _off_list(
        self, prior: Prior, answer: str, turns: list[tuple[str, int]], budget: int
    ) -> list[str]:
        """Return the rest of a game whose answer left the answer list: each step the
        weighted optimum of the allowed words fitting every reply (see the module
        docstring), at most ``budget`` guesses."""
        played: list[str] = []
        words = np.array(self.guesses.words)
        while len(played) < budget:
            fits = np.ones(len(words), dtype=bool)
            for guess, code in turns:
                fits &= WORDLE.reply_codes(guess, self.guesses.words) == code
            left = tuple(words[fits].tolist())
            if not left:
                return played  # no allowed word fits: the game cannot be solved
            guess = self._open_choice(prior, left, turns)
            played.append(guess)
            code = _reply(guess, answer)
            if code == WORDLE.win_reply:
                return played
            turns = [*turns, (guess, code)]
        return played

    def _open_choice(
        self, prior: Prior, left: tuple[str, ...], turns: list[tuple[str, int]]
    ) -> str:
        """Return the weighted optimum's first guess over the words ``left``, within the
        guesses the cap leaves (or uncapped, where it leaves none or no tree fits)."""
        if len(left) == 1:
            return left[0]
        mapping = prior.mapping
        weights = np.array([mapping.get(word, 1) for word in left], dtype=np.int64)
        targets = WordList.from_words("open-words", left)
        problem, vocabulary = make_problem(WORDLE, targets, self.guesses, weights)
        remaining = self.cap - len(turns)
        for cap in ((remaining,) if remaining >= 1 else ()) + (None,):
            options = dataclasses.replace(self.options, max_guesses=cap)
            search = Search(problem, options)
            state = self._replayed_state(search, problem, vocabulary, turns)
            everything = np.arange(len(left), dtype=np.int64)
            try:
                _, chosen = search.choice(everything, cap if cap is not None else NO_CAP, state)
            except SearchError:
                continue
            return vocabulary.words[chosen]
        raise SearchError("no tree over the open words")  # unreachable: uncapped always fits

    @staticmethod
    def _replayed_state(
        search: Search, problem: Problem, vocabulary: WordList, turns: list[tuple[str, int]]
    ) -> bytes:
        """Return the NYT-hard constraint state after ``turns`` (``b""`` in normal mode)."""
        if search.values.rule is None:
            return b""
        position = vocabulary.index()
        state = b""
        for guess, code in turns:
            state = search.values.rule.child(state, position[guess], code)
        return state


@dataclass(frozen=True)
class DayPlayed:
    """One day of a backtest: its answer and both policies' guesses (None: unsolved)."""

    date: datetime.date
    answer: str
    guesses: int | None
    uniform_guesses: int | None
    path: tuple[str, ...]
    uniform_path: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        """Return the day as the backtest's JSON prints it."""
        return {
            "date": self.date.isoformat(),
            "answer": self.answer,
            "guesses": self.guesses,
            "uniform_guesses": self.uniform_guesses,
            "path": list(self.path),
            "uniform_path": list(self.uniform_path),
        }


def lost(guesses: int | None) -> bool:
    """Return True if a game of ``guesses`` (None: unsolved) is lost."""
    return guesses is None or guesses > WORDLE_GUESS_LIMIT


def mean_guesses(values: Sequence[int | None]) -> float | None:
    """Return the mean guesses, a lost game counting :data:`LOST_VALUE` (None: no game)."""
    if not values:
        return None
    return sum(LOST_VALUE if lost(v) else int(v or 0) for v in values) / len(values)


def uniform_path(lookup: CatalogLookup, policy: str, answer: str) -> list[str]:
    """Return the guesses the stored ``policy`` makes against ``answer`` as ``play``
    does (tree, then live answers), at most :data:`PLAY_LIMIT`."""
    walker = lookup.policy(policy)
    history: list[tuple[str, str]] = []
    while len(history) < PLAY_LIMIT:
        guess = walker.suggest(history, 0).guess
        history.append((guess, WORDLE.format_reply(_reply(guess, answer), "letters")))
        if guess == answer.upper():
            break
    return [guess for guess, _ in history]


def backtest(
    days: Sequence[CalendarDay],
    calendar: AnswerCalendar,
    player: CalendarPlayer,
    lookup: CatalogLookup,
    uniform_policy: str,
    report: Callable[[int, DayPlayed], None] | None = None,
) -> list[DayPlayed]:
    """Play each of ``days`` with that day's calendar policy (its prior from
    ``calendar``'s days before it only) and with ``uniform_policy``.

    Returns:
        Each day's result, in the order given.
    """
    results: list[DayPlayed] = []
    for number, day in enumerate(days):
        prior = calendar_prior(day.date, calendar, player.answers, player.guesses)
        path = player.play(prior, day.word)
        uniform = uniform_path(lookup, uniform_policy, day.word)
        played = DayPlayed(
            day.date,
            day.word,
            _solved_in(path, day.word),
            _solved_in(uniform, day.word),
            tuple(path),
            tuple(uniform),
        )
        results.append(played)
        if report is not None:
            report(number + 1, played)
    return results


def _solved_in(path: Sequence[str], answer: str) -> int | None:
    return len(path) if path and path[-1] == answer.upper() else None


def summary(results: Sequence[DayPlayed]) -> dict[str, object]:
    """Return the means and lost days of ``results`` (both policies)."""
    ours = [r.guesses for r in results]
    theirs = [r.uniform_guesses for r in results]
    return {
        "count": len(results),
        "mean": mean_guesses(ours),
        "uniform_mean": mean_guesses(theirs),
        "lost": sum(lost(v) for v in ours),
        "uniform_lost": sum(lost(v) for v in theirs),
    }


def by_year(results: Sequence[DayPlayed]) -> dict[str, dict[str, object]]:
    """Return :func:`summary` of each calendar year of ``results``."""
    years: dict[str, list[DayPlayed]] = {}
    for result in results:
        years.setdefault(str(result.date.year), []).append(result)
    return {year: summary(rows) for year, rows in sorted(years.items())}
