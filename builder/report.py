"""``guesswork-build report``: policies drawn rather than tabled, as HTML or one PNG.

For one or more policies it draws the guess-count histogram of each, side by
side (the share of targets solved in exactly n guesses), and the cumulative
"solved within n guesses" curves; for a single policy also the first two
levels of its tree: the first guess, then for its largest reply branches the
reply, the next guess, the targets the branch holds and the mean guesses
they take. ``--output FILE.html`` writes a self-contained page (a table of the
policies and the pictures, embedded as base64 PNG); ``FILE.png`` one figure
of every panel. Sizes are fixed (client.plots draws at 100 dots per inch):
see :data:`SIZES`. matplotlib comes with the ``plots`` extra.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..client.catalog import open_store
from ..client.games import code_to_colours
from ..client.plots import DPI, PlotError, pyplot
from ..client.probe import Policy
from ..client.progress import say
from ..client.text import plural
from .command_types import Outcome
from .files import replace_file
from .optimal.certificate import node_masses
from .verify import subtree_values

#: Figure sizes in inches (pixels: x 100): the HTML's pictures, and the one PNG
#: of several policies or of one (which adds its tree below the two charts).
SIZES = {
    "histogram": (8.0, 5.0),
    "cumulative": (8.0, 5.0),
    "tree": (16.0, 8.0),
    "png": (16.0, 6.0),
    "png-one": (16.0, 14.0),
}
#: Reply branches drawn under the first guess (the largest; the rest are summed up).
TREE_BRANCHES = 16
#: One colour per policy (Okabe-Ito, then matplotlib's defaults).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
#: Wordle's reply colours: miss, yellow, green (the NYT's).
SQUARES = ("#787C7E", "#C9B458", "#6AAA64")


@dataclass(frozen=True)
class Picture:
    """One written picture: its name and its size in pixels."""

    name: str
    width: int
    height: int


def _histogram(policy: Policy) -> dict[int, float]:
    """Return each score's share of the targets, or for a policy weighted by a prior
    its probability (the chance a secret drawn by the prior takes that many guesses)."""
    if "probabilities" in policy.stats and policy.data.prior is not None:
        return {int(n): float(p) for n, p in policy.stats["probabilities"]}
    return {int(n): float(count) for n, count in policy.stats["histogram"]}


def _masses(policy: Policy) -> np.ndarray:
    """Return each node's targets' weight (their number when every target is alike)."""
    arrays = policy.data.numpy_arrays()
    return node_masses(
        arrays["node_size"],
        arrays["node_first"],
        arrays["target_order"],
        policy.data.numpy_weights(),
    )


def _colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def draw_histograms(axes: Any, policies: Sequence[Policy]) -> None:
    """Draw each policy's share of targets solved in exactly n guesses, bars side by side."""
    counts = [_histogram(policy) for policy in policies]
    guesses = range(1, max(max(c) for c in counts) + 1)
    width = 0.8 / len(policies)
    for index, (policy, histogram) in enumerate(zip(policies, counts, strict=True)):
        total = sum(histogram.values())
        offset = (index - (len(policies) - 1) / 2) * width
        shares = [100 * histogram.get(n, 0) / total for n in guesses]
        bars = axes.bar(
            [n + offset for n in guesses],
            shares,
            width,
            color=_colour(index),
            label=f"{policy.name} (mean {policy.stats['mean']:.3f})",
        )
        if len(policies) <= 3:
            labels = [f"{share:.0f}" if share >= 0.5 else "" for share in shares]
            axes.bar_label(bars, labels, fontsize=7, padding=1)
    top = max(100 * max(h.values()) / sum(h.values()) for h in counts)
    axes.set_ylim(0, top * 1.25)  # room for the bars' labels and the legend
    axes.set_xticks(list(guesses))
    axes.set_xlabel("guesses")
    axes.set_ylabel("targets solved in exactly n guesses (%)")
    axes.set_title("How many guesses each target takes")
    axes.grid(True, axis="y", alpha=0.3)
    axes.legend(fontsize=8, loc="upper right")


def draw_cumulative(axes: Any, policies: Sequence[Policy]) -> None:
    """Draw each policy's share of targets solved within n guesses, as a step curve."""
    worst = max(int(policy.stats["worst"]) for policy in policies)
    for index, policy in enumerate(policies):
        histogram = _histogram(policy)
        total = sum(histogram.values())
        within = np.cumsum([histogram.get(n, 0) for n in range(worst + 1)]) * 100 / total
        axes.step(
            range(worst + 1),
            within,
            where="post",
            color=_colour(index),
            linewidth=2,
            label=f"{policy.name} (worst {policy.stats['worst']})",
        )
    if all(policy.game.coloured_replies for policy in policies) and worst >= 6:
        axes.axvline(6, color="grey", linestyle=":", linewidth=1)
        axes.text(6.08, 45, "the NYT's six", color="grey", fontsize=8, rotation=90)
    axes.set_xticks(range(worst + 1))
    axes.set_xlim(0.5, worst + 0.5)
    axes.set_ylim(0, 102)
    axes.set_xlabel("guesses")
    axes.set_ylabel("targets solved within n guesses (%)")
    axes.set_title("Solved within n guesses")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8, loc="lower right")


def _branches(policy: Policy) -> list[tuple[int, int, int]]:
    """Return the root's reply branches as (reply code, child node, child size), largest first."""
    arrays = policy.data.arrays
    start, stop = int(arrays["edge_offsets"][0]), int(arrays["edge_offsets"][1])
    rows = [
        (int(code), int(child), int(arrays["node_size"][child]))
        for code, child in zip(
            arrays["edge_reply"][start:stop], arrays["edge_child"][start:stop], strict=True
        )
    ]
    return sorted(rows, key=lambda row: (-row[2], row[0]))


def draw_tree(axes: Any, policy: Policy) -> None:
    """Draw the first two levels of ``policy``'s tree: the first guess, and its
    :data:`TREE_BRANCHES` largest reply branches, each with its next guess, its
    targets (a bar) and the mean guesses they take from the start."""
    axes.set_axis_off()
    branches = _branches(policy)
    shown = branches[:TREE_BRANCHES]
    rows = len(shown) + 2
    axes.set_xlim(0, 100)
    axes.set_ylim(0, rows)
    # Data units per inch on each axis, so that squares come out square.
    box = axes.get_position()
    width_in, height_in = axes.figure.get_size_inches()
    x_per_inch = 100 / (box.width * width_in)
    y_per_inch = rows / (box.height * height_in)
    # Weighted totals over the nodes' weights: means under a prior where there is one.
    totals, masses = subtree_values(policy, "total"), _masses(policy)
    size = policy.remaining_count(policy.root)
    top = rows - 1
    middle = top - (len(shown) - 1) / 2
    axes.text(
        8,
        middle,
        f"{policy.guess(policy.root)}\n{plural(size, 'target', grouped=True)}\n"
        f"mean {totals[0] / masses[0]:.3f}",
        ha="center",
        va="center",
        fontsize=13,
        fontweight="bold",
        bbox={"boxstyle": "round,pad=0.6", "fc": "#EEF3FA", "ec": "#0072B2"},
    )
    largest = shown[0][2] if shown else 1
    game = policy.game
    for row, (code, child, child_size) in enumerate(shown):
        y = top - row
        axes.plot(
            [15, 23],
            [middle, y],
            color="#999999",
            linewidth=0.5 + 5 * child_size / largest,
            solid_capstyle="round",
        )
        if game.coloured_replies:
            side = 0.18  # inches
            for position, colour in enumerate(code_to_colours(code, game.length)):
                axes.add_patch(
                    pyplot().Rectangle(
                        (24 + position * side * 1.15 * x_per_inch, y - side * y_per_inch / 2),
                        side * x_per_inch,
                        side * y_per_inch,
                        color=SQUARES[colour],
                    )
                )
        else:
            reply = game.reply_caption(code)
            axes.text(24, y, reply, va="center", fontsize=10, family="monospace")
        # The targets of the branch need the root's guess and then its subtree's mean.
        mean = 1 + totals[child] / masses[child]
        axes.text(36, y, f"→ {policy.guess(child)}", va="center", fontsize=11, fontweight="bold")
        axes.barh(y, 40 * child_size / largest, height=0.55, left=50, color="#0072B2", alpha=0.35)
        axes.text(
            51,
            y,
            f"{plural(child_size, 'target')}, mean {mean:.2f} guesses",
            va="center",
            fontsize=9,
        )
    rest = branches[len(shown) :]
    won = size - sum(child_size for _, _, child_size in branches)
    notes = []
    if rest:
        held = sum(child_size for _, _, child_size in rest)
        notes.append(f"+ {plural(len(rest), 'smaller branch')} holding {plural(held, 'target')}")
    if won:
        notes.append(f"{plural(won, 'target')} solved by the first guess itself")
    axes.text(24, 0.4, "; ".join(notes), fontsize=9, color="#555555", va="center")
    which = (
        plural(len(shown), "reply branch")
        if not rest
        else f"{plural(len(shown), 'largest reply branch')} (of {len(branches)})"
    )
    axes.set_title(f"{policy.name}: the first guess and its {which}", loc="left")


def _png(figure: Any) -> tuple[bytes, Picture]:
    """Return ``figure`` as PNG bytes and its size, and close it."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    width, height = figure.get_size_inches()
    pyplot().close(figure)
    return buffer.getvalue(), Picture("", round(width * DPI), round(height * DPI))


def report_png(policies: Sequence[Policy]) -> tuple[bytes, Picture]:
    """Return the report as one PNG: the two charts side by side, and for a single
    policy its tree below them.

    Raises:
        PlotError: matplotlib is not installed.
    """
    plt = pyplot()
    one = len(policies) == 1
    figure = plt.figure(figsize=SIZES["png-one" if one else "png"], dpi=DPI)
    # Fixed axes rectangles (figure fractions): the tree needs to know its geometry.
    low = 0.58 if one else 0.1
    high = 0.93 if one else 0.88
    draw_histograms(figure.add_axes((0.05, low, 0.42, high - low)), policies)
    draw_cumulative(figure.add_axes((0.55, low, 0.42, high - low)), policies)
    if one:
        draw_tree(figure.add_axes((0.02, 0.02, 0.96, 0.46)), policies[0])
    names = ", ".join(policy.name for policy in policies)
    figure.suptitle(f"Guesswork report: {names}", fontsize=13)
    data, picture = _png(figure)
    return data, Picture("report", picture.width, picture.height)


def report_pictures(policies: Sequence[Policy]) -> list[tuple[bytes, Picture]]:
    """Return the HTML report's pictures as PNG bytes: the histograms, the cumulative
    curves and (one policy) its tree.

    Raises:
        PlotError: matplotlib is not installed.
    """
    plt = pyplot()
    drawn: list[tuple[bytes, Picture]] = []
    for name, draw in (("histogram", draw_histograms), ("cumulative", draw_cumulative)):
        figure = plt.figure(figsize=SIZES[name], dpi=DPI)
        draw(figure.add_axes((0.1, 0.11, 0.86, 0.8)), policies)
        data, picture = _png(figure)
        drawn.append((data, Picture(name, picture.width, picture.height)))
    if len(policies) == 1:
        figure = plt.figure(figsize=SIZES["tree"], dpi=DPI)
        draw_tree(figure.add_axes((0.02, 0.02, 0.96, 0.92)), policies[0])
        data, picture = _png(figure)
        drawn.append((data, Picture("tree", picture.width, picture.height)))
    return drawn


def _table(policies: Sequence[Policy]) -> str:
    """Return the HTML table of the policies' figures."""
    header = ("policy", "game", "mode", "metric", "targets", "mean", "worst", "within 6")
    rows = []
    for policy in policies:
        histogram = _histogram(policy)
        total = sum(histogram.values())
        within = 100 * sum(c for n, c in histogram.items() if n <= 6) / total
        cells = (
            policy.name,
            policy.game.name,
            policy.data.mode,
            policy.data.metric,
            f"{total:,}",
            f"{policy.stats['mean']:.4f}",
            str(policy.stats["worst"]),
            f"{within:.1f}%",
        )
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    head = "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"
    return f"<table>\n{head}\n" + "\n".join(rows) + "\n</table>"


_STYLE = (
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
)


def report_html(policies: Sequence[Policy]) -> tuple[str, list[Picture]]:
    """Return the self-contained HTML report (pictures embedded as base64 PNG) and its
    pictures.

    Raises:
        PlotError: matplotlib is not installed.
    """
    pictures = report_pictures(policies)
    names = ", ".join(policy.name for policy in policies)
    images = "\n".join(
        f'<p><img alt="{picture.name}" width="{picture.width}" height="{picture.height}" '
        f'src="data:image/png;base64,{base64.b64encode(data).decode("ascii")}"></p>'
        for data, picture in pictures
    )
    page = (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Guesswork report: {html.escape(names)}</title>\n<style>{_STYLE}</style>\n"
        f"</head>\n<body>\n<h1>Guesswork report</h1>\n{_table(policies)}\n{images}\n"
        f"</body>\n</html>\n"
    )
    return page, [picture for _, picture in pictures]


def write_report(policies: Sequence[Policy], output: str | Path) -> list[Picture]:
    """Write the report of ``policies`` to ``output`` (.html or .png), atomically, and
    return its pictures.

    Raises:
        PlotError: another suffix, matplotlib missing, or the file cannot be written.
    """
    path = Path(output)
    kind = path.suffix.lower()
    if kind not in (".html", ".htm", ".png"):
        raise PlotError(f"{str(output)!r}: a report is written as .html or .png")
    if kind == ".png":
        data, picture = report_png(policies)
        pictures = [picture]
    else:
        page, pictures = report_html(policies)
        data = page.encode("utf-8")
    try:
        replace_file(path, data)
    except OSError as error:
        raise PlotError(f"cannot write {str(output)!r}: {error.strerror or error}") from None
    return pictures


@dataclass(frozen=True)
class ReportOptions:
    """``report``'s options: the catalog read (None: the user's over the shipped one),
    the policies drawn and the file written (.html or .png)."""

    catalog: str | None
    policy: tuple[str, ...]
    output: str


def report(options: ReportOptions) -> Outcome:
    """``guesswork-build report POLICY... --output FILE``: write the report of the policies
    named (from ``--catalog``, default the shipped and the user's).

    Raises:
        PolicyNotFoundError: a policy is not in the catalog.
        PolicyFormatError: the catalog cannot be read.
        PlotError: see :func:`write_report`.
    """
    say(
        f"report: reading and drawing {plural(len(options.policy), 'policy')} into {options.output}"
    )
    with open_store(options.catalog) as catalog:
        policies = [catalog.policy(name.removeprefix("policies/")) for name in options.policy]
        pictures = write_report(policies, options.output)
    data = {
        "output": str(options.output),
        "policies": [policy.name for policy in policies],
        "pictures": [picture.__dict__ for picture in pictures],
    }
    sizes = ", ".join(f"{p.name} {p.width}x{p.height}" for p in pictures)
    return Outcome(data, [f"wrote {options.output}: {plural(len(policies), 'policy')}; {sizes}"])
