"""Kalah(m, n) rules on a position packed into one Python int.

The packed board, its tables, sowing and perft are in ``engine.py``.

A state is ``(packed, side, plies)``: side 0 is South (moves first). A terminal state has every
seed in a store. Moves are pit numbers 1..m counted from the mover's left (pit 1 is farthest
from the mover's store).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.board import Board
from mindgames.errors import IllegalMoveError, NotationError
from mindgames.game import Game, outcome_text
from mindgames.games.kalah import rows
from mindgames.games.kalah.board import board as board_picture
from mindgames.games.kalah.board import move_cells as move_pit
from mindgames.games.kalah.engine import Tables, perft, sow, sweep, tables
from mindgames.kernels import GameKernels

KalahState = tuple[int, int, int]

_NUMBER = re.compile(r"-?[0-9]{1,6}")
#: ``fields_batch`` unpacks with numpy from this many states on (fewer: Python is faster)
BATCH_FROM = 10


def _count(text: str) -> int:
    """A seed count or pit number: ASCII digits, perhaps a minus (no plus, underscore or space)."""
    t = text.strip()
    if not _NUMBER.fullmatch(t):
        raise ValueError(t)
    return int(t)


def _positive(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{attribute.name} must be a positive integer, got {value!r}")
    if (attribute.name == "pits" and value > 16) or (attribute.name == "seeds" and value > 32):
        raise ValueError(f"{attribute.name}={value} is larger than mindgames supports")


@attrs.frozen
class Kalah(Game):
    """Kalah with ``pits`` per side and ``seeds`` per pit; South moves first.

    ``empty_capture``: whether a last seed in an own empty pit captures even when the opposite
    pit is empty (the variant of Irving, Donkers and Uiterwijk's solution).
    """

    name = "kalah"
    player_names = ("South", "North")

    pits: int = attrs.field(default=6, validator=_positive)
    seeds: int = attrs.field(default=4, validator=_positive)
    empty_capture: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    #: the size's tables, looked up once (not a parameter: left out of init, repr and equality)
    _tables: Tables = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_tables", tables(self.pits, self.seeds))

    @property
    def t(self) -> Tables:
        return self._tables

    # --- rules -----------------------------------------------------------------------------
    def initial_state(self) -> KalahState:
        t = self.t
        fields = [self.seeds] * t.fields
        fields[t.store[0]] = fields[t.store[1]] = 0
        return (t.pack(fields), 0, 0)

    def to_move(self, state: KalahState) -> int:
        return state[1]

    def legal_moves(self, state: KalahState) -> tuple[int, ...]:
        pos, side, _ = state
        t = self.t
        b, mask, off = t.bits, t.mask, t.offset[side]
        return tuple(i + 1 for i in range(t.pits) if (pos >> ((off + i) * b)) & mask)

    def play(self, state: KalahState, move: Any) -> KalahState:
        pos, side, plies = state
        t = self.t
        if not isinstance(move, int) or isinstance(move, bool) or not 1 <= move <= t.pits:
            raise IllegalMoveError(f"kalah move must be a pit number 1-{t.pits}, got {move!r}")
        start = t.offset[side] + move - 1
        seeds = (pos >> t.shift[start]) & t.mask
        if not seeds or not pos & t.all_pits:
            raise IllegalMoveError(f"pit {move} is empty" if seeds == 0 else "game is over")
        npos, nside = sow(t, pos, side, start, seeds, self.empty_capture)
        return (npos, nside, plies + 1)

    def children(self, state: KalahState) -> list[tuple[int, KalahState]]:
        """Every legal move with its successor, sown in one pass (``sow`` inlined for speed)."""
        pos, side, plies = state
        t = self._tables
        mask, south, north = t.mask, t.pit_mask[0], t.pit_mask[1]
        store = t.store[side]
        unit = 1 << t.shift[store]
        captures = t.captures[side]
        other = 1 - side
        empty_capture = self.empty_capture
        plies += 1
        out = []
        for move, shift, deltas, lasts in t.sowings[side]:
            s = (pos >> shift) & mask
            if not s:
                continue
            npos = pos + deltas[s]
            land = lasts[s]
            if land == store:
                nside = side  # an extra turn
            else:
                nside = other
                capture = captures[land]
                if capture is not None and (npos >> capture[0]) & mask == 1:
                    at, opposite = capture
                    o = (npos >> opposite) & mask
                    if o or empty_capture:
                        npos += (1 + o) * unit - (1 << at) - (o << opposite)
            if not npos & south or not npos & north:
                npos = sweep(t, npos)
            out.append((move, (npos, nside, plies)))
        return out

    def is_terminal(self, state: KalahState) -> bool:
        return not state[0] & self._tables.all_pits

    def margin(self, state: KalahState) -> int:
        """South's store minus North's (the final margin once the game is over)."""
        t = self.t
        pos = state[0]
        return ((pos >> t.shift[t.store[0]]) & t.mask) - ((pos >> t.shift[t.store[1]]) & t.mask)

    def returns(self, state: KalahState) -> tuple[float, float]:
        m = self.margin(state)
        if m == 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if m > 0 else (-1.0, 1.0)

    def progress(self, state: KalahState) -> int:
        return state[2]

    def solve(self, state: KalahState) -> int:
        """The exact final store margin for the side to move (``solver.solve``)."""
        from mindgames.games.kalah.solver import solve

        return solve(self, state).value

    def solve_many(self, states: Sequence[KalahState]) -> list[int]:
        """``solve`` of each state with one table for them all (``SolvesMany``;
        ``solver.solve_all``): a position's successors then cost little more than it."""
        from mindgames.games.kalah.solver import solve_all

        return [solution.value for solution in solve_all(self, states)]

    def solve_best(self, state: KalahState) -> tuple[int, tuple[int, ...]]:
        """The exact margin for the side to move and every pit that keeps it, from one solve
        (``SolvesBestMoves``: the best moves of ``solver.solve``, one table)."""
        from mindgames.games.kalah.solver import solve

        solution = solve(self, state)
        return solution.value, tuple(sorted(solution.best_moves))

    def kernels(self) -> GameKernels:
        """The compiled path's description (``HasKernels``; games/kalah/kernelinfo.py): every
        size and both capture rules have kernels."""
        from mindgames.games.kalah.kernelinfo import game_kernels

        return game_kernels(self)

    def pieces(self, state: KalahState) -> int:
        """Seeds left in the pits (``CountsPieces``): how much of the game is still to play."""
        t = self.t
        fields = t.unpack(state[0])
        return sum(fields) - fields[t.store[0]] - fields[t.store[1]]

    def search_key(self, state: KalahState) -> tuple[int, int]:
        return state[0], state[1]

    def perft(self, state: KalahState, depth: int) -> int:
        if depth == 0:
            return 1
        return perft(self.t, state[0], state[1], depth, self.empty_capture)

    def known_perft(self) -> Sequence[tuple[str | None, Sequence[int]]]:
        """OpenSpiel mancala's counts for Kalah(6, 4) (the conformance suite checks them)."""
        if (self.pits, self.seeds, self.empty_capture) != (6, 4, False):
            return []
        return [(None, (6, 35, 185, 942, 4690))]

    # --- text ------------------------------------------------------------------------------
    def move_text(self, state: KalahState, move: Any) -> str:
        return str(move)

    def parse_move(self, state: KalahState, text: str) -> int:
        try:
            move = _count(text)
        except (ValueError, AttributeError):
            raise NotationError(
                f"bad kalah move {text!r}: expected a pit number 1-{self.pits}"
            ) from None
        if move not in self.legal_moves(state):
            raise IllegalMoveError(
                f"pit {move} is not a legal move (legal: "
                f"{', '.join(map(str, self.legal_moves(state))) or 'none'})"
            )
        return move

    def position_text(self, state: KalahState) -> str:
        t = self.t
        f = t.unpack(state[0])
        m = t.pits
        south = ",".join(map(str, f[0:m]))
        north = ",".join(map(str, f[m + 1 : 2 * m + 1]))
        return f"{south};{f[m]};{north};{f[2 * m + 1]};{'SN'[state[1]]}"

    def parse_position(self, text: str, *, check_total: bool = False) -> KalahState:
        """Parse ``south pits;south store;north pits;north store;side`` (S or N).

        A position may hold fewer seeds than the game starts with (a study position), never
        more; ``check_total`` demands exactly the starting total.
        """
        m = self.pits
        if not isinstance(text, str):
            raise NotationError(f"a kalah position must be text, got {text!r}")
        parts = text.strip().split(";")
        if len(parts) != 5:
            raise NotationError(
                f"bad kalah position {text!r}: expected 5 fields separated by ';' "
                "(south pits;south store;north pits;north store;S|N)"
            )
        try:
            south = [_count(x) for x in parts[0].split(",")]
            north = [_count(x) for x in parts[2].split(",")]
            stores = [_count(parts[1]), _count(parts[3])]
        except ValueError:
            raise NotationError(
                f"bad kalah position {text!r}: seed counts must be non-negative whole numbers"
            ) from None
        if len(south) != m or len(north) != m:
            raise NotationError(
                f"bad kalah position {text!r}: expected {m} pits a side, got "
                f"{len(south)} and {len(north)}"
            )
        fields = [*south, stores[0], *north, stores[1]]
        if any(v < 0 for v in fields):
            raise NotationError(f"bad kalah position {text!r}: negative seed count")
        if sum(fields) > 2 * m * self.seeds or (check_total and sum(fields) != 2 * m * self.seeds):
            raise NotationError(
                f"bad kalah position {text!r}: {sum(fields)} seeds, Kalah({m},{self.seeds}) "
                f"has {2 * m * self.seeds}"
            )
        side = parts[4].strip().upper()
        if side not in ("S", "N"):
            raise NotationError(f"bad kalah position {text!r}: side to move must be S or N")
        t = self.t
        pos = t.pack(fields)
        if not pos & t.pit_mask[0] or not pos & t.pit_mask[1]:
            pos = sweep(t, pos)
        return (pos, "SN".index(side), 0)

    def render(self, state: KalahState) -> str:
        """The board as South sees it, each row's pits numbered as its owner types them: from
        the owner's left, so North's pit 1 is on South's right. Stores at the ends."""
        f = self.t.unpack(state[0])
        m = self.pits
        width = max(2, len(str(max(f))))

        def row(values: Any) -> str:
            return " ".join(f"{v:>{width}}" for v in values)

        north = row(reversed(f[m + 1 : 2 * m + 1]))
        south = row(f[0:m])
        inner = " " * len(north)
        return "\n".join(
            [
                f"{'pit':>{width + 1}}  {row(range(m, 0, -1))}   North",
                f"{'':>{width + 1}}  {north}",
                f"{f[2 * m + 1]:>{width + 1}}  {inner}  {f[m]}",
                f"{'':>{width + 1}}  {south}",
                f"{'pit':>{width + 1}}  {row(range(1, m + 1))}   South",
                self._status(state),
            ]
        )

    def _status(self, state: KalahState) -> str:
        """The last line of ``render``: who is to move, or how the game ended."""
        if self.is_terminal(state):
            return f"game over: {outcome_text(self, state)}"
        return f"{'South' if state[1] == 0 else 'North'} to move (pits 1-{self.pits})"

    def board(self, state: KalahState) -> Board:
        """The position as a board picture (``mindgames.board.DrawsBoard``)."""
        return board_picture(self.t.unpack(state[0]), self.pits)

    def move_cells(self, state: KalahState, move: int) -> tuple[str, ...]:
        """The pit the mover clicks to sow ``move``."""
        return move_pit(state[1], move)

    # --- states as rows (``StateRows``, games/kalah/rows.py): lockstep self-play ------------
    def state_rows(self, states: Sequence[KalahState]) -> np.ndarray:
        return rows.state_rows(self._tables, states)

    def row_state(self, row: np.ndarray) -> KalahState:
        return rows.row_state(self._tables, row)

    def row_children(
        self, states: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return rows.row_children(rows.row_tables(self._tables), states, self.empty_capture)

    def rows_over(self, states: np.ndarray) -> np.ndarray:
        return rows.rows_over(rows.row_tables(self._tables), states)

    def row_sides(self, states: np.ndarray) -> np.ndarray:
        return states[..., self._tables.fields] & 1

    # --- helpers for encodings ------------------------------------------------------------
    def fields_from_mover(self, state: KalahState) -> list[int]:
        """Fields seen from the side to move: my pits, my store, their pits, their store."""
        t = self._tables
        pos, mask = state[0], t.mask
        return [(pos >> s) & mask for s in t.view_shifts[state[1]]]

    def fields_batch(self, states: Sequence[KalahState]) -> np.ndarray:
        """``fields_from_mover`` of many states as one integer array, a row per state.

        A few states by shifts in Python; from ``BATCH_FROM`` on, every packed int's bytes
        unpacked at once by numpy (lockstep self-play values many successors per step).
        """
        t = self._tables
        if len(states) < BATCH_FROM:
            mask, views = t.mask, t.view_shifts
            return np.array(
                [[(p >> s) & mask for s in views[side]] for p, side, _ in states], dtype=np.int64
            )
        n, size = len(states), t.bytes
        raw = np.frombuffer(b"".join([s[0].to_bytes(size, "little") for s in states]), np.uint8)
        bits = np.unpackbits(raw.reshape(n, size), axis=1, bitorder="little")
        f = bits[:, : t.fields * t.bits].reshape(n, t.fields, t.bits).dot(t.powers)
        sides = np.fromiter([s[1] for s in states], dtype=np.intp, count=n)
        return np.take_along_axis(f, t.view_order[sides], axis=1)
