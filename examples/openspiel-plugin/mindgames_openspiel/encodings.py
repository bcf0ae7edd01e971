"""Encodings of OpenSpiel games: the observation tensor, and which side is to move.

``observation`` is OpenSpiel's observation tensor for the side to move, flattened, with one
column per cell named by its index in the tensor's shape (``obs_0_2_1`` for plane 0, row 2,
column 1 of a ``[3, 6, 7]`` tensor). OpenSpiel defines the tensor per game, and many games
(tic-tac-toe, connect four, breakthrough) give both players the same absolute picture; ``to_move``
(one column, 1.0 when the second player is to move) tells a model whose turn it is:
``observation+to_move``. No eligible game offers an information-state tensor that differs from
its observation, so there is no ``information`` encoding.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from mindgames import CapabilityError, Encoding
from mindgames_openspiel.game import OpenSpiel, SpielState


def observation_columns(shape: list[int]) -> tuple[str, ...]:
    """``obs_i_j_k`` for every index of a tensor of ``shape``, in row-major (flattening) order."""
    return tuple(
        "obs_" + "_".join(map(str, index)) for index in itertools.product(*map(range, shape))
    )


def observation(game: OpenSpiel, options: object = None) -> Encoding:
    """OpenSpiel's observation tensor for the side to move, one named column per cell."""
    spiel = game.spiel_game
    if not spiel.get_type().provides_observation_tensor:
        raise CapabilityError(f"OpenSpiel game {game.game!r} has no observation tensor")
    columns = observation_columns(spiel.observation_tensor_shape())

    def encode_py(state: SpielState) -> tuple[float, ...]:
        return tuple(state.spiel.observation_tensor(state.player))

    def encode(state: SpielState) -> np.ndarray:
        return np.array(state.spiel.observation_tensor(state.player), dtype=float)

    def encode_batch(states: Sequence[SpielState]) -> np.ndarray:
        rows = [s.spiel.observation_tensor(s.player) for s in states]
        return np.array(rows, dtype=float).reshape(len(states), len(columns))

    return Encoding("observation", columns, encode, encode_batch, encode_py=encode_py)


def to_move(game: OpenSpiel, options: object = None) -> Encoding:
    """One column, ``second_to_move``: 1.0 when the second player is to move, else 0.0."""

    def encode_py(state: SpielState) -> tuple[float, ...]:
        return (float(state.player),)

    def encode(state: SpielState) -> np.ndarray:
        return np.array([float(state.player)])

    def encode_batch(states: Sequence[SpielState]) -> np.ndarray:
        return np.array([[float(s.player)] for s in states]).reshape(len(states), 1)

    return Encoding("to_move", ("second_to_move",), encode, encode_batch, encode_py=encode_py)
