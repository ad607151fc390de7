"""Objectives with a tie-break, run as a sequence of ordinary searches.

``total-then-worst``: among the trees of least total, the one of least worst
case. ``worst-then-total``: among the trees of least worst case, the one of
least total. Neither needs a search of its own:

- the least total of the trees within ``w`` guesses never rises as ``w``
  grows, so the least worst case among trees of the least total ``T`` is the
  smallest ``w`` at which the search capped at ``w`` still reaches ``T``:
  search for ``T`` (no cap, or the one asked for), then cap at one guess
  fewer than the tree's worst case until the capped optimum exceeds ``T`` (or
  no tree meets the cap). That last capped search is the proof.
- the least worst case ``W`` is the minimax optimum; the least total within
  ``W`` guesses is the capped total search's. The minimax proof shows that no
  tree fits in ``W - 1`` guesses.

The tree and its node values and bounds are the last total search's, so its
certificate is checked like any capped total certificate; ``tie_break``
records the worst case and what refuted one guess fewer. Where a checkpoint is
given, each search keeps its own beside it (``NAME.total``,
``NAME.total-cap5``, ``NAME.minimax``...).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...client.games import Game
from ..errors import InfeasibleCapError
from ..progress import Progress
from ..wordlists import WordList
from .bounds import INFEASIBLE
from .problem import SearchOptions
from .symmetry import SymmetryHook

if TYPE_CHECKING:
    from .build import Optimized

#: optimize() itself, passed in (it dispatches here: no import cycle).
Optimizer = Callable[..., "Optimized"]


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

    def run(name: str, stage: SearchOptions, stage_weights: np.ndarray | None) -> Optimized:
        path = None if checkpoint is None else checkpoint.with_name(f"{checkpoint.name}.{name}")
        return optimizer(
            game,
            targets,
            guesses,
            stage,
            symmetry=symmetry,
            checkpoint=path,
            progress=progress,
            weights=stage_weights,
        )

    def capped(cap: int) -> Optimized | None:
        """The least-total search within ``cap`` guesses (None: no tree fits)."""
        if cap < 1:
            return None
        stage = dataclasses.replace(options, objective="total", max_guesses=cap)
        try:
            return run(f"total-cap{cap}", stage, weights)
        except InfeasibleCapError:
            return None

    if options.objective == "worst-then-total":
        # The worst case needs no weights (minimax ignores how likely each target is).
        stage = dataclasses.replace(options, objective="minimax", max_guesses=None)
        minimax = run("minimax", stage, None)
        worst = minimax.certificate.value
        if options.max_guesses is not None and worst > options.max_guesses:
            raise InfeasibleCapError("no tree meets the worst-case cap")
        # Exact (no beam), so proven: no tree at all fits in one guess fewer.
        assert minimax.certificate.lower_bound == worst
        refuted = INFEASIBLE
        best = capped(worst)
        assert best is not None  # the minimax tree itself fits in `worst` guesses
        lower_bound = best.certificate.lower_bound
    else:
        best = run("total", dataclasses.replace(options, objective="total"), weights)
        lower_bound = best.certificate.lower_bound
        value = best.certificate.value
        worst = int(best.tree.target_scores.max())
        while True:
            trial = capped(worst - 1)
            if trial is None or trial.certificate.value > value:
                refuted = INFEASIBLE if trial is None else trial.certificate.lower_bound
                break
            best, worst = trial, int(trial.tree.target_scores.max())
    certificate = dataclasses.replace(
        best.certificate,
        objective=options.objective,
        lower_bound=lower_bound,
        proven=lower_bound == best.certificate.value,
        tie_break={"worst": worst, "refuted": refuted},
    )
    outcome = dataclasses.replace(best.outcome, seconds=time.perf_counter() - started)
    return dataclasses.replace(best, certificate=certificate, outcome=outcome)
