"""Absurdle's best line, stored as a policy (``wordle-2315-g12972-normal-absurdle``).

Absurdle's adversary is deterministic (client.rules.absurdle_reply), so the
guesser's best play is a line (builder.absurdle): the policy stores it as a
complete Wordle tree. Along the adversary's replies the tree plays the line;
every other reply (one Absurdle never gives, but that a player who strays
from the line, or who plays a fair Wordle with it, may meet) is answered by
the greedy ``neg_entropy`` step, in NYT hard mode within the NYT rule. So the
tree passes every check a Wordle tree does (every target reached and won),
and its certificate (objective ``absurdle``) claims what is Absurdle's:

* ``value``: the guesses the line takes against the adversary, the fewest
  that guarantee a win (``lower_bound`` equal, ``proven``);
* ``absurdle``: ``{"line": [words]}``, the line;
* ``node_values``: each node's subtree worst case; ``node_bounds``: zeros
  (no static bound is claimed: the proof is the search itself).

builder.verify replays the adversary through the tree, which must follow the
line to the win in ``value`` guesses; ``verify --prove`` runs the search again
(every shorter line refuted). Off the stored line, live answers lead with the
first guess of the shortest line from the position (:class:`AbsurdleContinuation`,
used by builder.live).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..client.errors import OffTreeError
from ..client.probe import SOLVED, Policy
from ..client.rules import HARD, NYT_HARD, absurdle_reply, nyt_hard_problem
from ..client.strategy import ABSURDLE, GreedyStrategy, OptimalStrategy
from .absurdle import MAX_GUESSES, AbsurdleLine, AbsurdleSearch, absurdle_optimum
from .errors import SearchError, SpecError
from .greedy import ReplyColumns, step_of
from .matrices import alphabet_of, letter_array, reply_matrix
from .metrics import DEFAULT_WINDOW
from .nyt_hard import legal_after
from .optimal.certificate import node_values
from .policies import BuiltPolicy, GameSpec, policy_data
from .tree import lay_out_tree
from .wordlists import WordList, guess_vocabulary

if TYPE_CHECKING:
    from ..client.games import Game


@dataclass(frozen=True)
class AbsurdleSpec(GameSpec):
    """Everything that determines an Absurdle policy: Wordle's lists, the mode
    (``normal``, or ``nyt-hard``: Absurdle's hard mode) and a fixed first guess."""

    first_guess: str | None = None

    def check(self) -> Game:
        """Return the game after checking the spec.

        Raises:
            SpecError: not Wordle, the seeds' hard mode, or weights.
            UnknownGameError, InvalidWordError: bad game or length.
        """
        game = self.check_game()
        if not game.absurdle:
            raise SpecError(f"Absurdle is played with Wordle's replies, not {game.id}'s")
        if self.mode == HARD:
            raise SpecError("Absurdle's hard mode is the NYT rule: use --mode nyt-hard")
        if self.weights is not None:
            raise SpecError("--weights does not apply to Absurdle: its adversary picks the secret")
        return game

    def strategy(self, game: Game) -> OptimalStrategy:
        """Return the stored strategy: the line's search, off the line the greedy
        neg_entropy step in normal mode's window."""
        return OptimalStrategy(
            objective=ABSURDLE,
            beam=None,
            max_guesses=None,
            first_guess=self.first_guess.upper() if self.first_guess else None,
            fallback=GreedyStrategy(
                metric="neg_entropy", window=DEFAULT_WINDOW, arithmetic="2022", jotto_order=None
            ),
        )

    def name(self) -> str:
        """Return the policy's stable name, e.g. ``wordle-2315-g12972-nyt-hard-absurdle``."""
        parts = [*self.name_parts(self.check()), ABSURDLE]
        if self.first_guess is not None:
            parts.append(f"first-{self.first_guess.lower()}")
        return "-".join(parts)


def build_absurdle_policy(spec: AbsurdleSpec, line: AbsurdleLine | None = None) -> BuiltPolicy:
    """Find and prove the shortest line that beats Absurdle; return it as a policy
    (the module docstring says how the tree is completed and what is certified).
    ``line``: the spec's line, already found (by absurdle_optimum, same options).

    Raises:
        SpecError, WordListError: bad options or lists.
        SearchError: as builder.absurdle.absurdle_optimum.
    """
    started = time.perf_counter()  # all of it, the lists included (BuiltPolicy.seconds)
    game = spec.check()
    targets, guesses = spec.lists(game)
    if line is None:
        line = absurdle_optimum(
            game, targets, guesses, first_guess=spec.first_guess, hard=spec.nyt_hard
        )
    vocabulary, target_row = guess_vocabulary(targets, guesses)
    matrix = reply_matrix(game, vocabulary, targets)
    by_target = np.ascontiguousarray(matrix.T)
    rows = [vocabulary.index()[word] for word in line.guesses]
    # The last word stays in every class the adversary keeps, so its replies are the line's.
    last = targets.index()[line.guesses[-1]]
    codes = [int(matrix[row, last]) for row in rows]
    on_line = [tuple(zip(rows[:k], codes[:k], strict=True)) for k in range(len(rows))]
    strategy = spec.strategy(game)
    step = step_of(strategy.fallback, len(guesses), game, nyt_hard=spec.nyt_hard)
    letters = alphabet = None
    if spec.nyt_hard:
        alphabet = alphabet_of(vocabulary.words)
        letters = letter_array(vocabulary.words, game.length, alphabet)

    def choose(members: np.ndarray, depth: int, path: tuple[tuple[int, int], ...]) -> int:
        if depth <= len(rows) and path == on_line[depth - 1]:
            return rows[depth - 1]
        legal = None
        if letters is not None:
            turns = [(vocabulary.words[g], code) for g, code in path]
            legal = legal_after(letters, turns, alphabet)
        ranked = step.rank(
            target_row[members], 1, ReplyColumns(matrix, members, by_target), legal=legal
        )
        return int(ranked.guesses[0])

    tree = lay_out_tree(game, targets, guesses, vocabulary.words, matrix, choose).tree
    certificate: dict[str, Any] = {
        "objective": ABSURDLE,
        "value": line.worst,
        "lower_bound": line.lower_bound,
        "proven": line.proven,
        "beam": None,
        "max_guesses": None,
        "first_guess": strategy.first_guess,
        "hard": False,
        "node_values": np.ascontiguousarray(node_values(tree, minimax=True), "<i4").tobytes(),
        "node_bounds": np.zeros(tree.node_count, "<i4").tobytes(),
        "roots": [],
        **({"nyt_hard": True} if spec.nyt_hard else {}),
        ABSURDLE: {"line": list(line.guesses)},
    }
    data = policy_data(spec.name(), spec.mode, strategy, tree)
    data = dataclasses.replace(data, certificate=certificate)
    return BuiltPolicy(spec, tree, data, time.perf_counter() - started)


def absurdle_faults(
    policy: Policy, cert: dict[str, Any], worst: np.ndarray, prove: bool = False
) -> list[str]:
    """Return the faults of an Absurdle policy's certificate (empty when it checks out).

    The adversary (client.rules.absurdle_reply) is played against the tree from
    the whole target list: each guess (in NYT hard mode, within the NYT rule)
    must be the certificate's line's, each reply must have its branch, and the
    win must come after ``value`` guesses; the value must be proven (lower
    bound equal); ``node_values`` must be ``worst``, each node's subtree worst
    case (builder.verify.subtree_values), and ``node_bounds`` zero. With
    ``prove``, the search runs again and must find the same number of guesses.
    """
    game = policy.game
    if not game.absurdle:
        return [f"an Absurdle certificate on {game.id}'s policy"]
    record = cert.get(ABSURDLE)
    line = record.get("line") if isinstance(record, dict) else None
    if not isinstance(line, list) or not all(isinstance(word, str) for word in line):
        return ["the Absurdle certificate has no line (absurdle.line: its guesses)"]
    faults = []
    value = int(cert["value"])
    if int(cert["lower_bound"]) != value or not cert["proven"]:
        faults.append(f"the Absurdle line of {value} guesses is not recorded as proven least")
    if not np.array_equal(np.frombuffer(cert["node_values"], "<i4"), worst):
        faults.append("certificate node values differ from the subtrees' worst cases")
    if np.frombuffer(cert["node_bounds"], "<i4").any():
        faults.append("an Absurdle certificate claims no static bounds (node_bounds must be 0)")
    hard = policy.data.mode == NYT_HARD
    alive, node, played = list(policy.targets), policy.root, []
    turns: list[tuple[str, int]] = []
    while True:  # ends: each step goes to a child, and children follow their parents
        guess = policy.guess(node)
        played.append(guess)
        if hard and (problem := nyt_hard_problem(game, turns, guess)) is not None:
            return [
                *faults,
                f"guess {len(played)} of the line, {guess}, breaks the NYT rule: {problem}",
            ]
        code, _ = absurdle_reply(game, guess, alive)
        turns.append((guess, code))
        if code == game.win_reply:
            break
        alive = [word for word in alive if game.reply(guess, word) == code]
        try:
            child = policy.step(node, code)
        except OffTreeError:
            return [
                *faults,
                f"after {guess}, Absurdle's reply {game.format_reply(code)} has no branch",
            ]
        if child == SOLVED:
            return [*faults, f"the tree takes {guess}'s reply for a win"]
        node = child
    if played != line:
        faults.append(
            f"the tree plays {' '.join(played)} against Absurdle, not the line {' '.join(line)}"
        )
    if len(played) != value:
        faults.append(
            f"the tree beats Absurdle in {len(played)} guesses, not the certificate's {value}"
        )
    first = cert.get("first_guess")
    if first is not None and played[0] != first:
        faults.append(f"the line opens with {played[0]}, not the fixed {first}")
    if prove and not faults:
        faults += _reprove_absurdle(policy, value, first, hard)
    return faults


def _reprove_absurdle(policy: Policy, value: int, first: str | None, hard: bool) -> list[str]:
    """Run the line's search again: it must need exactly ``value`` guesses."""
    data = policy.data
    targets = WordList(data.targets.name, policy.targets, data.targets.sha256)
    guesses = WordList(data.guesses.name, policy.guesses, data.guesses.sha256)
    try:
        found = absurdle_optimum(policy.game, targets, guesses, first_guess=first, hard=hard)
    except SearchError as error:
        return [f"the search, run again, fails: {error}"]
    if found.worst != value:
        return [
            f"the search, run again, needs {found.worst} guesses, not the certificate's {value}"
        ]
    return []


class AbsurdleContinuation:
    """The best line against Absurdle from any position of one Absurdle policy's game,
    for live answers off its stored line (builder.live).

    The search (builder.absurdle.AbsurdleSearch, over the policy's lists and mode)
    is made once and keeps the sets it refuted between questions, so a lock lets
    one question search at a time.
    """

    def __init__(self, policy: Policy) -> None:
        """Prepare the search over ``policy``'s lists (its reply matrix, from cache)."""
        data = policy.data
        targets = WordList(data.targets.name, policy.targets, data.targets.sha256)
        guesses = WordList(data.guesses.name, policy.guesses, data.guesses.sha256)
        self.search = AbsurdleSearch(policy.game, targets, guesses, hard=data.mode == NYT_HARD)
        self.position = self.search.vocabulary.index()
        self.lock = threading.Lock()

    def first_guess(self, remaining: np.ndarray, history: Sequence[tuple[str, int]]) -> int | None:
        """Return the first guess (a vocabulary index) of the shortest line that beats
        Absurdle when ``remaining`` (target indices, ascending) are the targets its
        replies to ``history`` kept; None when no line of MAX_GUESSES wins."""
        with self.lock:
            state = b""
            if self.search.rule is not None:
                for word, code in history:
                    state = self.search.rule.child(state, self.position[word], code)
            targets = np.asarray(remaining, dtype=np.int64)
            for left in range(1, MAX_GUESSES + 1):
                found = self.search.line(targets, left, None, state)
                if found is not None:
                    return found[0]
        return None
