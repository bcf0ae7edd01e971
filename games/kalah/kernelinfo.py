"""What Kalah's compiled kernels read, made without numba: the parameter vector, the encoding
codes, the exact conversions between states and rows, and the ``GameKernels`` of one Kalah.

Rows are ``StateRows`` rows (games/kalah/rows.py), the board seen from the side to move::

    my pits 0..m-1, my store m, their pits m+1..2m, their store 2m+1, turns, plies, mine, theirs

``turns`` has the side to move as its parity (``to_row`` writes the side itself, 0 or 1; a
child adds 1 when the turn passes, as ``rows.row_children`` does), ``mine`` and ``theirs`` are
the seeds in each side's pits. The kernels themselves are in ``kernels.py`` (which imports
numba); this module must stay importable without it (``Kalah.kernels`` builds from it).

``params`` (int64): ``pits, seeds, empty_capture, total, width``, three spare zeros, then the
key's Zobrist numbers: ``2m + 2`` absolute fields times ``total + 1`` counts, and one for North
to move. Counts never exceed ``total`` (a state holds at most ``2mn`` seeds: ``to_row`` checks).

Encoding codes (``GameKernels.encodings``) name the encoding whatever its options, which reach
the kernel as the Python encoding's ``kernel_options`` (games/kalah/encodings.py sets them):
``kalah14`` (``(scale,)``), ``kalah-features``, ``kalah-moves``, ``kalah-counts``
(``(levels,)``), ``material``. The core's ``progress`` needs none (the ``progress`` kernel).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import numpy as np

from mindgames.errors import SpecError
from mindgames.games.kalah.engine import Tables
from mindgames.kernels import GameKernels
from mindgames.spec import parse_spec

if TYPE_CHECKING:  # rules imports this module
    from mindgames.games.kalah.rules import Kalah, KalahState

#: the kernel module (``GameKernels.module``)
MODULE = "mindgames.games.kalah.kernels"

# params: indexes of the scalars, and where the Zobrist numbers start
P_PITS, P_SEEDS, P_EMPTY, P_TOTAL, P_WIDTH = 0, 1, 2, 3, 4
P_ZOBRIST = 8
#: the Zobrist numbers' seed (any fixed seed: keys only need to be equal within one process)
ZOBRIST_SEED = 20261127

# encoding codes
E_KALAH14, E_FEATURES, E_MOVES, E_COUNTS, E_MATERIAL = 0, 1, 2, 3, 4

#: the encodings with kernels and their codes
KINDS = {
    "kalah14": E_KALAH14,
    "kalah-features": E_FEATURES,
    "kalah-moves": E_MOVES,
    "kalah-counts": E_COUNTS,
    "material": E_MATERIAL,
}


def width(pits: int) -> int:
    """Columns of a row of Kalah with ``pits`` pits a side."""
    return 2 * pits + 6


def kernel_params(game: Kalah) -> np.ndarray:
    """``GameKernels.params`` of ``game`` (module docstring)."""
    m, total = game.pits, 2 * game.pits * game.seeds
    zobrist = np.random.default_rng(ZOBRIST_SEED).integers(
        np.iinfo(np.int64).min,
        np.iinfo(np.int64).max,
        size=(2 * m + 2) * (total + 1) + 1,
        dtype=np.int64,
        endpoint=True,
    )
    head = np.array(
        [m, game.seeds, int(game.empty_capture), total, width(m), 0, 0, 0], dtype=np.int64
    )
    return np.concatenate([head, zobrist])


def to_row(t: Tables, state: KalahState) -> np.ndarray:
    """The row of ``state`` (module docstring); refuses more seeds than the game has."""
    pos, side, plies = state
    mask, m = t.mask, t.pits
    fields = [(pos >> s) & mask for s in t.view_shifts[side]]
    if sum(fields) > t.total:
        raise ValueError(f"a Kalah({m}) state with {sum(fields)} seeds, more than {t.total}")
    mine, theirs = sum(fields[:m]), sum(fields[m + 1 : 2 * m + 1])
    return np.array([*fields, side, plies, mine, theirs], dtype=np.int64)


def from_row(t: Tables, row: np.ndarray) -> KalahState:
    """The state of a row (the side is the parity of ``turns``)."""
    n, m = t.fields, t.pits
    values = [int(v) for v in row.tolist()]
    side = values[n] & 1
    board = values[:n] if side == 0 else values[m + 1 : n] + values[: m + 1]
    return (t.pack(board), side, values[n + 1])


def encoding_code(name: str) -> int | None:
    """The code of the encoding with canonical name ``name`` (its options do not change it: they
    reach the kernel as ``kernel_options``), or None."""
    try:
        base, _ = parse_spec(name)
    except SpecError:
        return None
    return KINDS.get(base)


class EncodingCodes(Mapping[str, int]):
    """``GameKernels.encodings`` of Kalah: canonical encoding name -> code.

    Iterating lists the encodings under their default options; looking up also takes a name
    with options (``kalah14:scale=2.0``, ``kalah-counts:levels=5``), the code of its encoding.
    """

    def __iter__(self) -> Iterator[str]:
        return iter(KINDS)

    def __len__(self) -> int:
        return len(KINDS)

    def __getitem__(self, name: str) -> int:
        code = encoding_code(name) if isinstance(name, str) else None
        if code is None:
            raise KeyError(name)
        return code

    def __repr__(self) -> str:
        return f"EncodingCodes({dict(self)!r})"


_MADE: dict[tuple[int, int, bool], GameKernels] = {}


def game_kernels(game: Kalah) -> GameKernels:
    """The ``GameKernels`` of ``game`` (``Kalah.kernels``), made once per parameter set (the
    solver asks for them per position). Kernels never write to ``params``."""
    made = _MADE.get((game.pits, game.seeds, game.empty_capture))
    if made is None:
        made = _MADE[game.pits, game.seeds, game.empty_capture] = _game_kernels(game)
    return made


def _game_kernels(game: Kalah) -> GameKernels:
    t = game.t
    return GameKernels(
        module=MODULE,
        params=kernel_params(game),
        width=width(game.pits),
        max_children=game.pits,  # one child per own pit at most
        to_row=lambda state: to_row(t, state),
        from_row=lambda row: from_row(t, row),
        encodings=EncodingCodes(),
        margin=True,
    )
