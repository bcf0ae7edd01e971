"""Sutton's 5-state random walk as a game: the TD tests' smallest world."""

from __future__ import annotations

import attrs

from mindgames import Game


@attrs.frozen
class RandomWalk(Game):
    """Sutton's random walk: squares 0-6, start 3; 6 wins for player 0, 0 loses.

    Player 0 always moves (-1 or +1); played with epsilon = 1 it is the classic random walk.
    """

    name = "randomwalk"

    def initial_state(self):
        return 3

    def to_move(self, state):
        return 0

    def legal_moves(self, state):
        return () if state in (0, 6) else (-1, 1)

    def play(self, state, move):
        return state + move

    def is_terminal(self, state):
        return state in (0, 6)

    def returns(self, state):
        return (1.0, -1.0) if state == 6 else (-1.0, 1.0)

    def progress(self, state):
        return 0

    def move_text(self, state, move):
        return "+" if move > 0 else "-"

    def parse_move(self, state, text):
        return self.find_move(state, text)

    def position_text(self, state):
        return str(state)

    def parse_position(self, text):
        return int(text)

    def render(self, state):
        return "".join("x" if i == state else "." for i in range(7))
