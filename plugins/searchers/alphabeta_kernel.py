"""The compiled alpha-beta: the Python searcher's ``node`` (plugins/searchers/alphabeta.py) as
one numba function over state rows (a loop over an explicit stack of frames), with the same
pruning, table, ordering, extensions and counters, so that both paths return the same move,
value, nodes and leaves; ``root`` is one iteration of the deepening, ``deepen`` the iterations
that need no choice from Python. Every function is ``hot`` (no reference counting, no
allocation but the table's ``grow``: ``mindgames.compiled.hot``).

This file is a template. numba cannot cache a function that takes another compiled function as
an argument or a closure over one (it recompiles them in every process), so the searcher reads
the game's and the model's kernels as module globals: ``specialise`` writes a copy of this file
for each pair of kernel modules with the block between the ``bind`` markers replaced by imports
from them, and numba caches that copy like any module. Unbound, the names below come from
``unbound``, whose kernels refuse to run.

The search's state travels as one tuple of arrays, ``SEARCH`` names them in order:
``c`` the counters, ``opt`` the options, per-ply blocks of ``kids``/``kmoves``/``korder`` for
the successors, ``killers`` and the triangular ``pvt``/``pvlen`` for the principal variation
(as each position's child index in generation order, which Python turns back into moves),
``node``'s frames ``fi``/``ff``, and the transposition table ``tkey``/``tint``/``tval``/``tgen``:
open addressing over arrays that live as long as the process (``T_STAMP``), with the Python
table's fields.
"""

from __future__ import annotations

import numpy as np

import mindgames.plugins.searchers.alphabeta_compiled as driver  # its FIRST_SLOTS (the table)
from mindgames.compiled.hot import allocating, float_bits, hot, stack_empty

# <bind>
from mindgames.compiled.unbound import capture_pending as g_capture_pending
from mindgames.compiled.unbound import children as g_children
from mindgames.compiled.unbound import encode as g_encode
from mindgames.compiled.unbound import is_terminal as g_is_terminal
from mindgames.compiled.unbound import key as g_key
from mindgames.compiled.unbound import move_count as g_move_count
from mindgames.compiled.unbound import progress as g_progress
from mindgames.compiled.unbound import result as g_result
from mindgames.compiled.unbound import to_move as g_to_move
from mindgames.compiled.unbound import value as m_value
from mindgames.plugins.searchers.pyrandom_kernel import shuffle

# </bind>

WIN = 2.0
STEP = 1.0 / 4096.0
PROVEN = 1.5
INF = 1e9
NULL_WINDOW = 1e-9
TT_LIMIT = 2_000_000
CLOCK_EVERY = 64
EXACT, LOWER, UPPER = 0, 1, 2
#: no move (the Python searcher's None): move codes are never negative
NONE = -1
#: the encoding code of the core's ``progress`` encoding (game codes are never negative)
PROGRESS = -1

#: the arrays of a search, in the order of the tuple ``node`` and ``root`` take
SEARCH = (
    "gp", "ev", "eopts", "x", "mmeta", "mparams", "opt", "c", "tkey", "tint", "tval", "tgen",
    "kids", "kmoves", "korder", "killers", "pvt", "pvlen", "sv", "skind", "mt", "fi", "ff",
    "lint", "lval", "lx", "lgen",
)  # fmt: skip
#: counters (``c``)
NODES, LEAVES, MOVES, HITS, CUT, CHECK_AT, STOP, OVERFLOW, ROOT_MOVES = range(9)
#: options (``opt``)
XF, XC, EXT, NULL, QUICK, USE_TT, ORDERING, PVS, BUDGET, ALTERNATE, PLAIN, BATCH, SHUFFLE = range(
    13
)
#: ``opt[REMEMBER]``: leaf values are remembered within a search (``eval_cache``)
REMEMBER = 13
#: what ``deepen`` saved of the last iteration it completed (``saved``)
SAVED_DEPTH, SAVED_COUNT, SAVED_INDEX, SAVED_LEN = range(4)
#: what a batched tail child needs (``skind``): its static value, a search, an evaluation
STATIC, SEARCHED, EVALUATED = 0, 1, 2
#: ``node``'s modes, a frame's phase (its first children, the batched tail, done) and the
#: call it waits on (a null-window probe, a full window)
ENTER, NEXT, RETURN = 0, 1, 2
HEAD, TAIL, FINISH = 0, 1, 2
PROBE, FULL = 0, 1
#: a frame's integer fields (``fi``) and float fields (``ff``): ``node``'s variables
F_AT, F_D, F_EXT, F_N, F_J, F_CUT0, F_KEY, F_HEAD, F_CD, F_CEXT = range(10)
F_SIDE, F_BEST_MOVE, F_STAGE, F_FLIP, F_I, F_PHASE = range(10, 16)
F_INTS = 16
F_ALPHA, F_BETA, F_BEST, F_A, F_NB = range(5)
F_FLOATS = 5

#: the table's columns (``tint``): generation stamp, depth, extension, flag (with ``RESOLVED``
#: for an entry whose subtree had no cut-off), move, moves; its key and value live in ``tkey``
#: and ``tval``, which are the same slot's last two words (alphabeta_compiled._table: one
#: 64-byte row a slot, so a probe reads one cache line); ``tgen`` holds the generation, the
#: number of entries of it and the mask of the slots in use. A slot whose stamp is not the
#: current generation is empty, so clearing the table (a new search, or TT_LIMIT entries) is
#: one increment. The slots in use start few and double when half full (``grow``): a search
#: of a few thousand positions keeps its table in the processor's cache.
T_STAMP, T_DEPTH, T_EXT, T_FLAG, T_MOVE, T_MOVES = range(6)
RESOLVED = 4
GEN, COUNT, MASK = 0, 1, 2

#: the leaf values a search remembers (``eval_cache``): per slot (``lint``) a generation stamp,
#: the key (a hash of the encoded inputs' bits and the progress) and the progress, the value
#: (``lval``) and the encoded inputs themselves (``lx``); ``lgen`` holds the generation, the
#: entries and the mask, as ``tgen``. A value comes back only for the same inputs bit for bit
#: and the same progress, whose value it is: the search is the one without the cache.
L_STAMP, L_KEY, L_PLIES = range(3)


@hot
def probe(tkey, tint, tgen, key):
    """The slot of ``key`` in the table, or of the empty slot where it would go."""
    mask = tgen[MASK]
    slot = (key ^ (key >> 29)) * -7046029254386353131 >> 20 & mask
    gen = tgen[GEN]
    while tint[slot, T_STAMP] == gen and tkey[slot] != key:
        slot = (slot + 1) & mask
    return slot


@allocating
def grow(tkey, tint, tval, tgen):
    """Double the slots in use (up to the arrays' size), moving this generation's entries."""
    size = tgen[MASK] + 1
    if 2 * size > tkey.shape[0]:
        return
    gen = tgen[GEN]
    keys = np.empty(tgen[COUNT], dtype=np.int64)
    ints = np.empty((tgen[COUNT], tint.shape[1]), dtype=np.int64)
    vals = np.empty(tgen[COUNT], dtype=np.float64)
    k = 0
    for slot in range(size):
        if tint[slot, T_STAMP] == gen:
            keys[k] = tkey[slot]
            ints[k, :] = tint[slot, :]
            vals[k] = tval[slot]
            tint[slot, T_STAMP] = 0  # generations start at 1: 0 is never current
            k += 1
    tgen[MASK] = 2 * size - 1
    for j in range(k):
        slot = probe(tkey, tint, tgen, keys[j])
        tkey[slot] = keys[j]
        tint[slot, :] = ints[j, :]
        tval[slot] = vals[j]


@hot
def terminal(gp, row, ply, quick):
    """A finished game's value for its side to move, ``ply`` plies below the root."""
    r = g_result(gp, row)
    if r == 0:
        return 0.0
    if not quick:
        return r * WIN
    return r * WIN - ply * STEP if r > 0 else r * WIN + ply * STEP


@hot(inline="always")
def encoded(gp, row, ev, eopts, x):
    """``row``'s encodings side by side in ``x``; returns its progress (plies).

    ``ev``: per part a row ``(code, start, end, first option, end of options)`` into ``x`` and
    ``eopts`` (the parts' ``kernel_options`` one after another); code PROGRESS is the core's
    progress encoding (the game's ``progress`` kernel).
    """
    plies = g_progress(gp, row)
    for i in range(ev.shape[0]):
        code, start, end = ev[i, 0], ev[i, 1], ev[i, 2]
        if code == PROGRESS:
            x[start] = float(plies)
        else:
            g_encode(gp, code, eopts[ev[i, 3] : ev[i, 4]], row, x[start:end])
    return plies


@hot(inline="always")  # a call would pass its seven arrays as 49 words
def evaluate(gp, row, ev, eopts, x, mmeta, mparams):
    """The evaluator's value of ``row``: its encodings (``encoded``), then the model."""
    plies = encoded(gp, row, ev, eopts, x)
    return m_value(mmeta, mparams, x, plies)


@hot(inline="always")
def leaf_key(x, plies):
    """The key of a remembered leaf: a hash of its encoded inputs' bits and its progress. A
    product carries bits only upwards and the usual values (0, 1, -1, 0.5 ...) differ only in
    their top bits, so each step also folds the high half down."""
    key = plies * -7046029254386353131
    for i in range(x.shape[0]):
        key = (key ^ float_bits(x[i])) * 1099511628211
        key ^= key >> 32
    return key


@hot(inline="always")
def leaf_slot(key, mask):
    """The slot where ``leaf_key``'s ``key`` is looked for first. The key's low bits see only
    the inputs' low mantissa bits, zero for most encodings' values (0, 1, -1, 0.5 ...), so the
    slot takes its high bits, mixed down (as ``probe``): the low bits alone put every leaf of a
    ply in one chain."""
    return (key ^ (key >> 29)) * -7046029254386353131 >> 20 & mask


@hot
def remembered(gp, row, ev, eopts, x, mmeta, mparams, lint, lval, lx, lgen):
    """``evaluate``, its value remembered for the rest of the search (the table ``lint``,
    ``lval``, ``lx``, ``lgen``: a value comes back only for the same encoded inputs, bit for
    bit, and the same progress). A call of its own: its arrays cost a few words more than the
    value of a model worth remembering."""
    plies = encoded(gp, row, ev, eopts, x)
    width = x.shape[0]
    key = leaf_key(x, plies)
    mask = lgen[MASK]
    gen = lgen[GEN]
    slot = leaf_slot(key, mask)
    while lint[slot, L_STAMP] == gen:
        if lint[slot, L_KEY] == key and lint[slot, L_PLIES] == plies:
            same = True
            for i in range(width):
                if float_bits(lx[slot, i]) != float_bits(x[i]):
                    same = False
                    break
            if same:
                return lval[slot]
        slot = (slot + 1) & mask
    v = m_value(mmeta, mparams, x, plies)
    if 2 * (lgen[COUNT] + 1) <= mask + 1:  # at most half full: a probe always ends
        lint[slot, L_STAMP] = gen
        lint[slot, L_KEY] = key
        lint[slot, L_PLIES] = plies
        for i in range(width):
            lx[slot, i] = x[i]
        lval[slot] = v
        lgen[COUNT] += 1
    return v


@hot(inline="always")
def leaf(gp, row, ev, eopts, x, mmeta, mparams, remember, lint, lval, lx, lgen):
    """A leaf's value: ``evaluate``, or ``remembered`` when the search remembers its leaves
    (``opt[REMEMBER]``, the searcher's ``eval_cache``)."""
    if remember:
        return remembered(gp, row, ev, eopts, x, mmeta, mparams, lint, lval, lx, lgen)
    return evaluate(gp, row, ev, eopts, x, mmeta, mparams)


@hot
def check(c, opt, tgen):
    """The periodic look at the table's size and the node budget; True when out of budget."""
    if tgen[COUNT] >= TT_LIMIT:
        tgen[GEN] += 1
        tgen[COUNT] = 0
    budget = opt[BUDGET]
    if budget >= 0 and c[NODES] >= budget:
        c[STOP] = 1
        return True
    c[CHECK_AT] = c[NODES] + CLOCK_EVERY
    if budget >= 0 and c[CHECK_AT] > budget:
        c[CHECK_AT] = budget
    return False


@hot
def order_moves(kmoves, base, n, hint, k0, k1, korder):
    """Reorder ``korder[base:base+n]`` (child indices): the table's move, then the two killers
    (each if legal here), first, the rest in their order (the Python searcher's ``_order``)."""
    chosen = stack_empty(3, np.int64)
    chosen[:] = NONE
    first = 0
    wanted = (hint, k0, k1)
    for w in range(3):
        want = wanted[w]
        if want == NONE or (w > 0 and want == hint):
            continue
        for p in range(n):
            i = korder[base + p]
            if kmoves[base + i] == want:
                if i != chosen[0] and i != chosen[1]:
                    chosen[first] = i
                    first += 1
                break
    if first == 0:
        return
    at = n - 1  # the others to the back, in order (never over an unread place: at >= p)
    for p in range(n - 1, -1, -1):
        i = korder[base + p]
        if i != chosen[0] and i != chosen[1] and i != chosen[2]:
            korder[base + at] = i
            at -= 1
    for q in range(first):
        korder[base + q] = chosen[q]


@hot
def extend_pv(pvt, pvlen, ply, i):
    """The principal variation at ``ply``: child ``i``, then the one below it."""
    below = ply + 1
    k = pvlen[below]
    pvt[ply, 0] = i
    for q in range(k):  # a loop: a slice copy within one array may allocate
        pvt[ply, q + 1] = pvt[below, q]
    pvlen[ply] = k + 1


@hot
def node(at, d, ext, alpha, beta, ply, s):
    """The value of the row ``kids[at]`` searched ``d`` plies deep: the Python ``node``, its
    recursion turned into a loop over an explicit stack of frames (one a ply: ``fi``/``ff``),
    so the search's arrays are unpacked once, not once a position; ``s``: the search's arrays
    (``SEARCH``).

    A frame runs in three modes: ``ENTER`` (the node's start, up to its children, or an early
    value), ``NEXT`` (the next child: scored in place, or entered one ply down), ``RETURN``
    (a value ``ret`` going up to the frame below, which goes on where its call was: ``stage``).
    """
    gp, ev, eopts, x, mmeta, mparams, opt, c, tkey, tint, tval, tgen = s[:12]
    kids, kmoves, korder, killers, pvt, pvlen, sv, skind, mt, fi, ff, lint, lval, lx, lgen = s[12:]
    xf, xc, E = opt[XF], opt[XC], opt[EXT]
    remember = opt[REMEMBER]
    quick = opt[QUICK]
    null = opt[NULL]
    use_tt = opt[USE_TT]
    ordering = opt[ORDERING]
    plain = opt[PLAIN]
    batch = opt[BATCH]
    shuffled = opt[SHUFFLE]
    alternate = opt[ALTERNATE]
    pvs = opt[PVS]
    room = kmoves.shape[0] // pvlen.shape[0]
    top = ply
    # the current frame's variables (saved in ``fi``/``ff`` while a child runs)
    n = 0
    j = 0
    cut0 = 0
    key = 0
    head = 0
    cd = 0
    cext = 0
    side = 0
    best_move = NONE
    stage = 0
    flip = False
    i = 0
    phase = HEAD
    best = -INF
    a = alpha
    nb = 0.0
    lo = hi = 0.0
    base = ply * room
    ret = 0.0
    mode = ENTER
    while True:
        if mode == ENTER:
            row = kids[at]
            base = ply * room
            pvlen[ply] = 0
            mode = RETURN
            if d <= 0:
                if g_is_terminal(gp, row):
                    c[LEAVES] += 1
                    ret = terminal(gp, row, ply, quick)
                    continue
                if xc and ext >= E and g_capture_pending(gp, row):
                    d, ext = E, ext - E
                elif not (xf and ext >= E and g_move_count(gp, row) == 1):
                    c[LEAVES] += 1
                    c[CUT] += 1
                    if null:
                        ret = 0.0
                    else:
                        ret = leaf(
                            gp, row, ev, eopts, x, mmeta, mparams, remember, lint, lval, lx, lgen
                        )
                    continue
            if c[NODES] >= c[CHECK_AT] and check(c, opt, tgen):
                ret = 0.0
                continue
            hint = NONE
            key = 0
            if use_tt:
                key = g_key(gp, row)
                slot = probe(tkey, tint, tgen, key)
                if tint[slot, T_STAMP] == tgen[GEN]:
                    hint = tint[slot, T_MOVE]
                    v = tval[slot]
                    flag = tint[slot, T_FLAG] & ~RESOLVED
                    resolved = tint[slot, T_FLAG] & RESOLVED
                    if tint[slot, T_DEPTH] == d and tint[slot, T_EXT] == ext:
                        if v > PROVEN:
                            v -= ply * STEP
                        elif v < -PROVEN:
                            v += ply * STEP
                        if (
                            (flag == LOWER and v >= beta)
                            or (flag == UPPER and v <= alpha)
                            or (flag == EXACT and (v <= alpha or v >= beta))
                        ):
                            if g_is_terminal(gp, row):
                                c[LEAVES] += 1
                                ret = terminal(gp, row, ply, quick)
                                continue
                            c[NODES] += 1
                            c[MOVES] += tint[slot, T_MOVES]
                            if not resolved:
                                c[CUT] += 1
                            ret = v
                            continue
            n = g_children(gp, row, kids[base : base + room], kmoves[base : base + room])
            if n < 0:
                c[OVERFLOW] = 1
                c[STOP] = 1
                ret = 0.0
                continue
            if n == 0:
                c[LEAVES] += 1
                ret = terminal(gp, row, ply, quick)
                continue
            c[NODES] += 1
            c[MOVES] += n
            cut0 = c[CUT]
            for q in range(n):
                korder[base + q] = q
            if n > 1 and shuffled:
                shuffle(mt, korder, base, n)  # ``random_order``: Python's shuffle, same draws
            if n > 1 and ordering:
                order_moves(kmoves, base, n, hint, killers[ply, 0], killers[ply, 1], korder)
            side = 0 if alternate else g_to_move(gp, row)
            cd, cext = d - 1, ext
            if xf and n == 1 and ext >= E:
                cd, cext = cd + E, ext - E
            best = -INF
            best_move = NONE
            a = alpha
            nply = ply + 1
            # ``batch``: the first child alone (it often cuts), then the rest as one batch
            head = 1 if batch and cd <= 0 and n > 1 else n
            j = 0
            phase = HEAD
            if plain and cd <= 0:
                # every child is a leaf: scored here, the counters moving as a node's would
                for j in range(head):
                    i = korder[base + j]
                    child = kids[base + i]
                    c[LEAVES] += 1
                    if g_is_terminal(gp, child):
                        term = True
                        xv = terminal(gp, child, nply, quick)
                    else:
                        term = False
                        c[CUT] += 1
                        if null:
                            xv = 0.0
                        else:
                            xv = leaf(gp, child, ev, eopts, x, mmeta, mparams, remember, lint,
                                      lval, lx, lgen)  # fmt: skip
                    v = -xv if alternate or g_to_move(gp, child) != side else xv
                    window = beta - a > NULL_WINDOW and a + NULL_WINDOW <= v < beta
                    if pvs and best_move != NONE and window:
                        c[LEAVES] += 1
                        if not term:
                            c[CUT] += 1
                    if v > best:
                        best = v
                        best_move = kmoves[base + i]
                        if v > a:
                            a = v
                            pvt[ply, 0] = i
                            pvlen[ply] = 1
                            if a >= beta:
                                break
                j = head
            mode = NEXT
        if mode == NEXT:
            nply = ply + 1
            call = False
            if phase == HEAD:
                if j < head and not (plain and cd <= 0):
                    i = korder[base + j]
                    j += 1
                    flip = alternate or g_to_move(gp, kids[base + i]) != side
                    if pvs and best_move != NONE and beta - a > NULL_WINDOW:
                        nb = a + NULL_WINDOW
                        stage = PROBE
                        lo, hi = a, nb
                    else:
                        stage = FULL
                        lo, hi = a, beta
                    call = True
                else:
                    phase = FINISH
                    if head < n and best < beta:
                        # the tail's static values first, every evaluation counted
                        for q in range(head, n):
                            qi = korder[base + q]
                            child = kids[base + qi]
                            if g_is_terminal(gp, child):
                                c[LEAVES] += 1
                                skind[base + q] = STATIC
                                sv[base + q] = terminal(gp, child, nply, quick)
                            elif cext >= E and (
                                (xc and g_capture_pending(gp, child))
                                or (xf and g_move_count(gp, child) == 1)
                            ):
                                skind[base + q] = SEARCHED
                            else:
                                c[LEAVES] += 1
                                c[CUT] += 1
                                skind[base + q] = EVALUATED
                                sv[base + q] = leaf(gp, child, ev, eopts, x, mmeta, mparams,
                                                    remember, lint, lval, lx, lgen)  # fmt: skip
                        phase = TAIL
                        j = head
            if phase == TAIL and not call:
                while j < n:
                    i = korder[base + j]
                    kind = skind[base + j]
                    j += 1
                    flip = alternate or g_to_move(gp, kids[base + i]) != side
                    if kind == SEARCHED:
                        stage = FULL
                        lo, hi = a, beta
                        call = True
                        break
                    pvlen[nply] = 0
                    v = -sv[base + j - 1] if flip else sv[base + j - 1]
                    if v > best:
                        best = v
                        best_move = kmoves[base + i]
                        if v > a:
                            a = v
                            extend_pv(pvt, pvlen, ply, i)
                            if a >= beta:
                                break
                if not call:
                    phase = FINISH
            if call:
                # one ply down: this frame saved, the child's set up
                fi[ply, F_AT] = at
                fi[ply, F_D] = d
                fi[ply, F_EXT] = ext
                fi[ply, F_N] = n
                fi[ply, F_J] = j
                fi[ply, F_CUT0] = cut0
                fi[ply, F_KEY] = key
                fi[ply, F_HEAD] = head
                fi[ply, F_CD] = cd
                fi[ply, F_CEXT] = cext
                fi[ply, F_SIDE] = side
                fi[ply, F_BEST_MOVE] = best_move
                fi[ply, F_STAGE] = stage
                fi[ply, F_FLIP] = flip
                fi[ply, F_I] = i
                fi[ply, F_PHASE] = phase
                ff[ply, F_ALPHA] = alpha
                ff[ply, F_BETA] = beta
                ff[ply, F_BEST] = best
                ff[ply, F_A] = a
                ff[ply, F_NB] = nb
                at = base + i
                d, ext = cd, cext
                if flip:
                    alpha, beta = -hi, -lo
                else:
                    alpha, beta = lo, hi
                ply = nply
                mode = ENTER
                continue
            # the node is done (every child seen, or a cut-off)
            if ordering and best >= beta and n > 1 and killers[ply, 0] != best_move:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = best_move
            if use_tt:
                flag = UPPER if best <= alpha else (LOWER if best >= beta else EXACT)
                stored = best
                if stored > PROVEN:
                    stored += ply * STEP
                elif stored < -PROVEN:
                    stored -= ply * STEP
                slot = probe(tkey, tint, tgen, key)
                if tint[slot, T_STAMP] != tgen[GEN]:
                    if 2 * (tgen[COUNT] + 1) > tgen[MASK] + 1:
                        grow(tkey, tint, tval, tgen)
                        slot = probe(tkey, tint, tgen, key)
                    tint[slot, T_STAMP] = tgen[GEN]
                    tkey[slot] = key
                    tgen[COUNT] += 1
                tint[slot, T_DEPTH] = d
                tint[slot, T_EXT] = ext
                tint[slot, T_FLAG] = flag | (RESOLVED if c[CUT] == cut0 else 0)
                tint[slot, T_MOVE] = best_move
                tint[slot, T_MOVES] = n
                tval[slot] = stored
            ret = best
            mode = RETURN
        # mode == RETURN: ``ret`` goes to the frame below
        if ply == top:
            return ret
        ply -= 1
        at = fi[ply, F_AT]
        d = fi[ply, F_D]
        ext = fi[ply, F_EXT]
        n = fi[ply, F_N]
        j = fi[ply, F_J]
        cut0 = fi[ply, F_CUT0]
        key = fi[ply, F_KEY]
        head = fi[ply, F_HEAD]
        cd = fi[ply, F_CD]
        cext = fi[ply, F_CEXT]
        side = fi[ply, F_SIDE]
        best_move = fi[ply, F_BEST_MOVE]
        stage = fi[ply, F_STAGE]
        flip = fi[ply, F_FLIP] != 0
        i = fi[ply, F_I]
        phase = fi[ply, F_PHASE]
        alpha = ff[ply, F_ALPHA]
        beta = ff[ply, F_BETA]
        best = ff[ply, F_BEST]
        a = ff[ply, F_A]
        nb = ff[ply, F_NB]
        base = ply * room
        if c[STOP]:
            ret = 0.0
            continue
        v = -ret if flip else ret
        if stage == PROBE and nb <= v < beta:
            # the null window failed high: the same child again with the full window
            stage = FULL
            fi[ply, F_STAGE] = FULL
            at = base + i
            d, ext = cd, cext
            if flip:
                alpha, beta = -beta, -a
            else:
                alpha, beta = a, beta
            ply += 1
            mode = ENTER
            continue
        mode = NEXT
        if v > best:
            best = v
            best_move = kmoves[base + i]
            if v > a:
                a = v
                extend_pv(pvt, pvlen, ply, i)
                if a >= beta:
                    phase = FINISH


@hot
def root(rootrow, perm, depth, budget_ext, tie, s, scored_v, scored_i, scored_pv, scored_len):
    """One iteration of the deepening at ``depth`` over the root's children in ``perm`` order
    (the Python ``_Engine.root``): fills the ``scored`` arrays with each move that raised the
    bar (value, child index, principal variation) and returns how many; ``c[STOP]`` set when
    the node budget ran out (the Python ``_Stop``)."""
    gp, opt, c = s[0], s[6], s[7]
    kids, kmoves, killers, pvt, pvlen = s[12], s[13], s[15], s[16], s[17]
    killers[:, :] = NONE
    pvlen[:] = 0
    room = kmoves.shape[0] // pvlen.shape[0]
    n = g_children(gp, rootrow, kids[0:room], kmoves[0:room])
    c[ROOT_MOVES] = n
    if n < 0 or n != perm.shape[0]:
        c[OVERFLOW] = 1
        c[STOP] = 1
        return 0
    budget = opt[BUDGET]
    if budget >= 0 and c[NODES] >= budget:
        c[STOP] = 1
        return 0
    c[NODES] += 1
    c[MOVES] += n
    c[CUT] = 0
    side = g_to_move(gp, rootrow)
    E = opt[EXT]
    cd, cext = depth - 1, budget_ext
    if opt[XF] and n == 1 and cext >= E:
        cd, cext = cd + E, cext - E
    best = -INF
    count = 0
    ply1 = np.int64(1)  # typed as node's own ply (one compiled signature)
    for j in range(perm.shape[0]):
        i = perm[j]
        child = kids[i]
        a = best - tie
        if g_to_move(gp, child) != side:
            v = -node(i, cd, cext, -INF, -a, ply1, s)
        else:
            v = node(i, cd, cext, a, INF, ply1, s)
        if c[STOP]:
            return count
        if v > a:
            scored_v[count] = v
            scored_i[count] = i
            k = pvlen[1]
            scored_pv[count, 0] = i
            for q in range(k):
                scored_pv[count, q + 1] = pvt[1, q]
            scored_len[count] = k + 1
            count += 1
            if v > best:
                best = v
    return count


@hot
def deepen(
    rootrow, perm, first, last, budgets, tie, s, scored_v, scored_i, scored_pv, scored_len,
    saved, saved_v, saved_pv,
):  # fmt: skip
    """Iterations ``first`` to ``last`` of the deepening, one ``root`` each, without going back to
    Python in between when the choice is the deterministic one: after an iteration that is not
    the last, one that stopped (``c[STOP]``) or one after which the search would end (no cut-off,
    or a proven value), the first best move is the result (``saved``: its depth, count, child
    index and principal variation's length; ``saved_v`` its value, ``saved_pv`` the line) and
    goes to the front of ``perm``, as the Python loop in alphabeta_compiled.py does. Returns the
    depth it stopped at, whose ``scored`` arrays that loop then reads as before."""
    c = s[7]
    saved[SAVED_DEPTH] = 0
    depth = first
    while True:
        count = root(
            rootrow, perm, depth, budgets[depth], tie, s, scored_v, scored_i, scored_pv, scored_len
        )
        saved[SAVED_COUNT] = count
        if c[STOP] or depth >= last:
            return depth
        best = -INF
        k = 0
        for q in range(count):
            if scored_v[q] > best:
                best = scored_v[q]
                k = q
        if c[CUT] == 0 or abs(best) > PROVEN:
            return depth
        i = scored_i[k]
        saved[SAVED_DEPTH] = depth
        saved[SAVED_INDEX] = i
        saved_v[0] = best
        saved[SAVED_LEN] = scored_len[k]
        for q in range(scored_len[k]):
            saved_pv[q] = scored_pv[k, q]
        at = 0
        while perm[at] != i:
            at += 1
        for q in range(at, 0, -1):
            perm[q] = perm[q - 1]
        perm[0] = i
        depth += 1


@hot
def greedy(rootrow, s, values):
    """The one-ply values of the root's children in generation order, for the side to move
    (the ``greedy`` searcher: terminal children exactly, the others by the evaluator or 0 when
    ``opt[NULL]``); returns how many, or -1 when the buffer is too small."""
    gp, ev, eopts, x, mmeta, mparams, opt = s[0], s[1], s[2], s[3], s[4], s[5], s[6]
    kids, kmoves = s[12], s[13]
    n = g_children(gp, rootrow, kids, kmoves)
    if n < 0 or n > values.shape[0]:
        return -1
    side = g_to_move(gp, rootrow)
    for i in range(n):
        child = kids[i]
        if g_is_terminal(gp, child):
            v = terminal(gp, child, 1, opt[QUICK])
        elif opt[NULL]:
            v = 0.0
        else:
            v = evaluate(gp, child, ev, eopts, x, mmeta, mparams)
        values[i] = -v if g_to_move(gp, child) != side else v
    return n


@hot
def move_of(row, n, last, budgets, s, perm, scored_v, scored_i, scored_pv, scored_len, saved,
            saved_v, saved_pv, value):  # fmt: skip
    """The child index the Python search (alphabeta_compiled.search without random ties or a
    clock) chooses at ``row`` with ``n`` children, its value in ``value[0]``: a fresh table and
    counters, one ``deepen`` from depth 1 to ``last``; -1 when a position has more moves than
    the buffers."""
    c, tgen, lgen = s[7], s[11], s[26]
    c[:] = 0
    tgen[GEN] += 1  # a new generation: every slot is empty (alphabeta_compiled._table)
    tgen[COUNT] = 0
    tgen[MASK] = driver.FIRST_SLOTS - 1
    lgen[GEN] += 1  # and no leaf value is remembered (alphabeta_compiled._leaf_cache)
    lgen[COUNT] = 0
    p = perm[:n]
    for q in range(n):
        p[q] = q
    deepen(row, p, 1, last, budgets, 0.0, s, scored_v, scored_i, scored_pv, scored_len,
           saved, saved_v, saved_pv)  # fmt: skip
    if c[OVERFLOW]:
        return -1
    if c[STOP] and saved[SAVED_DEPTH]:  # stopped: the last completed iteration's move
        value[0] = saved_v[0]
        return saved[SAVED_INDEX]
    count = saved[SAVED_COUNT]
    if count == 0:
        value[0] = 0.0
        return p[0]
    best = -INF
    k = 0
    for q in range(count):  # the first best (a stopped iteration's best so far)
        if scored_v[q] > best:
            best = scored_v[q]
            k = q
    value[0] = best
    return scored_i[k]


@hot
def play(row, max_plies, last, budgets, s0, s1, kids, kmoves, perm, scored_v, scored_i,
         scored_pv, scored_len, saved, saved_v, saved_pv, out):  # fmt: skip
    """One whole game from ``row`` (played in place) between the evaluators of ``s0`` (side 0)
    and ``s1`` (side 1), each move ``move_of``'s: ``task.play_game`` with two alpha-beta agents.
    Writes side 0's score (1, 0.5 or 0; 0.5 when cut at ``max_plies``) into ``out[0]`` and
    returns the plies played, or -1 when a position overflowed the buffers."""
    gp = s0[0]
    plies = 0
    while not g_is_terminal(gp, row):
        if plies >= max_plies:
            out[0] = 0.5
            return plies
        n = g_children(gp, row, kids, kmoves)
        if n <= 0:
            return -1
        if g_to_move(gp, row) == 0:
            i = move_of(row, n, last, budgets, s0, perm, scored_v, scored_i, scored_pv,
                        scored_len, saved, saved_v, saved_pv, out)  # fmt: skip
        else:
            i = move_of(row, n, last, budgets, s1, perm, scored_v, scored_i, scored_pv,
                        scored_len, saved, saved_v, saved_pv, out)  # fmt: skip
        if i < 0:
            return -1
        for q in range(row.shape[0]):  # a loop: a slice copy may allocate
            row[q] = kids[i, q]
        plies += 1
    r = g_result(gp, row)
    first = r if g_to_move(gp, row) == 0 else -r
    out[0] = (first + 1.0) / 2.0
    return plies


@hot
def values(rows, last, budgets, s, kids, kmoves, perm, scored_v, scored_i, scored_pv,
           scored_len, saved, saved_v, saved_pv, out):  # fmt: skip
    """The search value (``move_of``'s) of each unfinished position of ``rows`` into ``out``, as
    many Python searches would give them; returns the row that overflowed the buffers, or -1."""
    gp = s[0]
    value = saved_v[1:2]
    for r in range(rows.shape[0]):
        n = g_children(gp, rows[r], kids, kmoves)
        if n <= 0:
            return r
        i = move_of(rows[r], n, last, budgets, s, perm, scored_v, scored_i, scored_pv,
                    scored_len, saved, saved_v, saved_pv, value)  # fmt: skip
        if i < 0:
            return r
        out[r] = value[0]
    return -1
