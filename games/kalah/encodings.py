"""Kalah encodings, all from the side to move's point of view.

* ``kalah14`` -- my pits, my store, their pits, their store, each divided by the total number of
  seeds and multiplied by ``scale`` (2 in the TD Kalah study); 2m+2 columns.
* ``kalah-features`` -- store difference; vulnerable pits (a non-empty pit facing an empty pit
  of the other side: a sowing that ends in that empty pit captures it), one per pit for each
  side; attackable pits (a vulnerable pit that a legal move of the other side captures right
  now), one per pit for each side; total seed difference; seeds left on each side. Analog
  columns are divided by the total number of seeds.
* ``material`` -- the store difference in seeds (the material model squashes it).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from mindgames.game import Encoding
from mindgames.games.kalah.rules import Kalah, KalahState


@attrs.frozen
class Kalah14Options:
    scale: float = 1.0


def kalah14(game: Kalah, options: Kalah14Options) -> Encoding:
    m = game.pits
    factor = options.scale / (2 * m * game.seeds)
    columns = (
        *(f"my_pit{i + 1}" for i in range(m)),
        "my_store",
        *(f"their_pit{i + 1}" for i in range(m)),
        "their_store",
    )

    def encode(state: KalahState) -> np.ndarray:
        return np.array(game.fields_from_mover(state), dtype=float) * factor

    def encode_batch(states: Sequence[KalahState]) -> np.ndarray:
        return game.fields_batch(states) * factor

    return Encoding("kalah14", columns, encode, encode_batch)


def _captures(game: Kalah, fields: list[int], own: range, skip: int) -> set[int]:
    """Pits facing ``own`` that a sowing from ``own`` (skipping field ``skip``) captures now."""
    m = game.pits
    n = 2 * m + 2
    hit = set()
    for f in own:
        s = fields[f]
        if not s:
            continue
        board = list(fields)
        board[f], i = 0, f
        while s:
            i = (i + 1) % n
            if i != skip:
                board[i] += 1
                s -= 1
        if i in own and board[i] == 1:
            opp = 2 * m - i
            if board[opp] or game.empty_capture:
                hit.add(opp)
    return hit


def features(game: Kalah, options: None) -> Encoding:
    m = game.pits
    total = 2 * m * game.seeds
    columns = (
        "store_diff",
        *(f"my_vulnerable{i + 1}" for i in range(m)),
        *(f"their_vulnerable{i + 1}" for i in range(m)),
        *(f"my_attackable{i + 1}" for i in range(m)),
        *(f"their_attackable{i + 1}" for i in range(m)),
        "seed_diff",
        "my_seeds_left",
        "their_seeds_left",
    )
    mine, theirs = range(0, m), range(m + 1, 2 * m + 1)

    def encode(state: KalahState) -> np.ndarray:
        f = game.fields_from_mover(state)  # my pits 0..m-1, my store m, theirs m+1..2m
        my_left, their_left = sum(f[0:m]), sum(f[m + 1 : 2 * m + 1])
        my_vul = [1.0 if f[i] and not f[2 * m - i] else 0.0 for i in mine]
        their_vul = [1.0 if f[i] and not f[2 * m - i] else 0.0 for i in theirs]
        # my pits they could capture were it their turn, and their pits I capture now
        their_hits = _captures(game, f, theirs, skip=m)
        my_hits = _captures(game, f, mine, skip=2 * m + 1)
        my_att = [1.0 if i in their_hits else 0.0 for i in mine]
        their_att = [1.0 if i in my_hits else 0.0 for i in theirs]
        return np.array(
            [
                (f[m] - f[2 * m + 1]) / total,
                *my_vul,
                *their_vul,
                *my_att,
                *their_att,
                (f[m] + my_left - f[2 * m + 1] - their_left) / total,
                my_left / total,
                their_left / total,
            ]
        )

    return Encoding("kalah-features", columns, encode)


def material(game: Kalah, options: None) -> Encoding:
    m = game.pits
    # the two stores straight from the packed fields, for the pure-Python path
    mask, south, north = game.t.mask, game.t.shift[m], game.t.shift[2 * m + 1]

    def encode(state: KalahState) -> np.ndarray:
        f = game.fields_from_mover(state)
        return np.array([float(f[m] - f[2 * m + 1])])

    def encode_py(state: KalahState) -> tuple[int]:
        pos = state[0]
        d = ((pos >> south) & mask) - ((pos >> north) & mask)
        return (d,) if state[1] == 0 else (-d,)

    return Encoding("material", ("store_diff",), encode, encode_py=encode_py)
