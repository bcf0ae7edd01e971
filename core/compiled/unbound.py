"""Stand-ins for the kernels that ``alphabeta_kernel`` reads as globals before ``specialise``
binds them to a game's and a model's modules: each refuses to run. They keep the template an
ordinary module (linted, type-checked, importable) with the kernels' signatures, and each
returns its kernel's type after the raise, so a search
bound to them for what it never calls (a null search's model) types as the real one would.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_UNBOUND = "alphabeta_kernel runs only as specialise binds it to a game's and a model's kernels"


@njit(cache=True)
def children(params: np.ndarray, row: np.ndarray, out: np.ndarray, moves: np.ndarray) -> int:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0


@njit(cache=True)
def is_terminal(params: np.ndarray, row: np.ndarray) -> bool:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return False


@njit(cache=True)
def result(params: np.ndarray, row: np.ndarray) -> float:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0.0


@njit(cache=True)
def to_move(params: np.ndarray, row: np.ndarray) -> int:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0


@njit(cache=True)
def move_count(params: np.ndarray, row: np.ndarray) -> int:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0


@njit(cache=True)
def capture_pending(params: np.ndarray, row: np.ndarray) -> bool:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return False


@njit(cache=True)
def key(params: np.ndarray, row: np.ndarray) -> int:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0


@njit(cache=True)
def progress(params: np.ndarray, row: np.ndarray) -> int:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0


@njit(cache=True)
def encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return None


@njit(cache=True)
def value(meta: np.ndarray, params: np.ndarray, x: np.ndarray, progress: int) -> float:
    if meta.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError(_UNBOUND)
    return 0.0
