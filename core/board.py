"""Board pictures: a game-agnostic description of a position that a viewer draws and clicks.

A game that can be drawn (an optional capability, ``DrawsBoard``) describes a position as a grid
of cells -- squares, pits, stores -- each with a key, and says which cells a move's clicks go
through (``move_cells``: ``("11", "15")`` for checkers' 11-15, ``("S3",)`` for South's pit 3 in
Kalah). ``mindgames serve`` draws the cells as SVG and turns clicks back into moves with the same
keys, so the viewer never knows a concrete game. A game without the capability is shown as its
text rendering with a list of its legal moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import attrs

from mindgames.game import Move, State

#: the cell kinds a viewer knows how to draw
CELL_KINDS = ("light", "dark", "pit", "store")


@attrs.frozen
class Cell:
    """One cell of a board picture at a grid place (``row``, ``col`` from the top left).

    ``key`` is what a click on it stands for ("" for a cell no move uses); ``height`` and
    ``width`` are the grid cells it spans; ``label`` a small caption (a square or pit number);
    ``piece`` the player (0 or 1) whose piece stands on it, ``king`` whether that piece is
    crowned; ``count`` a number drawn in it (seeds in a pit).
    """

    key: str
    row: int
    col: int
    kind: str = attrs.field(default="dark", validator=attrs.validators.in_(CELL_KINDS))
    height: int = 1
    width: int = 1
    label: str = ""
    piece: int | None = None
    king: bool = False
    count: int | None = None


@attrs.frozen
class Board:
    """A picture of a position: a grid of ``rows`` x ``cols`` and the cells on it."""

    rows: int
    cols: int
    cells: tuple[Cell, ...]


@runtime_checkable
class DrawsBoard(Protocol):
    """A game capability (optional): its positions as board pictures, its moves as clicks.

    ``move_cells(state, move)`` lists the keys of the cells a player clicks to make ``move``, in
    order; different legal moves have different lists.
    """

    def board(self, state: State) -> Board: ...

    def move_cells(self, state: State, move: Move) -> Sequence[str]: ...
