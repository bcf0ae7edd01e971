"""Nim as a third-party mindgames plugin: take 1-3 objects from one heap; taking the last wins.

The example of docs/plugins.md: a game and an encoding, registered through the ``mindgames``
entry point of this distribution and nothing else.
"""
import attrs
import numpy as np

from mindgames import Encoding, EncodingInfo, Game, GameInfo, NotationError, hookimpl


@attrs.frozen
class Nim(Game):
    name = "nim"
    heaps: tuple[int, ...] = (1, 2, 3)

    def initial_state(self):
        return (tuple(self.heaps), 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return tuple((i, k) for i, h in enumerate(state[0]) for k in range(1, min(h, 3) + 1))

    def play(self, state, move):
        heaps = list(state[0])
        heaps[move[0]] -= move[1]
        return (tuple(heaps), 1 - state[1])

    def is_terminal(self, state):
        return not any(state[0])

    def returns(self, state):
        return (-1.0, 1.0) if state[1] == 0 else (1.0, -1.0)

    def progress(self, state):
        return sum(self.heaps) - sum(state[0])

    def move_text(self, state, move):
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, state, text):
        return self.find_move(state, text)

    def position_text(self, state):
        return ",".join(map(str, state[0])) + (" a" if state[1] == 0 else " b")

    def parse_position(self, text):
        try:
            heaps, side = text.split()
            return (tuple(int(h) for h in heaps.split(",")), "ab".index(side))
        except ValueError:
            raise NotationError(f"bad nim position {text!r}") from None

    def render(self, state):
        return "\n".join("|" * h for h in state[0])


def heaps(game, options):
    cols = tuple(f"heap{i + 1}" for i in range(len(game.heaps)))
    return Encoding("heaps", cols, lambda s: np.array(s[0], dtype=float))


@hookimpl
def mindgames_games():
    return [GameInfo("nim", Nim, "take 1-3 from a heap; last take wins")]


@hookimpl
def mindgames_encodings():
    return [EncodingInfo("nim", "heaps", heaps)]
