"""Pictures: matplotlib, loaded only when a picture is asked for (an optional extra).

``pip install 'guesswork-solver[plots]'`` installs matplotlib; without it, asking for
a picture is one :class:`PlotError` line, and nothing else needs it (the
service install stays lean). Figures are drawn with the Agg backend (no
display), at :data:`DPI` dots per inch, so a figure of W x H inches is a
PNG of exactly 100 W x 100 H pixels. ``guesswork analyze --plot`` draws
:func:`analysis_figure`; ``guesswork-build report`` (builder.report) draws
policies with :func:`pyplot` too.
"""

from __future__ import annotations

import io
from pathlib import Path
from types import ModuleType
from typing import Any

from guesswork import install_hint

from .analysis import GameAnalysis
from .errors import GuessworkError

#: Dots per inch of every figure saved (pixels = inches x DPI).
DPI = 100
#: The analysis figure's size in inches (1000 x 700 pixels).
ANALYSIS_SIZE = (10.0, 7.0)
#: Colours: the player, the best guess, skill, luck (colour-blind safe, Okabe-Ito).
PLAYER, BEST, SKILL, LUCK = "#0072B2", "#D55E00", "#009E73", "#E69F00"
#: Formats a figure may be saved in, by file suffix.
FORMATS = ("png", "svg", "pdf")


class PlotError(GuessworkError):
    """matplotlib is missing, or a picture cannot be written where asked."""


def pyplot() -> ModuleType:
    """Return matplotlib.pyplot on the Agg backend.

    Raises:
        PlotError: matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError:
        raise PlotError(
            f"pictures need matplotlib, an optional extra: {install_hint('plots')}"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def picture_format(path: str | Path) -> str:
    """Return the format a picture at ``path`` is saved in: its suffix, lower case.

    Raises:
        PlotError: a suffix other than .png, .svg or .pdf.
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise PlotError(f"{str(path)!r}: pictures are written as .png, .svg or .pdf")
    return suffix


def save(figure: Any, path: str | Path) -> None:
    """Write ``figure`` to ``path`` in the format its suffix names, and close it.

    Raises:
        PlotError: an unknown suffix, or the file cannot be written.
    """
    kind = picture_format(path)
    try:
        figure.savefig(path, format=kind, dpi=DPI)
    except OSError as error:
        raise PlotError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    finally:
        pyplot().close(figure)


def analysis_figure(analysis: GameAnalysis) -> Any:
    """Return the figure of an analysed game (:data:`ANALYSIS_SIZE`): above, the targets
    left after each move against what the best guess leaves (for the answer when
    it is known, else on average), on a log scale; below, each move's skill and
    luck.

    Raises:
        PlotError: matplotlib is not installed.
    """
    plt = pyplot()
    figure, (sets, scores) = plt.subplots(
        2, 1, figsize=ANALYSIS_SIZE, dpi=DPI, height_ratios=(3, 2), layout="constrained"
    )
    moves = analysis.moves
    turns = [0, *(m.turn for m in moves)]
    sets.plot(
        turns,
        [moves[0].remaining_before, *(m.remaining_after for m in moves)],
        marker="o",
        color=PLAYER,
        linewidth=2,
        label="targets left after your guess",
    )
    known = all(m.best_remaining is not None for m in moves)
    best = [m.best_remaining if known else m.best_expected_remaining for m in moves]
    for move, left in zip(moves, best, strict=True):
        sets.plot(
            [move.turn - 1, move.turn],
            [move.remaining_before, left],
            linestyle="--",
            color=BEST,
            linewidth=1.5,
        )
    sets.plot(
        [m.turn for m in moves],
        best,
        linestyle="none",
        marker="D",
        color=BEST,
        label="after the best guess" + (" (for the answer)" if known else " (on average)"),
    )
    for move in moves:
        if move.best_guess != move.guess:
            sets.annotate(
                move.best_guess,
                (move.turn, best[move.turn - 1]),
                xytext=(6, -4),
                textcoords="offset points",
                color=BEST,
                fontsize=9,
            )
        sets.annotate(
            move.guess,
            (move.turn, move.remaining_after),
            xytext=(6, 6),
            textcoords="offset points",
            color=PLAYER,
            fontsize=9,
            fontweight="bold",
        )
    sets.set_yscale("symlog", linthresh=1)  # 0 (solved) has a place on the scale
    sets.set_ylim(bottom=0)
    sets.set_xticks(turns)
    sets.set_ylabel("targets possible")
    sets.grid(True, alpha=0.3)
    sets.legend(loc="upper right")
    outcome = "solved" if analysis.solved else "not solved"
    answer = f", answer {analysis.answer}" if analysis.answer else ""
    sets.set_title(
        f"{analysis.policy}: {len(moves)} moves, {outcome}{answer} "
        f"(expected with best play {analysis.expected_start:.2f})"
    )
    width = 0.38
    numbers = [m.turn for m in moves]
    scores.bar(
        [t - width / 2 for t in numbers],
        [m.skill for m in moves],
        width,
        color=SKILL,
        label=f"skill (game {analysis.skill:.0f})",
    )
    scores.bar(
        [t + width / 2 for t in numbers],
        [m.luck for m in moves],
        width,
        color=LUCK,
        label=f"luck (game {analysis.luck:.0f})",
    )
    scores.set_xticks(numbers, [f"{m.turn}\n{m.guess}" for m in moves])
    scores.set_ylim(0, 125)  # room above the bars for the legend
    scores.set_yticks(range(0, 101, 25))
    scores.set_ylabel("0-100")
    scores.grid(True, axis="y", alpha=0.3)
    scores.legend(loc="upper center", ncols=2)
    return figure


def analysis_svg(analysis: GameAnalysis) -> bytes:
    """Return the analysis figure (:func:`analysis_figure`) as SVG text, for the page.

    Raises:
        PlotError: matplotlib is not installed.
    """
    figure = analysis_figure(analysis)
    written = io.BytesIO()
    try:
        figure.savefig(written, format="svg", dpi=DPI)
    finally:
        pyplot().close(figure)
    return written.getvalue()


def save_analysis_plot(analysis: GameAnalysis, path: str | Path) -> None:
    """Draw :func:`analysis_figure` into ``path`` (.png, .svg or .pdf).

    Raises:
        PlotError: matplotlib is missing, an unknown suffix, or an unwritable path.
    """
    picture_format(path)  # before drawing: a wrong name costs nothing
    save(analysis_figure(analysis), path)
