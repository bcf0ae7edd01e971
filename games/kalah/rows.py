"""Kalah states as rows of one integer array, and the successors of many states in one numpy
pass (``mindgames.game.StateRows``): lockstep TD self-play sows all its games' moves at once.

A row is the board seen from the side to move, a turn count whose parity is that side, the
plies, and the seeds in the mover's pits and in the other side's::

    my pits 0..m-1, my store m, their pits m+1..2m, their store 2m+1, turns, plies, mine, theirs

so the ``kalah14`` encoding of a row is a scaling of its first 2m+2 columns. Seen from the
mover the rules are the same for both sides: a move is a column ``j < m``, and everything a
sowing of ``s`` seeds from it does, but a capture and the end of the game, depends on
``(j, s)`` alone, hence flat tables indexed ``base[j] + s``: the addition to the row, whether
the turn passes (then the child is the row turned to the other side's view, plus the addition
turned the same way), and where the last seed lands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # rules imports this module
    from mindgames.games.kalah.engine import Tables
    from mindgames.games.kalah.rules import KalahState


class RowTables:
    """The sowing tables of one (pits, seeds) size (module docstring)."""

    def __init__(self, t: Tables) -> None:
        m, n = t.pits, t.fields
        self.pits, self.fields = m, n
        self.mine, self.theirs = n + 2, n + 3  # the columns of the pits' seed totals
        size = t.total + 1
        self.base = np.arange(m, dtype=np.intp) * size
        #: a row turned to the other side's view (their pits, store and total first)
        self.turn = np.array(
            [*range(m + 1, n), *range(m + 1), n, n + 1, n + 3, n + 2], dtype=np.intp
        )
        #: per sowing: the addition to the source row (the row, or the row turned when the
        #: turn passes), whether the turn passes, and the last seed's column in the child
        #: when it lands in an own pit (a capture may follow; else 0, never such a column)
        #: with the column of the pit it faces
        self.delta = np.zeros((m * size, n + 4), dtype=np.int64)
        self.passes = np.zeros(m * size, dtype=bool)
        self.land = np.zeros(m * size, dtype=np.intp)
        self.facing = np.zeros(m * size, dtype=np.intp)
        #: a capture's addition to the child: ``capture + facing seeds * won``
        self.capture = np.zeros((m * size, n + 4), dtype=np.int64)
        self.won = np.zeros((m * size, n + 4), dtype=np.int64)
        for j in range(m):
            board, i = np.zeros(n, dtype=np.int64), j
            for s in range(1, size):
                i = (i + 1) % n
                if i == 2 * m + 1:  # the other side's store is skipped
                    i = 0
                board[i] += 1
                row = np.zeros(n + 4, dtype=np.int64)
                row[:n] = board
                row[j] -= s
                row[n + 1] = 1
                row[n + 2], row[n + 3] = row[:m].sum(), row[m + 1 : 2 * m + 1].sum()
                e = j * size + s
                if i != m:  # the turn passes: the addition in the other side's view
                    row = row[self.turn]
                    row[n] = 1
                    self.passes[e] = True
                    if i < m:  # the capturer's pit, the pit it faces, its store, its seeds
                        at, opposite = i + m + 1, m - 1 - i
                        self.land[e], self.facing[e] = at, opposite
                        self.capture[e, [2 * m + 1, at, n + 3]] = (1, -1, -1)
                        self.won[e, [2 * m + 1, opposite, n + 2]] = (1, -1, -1)
                self.delta[e] = row
        #: the end of a game as a matrix (row times it): each side's pit total added to its
        #: store, the pits and totals emptied, the turns and plies kept
        self.sweep = np.zeros((n + 4, n + 4), dtype=np.int64)
        self.sweep[
            [m, 2 * m + 1, n, n + 1, n + 2, n + 3], [m, 2 * m + 1, n, n + 1, m, 2 * m + 1]
        ] = 1
        self.turned = self.passes.astype(np.intp)  # the same, as a row offset's factor
        self._ranks: dict[int, np.ndarray] = {}

    def ranks(self, count: int) -> np.ndarray:
        """``arange(count)`` as a column, made once per count."""
        ranks = self._ranks.get(count)
        if ranks is None:
            ranks = self._ranks[count] = np.arange(count)[:, None]
        return ranks


_ROW_TABLES: dict[tuple[int, int], RowTables] = {}


def row_tables(t: Tables) -> RowTables:
    """The row tables of ``t``'s size, made once."""
    key = (t.pits, t.total)
    if key not in _ROW_TABLES:
        _ROW_TABLES[key] = RowTables(t)
    return _ROW_TABLES[key]


def state_rows(t: Tables, states: Sequence[KalahState]) -> np.ndarray:
    """Rows of ``states`` (module docstring)."""
    mask, views, m = t.mask, t.view_shifts, t.pits
    out = []
    for p, side, plies in states:
        fields = [(p >> s) & mask for s in views[side]]
        out.append([*fields, side, plies, sum(fields[:m]), sum(fields[m + 1 : 2 * m + 1])])
    return np.array(out, dtype=np.int64).reshape(len(states), t.fields + 4)


def row_state(t: Tables, row: np.ndarray) -> KalahState:
    """The state of one row."""
    n = t.fields
    values = row.tolist()
    side = values[n] & 1
    board = values[:n] if side == 0 else values[t.pits + 1 : n] + values[: t.pits + 1]
    return (t.pack(board), side, values[n + 1])


def row_children(
    rt: RowTables, rows: np.ndarray, empty_capture: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The successor of every move of every row: ``(children, legal, over, passes)``,
    ``children`` shaped (rows, pits, columns), slot ``j`` the sowing of the mover's pit
    ``j + 1``: the legal slots in order are ``Kalah.children``; an empty pit's slot holds no
    state. ``over``: the game ended with that sowing; ``passes``: the side to move changed
    (both only meaningful in legal slots).

    Hot path of lockstep self-play: about thirty numpy calls for all the rows.
    """
    m, n = rt.pits, rt.fields
    count, width = rows.shape
    sowing = rows[:, :m] + rt.base  # each slot's entry in the flat tables
    turned = rt.turned.take(sowing)
    # each child's source: its row (index r) or the row turned (index count + r)
    source = np.concatenate([rows, rows.take(rt.turn, axis=1)])
    kids = source.take(turned * count + rt.ranks(count), axis=0)
    kids += rt.delta.take(sowing, axis=0)
    flat = kids.reshape(-1, width)
    # a last seed alone in an own pit captures it with the opposite pit (if not empty, unless
    # ``empty_capture``): in the child the capturer is the other side. Found with flat
    # indices into the few children concerned, and made by the sowing's capture rows
    own = rt.land.take(sowing).ravel().nonzero()[0]
    if own.size:
        entry = sowing.ravel().take(own)
        start = own * width
        cells = flat.ravel()
        facing = cells.take(start + rt.facing.take(entry))
        alone = cells.take(start + rt.land.take(entry)) == 1
        hit = (alone if empty_capture else alone & (facing > 0)).nonzero()[0]
        if hit.size:
            entry, won = entry.take(hit), facing.take(hit)
            flat[own.take(hit)] += rt.capture.take(entry, axis=0) + won[:, None] * rt.won.take(
                entry, axis=0
            )
    # a side without seeds ends the game: each side's seeds go to its own store (``sweep``)
    over = flat[:, n + 2] * flat[:, n + 3] == 0
    ended = over.nonzero()[0]
    if ended.size:
        flat[ended] = flat.take(ended, axis=0).dot(rt.sweep)
    legal = sowing > rt.base
    return kids, legal, over.reshape(legal.shape), rt.passes.take(sowing)


def rows_over(rt: RowTables, rows: np.ndarray) -> np.ndarray:
    """Whether each row's game is over (every seed in a store)."""
    return (rows[..., rt.mine] == 0) & (rows[..., rt.theirs] == 0)
