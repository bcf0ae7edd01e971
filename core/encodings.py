"""Encodings the core offers for every game, and the concatenation of encodings.

``progress`` (one column, ``plies``: the game's progress measure) lets a model route on how far
a game has gone -- the per-stage evaluators of Layered Learning split a game by it. A spec
``raw32+progress`` joins encodings side by side, so any model can see several at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mindgames.errors import ConfigError
from mindgames.game import Encoding, Game, State

PROGRESS = "progress"


def progress_encoding(game: Game, options: Any = None) -> Encoding:
    """The game's progress measure (plies played) as a one-column encoding."""
    progress = game.progress

    def encode(state: State) -> np.ndarray:
        return np.array([float(progress(state))])

    def encode_batch(states: Sequence[State]) -> np.ndarray:
        return np.array([[float(progress(s))] for s in states], dtype=float).reshape(-1, 1)

    def encode_py(state: State) -> tuple[float, ...]:
        return (float(progress(state)),)

    # kernel_options: the compiled path computes it from the game's ``progress`` kernel
    return Encoding(
        PROGRESS, ("plies",), encode, encode_batch, encode_py=encode_py, kernel_options=()
    )


def concatenate(parts: Sequence[Encoding]) -> Encoding:
    """Encodings side by side: the columns of each in order; column names must not repeat."""
    columns: list[str] = []
    for part in parts:
        for column in part.columns:
            if column in columns:
                raise ConfigError(
                    f"encoding {'+'.join(p.name for p in parts)!r}: column {column!r} appears "
                    "in more than one part"
                )
            columns.append(column)
    encoders = [p.encode for p in parts]

    def encode(state: State) -> np.ndarray:
        return np.concatenate([e(state) for e in encoders])

    def encode_batch(states: Sequence[State]) -> np.ndarray:
        return np.hstack([p.encode_batch(states) for p in parts])

    fast = [p.encode_py for p in parts]
    encode_py = None
    if all(f is not None for f in fast):

        def encode_py(state: State) -> tuple[float, ...]:
            return tuple(v for f in fast if f is not None for v in f(state))

    name = "+".join(p.name for p in parts)
    groups = _joined_groups(parts)
    return Encoding(
        name,
        tuple(columns),
        encode,
        encode_batch,
        encode_py=encode_py,
        groups=groups,
        parts=tuple(q for p in parts for q in (p.parts or (p,))),
    )


def _joined_groups(parts: Sequence[Encoding]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The column groups every part offers; a set name two parts offer holds both parts' groups
    (their columns never overlap, so each group still names columns of the joined encoding)."""
    joined: dict[str, tuple[tuple[str, ...], ...]] = {}
    for part in parts:
        for set_name, groups in part.groups.items():
            joined[set_name] = joined.get(set_name, ()) + tuple(groups)
    return joined
