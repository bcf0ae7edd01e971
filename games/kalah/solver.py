"""An exact Kalah solver: alpha-beta on the final margin, MTD(f), and a transposition table.

The value of a position is the final margin (mover's store minus the other's) of the side to
move under perfect play by both sides. The rest of the game depends on the pits alone, not on
the stores, so the table is keyed on the pits seen from the mover and holds bounds on the margin
still to come (the value less the mover's store lead): one entry serves every split of the
stores and either side to move. ``solve_python`` searches the packed ints of ``rules``
(the reference); ``solve_compiled`` runs the same search, node for node, compiled over the
kernels' rows (games/kalah/solverkernels.py), and stays interruptible by signals (``--time``,
Ctrl-C) however long it runs. ``solve`` takes the compiled one when the compiled path is
enabled (``mindgames.compiled.enabled``: numba imports and the environment variable
``MINDGAMES_PYTHON_PATH`` is unset, empty or ``0``). ``solve_all`` solves a batch with one
table carried from solve to solve (every entry is a true bound on what is left of the game from
its pits, whichever position it was found from): ``data solve``'s chunks (``Kalah.solve_many``).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from mindgames.games.kalah.engine import sow
from mindgames.games.kalah.rules import Kalah, KalahState


@attrs.frozen
class Solution:
    value: int  # final margin for the side to move
    south_margin: int  # the same value from South's (the first player's) point of view
    best_moves: tuple[int, ...]
    nodes: int
    seconds: float


#: the compiled solver's first frames (plies); they double when a game goes deeper
FIRST_DEPTH = 256
#: the compiled solver's largest table (rows of 40-64 bytes, 48 for six pits): about 0.8 GB
MAX_ROWS = 1 << 24
#: how often (seconds) the caller looks for signals while a threaded solve runs
POLL_SECONDS = 0.05
#: nodes between two looks at the node budget, less one (``solverkernels.CHECK_EVERY``): both
#: solvers give up at the same node
CHECK_EVERY = (1 << 12) - 1


class OverBudget(Exception):
    """A solve that the node budget stopped before it found the value."""


def solve(game: Kalah, state: KalahState, *, budget: int = 0) -> Solution:
    """Solve ``state`` exactly: compiled when it can (module docstring), else in Python.

    ``budget`` (0: none) is a node budget: past it, checked every ``CHECK_EVERY + 1`` nodes,
    the solve stops with ``OverBudget`` (at the same node on both paths).
    """
    from mindgames import compiled

    if compiled.enabled():
        return solve_compiled(game, state, budget=budget)
    return solve_python(game, state, budget=budget)


def solve_all(game: Kalah, states: Sequence[KalahState]) -> list[Solution]:
    """Solve ``states`` in turn with one table carried from each solve to the next: the same
    values and best moves as ``solve`` one by one, fewer nodes when the positions share
    subtrees (a position and its successors, as ``data generate --successors`` groups them).
    Compiled when it can, as ``solve``."""
    from mindgames import compiled

    if compiled.enabled():
        return solve_all_compiled(game, states)
    table: dict[int, tuple[int, int]] = {}
    return [solve_python(game, state, table=table) for state in states]


def solve_compiled(
    game: Kalah, state: KalahState, *, max_rows: int = MAX_ROWS, budget: int = 0
) -> Solution:
    """``solve_python``'s search compiled: the same value, best moves and nodes (the nodes may
    exceed Python's once the table holds ``max_rows`` rows, a power of two; solverkernels.py).

    The kernel runs in a thread of its own, without the GIL, while this one waits and handles
    signals: an exception raised by a handler (a time limit, Ctrl-C) stops the kernel and
    propagates. (A signal handled while the kernel's own thread returns from it would surface
    as a SystemError instead.)
    """
    return _solved_in_thread(game, [state], max_rows=max_rows, budget=budget, carry=False)[0]


def solve_all_compiled(
    game: Kalah, states: Sequence[KalahState], *, max_rows: int = MAX_ROWS
) -> list[Solution]:
    """``solve_all`` compiled: one table (``solverkernels.solve_row_with``) for every state."""
    return _solved_in_thread(game, states, max_rows=max_rows, budget=0, carry=True)


def _solved_in_thread(
    game: Kalah, states: Sequence[KalahState], *, max_rows: int, budget: int, carry: bool
) -> list[Solution]:
    """Solve ``states`` in a kernel thread (``solve_compiled``), the table carried from one to
    the next or not."""
    from mindgames.games.kalah.solverkernels import BUDGET, C_STOP, DEEP, new_table, solve_row_with

    gk = game.kernels()
    rows = [gk.to_row(state) for state in states]
    control = np.array([budget, 0, max_rows], dtype=np.int64)  # node budget, not stopped
    found: list[tuple[int, int, np.ndarray, float]] = []
    failed: list[BaseException] = []

    def one(row: np.ndarray, tt: np.ndarray, entries: int) -> tuple[Any, ...]:
        """Solve ``row`` from ``tt`` (holding ``entries``); a try that runs out of frames starts
        again with twice the plies, from a fresh table unless it is carried (then node for node
        as Python)."""
        depth = FIRST_DEPTH
        while True:
            outcome, value, nodes, best, tt, entries = solve_row_with(
                gk.params, row, depth, control, tt, entries
            )
            if outcome != DEEP:
                return outcome, value, nodes, best, tt, entries
            depth *= 2
            if not carry:
                tt, entries = new_table(gk.params), 0

    def work() -> None:
        try:
            tt, entries = new_table(gk.params), 0
            for k, row in enumerate(rows):
                if k and not carry:
                    tt, entries = new_table(gk.params), 0
                began = time.perf_counter()
                outcome, value, nodes, best, tt, entries = one(row, tt, entries)
                if outcome == BUDGET:
                    raise OverBudget(f"no value within {budget} nodes")
                found.append((value, nodes, best, time.perf_counter() - began))
        except BaseException as error:  # handed to the waiting thread
            failed.append(error)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_SECONDS)
    except BaseException:
        control[C_STOP] = 1
        worker.join()
        raise
    if failed:
        raise failed[0]
    out = []
    for state, (value, nodes, best, seconds) in zip(states, found, strict=True):
        south = int(value) if state[1] == 0 else -int(value)
        out.append(Solution(int(value), south, tuple(int(b) for b in best), int(nodes), seconds))
    return out


def solve_python(
    game: Kalah,
    state: KalahState,
    *,
    budget: int = 0,
    table: dict[int, tuple[int, int]] | None = None,
) -> Solution:
    """Solve ``state`` exactly in pure Python (the reference); ``budget`` as in ``solve``;
    ``table`` a transposition table carried over from earlier solves (``solve_all``)."""
    t = game.t
    empty_capture = game.empty_capture
    b, mask, m = t.bits, t.mask, t.pits
    total = sum(t.unpack(state[0]))  # a study position may hold fewer seeds than the start
    all_pits, stores, offsets = t.all_pits, t.store, t.offset
    shifts = t.shift
    theirs_at, my_pits = shifts[offsets[1]], t.pit_mask[0]
    tt: dict[int, tuple[int, int]] = {} if table is None else table
    nodes = 0
    inf = total + 1

    def children(pos: int, side: int) -> list[tuple[int, int, int]]:
        out = []
        off = offsets[side]
        store = stores[side]
        for i in range(off, off + m):
            s = (pos >> (i * b)) & mask
            if s:
                npos, nside = sow(t, pos, side, i, s, empty_capture)
                gain = ((npos >> shifts[store]) & mask) - ((pos >> shifts[store]) & mask)
                # extra turns first, then the largest immediate gain
                out.append((0 if nside == side else 1, -gain, npos, nside, i - off + 1))
        out.sort()
        return [(npos, nside, move) for _, _, npos, nside, move in out]

    def ab(pos: int, side: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if budget and not nodes & CHECK_EVERY and nodes > budget:
            raise OverBudget(f"no value within {budget} nodes")
        mine = (pos >> shifts[stores[side]]) & mask
        theirs = (pos >> shifts[stores[1 - side]]) & mask
        if not pos & all_pits:
            return mine - theirs
        rest = total - mine - theirs
        if mine - theirs + rest <= alpha:
            return mine - theirs + rest
        if mine - theirs - rest >= beta:
            return mine - theirs - rest
        # the pits from the mover's side: the rest of the game's margin depends on them alone,
        # so the table holds bounds on it, good for any split of the stores and either side
        if side == 0:
            key = pos & all_pits
        else:
            key = ((pos >> theirs_at) & my_pits) | ((pos & my_pits) << theirs_at)
        here = mine - theirs
        lo, hi = -inf, inf
        if key in tt:
            rest_lo, rest_hi = tt[key]
            lo, hi = max(-inf, rest_lo + here), min(inf, rest_hi + here)
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a, bb = max(alpha, lo), min(beta, hi)
        best = -inf
        for npos, nside, _ in children(pos, side):
            if nside == side:
                v = ab(npos, nside, max(a, best), bb)
            else:
                v = -ab(npos, nside, -bb, -max(a, best))
            if v > best:
                best = v
                if best >= bb:
                    break
        if best <= a:
            hi = min(hi, best)
        elif best >= bb:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo - here, hi - here)
        return best

    def mtdf(pos: int, side: int, guess: int) -> int:
        lower, upper, g = -inf, inf, guess
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = ab(pos, side, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        return g

    start = time.perf_counter()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20 * total + 1000))
    try:
        pos, side = state[0], state[1]
        value = mtdf(pos, side, 0)
        best = []
        for npos, nside, move in children(pos, side):
            if nside == side:
                ok = ab(npos, nside, value - 1, value) >= value
            else:
                ok = -ab(npos, nside, -value, -value + 1) >= value
            if ok:
                best.append(move)
    finally:
        sys.setrecursionlimit(old_limit)
    seconds = time.perf_counter() - start
    south = value if side == 0 else -value
    return Solution(value, south, tuple(best), nodes, seconds)
