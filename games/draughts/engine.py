"""The draughts engine: bitboards on Samuel's 35-square layout, move generation and perft.

PDN square ``s`` (1-32, Black on 1-12 at the top) lives at bit ``s - 1 + (s - 1) // 8``; bits
8, 17 and 26 are ghosts that are never on the board. Then every diagonal step is a shift: Black
(moving to higher numbers) steps by ``<< 4`` or ``<< 5``, White by ``>> 4`` or ``>> 5``, and a
shift that leaves the board lands on a ghost or outside ``BOARD``. Simple moves are generated
set-wise; jumps are found set-wise and followed depth-first only for multi-jumps.

Everything here works on plain ints: ``b`` (black pieces), ``w`` (white pieces), ``k`` (kings,
a subset of ``b | w``) and ``side`` (0 Black to move, 1 White).
"""

from __future__ import annotations

BIT = [-1] + [s - 1 + (s - 1) // 8 for s in range(1, 33)]  # PDN square -> bit index
PDN = [0] * 35  # bit index -> PDN square (0 for ghosts)
for _s in range(1, 33):
    PDN[BIT[_s]] = _s
SQ = [0] + [1 << BIT[s] for s in range(1, 33)]  # PDN square -> mask
BOARD = sum(SQ)
PROMO = (SQ[29] | SQ[30] | SQ[31] | SQ[32], SQ[1] | SQ[2] | SQ[3] | SQ[4])  # where each side crowns


def coords(s: int) -> tuple[int, int]:
    """(row, column) of PDN square ``s``: row 0 is Black's back row, column 0 is White's left."""
    r, i = divmod(s - 1, 4)
    return r, 2 * i + (1 if r % 2 == 0 else 0)


SQUARE_AT = {coords(s): s for s in range(1, 33)}


def _jump_table(directions: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int, int], ...]]:
    """Per bit index: (over mask, landing mask, landing bit) for each jump direction."""
    table: list[tuple[tuple[int, int, int], ...]] = [()] * 35
    for s in range(1, 33):
        r, c = coords(s)
        entries = []
        for dr, dc in directions:
            over = SQUARE_AT.get((r + dr, c + dc))
            land = SQUARE_AT.get((r + 2 * dr, c + 2 * dc))
            if over and land:
                entries.append((SQ[over], SQ[land], BIT[land]))
        table[BIT[s]] = tuple(entries)
    return table


MAN_JUMPS = (_jump_table(((1, -1), (1, 1))), _jump_table(((-1, -1), (-1, 1))))
KING_JUMPS = _jump_table(((1, -1), (1, 1), (-1, -1), (-1, 1)))
#: the square jumped over between two PDN squares two steps apart: CAPTURED[(a, b)] = mask
CAPTURED = {
    (a, b): SQ[SQUARE_AT[((coords(a)[0] + coords(b)[0]) // 2, (coords(a)[1] + coords(b)[1]) // 2)]]
    for a in range(1, 33)
    for b in range(1, 33)
    if abs(coords(a)[0] - coords(b)[0]) == 2 and abs(coords(a)[1] - coords(b)[1]) == 2
}


def jumpers(own: int, opp: int, kings: int, side: int) -> int:
    """Mask of the mover's pieces that can capture."""
    empty = BOARD ^ (own | opp)
    ok = own & kings
    if side == 0:
        fwd = own & (((opp >> 4) & (empty >> 8)) | ((opp >> 5) & (empty >> 10)))
        back = ok & (((opp << 4) & (empty << 8)) | ((opp << 5) & (empty << 10)))
    else:
        fwd = own & (((opp << 4) & (empty << 8)) | ((opp << 5) & (empty << 10)))
        back = ok & (((opp >> 4) & (empty >> 8)) | ((opp >> 5) & (empty >> 10)))
    return fwd | back


def jump_paths(sq, opp, empty, table, stop, path, cap, out):
    """Depth-first: append (path of bit indices, captured mask) for every complete jump."""
    more = False
    for over, land, nsq in table[sq]:
        if over & opp and land & empty:
            more = True
            if land & stop:
                out.append(((*path, nsq), cap | over))
            else:
                jump_paths(nsq, opp ^ over, empty, table, stop, (*path, nsq), cap | over, out)
    if not more:
        out.append((path, cap))


def _ends(sq, opp, empty, table, stop, cap, out):
    """Like ``jump_paths`` without the path: append (landing mask, captured mask)."""
    more = False
    for over, land, nsq in table[sq]:
        if over & opp and land & empty:
            more = True
            if land & stop:
                out.append((land, cap | over))
            else:
                _ends(nsq, opp ^ over, empty, table, stop, cap | over, out)
    if not more:
        out.append((1 << sq, cap))


def _count(sq, opp, empty, table, stop):
    """Number of complete jumps from bit ``sq`` (at least 1: the path so far)."""
    n = 0
    for over, land, nsq in table[sq]:
        if over & opp and land & empty:
            if land & stop:
                n += 1
            else:
                n += _count(nsq, opp ^ over, empty, table, stop)
    return n or 1


def capture_paths(own: int, opp: int, kings: int, side: int, jumping: int) -> list:
    """Every capture of the mover as (path of bit indices, captured mask)."""
    out: list = []
    empty = BOARD ^ (own | opp)
    mtable, stop = MAN_JUMPS[side], PROMO[side]
    while jumping:
        f = jumping & -jumping
        jumping ^= f
        sq = f.bit_length() - 1
        if f & kings:
            jump_paths(sq, opp, empty | f, KING_JUMPS, 0, (sq,), 0, out)
        else:
            jump_paths(sq, opp, empty | f, mtable, stop, (sq,), 0, out)
    return out


def simple_moves(own: int, opp: int, kings: int, side: int) -> list[tuple[int, ...]]:
    """Every non-capturing move as (from PDN square, to PDN square), ignoring capture priority."""
    empty = BOARD ^ (own | opp)
    ok = own & kings
    pdn = PDN
    out: list[tuple[int, ...]] = []
    sets: tuple[tuple[int, int], ...]
    if side == 0:
        sets = ((own << 4) & empty, -4), ((own << 5) & empty, -5)
        if ok:
            sets += ((ok >> 4) & empty, 4), ((ok >> 5) & empty, 5)
    else:
        sets = ((own >> 4) & empty, 4), ((own >> 5) & empty, 5)
        if ok:
            sets += ((ok << 4) & empty, -4), ((ok << 5) & empty, -5)
    for t, back in sets:
        while t:
            x = t & -t
            t ^= x
            sq = x.bit_length() - 1
            out.append((pdn[sq + back], pdn[sq]))
    return out


def legal_paths(b: int, w: int, k: int, side: int) -> list[tuple[int, ...]]:
    """Every legal move as its path of PDN squares (captures keep every landing square)."""
    own, opp = (b, w) if side == 0 else (w, b)
    jumping = jumpers(own, opp, k, side)
    if jumping:
        pdn = PDN
        return [
            tuple([pdn[x] for x in path]) for path, _ in capture_paths(own, opp, k, side, jumping)
        ]
    return simple_moves(own, opp, k, side)


def simple_targets(own: int, opp: int, kings: int, side: int) -> int:
    """Number of non-capturing moves (ignoring capture priority), by popcount."""
    empty = BOARD ^ (own | opp)
    ok = own & kings
    if side == 0:
        return (
            ((own << 4) & empty).bit_count()
            + ((own << 5) & empty).bit_count()
            + ((ok >> 4) & empty).bit_count()
            + ((ok >> 5) & empty).bit_count()
        )
    return (
        ((own >> 4) & empty).bit_count()
        + ((own >> 5) & empty).bit_count()
        + ((ok << 4) & empty).bit_count()
        + ((ok << 5) & empty).bit_count()
    )


def count_moves(b: int, w: int, k: int, side: int) -> int:
    """Number of legal moves (draw rules aside): captures counted, simple moves by popcount."""
    own, opp = (b, w) if side == 0 else (w, b)
    if jumpers(own, opp, k, side):
        return count_captures(own, opp, k, side)
    return simple_targets(own, opp, k, side)


def count_captures(own: int, opp: int, k: int, side: int) -> int:
    """Number of complete captures: single jumps of men set-wise, DFS for the rest."""
    empty = BOARD ^ (own | opp)
    ok = own & k
    men = own ^ ok
    if side == 0:
        e8, e10 = empty >> 8, empty >> 10
        s4 = men & (opp >> 4) & e8
        s5 = men & (opp >> 5) & e10
        n = s4.bit_count() + s5.bit_count()
        go = ((opp >> 4) & e8) | ((opp >> 5) & e10)  # squares a Black man can jump from
        cont = (((s4 << 8) | (s5 << 10)) & go) & ~PROMO[0]
        if cont:  # a man's later jumps go forward: the first capture cannot matter
            for s, sh in ((s4, 8), (s5, 10)):
                c = (s << sh) & go & ~PROMO[0]
                while c:
                    x = c & -c
                    c ^= x
                    n += _count(x.bit_length() - 1, opp, empty, MAN_JUMPS[0], PROMO[0]) - 1
    else:
        e8, e10 = empty << 8, empty << 10
        s4 = men & (opp << 4) & e8
        s5 = men & (opp << 5) & e10
        n = s4.bit_count() + s5.bit_count()
        go = ((opp << 4) & e8) | ((opp << 5) & e10)
        cont = (((s4 >> 8) | (s5 >> 10)) & go) & ~PROMO[1]
        if cont:
            for s, sh in ((s4, 8), (s5, 10)):
                c = (s >> sh) & go & ~PROMO[1]
                while c:
                    x = c & -c
                    c ^= x
                    n += _count(x.bit_length() - 1, opp, empty, MAN_JUMPS[1], PROMO[1]) - 1
    if ok:
        kj = ok & (
            ((opp >> 4) & (empty >> 8))
            | ((opp >> 5) & (empty >> 10))
            | ((opp << 4) & (empty << 8))
            | ((opp << 5) & (empty << 10))
        )
        while kj:
            f = kj & -kj
            kj ^= f
            n += _count(f.bit_length() - 1, opp, empty | f, KING_JUMPS, 0)
    return n


def children(b: int, w: int, k: int, side: int) -> list[tuple[int, int, int]]:
    """The (b, w, k) after every legal move, in no particular order."""
    out: list[tuple[int, int, int]] = []
    app = out.append
    if side == 0:
        empty = BOARD ^ (b | w)
        kb = b & k
        jumping = b & (((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10)))
        if kb:
            jumping |= kb & (((w << 4) & (empty << 8)) | ((w << 5) & (empty << 10)))
        if jumping:
            promo = PROMO[0]
            go = ((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10))
            for d in (4, 5):
                s = (b ^ kb) & (w >> d) & (empty >> (2 * d))
                while s:
                    f = s & -s
                    s ^= f
                    over, t = f << d, f << (2 * d)
                    if t & promo:
                        app((b ^ f ^ t, w ^ over, (k & ~over) | t))
                    elif t & go:  # a multi-jump: later jumps go forward, past the first
                        ends: list = []
                        _ends(t.bit_length() - 1, w ^ over, empty, MAN_JUMPS[0], promo, over, ends)
                        for t2, cap in ends:
                            nk = k & ~cap
                            app((b ^ f ^ t2, w ^ cap, nk | t2 if t2 & promo else nk))
                    else:
                        app((b ^ f ^ t, w ^ over, k & ~over))
            jumping &= kb
            while jumping:
                f = jumping & -jumping
                jumping ^= f
                ends = []
                _ends(f.bit_length() - 1, w, empty | f, KING_JUMPS, 0, 0, ends)
                for t, cap in ends:
                    app((b ^ f ^ t, w ^ cap, ((k & ~cap) ^ f) | t))
            return out
        men = b ^ kb
        promo = PROMO[0]
        t = (men << 4) & empty
        while t:
            x = t & -t
            t ^= x
            app((b ^ x ^ (x >> 4), w, k | x) if x & promo else (b ^ x ^ (x >> 4), w, k))
        t = (men << 5) & empty
        while t:
            x = t & -t
            t ^= x
            app((b ^ x ^ (x >> 5), w, k | x) if x & promo else (b ^ x ^ (x >> 5), w, k))
        if kb:
            for d in (4, 5):
                t = (kb << d) & empty
                while t:
                    x = t & -t
                    t ^= x
                    mv = x | (x >> d)
                    app((b ^ mv, w, k ^ mv))
                t = (kb >> d) & empty
                while t:
                    x = t & -t
                    t ^= x
                    mv = x | (x << d)
                    app((b ^ mv, w, k ^ mv))
        return out
    empty = BOARD ^ (b | w)
    kw = w & k
    jumping = w & (((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10)))
    if kw:
        jumping |= kw & (((b >> 4) & (empty >> 8)) | ((b >> 5) & (empty >> 10)))
    if jumping:
        promo = PROMO[1]
        go = ((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10))
        for d in (4, 5):
            s = (w ^ kw) & (b << d) & (empty << (2 * d))
            while s:
                f = s & -s
                s ^= f
                over, t = f >> d, f >> (2 * d)
                if t & promo:
                    app((b ^ over, w ^ f ^ t, (k & ~over) | t))
                elif t & go:
                    ends = []
                    _ends(t.bit_length() - 1, b ^ over, empty, MAN_JUMPS[1], promo, over, ends)
                    for t2, cap in ends:
                        nk = k & ~cap
                        app((b ^ cap, w ^ f ^ t2, nk | t2 if t2 & promo else nk))
                else:
                    app((b ^ over, w ^ f ^ t, k & ~over))
        jumping &= kw
        while jumping:
            f = jumping & -jumping
            jumping ^= f
            ends = []
            _ends(f.bit_length() - 1, b, empty | f, KING_JUMPS, 0, 0, ends)
            for t, cap in ends:
                app((b ^ cap, w ^ f ^ t, ((k & ~cap) ^ f) | t))
        return out
    men = w ^ kw
    promo = PROMO[1]
    t = (men >> 4) & empty
    while t:
        x = t & -t
        t ^= x
        app((b, w ^ x ^ (x << 4), k | x) if x & promo else (b, w ^ x ^ (x << 4), k))
    t = (men >> 5) & empty
    while t:
        x = t & -t
        t ^= x
        app((b, w ^ x ^ (x << 5), k | x) if x & promo else (b, w ^ x ^ (x << 5), k))
    if kw:
        for d in (4, 5):
            t = (kw >> d) & empty
            while t:
                x = t & -t
                t ^= x
                mv = x | (x << d)
                app((b, w ^ mv, k ^ mv))
            t = (kw << d) & empty
            while t:
                x = t & -t
                t ^= x
                mv = x | (x >> d)
                app((b, w ^ mv, k ^ mv))
    return out


def perft(b: int, w: int, k: int, side: int, depth: int) -> int:
    """Leaves of the move tree ``depth`` plies deep; the last ply is counted, not made."""
    if depth <= 1:
        return count_moves(b, w, k, side) if depth == 1 else 1
    if depth == 2:
        return _perft2(b, w, k, side)
    total = 0
    other = 1 - side
    for nb, nw, nk in children(b, w, k, side):
        total += perft(nb, nw, nk, other, depth - 1)
    return total


def _perft2(b: int, w: int, k: int, side: int) -> int:
    """Two plies: make the first, count the replies by popcount (inlined for speed)."""
    total = 0
    board = BOARD
    if side == 0:  # White replies
        for nb, nw, nk in children(b, w, k, 0):
            empty = board ^ (nb | nw)
            kw = nw & nk
            j = nw & (((nb << 4) & (empty << 8)) | ((nb << 5) & (empty << 10)))
            if kw:
                j |= kw & (((nb >> 4) & (empty >> 8)) | ((nb >> 5) & (empty >> 10)))
                if j:
                    total += count_captures(nw, nb, nk, 1)
                else:
                    total += (
                        ((nw >> 4) & empty).bit_count()
                        + ((nw >> 5) & empty).bit_count()
                        + ((kw << 4) & empty).bit_count()
                        + ((kw << 5) & empty).bit_count()
                    )
            elif j:
                total += count_captures(nw, nb, nk, 1)
            else:
                total += ((nw >> 4) & empty).bit_count() + ((nw >> 5) & empty).bit_count()
        return total
    for nb, nw, nk in children(b, w, k, 1):  # Black replies
        empty = board ^ (nb | nw)
        kb = nb & nk
        j = nb & (((nw >> 4) & (empty >> 8)) | ((nw >> 5) & (empty >> 10)))
        if kb:
            j |= kb & (((nw << 4) & (empty << 8)) | ((nw << 5) & (empty << 10)))
            if j:
                total += count_captures(nb, nw, nk, 0)
            else:
                total += (
                    ((nb << 4) & empty).bit_count()
                    + ((nb << 5) & empty).bit_count()
                    + ((kb >> 4) & empty).bit_count()
                    + ((kb >> 5) & empty).bit_count()
                )
        elif j:
            total += count_captures(nb, nw, nk, 0)
        else:
            total += ((nb << 4) & empty).bit_count() + ((nb << 5) & empty).bit_count()
    return total


def perft_made(b: int, w: int, k: int, side: int, depth: int) -> int:
    """Leaves of the move tree with every leaf position made (the slower, honest count)."""
    if depth <= 1:
        return len(children(b, w, k, side)) if depth == 1 else 1
    total = 0
    other = 1 - side
    for nb, nw, nk in children(b, w, k, side):
        total += perft_made(nb, nw, nk, other, depth - 1)
    return total


START = (sum(SQ[1:13]), sum(SQ[21:33]), 0, 0)
