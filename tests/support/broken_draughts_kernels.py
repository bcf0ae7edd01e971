"""A planted difference for the conformance suite: the draughts kernels with one thing wrong.

``children`` swaps its first two children (a wrong order); ``encode`` adds 1 to the first
number of every encoding. Which of the two a test plants is chosen by the game's params (a
sixth entry: 1 the order, 2 the encoding), so one module serves both.
"""

from __future__ import annotations

import numpy as np

from mindgames.games.draughts import kernels as real
from mindgames.games.draughts.kernels import (  # noqa: F401  (the contract's other functions)
    capture_pending,
    is_terminal,
    key,
    move_count,
    perft,
    progress,
    result,
    to_move,
)

ORDER, ENCODING = 1, 2


def children(params: np.ndarray, row: np.ndarray, out: np.ndarray, moves: np.ndarray) -> int:
    """The real children, the first two swapped when the order is the planted bug."""
    n = int(real.children(params[:5], row, out, moves))
    if params[5] == ORDER and n >= 2:
        out[[0, 1]] = out[[1, 0]]
        moves[[0, 1]] = moves[[1, 0]]
    return n


def encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    """The real encoding, its first number off by one when the encoding is the planted bug."""
    real.encode(params[:5], code, options, row, out)
    if params[5] == ENCODING:
        out[0] += 1.0
