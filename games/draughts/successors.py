"""Every legal draughts move with its whole successor state, made in the same pass.

``children(state, repetition, quiet_limit, ply_limit)`` returns ``[(move, state), ...]``
in the order of ``engine.legal_paths`` (the rules' ``legal_moves`` order) with exactly the
states ``Draughts.play`` makes (see ``rules`` for the state tuple): simple moves set-wise, by
shift direction and then by target square; captures in ``engine.capture_paths`` order. A simple
move's PDN tuple comes from a table keyed by its target mask, so no move tuple is built per call.
"""

from __future__ import annotations

from mindgames.games.draughts.engine import BOARD, KING_JUMPS, MAN_JUMPS, PDN, PROMO, jump_paths


def _table(shift: int) -> dict[int, tuple[tuple[int, int], int]]:
    """Target mask -> ((from, to) PDN squares, from | to mask) of a simple step by ``shift``
    (negative: down the board)."""
    out = {}
    for to in range(35):
        frm = to - shift
        if PDN[to] and 0 <= frm < 35 and PDN[frm]:
            out[1 << to] = ((PDN[frm], PDN[to]), (1 << frm) | (1 << to))
    return out


#: (shift, table) for Black's forward steps and for White's (a king's backward steps)
_UP = ((4, _table(4)), (5, _table(5)))
_DOWN = ((4, _table(-4)), (5, _table(-5)))


def _with_moves(table: list) -> list[tuple[tuple[int, int, int, tuple[int, int]], ...]]:
    """A jump table with each single jump's move (from, to PDN squares) added to its entries."""
    return [tuple((*jump, (PDN[sq], PDN[jump[2]])) for jump in table[sq]) for sq in range(35)]


_MAN_JUMPS = (_with_moves(MAN_JUMPS[0]), _with_moves(MAN_JUMPS[1]))


def _from_paths(b: int, w: int, k: int, side: int, plies: int, f: int, paths: list) -> list[tuple]:
    """Children of the jump ``paths`` (bit-index paths, captured masks) of the piece on ``f``."""
    nside = 1 - side
    promo = PROMO[side]
    out = []
    for path, cap in paths:
        t = 1 << path[-1]
        nk = k & ~cap
        if f & k:
            nk = (nk ^ f) | t
        elif t & promo:
            nk |= t
        nb, nw = (b ^ f ^ t, w ^ cap) if side == 0 else (b ^ cap, w ^ f ^ t)
        out.append((tuple([PDN[x] for x in path]), (nb, nw, nk, nside, plies, 0, ())))
    return out


def captures(b: int, w: int, k: int, side: int, plies: int, jumping: int) -> list[tuple]:
    """Children when the mover must capture (every capture resets the counters).

    In ``engine.capture_paths`` order: by jumping piece, then by jump direction. A man's single
    jump is made here from the table; a man follows on with a depth-first search only when it
    lands where it can jump again (set-wise ``go``: its later jumps go forward, so the first
    jump cannot change them), and a king always searches.
    """
    opp = w if side == 0 else b
    empty = BOARD ^ (b | w)
    nside = 1 - side
    promo = PROMO[side]
    if side == 0:
        go = ((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10))
    else:
        go = ((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10))
    go &= ~promo  # a man that crowns stops there
    jumps = _MAN_JUMPS[side]
    out: list[tuple] = []
    while jumping:
        f = jumping & -jumping
        jumping ^= f
        sq = f.bit_length() - 1
        paths: list = []
        if f & k:
            jump_paths(sq, opp, empty | f, KING_JUMPS, 0, (sq,), 0, paths)
            out += _from_paths(b, w, k, side, plies, f, paths)
            continue
        for over, land, nsq, move in jumps[sq]:
            if not (over & opp and land & empty):
                continue
            if land & go:
                jump_paths(nsq, opp ^ over, empty, MAN_JUMPS[side], promo, (sq, nsq), over, paths)
                out += _from_paths(b, w, k, side, plies, f, paths)
                paths.clear()
                continue
            nk = (k & ~over) | land if land & promo else k & ~over
            nb, nw = (b ^ f ^ land, w ^ over) if side == 0 else (b ^ over, w ^ f ^ land)
            out.append((move, (nb, nw, nk, nside, plies, 0, ())))
    return out


def children(
    state: tuple, repetition: bool, quiet_limit: int, ply_limit: int | float
) -> list[tuple]:
    """Every legal move with the state after it (``[]`` when a draw rule has ended the game).

    One long function with the loops written out per side and per kind of piece (locals only,
    no helper calls per child): this is the hot path of every search, self-play game and perft
    through ``Game.children``. A man's move and a capture reset ``quiet`` and the history to
    the new position's key; a king's simple move counts on and appends its key.
    """
    b, w, k, side, plies, quiet, history = state
    if (
        quiet >= quiet_limit
        or plies >= ply_limit
        or (history and len(history) >= 8 and history.count(state[:4]) >= 2)
    ):
        return []  # drawn (``Draughts.drawn``, inlined)
    empty = BOARD ^ (b | w)
    plies += 1
    quiet += 1
    out: list[tuple] = []
    app = out.append
    if side == 0:
        kings = b & k
        jumping = b & (((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10)))
        if kings:
            jumping |= kings & (((w << 4) & (empty << 8)) | ((w << 5) & (empty << 10)))
        if jumping:
            return captures(b, w, k, 0, plies, jumping)
        promo = PROMO[0]
        grown = (*history, (b, w, k, 0)) if kings and repetition else ()  # after a king's step
        for d, table in _UP:
            t = (b << d) & empty
            while t:
                x = t & -t
                t ^= x
                move, step = table[x]
                nb = b ^ step
                if kings and step & k:
                    app((move, (nb, w, k ^ step, 1, plies, quiet, grown)))
                elif x & promo:
                    app((move, (nb, w, k | x, 1, plies, 0, ())))
                else:
                    app((move, (nb, w, k, 1, plies, 0, ())))
        if kings:
            for d, table in _DOWN:
                t = (kings >> d) & empty
                while t:
                    x = t & -t
                    t ^= x
                    move, step = table[x]
                    app((move, (b ^ step, w, k ^ step, 1, plies, quiet, grown)))
        return out
    kings = w & k
    jumping = w & (((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10)))
    if kings:
        jumping |= kings & (((b >> 4) & (empty >> 8)) | ((b >> 5) & (empty >> 10)))
    if jumping:
        return captures(b, w, k, 1, plies, jumping)
    promo = PROMO[1]
    grown = (*history, (b, w, k, 1)) if kings and repetition else ()  # after a king's step
    for d, table in _DOWN:
        t = (w >> d) & empty
        while t:
            x = t & -t
            t ^= x
            move, step = table[x]
            nw = w ^ step
            if kings and step & k:
                app((move, (b, nw, k ^ step, 0, plies, quiet, grown)))
            elif x & promo:
                app((move, (b, nw, k | x, 0, plies, 0, ())))
            else:
                app((move, (b, nw, k, 0, plies, 0, ())))
    if kings:
        for d, table in _UP:
            t = (kings << d) & empty
            while t:
                x = t & -t
                t ^= x
                move, step = table[x]
                app((move, (b, w ^ step, k ^ step, 0, plies, quiet, grown)))
    return out
