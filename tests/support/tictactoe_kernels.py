"""Kernels of the test game tic-tac-toe (``mindgames.kernels``'s contract) and a tic-tac-toe
that declares them: the smallest game that exercises the compiled searcher (draws, wins at every
depth, transpositions) without depending on a built-in game's kernels.

Row: the nine cells (0 empty, 1 X, 2 O), then the side to move. A move's code is its cell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
from numba import njit

from mindgames import EncodingInfo, GameInfo, hookimpl
from mindgames.game import Encoding
from mindgames.kernels import GameKernels

from support.tictactoe import LINES, TicTacToe, TicTacToePlugin

_LINES = np.array(LINES, dtype=np.int64)


@njit(cache=True)
def _winner(row):
    for k in range(8):
        a, b, c = _LINES[k, 0], _LINES[k, 1], _LINES[k, 2]
        if row[a] != 0 and row[a] == row[b] and row[b] == row[c]:
            return row[a]
    return 0


@njit(cache=True)
def children(params, row, out, moves):
    if _winner(row):
        return 0
    n = 0
    for i in range(9):
        if row[i] == 0:
            if n >= out.shape[0] or n >= moves.shape[0]:
                return -1
            out[n, :] = row
            out[n, i] = row[9] + 1
            out[n, 9] = 1 - row[9]
            moves[n] = i
            n += 1
    return n


@njit(cache=True)
def is_terminal(params, row):
    if _winner(row):
        return True
    return move_count(params, row) == 0


@njit(cache=True)
def result(params, row):
    w = _winner(row)
    if w == 0:
        return 0.0
    return 1.0 if w == row[9] + 1 else -1.0


@njit(cache=True)
def to_move(params, row):
    return row[9]


@njit(cache=True)
def move_count(params, row):
    if _winner(row):
        return 0
    n = 0
    for i in range(9):
        if row[i] == 0:
            n += 1
    return n


@njit(cache=True)
def capture_pending(params, row):
    return False


@njit(cache=True)
def key(params, row):
    k = 0
    for i in range(10):
        k = k * 3 + row[i]
    return k


@njit(cache=True)
def progress(params, row):
    n = 0
    for i in range(9):
        if row[i] != 0:
            n += 1
    return n


@njit(cache=True)
def encode(params, code, options, row, out):
    me = row[9] + 1
    if code == 0:
        for i in range(9):
            out[i] = 0.0 if row[i] == 0 else (1.0 if row[i] == me else -1.0)
        return
    score = 0.0
    for k in range(8):
        mine = theirs = 0
        for j in range(3):
            v = row[_LINES[k, j]]
            if v == me:
                mine += 1
            elif v != 0:
                theirs += 1
        if theirs == 0:
            score += mine
        if mine == 0:
            score -= theirs
    out[0] = score


@njit(cache=True)
def perft(params, row, depth):
    if depth == 0:
        return 1
    out = np.empty((9, 10), dtype=np.int64)
    moves = np.empty(9, dtype=np.int64)
    n = children(params, row, out, moves)
    total = 0
    for i in range(n):
        total += perft(params, out[i], depth - 1)
    return total


def _to_row(state: tuple[tuple[int, ...], int]) -> np.ndarray:
    return np.array([*state[0], state[1]], dtype=np.int64)


def _from_row(row: np.ndarray) -> tuple[tuple[int, ...], int]:
    return (tuple(int(v) for v in row[:9]), int(row[9]))


@attrs.frozen
class KernelTicTacToe(TicTacToe):
    """Tic-tac-toe with kernels (registered as ``tictactoe``, in place of the plain one)."""

    def kernels(self) -> GameKernels:
        return GameKernels(
            module=__name__,
            params=np.zeros(1, dtype=np.int64),
            width=10,
            max_children=9,
            to_row=_to_row,
            from_row=_from_row,
            encodings={"cells": 0, "material": 1},
        )


class KernelTicTacToePlugin:
    """Register as ``registry_with(("tictactoe", KernelTicTacToePlugin()))``: the kernel game
    with its encodings declared to have kernels."""

    @hookimpl
    def mindgames_games(self) -> list[GameInfo]:
        return [GameInfo("tictactoe", KernelTicTacToe, "noughts and crosses with kernels")]

    @hookimpl
    def mindgames_encodings(self) -> list[EncodingInfo]:
        return [
            EncodingInfo(i.game, i.name, _kernel_build(i.build))
            for i in TicTacToePlugin().mindgames_encodings()
        ]


def _kernel_build(build: Callable[[Any, Any], Encoding]) -> Callable[[Any, Any], Encoding]:
    return lambda game, options: attrs.evolve(build(game, options), kernel_options=())
