"""A board picture (``mindgames.board.Board``) as SVG: one group per cell, keyed for clicks.

Each cell is a ``<g class="cell" data-key=KEY>`` holding its shape, its piece or seed count and
its caption; the page marks groups with CSS classes (selected, target, last move) and sends the
keys of the clicked cells. Text is XML-escaped; the picture is the same for the same board.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from mindgames.board import Board, Cell

#: pixels per grid cell
UNIT = 56
#: fill and edge colours of the two players' pieces (player 0 dark, player 1 light)
PIECE = (("#262626", "#000000"), ("#f4f1e8", "#5a5a5a"))
FILL = {"light": "#efe4c8", "dark": "#8b6b4a", "pit": "#c8a46e", "store": "#b48a52"}


def board_svg(board: Board, last: Iterable[str] = ()) -> str:
    """The SVG text of ``board``; the cells whose keys are in ``last`` are marked as the last
    move's."""
    marked = set(last)
    width, height = board.cols * UNIT, board.rows * UNIT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img">'
    ]
    parts.extend(_cell(cell, cell.key in marked and cell.key != "") for cell in board.cells)
    parts.append("</svg>")
    return "".join(parts)


def _cell(cell: Cell, last: bool) -> str:
    x, y = cell.col * UNIT, cell.row * UNIT
    w, h = cell.width * UNIT, cell.height * UNIT
    classes = ["cell", cell.kind] + (["last"] if last else []) + (["key"] if cell.key else [])
    key = f" data-key={quoteattr(cell.key)}" if cell.key else ""
    out = [f'<g class="{" ".join(classes)}"{key}>']
    if cell.kind in ("pit", "store"):
        out.append(
            f'<rect class="shape" x="{x + 5}" y="{y + 11}" width="{w - 10}" height="{h - 22}" '
            f'rx="{min(w, h - 12) / 2 - 5:g}" fill="{FILL[cell.kind]}"/>'
        )
    else:
        out.append(
            f'<rect class="shape" x="{x}" y="{y}" width="{w}" height="{h}" '
            f'fill="{FILL[cell.kind]}"/>'
        )
    if cell.piece is not None:
        fill, edge = PIECE[cell.piece]
        cx, cy, r = x + w / 2, y + h / 2, UNIT * 0.36
        out.append(
            f'<circle class="piece p{cell.piece}" cx="{cx:g}" cy="{cy:g}" r="{r:g}" '
            f'fill="{fill}" stroke="{edge}" stroke-width="2"/>'
        )
        if cell.king:
            out.append(
                f'<text class="crown" x="{cx:g}" y="{cy + 7:g}" text-anchor="middle" '
                f'font-size="22" fill="{PIECE[1 - cell.piece][0]}">K</text>'
            )
    if cell.count is not None:
        out.append(
            f'<text class="count" x="{x + w / 2:g}" y="{y + h / 2 + 7:g}" text-anchor="middle" '
            f'font-size="20">{cell.count}</text>'
        )
    if cell.label:
        tx, ty, anchor = _caption(cell, x, y, w, h)
        out.append(
            f'<text class="label" x="{tx:g}" y="{ty:g}" text-anchor="{anchor}" '
            f'font-size="11">{escape(cell.label)}</text>'
        )
    out.append("</g>")
    return "".join(out)


def _caption(cell: Cell, x: float, y: float, w: float, h: float) -> tuple[float, float, str]:
    """Where a cell's caption goes: a square's top left corner, a pit's or store's edge."""
    if cell.kind == "pit":  # above North's pits, below South's
        return x + w / 2, (y + h - 1 if cell.row else y + 9), "middle"
    if cell.kind == "store":
        return x + w / 2, y + 9, "middle"
    return x + 3, y + 12, "start"
