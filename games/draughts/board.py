"""The board picture of a draughts position (``mindgames.board``): 8x8, squares 1-32.

Drawn as the terminal ``render`` draws it: square 1 at the top right of Black's side, Black's men
(squares 1-12 at the start) at the top. A move's clicks are its squares in order: 11-15 is
("11", "15"), the capture 15x22x29 is ("15", "22", "29").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mindgames.board import Board, Cell
from mindgames.games.draughts.engine import SQ, SQUARE_AT


def board(state: tuple[Any, ...]) -> Board:
    """Every square of the board; the playing squares keyed by their number."""
    black, white, kings = state[0], state[1], state[2]
    cells = []
    for row in range(8):
        for col in range(8):
            square = SQUARE_AT.get((row, col))
            if square is None:
                cells.append(Cell("", row, col, "light"))
                continue
            mask = SQ[square]
            piece = 0 if mask & black else 1 if mask & white else None
            cells.append(
                Cell(
                    str(square),
                    row,
                    col,
                    "dark",
                    label=str(square),
                    piece=piece,
                    king=bool(mask & kings) and piece is not None,
                )
            )
    return Board(8, 8, tuple(cells))


def move_cells(move: Sequence[int]) -> tuple[str, ...]:
    """The squares a move goes through, as cell keys."""
    return tuple(str(square) for square in move)
