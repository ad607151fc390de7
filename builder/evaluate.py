"""Evaluation: score statistics of a tree, first-guess tables, the Evil replier.

Definitions follow the seeds: a score is the number of guesses a target takes
(see builder.tree); ``stdev`` is the sample standard deviation
(``statistics.stdev``); the statistics a policy stores are defined once, in
client.stats, which readers use to recheck them. Cumulative percentages count
targets solved in at most g guesses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..client.games import Game
from ..client.rules import evil_reply
from ..client.stats import score_summary
from .matrices import reply_matrix
from .metrics import ARITHMETIC, METRICS
from .partitions import metric_values
from .tree import GuessTree
from .wordlists import WordList

#: The metrics of the seeds' first-guess table, in its column order.
FIRST_GUESS_METRICS = ("max", "expectation", "neg_entropy")


@dataclass(frozen=True)
class ScoreStats:
    """Summary statistics of a list of scores (guesses per target)."""

    count: int
    mean: float
    stdev: float
    median: float
    worst: int
    best: int
    #: score -> number of targets with that score, in increasing score order.
    histogram: dict[int, int]

    def cumulative(self, up_to: int | None = None) -> dict[int, float]:
        """Return g -> percentage of targets solved in at most g guesses."""
        last = self.worst if up_to is None else up_to
        done, result = 0, {}
        for g in range(1, last + 1):
            done += self.histogram.get(g, 0)
            result[g] = 100.0 * done / self.count
        return result

    def to_policy_stats(self) -> dict[str, object]:
        """Return the statistics as a policy stores them (see client.policy_format)."""
        return {
            "count": self.count,
            "mean": self.mean,
            "stdev": self.stdev,
            "median": float(self.median),
            "worst": self.worst,
            "best": self.best,
            "histogram": [[score, count] for score, count in self.histogram.items()],
        }

    def to_json(self) -> dict[str, object]:
        """Return the statistics as JSON-ready values (histogram keys as strings)."""
        return {
            "count": self.count,
            "mean": self.mean,
            "stdev": self.stdev,
            "median": self.median,
            "worst": self.worst,
            "best": self.best,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "cumulative": {str(k): round(v, 4) for k, v in self.cumulative().items()},
        }


def score_stats(scores: Iterable[int]) -> ScoreStats:
    """Return the statistics of ``scores``.

    Raises:
        ValueError: there are no scores.
    """
    summary = score_summary([int(s) for s in scores])
    return ScoreStats(
        count=summary["count"],
        mean=summary["mean"],
        stdev=summary["stdev"],
        median=summary["median"],
        worst=summary["worst"],
        best=summary["best"],
        histogram=dict(summary["histogram"]),
    )


def format_cumulative(stats: ScoreStats, up_to: int = 10) -> str:
    """Return the seeds' "≤2:5%, ≤3:43%, ..." line (one decimal between 99 and 100)."""

    def cell(g: int, percent: float) -> str:
        return f"≤{g}:{percent:.{1 if 99 < percent < 100 else 0}f}%"

    return ", ".join(cell(g, p) for g, p in stats.cumulative(up_to).items() if g >= 2)


def evil_game(tree: GuessTree) -> list[tuple[str, str]]:
    """Return the game an Evil Wordle replier forces on ``tree``.

    At each node the replier (client.games.evil_reply, the one Evil replier,
    which the service also plays) gives the reply keeping the most of the
    node's targets, until it must concede. Returns (guess, reply text) pairs.
    """
    game = tree.game
    node, moves = 0, []
    while True:
        guess = tree.guess_word(node)
        first, size = int(tree.node_first[node]), int(tree.node_size[node])
        targets = [tree.targets.words[t] for t in sorted(tree.target_order[first : first + size])]
        code, _ = evil_reply(game, guess, targets)
        moves.append((guess, game.format_reply(code)))
        if code == game.win_reply:
            return moves
        child = tree.child(node, code)
        if child is None:
            raise ValueError(f"tree has no branch for {game.format_reply(code)} at node {node}")
        node = child


def first_guess_values(
    game: Game,
    targets: WordList,
    guesses: WordList,
    metric: str,
    arithmetic: str = "2022",
) -> list[tuple[float, str]]:
    """Return (metric value, word) for every guess on all targets, best first.

    Sorted as the seed sorts its table: by value, then alphabetically.

    Raises:
        KeyError: unknown metric or arithmetic.
    """
    matrix = reply_matrix(game, guesses, targets)
    values = metric_values(
        matrix,
        np.arange(len(guesses), dtype=np.int64),
        np.arange(len(targets), dtype=np.int64),
        METRICS[metric],
        ARITHMETIC[arithmetic],
        game.reply_space,
    )
    return sorted(zip(values.tolist(), guesses.words, strict=False))
