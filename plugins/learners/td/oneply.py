"""The hot loop of serial self-play on 1 ply: one game, both sides learning with one net whose
model gives the chosen successor's gradient alone (``RowGrads``).

The same games, updates and random draws as ``selfplay.play_game`` with ``moves.choose``
(tests/plugins/test_recorded_td.py), in one function: on Kalah a ply is about 25 us, and the
frames of ``choose``, ``Successors`` and the protocol checks cost a fifth of it. Hot path: the
function is longer than the house limit for that reason.
"""

from __future__ import annotations

import math

import numpy as np

from mindgames.capabilities import require
from mindgames.game import Game, State
from mindgames.model import Evaluator, RowGrads, as_differentiable
from mindgames.plugins.learners.td.moves import Reward, best
from mindgames.plugins.learners.td.update import TDUpdate


def play_one_ply(
    game: Game,
    state: State,
    evaluator: Evaluator,
    update: TDUpdate,
    rng: np.random.Generator,
    explore: dict[str, float],
    reward: Reward,
    max_plies: int,
) -> tuple[State, int]:
    """Play one self-play game from ``state``, learning from every position; (final, plies)."""
    model = require(evaluator.model, RowGrads, what="td's one-ply self-play")
    value_and_grad = as_differentiable(evaluator.model).value_and_grad
    encoding = evaluator.encoding
    encode, encode_batch = encoding.encode, encoding.encode_batch_fn or encoding.encode_batch
    row_grads = model.values_and_row_grad
    children_of, is_terminal, to_move = game.children, game.is_terminal, game.to_move
    epsilon, temperature = explore.get("epsilon", 0.0), explore.get("temperature", 0.0)
    step = update.step
    random = rng.random
    cached: tuple[float, np.ndarray] | None = None
    prev_side = -1
    plies = 0
    while plies < max_plies and not is_terminal(state):
        side = to_move(state)
        value, grad = value_and_grad(encode(state)) if cached is None else cached
        if prev_side >= 0:
            step(value, grad, side == prev_side)
        else:
            update.begin(value, grad)
        prev_side = side
        plies += 1
        cached = None
        children = children_of(state)
        count = len(children)
        # the epsilon draw first (``moves.explored``): an explored move costs no valuation
        if count == 1:
            state = children[0][1]
            continue
        if epsilon > 0.0 and random() < epsilon:
            state = children[int(rng.integers(count))][1]
            continue
        # the successors valued for the mover (``moves.Successors``): a finished one by its
        # reward, the others by the net, negated when the other side moves next
        values: list[float] = []
        opened: list[int] = []
        pending: list[State] = []
        for i, (_, kid) in enumerate(children):
            if is_terminal(kid):
                values.append(reward(kid, side))
            else:
                opened.append(i)
                pending.append(kid)
                values.append(1.0 if to_move(kid) == side else -1.0)
        if pending:
            raw, gradient = row_grads(encode_batch(pending))
            for k, v in enumerate(raw.tolist()):
                values[opened[k]] *= v
        i = best(rng, values, temperature)
        state = children[i][1]
        if pending and i in opened:
            k = opened.index(i)
            cached = (float(raw[k]), gradient(k))
    if prev_side >= 0:
        last = reward(state, prev_side)
        if not math.isnan(last):
            update.finish(last)
    return state, plies
