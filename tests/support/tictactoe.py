"""A tiny complete game for testing game-agnostic code (searchers, matches, the core).

State: (board, to_move) with board a tuple of 9 ints (0 empty, 1 X, 2 O). X (player 0) moves
first. Moves are cell indices 0-8; their text is "1".."9". Position text: 9 chars of ".XO" then
" x" or " o" for the side to move.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from mindgames import (
    Encoding,
    EncodingInfo,
    Game,
    GameInfo,
    IllegalMoveError,
    NotationError,
    hookimpl,
)

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def winner(board: tuple[int, ...]) -> int:
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return 0


@attrs.frozen
class TicTacToe(Game):
    name = "tictactoe"
    player_names = ("X", "O")

    def initial_state(self):
        return ((0,) * 9, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        board, _ = state
        if winner(board):
            return ()
        return tuple(i for i in range(9) if board[i] == 0)

    def play(self, state, move):
        board, side = state
        if not isinstance(move, int) or not 0 <= move < 9 or board[move] or winner(board):
            raise IllegalMoveError(f"illegal move {move!r}")
        b = list(board)
        b[move] = side + 1
        return (tuple(b), 1 - side)

    def is_terminal(self, state):
        board, _ = state
        return bool(winner(board)) or all(board)

    def returns(self, state):
        w = winner(state[0])
        if w == 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if w == 1 else (-1.0, 1.0)

    def progress(self, state):
        return sum(1 for c in state[0] if c)

    def move_text(self, state, move):
        return str(move + 1)

    def parse_move(self, state, text):
        t = text.strip()
        if not (len(t) == 1 and t.isdigit() and t != "0"):
            raise NotationError(f"bad tic-tac-toe move {text!r}: expected 1-9")
        move = int(t) - 1
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"move {t} is not legal")
        return move

    def position_text(self, state):
        board, side = state
        return "".join(".XO"[c] for c in board) + (" x" if side == 0 else " o")

    def parse_position(self, text):
        t = text.strip()
        if len(t) != 11 or t[9] != " " or t[10] not in "xo" or set(t[:9]) - set(".XO"):
            raise NotationError(f"bad tic-tac-toe position {text!r}")
        return (tuple(".XO".index(c) for c in t[:9]), "xo".index(t[10]))

    def render(self, state):
        cells = [".XO"[c] for c in state[0]]
        return "\n".join(" ".join(cells[r * 3 : r * 3 + 3]) for r in range(3))


def _cells(game: TicTacToe, options: None) -> Encoding:
    def encode(state) -> np.ndarray:
        board, side = state
        me = side + 1
        return np.array([0.0 if c == 0 else (1.0 if c == me else -1.0) for c in board])

    return Encoding("cells", tuple(f"c{i + 1}" for i in range(9)), encode)


def _material(game: TicTacToe, options: None) -> Encoding:
    def encode(state) -> np.ndarray:
        board, side = state
        me = side + 1
        score = 0.0
        for line in LINES:
            vals = [board[i] for i in line]
            if all(v in (0, me) for v in vals):
                score += vals.count(me)
            if all(v in (0, 3 - me) for v in vals):
                score -= vals.count(3 - me)
        return np.array([score])

    return Encoding("material", ("lines",), encode)


class TicTacToePlugin:
    """Register with ``registry_with(("tictactoe", TicTacToePlugin()))`` in tests."""

    @hookimpl
    def mindgames_games(self) -> Sequence[GameInfo]:
        return [GameInfo("tictactoe", TicTacToe, "noughts and crosses (tests)")]

    @hookimpl
    def mindgames_encodings(self) -> Sequence[EncodingInfo]:
        return [
            EncodingInfo("tictactoe", "cells", _cells),
            EncodingInfo("tictactoe", "material", _material),
        ]
