"""The board picture of a Kalah position (``mindgames.board``): two rows of pits, two stores.

North's store on the left, South's on the right; South's pits 1..m run left to right on the
bottom row, North's 1..m right to left on the top row (sowing goes counter-clockwise). Pits are
keyed ``S1``..``Sm`` and ``N1``..``Nm``, the stores ``S`` and ``N``; a move is one click on the
mover's pit.
"""

from __future__ import annotations

from mindgames.board import Board, Cell


def board(fields: list[int], pits: int) -> Board:
    """The picture of a position's fields (``Tables.unpack``: South's pits, store, North's...)."""
    m = pits
    cells = [
        Cell("N", 0, 0, "store", height=2, label="North", count=fields[2 * m + 1]),
        Cell("S", 0, m + 1, "store", height=2, label="South", count=fields[m]),
    ]
    for i in range(m):
        cells.append(Cell(f"S{i + 1}", 1, 1 + i, "pit", label=str(i + 1), count=fields[i]))
        cells.append(Cell(f"N{i + 1}", 0, m - i, "pit", label=str(i + 1), count=fields[m + 1 + i]))
    return Board(2, m + 2, tuple(cells))


def move_cells(side: int, move: int) -> tuple[str, ...]:
    """The pit the mover clicks."""
    return (f"{'SN'[side]}{move}",)
