"""The answer to "what should I guess next?", shared by the service, the remote
client and the command line."""

from __future__ import annotations

from dataclasses import dataclass

STORED = "stored"
LIVE = "live"
#: Computed live over the policy's whole guess list as possible secrets: the
#: history contradicts every target (the secret is outside the answer list).
LIVE_GUESS_LIST = "live-guess-list"
#: Every source, in the order of the proto's ``Source`` values 1, 2, 3.
SOURCES = (STORED, LIVE, LIVE_GUESS_LIST)


@dataclass(frozen=True)
class Suggestion:
    """A suggested next guess.

    Attributes:
        guess: the word to guess next (upper case); the solution once solved.
        remaining: targets still possible (1 once solved); for source
            ``"live-guess-list"``, words of the guess list still possible.
        solved: the history's last reply was the winning one.
        alternatives: next-best guesses, best first, for when a game refuses
            the suggestion.
        source: ``"stored"`` (read from the tree), ``"live"`` (computed,
            because the history left the tree) or ``"live-guess-list"``
            (computed over the policy's guess list as possible secrets,
            because no target gives every reply of the history).
        turn: number of turns in the history.
        alternative_values: each alternative's value by the policy's metric,
            lower is better (``max``: the largest group of targets the guess
            can leave; ``expectation``: the expected group; ``neg_entropy``:
            minus the bits of information; 0 for the random guesser), as the
            policy stores them or the live step computes them; empty where
            none is known (policies of format 1, Guess My Word).
        alternative_metric: the metric of those values: the policy's greedy
            step's (an optimised tree's live step), "" where there are none.
        candidates: up to the number asked for (none unless asked) of the
            secrets still possible (the words ``remaining`` counts): most likely
            first where the policy weights its targets, else alphabetical
            (client.remaining.candidate_list).
        candidate_weights: each candidate's probability among every secret
            still possible, where the targets are weighted; empty otherwise.
        guaranteed_within: the guesses (those played counted) within which the
            game is certain to end when the suggestions are played from here:
            the stored tree's worst case under this position plus the turns
            played; None when answered live.
        expected_guesses: the guesses (those played counted) the game takes on
            average when the suggestions are played from here: the turns
            played plus the mean, over the targets still possible (weighted by
            the policy's target weights where it has them), of the guesses the
            stored tree takes from this node (the policy's ``mean`` before any
            turn); exact for that play. None when answered live.
    """

    guess: str
    remaining: int
    solved: bool
    alternatives: tuple[str, ...]
    source: str
    turn: int
    alternative_values: tuple[float, ...] = ()
    alternative_metric: str = ""
    candidates: tuple[str, ...] = ()
    candidate_weights: tuple[float, ...] = ()
    guaranteed_within: int | None = None
    expected_guesses: float | None = None
