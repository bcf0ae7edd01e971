"""Lockstep self-play on a game whose states are rows of one array (``StateRows``): the same
games, updates and random draws as ``selfplay.play_lockstep`` (tests/plugins/test_recorded_td.py),
with every game's successors made, encoded and valued in a few numpy calls a ply.

The rows are the games in ``play_lockstep``'s order (those under way in their order, then the
games started, in the order the finished ones ended): the random draws walk the rows in order
and the sums over games add in that order, so the games are that driver's and the weights too,
up to the rounding of the gradients (tests/plugins/test_td_lockrows.py). When games end, one
``take`` per array moves the rows of the games under way first and reuses the finished games'
rows, at the end, for the games that start. (Games kept in fixed rows would save those takes
but add the TD step's sum in another order: that rounding grows, and within a hundred games
another game is played.)

Per ply and game, only the exploration draw stays in Python; the states become tuples only
when a game ends (its reward and final state) or starts. Hot path: one function, longer than
the house limit for that reason (the ends, at two steps in five, are a helper).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from mindgames.capabilities import require
from mindgames.game import Game, State, StateRows
from mindgames.model import BatchDifferentiable, Evaluator, RowsGrads
from mindgames.plugins.learners.td.moves import Reward, best
from mindgames.plugins.learners.td.starts import Start
from mindgames.plugins.learners.td.update import TDUpdate

if TYPE_CHECKING:
    from mindgames.plugins.learners.td.learner import TDLearner


#: start positions whose rows a lockstep run keeps (random plies make many)
_STARTS_KEPT = 4096


class _Games:
    """The Python side of the games in play, one entry per row: reward, first step."""

    __slots__ = ("begun", "finals", "lengths", "reward", "rows", "started")

    def __init__(self) -> None:
        self.reward: list[Reward] = []
        self.begun: list[int] = []  # the step each row's game started at
        self.started = 0
        self.finals: list[State] = []
        self.lengths: list[int] = []
        #: start positions' rows and encodings, by state (at most ``_STARTS_KEPT``)
        self.rows: dict[State, tuple[np.ndarray, np.ndarray]] = {}

    def row_of(self, state: State, game: Any, encode_rows: Any) -> tuple[np.ndarray, np.ndarray]:
        """The row of a start position and its encoding, kept for the next time."""
        row = game.state_rows([state])
        made = (row[0], encode_rows(row)[0])
        if len(self.rows) < _STARTS_KEPT:
            self.rows[state] = made
        return made


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
    rows_game = game
    model = require(evaluator.model, BatchDifferentiable, what="td's lockstep on rows")
    encode_rows = evaluator.encoding.encode_rows
    assert encode_rows is not None
    batch_grad, value_batch = model.value_and_grad_batch, evaluator.model.value_batch
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
    at = _Games()
    reward, begun = at.reward, at.begun
    count = min(opts.lockstep, n)  # games to start: the last rows
    board = xs = np.zeros((0, 0))
    traces, prev = np.zeros((count, width)), np.zeros(count)
    #: +1 where the side to move is the one that moved last, else -1 (new games: unused)
    same = np.ones(count)
    gamma, gl, max_plies = update.gamma, update.gamma * update.lam, opts.max_plies
    temperature, epsilon = explore.get("temperature", 0.0), explore.get("epsilon", 0.0)
    random, integers = rng.random, rng.integers
    offsets: dict[int, np.ndarray] = {}  # per number of rows: each row's first successor
    step = cut = 0  # cut: the first step at which a game may reach ``max_plies``
    while True:
        if count:  # start games in the last rows
            starting = []
            for _ in range(count):
                state, its_reward = new_game(opts, game, starts, rng)
                reward.append(its_reward)
                starting.append(state)
            begun += [step] * count
            at.started += count
            cut = min(begun) + max_plies
            if len(board):  # (the rows of a start position are made once)
                for k, state in enumerate(starting, len(reward) - count):
                    board[k], xs[k] = at.rows.get(state) or at.row_of(state, rows_game, encode_rows)
            else:
                board = rows_game.state_rows(starting)
                xs = encode_rows(board)
        if not reward:
            break
        # the TD step of every game, as ``play_lockstep``
        if known is None:
            values, grads = batch_grad(xs)
        else:
            values, grads = known[0], known[2](known[1])
            if count:
                values[-count:], grads[-count:] = batch_grad(xs[-count:])
        deltas = (same if gamma == 1.0 else gamma * same) * values - prev
        decay = gl * same
        if count:  # games just started: no TD error yet, their traces start at the gradient
            deltas[-count:] = 0.0
            decay[-count:] = 0.0
            if len(reward) > count:
                update.apply(deltas.dot(traces))
        else:
            update.apply(deltas.dot(traces))
        traces *= decay[:, None]  # grads + decay * traces, in place
        traces += grads
        prev = values
        # every game's successors, valued for its mover in one batch
        kids, legal, over, passes = row_children(board)
        games, slots = legal.shape
        children = kids.reshape(games * slots, -1)
        # every slot valued, legal or not (cheaper than picking the legal ones out first)
        child_x = encode_rows(children)
        if rows_grads is None:
            valued, of = value_batch(child_x), None
        else:
            valued, of = rows_grads(child_x)
        sign = np.where(passes, -1.0, 1.0)  # a successor's value times this: for the mover
        scores = np.where(legal, valued.reshape(games, slots) * sign, -np.inf)
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
        first = offsets.get(games)
        if first is None:
            first = offsets[games] = np.arange(0, games * slots, slots)
        pick = first + chosen
        board = children.take(pick, axis=0)
        xs = child_x.take(pick, axis=0)  # the next ply's positions, encoded
        ended = over.take(pick)
        known = None if of is None else (valued.take(pick), pick, of)
        same = sign.take(pick)  # the next step's: did the side to move stay?
        step += 1
        count = 0
        if step >= cut:  # a game may have reached ``max_plies``
            ended |= np.array([step - b >= max_plies for b in begun])
        if np.count_nonzero(ended):
            rows, count, learned = _finish(
                at, ended.tolist(), board, same, prev, traces, update, step, n, game
            )
            if learned:
                known = None  # the weights changed: the next values are made anew
            if rows != list(range(games)):  # the games under way first, then those starting
                index = np.array(rows, dtype=np.intp)
                board, xs = board.take(index, axis=0), xs.take(index, axis=0)
                traces, prev, same = traces.take(index, axis=0), prev.take(index), same.take(index)
                if known is not None:
                    known = (known[0].take(index), known[1].take(index), known[2])
    return at.finals, at.lengths


def _finish(
    at: _Games,
    ended: list[bool],
    board: np.ndarray,
    same: np.ndarray,
    prev: np.ndarray,
    traces: np.ndarray,
    update: TDUpdate,
    step: int,
    n: int,
    game: Any,
) -> tuple[list[int], int, bool]:
    """The games that ended this step: their finals, lengths and final updates. Returns the
    rows the next step keeps, in order (the games under way, then the first finished ones,
    as many as games remain to start, whose rows the starting games take), how many start,
    and whether an update was made."""
    done = [k for k, over in enumerate(ended) if over]
    ends = [game.row_state(board[k]) for k in done]
    turned = same[done].tolist()  # -1: the last move passed the turn
    to_move, reward = game.to_move, at.reward
    rewards = [
        reward[k](end, to_move(end) ^ (t < 0)) for k, end, t in zip(done, ends, turned, strict=True)
    ]
    counted = [k for k, r in zip(done, rewards, strict=True) if not math.isnan(r)]
    if counted:
        got = np.array([r for r in rewards if not math.isnan(r)])
        update.apply((got - prev[counted]).dot(traces[counted]))
    at.finals += ends
    at.lengths += [step - at.begun[k] for k in done]
    restart = done[: n - at.started]
    under_way = [k for k, over in enumerate(ended) if not over]
    at.reward[:] = [reward[k] for k in under_way]
    at.begun[:] = [at.begun[k] for k in under_way]
    return under_way + restart, len(restart), bool(counted)
