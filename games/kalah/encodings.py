"""Kalah encodings, all from the side to move's point of view.

* ``kalah14`` -- my pits, my store, their pits, their store, each divided by the total number of
  seeds and multiplied by ``scale`` (2 in the TD Kalah study); 2m+2 columns.
* ``kalah-features`` -- store difference; vulnerable pits (a non-empty pit facing an empty pit
  of the other side: a sowing that ends in that empty pit captures it), one per pit for each
  side; attackable pits (a vulnerable pit that a legal move of the other side captures right
  now), one per pit for each side; total seed difference; seeds left on each side. Analog
  columns are divided by the total number of seeds.
* ``kalah-counts`` -- each pit's seed count one-hot (``levels`` columns a pit, default 2m+2; the
  last means that many seeds or more), no stores (add ``kalah14`` or ``kalah-features``): a net
  then gives every count of every pit its own weight, which tactics need (an extra turn or a
  capture happens at one exact count, not at "more seeds").
* ``kalah-moves`` -- what each move would do now, for each side as if it were to move: an extra
  turn (0/1) and the seeds its store gains (the sowing's pass plus a capture, / 2n) per pit, and
  the best gain of each side.
* ``material`` -- the store difference in seeds (the material model squashes it).

Every one has a compiled kernel (games/kalah/kernels.py ``encode``) that reads its
``kernel_options``.
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

    width = 2 * m + 2

    def encode_rows(rows: np.ndarray) -> np.ndarray:
        # a ``StateRows`` row starts with the fields seen from the mover (games/kalah/rows.py)
        return rows[:, :width] * factor

    return Encoding(
        "kalah14",
        columns,
        encode,
        encode_batch,
        encode_rows=encode_rows,
        kernel_options=(float(options.scale),),
    )


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

    return Encoding("kalah-features", columns, encode, kernel_options=())


@attrs.frozen
class CountsOptions:
    #: one-hot columns a pit (counts 0 .. levels-2, then "levels-1 or more"); None: 2m+2
    levels: int | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.ge(2))
    )


def counts(game: Kalah, options: CountsOptions) -> Encoding:
    m = game.pits
    levels = options.levels or 2 * m + 2
    top = levels - 1
    names = [f"my_pit{i + 1}" for i in range(m)] + [f"their_pit{i + 1}" for i in range(m)]
    columns = tuple(
        f"{pit}={k}" if k < top else f"{pit}>={k}" for pit in names for k in range(levels)
    )
    pits = [*range(0, m), *range(m + 1, 2 * m + 1)]
    hot = [levels * j for j in range(2 * m)]
    width = len(columns)

    def encode(state: KalahState) -> np.ndarray:
        f = game.fields_from_mover(state)
        x = np.zeros(width)
        x[[h + min(f[p], top) for h, p in zip(hot, pits, strict=True)]] = 1.0
        return x

    def encode_batch(states: Sequence[KalahState]) -> np.ndarray:
        f = np.array([game.fields_from_mover(s) for s in states], dtype=np.int64).reshape(
            -1, 2 * m + 2
        )
        x = np.zeros((len(f), width))
        rows = np.arange(len(f))[:, None]
        x[rows, np.array(hot) + np.minimum(f[:, pits], top)] = 1.0
        return x

    return Encoding("kalah-counts", columns, encode, encode_batch, kernel_options=(float(levels),))


def _move_effects(game: Kalah, pos: int, side: int) -> tuple[list[float], list[int]]:
    """Per pit of ``side`` (1..m): whether sowing it now ends in its store, and the seeds its
    store gains (the sowing's pass through it plus a capture); an empty pit gives 0, 0."""
    t = game.t
    mask, store_shift = t.mask, t.shift[t.store[side]]
    captures = t.captures[side]
    before = (pos >> store_shift) & mask
    extra, gain = [], []
    for _, shift, deltas, lasts in t.sowings[side]:
        s = (pos >> shift) & mask
        if not s:
            extra.append(0.0)
            gain.append(0)
            continue
        npos = pos + deltas[s]
        land = lasts[s]
        won = ((npos >> store_shift) & mask) - before
        capture = captures[land]
        if land == t.store[side]:
            extra.append(1.0)
        else:
            extra.append(0.0)
            if capture is not None and (npos >> capture[0]) & mask == 1:
                opposite = (npos >> capture[1]) & mask
                if opposite or game.empty_capture:
                    won += 1 + opposite
        gain.append(won)
    return extra, gain


def moves(game: Kalah, options: None) -> Encoding:
    m = game.pits
    scale = 1.0 / (2 * game.seeds)
    columns = (
        *(
            f"{who}_{what}{i + 1}"
            for who in ("my", "their")
            for what in ("extra", "gain")
            for i in range(m)
        ),
        "my_best_gain",
        "their_best_gain",
    )

    def row(state: KalahState) -> list[float]:
        pos, side = state[0], state[1]
        my_extra, my_gain = _move_effects(game, pos, side)
        their_extra, their_gain = _move_effects(game, pos, 1 - side)
        return [
            *my_extra,
            *(g * scale for g in my_gain),
            *their_extra,
            *(g * scale for g in their_gain),
            max(my_gain) * scale,
            max(their_gain) * scale,
        ]

    def encode(state: KalahState) -> np.ndarray:
        return np.array(row(state))

    def encode_batch(states: Sequence[KalahState]) -> np.ndarray:
        return np.array([row(s) for s in states], dtype=float).reshape(-1, len(columns))

    return Encoding("kalah-moves", columns, encode, encode_batch, kernel_options=())


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

    return Encoding("material", ("store_diff",), encode, encode_py=encode_py, kernel_options=())
