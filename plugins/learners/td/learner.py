"""The TD learner's options and its training loop: batches of self-play games, history rows,
the cloning regime's test and copy, checkpoints and resume."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames import checkpoint
from mindgames.errors import CapabilityError
from mindgames.game import CountsPieces, Game, HasMargin, Move, State
from mindgames.interrupts import stop_requested
from mindgames.learner import Learner, Progress, TrainingResult
from mindgames.model import DIFFERENTIABLE, Evaluator, as_parametric
from mindgames.plugins.learners.td import compiled as compiled_td
from mindgames.plugins.learners.td import scaling, selfplay
from mindgames.plugins.learners.td.checkpoint import (
    CHECKPOINT,
    copy_evaluator,
    load_checkpoint,
    save_checkpoint,
)
from mindgames.plugins.learners.td.gate import gate_score
from mindgames.plugins.learners.td.starts import Start, pick_start, read_starts
from mindgames.plugins.learners.td.update import TDUpdate, alpha_vector, decay
from mindgames.search import Searcher
from mindgames.training import reporting, save_snapshot

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
    #: cloning regime: learn from the learner's own positions ("own", NeuroDraughts) or from
    #: every position of the game, valued by the learning net ("both": negamax targets)
    learn_from: str = attrs.field(default="own", validator=v.in_(("own", "both")))
    #: trace decay lambda, decaying linearly to lam_end over training when lam_end is set
    lam: float = attrs.field(default=0.7, validator=_unit)
    lam_end: float | None = attrs.field(default=None, validator=_optional_unit)
    gamma: float = attrs.field(default=1.0, validator=_unit)
    #: step size: one for all weights, a list with one per parameter group, or unset (scaled
    #: to the encoding's inputs, measured on random games: ``scaling``); typed Any because
    #: cattrs cannot structure "float or list" by itself
    alpha: Any = attrs.field(default=None, validator=_alpha_check)
    #: the step sizes decay linearly to this fraction of themselves over training (1.0: fixed;
    #: the default 0.1 is what every TD example that learned used, docs/learners.md)
    alpha_end_scale: float | None = attrs.field(default=0.1, validator=_optional_unit)
    momentum: float = attrs.field(default=0.0, validator=[v.ge(0.0), v.lt(1.0)])
    direction_check: bool = True
    #: rewards for the side that won / drew / lost
    win: float = 1.0
    draw: float = 0.0
    loss: float = -1.0
    #: what the final reward measures: "result" (win/draw/loss above) or "margin", the final
    #: margin for the side (a game offering ``HasMargin``; Kalah: the store difference) mapped
    #: as ``data solve`` maps labels: tanh(margin / margin_scale), or with margin_squash
    #: "linear" clip(margin / margin_scale, -1, 1)
    outcome: str = attrs.field(default="result", validator=v.in_(("result", "margin")))
    margin_scale: float = attrs.field(default=8.0, validator=v.gt(0.0))
    margin_squash: str = attrs.field(default="tanh", validator=v.in_(("tanh", "linear")))
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
    #: games longer than this stop; "draw": the cut game ends with the draw reward (a match
    #: adjudicates it so), "none": it ends without a final update (values there float free)
    max_plies: int = attrs.field(default=500, validator=_positive)
    cutoff: str = attrs.field(default="draw", validator=v.in_(("draw", "none")))
    #: each training game starts with this many uniformly random plies, not learned from, so
    #: that deterministic look-ahead does not replay the same games
    random_plies: int = attrs.field(default=0, validator=v.ge(0))
    #: with it, each game draws its number of random plies uniformly from random_plies..this:
    #: games that start anywhere from the opening to the end game (positions of random games)
    random_plies_max: int | None = attrs.field(default=None, validator=v.optional(v.ge(0)))
    #: self-play games played side by side, their positions valued in one matrix product
    #: (1-ply self-play only); 1 plays one game at a time. The games' updates are summed each
    #: ply, so keep the output's alpha * lockstep small (docs/learners.md: about 0.5)
    lockstep: int = attrs.field(default=1, validator=_positive)
    #: keep the best net: at each checkpoint the learning net plays this many games (an even
    #: number; half each colour, openings of gate_plies random plies, no exploration) against
    #: the best net so far and replaces it when it scores at least gate_score; the run's
    #: model is then the best net, the snapshots stay the learning net's. 0: the last net.
    gate_games: int = attrs.field(default=0, validator=v.ge(0))
    gate_score: float = attrs.field(default=0.55, validator=_unit)
    gate_plies: int = attrs.field(default=2, validator=v.ge(0))
    #: the probe's measurement (``measure``); set by ``mindgames train`` from the run's seed,
    #: not by configs. None: ``train`` probes with seed 0.
    measured: dict[str, Any] | None = attrs.field(default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.lockstep > 1 and (self.lookahead is not None or self.regime != "selfplay"):
            raise ValueError("lockstep > 1 needs plain self-play with 1-ply move choice")
        if self.td_leaf and self.lookahead is None:
            raise ValueError("td_leaf needs a lookahead searcher (e.g. 'alphabeta:depth=2')")
        if self.random_plies_max is not None and self.random_plies_max < self.random_plies:
            raise ValueError("random_plies_max must be at least random_plies")
        if self.explore == "softmax" and self.lookahead is not None:
            raise ValueError("softmax exploration needs 1-ply move choice (no lookahead)")
        if self.gate_games % 2:
            raise ValueError(f"gate_games must be even (each opening with both colours), "
                             f"got {self.gate_games}")  # fmt: skip

    # --- training --------------------------------------------------------------------------
    def planned(self) -> tuple[str, int]:
        return ("games", self.games)

    def measure(self, game: Game, evaluator: Evaluator, seed: int) -> tuple[TDLearner, dict]:
        """Probe the encoding on random games seeded by ``seed`` (``scaling``): the learner
        that trains with the measurement, and the measurement with the step sizes it sets
        (the run's config.json keeps it)."""
        found = scaling.measure(scaling.probe(game, evaluator, seed), seed)
        width = evaluator.encoding.width
        found["init_scale"] = scaling.init_factors(evaluator.model, width, found)
        if self.alpha is None:
            found["alpha"] = [float(f"{a:.6g}") for a in scaling.scaled_alpha(
                evaluator.model, width, found)]  # fmt: skip
        return attrs.evolve(self, measured=found), found

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
        if self.outcome == "margin" and not isinstance(game, HasMargin):
            raise CapabilityError(
                f"learner 'td' with outcome 'margin': game {game.name!r} has no margin (HasMargin)"
            )
        path = Path(workdir) / CHECKPOINT
        model = evaluator.model
        searcher = self._searcher()
        starts = read_starts(game, self.start_positions) if self.start_positions else []
        found = self.measured
        if found is None:
            found = self.measure(game, evaluator, 0)[1]
        probe = scaling.probe(game, evaluator, int(found["probe_seed"]))
        alpha = alpha_vector(model, evaluator.encoding.width, self.alpha or found["alpha"])
        scaling.shrink_init(model, found["init_scale"])  # a resume's checkpoint then sets them
        clone = copy_evaluator(evaluator) if self.regime == "clone" else None
        best = copy_evaluator(evaluator) if self.gate_games else None
        update = TDUpdate(model, alpha, self.lam, self.gamma, self.momentum, self.direction_check)
        fast = compiled_td.plan(self, game, evaluator, searcher)  # None: the Python path
        counters: dict[str, Any] = {"games": 0, "clones": 0, "elapsed": 0.0, "history": []}
        if checkpoint.resumable(workdir, resume):
            counters, update.velocity = load_checkpoint(path, self, model, clone, rng, best)
        else:
            save_snapshot(workdir, game, evaluator, 0, {"learner": self.name})  # the curve's start
        history: list[dict[str, Any]] = list(counters["history"])
        played, clones = int(counters["games"]), int(counters["clones"])
        elapsed = float(counters["elapsed"])
        warned = False
        while played < self.games:
            begin = time.perf_counter()
            n = min(self.batch, self.games - played)
            if fast is not None:
                finals, plies = compiled_td.play_batch(
                    fast, self, game, evaluator, update, alpha, rng, starts, played, n
                )
            else:
                finals, plies = self._play_batch(
                    game, evaluator, clone, update, alpha, searcher, rng, starts, played, n
                )
            crossed = self.checkpoint_every and (
                (played + n) // self.checkpoint_every > played // self.checkpoint_every
            )
            played += n
            row = self._row(game, finals, plies, played, update)
            row["saturated"] = round(scaling.saturation(evaluator, probe), 4)
            if row["saturated"] > scaling.WARN_SHARE and not warned:
                warned = True
                print(
                    f"mindgames: warning: td: {row['saturated']:.0%} of the probe positions "
                    f"valued beyond +-{scaling.SATURATED} after {played} games (step sizes too "
                    "large for the inputs? docs/learners.md, 'Step sizes')",
                    file=sys.stderr,
                )
            if clone is not None:
                points = selfplay.play_test_games(self, game, evaluator, clone, searcher, rng)
                copied = sum(points) >= self.clone_points
                if copied:
                    as_parametric(clone.model).set_params(as_parametric(model).get_params())
                    clones += 1
                row.update({"test": points, "cloned": copied, "clones": clones})
            saving = stop_requested() or crossed or played >= self.games  # Ctrl-C: save, stop
            if saving and best is not None and not stop_requested():
                row.update(self._gate(game, evaluator, best, searcher, rng))
            seconds = time.perf_counter() - begin
            elapsed += seconds
            row.update({"seconds": round(seconds, 4), "elapsed": round(elapsed, 3)})
            history.append(row)
            with reporting(row, progress):  # the row first: a kill never loses a saved row
                if saving:
                    save_snapshot(workdir, game, evaluator, played, {"learner": self.name})
                    extra = {"games": played, "clones": clones, "elapsed": elapsed}
                    save_checkpoint(
                        path, self, model, clone, rng, update.velocity, extra, history, best
                    )
        return TrainingResult(evaluator if best is None else best, tuple(history))

    def _gate(
        self, game: Game, evaluator: Evaluator, best: Evaluator, searcher: Searcher | None,
        rng: np.random.Generator,
    ) -> dict[str, Any]:  # fmt: skip
        """The gate match against the best net; the learning net becomes the best if it
        scored ``gate_score``. The history row's ``gate`` (the share) and ``kept``."""
        score = gate_score(self, game, evaluator, best, searcher, rng)
        kept = score >= self.gate_score
        if kept:
            as_parametric(best.model).set_params(as_parametric(evaluator.model).get_params())
        return {"gate": round(score, 4), "kept": kept}

    def _schedule(self, update: TDUpdate, alpha: np.ndarray, fraction: float) -> dict[str, float]:
        """Set lambda and the step sizes for the point ``fraction`` of training; the
        exploration there."""
        update.lam = decay(self.lam, self.lam_end, fraction)
        update.alpha = alpha * decay(1.0, self.alpha_end_scale, fraction)
        return self._explore_at(fraction)

    def _play_batch(
        self,
        game: Game,
        evaluator: Evaluator,
        clone: Evaluator | None,
        update: TDUpdate,
        alpha: np.ndarray,
        searcher: Searcher | None,
        rng: np.random.Generator,
        starts: list[Start],
        played: int,
        n: int,
    ) -> tuple[list[State], list[int]]:
        """Play and learn the next ``n`` games; their final states and lengths."""
        if self.lockstep > 1:
            explore = self._schedule(update, alpha, played / self.games)
            return selfplay.play_lockstep(self, game, evaluator, n, update, rng, explore, starts)
        finals: list[State] = []
        plies: list[int] = []
        for i in range(n):
            explore = self._schedule(update, alpha, (played + i) / self.games)
            start, draw_reward = pick_start(
                game, starts, rng, self.random_plies, self.random_plies_max
            )
            if clone is None:
                players, learners = (evaluator, evaluator), (True, True)
            else:
                side = (played + i) % 2
                players = (evaluator, clone) if side == 0 else (clone, evaluator)
                learners = (True, True) if self.learn_from == "both" else (side == 0, side == 1)
            final, ply = self.play_game(
                game,
                start,
                players,
                learners,
                update,
                searcher,
                rng,
                explore,
                draw_reward,
                evaluator,
            )
            plies.append(ply)
            finals.append(final)
        return finals, plies

    def _row(
        self, game: Game, finals: list[State], plies: list[int], played: int, update: TDUpdate
    ) -> dict[str, Any]:
        """The history row of a batch (before the cloning test and the timings)."""
        row: dict[str, Any] = {"games": played, "mean_plies": float(np.mean(plies))}
        if isinstance(game, CountsPieces):
            row["mean_pieces"] = float(np.mean([game.pieces(final) for final in finals]))
        row["lambda"] = round(update.lam, 6)
        if self.alpha_end_scale is not None:
            scale = decay(1.0, self.alpha_end_scale, played / self.games)
            row["alpha_scale"] = round(scale, 6)
        row.update({k: round(x, 6) for k, x in self._explore_at(played / self.games).items()})
        return row

    # --- the drivers, as methods (each takes the learner's options first) -----------------
    #: one game from a state, learning from the learning sides: (final state, plies)
    play_game = selfplay.play_game
    #: the reward of a finished game for a side
    reward = selfplay.final_reward

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
        reward = selfplay.rewarder(self, game, start_side, draw_reward)
        return selfplay.leaf_value(game, state, pv, evaluator, reward)

    def _explore_at(self, fraction: float) -> dict[str, float]:
        if self.explore == "epsilon":
            return {"epsilon": decay(self.epsilon, self.epsilon_end, fraction)}
        return {"temperature": decay(self.temperature, self.temperature_end, fraction)}

    def _searcher(self) -> Searcher | None:
        if self.lookahead is None:
            return None
        from mindgames.registry import get_registry
        from mindgames.spec import parse_spec

        name, options = parse_spec(self.lookahead)
        return get_registry().searcher(name, options, where=f"td lookahead {self.lookahead!r}")
