"""Draw ``plotdata`` panels with matplotlib (the optional ``plot`` extra) into a PNG or SVG file.

matplotlib is imported only here, with the non-interactive Agg backend, so the rest of
mindgames runs without it; ``require_matplotlib`` turns its absence into one line naming the
extra to install.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mindgames.errors import MindgamesError
from mindgames.files import atomic_write
from mindgames.measure.plotdata import Panel

FORMATS = {".png": "png", ".svg": "svg"}
#: colours of the lines of a panel (matplotlib's default cycle, named so that SVGs are stable)
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
#: line styles taken in turn once the colours are used up, so 21 lines stay told apart
STYLES = ("-", "--", ":")
#: more lines than this in a panel: their legend goes beside it, their bands fade
CROWDED = 4


class MissingExtraError(MindgamesError):
    """An optional dependency that a command needs is not installed."""


def require_matplotlib() -> Any:
    """The ``matplotlib.pyplot`` module on the Agg backend, or one line saying what to install."""
    try:
        import matplotlib
    except ImportError:
        raise MissingExtraError(
            "plot needs matplotlib: install the plot extra (pip install 'mindgames[plot]')"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def image_format(path: str | Path) -> str:
    """``png`` or ``svg`` from the output file's suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise MindgamesError(f"{path}: the output must end in .png or .svg")
    return FORMATS[suffix]


def draw(panels: Sequence[Panel], title: str, out: str | Path) -> int:
    """Draw ``panels`` one under another (two columns when there are more than three) into
    ``out`` atomically; return the number of axes drawn."""
    fmt = image_format(out)
    plt = require_matplotlib()
    cols = 1 if len(panels) <= 3 else 2
    rows = math.ceil(len(panels) / cols)
    fig, grid = plt.subplots(rows, cols, figsize=(7.5 * cols, 3.2 * rows), squeeze=False)
    try:
        axes = list(grid.flat)
        for ax, panel in zip(axes, panels, strict=False):
            _draw_panel(ax, panel)
        for ax in axes[len(panels) :]:
            fig.delaxes(ax)
        fig.suptitle(title)
        fig.tight_layout()
        with atomic_write(out, "wb") as fh:
            fig.savefig(fh, format=fmt, dpi=80, metadata=_metadata(fmt))
        return len(fig.axes)
    finally:
        plt.close(fig)


def _metadata(fmt: str) -> dict[str, Any]:
    """No creation date in an SVG, so the same input gives the same file."""
    return {"Date": None} if fmt == "svg" else {}


def _draw_panel(ax: Any, panel: Panel) -> None:
    if panel.kind == "heatmap":
        _heatmap(ax, panel)
    elif panel.kind == "intervals":
        _intervals(ax, panel)
    else:
        _lines(ax, panel)
    ax.set_title(panel.title, fontsize=10)


def line_style(index: int) -> tuple[str, str]:
    """The colour and line style of a panel's ``index``-th line: colours first, then styles."""
    colour = COLOURS[index % len(COLOURS)]
    return colour, STYLES[(index // len(COLOURS)) % len(STYLES)]


def _lines(ax: Any, panel: Panel) -> None:
    crowded = len(panel.series) > CROWDED
    for i, s in enumerate(panel.series):
        colour, style = line_style(i)
        ax.plot(s.x, s.y, marker="o", markersize=3, label=s.label, color=colour, linestyle=style)
        if s.low is not None and s.high is not None:
            band = "95% interval" if len(panel.series) == 1 else None  # several: in the title
            alpha = 0.05 if crowded else 0.2
            ax.fill_between(s.x, s.low, s.high, alpha=alpha, color=colour, label=band)
    labelled: set[str] = set()
    for x, what in panel.events:
        ax.axvline(
            x,
            linestyle=":",
            color="grey",
            linewidth=1,
            label=None if what in labelled else what,
        )
        labelled.add(what)
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)
    ax.grid(alpha=0.3)
    if crowded:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:
        ax.legend(fontsize=8, loc="best")


def _heatmap(ax: Any, panel: Panel) -> None:
    import numpy as np

    data = np.array([[np.nan if v is None else v for v in row] for row in panel.matrix], float)
    ax.imshow(data, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    n = len(panel.names)
    ax.set_xticks(range(n), panel.names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(n), panel.names, fontsize=8)
    for r in range(n):
        for c in range(n):
            if panel.cells[r][c]:
                score = data[r, c]
                ax.text(
                    c, r, f"{panel.cells[r][c]}\n{score:.2f}", ha="center", va="center", fontsize=7
                )
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)


def _intervals(ax: Any, panel: Panel) -> None:
    s = panel.series[0]
    assert s.low is not None and s.high is not None
    below = [e - lo for e, lo in zip(s.x, s.low, strict=True)]
    above = [hi - e for e, hi in zip(s.x, s.high, strict=True)]
    ax.errorbar(s.x, s.y, xerr=[below, above], fmt="o", capsize=4, color=COLOURS[0])
    ax.set_yticks(s.y, panel.names, fontsize=8)
    ax.invert_yaxis()  # the leader on top
    ax.axvline(0.0, color="grey", linewidth=1, linestyle=":")
    ax.set_xlabel(panel.xlabel)
    ax.grid(axis="x", alpha=0.3)
