"""Compiled TD(lambda) self-play: a batch of whole games, learning as they go, in one numba call
over state rows -- the games, random draws and updates of ``selfplay.play_game`` with
``moves.choose`` (1 ply) or ``alphabeta:depth=1|2`` (``searched``) and ``update.TDUpdate``
(``play``); with another look-ahead searcher, the learning step of each position (``learn``)
while Python asks the searcher for the moves (plugins/learners/td/compiled.py drives both).

This file is a template, bound like plugins/searchers/alphabeta_kernel.py by
``mindgames.compiled.specialise.bind`` to a game's kernel module (``g_*``) and to the gradient
kernels of evaluators/kernels_grad.py (``m_*``; bound rather than imported so that the bound
module's digest covers their source).

The random draws are the Python path's, from the same generator: numba's ``np.random.Generator``
shares the bit generator's state with the Python object and draws ``random()`` and
``integers(low, high)`` exactly as numpy does. Per game, in order: the start (``starts.
pick_start``: the start file's index, the number of random plies, one draw per random ply), then
per position with a choice, the epsilon draw and the random move (``moves.explored``).

Arrays (``play``'s arguments): ``fopt`` gamma, momentum, win, draw, loss, margin_scale; ``iopt``
direction_check, outcome (1: margin), margin_squash (1: linear), cutoff (1: draw), max_plies,
random_plies, random_plies_max (-1: unset), the look-ahead's depth (0: 1 ply; ``searched``),
its quick wins, whether the game's turns alternate. Parameters, step sizes, velocity and trace
are over the model's whole flat vector (``ModelKernels.params``, updated in place).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

# <bind>
from mindgames.compiled.unbound import children as g_children
from mindgames.compiled.unbound import encode as g_encode
from mindgames.compiled.unbound import is_terminal as g_is_terminal
from mindgames.compiled.unbound import progress as g_progress
from mindgames.compiled.unbound import result as g_result
from mindgames.compiled.unbound import to_move as g_to_move
from mindgames.evaluators.kernels_grad import backward as m_backward
from mindgames.evaluators.kernels_grad import value as m_value
from mindgames.evaluators.kernels_grad import value_grad as m_value_grad
from mindgames.plugins.learners.td.unbound import margin as g_margin

# </bind>

GAMMA, MOMENTUM, WIN, DRAW, LOSS, MARGIN_SCALE = range(6)
CHECK, MARGIN, LINEAR, CUT_DRAW, MAX_PLIES, RANDOM_PLIES, RANDOM_PLIES_MAX = range(7)
DEPTH, QUICK, ALTERNATE = range(7, 10)
#: alpha-beta's values of finished games (plugins/searchers/alphabeta_kernel.py)
SURE = 2.0  # alphabeta_kernel.WIN (WIN here is the option's index)
STEP = 1.0 / 4096.0
PROVEN = 1.5
#: the encoding code of the core's ``progress`` encoding (game codes are never negative)
PROGRESS = -1


@njit(cache=True)
def encode(gp, row, ev, eopts, x):
    """The evaluator's encoding of ``row`` into ``x``: its parts side by side."""
    for i in range(ev.shape[0]):
        code, start, end = ev[i, 0], ev[i, 1], ev[i, 2]
        if code == PROGRESS:
            x[start] = float(g_progress(gp, row))
        else:
            g_encode(gp, code, eopts[ev[i, 3] : ev[i, 4]], row, x[start:end])


@njit(cache=True)
def draw_value(fopt, side, start_side, draw):
    """A draw's reward for ``side`` (``draw``: for the start's side to move; NaN: unset)."""
    if math.isnan(draw):
        return fopt[DRAW]
    return draw if side == start_side else -draw


@njit(cache=True)
def reward(gp, fopt, iopt, row, side, start_side, draw):
    """``selfplay.rewarder``: a finished game's reward for ``side``; a cut one's (NaN: none)."""
    if not g_is_terminal(gp, row):
        return draw_value(fopt, side, start_side, draw) if iopt[CUT_DRAW] else math.nan
    if iopt[MARGIN]:
        m = g_margin(gp, row)
        if side != 0:
            m = -m
        if iopt[LINEAR]:
            return max(-1.0, min(1.0, m / fopt[MARGIN_SCALE]))
        return math.tanh(m / fopt[MARGIN_SCALE])
    r = g_result(gp, row)
    if g_to_move(gp, row) != side:
        r = -r
    if r > 0:
        return fopt[WIN]
    if r < 0:
        return fopt[LOSS]
    return draw_value(fopt, side, start_side, draw)


@njit(cache=True)
def apply(fopt, iopt, params, alpha, velocity, trace, delta):
    """``TDUpdate.apply(delta * trace)``: the step, plus momentum with its direction check."""
    momentum = fopt[MOMENTUM]
    for j in range(params.shape[0]):
        change = alpha[j] * (delta * trace[j])
        if momentum != 0.0:
            carry = momentum * velocity[j]
            if iopt[CHECK] and np.sign(carry) != np.sign(change):
                carry = 0.0
            change = change + carry
            velocity[j] = change
        params[j] += change


@njit(cache=True)
def start(gp, fopt, iopt, rng, init, starts, draws, row, kids, moves):
    """``starts.pick_start`` into ``row``: whether ``kids`` was large enough, and the draw
    reward for the side to move there (NaN: unset)."""
    draw = math.nan
    if starts.shape[0] == 0:
        row[:] = init
    else:
        k = rng.integers(0, starts.shape[0])
        row[:] = starts[k]
        draw = draws[k]
    side = g_to_move(gp, row)
    plies = iopt[RANDOM_PLIES]
    if iopt[RANDOM_PLIES_MAX] >= 0:
        plies = rng.integers(plies, iopt[RANDOM_PLIES_MAX] + 1)
    for _ in range(plies):
        n = g_children(gp, row, kids, moves)
        if n < 0:
            return False, draw
        open_ = 0
        for i in range(n):
            if not g_is_terminal(gp, kids[i]):
                kids[open_] = kids[i]
                open_ += 1
        if open_ == 0:
            break
        row[:] = kids[rng.integers(0, open_)]
    if not math.isnan(draw) and g_to_move(gp, row) != side:
        draw = -draw
    return True, draw


@njit(cache=True)
def leaf(gp, iopt, row, ply, ev, eopts, mmeta, params, x, work):
    """Alpha-beta's value of a leaf ``ply`` plies below the root, for its side to move: a
    finished game's (quick wins: sooner is better), else the net's; and whether it is over."""
    if g_is_terminal(gp, row):
        r = g_result(gp, row)
        if r == 0:
            return 0.0, True
        if not iopt[QUICK]:
            return r * SURE, True
        return (r * SURE - ply * STEP if r > 0 else r * SURE + ply * STEP), True
    encode(gp, row, ev, eopts, x)
    return m_value(mmeta, params, x, work), False


@njit(cache=True)
def for_parent(gp, iopt, parent, child, v):
    """A child's value for the parent's side to move."""
    if iopt[ALTERNATE] or g_to_move(gp, child) != g_to_move(gp, parent):
        return -v
    return v


@njit(cache=True)
def searched(gp, iopt, ev, eopts, mmeta, params, x, work, row, kids, n, deeper, dmoves, values):
    """The move ``alphabeta:depth=1|2`` (default options) picks among the ``n`` children in
    ``kids``: the first best of the depth-1 iteration, which then leads the depth-2 one; there
    the first child whose value beats every child before it (the values alpha-beta's search
    finds exact; the others only need to be shown no better). Depth 2 is skipped, as the Python
    iterations stop, when every child is over or one is a proven result."""
    # the plies as int64 values, not literals: ``leaf`` compiles once, not once a literal ply
    # (benchmarks/compile_profile.py: two compiles of it took 4.6 CPU s a game family, one 4.3)
    one, two = np.int64(1), np.int64(2)
    unresolved = 0
    first = 0
    for i in range(n):
        v, over = leaf(gp, iopt, kids[i], one, ev, eopts, mmeta, params, x, work)
        if not over:
            unresolved += 1
        values[i] = for_parent(gp, iopt, row, kids[i], v)
        if values[i] > values[first]:
            first = i
    if iopt[DEPTH] < 2 or unresolved == 0 or abs(values[first]) > PROVEN:
        return first
    best = -math.inf
    pick = first
    for j in range(n):
        i = first if j == 0 else (j - 1 if j <= first else j)
        child = kids[i]
        if g_is_terminal(gp, child):
            v, _ = leaf(gp, iopt, child, one, ev, eopts, mmeta, params, x, work)
            value = for_parent(gp, iopt, row, child, v)
        else:
            m = g_children(gp, child, deeper, dmoves)
            if m < 0:
                return -1
            # the child's value for its mover: the best of its children, stopped as soon as
            # the root's side is shown no better off than with the best so far
            negated = iopt[ALTERNATE] or g_to_move(gp, child) != g_to_move(gp, row)
            top = -math.inf
            for k in range(m):
                v, _ = leaf(gp, iopt, deeper[k], two, ev, eopts, mmeta, params, x, work)
                w = for_parent(gp, iopt, child, deeper[k], v)
                if w > top:
                    top = w
                    if negated and -top <= best:
                        break
            value = for_parent(gp, iopt, row, child, top)
        if value > best:
            best = value
            pick = i
    return pick


@njit(cache=True)
def play(
    gp, ev, eopts, mmeta, params, alpha, velocity, scales, lams, epsilons, fopt, iopt,
    init, starts, draws, rng, finals, lengths, kids, moves, x, work, trace, grad, step_alpha,
    deeper, dmoves, values, kx, kwork,
):  # fmt: skip
    """Play and learn ``lengths.shape[0]`` games; each one's final row and plies into
    ``finals`` and ``lengths``. Returns 0, or -1 when ``kids`` was too small (games stop).

    On 1 ply each successor's encoding and forward pass stay in ``kx`` and ``kwork`` (its
    value in ``values``), so the chosen one's gradient is the backward pass alone (as the
    Python path takes it from the batch that valued the successors)."""
    gamma = fopt[GAMMA]
    max_plies = iopt[MAX_PLIES]
    row = np.empty(init.shape[0], dtype=np.int64)
    for g in range(lengths.shape[0]):
        for j in range(alpha.shape[0]):
            step_alpha[j] = alpha[j] * scales[g]
        lam, epsilon = lams[g], epsilons[g]
        ok, draw = start(gp, fopt, iopt, rng, init, starts, draws, row, kids, moves)
        if not ok:
            return -1
        start_side = g_to_move(gp, row)
        prev_side = -1
        plies = 0
        p = 0.0
        cached = -1  # the successor whose forward pass is in kx, kwork and values
        while plies < max_plies and not g_is_terminal(gp, row):
            side = g_to_move(gp, row)
            if cached >= 0:
                value = values[cached]
                m_backward(mmeta, params, kx[cached], value, grad, kwork[cached])
                cached = -1
            else:
                encode(gp, row, ev, eopts, x)
                value = m_value_grad(mmeta, params, x, grad, work)
            if prev_side >= 0:  # ``TDUpdate.step``
                s = 1.0 if side == prev_side else -1.0
                apply(fopt, iopt, params, step_alpha, velocity, trace, gamma * s * value - p)
                decay = gamma * lam * s
                for j in range(trace.shape[0]):
                    trace[j] = trace[j] * decay + grad[j]
            else:  # ``TDUpdate.begin``
                trace[:] = grad
            p = value
            prev_side = side
            plies += 1
            n = g_children(gp, row, kids, moves)
            if n < 0:
                return -1
            if n == 1:
                row[:] = kids[0]
                continue
            if epsilon > 0.0 and rng.random() < epsilon:
                row[:] = kids[rng.integers(0, n)]
                continue
            if iopt[DEPTH] > 0:  # the look-ahead's move
                pick = searched(
                    gp, iopt, ev, eopts, mmeta, params, x, work, row, kids, n, deeper, dmoves,
                    values,
                )  # fmt: skip
                if pick < 0:
                    return -1
                row[:] = kids[pick]
                continue
            best = -math.inf
            pick = 0
            for i in range(n):
                if g_is_terminal(gp, kids[i]):
                    v = reward(gp, fopt, iopt, kids[i], side, start_side, draw)
                else:
                    encode(gp, kids[i], ev, eopts, kx[i])
                    values[i] = v = m_value(mmeta, params, kx[i], kwork[i])
                    if g_to_move(gp, kids[i]) != side:
                        v = -v
                if v > best:
                    best = v
                    pick = i
            row[:] = kids[pick]
            if not g_is_terminal(gp, row):
                cached = pick
        if prev_side >= 0:
            last = reward(gp, fopt, iopt, row, prev_side, start_side, draw)
            if not math.isnan(last):  # ``TDUpdate.finish``
                apply(fopt, iopt, params, step_alpha, velocity, trace, last - p)
        finals[g] = row
        lengths[g] = plies
    return 0


@njit(cache=True)
def learn(gp, ev, eopts, mmeta, params, alpha, velocity, fopt, iopt, row, x, work, trace, grad, at):
    """One learned position of a game whose moves are chosen outside (a look-ahead search):
    ``TDUpdate.begin`` or ``step`` at ``row``. ``at`` carries the game's P_t, the side that
    moved last (-1: none yet) and lambda between calls."""
    side = g_to_move(gp, row)
    encode(gp, row, ev, eopts, x)
    value = m_value_grad(mmeta, params, x, grad, work)
    if at[1] >= 0:
        gamma = fopt[GAMMA]
        s = 1.0 if side == at[1] else -1.0
        apply(fopt, iopt, params, alpha, velocity, trace, gamma * s * value - at[0])
        decay = gamma * at[2] * s
        for j in range(trace.shape[0]):
            trace[j] = trace[j] * decay + grad[j]
    else:
        trace[:] = grad
    at[0] = value
    at[1] = side
