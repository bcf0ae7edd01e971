"""The stand-in for the game kernel the compiled TD self-play binds beyond the contract of
mindgames.kernels: ``margin`` (a game offering ``HasMargin``; Kalah's kernels define it). A
game without it is bound to this one, which refuses to run (``outcome = "margin"`` needs
``HasMargin``, so it is never called)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def margin(params: np.ndarray, row: np.ndarray) -> int:
    if params.size >= 0:  # always: the return below types the stand-in as the kernel
        raise RuntimeError("this game's kernels have no margin")
    return 0
