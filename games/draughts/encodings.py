"""Draughts encodings, all from the side to move's point of view (docs/draughts.md).

When White is to move the board is turned round (view square ``j`` is PDN square ``33 - j``),
so the mover's men always start on view squares 1-12 and move toward 32. "mine" is the side to
move, "theirs" the other side.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import attrs
import numpy as np

from mindgames.game import Encoding
from mindgames.games.draughts.engine import BIT, BOARD, PROMO, SQ, coords, simple_targets
from mindgames.games.draughts.rules import Draughts, DraughtsState

#: bit index of view square j (0-based) for each side to move
VIEW_BITS = (
    np.array([BIT[s] for s in range(1, 33)], dtype=np.int64),
    np.array([BIT[33 - s] for s in range(1, 33)], dtype=np.int64),
)
SQUARES = tuple(f"sq{j}" for j in range(1, 33))


def _mask(squares: Sequence[int]) -> int:
    return sum(SQ[s] for s in squares)


EDGE = _mask([1, 2, 3, 4, 5, 13, 21, 12, 20, 28, 29, 30, 31, 32])
CENTRE = _mask([10, 11, 14, 15, 18, 19, 22, 23])
DOUBLE_DIAGONAL = _mask([1, 6, 10, 15, 19, 24, 28, 5, 9, 14, 18, 23, 27, 32])
BRIDGE = (_mask([1, 3]), _mask([30, 32]))  # each side's back-row bridge squares
#: rows 3-4 and rows 5-6 counted from each side's own back row (Samuel's advancement)
ROWS34 = (_mask(range(9, 17)), _mask(range(17, 25)))
ROWS56 = (_mask(range(17, 25)), _mask(range(9, 17)))
ROW = [0] * 35
for _s in range(1, 33):
    ROW[BIT[_s]] = (_s - 1) // 4


def _planes(states: Sequence[DraughtsState]) -> tuple[np.ndarray, ...]:
    """(n, 32) 0/1 arrays: my men, my kings, their men, their kings, in view order."""
    n = len(states)
    mine = np.empty(n, dtype=np.int64)
    theirs = np.empty(n, dtype=np.int64)
    kings = np.empty(n, dtype=np.int64)
    bits = np.empty((n, 32), dtype=np.int64)
    for i, s in enumerate(states):
        b, w, k, side = s[0], s[1], s[2], s[3]
        mine[i], theirs[i] = (b, w) if side == 0 else (w, b)
        kings[i] = k
        bits[i] = VIEW_BITS[side]
    my = (mine[:, None] >> bits) & 1
    th = (theirs[:, None] >> bits) & 1
    kg = (kings[:, None] >> bits) & 1
    return my & ~kg & 1, my & kg, th & ~kg & 1, th & kg


def _encoding(
    name: str,
    columns: tuple[str, ...],
    batch: Callable[[Sequence[DraughtsState]], np.ndarray],
    kernel_options: tuple[float, ...] = (),
) -> Encoding:
    """An encoding from its batch function; ``kernel_options``: what the draughts kernels'
    ``encode`` reads of its options (every draughts encoding has a kernel)."""

    def encode(state: DraughtsState) -> np.ndarray:
        return batch([state])[0]

    def encode_batch(states: Sequence[DraughtsState]) -> np.ndarray:
        if not len(states):
            return np.zeros((0, len(columns)))
        return batch(states)

    return Encoding(name, columns, encode, encode_batch, kernel_options=kernel_options)


@attrs.frozen
class Raw32Options:
    """``king``: the value of a king (a man is 1); ``piece_sum``: add the sum of the 32 inputs."""

    king: float = attrs.field(default=2.0, converter=float)
    piece_sum: bool = False


def _raw(states: Sequence[DraughtsState], king: float) -> np.ndarray:
    mm, mk, tm, tk = _planes(states)
    return (mm - tm) + king * (mk - tk).astype(float)


def raw32(game: Draughts, options: Raw32Options | None) -> Encoding:
    opts = options or Raw32Options()
    columns = SQUARES + (("piece_sum",) if opts.piece_sum else ())

    def batch(states: Sequence[DraughtsState]) -> np.ndarray:
        x = _raw(states, opts.king)
        return np.hstack([x, x.sum(axis=1, keepdims=True)]) if opts.piece_sum else x

    enc = _encoding("raw32", columns, batch, (opts.king, float(opts.piece_sum)))
    groups = {"subsquares": subsquares()}
    return attrs.evolve(enc, encode_py=raw32_py(opts.king, opts.piece_sum), groups=groups)


@functools.cache  # the same for every game: built once, not for every encoding made
def subsquares() -> tuple[tuple[str, ...], ...]:
    """The ``sq`` columns of every 3x3 ... 8x8 sub-square of the board (36 + 25 + 16 + 9 + 4 + 1
    = 91 groups, smallest first): the spatial layer of Chellapilla and Fogel's checkers net.

    The set is the same from either side's view (it is symmetric under the half turn)."""
    groups = []
    for size in range(3, 9):
        for top in range(9 - size):
            for left in range(9 - size):
                inside = [
                    f"sq{s}"
                    for s in range(1, 33)
                    if top <= coords(s)[0] < top + size and left <= coords(s)[1] < left + size
                ]
                groups.append(tuple(inside))
    return tuple(groups)


#: view square index (0-based) of each bit of the board, for each side to move
VIEW_INDEX = tuple(
    tuple(
        int(np.flatnonzero(VIEW_BITS[side] == bit)[0]) if bit in VIEW_BITS[side] else 0
        for bit in range(36)
    )
    for side in (0, 1)
)


def raw32_py(king: float, piece_sum: bool) -> Callable[[DraughtsState], tuple[float, ...]]:
    """``raw32`` without numpy: walk the pieces of each side (about 2 us, numpy takes 14)."""
    man = 1.0

    def encode_py(state: DraughtsState) -> tuple[float, ...]:
        b, w, k, side = state[0], state[1], state[2], state[3]
        mine, theirs = (b, w) if side == 0 else (w, b)
        pos = VIEW_INDEX[side]
        out = [0.0] * 32
        while mine:
            low = mine & -mine
            mine ^= low
            out[pos[low.bit_length() - 1]] = king if low & k else man
        while theirs:
            low = theirs & -theirs
            theirs ^= low
            out[pos[low.bit_length() - 1]] = -king if low & k else -man
        if piece_sum:
            out.append(sum(out))
        return tuple(out)

    return encode_py


def _onehot(name: str, labels: tuple[str, ...]) -> Callable[[Draughts, None], Encoding]:
    columns = tuple(f"{sq}_{label}" for sq in SQUARES for label in labels)

    def build(game: Draughts, options: None) -> Encoding:
        def batch(states: Sequence[DraughtsState]) -> np.ndarray:
            mm, mk, tm, tk = _planes(states)
            planes = {
                "mine": mm | mk,
                "theirs": tm | tk,
                "king": mk | tk,
                "empty": 1 - (mm | mk | tm | tk),
                "my_king": mk,
                "my_man": mm,
                "their_man": tm,
                "their_king": tk,
            }
            x = np.stack([planes[label] for label in labels], axis=2)
            return x.reshape(len(states), -1).astype(float)

        return _encoding(name, columns, batch)

    return build


binary3 = _onehot("binary3", ("mine", "theirs", "king"))
binary4 = _onehot("binary4", ("empty", "mine", "theirs", "king"))
binary4k = _onehot("binary4k", ("my_king", "my_man", "their_man", "their_king"))
binary5 = _onehot("binary5", ("my_king", "my_man", "empty", "their_man", "their_king"))


# --- hand-made features ----------------------------------------------------------------------
GAC = (
    "men",
    "kings",
    "pieces",
    "safe_men",
    "safe_kings",
    "safe_pieces",
    "moveable_men",
    "moveable_kings",
    "moveable_pieces",
    "distance",
    "promotion_free",
)


def side_features(b: int, w: int, k: int, colour: int) -> tuple[int, ...]:
    """The eleven give-away features of ``colour`` (0 Black, 1 White), in ``GAC`` order."""
    own = b if colour == 0 else w
    empty = BOARD ^ (b | w)
    kings = own & k
    men = own ^ kings
    ahead = (empty >> 4) | (empty >> 5) if colour == 0 else (empty << 4) | (empty << 5)
    fwd = men & ahead
    kmove = kings & ((empty >> 4) | (empty >> 5) | (empty << 4) | (empty << 5))
    nm, nk = men.bit_count(), kings.bit_count()
    sm, sk = (men & EDGE).bit_count(), (kings & EDGE).bit_count()
    mm, mk = fwd.bit_count(), kmove.bit_count()
    dist = 0
    x = men
    while x:
        low = x & -x
        x ^= low
        row = ROW[low.bit_length() - 1]
        dist += 7 - row if colour == 0 else row
    free = (PROMO[colour] & empty).bit_count()
    return (nm, nk, nm + nk, sm, sk, sm + sk, mm, mk, mm + mk, dist, free)


def _both(state: DraughtsState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    b, w, k, side = state[0], state[1], state[2], state[3]
    return side_features(b, w, k, side), side_features(b, w, k, 1 - side)


def gac11(game: Draughts, options: None) -> Encoding:
    columns = tuple(f"{f}_{who}" for f in GAC for who in ("mine", "theirs", "diff"))

    def batch(states: Sequence[DraughtsState]) -> np.ndarray:
        rows = []
        for s in states:
            mine, theirs = _both(s)
            rows.append([v for a, t in zip(mine, theirs, strict=True) for v in (a, t, a - t)])
        return np.array(rows, dtype=float)

    return _encoding("gac11", columns, batch)


LL = ("men", "kings", "safe_men", "safe_kings", "moveable_men", "moveable_kings")
_LL_INDEX = [GAC.index(f) for f in (*LL, "distance", "promotion_free")]


@attrs.frozen
class LLOptions:
    """``king``: the value of a king in the raw32 part."""

    king: float = attrs.field(default=2.0, converter=float)


def ll_features(game: Draughts, options: LLOptions | None) -> Encoding:
    opts = options or LLOptions()
    columns = SQUARES + tuple(f"{GAC[i]}_diff" for i in _LL_INDEX)

    def batch(states: Sequence[DraughtsState]) -> np.ndarray:
        feats = []
        for s in states:
            mine, theirs = _both(s)
            feats.append([mine[i] - theirs[i] for i in _LL_INDEX])
        return np.hstack([_raw(states, opts.king), np.array(feats, dtype=float)])

    return _encoding("ll-features", columns, batch, (opts.king,))


def material_py(state: DraughtsState) -> tuple[int, int]:
    """``material`` without numpy: (men, kings) differences by popcounts on the bitboards
    (two popcounts when no king is on the board, as in every opening)."""
    b, w, k, side, _, _, _ = state
    if k:
        bk, wk = (b & k).bit_count(), (w & k).bit_count()
        men, kings = b.bit_count() - bk - w.bit_count() + wk, bk - wk
    else:
        men, kings = b.bit_count() - w.bit_count(), 0
    return (men, kings) if side == 0 else (-men, -kings)


def material(game: Draughts, options: None) -> Encoding:
    def batch(states: Sequence[DraughtsState]) -> np.ndarray:
        mm, mk, tm, tk = _planes(states)
        return np.stack([(mm - tm).sum(axis=1), (mk - tk).sum(axis=1)], axis=1).astype(float)

    enc = _encoding("material", ("men_diff", "kings_diff"), batch)
    return attrs.evolve(enc, encode_py=material_py)


# --- Samuel / NeuroDraughts ------------------------------------------------------------------
SAMUEL = (
    ("piece_advantage", 4),
    ("piece_disadvantage", 4),
    ("piece_threat", 3),
    ("piece_take", 3),
    ("back_row_bridge", 1),
    ("centre_control", 3),
    ("x_centre_control", 3),
    ("total_mobility", 4),
    ("exposure", 3),
    ("advancement", 3),
    ("double_diagonal", 3),
    ("king_centre_control", 3),
)


def _captured_now(own: int, opp: int, k: int, colour: int) -> int:
    """Mask of ``opp`` pieces that ``own`` (of ``colour``) could take with a first jump."""
    empty = BOARD ^ (own | opp)
    ok = own & k
    fwd, back = (own, ok) if colour == 0 else (ok, own)
    return opp & (
        ((fwd << 4) & (empty >> 4))
        | ((fwd << 5) & (empty >> 5))
        | ((back >> 4) & (empty << 4))
        | ((back >> 5) & (empty << 5))
    )


def samuel_values(state: DraughtsState) -> tuple[int, ...]:
    """The twelve NeuroDraughts feature values (before binary coding), for the side to move."""
    b, w, k, side = state[0], state[1], state[2], state[3]
    mine, theirs = (b, w) if side == 0 else (w, b)
    empty = BOARD ^ (b | w)
    pm, pt = mine.bit_count(), theirs.bit_count()
    my_kings = mine & k
    my_men = mine ^ my_kings
    if side == 0:
        reach = ((mine << 4) | (mine << 5) | (my_kings >> 4) | (my_kings >> 5)) & empty
    else:
        reach = ((mine >> 4) | (mine >> 5) | (my_kings << 4) | (my_kings << 5)) & empty
    flanked = mine & (((empty >> 4) & (empty << 4)) | ((empty >> 5) & (empty << 5)))
    return (
        max(0, pm - pt),
        max(0, pt - pm),
        _captured_now(theirs, mine, k, 1 - side).bit_count(),
        _captured_now(mine, theirs, k, side).bit_count(),
        int(mine & BRIDGE[side] == BRIDGE[side] and not theirs & k),
        (my_men & CENTRE).bit_count(),
        ((mine | reach) & CENTRE).bit_count(),
        simple_targets(mine, theirs, k, side),
        flanked.bit_count(),
        max(0, (my_men & ROWS56[side]).bit_count() - (my_men & ROWS34[side]).bit_count()),
        (mine & DOUBLE_DIAGONAL).bit_count(),
        (my_kings & CENTRE).bit_count(),
    )


def samuel(game: Draughts, options: None) -> Encoding:
    columns = tuple(f"{name}_b{i}" for name, bits in SAMUEL for i in range(bits))
    widths = [bits for _, bits in SAMUEL]

    def batch(states: Sequence[DraughtsState]) -> np.ndarray:
        rows = []
        for s in states:
            row: list[int] = []
            for value, bits in zip(samuel_values(s), widths, strict=True):
                v = min(value, (1 << bits) - 1)
                row.extend((v >> i) & 1 for i in range(bits))
            rows.append(row)
        return np.array(rows, dtype=float)

    return _encoding("samuel", columns, batch)
