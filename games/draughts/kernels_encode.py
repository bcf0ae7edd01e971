"""Compiled draughts encodings: the numbers of ``games/draughts/encodings.py`` from a row.

``encode(params, code, options, row, out)`` writes the encoding numbered ``code`` (``kernel_spec``
gives the numbers) into ``out``, from the side to move's point of view, as the Python encoding
does. Codes below ``FAMILY_UNIT`` are encodings without options; ``raw32``, ``raw32`` with the
piece sum, and ``ll-features`` carry their king value K in the code itself:
``family * FAMILY_UNIT + K * 2**52`` (exact for every float K in [1, 16) and for any smaller
non-negative K that is a multiple of 2**-52), so one compiled function serves every K, an
evolving one included, without recompiling. A search passes the Python encoding's
``kernel_options`` as ``options``, which then override the code's K (and piece sum).
"""

from __future__ import annotations

import numpy as np

from mindgames.compiled.hot import hot, stack_empty
from mindgames.games.draughts.encodings import (
    BRIDGE,
    CENTRE,
    DOUBLE_DIAGONAL,
    EDGE,
    ROW,
    ROWS34,
    ROWS56,
    SAMUEL,
    VIEW_INDEX,
)
from mindgames.games.draughts.kernels_rules import (
    BOARD,
    PLIES,
    PROMO0,
    PROMO1,
    SIDE,
    B,
    K,
    W,
    popcount,
)

# --- codes (``kernel_spec.CODES`` names them) --------------------------------------------------
MATERIAL = 0
BINARY3 = 1
BINARY4 = 2
BINARY4K = 3
BINARY5 = 4
SAMUEL_CODE = 5
GAC11 = 6
PROGRESS = 7
#: the king value's scale inside a code (K * 2**52 is an integer below 2**56)
KING_SCALE = 1 << 52
FAMILY_UNIT = 1 << 56
RAW32 = 1
RAW32_SUM = 2
LL_FEATURES = 3

#: view square (0-based) of each bit index, per side to move: VIEW[side * 35 + bit]
VIEW = np.array([VIEW_INDEX[s][bit] for s in (0, 1) for bit in range(35)], dtype=np.int64)
#: row (0 Black's back row) of each bit index
ROWS = np.array(ROW, dtype=np.int64)
#: the samuel features' bit widths, in order
SAMUEL_BITS = np.array([bits for _, bits in SAMUEL], dtype=np.int64)
C_EDGE = int(EDGE)
C_CENTRE = int(CENTRE)
C_DOUBLE = int(DOUBLE_DIAGONAL)
C_BRIDGE0 = int(BRIDGE[0])
C_BRIDGE1 = int(BRIDGE[1])
C_ROWS34_0 = int(ROWS34[0])
C_ROWS34_1 = int(ROWS34[1])
C_ROWS56_0 = int(ROWS56[0])
C_ROWS56_1 = int(ROWS56[1])
#: the gac11 features that ll-features keeps (``encodings._LL_INDEX``)
LL_INDEX = np.array([0, 1, 3, 4, 6, 7, 9, 10], dtype=np.int64)


@hot
def _raw32(row: np.ndarray, king: float, out: np.ndarray) -> None:
    """``raw32`` into ``out[0:32]``: mine +1 a man, +K a king; theirs negative; empty 0."""
    b = row[B]
    w = row[W]
    k = row[K]
    side = row[SIDE]
    mine = b if side == 0 else w
    theirs = w if side == 0 else b
    base = side * 35
    for j in range(32):
        out[j] = 0.0
    while mine:
        x = mine & -mine
        mine ^= x
        out[VIEW[base + popcount(x - 1)]] = king if x & k else 1.0
    while theirs:
        x = theirs & -theirs
        theirs ^= x
        out[VIEW[base + popcount(x - 1)]] = -king if x & k else -1.0


@hot
def _onehot(row: np.ndarray, code: int, out: np.ndarray) -> None:
    """``binary3``, ``binary4``, ``binary4k`` or ``binary5``: one-hot planes per view square."""
    b = row[B]
    w = row[W]
    k = row[K]
    side = row[SIDE]
    mine = b if side == 0 else w
    theirs = w if side == 0 else b
    base = side * 35
    width = 3 if code == BINARY3 else (5 if code == BINARY5 else 4)
    for j in range(32 * width):
        out[j] = 0.0
    occupied = b | w
    for bit in range(35):
        x = 1 << bit
        if not x & BOARD:
            continue
        at = VIEW[base + bit] * width
        my_man = (x & mine) != 0 and (x & k) == 0
        my_king = (x & mine) != 0 and (x & k) != 0
        their_man = (x & theirs) != 0 and (x & k) == 0
        their_king = (x & theirs) != 0 and (x & k) != 0
        empty = (x & occupied) == 0
        if code == BINARY3:  # mine, theirs, king
            out[at] = 1.0 if x & mine else 0.0
            out[at + 1] = 1.0 if x & theirs else 0.0
            out[at + 2] = 1.0 if my_king or their_king else 0.0
        elif code == BINARY4:  # empty, mine, theirs, king
            out[at] = 1.0 if empty else 0.0
            out[at + 1] = 1.0 if x & mine else 0.0
            out[at + 2] = 1.0 if x & theirs else 0.0
            out[at + 3] = 1.0 if my_king or their_king else 0.0
        elif code == BINARY4K:  # my king, my man, their man, their king
            out[at] = 1.0 if my_king else 0.0
            out[at + 1] = 1.0 if my_man else 0.0
            out[at + 2] = 1.0 if their_man else 0.0
            out[at + 3] = 1.0 if their_king else 0.0
        else:  # my king, my man, empty, their man, their king
            out[at] = 1.0 if my_king else 0.0
            out[at + 1] = 1.0 if my_man else 0.0
            out[at + 2] = 1.0 if empty else 0.0
            out[at + 3] = 1.0 if their_man else 0.0
            out[at + 4] = 1.0 if their_king else 0.0


@hot
def _side_features(b: int, w: int, k: int, colour: int, f: np.ndarray) -> None:
    """``encodings.side_features``: the eleven give-away features of ``colour`` into ``f``."""
    own = b if colour == 0 else w
    empty = BOARD ^ (b | w)
    kings = own & k
    men = own ^ kings
    ahead = empty >> 4 | empty >> 5 if colour == 0 else empty << 4 | empty << 5
    fwd = men & ahead
    kmove = kings & ((empty >> 4) | (empty >> 5) | (empty << 4) | (empty << 5))
    nm = popcount(men)
    nk = popcount(kings)
    sm = popcount(men & C_EDGE)
    sk = popcount(kings & C_EDGE)
    mm = popcount(fwd)
    mk = popcount(kmove)
    dist = 0
    x = men
    while x:
        low = x & -x
        x ^= low
        r = ROWS[popcount(low - 1)]
        dist += 7 - r if colour == 0 else r
    free = popcount((PROMO0 if colour == 0 else PROMO1) & empty)
    f[0] = nm
    f[1] = nk
    f[2] = nm + nk
    f[3] = sm
    f[4] = sk
    f[5] = sm + sk
    f[6] = mm
    f[7] = mk
    f[8] = mm + mk
    f[9] = dist
    f[10] = free


@hot
def _captured_now(own: int, opp: int, k: int, colour: int) -> int:
    """``encodings._captured_now``: ``opp`` pieces that ``own`` could take with a first jump."""
    empty = BOARD ^ (own | opp)
    ok = own & k
    fwd = own if colour == 0 else ok
    back = ok if colour == 0 else own
    return opp & (
        ((fwd << 4) & (empty >> 4))
        | ((fwd << 5) & (empty >> 5))
        | ((back >> 4) & (empty << 4))
        | ((back >> 5) & (empty << 5))
    )


@hot
def _samuel(row: np.ndarray, out: np.ndarray) -> None:
    """``samuel``: the twelve NeuroDraughts values (``encodings.samuel_values``), each capped
    at its width and written low bit first."""
    b = row[B]
    w = row[W]
    k = row[K]
    side = row[SIDE]
    mine = b if side == 0 else w
    theirs = w if side == 0 else b
    empty = BOARD ^ (b | w)
    pm = popcount(mine)
    pt = popcount(theirs)
    my_kings = mine & k
    my_men = mine ^ my_kings
    if side == 0:
        reach = ((mine << 4) | (mine << 5) | (my_kings >> 4) | (my_kings >> 5)) & empty
        targets = (
            popcount((mine << 4) & empty)
            + popcount((mine << 5) & empty)
            + popcount((my_kings >> 4) & empty)
            + popcount((my_kings >> 5) & empty)
        )
        bridge = C_BRIDGE0
        rows56 = C_ROWS56_0
        rows34 = C_ROWS34_0
    else:
        reach = ((mine >> 4) | (mine >> 5) | (my_kings << 4) | (my_kings << 5)) & empty
        targets = (
            popcount((mine >> 4) & empty)
            + popcount((mine >> 5) & empty)
            + popcount((my_kings << 4) & empty)
            + popcount((my_kings << 5) & empty)
        )
        bridge = C_BRIDGE1
        rows56 = C_ROWS56_1
        rows34 = C_ROWS34_1
    flanked = mine & (((empty >> 4) & (empty << 4)) | ((empty >> 5) & (empty << 5)))
    v = stack_empty(12, np.int64)
    v[0] = max(0, pm - pt)
    v[1] = max(0, pt - pm)
    v[2] = popcount(_captured_now(theirs, mine, k, 1 - side))
    v[3] = popcount(_captured_now(mine, theirs, k, side))
    v[4] = 1 if (mine & bridge) == bridge and (theirs & k) == 0 else 0
    v[5] = popcount(my_men & C_CENTRE)
    v[6] = popcount((mine | reach) & C_CENTRE)
    v[7] = targets
    v[8] = popcount(flanked)
    v[9] = max(0, popcount(my_men & rows56) - popcount(my_men & rows34))
    v[10] = popcount(mine & C_DOUBLE)
    v[11] = popcount(my_kings & C_CENTRE)
    at = 0
    for i in range(12):
        bits = SAMUEL_BITS[i]
        x = min(v[i], (1 << bits) - 1)
        for j in range(bits):
            out[at] = float((x >> j) & 1)
            at += 1


@hot
def _encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    """``encode`` of every code but material's."""
    family = code // FAMILY_UNIT
    if family != 0:
        king = float(code % FAMILY_UNIT) / KING_SCALE
        if options.shape[0] >= 1:
            king = options[0]
        if family != LL_FEATURES and options.shape[0] >= 2:
            family = RAW32_SUM if options[1] != 0.0 else RAW32
        _raw32(row, king, out)
        if family == RAW32_SUM:
            total = 0.0
            for j in range(32):
                total += out[j]
            out[32] = total
        elif family == LL_FEATURES:
            mine = stack_empty(11, np.int64)
            theirs = stack_empty(11, np.int64)
            side = row[SIDE]
            _side_features(row[B], row[W], row[K], side, mine)
            _side_features(row[B], row[W], row[K], 1 - side, theirs)
            for j in range(8):
                i = LL_INDEX[j]
                out[32 + j] = float(mine[i] - theirs[i])
        return
    if code == PROGRESS:
        out[0] = float(row[PLIES])
    elif code == SAMUEL_CODE:
        _samuel(row, out)
    elif code == GAC11:
        mine = stack_empty(11, np.int64)
        theirs = stack_empty(11, np.int64)
        side = row[SIDE]
        _side_features(row[B], row[W], row[K], side, mine)
        _side_features(row[B], row[W], row[K], 1 - side, theirs)
        for i in range(11):
            out[3 * i] = float(mine[i])
            out[3 * i + 1] = float(theirs[i])
            out[3 * i + 2] = float(mine[i] - theirs[i])
    else:
        _onehot(row, code, out)


@hot(inline="always")
def encode(
    params: np.ndarray, code: int, options: np.ndarray, row: np.ndarray, out: np.ndarray
) -> None:
    """The encoding numbered ``code`` of ``row`` into ``out`` (module docstring); ``options``,
    when given, are the Python encoding's ``kernel_options`` and override the code's own: raw32's
    (king, piece_sum), ll-features' (king,). Inlined where it is called, material in place (a
    compiled call passes each array as seven words: more than material costs); the other
    encodings are one call of ``_encode``."""
    if code == MATERIAL:
        b = row[B]
        w = row[W]
        k = row[K]
        mine = b if row[SIDE] == 0 else w
        theirs = w if row[SIDE] == 0 else b
        out[0] = float(popcount(mine & ~k) - popcount(theirs & ~k))
        out[1] = float(popcount(mine & k) - popcount(theirs & k))
    else:
        _encode(params, code, options, row, out)
