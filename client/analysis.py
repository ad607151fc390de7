"""The answer to "how well did I play, and how lucky was I?": a finished game, move by move.

The service's ``AnalyzeGame``, the remote client and ``guesswork analyze``
share these values; the analysis itself needs the builder's search
(guesswork.builder.analysis computes it). Every figure is defined in the
README's "Analysing a game":

* *expected* guesses: E(S, g), the mean number of guesses still needed, this
  one included, when ``g`` is guessed with the targets ``S`` possible (each
  equally likely) and play goes on as well as we know how;
* each value's *source*: :data:`EXACT` (solved by the exact search within its
  budget), :data:`TREE` (read from the policy's stored tree) or
  :data:`GREEDY_ESTIMATE` (the policy's greedy step played onwards, or past
  the budget a size-based estimate); a value mixing sources names the least
  exact;
* *skill*: ``100 * max(0, 1 - (E(player) - E(best)))``: 100 for a move as
  good as the best, 0 for one that wastes a whole guess (one that splits
  nothing);
* *luck*: where the reply that came ranks among the replies that could have
  come instead, by the number of targets each leaves, weighted by their
  probability: 100 when every other reply would have left more, 0 when every
  other would have left fewer, 50 when none could have come.
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import plural

EXACT = "exact"
TREE = "tree"
GREEDY_ESTIMATE = "greedy-estimate"
#: Every value source, most exact first (the order of the proto's ValueSource 1, 2, 3).
VALUE_SOURCES = (EXACT, TREE, GREEDY_ESTIMATE)


def weakest(sources: list[str] | tuple[str, ...]) -> str:
    """Return the least exact of ``sources`` (:data:`EXACT` for none)."""
    return max(sources, key=VALUE_SOURCES.index, default=EXACT)


@dataclass(frozen=True)
class MoveAnalysis:
    """One move of an analysed game.

    Attributes:
        turn: the move's number, from 1.
        guess: the player's guess (upper case).
        reply: the reply it got, as text (``GY..Y``, a Jotto count ...).
        legal: the guess met the policy mode's hard rule (always, in normal mode).
        remaining_before: targets possible before the move.
        remaining_after: targets possible after the reply (0 once won).
        best_guess: the best guess known at that point.
        best_expected: E(best guess), guesses still needed from here with it.
        best_source: how ``best_expected`` is known (see the module docstring).
        expected: E(player's guess).
        source: how ``expected`` is known.
        skill: 0..100 (see the module docstring).
        luck: 0..100 (see the module docstring).
        expected_remaining: targets the player's guess leaves, on average.
        best_expected_remaining: targets the best guess leaves, on average.
        best_remaining: targets the best guess would have left for the game's
            answer, when it is known (given, or the game was won); else None.
    """

    turn: int
    guess: str
    reply: str
    legal: bool
    remaining_before: int
    remaining_after: int
    best_guess: str
    best_expected: float
    best_source: str
    expected: float
    source: str
    skill: float
    luck: float
    expected_remaining: float
    best_expected_remaining: float
    best_remaining: int | None


@dataclass(frozen=True)
class GameAnalysis:
    """A whole game's analysis: its moves and totals.

    Attributes:
        policy: the policy whose targets, guesses and tree were used.
        mode: the policy's mode (``normal``, ``hard``, ``nyt-hard``).
        answer: the game's answer when known (given, or the game was won); else "".
        solved: the last reply was the winning one.
        moves: one per turn of the history.
        expected_start: guesses the best play needs on average from the start.
        expected_left: guesses still expected after the last move (0 once solved).
        lost_to_choices: the sum over moves of E(player) - E(best).
        gained_by_luck: ``expected_start + lost_to_choices - (moves +
            expected_left)``: guesses the replies saved (negative: cost).
        skill: the mean of the moves' skill.
        luck: the mean of the moves' luck.
        off_list_policy: the policy asked for, when the game left its answer list
            (the secret is none of its targets) and the game was valued under
            ``policy`` instead, whose targets are every allowed guess; else "".
        weights: the prior that weighed the targets (how likely each is the
            secret; E and luck are expectations under it), or "" for alike.
    """

    policy: str
    mode: str
    answer: str
    solved: bool
    moves: tuple[MoveAnalysis, ...]
    expected_start: float
    expected_left: float
    lost_to_choices: float
    gained_by_luck: float
    skill: float
    luck: float
    off_list_policy: str = ""
    weights: str = ""


def _source_mark(source: str) -> str:
    """Return the one-letter mark of a value source in the text table."""
    return {EXACT: "=", TREE: "t", GREEDY_ESTIMATE: "~"}[source]


def analysis_table(analysis: GameAnalysis) -> list[str]:
    """Return the analysis as the text lines ``guesswork analyze`` prints: a header,
    one row per move, the marks' legend and the totals."""
    rows = [
        (
            str(m.turn),
            m.guess + ("" if m.legal else "!"),
            m.reply,
            f"{m.remaining_before}>{m.remaining_after}",
            m.best_guess,
            f"{m.best_expected:.3f}{_source_mark(m.best_source)}",
            f"{m.expected:.3f}{_source_mark(m.source)}",
            f"{m.skill:.0f}",
            f"{m.luck:.0f}",
        )
        for m in analysis.moves
    ]
    header = ("#", "guess", "reply", "left", "best", "E(best)", "E(guess)", "skill", "luck")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    left = {1, 2, 4}  # words read left-aligned, numbers right-aligned

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    answer = f", answer {analysis.answer}" if analysis.answer else ""
    outcome = "solved" if analysis.solved else "not solved"
    played = len(analysis.moves)
    lines = [f"{analysis.policy} ({analysis.mode}): {plural(played, 'move')}, {outcome}{answer}"]
    if analysis.off_list_policy:
        lines.append(
            f"the secret is outside {analysis.off_list_policy}'s answer list: moves valued "
            f"with every allowed guess a possible secret"
            + (f", weighted by the prior {analysis.weights}" if analysis.weights else "")
        )
    elif analysis.weights:
        lines.append(f"targets weighted by the prior {analysis.weights}")
    lines += [line(header), *(line(row) for row in rows)]
    lines.append(
        "E: guesses still needed, this one included (= exact, t stored tree, ~ greedy estimate)"
        + ("; ! breaks the mode's hard rule" if any(not m.legal for m in analysis.moves) else "")
    )
    left_over = "" if analysis.solved else f" + {analysis.expected_left:.2f} still expected"
    lines.append(
        f"expected with best play {analysis.expected_start:.2f}; played {played}{left_over}: "
        f"{analysis.lost_to_choices:.2f} lost to choices, {analysis.gained_by_luck:+.2f} "
        f"gained by luck; skill {analysis.skill:.0f}, luck {analysis.luck:.0f}"
    )
    return lines
