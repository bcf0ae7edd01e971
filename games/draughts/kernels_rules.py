"""Compiled draughts rules: move generation, predicates, key and perft over int64 rows.

The row layout, the parameters and the bound on children are documented in
``mindgames.games.draughts.kernels`` (the module ``GameKernels.module`` names); this module
holds the rules half. Everything follows ``engine``/``successors``/``rules`` exactly: the
children come in ``legal_moves`` order (captures by jumping piece, ascending bit, each
piece's paths depth-first in ``engine.KING_JUMPS`` direction order; simple moves by shift
direction, then by target square), with the same counters and repetition history.

One integer type (int64) throughout. A one-bit mask's bit index is a table look-up by its
remainder modulo 37; popcounts are the CPU's (``popcount``). The small kernels are inlined
where they are called (numba's ``inline="always"``): a compiled call passes each array as
seven words, more than a predicate's own work.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import intrinsic, overload

from mindgames.compiled.hot import hot, stack_empty
from mindgames.games.draughts.engine import BIT, SQ, SQUARE_AT, coords
from mindgames.games.draughts.engine import BOARD as _BOARD
from mindgames.games.draughts.engine import KING_JUMPS as _KING_JUMPS
from mindgames.games.draughts.engine import PROMO as _PROMO

# --- the row and the parameters (see ``kernels``) ----------------------------------------------
B = 0
W = 1
K = 2
SIDE = 3
PLIES = 4
QUIET = 5
HLEN = 6
HIST = 7
#: columns per history entry: black, white, kings | side << SIDE_SHIFT
ENTRY = 3
SIDE_SHIFT = 35

P_REPETITION = 0
P_QUIET_LIMIT = 1
P_PLY_LIMIT = 2
P_LOSING = 3
P_HISTORY = 4
N_PARAMS = 5

#: a proven bound on the children of one position (``kernels`` gives the argument;
#: ``tests/games/test_draughts_kernels.py`` recomputes it from the engine's jump tables)
MAX_CHILDREN = 184

#: Python ints below 2**63: numba types such globals as int64 constants
BOARD = int(_BOARD)
PROMO0 = int(_PROMO[0])
PROMO1 = int(_PROMO[1])
#: deepest capture path (a jump takes one of at most 32 pieces) plus the root
STACK = 34


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per bit index and king direction (``engine.KING_JUMPS`` order: the two forward for
    Black, then the two forward for White): jumped-over mask, landing mask, landing bit;
    0 (and -1) where the jump leaves the board."""
    over = np.zeros(35 * 4, dtype=np.int64)
    land = np.zeros(35 * 4, dtype=np.int64)
    bit = np.full(35 * 4, -1, dtype=np.int64)
    dirs = ((1, -1), (1, 1), (-1, -1), (-1, 1))
    for s in range(1, 33):
        r, c = coords(s)
        for i, (dr, dc) in enumerate(dirs):
            o = SQUARE_AT.get((r + dr, c + dc))
            t = SQUARE_AT.get((r + 2 * dr, c + 2 * dc))
            if o and t:
                over[BIT[s] * 4 + i] = SQ[o]
                land[BIT[s] * 4 + i] = SQ[t]
                bit[BIT[s] * 4 + i] = BIT[t]
    # the same jumps as the engine's tables, in the same order
    for sq in range(35):
        ours = [
            (int(over[sq * 4 + i]), int(land[sq * 4 + i])) for i in range(4) if over[sq * 4 + i]
        ]
        assert ours == [(o, t) for o, t, _ in _KING_JUMPS[sq]]
    return over, land, bit


JOVER, JLAND, JBIT = _tables()
#: PDN square of each bit index (0 for the ghosts)
PDN_OF = np.array([0] * 35, dtype=np.int64)
for _s in range(1, 33):
    PDN_OF[BIT[_s]] = _s
#: bit index of a one-bit mask ``x`` below 2**36: ``BIT_OF[x % 37]`` (2 is a primitive root
#: modulo 37, so the 36 powers of two leave distinct remainders); and its PDN square
BIT_OF = np.zeros(37, dtype=np.int64)
PDN_AT = np.zeros(37, dtype=np.int64)
for _b in range(36):
    BIT_OF[(1 << _b) % 37] = _b
    PDN_AT[(1 << _b) % 37] = PDN_OF[_b] if _b < 35 else 0
#: bits per square in a move's code (squares 1-32; a path has at most 10 squares, 9 jumps)
MOVE_BITS = 6


def popcount(x: int) -> int:
    """Set bits of a non-negative int64: Python's count with the JIT off, compiled to the
    CPU's population count (``llvm.ctpop``, through the overload below) with it on."""
    return int(x).bit_count()


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    """``llvm.ctpop`` of an int64."""
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


#: the intrinsic as compiled code calls it (numba passes the typing context itself)
_ctpop_of_int: Any = _ctpop


@overload(popcount)
def _popcount_compiled(x: Any) -> Any:
    """``popcount`` inside compiled code."""

    def impl(x: Any) -> Any:
        return _ctpop_of_int(x)

    return impl


@hot(inline="always")
def drawn(params: np.ndarray, row: np.ndarray) -> bool:
    """``Draughts.drawn``: no progress, the length cap, or the position's third occurrence."""
    if row[QUIET] >= params[P_QUIET_LIMIT] or row[PLIES] >= params[P_PLY_LIMIT]:
        return True
    hlen = row[HLEN]
    if hlen < 8:
        return False
    b = row[B]
    w = row[W]
    ks = row[K] | (row[SIDE] << SIDE_SHIFT)
    seen = 0
    for i in range(hlen):
        j = HIST + ENTRY * i
        if row[j] == b and row[j + 1] == w and row[j + 2] == ks:
            seen += 1
    return seen >= 2


@hot(inline="always")
def jumpers(own: int, opp: int, k: int, side: int, empty: int) -> int:
    """``engine.jumpers``: the mover's pieces that can capture."""
    ok = own & k
    if side == 0:
        fwd = own & (((opp >> 4) & (empty >> 8)) | ((opp >> 5) & (empty >> 10)))
        back = ok & (((opp << 4) & (empty << 8)) | ((opp << 5) & (empty << 10)))
    else:
        fwd = own & (((opp << 4) & (empty << 8)) | ((opp << 5) & (empty << 10)))
        back = ok & (((opp >> 4) & (empty >> 8)) | ((opp >> 5) & (empty >> 10)))
    return fwd | back


@hot(inline="always")
def _put(out: np.ndarray, n: int, b: int, w: int, k: int, side: int, plies: int) -> None:
    """Child ``n``: board, side and plies; counters reset (a capture or a man's move)."""
    out[n, B] = b
    out[n, W] = w
    out[n, K] = k
    out[n, SIDE] = side
    out[n, PLIES] = plies
    out[n, QUIET] = 0
    out[n, HLEN] = 0


@hot
def _captures(
    row: np.ndarray, out: np.ndarray, moves: np.ndarray, write: bool, jumping: int, empty: int
) -> int:
    """Every capture (``engine.capture_paths`` order) into ``out`` and its code into ``moves``
    (or only counted); -1 when either is full."""
    b = row[B]
    w = row[W]
    k = row[K]
    side = row[SIDE]
    plies = row[PLIES] + 1
    nside = 1 - side
    opp0 = w if side == 0 else b
    promo = PROMO0 if side == 0 else PROMO1
    rows = min(out.shape[0], moves.shape[0])
    ssq = stack_empty(STACK, np.int64)
    sopp = stack_empty(STACK, np.int64)
    scap = stack_empty(STACK, np.int64)
    sdir = stack_empty(STACK, np.int64)
    smore = stack_empty(STACK, np.int64)
    n = 0
    while jumping:
        f = jumping & -jumping
        jumping ^= f
        king = (f & k) != 0
        if king:
            base = 0
            ndirs = 4
            stop = 0
        else:
            base = 2 * side
            ndirs = 2
            stop = promo
        e = empty | f
        d = 0
        ssq[0] = BIT_OF[f % 37]
        sopp[0] = opp0
        scap[0] = 0
        sdir[0] = 0
        smore[0] = 0
        while d >= 0:
            if sdir[d] < ndirs:
                idx = ssq[d] * 4 + base + sdir[d]
                sdir[d] += 1
                over = JOVER[idx]
                land = JLAND[idx]
                if (over & sopp[d]) != 0 and (land & e) != 0:
                    smore[d] = 1
                    if land & stop:
                        t = land
                        cap = scap[d] | over
                        top = d
                        last = JBIT[idx]
                    else:
                        d += 1
                        ssq[d] = JBIT[idx]
                        sopp[d] = sopp[d - 1] ^ over
                        scap[d] = scap[d - 1] | over
                        sdir[d] = 0
                        smore[d] = 0
                        continue
                else:
                    continue
            else:
                d -= 1
                if smore[d + 1]:
                    continue
                t = 1 << ssq[d + 1]
                cap = scap[d + 1]
                top = d + 1
                last = -1
            # a complete capture: from f to t, taking cap
            if write:
                if n >= rows:
                    return -1
                nk = k & ~cap
                if king:
                    nk = (nk ^ f) | t
                elif t & promo:
                    nk |= t
                if side == 0:
                    _put(out, n, b ^ f ^ t, w ^ cap, nk, nside, plies)
                else:
                    _put(out, n, b ^ cap, w ^ f ^ t, nk, nside, plies)
                code = 0
                for i in range(top + 1):  # the path's squares, the first in the low bits
                    code |= PDN_OF[ssq[i]] << (MOVE_BITS * i)
                if last >= 0:
                    code |= PDN_OF[last] << (MOVE_BITS * (top + 1))
                moves[n] = code
            n += 1
    return n


@hot(inline="always")
def _step(
    params: np.ndarray,
    row: np.ndarray,
    out: np.ndarray,
    n: int,
    x: int,
    fm: int,
    track: bool,
) -> int:
    """Child ``n``: the simple move from mask ``fm`` to mask ``x``; returns -1 when a king's
    move would grow the history past the row."""
    b = row[B]
    w = row[W]
    k = row[K]
    side = row[SIDE]
    step = x | fm
    if side == 0:
        nb = b ^ step
        nw = w
        promo = PROMO0
    else:
        nb = b
        nw = w ^ step
        promo = PROMO1
    if fm & k == 0:  # a man: the counters start again
        _put(out, n, nb, nw, (k | x) if x & promo else k, 1 - side, row[PLIES] + 1)
        return n
    _put(out, n, nb, nw, k ^ step, 1 - side, row[PLIES] + 1)
    out[n, QUIET] = row[QUIET] + 1
    if track and params[P_REPETITION]:
        hlen = row[HLEN]
        if hlen + 1 > params[P_HISTORY]:
            return -1
        end = HIST + ENTRY * hlen
        for j in range(HIST, end):
            out[n, j] = row[j]
        out[n, end] = b
        out[n, end + 1] = w
        out[n, end + 2] = k | (side << SIDE_SHIFT)
        out[n, HLEN] = hlen + 1
    return n


@hot
def generate(
    params: np.ndarray,
    row: np.ndarray,
    out: np.ndarray,
    moves: np.ndarray,
    write: bool,
    track: bool,
) -> int:
    """The children of ``row`` into ``out`` and their moves' codes into ``moves`` (``write``),
    or only their number. ``track``: the
    draw rules apply and the history grows (the game); off, as perft, they are ignored.
    -1 when ``out`` is too small (or the history would outgrow the row)."""
    if track and drawn(params, row):
        return 0
    b = row[B]
    w = row[W]
    k = row[K]
    side = row[SIDE]
    empty = BOARD ^ (b | w)
    if side == 0:
        own = b
        opp = w
    else:
        own = w
        opp = b
    jumping = jumpers(own, opp, k, side, empty)
    if jumping:
        return _captures(row, out, moves, write, jumping, empty)
    ok = own & k
    rows = min(out.shape[0], moves.shape[0])
    n = 0
    for d in range(4):
        if d == 0:
            t = ((own << 4) if side == 0 else (own >> 4)) & empty
        elif d == 1:
            t = ((own << 5) if side == 0 else (own >> 5)) & empty
        elif d == 2:
            t = ((ok >> 4) if side == 0 else (ok << 4)) & empty
        else:
            t = ((ok >> 5) if side == 0 else (ok << 5)) & empty
        if not write:
            n += popcount(t)
            continue
        shift = 4 if d % 2 == 0 else 5
        up = (side == 0) == (d < 2)  # the step went up the board (to higher bits)
        while t:
            x = t & -t
            t ^= x
            if n >= rows:
                return -1
            fm = (x >> shift) if up else (x << shift)
            if _step(params, row, out, n, x, fm, track) < 0:
                return -1
            if track:  # perft (``track`` off) needs no move codes
                moves[n] = PDN_AT[fm % 37] | (PDN_AT[x % 37] << MOVE_BITS)
            n += 1
    return n


@hot(inline="always")
def children(params: np.ndarray, row: np.ndarray, out: np.ndarray, moves: np.ndarray) -> int:
    """The contract's ``children``: successors in ``Draughts.children`` order, each move's
    code (its path's PDN squares, ``MOVE_BITS`` bits each, the first lowest) in ``moves``;
    -1 if ``out`` or ``moves`` is too small."""
    return generate(params, row, out, moves, True, True)


@hot(inline="always")
def move_count(params: np.ndarray, row: np.ndarray) -> int:
    """``Draughts.move_count``: legal moves (0 when drawn)."""
    nowhere = row.reshape((1, row.shape[0]))[0:0]  # counted, never written (no allocation)
    return generate(params, row, nowhere, row[0:0], False, True)


@hot(inline="always")
def capture_pending(params: np.ndarray, row: np.ndarray) -> bool:
    """``Draughts.capture_pending``: the mover must capture (and the game is not drawn)."""
    b = row[B]
    w = row[W]
    side = row[SIDE]
    empty = BOARD ^ (b | w)
    j = jumpers(b, w, row[K], 0, empty) if side == 0 else jumpers(w, b, row[K], 1, empty)
    return j != 0 and not drawn(params, row)


@hot(inline="always")
def _has_move(row: np.ndarray) -> bool:
    """The mover has a legal move, draw rules aside (``Draughts.is_terminal``'s set-wise test)."""
    b = row[B]
    w = row[W]
    k = row[K]
    empty = BOARD ^ (b | w)
    if row[SIDE] == 0:
        if ((b << 4) | (b << 5)) & empty:
            return True
        kings = b & k
        if ((kings >> 4) | (kings >> 5)) & empty:
            return True
        return jumpers(b, w, k, 0, empty) != 0
    if ((w >> 4) | (w >> 5)) & empty:
        return True
    kings = w & k
    if ((kings << 4) | (kings << 5)) & empty:
        return True
    return jumpers(w, b, k, 1, empty) != 0


@hot(inline="always")
def is_terminal(params: np.ndarray, row: np.ndarray) -> bool:
    """``Draughts.is_terminal``: drawn, or no legal move."""
    return drawn(params, row) or not _has_move(row)


@hot(inline="always")
def result(params: np.ndarray, row: np.ndarray) -> float:
    """A terminal state's result for the side to move (``Draughts.returns``): -1 without a
    move (+1 in give-away), else 0 (a draw)."""
    if not _has_move(row):
        return 1.0 if params[P_LOSING] else -1.0
    return 0.0


@hot(inline="always")
def to_move(params: np.ndarray, row: np.ndarray) -> int:
    """The side to move: 0 Black, 1 White."""
    return row[SIDE]


@hot(inline="always")
def progress(params: np.ndarray, row: np.ndarray) -> int:
    """``Draughts.progress``: plies played."""
    return row[PLIES]


@hot(inline="always")
def _mix(x: int) -> int:
    """A 64-bit finaliser (splitmix64's, in wrapping int64 arithmetic)."""
    x = (x ^ ((x >> 30) & 0x3FFFFFFFF)) * -4658895280553007687
    x = (x ^ ((x >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685
    return x ^ ((x >> 31) & 0x1FFFFFFFF)


@hot(inline="always")
def key(params: np.ndarray, row: np.ndarray) -> int:
    """A hash of the board and the side to move (``Draughts.search_key``: counters and
    history left out)."""
    h = _mix(row[B] | (row[SIDE] << 40))
    h = _mix(h ^ row[W])
    return _mix(h ^ row[K])


@hot
def _perft(
    params: np.ndarray,
    row: np.ndarray,
    bufs: np.ndarray,
    codes: np.ndarray,
    depth: int,
    made: bool,
    count: np.ndarray,
    at: np.ndarray,
) -> int:
    """Leaves ``depth`` (>= 1) plies below ``row``, draw rules ignored: depth-first with an
    explicit stack (numba's cache and recursion do not mix), the children of ply ``i`` in
    ``bufs[i]`` (move codes in ``codes[i]``); the last ply made (``made``) or only counted."""
    if depth == 1:
        return generate(params, row, bufs[0], codes[0], made, False)
    n = generate(params, row, bufs[0], codes[0], True, False)
    if n < 0:
        return -1
    count[0] = n
    at[0] = 0
    level = 0
    total = 0
    while level >= 0:
        if at[level] >= count[level]:
            level -= 1
            continue
        child = bufs[level, at[level]]
        at[level] += 1
        last = level + 2 == depth  # the child's children are the leaves
        # a call, not ``generate`` inlined: as fast on perft 8 (83-88 M leaves a CPU second
        # either way, stop 49) and 2 CPU s less of cold compile
        n = generate(params, child, bufs[level + 1], codes[level + 1], made or not last, False)
        if n < 0:
            return -1
        if last:
            total += n
        else:
            level += 1
            count[level] = n
            at[level] = 0
    return total


#: columns of perft's child rows: the board, the side and the counters ``generate`` writes
#: (with the draw rules ignored it never reads or writes the history), padded to 64 bytes so
#: that a child is one cache line; a full-width row (247 columns with the default draw rules)
#: spread each ply's children over 2 KB strides
PERFT_WIDTH = 8


@njit(cache=True)
def _perft_entry(params: np.ndarray, row: np.ndarray, depth: int, made: bool) -> int:
    """``perft``/``perft_counted``: the buffers, then ``_perft``."""
    if depth <= 0:
        return 1
    bufs = np.empty((depth, MAX_CHILDREN, PERFT_WIDTH), dtype=np.int64)
    codes = np.empty((depth, MAX_CHILDREN), dtype=np.int64)
    return _perft(
        params, row, bufs, codes, depth, made, np.empty(depth, np.int64), np.empty(depth, np.int64)
    )


@njit(cache=True)
def perft(params: np.ndarray, row: np.ndarray, depth: int) -> int:
    """Leaves of the move tree ``depth`` plies deep, every leaf made (``engine.perft_made``;
    like every perft, the draw rules ignored)."""
    return _perft_entry(params, row, depth, True)


@njit(cache=True)
def perft_counted(params: np.ndarray, row: np.ndarray, depth: int) -> int:
    """As ``perft`` with the last ply counted, not made (``engine.perft``)."""
    return _perft_entry(params, row, depth, False)
