"""The exact Kalah solver compiled (numba): the search of ``solver.solve_python`` move for move
over the kernels' rows (games/kalah/kernels.py), so it finds the same value, the same best
moves and the same node count.

MTD(f) from 0 over a fail-soft alpha-beta on the final margin (the mover's store minus the
other's), a futility cut from the seeds still in the pits, children ordered as the Python
solver sorts them -- extra turns first, then the largest store gain, then the successor's
absolute board (the Python solver's packed int, compared field by field from North's store
down), side and pit (the tuple order of ``solve_python``'s sort) -- and a transposition table
of bounds that keeps every entry, as the Python dict does.

The table is keyed on the pits alone, seen from the mover (mine, then theirs), and holds bounds
on the rest of the game's margin (the final margin less the mover's store lead now): what is
still to come depends on the pits and not on the stores, so one entry serves every split of
the stores and either side to move (a position and its mirror). A bound read at another store
lead is still true, so the value stays exact; this finds 1.5-3 times fewer nodes than a table
of whole boards from 20 seeds in the pits on (benchmarks/bench_kalah_solver.py).

The alpha-beta is a loop over an explicit stack of frames, one a ply (numba's cached recursive
functions crash when loaded from the cache, and a loop may swap its table for a larger one in
the middle of a search). The table is open addressing over one int64 array, a row per entry:
``used, lo, hi, hash``, then the mover's pits packed exactly into ``words`` int64 words (base
``total + 1`` digits, as many as fit in 62 bits a word), so two sets of pits never share an
entry. When it is half full it doubles and every entry moves over: nothing is evicted until it
has ``control[C_ROWS]`` rows; from then on a new entry replaces the one in its home row (the
value stays exact: every entry is a true bound; the node count may then exceed the Python
solver's, whose dict keeps everything). When a game goes deeper than the frames, the search
stops and says so (``DEEP``); the caller starts it again with twice the plies (the search is
then the very same, node for node).

``control`` (int64, written by the caller, read every 4,096 nodes) also holds a node budget
(``C_BUDGET``, 0: none; past it the search stops with ``BUDGET``) and a stop flag (``C_STOP``:
another thread sets it and the search stops with ``STOPPED``). ``solve_row`` runs without the
GIL, so the caller can wait in Python, where signals (a time limit, Ctrl-C) are handled.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mindgames.games.kalah.kernelinfo import P_PITS, P_TOTAL, P_ZOBRIST
from mindgames.games.kalah.kernels import sow_into

#: outcomes of ``solve_row``
DONE, DEEP, BUDGET, STOPPED = 0, 2, 3, 4
#: the cells of ``control``: node budget, stop flag, most table rows
C_BUDGET, C_STOP, C_ROWS = 0, 1, 2
#: nodes between two looks at ``control``, less one (a mask)
CHECK_EVERY = (1 << 12) - 1
#: the columns of a table entry before the packed pits
T_USED, T_LO, T_HI, T_HASH, T_WORDS = 0, 1, 2, 3, 4
#: the first table's rows (it doubles when half full)
FIRST_ROWS = 1 << 12


@njit(cache=True)
def words_for(params: np.ndarray) -> tuple[int, int]:
    """(pits a table word holds, words the pits of a board take)."""
    base = params[P_TOTAL] + 1
    per = 0
    x = 1
    while x <= (1 << 62) // base:
        x *= base
        per += 1
    n = 2 * params[P_PITS]
    return per, (n + per - 1) // per


@njit(cache=True)
def pack(params: np.ndarray, row: np.ndarray, per: int, out: np.ndarray) -> int:
    """The pits of ``row`` from the mover's side (mine, then theirs: the Python solver's key)
    packed into ``out``, base ``total + 1`` digits; their Zobrist hash, returned."""
    m = params[P_PITS]
    base = params[P_TOTAL] + 1
    for w in range(out.shape[0]):
        out[w] = 0
    h = 0
    for i in range(2 * m):
        col = i if i < m else i + 1
        out[i // per] = out[i // per] * base + row[col]
        h ^= params[P_ZOBRIST + col * base + row[col]]
    return h


@njit(cache=True)
def find(tt: np.ndarray, h: int, words: np.ndarray) -> int:
    """The table row of the pits ``words`` (hash ``h``), or the empty row where it would go."""
    mask = tt.shape[0] - 1
    at = h & mask
    while tt[at, T_USED] != 0:
        same = tt[at, T_HASH] == h
        w = 0
        while same and w < words.shape[0]:
            same = tt[at, T_WORDS + w] == words[w]
            w += 1
        if same:
            return at
        at = (at + 1) & mask
    return at


@njit(cache=True)
def grown(tt: np.ndarray) -> np.ndarray:
    """The table moved into one twice its size."""
    new = np.zeros((2 * tt.shape[0], tt.shape[1]), dtype=np.int64)
    mask = new.shape[0] - 1
    for r in range(tt.shape[0]):
        if tt[r, T_USED] != 0:
            at = tt[r, T_HASH] & mask
            while new[at, T_USED] != 0:
                at = (at + 1) & mask
            new[at, :] = tt[r, :]
    return new


@njit(cache=True)
def before(
    kids: np.ndarray, moves: np.ndarray, gains: np.ndarray, side: int, m: int, a: int, b: int
) -> bool:
    """Whether child ``a`` sorts before child ``b`` (module docstring): their absolute boards
    compared field by field from North's store down, as the Python solver's packed ints."""
    n = 2 * m + 2
    side_a = kids[a, n] & 1
    side_b = kids[b, n] & 1
    if (side_a == side) != (side_b == side):
        return side_a == side
    if gains[a] != gains[b]:
        return gains[a] > gains[b]
    turn_a = (m + 1) * side_a
    turn_b = (m + 1) * side_b
    for f in range(n - 1, -1, -1):
        x = kids[a, (f + turn_a) % n]
        y = kids[b, (f + turn_b) % n]
        if x != y:
            return x < y
    if side_a != side_b:
        return side_a < side_b
    return moves[a] < moves[b]


@njit(cache=True)
def ordered_children(
    params: np.ndarray,
    row: np.ndarray,
    kids: np.ndarray,
    moves: np.ndarray,
    gains: np.ndarray,
    order: np.ndarray,
) -> int:
    """The children of ``row`` into ``kids`` (pit numbers in ``moves``, store gains in
    ``gains``) and the order to search them in ``order``; their number."""
    m = params[P_PITS]
    n = 2 * m + 2
    side = row[n] & 1
    k = 0
    for j in range(m):
        if row[j] > 0:
            passes = sow_into(params, row, j, kids[k])
            moves[k] = j + 1
            gains[k] = (kids[k, n - 1] if passes else kids[k, m]) - row[m]
            order[k] = k
            k += 1
    for i in range(1, k):  # insertion sort: a handful of children
        x = order[i]
        p = i - 1
        while p >= 0 and before(kids, moves, gains, side, m, x, order[p]):
            order[p + 1] = order[p]
            p -= 1
        order[p + 1] = x
    return k


# a frame's columns: the window after the table (a, bb), the entry's bounds (lo, hi), the best
# value so far, the child being searched, the children, the side to move, the hash, whether
# that child keeps the side, the mover's store lead, then the node's packed pits
F_A, F_B, F_LO, F_HI, F_BEST, F_NEXT, F_COUNT, F_SIDE, F_HASH, F_SAME, F_HERE, F_WORDS = range(12)


@njit(cache=True)
def opened(
    params: np.ndarray, d: int, kids: np.ndarray, order: np.ndarray, frames: np.ndarray
) -> tuple[int, int]:
    """The window of the child of node ``d`` to search next (``F_SAME`` noted)."""
    n = 2 * params[P_PITS] + 2
    f = frames[d]
    child = kids[d, order[d, f[F_NEXT]]]
    edge = max(f[F_A], f[F_BEST])
    if (child[n] & 1) == f[F_SIDE]:
        f[F_SAME] = 1
        return edge, f[F_B]
    f[F_SAME] = 0
    return -f[F_B], -edge


@njit(cache=True)
def alphabeta(
    params: np.ndarray,
    total: int,
    root: np.ndarray,
    alpha: int,
    beta: int,
    kids: np.ndarray,
    moves: np.ndarray,
    gains: np.ndarray,
    order: np.ndarray,
    frames: np.ndarray,
    tt: np.ndarray,
    stats: np.ndarray,
    control: np.ndarray,
) -> tuple[int, np.ndarray]:
    """``solve_python``'s ``ab`` as a loop: the fail-soft value of ``root`` for its mover within
    (alpha, beta), and the table (perhaps grown).
    ``stats``: nodes, entries, outcome (not ``DONE``: the value is meaningless). Node ``d`` of the
    path is ``root`` or child ``order[d - 1, frames[d - 1, F_NEXT]]`` of ``kids[d - 1]``."""
    m = params[P_PITS]
    n = 2 * m + 2
    per, count = words_for(params)
    inf = total + 1
    depth = kids.shape[0]
    d = 0
    lower = alpha
    upper = beta
    while True:
        # enter node d with the window (lower, upper): a value at once, or a frame
        row = root if d == 0 else kids[d - 1, order[d - 1, frames[d - 1, F_NEXT]]]
        stats[0] += 1
        if stats[0] & CHECK_EVERY == 0:
            if control[C_STOP] != 0:
                stats[2] = STOPPED
                return 0, tt
            if 0 < control[C_BUDGET] < stats[0]:
                stats[2] = BUDGET
                return 0, tt
        value = 0
        here = row[m] - row[n - 1]
        rest = total - row[m] - row[n - 1]
        leaf = True
        if row[n + 2] == 0 and row[n + 3] == 0:
            value = here
        elif here + rest <= lower:
            value = here + rest
        elif here - rest >= upper:
            value = here - rest
        elif d >= depth:
            stats[2] = DEEP
            return 0, tt
        else:
            side = row[n] & 1
            words = frames[d, F_WORDS : F_WORDS + count]
            h = pack(params, row, per, words)
            at = find(tt, h, words)
            lo = -inf
            hi = inf
            if tt[at, T_USED] != 0:  # bounds on the rest of the game's margin: add mine
                lo = max(-inf, tt[at, T_LO] + here)
                hi = min(inf, tt[at, T_HI] + here)
            if lo >= upper:
                value = lo
            elif hi <= lower:
                value = hi
            else:
                leaf = False
                f = frames[d]
                f[F_A] = max(lower, lo)
                f[F_B] = min(upper, hi)
                f[F_LO] = lo
                f[F_HI] = hi
                f[F_BEST] = -inf
                f[F_NEXT] = 0
                f[F_SIDE] = side
                f[F_HASH] = h
                f[F_HERE] = here
                f[F_COUNT] = ordered_children(params, row, kids[d], moves[d], gains[d], order[d])
        if not leaf and frames[d, F_COUNT] > 0:
            lower, upper = opened(params, d, kids, order, frames)
            d += 1
            continue
        # a node without children (never a swept position) is done at once, with -inf as in
        # Python; then hand the value up until a node has another child to search
        done_here = not leaf
        while True:
            if done_here:
                done_here = False
            else:
                if d == 0:
                    return value, tt
                d -= 1
                f = frames[d]
                v = value if f[F_SAME] == 1 else -value
                if v > f[F_BEST]:
                    f[F_BEST] = v
                f[F_NEXT] += 1
                if f[F_BEST] < f[F_B] and f[F_NEXT] < f[F_COUNT]:
                    break
            # node d is done: store its bounds (the Python solver's dict update)
            f = frames[d]
            best = f[F_BEST]
            words = f[F_WORDS : F_WORDS + count]
            at = find(tt, f[F_HASH], words)
            if tt[at, T_USED] == 0:
                if 2 * (stats[1] + 1) <= tt.shape[0]:
                    stats[1] += 1
                elif 2 * tt.shape[0] <= control[C_ROWS]:
                    tt = grown(tt)
                    at = find(tt, f[F_HASH], words)
                    stats[1] += 1
                else:  # the largest table allowed, half full: replace the home row's entry
                    at = f[F_HASH] & (tt.shape[0] - 1)
                tt[at, T_USED] = 1
                tt[at, T_HASH] = f[F_HASH]
                for w in range(count):
                    tt[at, T_WORDS + w] = words[w]
            lo = f[F_LO]
            hi = f[F_HI]
            if best <= f[F_A]:
                hi = min(hi, best)
            elif best >= f[F_B]:
                lo = max(lo, best)
            else:
                lo = best
                hi = best
            tt[at, T_LO] = lo - f[F_HERE]  # less mine: any split of the stores (docstring)
            tt[at, T_HI] = hi - f[F_HERE]
            value = best
        lower, upper = opened(params, d, kids, order, frames)
        d += 1


@njit(cache=True)
def new_table(params: np.ndarray) -> np.ndarray:
    """An empty table for ``solve_row_with`` (it doubles when half full)."""
    return np.zeros((FIRST_ROWS, T_WORDS + words_for(params)[1]), dtype=np.int64)


@njit(cache=True, nogil=True)
def solve_row(
    params: np.ndarray, row: np.ndarray, depth: int, control: np.ndarray
) -> tuple[int, int, int, np.ndarray]:
    """Solve ``row``: (outcome, its value for the mover, nodes, its best moves' pits in the
    order searched). ``depth`` plies of frames; ``DEEP`` asks for more (module docstring)."""
    table = new_table(params)
    outcome, value, nodes, best, _, _ = solve_row_with(params, row, depth, control, table, 0)
    return outcome, value, nodes, best


@njit(cache=True, nogil=True)
def solve_row_with(
    params: np.ndarray,
    row: np.ndarray,
    depth: int,
    control: np.ndarray,
    tt: np.ndarray,
    entries: int,
) -> tuple[int, int, int, np.ndarray, np.ndarray, int]:
    """``solve_row`` starting from the table ``tt`` of earlier solves holding ``entries``
    entries (they count towards half full, or a later solve would fill the table and probe for
    ever); the table (perhaps grown) and its entries are the last two items. Every entry is a
    true bound on what is left of the game from its pits, whatever position it was found from,
    so a table carried over keeps values exact and saves the nodes that a position shares with
    the ones solved before it (its successors, above all).
    """
    m = params[P_PITS]
    n = 2 * m + 2
    total = 0
    for f in range(n):
        total += row[f]
    count = words_for(params)[1]
    kids = np.empty((depth, m, row.shape[0]), dtype=np.int64)
    moves = np.empty((depth, m), dtype=np.int64)
    gains = np.empty((depth, m), dtype=np.int64)
    order = np.empty((depth, m), dtype=np.int64)
    frames = np.zeros((depth, F_WORDS + count), dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    stats[1] = entries
    best = np.empty(m, dtype=np.int64)
    inf = total + 1
    lower = -inf
    upper = inf
    g = 0  # MTD(f) from a guess of 0
    while lower < upper:
        beta = g + 1 if g == lower else g
        g, tt = alphabeta(
            params,
            total,
            row,
            beta - 1,
            beta,
            kids,
            moves,
            gains,
            order,
            frames,
            tt,
            stats,
            control,
        )
        if stats[2] != DONE:
            return stats[2], 0, stats[0], best[:0], tt, stats[1]
        if g < beta:
            upper = g
        else:
            lower = g
    value = g
    side = row[n] & 1
    # the root's children in the search order, kept in a ply of their own (the last)
    top = np.empty((1, m, row.shape[0]), dtype=np.int64)
    top_moves = np.empty((1, m), dtype=np.int64)
    top_order = np.empty((1, m), dtype=np.int64)
    k = ordered_children(params, row, top[0], top_moves[0], gains[0], top_order[0])
    found = 0
    for i in range(k):
        c = top_order[0, i]
        child = top[0, c]
        if (child[n] & 1) == side:
            v, tt = alphabeta(
                params,
                total,
                child,
                value - 1,
                value,
                kids,
                moves,
                gains,
                order,
                frames,
                tt,
                stats,
                control,
            )
        else:
            v, tt = alphabeta(
                params,
                total,
                child,
                -value,
                -value + 1,
                kids,
                moves,
                gains,
                order,
                frames,
                tt,
                stats,
                control,
            )
            v = -v
        if stats[2] != DONE:
            return stats[2], 0, stats[0], best[:0], tt, stats[1]
        if v >= value:
            best[found] = top_moves[0, c]
            found += 1
    return DONE, value, stats[0], best[:found], tt, stats[1]
