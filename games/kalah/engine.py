"""The Kalah(m, n) engine on a position packed into one Python int: tables, sowing, perft.

The board has ``2m + 2`` fields in sowing (counter-clockwise) order: South's pits 0..m-1,
South's store m, North's pits m+1..2m, North's store 2m+1. Field ``k`` holds its seed count in
bits ``k*B .. k*B+B-1``. A sowing of ``s`` seeds from field ``f`` is one precomputed addition,
``Tables.delta[f][s]``, and lands on the precomputed ``Tables.last[f][s]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class Tables:
    """Precomputed layout and sowing tables for one (pits, seeds) size."""

    def __init__(self, pits: int, seeds: int) -> None:
        m = pits
        total = 2 * m * seeds
        self.pits, self.total = m, total
        self.fields = n = 2 * m + 2
        self.bits = b = max(4, total.bit_length() + 1)
        self.mask = (1 << b) - 1
        self.store = (m, 2 * m + 1)
        self.offset = (0, m + 1)
        self.shift = tuple(k * b for k in range(n))
        self.pit_mask = [0, 0]
        for i in range(m):
            self.pit_mask[0] |= self.mask << self.shift[i]
            self.pit_mask[1] |= self.mask << self.shift[m + 1 + i]
        self.all_pits = self.pit_mask[0] | self.pit_mask[1]
        #: the fields in each side's view (``fields_from_mover``): their order and shifts
        order = (list(range(n)), list(range(m + 1, n)) + list(range(m + 1)))
        self.view_order = np.array(order, dtype=np.intp)
        self.view_shifts = tuple(tuple(self.shift[k] for k in o) for o in order)
        #: bytes of a packed position and the value of each bit of a field (``fields_batch``)
        self.bytes = (n * b + 7) // 8
        self.powers = (1 << np.arange(b)).astype(np.int64)
        self.delta: list[list[int]] = []
        self.last: list[list[int]] = []
        for f in range(n):
            side = 0 if f < m + 1 else 1
            skip = self.store[1 - side]
            deltas, lasts = [0], [f]
            d, i = -(0), f
            for _ in range(total):
                i = (i + 1) % n
                while i == skip:
                    i = (i + 1) % n
                d += 1 << self.shift[i]
                deltas.append(d)
                lasts.append(i)
            self.delta.append([dd - (s << self.shift[f]) for s, dd in enumerate(deltas)])
            self.last.append(lasts)
        #: per side, per own pit: (move, shift, sowing deltas, last fields) for ``children``
        self.sowings = tuple(
            tuple((i + 1, self.shift[o + i], self.delta[o + i], self.last[o + i]) for i in range(m))
            for o in self.offset
        )
        #: per side, per field: (its shift, the opposite pit's shift) if it is the side's own
        #: pit (where a last seed may capture), else None
        self.captures = tuple(
            [(self.shift[f], self.shift[2 * m - f]) if o <= f < o + m else None for f in range(n)]
            for o in self.offset
        )

    def pack(self, fields: Sequence[int]) -> int:
        return sum(v << self.shift[k] for k, v in enumerate(fields))

    def unpack(self, packed: int) -> list[int]:
        b, mask = self.bits, self.mask
        return [(packed >> (k * b)) & mask for k in range(self.fields)]


_TABLES: dict[tuple[int, int], Tables] = {}


def tables(pits: int, seeds: int) -> Tables:
    key = (pits, seeds)
    if key not in _TABLES:
        _TABLES[key] = Tables(pits, seeds)
    return _TABLES[key]


def sweep(t: Tables, pos: int) -> int:
    """End of game: each side's remaining seeds go to its own store."""
    f = t.unpack(pos)
    m = t.pits
    south, north = sum(f[0:m]), sum(f[m + 1 : 2 * m + 1])
    return ((f[m] + south) << t.shift[m]) | ((f[2 * m + 1] + north) << t.shift[2 * m + 1])


def sow(
    t: Tables, pos: int, side: int, start: int, seeds: int, empty_capture: bool
) -> tuple[int, int]:
    """Sow ``seeds`` from field ``start``; return (packed, side to move next)."""
    pos += t.delta[start][seeds]
    last = t.last[start][seeds]
    store = t.store[side]
    if last == store:
        nxt = side
    else:
        nxt = 1 - side
        off = t.offset[side]
        if off <= last < off + t.pits and (pos >> t.shift[last]) & t.mask == 1:
            opp = 2 * t.pits - last
            o = (pos >> t.shift[opp]) & t.mask
            if o or empty_capture:
                pos += ((1 + o) << t.shift[store]) - (1 << t.shift[last]) - (o << t.shift[opp])
    if not pos & t.pit_mask[0] or not pos & t.pit_mask[1]:
        pos = sweep(t, pos)
    return pos, nxt


def perft(t: Tables, pos: int, side: int, depth: int, empty_capture: bool) -> int:
    """Leaves of the ply tree (a ply is one sowing); every leaf is made."""
    b, mask, m = t.bits, t.mask, t.pits
    off = t.offset[side]
    total = 0
    for i in range(off, off + m):
        s = (pos >> (i * b)) & mask
        if not s:
            continue
        if depth == 1:
            total += 1
            continue
        npos, nside = sow(t, pos, side, i, s, empty_capture)
        if npos & t.all_pits:
            total += perft(t, npos, nside, depth - 1, empty_capture)
    return total


def perft_made(t: Tables, pos: int, side: int, depth: int, empty_capture: bool) -> int:
    """Leaves of the ply tree with every leaf position made (``sow`` inlined for speed)."""
    b, mask, m = t.bits, t.mask, t.pits
    off = t.offset[side]
    store = t.store[side]
    store_unit = 1 << t.shift[store]
    south, north = t.pit_mask
    delta, last = t.delta, t.last
    total = 0
    for i in range(off, off + m):
        s = (pos >> (i * b)) & mask
        if not s:
            continue
        npos = pos + delta[i][s]
        land = last[i][s]
        if land == store:
            nside = side
        else:
            nside = 1 - side
            if off <= land < off + m and (npos >> (land * b)) & mask == 1:
                opp = 2 * m - land
                o = (npos >> (opp * b)) & mask
                if o or empty_capture:
                    npos += (1 + o) * store_unit - (1 << (land * b)) - (o << (opp * b))
        if depth == 1:
            if not npos & south or not npos & north:
                npos = sweep(t, npos)
            total += 1
        elif npos & south and npos & north:
            total += perft_made(t, npos, nside, depth - 1, empty_capture)
    return total
