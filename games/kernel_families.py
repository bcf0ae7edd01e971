"""The built-in games' kernels behind one module: draughts (checkers, give-away) and Kalah.

A template (the compiled alpha-beta, TD's self-play) is compiled once per kernel module it is
bound to (``mindgames.compiled.specialise``), and most of the cold compile is that template's
large functions. The built-in games name this module as ``GameKernels.shared``, so they share one
compiled copy: each function here passes the call on to the family named by the **last entry
of** ``params`` (the game's ``GameKernels.family``, its index in ``FAMILIES``, appended by
``mindgames.kernels.binding``), which the family's own kernels never read. A plugin game binds
its own module, as before.

This module imports numba (through the kernels): only the compiled path imports it.
"""

from __future__ import annotations

import numpy as np

from mindgames.compiled.hot import hot
from mindgames.games.draughts import kernels as draughts
from mindgames.games.kalah import kernels as kalah

#: the kernel modules served here, in the order of their numbers (``GameKernels.family``)
FAMILIES = (draughts.__name__, kalah.__name__)
#: what ``specialise.bind``'s digest must cover besides this file (``_sources``)
KERNEL_SOURCES = FAMILIES
KALAH = 1

_d_children, _k_children = draughts.children, kalah.children
_d_is_terminal, _k_is_terminal = draughts.is_terminal, kalah.is_terminal
_d_result, _k_result = draughts.result, kalah.result
_d_to_move, _k_to_move = draughts.to_move, kalah.to_move
_d_move_count, _k_move_count = draughts.move_count, kalah.move_count
_d_capture_pending, _k_capture_pending = draughts.capture_pending, kalah.capture_pending
_d_key, _k_key = draughts.key, kalah.key
_d_progress, _k_progress = draughts.progress, kalah.progress
_d_encode, _k_encode = draughts.encode, kalah.encode
_k_margin = kalah.margin


@hot(inline="always")
def _family(params: np.ndarray) -> int:
    return params[params.shape[0] - 1]


@hot(inline="always")
def children(params: np.ndarray, row: np.ndarray, out: np.ndarray, moves: np.ndarray) -> int:
    if _family(params) == KALAH:
        return _k_children(params, row, out, moves)
    return _d_children(params, row, out, moves)


@hot(inline="always")
def is_terminal(params: np.ndarray, row: np.ndarray) -> bool:
    if _family(params) == KALAH:
        return _k_is_terminal(params, row)
    return _d_is_terminal(params, row)


@hot(inline="always")
def result(params: np.ndarray, row: np.ndarray) -> float:
    if _family(params) == KALAH:
        return _k_result(params, row)
    return _d_result(params, row)


@hot(inline="always")
def to_move(params: np.ndarray, row: np.ndarray) -> int:
    if _family(params) == KALAH:
        return _k_to_move(params, row)
    return _d_to_move(params, row)


@hot(inline="always")
def move_count(params: np.ndarray, row: np.ndarray) -> int:
    if _family(params) == KALAH:
        return _k_move_count(params, row)
    return _d_move_count(params, row)


@hot(inline="always")
def capture_pending(params: np.ndarray, row: np.ndarray) -> bool:
    if _family(params) == KALAH:
        return _k_capture_pending(params, row)
    return _d_capture_pending(params, row)


@hot(inline="always")
def key(params: np.ndarray, row: np.ndarray) -> int:
    if _family(params) == KALAH:
        return _k_key(params, row)
    return _d_key(params, row)


@hot(inline="always")
def progress(params: np.ndarray, row: np.ndarray) -> int:
    if _family(params) == KALAH:
        return _k_progress(params, row)
    return _d_progress(params, row)


@hot(inline="always")
def encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    if _family(params) == KALAH:
        _k_encode(params, code, options, row, out)
    else:
        _d_encode(params, code, options, row, out)


@hot(inline="always")
def margin(params: np.ndarray, row: np.ndarray) -> int:
    """Kalah's margin; draughts has none (TD asks only a game with ``HasMargin``)."""
    if _family(params) == KALAH:
        return _k_margin(params, row)
    return 0
