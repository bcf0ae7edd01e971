"""A draughts game's ``GameKernels``: parameters, width, row conversions and encoding codes.

No numba here (``Draughts.kernels()`` builds this description in processes that never search);
the kernels themselves are ``mindgames.games.draughts.kernels``, imported by name on demand.
The row layout is documented there; the column numbers below are the same.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import numpy as np

from mindgames.kernels import GameKernels
from mindgames.spec import parse_spec

if TYPE_CHECKING:
    from mindgames.games.draughts.rules import Draughts, DraughtsState

MODULE = "mindgames.games.draughts.kernels"
#: columns before the history, and per history entry (``kernels`` module docstring)
HEADER = 7
ENTRY = 3
SIDE_SHIFT = 35
#: ``kernels_rules.MAX_CHILDREN`` (kept equal by a test: this module must not import numba)
MAX_CHILDREN = 184
#: a limit that is off
UNLIMITED = 1 << 62

#: encodings without options and their codes (``kernels_encode``)
PLAIN_CODES = {
    "material": 0,
    "binary3": 1,
    "binary4": 2,
    "binary4k": 3,
    "binary5": 4,
    "samuel": 5,
    "gac11": 6,
    "progress": 7,
}
#: encodings carrying a king value K in the code: family number, and whether it sums
FAMILY_UNIT = 1 << 56
KING_SCALE = 1 << 52
RAW32, RAW32_SUM, LL_FEATURES = 1, 2, 3
DEFAULT_KING = 2.0


#: bits per square in a move's code (``kernels_rules.MOVE_BITS``)
MOVE_BITS = 6


def move_code(move: tuple[int, ...]) -> int:
    """The kernels' code of a move: its path's PDN squares, 6 bits each, the first lowest (a
    path has at most 10 squares: a capture takes at most 9 pieces, the tests recompute it)."""
    return sum(square << (MOVE_BITS * i) for i, square in enumerate(move))


def king_code(family: int, king: float) -> int | None:
    """``family * 2**56 + K * 2**52``, or None when K is not exactly representable so
    (negative, not finite, 16 or more, or below 1 with too fine a fraction)."""
    if not math.isfinite(king) or not 0.0 <= king < 16.0:
        return None
    scaled = king * KING_SCALE  # exact: a power of two
    if scaled != int(scaled):
        return None
    return family * FAMILY_UNIT + int(scaled)


class EncodingCodes(Mapping[str, int]):
    """Encoding name (canonical spec, ``raw32:king=1.5``) -> code for ``kernels_encode.encode``.

    Iterating lists the encodings with their default options (and ``raw32:piece_sum=true``);
    look-ups also resolve any king value K that a code holds exactly. A joined encoding
    (``raw32+progress``) has no code of its own: its parts have.
    """

    def __init__(self) -> None:
        self._listed = (*PLAIN_CODES, "raw32", "raw32:piece_sum=true", "ll-features")

    def __getitem__(self, name: str) -> int:
        try:
            base, options = parse_spec(name)
        except Exception:  # not a spec at all
            raise KeyError(name) from None
        if base in PLAIN_CODES and not options:
            return PLAIN_CODES[base]
        allowed = {"raw32": {"king", "piece_sum"}, "ll-features": {"king"}}.get(base)
        if allowed is None or not set(options) <= allowed:
            raise KeyError(name)
        king = options.get("king", DEFAULT_KING)
        piece_sum = options.get("piece_sum", False)
        if isinstance(king, bool) or not isinstance(king, int | float):
            raise KeyError(name)
        if not isinstance(piece_sum, bool):
            raise KeyError(name)
        family = LL_FEATURES if base == "ll-features" else RAW32_SUM if piece_sum else RAW32
        code = king_code(family, float(king))
        if code is None:
            raise KeyError(name)
        return code

    def __iter__(self) -> Iterator[str]:
        return iter(self._listed)

    def __len__(self) -> int:
        return len(self._listed)


def history_bound(game: Draughts) -> int | None:
    """The most repetition-history entries a state of ``game`` holds (None: unbounded)."""
    if not game.repetition:
        return 0
    limits = [2 * game.no_progress] if game.no_progress else []
    if game.max_plies is not None:
        limits.append(game.max_plies)
    return min(limits) if limits else None


def game_kernels(game: Draughts) -> GameKernels | None:
    """The compiled description of ``game`` (None when its history is unbounded); made once
    per rule set (a search asks for it every time it starts)."""
    bound = history_bound(game)
    if bound is None:
        return None
    return _described(bound, game.repetition, game.no_progress, game.max_plies, game.losing)


@functools.lru_cache(maxsize=64)
def _described(
    bound: int, repetition: bool, no_progress: int, max_plies: int | None, losing: bool
) -> GameKernels:
    """``game_kernels`` of a rule set."""
    width = HEADER + ENTRY * bound
    params = np.array(
        [
            int(repetition),
            2 * no_progress if no_progress else UNLIMITED,
            max_plies if max_plies is not None else UNLIMITED,
            int(losing),
            bound,
        ],
        dtype=np.int64,
    )

    def to_row(state: DraughtsState) -> np.ndarray:
        """The state's row (history included; unused columns zero)."""
        b, w, k, side, plies, quiet, history = state
        if len(history) > bound:
            raise ValueError(f"a history of {len(history)} positions; the rows hold {bound}")
        flat = [b, w, k, side, plies, quiet, len(history)]
        for hb, hw, hk, hs in history:  # one assignment below, not one a history entry
            flat += (hb, hw, hk | hs << SIDE_SHIFT)
        row = np.zeros(width, dtype=np.int64)
        row[: len(flat)] = flat
        return row

    def from_row(row: np.ndarray) -> DraughtsState:
        """The state of a row (Python ints throughout)."""
        b, w, k, side, plies, quiet, hlen = (int(x) for x in row[:HEADER])
        mask = (1 << SIDE_SHIFT) - 1
        history = []
        for i in range(hlen):
            j = HEADER + ENTRY * i
            ks = int(row[j + 2])
            history.append((int(row[j]), int(row[j + 1]), ks & mask, ks >> SIDE_SHIFT))
        return (b, w, k, side, plies, quiet, tuple(history))

    return GameKernels(
        module=MODULE,
        params=params,
        width=width,
        max_children=MAX_CHILDREN,
        to_row=to_row,
        from_row=from_row,
        encodings=EncodingCodes(),
    )
