"""Nim as a third-party mindgames plugin: take 1-3 objects from one heap; taking the last wins.

The example of docs/plugins.md: a game and two encodings, registered through the ``mindgames``
entry point of this distribution and nothing else. Its kernels (the compiled path) are the
second module of the distribution, ``mindgames_nim_kernels``: ``Nim.kernels()`` names it, and
mindgames imports it only to search or check compiled, so importing this module loads no numba.
"""

import attrs
import numpy as np

from mindgames import Encoding, EncodingInfo, Game, GameInfo, NotationError, hookimpl
from mindgames.kernels import GameKernels


def _positive_heaps(instance, attribute, heaps):
    """A validator: `mindgames moves nim:heaps=[0]` prints this message as one line."""
    if not heaps or any(h < 1 for h in heaps):
        raise ValueError(f"heaps must be one or more positive sizes, got {list(heaps)}")


@attrs.frozen
class Nim(Game):
    name = "nim"  # the registry name: GameInfo must use the same
    player_names = ("A", "B")
    heaps: tuple[int, ...] = attrs.field(default=(1, 2, 3), validator=_positive_heaps)

    def initial_state(self):
        return (tuple(self.heaps), 0)  # (heaps, player to move)

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

    def returns(self, state):  # the player who cannot move has lost
        return (-1.0, 1.0) if state[1] == 0 else (1.0, -1.0)

    def progress(self, state):
        return sum(self.heaps) - sum(state[0])

    def move_text(self, state, move):
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, state, text):
        return self.find_move(state, text)  # generic: match the canonical text

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

    def known_perft(self):
        return [("2,1 a", (3, 5, 3))] if self.heaps == (1, 2, 3) else []

    def kernels(self):
        """The compiled description: a state's row is its side to move, then its heaps."""
        return GameKernels(
            module="mindgames_nim_kernels",  # imported by name, on demand
            params=np.array(self.heaps, dtype=np.int64),  # the start, for `progress`
            width=1 + len(self.heaps),
            max_children=3 * len(self.heaps),  # at most 1-3 from each heap
            to_row=lambda state: np.array([state[1], *state[0]], dtype=np.int64),
            from_row=lambda row: (tuple(int(h) for h in row[1:]), int(row[0])),
            encodings={"heaps": 0, "material": 1},  # the codes the `encode` kernel takes
        )


def heaps(game, options):
    columns = tuple(f"heap{i + 1}" for i in range(len(game.heaps)))
    # kernel_options=(): the `encode` kernel computes it too (it takes no options)
    return Encoding(
        "heaps", columns, lambda state: np.array(state[0], dtype=float), kernel_options=()
    )


def _winning(state):
    """+1 when the side to move wins with perfect play (the heaps' sizes mod 4 do not xor to 0)."""
    nimsum = 0
    for heap in state[0]:
        nimsum ^= heap % 4
    return 1.0 if nimsum else -1.0


def material(game, options):
    """The heuristic the `material` model sums: here, who wins with perfect play.

    All three paths of an Encoding: ``encode`` (numpy, one state), ``encode_batch_fn`` (a 2-D
    array, for training) and ``encode_py`` (Python floats, for search leaves). check-game holds
    the fast ones equal to ``encode``.
    """
    return Encoding(
        "material",
        ("winning",),
        encode=lambda state: np.array([_winning(state)]),
        encode_batch_fn=lambda states: np.array([[_winning(s)] for s in states]).reshape(-1, 1),
        encode_py=lambda state: (_winning(state),),
        kernel_options=(),
    )


@hookimpl
def mindgames_games():
    return [GameInfo("nim", Nim, "take 1-3 from a heap; last take wins")]


@hookimpl
def mindgames_encodings():
    return [EncodingInfo("nim", "heaps", heaps), EncodingInfo("nim", "material", material)]
