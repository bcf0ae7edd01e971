"""Nim's kernels: the compiled path's description of the game (``mindgames.kernels``'s contract).

``mindgames_nim`` names this module in ``Nim.kernels()``; mindgames imports it only when it
searches or checks compiled, so ``import mindgames_nim`` never loads numba.

Row: the side to move (0 or 1), then the heaps. A move's code is ``i * 4 + k``: take ``k``
(1-3) from heap ``i``. ``params`` holds the game's starting heaps (``progress`` counts from them).

Every function is a module-level ``@njit(cache=True)`` function over int64 rows: no closures, no
recursion (``perft`` keeps an explicit stack; numba's cache fails on self-recursive cached
functions, numba issue 6713).
"""

import numpy as np
from numba import njit


@njit(cache=True)
def children(params, row, out, moves):
    """The successors of ``row`` in the order of ``Nim.legal_moves``, their codes in ``moves``;
    their number, or -1 when ``out`` or ``moves`` is too short."""
    n = 0
    for i in range(1, row.shape[0]):
        for k in range(1, min(row[i], 3) + 1):
            if n >= out.shape[0] or n >= moves.shape[0]:
                return -1
            out[n, :] = row
            out[n, 0] = 1 - row[0]
            out[n, i] = row[i] - k
            moves[n] = (i - 1) * 4 + k
            n += 1
    return n


@njit(cache=True)
def is_terminal(params, row):
    """Every heap is empty."""
    return not np.any(row[1:])


@njit(cache=True)
def result(params, row):
    """A finished game's result for the side to move: it cannot move, so it has lost."""
    return -1.0


@njit(cache=True)
def to_move(params, row):
    """0 or 1."""
    return row[0]


@njit(cache=True)
def move_count(params, row):
    """The number of legal moves: up to three per heap."""
    n = 0
    for i in range(1, row.shape[0]):
        n += min(row[i], 3)
    return n


@njit(cache=True)
def capture_pending(params, row):
    """Nim has no captures."""
    return False


@njit(cache=True)
def key(params, row):
    """A 64-bit hash (FNV-1a style, wrapping) of the whole row: the side and every heap."""
    k = -3750763034362895579  # the FNV offset basis as a signed int64
    for i in range(row.shape[0]):
        k = (k ^ row[i]) * 1099511628211
    return k


@njit(cache=True)
def progress(params, row):
    """Objects taken since the start: ``Nim.progress``."""
    taken = 0
    for i in range(params.shape[0]):
        taken += params[i] - row[i + 1]
    return taken


@njit(cache=True)
def encode(params, code, options, row, out):
    """Encoding ``code`` of ``row`` into ``out``: 0 ``heaps`` (the sizes), 1 ``material`` (+1
    when the side to move wins with perfect play, else -1)."""
    if code == 0:
        for i in range(1, row.shape[0]):
            out[i - 1] = float(row[i])
        return
    nimsum = 0
    for i in range(1, row.shape[0]):
        nimsum ^= row[i] % 4
    out[0] = 1.0 if nimsum != 0 else -1.0


@njit(cache=True)
def perft(params, row, depth):
    """The number of move sequences of exactly ``depth`` plies, depth-first over an explicit
    stack: level ``d`` holds the children of the position at depth ``d``."""
    if depth == 0:
        return 1
    width = row.shape[0]
    wide = 3 * (width - 1)
    rows = np.empty((depth, wide, width), dtype=np.int64)
    codes = np.empty(wide, dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    following = np.zeros(depth, dtype=np.int64)
    count[0] = children(params, row, rows[0], codes)
    total = 0
    level = 0
    while level >= 0:
        if level == depth - 1:  # the leaves: count them, go back up
            total += count[level]
            level -= 1
        elif following[level] == count[level]:
            level -= 1
        else:
            child = rows[level, following[level]]
            following[level] += 1
            count[level + 1] = children(params, child, rows[level + 1], codes)
            following[level + 1] = 0
            level += 1
    return total
