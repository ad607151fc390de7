"""Objectives with a tie-break, run as a sequence of ordinary searches.

``total-then-worst``: among the trees of least total, the one of least worst
case. ``worst-then-total``: among the trees of least worst case, the one of
least total. Neither needs a search of its own:

- the least total of the trees within ``w`` guesses never rises as ``w``
  grows, so the least worst case among trees of the least total ``T`` is the
  smallest ``w`` at which the search capped at ``w`` still reaches ``T``:
  search for ``T`` (no cap, or the one asked for), then cap at one guess
  fewer than the tree's worst case until no capped tree reaches ``T``. Each
  capped search only asks whether a tree of total ``T`` or less exists (its
  ceiling is ``T + 1``: every opener that cannot get that low is refuted,
  which is far quicker than finding the capped optimum, often unbounded when
  the cap leaves no tree at all). Each opener is first searched without the
  cap (``RootSearch._uncapped_refutation``): nearly every one's uncapped tree
  already reaches ``T + 1``, which that search proves far faster. The last
  capped search, which finds none, is the proof: ``T + 1`` bounds every tree
  within one guess fewer.
- the least worst case ``W`` is the minimax optimum; the least total within
  ``W`` guesses is the capped total search's. The minimax proof shows that no
  tree fits in ``W - 1`` guesses.

The tree and its node values and bounds are the last total search's, so its
certificate is checked like any capped total certificate; ``tie_break``
records the worst case and what refuted one guess fewer. Where a checkpoint is
given, each search keeps its own beside it (``NAME.total``,
``NAME.total-cap5-below7921``, ``NAME.minimax``, ``NAME.total-cap6``...).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...client.games import Game
from ...client.progress import Progress
from ..errors import InfeasibleCapError, NoTreeBelowCeilingError
from ..wordlists import WordList
from .bounds import INFEASIBLE
from .certificate import Optimized
from .problem import SearchOptions
from .symmetry import SymmetryHook

#: optimize() itself, passed in (it dispatches here: no import cycle).
Optimizer = Callable[..., Optimized]


def optimize_tie_break(
    optimizer: Optimizer,
    game: Game,
    targets: WordList,
    guesses: WordList,
    options: SearchOptions,
    *,
    symmetry: SymmetryHook | None = None,
    checkpoint: Path | None = None,
    progress: Progress | None = None,
    weights: np.ndarray | None = None,
) -> Optimized:
    """Return the best tree under a tie-break objective (see the module docstring).

    Returns:
        The tree with its certificate (objective, ``tie_break``; the lower bound
        is the first criterion's) and the last search's outcome, whose
        ``seconds`` counts every search run.

    Raises:
        SearchError: as :func:`.build.optimize` (InfeasibleCapError: no tree meets
            the cap asked for).
    """
    started = time.perf_counter()
    stages = _Stages(optimizer, game, targets, guesses, symmetry, checkpoint, progress)
    # total-then-worst: the first total search (its certificate's witnesses prove the
    # lower bound of every tree).
    first: Optimized | None = None

    if options.objective == "worst-then-total":
        # The worst case needs no weights (minimax ignores how likely each target is).
        stage = dataclasses.replace(options, objective="minimax", max_guesses=None)
        minimax = stages.run("minimax", stage, None)
        worst = minimax.certificate.value
        if options.max_guesses is not None and worst > options.max_guesses:
            raise InfeasibleCapError("no tree meets the worst-case cap")
        # Exact (no beam), so proven: no tree at all fits in one guess fewer.
        assert minimax.certificate.lower_bound == worst
        refuted = INFEASIBLE
        capped = dataclasses.replace(options, objective="total", max_guesses=worst)
        # The minimax tree itself fits in `worst` guesses: this finds a tree.
        best = stages.run(f"total-cap{worst}", capped, weights)
        lower_bound = best.certificate.lower_bound
    else:
        best = stages.run("total", dataclasses.replace(options, objective="total"), weights)
        first = best
        lower_bound = best.certificate.lower_bound
        value = best.certificate.value
        worst = int(best.tree.target_scores.max())
        while True:
            trial = stages.same_total_within(options, value, worst - 1, weights)
            if trial is None:
                refuted = value + 1  # proven: no tree within worst - 1 guesses totals value
                break
            best, worst = trial, int(trial.tree.target_scores.max())
    witnesses = best.certificate.witnesses
    if first is not None and best is not first:
        # The openers of a capped search (a tree of the same total, fewer guesses) prove
        # the least total within its cap only, not the lower bound of every tree: the
        # certificate is then proven by running the searches again.
        witnesses = {}
    certificate = dataclasses.replace(
        best.certificate,
        witnesses=witnesses,
        objective=options.objective,
        lower_bound=lower_bound,
        proven=lower_bound == best.certificate.value,
        tie_break={"worst": worst, "refuted": refuted},
    )
    outcome = dataclasses.replace(best.outcome, seconds=time.perf_counter() - started)
    return dataclasses.replace(best, certificate=certificate, outcome=outcome)


def same_total_within(
    optimizer: Optimizer,
    game: Game,
    targets: WordList,
    guesses: WordList,
    options: SearchOptions,
    value: int,
    cap: int,
    *,
    symmetry: SymmetryHook | None = None,
    checkpoint: Path | None = None,
    progress: Progress | None = None,
    weights: np.ndarray | None = None,
) -> Optimized | None:
    """Return a tree within ``cap`` guesses of total ``value`` (the least total, so no
    tree has less), or None: proven that none exists, so ``value + 1`` bounds the
    total of every tree within ``cap`` guesses.

    ``options`` are the total search's (first guess, mode, lead...); the search
    is theirs capped at ``cap`` with the ceiling ``value + 1``, its checkpoint
    ``checkpoint.total-capCAP-belowCEILING``.

    Raises:
        SearchError: as :func:`.build.optimize`.
    """
    stages = _Stages(optimizer, game, targets, guesses, symmetry, checkpoint, progress)
    return stages.same_total_within(options, value, cap, weights)


@dataclasses.dataclass(frozen=True)
class _Stages:
    """Runs a tie-break's searches, each with its own checkpoint beside the given one."""

    optimizer: Optimizer
    game: Game
    targets: WordList
    guesses: WordList
    symmetry: SymmetryHook | None
    checkpoint: Path | None
    progress: Progress | None

    def run(self, name: str, stage: SearchOptions, weights: np.ndarray | None) -> Optimized:
        """Return ``stage``'s search (checkpoint ``NAME.name``)."""
        path = self.checkpoint
        if path is not None:
            path = path.with_name(f"{path.name}.{name}")
        return self.optimizer(
            self.game,
            self.targets,
            self.guesses,
            stage,
            symmetry=self.symmetry,
            checkpoint=path,
            progress=self.progress,
            weights=weights,
        )

    def same_total_within(
        self, options: SearchOptions, value: int, cap: int, weights: np.ndarray | None
    ) -> Optimized | None:
        """As the module's :func:`same_total_within`."""
        if cap < 1:
            return None
        ceiling = value + 1
        stage = dataclasses.replace(options, objective="total", max_guesses=cap, ceiling=ceiling)
        try:
            found = self.run(f"total-cap{cap}-below{ceiling}", stage, weights)
        except (InfeasibleCapError, NoTreeBelowCeilingError):
            return None
        # Below the ceiling, and no tree is below the least total: the same total.
        assert found.certificate.value == value
        return found
