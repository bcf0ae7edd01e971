"""Kalah(m, n)'s compiled kernels (the contract is in core/kernels.py): numba functions over one
int64 row per state. Imported by name only, on demand (``GameKernels.module``): importing the
rules or the plugin never imports numba.

A row (``kernelinfo``, the ``StateRows`` layout of games/kalah/rows.py) is the board seen from
the side to move, ``n = 2m + 2`` fields and four counters::

    my pits 0..m-1, my store m, their pits m+1..2m, their store 2m+1, turns, plies, mine, theirs

``turns`` has the side to move as its parity, ``mine``/``theirs`` are the seeds in each side's
pits. Seen from the mover the rules are the same for both sides. A sowing of ``s`` seeds from
my pit ``j`` runs over the ``c = 2m + 1`` fields other than their store: every one of them gets
``s // c`` (the laps, which feed pit ``j`` too) and the ``s % c`` fields after ``j`` one more;
the last seed lands on ``(j + s) % c``. In my store it gives another turn; in an own pit left
with one seed it captures that seed and the opposite pit ``2m - land`` (when that pit holds
seeds, or always under ``empty_capture``); a side left without seeds ends the game and each
side's pits are swept into its own store. When the turn passes the child is turned to the
other side's view (the halves swapped, ``turns`` + 1): exactly ``rows.row_children``'s rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mindgames.compiled.hot import hot
from mindgames.games.kalah.kernelinfo import (
    E_COUNTS,
    E_FEATURES,
    E_KALAH14,
    E_MATERIAL,
    E_MOVES,
    P_EMPTY,
    P_PITS,
    P_SEEDS,
    P_TOTAL,
    P_WIDTH,
    P_ZOBRIST,
)


@hot(inline="always")
def sow_into(params: np.ndarray, row: np.ndarray, j: int, child: np.ndarray) -> bool:
    """Write the state after sowing my pit ``j`` (not empty) of ``row`` into ``child``; return
    whether the turn passes (module docstring)."""
    m = params[P_PITS]
    n = 2 * m + 2
    c = n - 1
    s = row[j]
    if s < c:  # the usual sowing, less than a lap: no division
        q = 0
        r = s
    else:
        q = s // c
        r = s - q * c
    for p in range(c):
        d = p - j
        if d <= 0:
            d += c  # pit j itself: d = c > r, it gets the laps only
        child[p] = row[p] + q + (1 if d <= r else 0)
    child[j] -= s
    child[n - 1] = row[n - 1]
    child[n] = row[n]
    child[n + 1] = row[n + 1] + 1
    land = j + r  # (j + s) % c: j < c and r < c
    if land >= c:
        land -= c
    passes = land != m
    if passes and land < m and child[land] == 1:
        o = child[2 * m - land]
        if o > 0 or params[P_EMPTY] != 0:
            child[m] += 1 + o
            child[land] = 0
            child[2 * m - land] = 0
    mine = 0
    theirs = 0
    for i in range(m):
        mine += child[i]
        theirs += child[m + 1 + i]
    if mine == 0 or theirs == 0:  # the end: each side's seeds to its own store
        child[m] += mine
        child[n - 1] += theirs
        for i in range(m):
            child[i] = 0
            child[m + 1 + i] = 0
        mine = 0
        theirs = 0
    if passes:
        for i in range(m + 1):
            x = child[i]
            child[i] = child[m + 1 + i]
            child[m + 1 + i] = x
        child[n] += 1
        child[n + 2] = theirs
        child[n + 3] = mine
    else:
        child[n + 2] = mine
        child[n + 3] = theirs
    return passes


@hot
def children(params: np.ndarray, row: np.ndarray, out: np.ndarray, moves: np.ndarray) -> int:
    """The successors of ``row`` in ``out[0:k]`` (my pits 1..m in order, the empty skipped),
    their pit numbers in ``moves[0:k]``; ``k``, 0 at the end, -1 when a buffer is too small."""
    m = params[P_PITS]
    n = 2 * m + 2
    if row[n + 2] == 0 and row[n + 3] == 0:
        return 0
    k = 0
    for j in range(m):
        if row[j] > 0:
            k += 1
    if k > out.shape[0] or k > moves.shape[0] or out.shape[1] < params[P_WIDTH]:
        return -1
    k = 0
    for j in range(m):
        if row[j] > 0:
            sow_into(params, row, j, out[k])
            moves[k] = j + 1
            k += 1
    return k


@hot(inline="always")
def is_terminal(params: np.ndarray, row: np.ndarray) -> bool:
    """Every seed in a store."""
    n = 2 * params[P_PITS] + 2
    return row[n + 2] == 0 and row[n + 3] == 0


@hot(inline="always")
def result(params: np.ndarray, row: np.ndarray) -> float:
    """A finished game's result for the side to move: the sign of its store minus the other's."""
    m = params[P_PITS]
    d = row[m] - row[2 * m + 1]
    if d > 0:
        return 1.0
    if d < 0:
        return -1.0
    return 0.0


@hot(inline="always")
def to_move(params: np.ndarray, row: np.ndarray) -> int:
    """0 (South) or 1 (North): the parity of ``turns``."""
    return row[2 * params[P_PITS] + 2] & 1


@hot(inline="always")
def move_count(params: np.ndarray, row: np.ndarray) -> int:
    """My non-empty pits."""
    k = 0
    for j in range(params[P_PITS]):
        if row[j] > 0:
            k += 1
    return k


@hot(inline="always")
def capture_pending(params: np.ndarray, row: np.ndarray) -> bool:
    """Never: Kalah has no compulsory captures."""
    return False


@hot(inline="always")
def key(params: np.ndarray, row: np.ndarray) -> int:
    """Zobrist hash of the absolute board and the side to move (``Kalah.search_key``)."""
    m = params[P_PITS]
    n = 2 * m + 2
    counts = params[P_TOTAL] + 1
    side = row[n] & 1
    turn = (m + 1) * side
    h = params[P_ZOBRIST + n * counts] * side  # the number for North to move, or 0
    for col in range(n):
        at = col + turn  # ``(col + turn) % n`` without a division (turn < n)
        if at >= n:
            at -= n
        h ^= params[P_ZOBRIST + at * counts + row[col]]
    return h


@hot(inline="always")
def progress(params: np.ndarray, row: np.ndarray) -> int:
    """Plies played."""
    return row[2 * params[P_PITS] + 3]


@hot
def margin(params: np.ndarray, row: np.ndarray) -> int:
    """South's store minus North's (``Kalah.margin``)."""
    m = params[P_PITS]
    d = row[m] - row[2 * m + 1]
    return d if row[2 * m + 2] & 1 == 0 else -d


@njit(cache=True)
def perft(params: np.ndarray, row: np.ndarray, depth: int) -> int:
    """Leaves of the ``depth``-ply tree (``Kalah.perft``), every leaf made; a depth-first walk
    over one buffer of children a level."""
    if depth <= 0:
        return 1
    m = params[P_PITS]
    bufs = np.empty((depth, m, params[P_WIDTH]), dtype=np.int64)
    moves = np.empty(m, dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    at = np.zeros(depth, dtype=np.int64)
    count[0] = children(params, row, bufs[0], moves)
    if depth == 1:
        return count[0]
    total = 0
    level = 0
    while level >= 0:
        if at[level] == count[level]:
            level -= 1
            continue
        k = children(params, bufs[level, at[level]], bufs[level + 1], moves)
        at[level] += 1
        if level + 2 == depth:
            total += k
        else:
            level += 1
            count[level] = k
            at[level] = 0
    return total


@hot
def sowing_effect(params: np.ndarray, row: np.ndarray, base: int, j: int) -> tuple[bool, int, int]:
    """What sowing pit ``j`` of the side whose pits start at column ``base`` (0: mine, m + 1:
    theirs, as if they were to move) would do now: (ends in its store, seeds its store gains,
    capture included; the column, counted from ``base``, of the opposite pit it captures or
    -1). An empty pit: (False, 0, -1). ``kalah-moves`` and ``kalah-features`` read it."""
    m = params[P_PITS]
    n = 2 * m + 2
    c = n - 1
    s = row[(j + base) % n]
    if s == 0:
        return False, 0, -1
    q = s // c
    r = s - q * c
    gain = q + (1 if m - j <= r else 0)
    land = j + r  # (j + s) % c: j < c and r < c
    if land >= c:
        land -= c
    if land == m:
        return True, gain, -1
    if land < m:
        d = land - j
        if d <= 0:
            d += c
        after = row[(land + base) % n] + q + (1 if d <= r else 0) - (s if land == j else 0)
        if after == 1:
            opp = 2 * m - land
            o = row[(opp + base) % n] + q + (1 if opp - j <= r else 0)
            if o > 0 or params[P_EMPTY] != 0:
                return False, gain + 1 + o, opp
    return False, gain, -1


@hot
def encoding_width(params: np.ndarray, code: int, options: np.ndarray) -> int:
    """Columns of the encoding ``code`` with ``options`` (0 for a code that names none)."""
    m = params[P_PITS]
    if code == E_KALAH14:
        return 2 * m + 2
    if code == E_FEATURES:
        return 4 * m + 4
    if code == E_MOVES:
        return 4 * m + 2
    if code == E_COUNTS:
        return 2 * m * int(options[0])
    if code == E_MATERIAL:
        return 1
    return 0


@hot
def _encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    """``encode`` of every code (material's only when ``out`` is too short: the error)."""
    m = params[P_PITS]
    n = 2 * m + 2
    total = params[P_TOTAL]
    if out.shape[0] < encoding_width(params, code, options):
        raise ValueError("encode: the output vector is shorter than the encoding")
    if code == E_KALAH14:
        factor = options[0] / total
        for col in range(n):
            out[col] = row[col] * factor
    elif code == E_FEATURES:
        mine = row[n + 2]
        theirs = row[n + 3]
        out[0] = (row[m] - row[n - 1]) / total
        for i in range(m):
            out[1 + i] = 1.0 if row[i] > 0 and row[2 * m - i] == 0 else 0.0
            t = m + 1 + i
            out[1 + m + i] = 1.0 if row[t] > 0 and row[2 * m - t] == 0 else 0.0
            out[1 + 2 * m + i] = 0.0
            out[1 + 3 * m + i] = 0.0
        for j in range(m):
            hit = sowing_effect(params, row, 0, j)[2]  # their pit I capture now
            if hit >= 0:
                out[1 + 3 * m + hit - m - 1] = 1.0
            hit = sowing_effect(params, row, m + 1, j)[2]  # my pit they would capture
            if hit >= 0:
                out[1 + 2 * m + hit - m - 1] = 1.0
        out[4 * m + 1] = (row[m] + mine - row[n - 1] - theirs) / total
        out[4 * m + 2] = mine / total
        out[4 * m + 3] = theirs / total
    elif code == E_MOVES:
        scale = 1.0 / (2 * params[P_SEEDS])
        for who in range(2):
            best = 0
            for j in range(m):
                extra, gain, _ = sowing_effect(params, row, who * (m + 1), j)
                out[2 * m * who + j] = 1.0 if extra else 0.0
                out[2 * m * who + m + j] = gain * scale
                if gain > best:
                    best = gain
            out[4 * m + who] = best * scale
    elif code == E_COUNTS:
        levels = int(options[0])
        for i in range(2 * m * levels):
            out[i] = 0.0
        for i in range(2 * m):
            v = row[i if i < m else i + 1]
            out[levels * i + (v if v < levels - 1 else levels - 1)] = 1.0


@hot(inline="always")
def encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    """The encoding ``code`` (``kernelinfo``) of ``row`` into ``out``, the values of the Python
    encoding (games/kalah/encodings.py) with its ``kernel_options``: kalah14's ``(scale,)``,
    kalah-counts' ``(levels,)``, none for the others. Inlined where it is called, material in
    place (a compiled call passes each array as seven words: more than material costs)."""
    if code == E_MATERIAL and out.shape[0] >= 1:
        m = params[P_PITS]
        out[0] = float(row[m] - row[2 * m + 1])
    else:
        _encode(params, code, options, row, out)
