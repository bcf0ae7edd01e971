"""``supervised``: fit an evaluator to labelled positions from data-set files.

Targets (``target``):

* ``label`` -- each position's label (its value for the side to move), fitted by one of the
  fitters (``rprop``, ``adam``, or a fittable model's closed-form ``fit``) with early stopping;
* ``td`` -- NeuroDraughts' expert trainer: TD(lambda) along each recorded game, as if the game
  were being played (positions of a group in ply order; the last position's label is the
  reward), one pass over the training games in a random order per epoch, with the TD update
  maths of the ``td`` learner.

The data are split into training and validation games by group, never by position, and the
fit stops early on the validation error (``FitOptions``: on by default). With ``fit.step``
(RPROP) or ``fit.lr`` (Adam) unset, the steps are scaled to the encoding's inputs, measured on
seeded random games before training (``measure``: TD's probe, ``td.scaling``). One history
row per epoch (training and validation MSE); checkpoints every ``checkpoint_every`` epochs and
``--resume`` continue exactly where a killed run stopped.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np
from attrs import validators as v

from mindgames import checkpoint
from mindgames.data.playouts import from_games
from mindgames.data.sets import DataSet, merge, read_dataset, split_by_group
from mindgames.errors import CapabilityError, MindgamesError
from mindgames.files import sha256_of
from mindgames.game import Game, ImportsGames
from mindgames.interrupts import stop_requested
from mindgames.learner import Learner, Progress, TrainingResult
from mindgames.model import (
    DIFFERENTIABLE,
    Evaluator,
    Model,
    Parametric,
    as_differentiable,
    require,
)
from mindgames.plugins.learners.fitters import (
    ADAM_MOVE,
    RPROP_MOVE,
    Fit,
    FitOptions,
    Patterns,
    Trainer,
    trainer_for,
)
from mindgames.plugins.learners.td import scaling
from mindgames.plugins.learners.td.update import TDUpdate, alpha_vector
from mindgames.training import reporting

CHECKPOINT = checkpoint.CHECKPOINT


@attrs.frozen
class SupervisedLearner(Learner):
    """Fit labelled positions (``label``) or replay recorded games with TD(lambda) (``td``)."""

    name: ClassVar[str] = "supervised"

    #: data-set files (``.npz`` from ``data`` or ``pdn extract``) of the run's game, and/or game
    #: records (PDN for checkers) labelled by their results as ``pdn extract`` does
    data: list[str] = attrs.field(validator=v.min_len(1))
    target: str = attrs.field(default="label", validator=v.in_(("label", "td")))
    #: fraction of the groups (games) held out for validation and early stopping
    validation: float = attrs.field(default=0.1, validator=[v.ge(0.0), v.lt(1.0)])
    checkpoint_every: int = attrs.field(default=10, validator=v.ge(0))
    fit: FitOptions = attrs.Factory(FitOptions)
    #: TD target: trace decay, step size (as the td learner: one, one per group, or 1/fan-in)
    lam: float = attrs.field(default=0.7, validator=[v.ge(0.0), v.le(1.0)])
    alpha: Any = None
    #: the probe's measurement (``measure``); set by ``mindgames train`` from the run's seed,
    #: not by configs. None: ``train`` probes with seed 0 when it needs the steps.
    measured: dict[str, Any] | None = attrs.field(default=None, repr=False)

    def measure(self, game: Game, evaluator: Evaluator, seed: int) -> tuple[Learner, dict]:
        """Probe the encoding on random games seeded by ``seed`` (``td.scaling``): the learner
        with the measurement, and the measurement with the fitter's per-group steps
        (``fit.step`` for RPROP, ``fit.lr`` for Adam) when the config leaves them unset."""
        found = scaling.measure(scaling.probe(game, evaluator, seed), seed)
        fitter, unset = self.fit.fitter, {"rprop": self.fit.step, "adam": self.fit.lr}
        fits = self.target == "label" and isinstance(evaluator.model, Parametric)
        if fits and fitter in unset and unset[fitter] is None:  # else train refuses or fits
            key, move = ("fit.step", RPROP_MOVE) if fitter == "rprop" else ("fit.lr", ADAM_MOVE)
            squares = scaling.group_mean_squares(evaluator.model, evaluator.encoding.width, found)
            found[key] = [float(f"{move / np.sqrt(ms):.6g}") for ms in squares]
        return attrs.evolve(self, measured=found), found

    def planned(self) -> tuple[str, int]:
        """Epochs at most: early stopping may end training sooner."""
        return ("epoch", self.fit.epochs)

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
        """Load, encode and split the data, then run epochs until early stopping ends them."""
        model = evaluator.model
        who = f"learner {self.name!r}"
        if self.target == "td":
            require({DIFFERENTIABLE}, model, who=f"{who} with target 'td'")
        parts = self._parts(game)
        data, inputs = joined(parts), {"data": sources(parts)}  # the files as read, not as left
        xs = evaluator.encoding.encode_batch([game.parse_position(t) for t in data.positions])
        assert data.labels is not None
        train_rows, valid_rows = split_by_group(data.groups, self.validation, rng)
        if not len(train_rows):
            raise MindgamesError(f"{who}: no training positions in {', '.join(self.data)}")
        patterns = Patterns.of(xs, data.labels, data.weights)
        train = patterns.take(train_rows)
        if self.target == "td":
            sides = np.array([game.to_move(game.parse_position(t)) for t in data.positions])
            trainer: Trainer = GameReplay(data, xs, sides, train_rows, model, self)
        else:
            trainer = trainer_for(model, train, self.fit, who, self._steps(game, evaluator))
        fit = Fit(model, trainer, patterns.take(valid_rows), self.fit)
        history: list[dict[str, Any]] = []
        path = checkpoint.path_in(workdir)
        if checkpoint.resumable(workdir, resume):
            history = self._load(path, model, fit, rng, inputs["data"])
        before = float(history[-1].get("elapsed", 0.0)) if history else 0.0
        began = time.perf_counter()
        while not fit.done:
            row = fit.step(rng)
            row["elapsed"] = round(before + time.perf_counter() - began, 3)  # training so far
            history.append(row)
            every = self.checkpoint_every
            with reporting(row, progress):
                if stop_requested() or fit.done or (every and fit.epoch % every == 0):
                    self._save(path, model, fit, rng, history, inputs["data"])
        fit.finish()
        return TrainingResult(evaluator, tuple(history), inputs)

    def _steps(self, game: Game, evaluator: Evaluator) -> np.ndarray | None:
        """The fitter's measured steps per weight (``measure``), or None when set by the config."""
        found = self.measured if self.measured is not None else self.measure(
            game, evaluator, 0)[1]  # fmt: skip
        for key in ("fit.step", "fit.lr"):
            if key in found:
                return scaling.per_weight(evaluator.model, found[key])
        return None

    def load(self, game: Game) -> DataSet:
        """Every file of ``data`` as one data set: data sets (``.npz``) of this game with labels,
        and game records (any other suffix: ``Game.import_games``) labelled by their results."""
        return joined(self._parts(game))

    def _parts(self, game: Game) -> list[tuple[str, DataSet]]:
        """Each file of ``data`` read as a data set, with its name."""
        who = f"learner {self.name!r}"
        parts = []
        for path in self.data:
            if Path(path).suffix == ".npz":
                parts.append((path, read_dataset(path, game=game.spec(), need=("label",), who=who)))
            else:
                if not isinstance(game, ImportsGames):
                    raise CapabilityError(f"game {game.name!r} cannot read game records")
                games, _ = game.import_games(path)
                parts.append((path, from_games(game, games, provenance={"source": path})))
        return parts

    # --- checkpoints ---------------------------------------------------------------------
    def _save(
        self,
        path: Path,
        model: Model,
        fit: Fit,
        rng: np.random.Generator,
        history: list[Any],
        data: list[dict[str, Any]],
    ) -> None:
        """The checkpoint (``mindgames.checkpoint``): the fit's counters and arrays (its best
        weights, the fitter's state), the weights, and the data files' digests."""
        counters, arrays = fit.state()
        counters = {**counters, "data_sha256": [source["sha256"] for source in data]}
        params = model.get_params() if isinstance(model, Parametric) else np.zeros(0)
        arrays = {**arrays, "params": params}
        checkpoint.save(path, self, counters=counters, history=history, arrays=arrays, rng=rng)

    def _load(
        self,
        path: Path,
        model: Model,
        fit: Fit,
        rng: np.random.Generator,
        data: list[dict[str, Any]],
    ) -> list[Any]:
        """Restore the weights, the fit and the random state; return the history. A data file
        that changed since the checkpoint is refused: the run would go on fitting other data."""
        saved = checkpoint.load(path, self, rng=rng)
        digests = saved.counters.pop("data_sha256", None)
        for source, before in zip(data, digests or [], strict=False):
            if source["sha256"] != before:
                raise MindgamesError(
                    f"{source['file']}: changed since the run's checkpoint (its SHA-256 "
                    "differs); resume with the same data or train into a new --out"
                )
        if isinstance(model, Parametric):
            model.set_params(saved.arrays["params"])
        fit.restore(saved.counters, saved.arrays)
        return saved.history


def joined(parts: list[tuple[str, DataSet]]) -> DataSet:
    """The parts as one data set (merged when there are several)."""
    return merge(parts) if len(parts) > 1 else parts[0][1]


def sources(parts: list[tuple[str, DataSet]]) -> list[dict[str, Any]]:
    """Each data file as the model's provenance names it: path, SHA-256 of its bytes, rows, and
    the record it carries (how it was made: generator, labeller)."""
    return [
        {"file": path, "sha256": sha256_of(path), "rows": len(part), "record": part.provenance}
        for path, part in parts
    ]


class GameReplay:
    """The ``td`` target: TD(lambda) along each training game, games in a random order."""

    def __init__(
        self,
        data: DataSet,
        xs: np.ndarray,
        sides: np.ndarray,
        rows: np.ndarray,
        model: Model,
        options: SupervisedLearner,
    ) -> None:
        assert data.labels is not None
        self.games: list[tuple[np.ndarray, np.ndarray, float]] = []
        chosen = np.zeros(len(data), dtype=bool)
        chosen[rows] = True
        for group in np.unique(data.groups[rows]):
            index = np.flatnonzero((data.groups == group) & chosen)
            index = index[np.argsort(data.plies[index], kind="stable")]
            plies = data.plies[index]
            if len(index) > 1 and not np.all(np.diff(plies) == 1):
                raise MindgamesError(
                    f"target 'td': game (group) {int(group)} is not a whole recorded game "
                    "(its plies are not consecutive); use pdn extract output"
                )
            self.games.append((xs[index], sides[index], float(data.labels[index[-1]])))
        alpha = alpha_vector(model, xs.shape[1], options.alpha)
        self.update = TDUpdate(model, alpha, options.lam)

    def epoch(self, model: Model, rng: np.random.Generator) -> float:
        """One pass over the games; returns the mean squared TD error of the final rewards."""
        net = as_differentiable(model)
        errors = []
        for g in rng.permutation(len(self.games)):
            xs, sides, reward = self.games[g]
            value, grad = net.value_and_grad(xs[0])
            self.update.begin(value, grad)
            for t in range(1, len(xs)):
                value, grad = net.value_and_grad(xs[t])
                self.update.step(value, grad, bool(sides[t] == sides[t - 1]))
            errors.append((reward - self.update.p) ** 2)
            self.update.finish(reward)
        return float(np.mean(errors))

    def arrays(self) -> dict[str, np.ndarray]:
        return {"velocity": self.update.velocity}

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        self.update.velocity = arrays["velocity"]
