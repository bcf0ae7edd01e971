"""TD(lambda) self-play for any game and any differentiable evaluator (Sutton 1988, Tesauro,
the Kalah study and NeuroDraughts).

Values are from the side to move (negamax), so one network learns both sides. Over the sequence
of positions a learner sees, P_t = V(s_t) and s = +1 when s_{t+1} has the same side to move as
s_t (an extra turn in Kalah, or the clone regime, where only the learner's positions count) and
-1 otherwise. Each step, with the weights w as they are::

    delta_t = gamma * s * P_{t+1} - P_t        (the final step: reward - P_t)
    w      += alpha * delta_t * e_t            (alpha per weight; momentum below)
    e_{t+1} = grad P_{t+1} + gamma * lambda * s * e_t,   e_0 = grad P_0

which is Sutton's ``dw_t = alpha (P_{t+1} - P_t) sum_k lambda^{t-k} grad P_k`` written from a
fixed player's view and turned into the side to move's. See docs/learners.md for the options.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames.config import unstructure
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz, write_npz
from mindgames.game import Game, Move, State
from mindgames.learner import Learner, Progress, TrainingResult
from mindgames.model import DIFFERENTIABLE, Evaluator, Model
from mindgames.search import Searcher

CHECKPOINT = "checkpoint.npz"
CHECKPOINT_FORMAT = "mindgames-td-checkpoint"
CHECKPOINT_VERSION = 1

_positive = v.gt(0)
_unit = [v.ge(0.0), v.le(1.0)]


def _optional_unit(inst: Any, attr: attrs.Attribute, value: float | None) -> None:
    if value is not None and not 0.0 <= value <= 1.0:
        raise ValueError(f"{attr.name} must be in [0, 1], got {value!r}")


def _alpha_check(inst: Any, attr: attrs.Attribute, value: Any) -> None:
    values = value if isinstance(value, list) else [value] if value is not None else []
    for a in values:
        if isinstance(a, bool) or not (isinstance(a, (int, float)) and a > 0):
            raise ValueError(f"alpha must be a positive number or a list of them, got {value!r}")


@attrs.frozen
class TDLearner(Learner):
    """TD(lambda) with eligibility traces, look-ahead, TD-leaf, exploration and cloning."""

    name: ClassVar[str] = "td"
    needs: ClassVar[frozenset[str]] = frozenset({DIFFERENTIABLE})

    #: training games in all, games per batch (one history row; K of the cloning regime)
    games: int = attrs.field(default=1000, validator=_positive)
    batch: int = attrs.field(default=100, validator=_positive)
    #: checkpoint at the end of the batch that reaches each multiple of this (0: at the end only)
    checkpoint_every: int = attrs.field(default=1000, validator=v.ge(0))
    #: "selfplay" (both sides the learning net) or "clone" (NeuroDraughts)
    regime: str = attrs.field(default="selfplay", validator=v.in_(("selfplay", "clone")))
    #: points the learner must score in the two test games for the clone to copy it
    clone_points: int = attrs.field(default=3, validator=[v.ge(0), v.le(4)])
    #: trace decay lambda, decaying linearly to lam_end over training when lam_end is set
    lam: float = attrs.field(default=0.7, validator=_unit)
    lam_end: float | None = attrs.field(default=None, validator=_optional_unit)
    gamma: float = attrs.field(default=1.0, validator=_unit)
    #: step size: one for all weights, a list with one per parameter group, or unset (1/fan-in
    #: per group); typed Any because cattrs cannot structure "float or list" by itself
    alpha: Any = attrs.field(default=None, validator=_alpha_check)
    #: the step sizes decay linearly to this fraction of themselves over training (None: fixed)
    alpha_end_scale: float | None = attrs.field(default=None, validator=_optional_unit)
    momentum: float = attrs.field(default=0.0, validator=[v.ge(0.0), v.lt(1.0)])
    direction_check: bool = True
    #: rewards for the side that won / drew / lost
    win: float = 1.0
    draw: float = 0.0
    loss: float = -1.0
    #: move choice while training: None is 1 ply on the learning net, else a searcher spec
    lookahead: str | None = None
    td_leaf: bool = False
    #: "epsilon" (random move with probability epsilon) or "softmax" (over 1-ply values)
    explore: str = attrs.field(default="epsilon", validator=v.in_(("epsilon", "softmax")))
    epsilon: float = attrs.field(default=0.05, validator=_unit)
    epsilon_end: float | None = attrs.field(default=None, validator=_optional_unit)
    temperature: float = attrs.field(default=0.1, validator=v.gt(0.0))
    temperature_end: float | None = attrs.field(default=None, validator=v.optional(v.gt(0.0)))
    #: file of start positions, one a line: POSITION [TAB DRAW_REWARD]
    start_positions: str | None = None
    #: games longer than this stop without a final reward
    max_plies: int = attrs.field(default=500, validator=_positive)
    #: self-play games played side by side, their positions valued in one matrix product
    #: (1-ply self-play only); 1 plays one game at a time. The games' updates are summed each
    #: ply, so keep the output's alpha * lockstep small (docs/learners.md: about 0.5)
    lockstep: int = attrs.field(default=1, validator=_positive)

    def __attrs_post_init__(self) -> None:
        if self.lockstep > 1 and (self.lookahead is not None or self.regime != "selfplay"):
            raise ValueError("lockstep > 1 needs plain self-play with 1-ply move choice")
        if self.td_leaf and self.lookahead is None:
            raise ValueError("td_leaf needs a lookahead searcher (e.g. 'alphabeta:depth=2')")
        if self.explore == "softmax" and self.lookahead is not None:
            raise ValueError("softmax exploration needs 1-ply move choice (no lookahead)")

    # --- training --------------------------------------------------------------------------
    def train(
        self,
        game: Game,
        evaluator: Evaluator,
        rng: np.random.Generator,
        *,
        workdir: Path,
        resume: bool = False,
        progress: Progress | None = None,
    ) -> TrainingResult:
        """Play and learn ``games`` games, checkpointing into ``workdir``."""
        workdir = Path(workdir)
        model = evaluator.model
        searcher = self._searcher()
        starts = self._starts(game)
        alpha = alpha_vector(model, evaluator.encoding.width, self.alpha)
        velocity = np.zeros_like(alpha)
        clone: Evaluator | None = None
        if self.regime == "clone":
            clone = copy_evaluator(evaluator)
        state: dict[str, Any] = {"games": 0, "clones": 0, "elapsed": 0.0, "history": []}
        path = workdir / CHECKPOINT
        if resume and path.exists():
            state, velocity = self._load(path, model, clone, rng, velocity)
        history: list[dict[str, Any]] = list(state["history"])
        update = TDUpdate(model, alpha, self.lam, self.gamma, self.momentum, self.direction_check)
        update.velocity = velocity
        played = int(state["games"])
        clones = int(state["clones"])
        elapsed = float(state["elapsed"])
        while played < self.games:
            begin = time.perf_counter()
            n = min(self.batch, self.games - played)
            plies: list[int] = []
            pieces: list[float] = []
            finals: list[State] = []
            if self.lockstep > 1:
                update.lam = _decay(self.lam, self.lam_end, played / self.games)
                update.alpha = alpha * _decay(1.0, self.alpha_end_scale, played / self.games)
                explore = self._explore_at(played / self.games)
                finals, plies = self.play_lockstep(game, evaluator, n, update, rng, explore, starts)
            for i in range(n if self.lockstep == 1 else 0):
                fraction = (played + i) / self.games
                update.lam = _decay(self.lam, self.lam_end, fraction)
                update.alpha = alpha * _decay(1.0, self.alpha_end_scale, fraction)
                explore = self._explore_at(fraction)
                start, draw_reward = self._pick_start(game, starts, rng)
                if clone is None:
                    players = (evaluator, evaluator)
                    learners = (True, True)
                else:
                    side = (played + i) % 2
                    players = (evaluator, clone) if side == 0 else (clone, evaluator)
                    learners = (side == 0, side == 1)
                final, ply = self.play_game(
                    game, start, players, learners, update, searcher, rng, explore, draw_reward
                )
                plies.append(ply)
                finals.append(final)
            counter = getattr(game, "pieces", None)
            if callable(counter):
                pieces = [counter(final) for final in finals]
            crossed = self.checkpoint_every and (
                (played + n) // self.checkpoint_every > played // self.checkpoint_every
            )
            played += n
            row: dict[str, Any] = {"games": played, "mean_plies": float(np.mean(plies))}
            if pieces:
                row["mean_pieces"] = float(np.mean(pieces))
            row["lambda"] = round(update.lam, 6)
            if self.alpha_end_scale is not None:
                scale = _decay(1.0, self.alpha_end_scale, played / self.games)
                row["alpha_scale"] = round(scale, 6)
            row.update({k: round(x, 6) for k, x in self._explore_at(played / self.games).items()})
            if clone is not None:
                points = self.test_games(game, evaluator, clone, searcher, rng)
                copied = sum(points) >= self.clone_points
                if copied:
                    clone.model.set_params(model.get_params())
                    clones += 1
                row.update({"test": points, "cloned": copied, "clones": clones})
            seconds = time.perf_counter() - begin
            elapsed += seconds
            row.update({"seconds": round(seconds, 4), "elapsed": round(elapsed, 3)})
            history.append(row)
            if crossed or played >= self.games:
                extra = {"games": played, "clones": clones, "elapsed": elapsed}
                self._save(path, model, clone, rng, update.velocity, extra, history)
            if progress is not None:
                progress(row)
        return TrainingResult(evaluator, tuple(history))

    def play_game(
        self,
        game: Game,
        state: State,
        players: tuple[Evaluator, Evaluator],
        learners: tuple[bool, bool],
        update: TDUpdate | None,
        searcher: Searcher | None,
        rng: np.random.Generator,
        explore: dict[str, float],
        draw_reward: float | None = None,
    ) -> tuple[State, int]:
        """Play one game from ``state``, learning from the positions of the learning sides.

        ``draw_reward`` is the reward of a draw for the side to move in the start position.
        Returns the final state and the plies played.
        """
        start_side = game.to_move(state)
        tracking = False
        prev_side = -1
        plies = 0
        draws = (start_side, draw_reward)
        # Self-play on 1 ply: the successors are valued with their gradients in one batch, and
        # the chosen one's value and gradient serve as the next step's (no update in between).
        reuse = (
            update is not None
            and searcher is None
            and learners == (True, True)
            and players[0] is players[1]
            and callable(getattr(players[0].model, "value_and_grad_batch", None))
        )
        cached: tuple[State, float, np.ndarray] | None = None
        while plies < self.max_plies and not game.is_terminal(state):
            side = game.to_move(state)
            evaluator = players[side]
            found = None
            if update is not None and learners[side]:
                if self.td_leaf and searcher is not None:
                    found = searcher.search(game, state, evaluator, rng)
                    value, grad = self._leaf(
                        game, state, found.pv, evaluator, start_side, draw_reward
                    )
                elif cached is not None and cached[0] is state:
                    value, grad = cached[1], cached[2]
                else:
                    model: Any = evaluator.model
                    value, grad = model.value_and_grad(evaluator.encoding.encode(state))
                if tracking:
                    update.step(value, grad, side == prev_side)
                else:
                    update.begin(value, grad)
                    tracking = True
                prev_side = side
            if reuse:
                move, cached = self._choose_learning(game, state, evaluator, rng, explore, draws)
            else:
                move = self.choose(game, state, evaluator, searcher, rng, explore, found, draws)
            state = game.play(state, move) if cached is None else cached[0]
            plies += 1
        if update is not None and tracking and game.is_terminal(state):
            update.finish(self.reward(game, state, prev_side, start_side, draw_reward))
        return state, plies

    def play_lockstep(
        self,
        game: Game,
        evaluator: Evaluator,
        n: int,
        update: TDUpdate,
        rng: np.random.Generator,
        explore: dict[str, float],
        starts: list[tuple[State, float | None]],
    ) -> tuple[list[State], list[int]]:
        """Play ``n`` self-play games, ``lockstep`` at a time, valuing all their positions in
        one batch per ply; the shared weights take the sum of the games' TD updates each ply.

        Each game keeps its own trace; the update per ply is one matrix-vector product.
        """
        model: Any = evaluator.model
        encode_batch = evaluator.encoding.encode_batch
        batch_grad = getattr(model, "value_and_grad_batch", None)
        width = len(update.alpha)
        slots = min(self.lockstep, n)
        traces = np.zeros((slots, width))
        prev = np.zeros(slots)
        state: list[Any] = [None] * slots
        side = [0] * slots
        plies = [0] * slots
        meta: list[tuple[int, float | None]] = [(0, None)] * slots
        fresh = [True] * slots
        active: list[int] = []
        finals: list[State] = []
        lengths: list[int] = []
        started = 0
        for g in range(slots):
            state[g], draw = self._pick_start(game, starts, rng)
            meta[g] = (game.to_move(state[g]), draw)
            active.append(g)
            started += 1
        rows: np.ndarray | None = None  # encodings of the active games' states, if known
        epsilon = explore.get("epsilon", 0.0)
        temperature = explore.get("temperature", 0.0)
        gl = update.gamma * update.lam
        while active:
            idx = np.asarray(active)
            xs = rows if rows is not None else encode_batch([state[g] for g in active])
            if batch_grad is not None:
                values, grads = batch_grad(xs)
            else:
                pairs = [model.value_and_grad(x) for x in xs]
                values = np.array([p[0] for p in pairs])
                grads = np.array([p[1] for p in pairs]).reshape(len(pairs), width)
            sides = np.array([game.to_move(state[g]) for g in active])
            old = np.array([not fresh[g] for g in active])
            same = np.where(sides == np.array([side[g] for g in active]), 1.0, -1.0)
            if old.any():
                deltas = np.where(old, update.gamma * same * values - prev[idx], 0.0)
                update.apply(deltas @ traces[idx])
            decay = np.where(old, gl * same, 0.0)
            traces[idx] = grads + decay[:, None] * traces[idx]
            prev[idx] = values
            for k, g in enumerate(active):
                side[g] = int(sides[k])
                fresh[g] = False
            # choose every game's move from one batch of successors (plain lists: few games
            # have more than a handful of moves, where numpy calls cost more than they save)
            children: list[Any] = []
            owner: list[tuple[int, list[Any], list[float], list[int]]] = []
            for g in active:
                mover = side[g]
                kids = [game.play(state[g], m) for m in game.legal_moves(state[g])]
                vals: list[float] = []
                where: list[int] = []
                for i, kid in enumerate(kids):
                    if game.is_terminal(kid):
                        vals.append(self.reward(game, kid, mover, *meta[g]))
                    else:
                        where.append(i)
                        vals.append(1.0 if game.to_move(kid) == mover else -1.0)
                        children.append(kid)
                owner.append((g, kids, vals, where))
            child_x = encode_batch(children) if children else np.zeros((0, width))
            child_v = model.value_batch(child_x).tolist() if children else []
            offset = 0
            keep: list[int] = []
            pick: list[int] = []
            finished: list[tuple[int, float]] = []
            for g, kids, vals, where in owner:
                for j, i in enumerate(where):
                    vals[i] *= child_v[offset + j]
                count = len(kids)
                if count == 1:
                    i = 0
                elif epsilon > 0.0 and rng.random() < epsilon:
                    i = int(rng.integers(count))
                elif temperature > 0.0:
                    v = np.array(vals)
                    p = np.exp((v - v.max()) / temperature)
                    i = int(rng.choice(count, p=p / p.sum()))
                else:
                    i = vals.index(max(vals))  # the first best, as np.argmax
                state[g] = kids[i]
                plies[g] += 1
                if game.is_terminal(state[g]):
                    finished.append((g, self.reward(game, state[g], side[g], *meta[g])))
                elif plies[g] >= self.max_plies:
                    finished.append((g, math.nan))
                else:
                    keep.append(g)
                    pick.append(offset + where.index(i))
                offset += len(where)
            restarted: list[int] = []
            if finished:
                done = [g for g, r in finished if not math.isnan(r)]
                if done:
                    rewards = np.array([r for _, r in finished if not math.isnan(r)])
                    update.apply((rewards - prev[done]) @ traces[done])
                for g, _ in finished:
                    finals.append(state[g])
                    lengths.append(plies[g])
                    if started < n:
                        state[g], draw = self._pick_start(game, starts, rng)
                        meta[g] = (game.to_move(state[g]), draw)
                        plies[g] = 0
                        fresh[g] = True
                        started += 1
                        restarted.append(g)
            active = keep + restarted
            rows = child_x[pick]
            if restarted:
                rows = np.concatenate([rows, encode_batch([state[g] for g in restarted])])
        return finals, lengths

    def test_games(
        self,
        game: Game,
        learner: Evaluator,
        clone: Evaluator,
        searcher: Searcher | None,
        rng: np.random.Generator,
    ) -> list[int]:
        """Two games without learning or exploration, one per colour; points (2/1/0) each."""
        points = []
        none = {"epsilon": 0.0} if self.explore == "epsilon" else {"temperature": 0.0}
        for side in (0, 1):
            players = (learner, clone) if side == 0 else (clone, learner)
            final, _ = self.play_game(
                game, game.initial_state(), players, (False, False), None, searcher, rng, none
            )
            if not game.is_terminal(final):
                points.append(1)
                continue
            result = game.returns(final)[side]
            points.append(2 if result > 0 else 1 if result == 0 else 0)
        return points

    def reward(
        self, game: Game, final: State, side: int, start_side: int, draw_reward: float | None
    ) -> float:
        """The reward of a finished game for ``side``."""
        result = game.returns(final)[side]
        if result > 0:
            return self.win
        if result < 0:
            return self.loss
        if draw_reward is None:
            return self.draw
        return draw_reward if side == start_side else -draw_reward

    def choose(
        self,
        game: Game,
        state: State,
        evaluator: Evaluator,
        searcher: Searcher | None,
        rng: np.random.Generator,
        explore: dict[str, float],
        found: Any = None,
        draws: tuple[int, float | None] = (0, None),
    ) -> Move:
        """The move to play: epsilon-random, the searcher's, softmax or greedy on 1 ply."""
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        epsilon = explore.get("epsilon", 0.0)
        if epsilon > 0.0 and rng.random() < epsilon:
            return moves[int(rng.integers(len(moves)))]
        if searcher is not None:
            if found is None:
                found = searcher.search(game, state, evaluator, rng)
            return found.move
        values = self.one_ply(game, state, moves, evaluator, draws)
        temperature = explore.get("temperature", 0.0)
        if temperature > 0.0:
            p = np.exp((values - values.max()) / temperature)
            p /= p.sum()
            return moves[int(rng.choice(len(moves), p=p))]
        return moves[int(np.argmax(values))]

    def _choose_learning(
        self,
        game: Game,
        state: State,
        evaluator: Evaluator,
        rng: np.random.Generator,
        explore: dict[str, float],
        draws: tuple[int, float | None],
    ) -> tuple[Move, tuple[State, float, np.ndarray] | None]:
        """``choose`` on 1 ply (same random draws), also returning the chosen successor with
        its value and gradient for its own side to move, when it is not over."""
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0], None
        epsilon = explore.get("epsilon", 0.0)
        if epsilon > 0.0 and rng.random() < epsilon:
            return moves[int(rng.integers(len(moves)))], None
        side = game.to_move(state)
        kids = [game.play(state, move) for move in moves]
        values: list[float] = []  # plain lists: a handful of moves, numpy calls cost more
        where: list[int] = []
        for i, kid in enumerate(kids):
            if game.is_terminal(kid):
                values.append(self.reward(game, kid, side, *draws))
            else:
                where.append(i)
                values.append(1.0 if game.to_move(kid) == side else -1.0)
        raw = grads = None
        if where:
            model: Any = evaluator.model
            raw, grads = model.value_and_grad_batch(
                evaluator.encoding.encode_batch([kids[i] for i in where])
            )
            for k, v in enumerate(raw.tolist()):
                values[where[k]] *= v
        temperature = explore.get("temperature", 0.0)
        if temperature > 0.0:
            vs = np.array(values)
            p = np.exp((vs - vs.max()) / temperature)
            i = int(rng.choice(len(moves), p=p / p.sum()))
        else:
            i = values.index(max(values))  # the first best, as np.argmax
        if raw is None or grads is None or i not in where:
            return moves[i], None
        k = where.index(i)
        return moves[i], (kids[i], float(raw[k]), grads[k])

    def one_ply(
        self,
        game: Game,
        state: State,
        moves: Sequence[Move],
        evaluator: Evaluator,
        draws: tuple[int, float | None] = (0, None),
    ) -> np.ndarray:
        """The value of each move for the side to move: the successor's value, negamaxed.

        ``draws`` is (side to move at the start, draw reward for it or None for ``draw``).
        """
        side = game.to_move(state)
        values = np.empty(len(moves))
        children, where, signs = [], [], []
        for i, move in enumerate(moves):
            child = game.play(state, move)
            if game.is_terminal(child):
                values[i] = self.reward(game, child, side, *draws)
            else:
                children.append(child)
                where.append(i)
                signs.append(1.0 if game.to_move(child) == side else -1.0)
        if children:
            values[where] = evaluator.evaluate_batch(children) * np.asarray(signs)
        return values

    # --- pieces --------------------------------------------------------------------------------
    def _leaf(
        self,
        game: Game,
        state: State,
        pv: Sequence[Move],
        evaluator: Evaluator,
        start_side: int,
        draw_reward: float | None = None,
    ) -> tuple[float, np.ndarray]:
        """TD-leaf: value and gradient of the principal variation's leaf, for state's mover."""
        side = game.to_move(state)
        leaf = state
        for move in pv:
            if game.is_terminal(leaf):
                break
            leaf = game.play(leaf, move)
        if game.is_terminal(leaf):
            model: Any = evaluator.model
            reward = self.reward(game, leaf, side, start_side, draw_reward)
            return reward, np.zeros(len(model.get_params()))
        model = evaluator.model
        value, grad = model.value_and_grad(evaluator.encoding.encode(leaf))
        if game.to_move(leaf) != side:
            return -value, -grad
        return value, grad

    def _explore_at(self, fraction: float) -> dict[str, float]:
        if self.explore == "epsilon":
            return {"epsilon": _decay(self.epsilon, self.epsilon_end, fraction)}
        return {"temperature": _decay(self.temperature, self.temperature_end, fraction)}

    def _searcher(self) -> Searcher | None:
        if self.lookahead is None:
            return None
        from mindgames.registry import get_registry
        from mindgames.spec import parse_spec

        name, options = parse_spec(self.lookahead)
        return get_registry().searcher(name, options, where=f"td lookahead {self.lookahead!r}")

    def _starts(self, game: Game) -> list[tuple[State, float | None]]:
        if self.start_positions is None:
            return []
        path = Path(self.start_positions)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ConfigError(f"start_positions {path}: cannot read: {exc}") from None
        starts = []
        for number, line in enumerate(lines, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            text, _, reward = line.partition("\t")
            try:
                position = game.parse_position(text.strip())
                draw = float(reward) if reward.strip() else None
            except (MindgamesError, ValueError) as exc:
                raise ConfigError(f"{path}:{number}: {exc}") from None
            if game.is_terminal(position):
                raise ConfigError(f"{path}:{number}: the position is already over")
            starts.append((position, draw))
        if not starts:
            raise ConfigError(f"start_positions {path}: no positions")
        return starts

    def _pick_start(
        self, game: Game, starts: list[tuple[State, float | None]], rng: np.random.Generator
    ) -> tuple[State, float | None]:
        if not starts:
            return game.initial_state(), None
        return starts[int(rng.integers(len(starts)))]

    # --- checkpoints ---------------------------------------------------------------------
    def _save(
        self,
        path: Path,
        model: Model,
        clone: Evaluator | None,
        rng: np.random.Generator,
        velocity: np.ndarray,
        counters: dict[str, Any],
        history: list[dict[str, Any]],
    ) -> None:
        meta = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "options": unstructure(self),
            "rng": rng.bit_generator.state,
            "history": history,
            **counters,
        }
        arrays = {"params": model.get_params(), "velocity": velocity}
        if clone is not None:
            arrays["clone"] = clone.model.get_params()
        write_npz(path, meta, arrays)

    def _load(
        self,
        path: Path,
        model: Model,
        clone: Evaluator | None,
        rng: np.random.Generator,
        velocity: np.ndarray,
    ) -> tuple[dict[str, Any], np.ndarray]:
        meta, arrays = read_npz(path, "TD checkpoint")
        if meta.get("format") != CHECKPOINT_FORMAT or meta.get("version") != CHECKPOINT_VERSION:
            raise MindgamesError(f"{path}: not a TD checkpoint of version {CHECKPOINT_VERSION}")
        if meta["options"] != json.loads(json.dumps(unstructure(self))):
            raise ConfigError(f"{path}: written with other td options; cannot resume with these")
        params = arrays["params"]
        if params.shape != np.shape(model.get_params()):
            raise MindgamesError(f"{path}: parameters do not fit this model")
        model.set_params(params)
        if clone is not None:
            clone.model.set_params(arrays["clone"])
        rng.bit_generator.state = meta["rng"]
        return meta, arrays["velocity"].astype(float)


class TDUpdate:
    """Online TD(lambda) over one game at a time: negamax traces, per-weight alpha, momentum."""

    def __init__(
        self,
        model: Any,
        alpha: np.ndarray,
        lam: float,
        gamma: float = 1.0,
        momentum: float = 0.0,
        direction_check: bool = True,
    ) -> None:
        self.model = model
        self.alpha = alpha
        self.lam = lam
        self.gamma = gamma
        self.momentum = momentum
        self.direction_check = direction_check
        self.velocity = np.zeros_like(alpha)
        self.p = 0.0
        self.trace = np.zeros_like(alpha)

    def begin(self, value: float, grad: np.ndarray) -> None:
        """The first position of a game: the trace restarts at its gradient."""
        self.p = value
        self.trace = np.array(grad, dtype=float)

    def step(self, value: float, grad: np.ndarray, same_side: bool) -> None:
        """The next position: learn from the TD error, then extend the trace."""
        s = 1.0 if same_side else -1.0
        self._apply(self.gamma * s * value - self.p)
        self.trace *= self.gamma * self.lam * s
        self.trace += grad
        self.p = value

    def finish(self, reward: float) -> None:
        """The game is over: ``reward`` is for the side to move in the last position."""
        self._apply(reward - self.p)

    def _apply(self, delta: float) -> None:
        self.apply(delta * self.trace)

    def apply(self, direction: np.ndarray) -> None:
        """Add ``alpha * direction`` (delta times trace, summed over games) plus momentum."""
        change = self.alpha * direction
        if self.momentum:
            carry = self.momentum * self.velocity
            if self.direction_check:
                carry = np.where(np.sign(carry) == np.sign(change), carry, 0.0)
            change = change + carry
            self.velocity = change
        self.model.set_params(self.model.get_params() + change)


def alpha_vector(model: Any, inputs: int, alpha: float | list[float] | None) -> np.ndarray:
    """One step size per parameter.

    A model that exposes ``param_groups()`` -- ``[(name, size, fan_in), ...]`` in
    ``get_params()`` order -- gets one alpha per group, ``1/fan_in`` when unset; other models get
    one alpha, ``1/inputs`` when unset.
    """
    n = len(model.get_params())
    groups_fn: Callable[[], Sequence[tuple[str, int, int]]] | None = getattr(
        model, "param_groups", None
    )
    groups = list(groups_fn()) if callable(groups_fn) else [("all", n, inputs)]
    if sum(int(g[1]) for g in groups) != n:
        raise MindgamesError(f"model {model.kind!r}: param_groups() do not cover its parameters")
    if isinstance(alpha, list):
        if len(alpha) == 1:
            alpha = alpha[0]
        elif len(alpha) != len(groups):
            names = ", ".join(str(g[0]) for g in groups)
            raise ConfigError(
                f"alpha has {len(alpha)} values but model {model.kind!r} has {len(groups)} "
                f"parameter groups ({names})"
            )
    parts = []
    for i, (_, size, fan_in) in enumerate(groups):
        if alpha is None:
            a = 1.0 / max(int(fan_in), 1)
        elif isinstance(alpha, list):
            a = float(alpha[i])
        else:
            a = float(alpha)
        parts.append(np.full(int(size), a))
    return np.concatenate(parts) if parts else np.zeros(0)


def copy_evaluator(evaluator: Evaluator) -> Evaluator:
    """An independent copy of an evaluator (its model rebuilt from its own saved form)."""
    model = evaluator.model
    arrays = {name: np.array(a, copy=True) for name, a in model.arrays().items()}
    twin = type(model).from_saved(model.config(), arrays, evaluator.encoding.columns)
    return Evaluator(evaluator.encoding, twin)


def _decay(start: float, end: float | None, fraction: float) -> float:
    """Linear schedule from ``start`` to ``end`` over training (constant when ``end`` unset)."""
    if end is None:
        return start
    return start + (end - start) * min(max(fraction, 0.0), 1.0)


__all__ = ["TDLearner", "TDUpdate", "alpha_vector", "copy_evaluator"]
