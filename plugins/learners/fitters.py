"""Fitters: how every learner fits a model to labelled patterns (one module, shared).

* ``rprop`` -- iRprop- (Igel and Huesken 2000) on the full-batch gradient of the mean squared
  error: one step size per weight (starting at ``step``), times ``increase`` (1.2) while the
  gradient keeps its sign, times ``decrease`` (0.5) when it flips (and that weight rests one
  epoch), kept within [``step_min``, ``step_max``]; each weight moves by
  ``-sign(gradient) * step``.
* ``adam`` -- Adam (Kingma and Ba 2015) on mini-batches of ``batch`` patterns, the patterns in a
  new random order every epoch.
* ``fit`` -- a *fittable* model's own closed-form fit (linear: least squares), in one epoch.

``Fit`` runs epochs with early stopping: the validation error may rise for ``patience`` epochs
before training stops, never before ``min_epochs``; the weights of the best validation epoch
are restored at the end. With ``average_from`` set, the result is instead the mean of the
weights after each epoch from that one on (Polyak-Ruppert averaging), and every epoch runs:
for a noisy trainer (TD along games) one epoch's weights are a noisy draw, their mean is not.

``step`` and ``lr`` unset: each weight's first RPROP step, or Adam's step, is ``RPROP_MOVE`` or
``ADAM_MOVE`` over the root mean squared length of that weight's inputs, measured by the learner
on random games (``steps``: ``td.scaling.group_mean_squares``), so that a step moves a unit's
pre-activation by about that much whatever the encoding's scale; without a measurement, ``STEP``
and ``LR`` (the values for inputs of squared length 16, raw32's). ``Fit`` can be checkpointed
(``state``/``restore``) for resumable learners. The error is the weighted mean squared error of
the model's values against the labels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs
import numpy as np
from attrs import validators as v

from mindgames.errors import MindgamesError
from mindgames.model import (
    DIFFERENTIABLE,
    FITTABLE,
    BatchDifferentiable,
    Differentiable,
    Model,
    Parametric,
    WeightedGrads,
    as_differentiable,
    as_fittable,
    as_parametric,
    require,
)

FITTERS = ("rprop", "adam", "fit")
#: patterns per block when summing gradients (bounds the memory of batch gradients)
CHUNK = 512
#: what one RPROP first step / one Adam step moves a unit's pre-activation by (root mean square
#: over the weights' signs) when ``step`` / ``lr`` are unset (module docstring)
RPROP_MOVE = 0.04
ADAM_MOVE = 0.004
#: the steps without a measurement: RPROP_MOVE and ADAM_MOVE on inputs of squared length 16
STEP = 0.01
LR = 0.001


@attrs.frozen
class FitOptions:
    """Options of the fitters and of early stopping (docs/learners.md, ``supervised``)."""

    fitter: str = attrs.field(default="rprop", validator=v.in_(FITTERS))
    epochs: int = attrs.field(default=200, validator=v.ge(1))
    min_epochs: int = attrs.field(default=20, validator=v.ge(0))
    patience: int = attrs.field(default=20, validator=v.ge(1))
    #: 0: keep the best validation epoch; N: the mean of the weights after epochs N..epochs
    average_from: int = attrs.field(default=0, validator=v.ge(0))
    #: RPROP's first step and Adam's step; None: scaled to the inputs (module docstring)
    step: float | None = attrs.field(default=None, validator=v.optional(v.gt(0.0)))
    step_min: float = attrs.field(default=1e-6, validator=v.gt(0.0))
    step_max: float = attrs.field(default=1.0, validator=v.gt(0.0))
    increase: float = attrs.field(default=1.2, validator=v.gt(1.0))
    decrease: float = attrs.field(default=0.5, validator=[v.gt(0.0), v.lt(1.0)])
    lr: float | None = attrs.field(default=None, validator=v.optional(v.gt(0.0)))
    batch: int = attrs.field(default=64, validator=v.ge(1))
    beta1: float = attrs.field(default=0.9, validator=[v.ge(0.0), v.lt(1.0)])
    beta2: float = attrs.field(default=0.999, validator=[v.ge(0.0), v.lt(1.0)])

    def __attrs_post_init__(self) -> None:
        if self.average_from > self.epochs:
            raise ValueError(
                f"'average_from' must be at most 'epochs' ({self.epochs}): "
                f"got {self.average_from}, which would average no epoch"
            )


@attrs.frozen(eq=False)
class Patterns:
    """Encoded positions ``xs`` (n, columns), targets ``ys`` (n,) and weights ``ws`` (n,)."""

    xs: np.ndarray
    ys: np.ndarray
    ws: np.ndarray

    @classmethod
    def of(cls, xs: Any, ys: Any, ws: Any = None) -> Patterns:
        ys = np.asarray(ys, dtype=float)
        weights = np.ones(len(ys)) if ws is None else np.asarray(ws, dtype=float)
        return cls(np.asarray(xs, dtype=float), ys, weights)

    def __len__(self) -> int:
        return len(self.ys)

    def take(self, index: np.ndarray) -> Patterns:
        return Patterns(self.xs[index], self.ys[index], self.ws[index])


def value_and_grad_batch(model: Differentiable, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and gradients of a batch: the model's batch method, else one row at a time."""
    if isinstance(model, BatchDifferentiable):
        return model.value_and_grad_batch(xs)
    pairs = [model.value_and_grad(x) for x in xs]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def mse(model: Model, patterns: Patterns) -> float:
    """Weighted mean squared error of the model's values against the targets."""
    if not len(patterns):
        return float("nan")
    err = model.value_batch(patterns.xs) - patterns.ys
    return float(np.sum(patterns.ws * err * err) / np.sum(patterns.ws))


def mse_and_grad(model: Differentiable, patterns: Patterns) -> tuple[float, np.ndarray]:
    """The weighted mean squared error and its gradient with respect to the parameters."""
    total = float(np.sum(patterns.ws))
    loss, grad = 0.0, np.zeros(len(model.get_params()))
    # slices are views (no copy of a block each epoch); the capability is checked once, not
    # once a block (a runtime protocol check costs as much as a small block's arithmetic)
    weighted = model.values_and_weighted_grad if isinstance(model, WeightedGrads) else None
    for lo in range(0, len(patterns), CHUNK):
        hi = lo + CHUNK
        xs, ys, ws = patterns.xs[lo:hi], patterns.ys[lo:hi], patterns.ws[lo:hi]
        if weighted is not None:
            values, grad_of = weighted(xs)
            err = values - ys
            grad += grad_of(2.0 * ws * err)
        else:
            values, grads = value_and_grad_batch(model, xs)
            err = values - ys
            grad += (2.0 * ws * err) @ grads
        loss += float(np.sum(ws * err * err))
    return loss / total, grad / total


class Trainer(Protocol):
    """One epoch of a fitting method over the training patterns; returns the training error."""

    def epoch(self, model: Model, rng: np.random.Generator) -> float: ...
    def arrays(self) -> dict[str, np.ndarray]: ...
    def load(self, arrays: dict[str, np.ndarray]) -> None: ...


class Rprop:
    """iRprop- on the full batch (module docstring)."""

    def __init__(
        self, patterns: Patterns, size: int, options: FitOptions, steps: np.ndarray | None = None
    ) -> None:
        self.patterns = patterns
        self.o = options
        first = options.step if options.step is not None else steps if steps is not None else STEP
        self.steps = np.array(np.broadcast_to(first, size), dtype=float)
        self.previous = np.zeros(size)

    def update(self, params: np.ndarray, grad: np.ndarray) -> np.ndarray:
        """New parameters after one iRprop- step with gradient ``grad``."""
        o = self.o
        agree = grad * self.previous
        self.steps = np.where(
            agree > 0,
            np.minimum(self.steps * o.increase, o.step_max),
            np.where(agree < 0, np.maximum(self.steps * o.decrease, o.step_min), self.steps),
        )
        grad = np.where(agree < 0, 0.0, grad)
        self.previous = grad
        return params - np.sign(grad) * self.steps

    def epoch(self, model: Model, rng: np.random.Generator) -> float:
        net = as_differentiable(model)
        loss, grad = mse_and_grad(net, self.patterns)
        net.set_params(self.update(net.get_params(), grad))
        return loss

    def arrays(self) -> dict[str, np.ndarray]:
        return {"steps": self.steps, "previous": self.previous}

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        self.steps, self.previous = arrays["steps"], arrays["previous"]


class Adam:
    """Adam on mini-batches in a new random order each epoch (module docstring)."""

    def __init__(
        self, patterns: Patterns, size: int, options: FitOptions, steps: np.ndarray | None = None
    ) -> None:
        self.patterns = patterns
        self.o = options
        self.lr = options.lr if options.lr is not None else steps if steps is not None else LR
        self.m = np.zeros(size)
        self.v = np.zeros(size)
        self.t = np.zeros(1)

    def epoch(self, model: Model, rng: np.random.Generator) -> float:
        o, net = self.o, as_differentiable(model)
        order = rng.permutation(len(self.patterns))
        losses = []
        for lo in range(0, len(order), o.batch):
            loss, grad = mse_and_grad(net, self.patterns.take(order[lo : lo + o.batch]))
            losses.append(loss)
            self.t += 1
            self.m = o.beta1 * self.m + (1 - o.beta1) * grad
            self.v = o.beta2 * self.v + (1 - o.beta2) * grad * grad
            m_hat = self.m / (1 - o.beta1 ** self.t[0])
            v_hat = self.v / (1 - o.beta2 ** self.t[0])
            net.set_params(net.get_params() - self.lr * m_hat / (np.sqrt(v_hat) + 1e-8))
        return float(np.mean(losses))

    def arrays(self) -> dict[str, np.ndarray]:
        return {"m": self.m, "v": self.v, "t": self.t}

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        self.m, self.v, self.t = arrays["m"], arrays["v"], arrays["t"]


class ClosedForm:
    """A fittable model's own fit (least squares for ``linear``) in one epoch."""

    def __init__(self, patterns: Patterns) -> None:
        self.patterns = patterns

    def epoch(self, model: Model, rng: np.random.Generator) -> float:
        as_fittable(model).fit(self.patterns.xs, self.patterns.ys)
        return mse(model, self.patterns)

    def arrays(self) -> dict[str, np.ndarray]:
        return {}

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        return None


def trainer_for(
    model: Model, patterns: Patterns, options: FitOptions, who: str,
    steps: np.ndarray | None = None,
) -> Trainer:  # fmt: skip
    """The trainer ``options.fitter`` names, after checking the model offers what it needs;
    ``steps``: per weight, the measured step (``step`` or ``lr`` unset)."""
    if options.fitter == "fit":
        require({FITTABLE}, model, who=f"{who} with fitter 'fit'")
        return ClosedForm(patterns)
    require({DIFFERENTIABLE}, model, who=f"{who} with fitter {options.fitter!r}")
    size = len(as_parametric(model).get_params())
    return (Rprop if options.fitter == "rprop" else Adam)(patterns, size, options, steps)


class Fit:
    """Epochs of a trainer with early stopping on the validation error (module docstring)."""

    def __init__(
        self, model: Model, trainer: Trainer, valid: Patterns | None, options: FitOptions
    ) -> None:
        self.model = model
        self.trainer = trainer
        self.valid = valid if valid is not None and len(valid) else None
        self.o = options
        self.epoch = 0
        self.best_error = float("inf")
        self.best_epoch = 0
        self.best_params = np.array(as_parametric(model).get_params(), dtype=float)
        #: sum and count of the weights averaged so far (``average_from``)
        self.average_sum = np.zeros_like(self.best_params)
        self.averaged = 0
        self.done = False

    def step(self, rng: np.random.Generator) -> dict[str, Any]:
        """One epoch; returns its history row (epoch, train and validation MSE, best epoch)."""
        train_error = self.trainer.epoch(self.model, rng)
        self.epoch += 1
        error = mse(self.model, self.valid) if self.valid is not None else train_error
        if error < self.best_error:
            self.best_error, self.best_epoch = error, self.epoch
            self.best_params = np.array(as_parametric(self.model).get_params(), dtype=float)
        averaging = self.o.average_from > 0
        if averaging and self.epoch >= self.o.average_from:
            self.average_sum += as_parametric(self.model).get_params()
            self.averaged += 1
        waited = self.epoch - self.best_epoch
        one_shot = isinstance(self.trainer, ClosedForm)
        self.done = (
            one_shot
            or self.epoch >= self.o.epochs
            or (not averaging and self.epoch >= self.o.min_epochs and waited >= self.o.patience)
        )
        row = {"epoch": self.epoch, "train_mse": round(train_error, 8)}
        if self.valid is not None:
            row["valid_mse"] = round(error, 8)
        row["best_epoch"] = self.best_epoch
        if averaging:
            row["averaged"] = self.averaged
        return row

    def finish(self) -> None:
        """Set the result: the mean of the averaged epochs' weights, else the best epoch's."""
        if isinstance(self.model, Parametric):
            if self.averaged:
                self.model.set_params(self.average_sum / self.averaged)
            else:
                self.model.set_params(self.best_params)

    def state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """What a checkpoint keeps: counters (JSON) and arrays."""
        meta = {
            "epoch": self.epoch,
            "best_error": self.best_error,
            "best_epoch": self.best_epoch,
            "done": self.done,
            "averaged": self.averaged,
        }
        arrays = {f"fitter/{k}": a for k, a in self.trainer.arrays().items()}
        arrays["best_params"] = self.best_params
        arrays["average_sum"] = self.average_sum
        return meta, arrays

    def restore(self, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        self.epoch, self.best_epoch = int(meta["epoch"]), int(meta["best_epoch"])
        self.best_error, self.done = float(meta["best_error"]), bool(meta["done"])
        self.best_params = arrays["best_params"]
        self.averaged = int(meta.get("averaged", 0))  # checkpoints before averaging: none
        self.average_sum = arrays.get("average_sum", np.zeros_like(self.best_params))
        prefix = "fitter/"
        self.trainer.load({k[len(prefix) :]: a for k, a in arrays.items() if k.startswith(prefix)})


def fit_patterns(
    model: Model,
    train: Patterns,
    valid: Patterns | None,
    options: FitOptions,
    rng: np.random.Generator,
    on_epoch: Callable[[dict[str, Any]], None] | None = None,
    who: str = "fitter",
) -> list[dict[str, Any]]:
    """Fit ``model`` to ``train`` with early stopping on ``valid``; the history rows."""
    if not len(train):
        raise MindgamesError(f"{who}: no training patterns")
    fit = Fit(model, trainer_for(model, train, options, who), valid, options)
    rows = []
    while not fit.done:
        rows.append(fit.step(rng))
        if on_epoch is not None:
            on_epoch(rows[-1])
    fit.finish()
    return rows
