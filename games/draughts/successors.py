"""Every legal draughts move with its whole successor state, made in the same pass.

``children(rules, state)`` (``Draughts.children`` itself) returns ``[(move, state), ...]`` in
the order of ``engine.legal_paths`` (the rules' ``legal_moves`` order) with exactly the states
``Draughts.play`` makes (see ``rules`` for the state tuple).

* Simple moves set-wise, by shift direction and then by target square. The targets of one
  direction are one mask; the ``(move, from | to mask)`` pairs of a mask are remembered (a few
  thousand masks recur in any search), so a move costs one xor and its state tuple. When only
  men move and none crowns, the pairs of both directions are remembered together.
* Captures of men set-wise from per-direction jump tables keyed by the jumper's mask, in
  ``engine.capture_paths`` order (by jumping piece, then by direction), a depth-first search only
  where a man lands where it can jump again; when a king can capture, every capture goes through
  the general ``captures``.
"""

from __future__ import annotations

from typing import Any

from mindgames.games.draughts.engine import BOARD, KING_JUMPS, MAN_JUMPS, PDN, PROMO, jump_paths

Pairs = tuple[tuple[tuple[int, int], int], ...]


def _table(shift: int) -> dict[int, tuple[tuple[int, int], int]]:
    """Target mask -> ((from, to) PDN squares, from | to mask) of a simple step by ``shift``
    (negative: down the board)."""
    out = {}
    for to in range(35):
        frm = to - shift
        if PDN[to] and 0 <= frm < 35 and PDN[frm]:
            out[1 << to] = ((PDN[frm], PDN[to]), (1 << frm) | (1 << to))
    return out


#: (step table, its remembered target masks) per direction: Black's forward steps (a White
#: king's backward steps) and White's (a Black king's backward steps)
_UP: tuple[tuple[int, dict, dict[int, Pairs]], ...] = ((4, _table(4), {}), (5, _table(5), {}))
_DOWN: tuple[tuple[int, dict, dict[int, Pairs]], ...] = ((4, _table(-4), {}), (5, _table(-5), {}))
#: the most target masks remembered per direction (then the memory starts again)
MEMO_LIMIT = 1 << 15
#: per side, the pairs of both directions of a men-only step (no crowning), keyed by the two
#: target masks ``t4 | t5 << 35``: one look-up instead of one per direction
_MEN: tuple[dict[int, Pairs], dict[int, Pairs]] = ({}, {})


def _steps(table: dict[int, tuple[tuple[int, int], int]], memo: dict[int, Pairs], t: int) -> Pairs:
    """The (move, from | to mask) pairs of the target mask ``t``, by target square; remembered."""
    pairs = []
    rest = t
    while rest:
        x = rest & -rest
        rest ^= x
        pairs.append(table[x])
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[t] = out = tuple(pairs)
    return out


def _men_steps(side: int, t4: int, t5: int, key: int) -> Pairs:
    """The pairs of the side's men stepping to ``t4`` then to ``t5``; remembered in ``_MEN``."""
    (_, table4, memo4), (_, table5, memo5) = _UP if side == 0 else _DOWN
    pairs4 = memo4.get(t4)
    pairs5 = memo5.get(t5)
    if pairs4 is None:
        pairs4 = _steps(table4, memo4, t4)
    if pairs5 is None:
        pairs5 = _steps(table5, memo5, t5)
    memo = _MEN[side]
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = out = pairs4 + pairs5
    return out


def _jumps(shift: int) -> dict[int, tuple[tuple[int, int], int, int, int, int]]:
    """Jumper mask -> (move, over mask, landing mask, landing bit, from | landing mask) of a
    man's jump over the neighbour at ``shift`` (negative: down the board)."""
    out = {}
    for sq in range(35):
        over, land = sq + shift, sq + 2 * shift
        if PDN[sq] and 0 <= land < 35 and PDN[over] and PDN[land]:
            step = (1 << sq) | (1 << land)
            out[1 << sq] = ((PDN[sq], PDN[land]), 1 << over, 1 << land, land, step)
    return out


#: a man's jumps per side, in the rules' order of directions (``engine.MAN_JUMPS``)
_JUMPS = ((_jumps(4), _jumps(5)), (_jumps(-5), _jumps(-4)))


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
    """Children when the mover must capture (every capture resets the counters), kings too.

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


def children(rules: Any, state: tuple) -> list[tuple]:
    """Every legal move with the state after it (``[]`` when a draw rule has ended the game).

    ``rules`` is the ``Draughts`` object (this function is its ``children`` method). One long
    function with the loops written out per side and per kind of piece, men's captures
    included (locals only, few helper calls per child): this is the hot path of every search,
    self-play game and perft through ``Game.children``. A man's move and a capture reset
    ``quiet`` and the history to the new position's key; a king's simple move counts on and
    appends its key.
    """
    b, w, k, side, plies, quiet, history = state
    if (
        quiet >= rules._quiet_limit
        or plies >= rules._ply_limit
        or (history and len(history) >= 8 and history.count(state[:4]) >= 2)
    ):
        return []  # drawn (``Draughts.drawn``, inlined)
    empty = BOARD ^ (b | w)
    plies += 1
    if side == 0:
        kings = b & k
        j4 = (w >> 4) & (empty >> 8)  # squares a Black man can jump from, by direction
        j5 = (w >> 5) & (empty >> 10)
        if kings and kings & (j4 | j5 | (w << 4) & (empty << 8) | (w << 5) & (empty << 10)):
            jumping = b & (j4 | j5) | kings & ((w << 4) & (empty << 8) | (w << 5) & (empty << 10))
            return captures(b, w, k, 0, plies, jumping)
        first, second = b & j4, b & j5  # the men that can jump in Black's first direction, ...
    else:
        kings = w & k
        j4 = (b << 4) & (empty << 8)  # squares a White man can jump from, by direction
        j5 = (b << 5) & (empty << 10)
        if kings and kings & (j4 | j5 | (b >> 4) & (empty >> 8) | (b >> 5) & (empty >> 10)):
            jumping = w & (j4 | j5) | kings & ((b >> 4) & (empty >> 8) | (b >> 5) & (empty >> 10))
            return captures(b, w, k, 1, plies, jumping)
        first, second = w & j5, w & j4  # ... and in White's (``_JUMPS`` order)
    out: list[tuple] = []
    jumpers = first | second
    if jumpers:  # only men can capture: by jumping man, then by direction
        promo = PROMO[side]
        go = (j4 | j5) & ~promo  # the squares a man can jump on from
        jfirst, jsecond = _JUMPS[side]
        while jumpers:
            f = jumpers & -jumpers
            jumpers ^= f
            if f & first:
                jumps = (jfirst[f], jsecond[f]) if f & second else (jfirst[f],)
            else:
                jumps = (jsecond[f],)
            for move, over, land, nsq, step in jumps:
                if land & go:  # lands where it can jump again: follow every path
                    paths: list = []
                    opp = (w if side == 0 else b) ^ over
                    path = (f.bit_length() - 1, nsq)
                    jump_paths(nsq, opp, empty, MAN_JUMPS[side], promo, path, over, paths)
                    out += _from_paths(b, w, k, side, plies, f, paths)
                    continue
                nk = k & ~over if k else 0
                if land & promo:
                    nk |= land
                if side == 0:
                    out.append((move, (b ^ step, w ^ over, nk, 1, plies, 0, ())))
                else:
                    out.append((move, (b ^ over, w ^ step, nk, 0, plies, 0, ())))
        return out
    app = out.append
    if side == 0:
        promo = PROMO[0]
        if not kings:  # men only: every move resets the counters
            t4 = (b << 4) & empty
            t5 = (b << 5) & empty
            if not (t4 | t5) & promo:  # no man crowns: both directions' pairs in one look-up
                key = t4 | t5 << 35
                pairs = _MEN[0].get(key)
                for move, step in _men_steps(0, t4, t5, key) if pairs is None else pairs:
                    app((move, (b ^ step, w, k, 1, plies, 0, ())))
                return out
            for shift, table, memo in _UP:
                t = (b << shift) & empty
                crown = t & promo  # the highest squares: their moves come last
                t ^= crown
                pairs = memo.get(t)
                for move, step in _steps(table, memo, t) if pairs is None else pairs:
                    app((move, (b ^ step, w, k, 1, plies, 0, ())))
                while crown:
                    x = crown & -crown
                    crown ^= x
                    move, step = table[x]
                    app((move, (b ^ step, w, k | x, 1, plies, 0, ())))
            return out
        quiet += 1
        grown = (*history, (b, w, k, 0)) if rules.repetition else ()  # after a king's step
        for shift, table, memo in _UP:
            t = (b << shift) & empty
            pairs = memo.get(t)
            for move, step in _steps(table, memo, t) if pairs is None else pairs:
                if step & k:
                    app((move, (b ^ step, w, k ^ step, 1, plies, quiet, grown)))
                elif step & promo:
                    app((move, (b ^ step, w, k | (step & promo), 1, plies, 0, ())))
                else:
                    app((move, (b ^ step, w, k, 1, plies, 0, ())))
        for shift, table, memo in _DOWN:
            t = (kings >> shift) & empty
            pairs = memo.get(t)
            for move, step in _steps(table, memo, t) if pairs is None else pairs:
                app((move, (b ^ step, w, k ^ step, 1, plies, quiet, grown)))
        return out
    promo = PROMO[1]
    if not kings:
        t4 = (w >> 4) & empty
        t5 = (w >> 5) & empty
        if not (t4 | t5) & promo:
            key = t4 | t5 << 35
            pairs = _MEN[1].get(key)
            for move, step in _men_steps(1, t4, t5, key) if pairs is None else pairs:
                app((move, (b, w ^ step, k, 0, plies, 0, ())))
            return out
        for shift, table, memo in _DOWN:
            t = (w >> shift) & empty
            crown = t & promo  # the lowest squares: their moves come first
            t ^= crown
            while crown:
                x = crown & -crown
                crown ^= x
                move, step = table[x]
                app((move, (b, w ^ step, k | x, 0, plies, 0, ())))
            pairs = memo.get(t)
            for move, step in _steps(table, memo, t) if pairs is None else pairs:
                app((move, (b, w ^ step, k, 0, plies, 0, ())))
        return out
    quiet += 1
    grown = (*history, (b, w, k, 1)) if rules.repetition else ()
    for shift, table, memo in _DOWN:
        t = (w >> shift) & empty
        pairs = memo.get(t)
        for move, step in _steps(table, memo, t) if pairs is None else pairs:
            if step & k:
                app((move, (b, w ^ step, k ^ step, 0, plies, quiet, grown)))
            elif step & promo:
                app((move, (b, w ^ step, k | (step & promo), 0, plies, 0, ())))
            else:
                app((move, (b, w ^ step, k, 0, plies, 0, ())))
    for shift, table, memo in _UP:
        t = (kings << shift) & empty
        pairs = memo.get(t)
        for move, step in _steps(table, memo, t) if pairs is None else pairs:
            app((move, (b, w ^ step, k ^ step, 0, plies, quiet, grown)))
    return out
