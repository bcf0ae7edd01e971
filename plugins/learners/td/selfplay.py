"""The self-play drivers of TD(lambda): one game at a time (any regime, look-ahead, TD-leaf),
many games in lockstep (plain self-play on 1 ply), and the cloning regime's test games.

Every driver takes the learner (its options) first; the update maths are in ``update``, the
move choice in ``moves``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from mindgames.capabilities import require
from mindgames.data.labelling import margin_label
from mindgames.game import Game, HasMargin, Move, State, StateRows
from mindgames.model import BatchDifferentiable, Evaluator, RowGrads, as_differentiable
from mindgames.plugins.learners.td.lockrows import play_lockstep_rows
from mindgames.plugins.learners.td.moves import Reward, Successors, best, choose, explored
from mindgames.plugins.learners.td.oneply import play_one_ply
from mindgames.plugins.learners.td.starts import Start, pick_start
from mindgames.plugins.learners.td.update import TDUpdate
from mindgames.search import Searcher

if TYPE_CHECKING:
    from mindgames.plugins.learners.td.learner import TDLearner


def final_reward(
    opts: TDLearner,
    game: Game,
    final: State,
    side: int,
    start_side: int,
    draw_reward: float | None,
) -> float:
    """The reward of a finished game for ``side``; ``draw_reward`` (when set) is a draw's
    reward for ``start_side``, negated for the other side. With ``outcome = "margin"`` it is
    the final margin for ``side``, squashed (a draw's margin is 0 whatever ``draw_reward``)."""
    if opts.outcome == "margin":
        margin = require(game, HasMargin, what="td's outcome 'margin'").margin(final)
        return margin_label(margin if side == 0 else -margin, opts.margin_scale, opts.margin_squash)
    result = game.returns(final)[side]
    if result > 0:
        return opts.win
    if result < 0:
        return opts.loss
    return draw_value(opts, side, start_side, draw_reward)


def draw_value(opts: TDLearner, side: int, start_side: int, draw_reward: float | None) -> float:
    """The reward of a draw for ``side`` (``draw_reward`` is for ``start_side``, when set)."""
    if draw_reward is None:
        return opts.draw
    return draw_reward if side == start_side else -draw_reward


def rewarder(opts: TDLearner, game: Game, start_side: int, draw_reward: float | None) -> Reward:
    """The final reward of one game's positions: (final state, side) -> reward. A game cut
    at ``max_plies`` (not over) is a draw when ``cutoff`` is "draw", else NaN (no update)."""

    def reward(final: State, side: int) -> float:
        if game.is_terminal(final):
            return final_reward(opts, game, final, side, start_side, draw_reward)
        if opts.cutoff == "draw":
            return draw_value(opts, side, start_side, draw_reward)
        return math.nan

    return reward


def new_game(
    opts: TDLearner, game: Game, starts: list[Start], rng: np.random.Generator
) -> tuple[State, Reward]:
    """A lockstep game's start position (``pick_start``) and its reward function."""
    state, draw = pick_start(game, starts, rng, opts.random_plies, opts.random_plies_max)
    return state, rewarder(opts, game, game.to_move(state), draw)


def play_game(
    opts: TDLearner,
    game: Game,
    state: State,
    players: tuple[Evaluator, Evaluator],
    learners: tuple[bool, bool],
    update: TDUpdate | None,
    searcher: Searcher | None,
    rng: np.random.Generator,
    explore: dict[str, float],
    draw_reward: float | None = None,
    net: Evaluator | None = None,
) -> tuple[State, int]:
    """Play one game from ``state``, learning from the positions of the learning sides.

    ``draw_reward`` is the reward of a draw for the side to move in the start position.
    ``net`` is the learning evaluator that values the learned positions (default: the
    player to move; the cloning regime's ``learn_from = "both"`` passes the learner's, so
    that the clone's positions are valued by the learning net). Returns the final state and
    the plies played.
    """
    start_side = game.to_move(state)
    reward = rewarder(opts, game, start_side, draw_reward)
    tracking = False
    prev_side = -1
    plies = 0
    # Self-play on 1 ply: the successors are valued with their gradients in one batch, and
    # the chosen one's value and gradient serve as the next step's (no update in between).
    reuse = (
        update is not None
        and searcher is None
        and learners == (True, True)
        and players[0] is players[1]
        and isinstance(players[0].model, BatchDifferentiable)
    )
    if reuse and (net is None or net is players[0]) and isinstance(players[0].model, RowGrads):
        assert update is not None
        return play_one_ply(game, state, players[0], update, rng, explore, reward, opts.max_plies)
    cached: tuple[float, np.ndarray] | None = None
    while plies < opts.max_plies and not game.is_terminal(state):
        side = game.to_move(state)
        evaluator = players[side]
        found = None
        if update is not None and learners[side]:
            valuer = evaluator if net is None else net
            if opts.td_leaf and searcher is not None:
                found = searcher.search(game, state, evaluator, rng)
                value, grad = leaf_value(game, state, found.pv, valuer, reward)
            elif cached is not None:
                value, grad = cached
            else:
                model = as_differentiable(valuer.model)
                value, grad = model.value_and_grad(valuer.encoding.encode(state))
            if tracking:
                update.step(value, grad, side == prev_side)
            else:
                update.begin(value, grad)
                tracking = True
            prev_side = side
        if searcher is not None:
            state = searched_move(game, state, evaluator, searcher, rng, explore, found)
            cached = None
        else:
            _, state, cached = choose(game, state, evaluator, rng, explore, reward, grads=reuse)
        plies += 1
    if update is not None and tracking:
        last = reward(state, prev_side)
        if not math.isnan(last):
            update.finish(last)
    return state, plies


def searched_move(
    game: Game,
    state: State,
    evaluator: Evaluator,
    searcher: Searcher,
    rng: np.random.Generator,
    explore: dict[str, float],
    found: Any,
) -> State:
    """The state after the searcher's move (or an epsilon-random one)."""
    moves = game.legal_moves(state)
    i = explored(rng, len(moves), explore.get("epsilon", 0.0))
    if i is not None:
        return game.play(state, moves[i])
    if found is None:
        found = searcher.search(game, state, evaluator, rng)
    return game.play(state, found.move)


def leaf_value(
    game: Game, state: State, pv: Sequence[Move], evaluator: Evaluator, reward: Reward
) -> tuple[float, np.ndarray]:
    """TD-leaf: value and gradient of the principal variation's leaf, for state's mover."""
    side = game.to_move(state)
    leaf = state
    for move in pv:
        if game.is_terminal(leaf):
            break
        leaf = game.play(leaf, move)
    model = as_differentiable(evaluator.model)
    if game.is_terminal(leaf):
        return reward(leaf, side), np.zeros(len(model.get_params()))
    value, grad = model.value_and_grad(evaluator.encoding.encode(leaf))
    if game.to_move(leaf) != side:
        return -value, -grad
    return value, grad


def play_test_games(
    opts: TDLearner,
    game: Game,
    learner: Evaluator,
    clone: Evaluator,
    searcher: Searcher | None,
    rng: np.random.Generator,
) -> list[int]:
    """Two games without learning or exploration, one per colour; points (2/1/0) each."""
    points = []
    none = {"epsilon": 0.0} if opts.explore == "epsilon" else {"temperature": 0.0}
    for side in (0, 1):
        players = (learner, clone) if side == 0 else (clone, learner)
        final, _ = play_game(
            opts, game, game.initial_state(), players, (False, False), None, searcher, rng, none
        )
        if not game.is_terminal(final):
            points.append(1)
            continue
        result = game.returns(final)[side]
        points.append(2 if result > 0 else 1 if result == 0 else 0)
    return points


def play_lockstep(
    opts: TDLearner,
    game: Game,
    evaluator: Evaluator,
    n: int,
    update: TDUpdate,
    rng: np.random.Generator,
    explore: dict[str, float],
    starts: list[Start],
) -> tuple[list[State], list[int]]:
    """Play ``n`` self-play games, ``lockstep`` at a time, valuing all their positions in
    one batch per ply; the shared weights take the sum of the games' TD updates each ply.

    Each game keeps its own trace; the update per ply is one matrix-vector product. One
    function for the hot loop: the per-game bookkeeping lives in parallel lists and arrays.
    """
    model = as_differentiable(evaluator.model)
    if (
        isinstance(game, StateRows)
        and evaluator.encoding.encode_rows is not None
        and isinstance(model, BatchDifferentiable)
    ):  # every game's successors in a few numpy calls (Kalah)
        return play_lockstep_rows(opts, game, evaluator, n, update, rng, explore, starts)
    encode_batch = evaluator.encoding.encode_batch
    batch_grad = model.value_and_grad_batch if isinstance(model, BatchDifferentiable) else None
    width = len(update.alpha)
    slots = min(opts.lockstep, n)
    traces = np.zeros((slots, width))
    prev = np.zeros(slots)
    state: list[Any] = [None] * slots
    side = [0] * slots
    plies = [0] * slots
    reward: list[Reward] = [_no_game] * slots  # each slot's game sets its own (restart)
    fresh = [True] * slots
    finals: list[State] = []
    lengths: list[int] = []
    started = 0

    def restart(g: int) -> None:
        nonlocal started
        state[g], reward[g] = new_game(opts, game, starts, rng)
        plies[g] = 0
        fresh[g] = True
        started += 1

    for g in range(slots):
        restart(g)
    active = list(range(slots))
    rows: np.ndarray | None = None  # encodings of the active games' states, if known
    gl = update.gamma * update.lam
    to_move, is_terminal = game.to_move, game.is_terminal
    value_batch = evaluator.model.value_batch
    temperature, epsilon = explore.get("temperature", 0.0), explore.get("epsilon", 0.0)
    while active:
        idx = np.asarray(active)
        xs = rows if rows is not None else encode_batch([state[g] for g in active])
        if batch_grad is not None:
            values, grads = batch_grad(xs)
        else:
            pairs = [model.value_and_grad(x) for x in xs]
            values = np.array([p[0] for p in pairs])
            grads = np.array([p[1] for p in pairs]).reshape(len(pairs), width)
        now = [to_move(state[g]) for g in active]
        olds = [not fresh[g] for g in active]
        old = np.array(olds)
        same = np.where(np.array(now) == np.array([side[g] for g in active]), 1.0, -1.0)
        if any(olds):
            deltas = np.where(old, update.gamma * same * values - prev[idx], 0.0)
            update.apply(deltas.dot(traces[idx]))
        decay = np.where(old, gl * same, 0.0)
        traces[idx] = grads + decay[:, None] * traces[idx]
        prev[idx] = values
        for g, mover in zip(active, now, strict=True):
            side[g] = mover
            fresh[g] = False
        # every game's successors valued in one batch
        succs = [Successors(game, state[g], reward[g]) for g in active]
        children = [succ.kids[i] for succ in succs for i in succ.open]
        child_x = encode_batch(children) if children else np.zeros((0, evaluator.encoding.width))
        child_v = value_batch(child_x).tolist() if children else []
        offset = 0
        keep: list[int] = []
        pick_rows: list[int] = []
        finished: list[tuple[int, float]] = []
        for g, succ in zip(active, succs, strict=True):
            opened = succ.open
            succ.fill(child_v[offset : offset + len(opened)])
            i = explored(rng, len(succ.values), epsilon)
            if i is None:
                i = best(rng, succ.values, temperature)
            state[g] = kid = succ.kids[i]
            plies[g] += 1
            if is_terminal(kid) or plies[g] >= opts.max_plies:
                finished.append((g, reward[g](kid, side[g])))  # NaN: cut, no update
            else:
                keep.append(g)
                pick_rows.append(offset + opened.index(i))
            offset += len(opened)
        restarted: list[int] = []
        if finished:
            done = [g for g, r in finished if not math.isnan(r)]
            if done:
                rewards = np.array([r for _, r in finished if not math.isnan(r)])
                update.apply((rewards - prev[done]).dot(traces[done]))
            for g, _ in finished:
                finals.append(state[g])
                lengths.append(plies[g])
                if started < n:
                    restart(g)
                    restarted.append(g)
        active = keep + restarted
        rows = child_x[pick_rows]
        if restarted:
            rows = np.concatenate([rows, encode_batch([state[g] for g in restarted])])
    return finals, lengths


def _no_game(state: State, side: int) -> float:
    """The reward of an empty lockstep slot: never asked (each game sets its own on start)."""
    raise AssertionError("a lockstep slot without a game")
