"""Lockstep self-play on a game whose states are rows of one array (``StateRows``): the same
games, updates and random draws as ``selfplay.play_lockstep`` (tests/plugins/test_recorded_td.py),
with every game's successors made, encoded and valued in a few numpy calls a ply.

Per ply and game, only the exploration draw stays in Python; the states become tuples only
when a game ends (its reward and final state) or starts. Hot path: one function, longer than
the house limit for that reason.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from mindgames.game import Game, State, StateRows
from mindgames.model import Evaluator, RowsGrads
from mindgames.plugins.learners.td.moves import Reward, best
from mindgames.plugins.learners.td.starts import Start
from mindgames.plugins.learners.td.update import TDUpdate

if TYPE_CHECKING:
    from mindgames.plugins.learners.td.learner import TDLearner


def play_lockstep_rows(
    opts: TDLearner,
    game: Game,
    evaluator: Evaluator,
    n: int,
    update: TDUpdate,
    rng: np.random.Generator,
    explore: dict[str, float],
    starts: list[Start],
) -> tuple[list[State], list[int]]:
    """``selfplay.play_lockstep`` for a ``StateRows`` game and an encoding with
    ``encode_rows`` (the caller checks both) and a batch-differentiable model."""
    from mindgames.plugins.learners.td.selfplay import new_game

    assert isinstance(game, StateRows)
    rows_game: Any = game
    model: Any = evaluator.model
    encode_rows: Any = evaluator.encoding.encode_rows
    batch_grad, value_batch = model.value_and_grad_batch, model.value_batch
    # the chosen successors' values and gradients from their valuation's forward pass, when
    # the model offers it and no update came in between (else ``batch_grad`` again)
    rows_grads = model.values_and_rows_grads if isinstance(model, RowsGrads) else None
    known: tuple[np.ndarray, np.ndarray, Any] | None = None  # (values, rows, gradients of)
    row_children, row_sides, row_state = (
        rows_game.row_children,
        rows_game.row_sides,
        rows_game.row_state,
    )
    width = len(update.alpha)
    finals: list[State] = []
    lengths: list[int] = []
    started = 0
    # the games in play, one row each in every array (restarted games are appended)
    reward: list[Reward] = []
    board = np.zeros((0, 0), dtype=np.int64)
    traces, prev = np.zeros((0, width)), np.zeros(0)
    plies = np.zeros(0, dtype=np.int64)
    #: +1 where the side to move is the one that moved last, else -1 (new games: unused)
    same = np.zeros(0)
    xs = np.zeros((0, 0))
    gamma, gl, max_plies = update.gamma, update.gamma * update.lam, opts.max_plies
    temperature, epsilon = explore.get("temperature", 0.0), explore.get("epsilon", 0.0)
    random, integers = rng.random, rng.integers
    count = min(opts.lockstep, n)  # games to start
    while True:
        if count:  # start games: their rows appended
            starting = []
            for _ in range(count):
                state, its_reward = new_game(opts, game, starts, rng)
                reward.append(its_reward)
                starting.append(state)
            started += count
            new = rows_game.state_rows(starting)
            board = np.concatenate([board, new]) if len(board) else new
            xs = np.concatenate([xs, encode_rows(new)]) if len(xs) else encode_rows(new)
            traces = np.concatenate([traces, np.zeros((count, width))])
            prev = np.concatenate([prev, np.zeros(count)])
            plies = np.concatenate([plies, np.zeros(count, dtype=np.int64)])
            same = np.concatenate([same, np.ones(count)])
        if not len(reward):
            break
        # the TD step of every game, as ``play_lockstep``
        if known is None:
            values, grads = batch_grad(xs)
        else:
            values, grads = known[0], known[2](known[1])
            if count:
                more = batch_grad(xs[-count:])
                values = np.concatenate([values, more[0]])
                grads = np.concatenate([grads, more[1]])
        if count:  # games just started (the last rows): no TD error yet, their traces start
            # at the gradient
            old = np.arange(len(reward)) < len(reward) - count
            if len(reward) > count:
                deltas = np.where(old, gamma * same * values - prev, 0.0)
                update.apply(deltas.dot(traces))
            decay = np.where(old, gl * same, 0.0)
        else:  # (the same numbers with every game under way)
            update.apply((gamma * same * values - prev).dot(traces))
            decay = gl * same
        traces *= decay[:, None]  # grads + decay * traces, in place
        traces += grads
        prev = values
        # every game's successors, valued for its mover in one batch
        kids, legal, over, passes = row_children(board)
        games, slots = legal.shape
        # every slot valued, legal or not (cheaper than picking the legal ones out first)
        child_x = encode_rows(kids.reshape(games * slots, -1))
        if rows_grads is None:
            valued, of = value_batch(child_x), None
        else:
            valued, of = rows_grads(child_x)
        scores = valued.reshape(games, slots)
        if of is not None:
            scores = scores.copy()  # ``valued`` stays each successor's value for its mover
        np.negative(scores, out=scores, where=passes)
        scores[~legal] = -np.inf
        if np.count_nonzero(over):
            mover = row_sides(board).tolist()
            for r, j in zip(*np.nonzero(over), strict=True):  # finished: the reward
                scores[r, j] = reward[r](row_state(kids[r, j]), mover[r])
        chosen = scores.argmax(axis=1)
        # the draws of ``moves.explored`` and ``moves.best``, game by game (a game with one
        # move draws nothing)
        if epsilon > 0.0 and temperature <= 0.0:  # (the common case, its loop lean)
            for r, moves in enumerate(legal.sum(axis=1).tolist()):
                if moves > 1 and random() < epsilon:
                    chosen[r] = np.flatnonzero(legal[r])[int(integers(moves))]
        elif epsilon > 0.0 or temperature > 0.0:
            for r, moves in enumerate(legal.sum(axis=1).tolist()):
                if moves == 1:
                    continue
                if epsilon > 0.0 and random() < epsilon:
                    chosen[r] = np.flatnonzero(legal[r])[int(integers(moves))]
                elif temperature > 0.0:
                    legal_r = np.flatnonzero(legal[r])
                    chosen[r] = legal_r[best(rng, scores[r, legal_r].tolist(), temperature)]
        pick = np.arange(0, games * slots, slots) + chosen
        board = kids.reshape(games * slots, -1).take(pick, axis=0)
        plies += 1
        xs = child_x.take(pick, axis=0)  # the next ply's positions, encoded
        ended = over.take(pick) | (plies >= max_plies)
        known = None if of is None else (valued.take(pick), pick, of)
        turned = passes.ravel().take(pick)
        same = np.where(turned, -1.0, 1.0)  # the next step's: did the side to move stay?
        count = 0
        if np.count_nonzero(ended):
            done = np.flatnonzero(ended).tolist()
            ends = [row_state(board[k]) for k in done]
            movers = (row_sides(board.take(done, axis=0)) ^ turned.take(done)).tolist()
            rewards = [
                reward[k](end, side) for k, end, side in zip(done, ends, movers, strict=True)
            ]
            counted = [k for k, r in zip(done, rewards, strict=True) if not math.isnan(r)]
            if counted:
                known = None  # the weights change: the next values are made anew
                got = np.array([r for r in rewards if not math.isnan(r)])
                update.apply((got - prev[counted]).dot(traces[counted]))
            finals += ends
            lengths += plies[done].tolist()
            count = min(len(done), n - started)
            keep = ~ended
            board, traces, prev, same = board[keep], traces[keep], prev[keep], same[keep]
            plies, xs = plies[keep], xs[keep]
            if known is not None:
                known = (known[0][keep], known[1][keep], known[2])
            reward = [reward[k] for k in np.flatnonzero(keep).tolist()]
    return finals, lengths
